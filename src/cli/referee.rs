//! `referee`: the other side of `play`. Hides a bay (generated from a seed, or the ships
//! of a judge input) and answers a player's probes over stdin and stdout.

use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, SEED};
use super::{CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::tools::play::referee::{self, BaySource};

const FLAGS: &[Flag] = &[
    ROWS,
    COLS,
    SEED.with_help("the bay is the rules' fleet placed at random from S"),
    Flag::value("--board", "FILE", "instead: the bay of a judge input (its strategy line is\nignored)"),
];

/// `referee`'s command line.
pub const COMMAND: Command = Command {
    name: "referee",
    summary: "hide a bay and answer a player's probes",
    usage: &["referee [--rules NAME] [--rows R --cols C] [--seed S]", "referee [--rules NAME] --board FILE"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL (one line each way; stdout is flushed after every line)
  First the header:
    bay ROWS COLS
    fleet SIZES                 comma-separated, largest first
    names NAMES                 when the ships have names, in the same order
    rules touch=yes|no sunk=none|yes|named
  (a fleet of drawn ships: `fleet-file`, the fleet file's lines and `end`
  instead of the fleet and names lines; its rules line adds rotate=yes|no).
  Then the player writes `? r c` (row and column from 0) and the referee
  answers `hit`, `miss`, `sunk` or `sunk NAME` as the rules say. After the
  answer that finds the last ship cell it writes `done N` (N probes) and exits
  0 (`help protocol` has it all). play starts it for you:
    spot-the-ships play --referee 'spot-the-ships referee --rules classic'

ERRORS (one `error: ` line on stderr, exit status 2)
  a probe outside the bay or asked twice, a line that is not `? r c`, or the end
  of the player's input before every ship cell was found.
",
    extra: None,
    document: Some("report/playing.md"),
};

/// `referee`'s flags, read (`serve` builds its games with the same flags).
#[derive(Debug)]
pub(crate) struct RefereeConfig {
    /// The rule flags.
    pub rules: RuleFlags,
    /// The bay.
    pub bay: BaySource,
}

impl RefereeConfig {
    /// Reads `referee`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, or
    /// `--board` with `--rows`, `--cols` or `--seed`.
    pub(crate) fn read(p: &Parsed) -> Result<RefereeConfig, CliError> {
        let rules = RuleFlags::read(p)?;
        let bay = match p.text("--board") {
            Some(path) => {
                if p.has(ROWS.name) || p.has(COLS.name) || p.has(SEED.name) {
                    return Err(CliError::Usage(
                        "--board takes the bay from the file: no --rows, --cols or --seed".into(),
                    ));
                }
                BaySource::File(path.to_string())
            }
            None => {
                let bay = BayFlags::read(p)?.or_rules(&rules.rules)?;
                BaySource::Random { bay, seed: shared::seed(p)? }
            }
        };
        Ok(RefereeConfig { rules, bay })
    }
}

/// Runs `referee`.
/// Pre: none. Post: on `Ok`, stdout holds the header, one answer per probe and `done N`;
/// on `Err`, the last line written is the last answer.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = RefereeConfig::read(flags)?;
    let board = referee::board(&config.rules, &config.bay)?;
    Ok(referee::answer(&board, io.stdin, io.stdout)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = RefereeConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert!(matches!(c.bay, BaySource::Random { bay: (10, 10), seed: 2021 }));
        let c = RefereeConfig::read(&COMMAND.parse_words(&["--rows", "6", "--cols", "7", "--seed", "5"])).unwrap();
        assert!(matches!(c.bay, BaySource::Random { bay: (6, 7), seed: 5 }));
        let c = RefereeConfig::read(&COMMAND.parse_words(&["--board", "in.txt"])).unwrap();
        assert!(matches!(c.bay, BaySource::File(ref f) if f == "in.txt"));
        let e = |w: &[&str]| RefereeConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(
            e(&["--board", "in.txt", "--seed", "1"]),
            "--board takes the bay from the file: no --rows, --cols or --seed"
        );
        assert_eq!(e(&["--seed", "x"]), "--seed: expected a whole number, got `x`");
    }
}
