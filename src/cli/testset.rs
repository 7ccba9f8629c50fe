//! `testset`: write the samples, edge cases and random cases with their expected
//! outputs in a judge's layout.

use super::check::{builtin_cases, CASE_FLAGS};
use super::shared::FORMAT;
use super::{CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::tools::grading::cases::Origin;
use crate::tools::grading::session::BuiltinCases;
use crate::tools::grading::testset::{self, Layout};
use std::path::Path;

const FLAGS: &[Flag] = &[
    Flag::value("--out", "DIR", "write the test set into DIR (created when missing, with\nits missing parent folders)"),
    FORMAT.with_help("mooshak, kattis, kattis-2023 or domjudge").without_default(),
    Flag::value("--time-limit", "SECONDS", "time limit written for DOMjudge and kattis-2023").default("2"),
    Flag::switch(
        "--force",
        "write into a non-empty DIR, replacing the test set there\n(the files its manifest lists) and keeping the others;\nrefused when a file to replace is in no manifest",
    ),
];

/// `testset`'s command line.
pub const COMMAND: Command = Command {
    name: "testset",
    summary: "write the cases for Mooshak, or as a Kattis package",
    usage: &["testset --out DIR --format F [OPTIONS]"],
    groups: &[("OPTIONS", FLAGS), ("CASES", CASE_FLAGS)],
    operands: Operands::None,
    after: "\
Writes the statement's samples, the named edge cases and --random cases, each
with this program's output as the expected one, in the judge's layout:
  mooshak   tests/T001/{input.txt,output.txt} with Mooshak's .data.tcl and
            .class.tcl files (copy tests/ over a problem's tests folder), or
            tests.zip with its Content.xml (import it into the problem's tests
            in Mooshak 2's admin); cases.txt names the case of each test.
  kattis    a whole problem package (legacy format), as verifyproblem
            checks it: problem.yaml, problem_statement/, input_validators/,
            data/sample/*.in,*.ans, data/secret/*.in,*.ans (an input
            repeated is written once), submissions/ (two accepted ones,
            and planted-bug ones the data rejects); linear, smart and prob
            cases only
  kattis-2023  the same in the format's 2023-07-draft version (statement/,
            the time limit in problem.yaml)
  domjudge  the kattis package plus domjudge-problem.ini with the time limit
Names are zero-padded so that they sort. Same seed, same files.
.DIR.testset-manifest beside DIR lists the set's files. The set is built
whole in a temporary folder beside DIR (.DIR.testset-tmp-PID) and moved
into place only when complete: a failure leaves the old set as it was.
",
    extra: None,
    document: Some("report/grading.md"),
};

/// `testset`'s arguments, read and checked.
#[derive(Debug)]
pub(crate) struct TestsetConfig {
    /// `--out DIR`.
    pub dir: String,
    /// `--format`: the judge's layout.
    pub layout: Layout,
    /// `--time-limit` in seconds.
    pub time_limit: f64,
    /// The cases to write.
    pub cases: BuiltinCases,
    /// `--force`.
    pub force: bool,
}

impl TestsetConfig {
    /// Reads `testset`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad or missing value.
    pub(crate) fn read(p: &Parsed) -> Result<TestsetConfig, CliError> {
        let dir: String = p.require("--out")?;
        let layout = match p.choice(FORMAT.name, &Layout::NAMES)? {
            Some(name) => Layout::from_name(name).ok_or_else(|| CliError::Usage(format!("--format: `{name}`")))?,
            None => {
                return Err(CliError::Usage("--format is required: mooshak, kattis, kattis-2023 or domjudge".into()))
            }
        };
        let time_limit = p.seconds("--time-limit")?;
        let cases = builtin_cases(p)?;
        Ok(TestsetConfig { dir, layout, time_limit, cases, force: p.has("--force") })
    }
}

/// Runs `testset`.
/// Pre: none. Post: the files are written and one summary line is on stdout.
pub fn run(p: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let TestsetConfig { dir, layout, time_limit, cases, force } = TestsetConfig::read(p)?;
    // A write past `ulimit -f` fails with EFBIG, reported, instead of killing us.
    crate::sys::ignore_file_size_signal().map_err(|e| CliError::Invalid(format!("cannot ignore SIGXFSZ: {e}")))?;
    let cases = testset::cases_for(layout, cases.cases()?);
    let files = testset::write(Path::new(&dir), layout, &cases, time_limit, force).map_err(CliError::Grading)?;
    let count = |o: Origin| cases.iter().filter(|c| c.origin == o).count();
    writeln!(
        io.stdout,
        "wrote {} cases ({} samples, {} edge, {} random) as {files} files into {dir}",
        cases.len(),
        count(Origin::Sample),
        count(Origin::Edge),
        count(Origin::Random)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = TestsetConfig::read(&COMMAND.parse_words(&["--out", "d", "--format", "kattis"])).unwrap();
        assert_eq!((c.dir.as_str(), c.time_limit, c.force, c.cases.random), ("d", 2.0, false, 300));
        let e = |w: &[&str]| TestsetConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--out", "d"]), "--format is required: mooshak, kattis, kattis-2023 or domjudge");
        assert_eq!(e(&["--format", "kattis"]), "--out is required (see --help)");
        assert_eq!(
            e(&["--out", "d", "--format", "x"]),
            "--format: expected mooshak, kattis, kattis-2023 or domjudge, got `x`"
        );
        let c = TestsetConfig::read(&COMMAND.parse_words(&["--out", "d", "--format", "kattis-2023"])).unwrap();
        assert_eq!(c.layout, Layout::Kattis2023);
    }
}
