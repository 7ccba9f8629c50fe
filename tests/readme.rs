//! The documents' examples are tests: every ```` ```console ```` block of README.md and
//! of every `report/*.md` is run, and what each command prints must be what the
//! document shows.
//!
//! # The format of a console block
//!
//! ````text
//! <!-- files: samples/02-prob.in tests/bots/mini.py -->
//! ```console
//! $ spot-the-ships samples/02-prob.in | head -2
//! 11
//! XXXXXX
//! $ spot-the-ships generate --seed 7 | head -1
//! prob
//! ```
//! ````
//!
//! - A line starting with `$ ` is a command; a command line ending in `\` goes on to
//!   the next line. The lines after it, up to the next `$ ` line or the end of the
//!   block, are what it prints: its stdout and stderr together, in the order written
//!   (it runs as `sh -c 'exec 2>&1; COMMAND'`). Its exit status is not checked: an
//!   example may show an error.
//! - A line that is only `...` (spaces around it allowed) stands for any number of lines,
//!   none included; `...` inside a line stands for any text (timings, speeds).
//! - Each command runs with `sh`, in a fresh scratch folder (one per block; the block's
//!   commands share it, so a file one writes the next can read), with the built
//!   `spot-the-ships` first on `PATH`, stdin empty (`/dev/null`) and `NO_COLOR=1`. As in
//!   a terminal, a `cd` and the exit status carry over: the next command of the block
//!   starts in the folder where the last one ended, with `$?` its exit status.
//! - HTML comment lines right before the block (blank lines between are allowed) set
//!   it up:
//!   - `<!-- files: PATH PATH ... -->`: these files of the repository are copied into
//!     the scratch folder, at the same relative paths. Without it, `samples/` is copied.
//!   - `<!-- slow -->`: the block takes more than a few seconds; it runs only in the
//!     ignored test (`cargo test --release --test all readme:: -- --ignored`).
//!
//!   Both can be given in one comment: `<!-- slow; files: tests/bots/mini.py -->`.
//!
//! Blocks that are not `console` (`sh`, `text`, `python`) are not run: use them for
//! recipes that need what a test does not have (other hosts, a person typing).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One command of a block and the lines the document shows after it.
#[derive(Debug)]
struct Step {
    command: String,
    expected: Vec<String>,
}

/// One console block of a document.
#[derive(Debug)]
struct Block {
    /// The line of the document where the block starts (from 1).
    line: usize,
    slow: bool,
    files: Option<Vec<String>>,
    steps: Vec<Step>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Reads the settings of the HTML comments right before line `at` (blank lines allowed).
fn settings(lines: &[&str], at: usize) -> (bool, Option<Vec<String>>) {
    let (mut slow, mut files) = (false, None);
    let mut k = at;
    while k > 0 {
        k -= 1;
        let line = lines[k].trim();
        if line.is_empty() {
            continue;
        }
        let Some(inner) = line.strip_prefix("<!--").and_then(|l| l.strip_suffix("-->")) else { break };
        for part in inner.split(';') {
            let part = part.trim();
            if part == "slow" {
                slow = true;
            } else if let Some(list) = part.strip_prefix("files:") {
                files.get_or_insert_with(Vec::new).extend(list.split_whitespace().map(str::to_string));
            } else {
                panic!("document line {}: unknown setting `{part}` (slow or files: PATHS)", k + 1);
            }
        }
    }
    (slow, files)
}

/// Every console block of `text`.
fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines[k].trim_end() != "```console" {
            k += 1;
            continue;
        }
        let start = k;
        let (slow, files) = settings(&lines, start);
        let mut steps: Vec<Step> = Vec::new();
        k += 1;
        while k < lines.len() && !lines[k].starts_with("```") {
            let line = lines[k];
            if let Some(command) = line.strip_prefix("$ ") {
                let mut command = command.to_string();
                while command.ends_with('\\') && k + 1 < lines.len() {
                    command.pop();
                    command.truncate(command.trim_end().len());
                    k += 1;
                    command.push(' ');
                    command.push_str(lines[k].trim_start());
                }
                steps.push(Step { command, expected: Vec::new() });
            } else {
                match steps.last_mut() {
                    Some(step) => step.expected.push(line.to_string()),
                    None => panic!("document line {}: a console block must start with a `$ ` command", k + 1),
                }
            }
            k += 1;
        }
        assert!(k < lines.len(), "document line {}: the console block is not closed", start + 1);
        out.push(Block { line: start + 1, slow, files, steps });
        k += 1;
    }
    out
}

/// True when `got` matches `pattern`, where `...` stands for any text.
fn line_matches(pattern: &str, got: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = got.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// True when the lines `got` match the lines `want`, where a line `...` stands for any
/// number of lines.
fn lines_match(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=got.len()).any(|skip| lines_match(rest, &got[skip..])),
        Some((first, rest)) => {
            got.split_first().is_some_and(|(g, more)| line_matches(first, g) && lines_match(rest, more))
        }
    }
}

/// Copies the repository's `path` (a file or a folder) into `dir` at the same place.
fn copy_in(path: &str, dir: &Path) {
    let from = root().join(path);
    let to = dir.join(path);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    if from.is_dir() {
        for entry in std::fs::read_dir(&from).unwrap() {
            let name = entry.unwrap().file_name();
            copy_in(&format!("{path}/{}", name.to_string_lossy()), dir);
        }
    } else {
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("a document asks for `{path}`: {e}"));
    }
}

/// Runs `command` with `sh` in `dir`, stdout and stderr together, at most `limit`;
/// `status` is what `$?` says at its start; the block's own files (output, folder at
/// the end) go to `block`. Returns what it printed, the folder it ended in and its exit
/// status.
fn output_of(command: &str, (dir, status): (&Path, i32), block: &Path, limit: Duration) -> (String, PathBuf, i32) {
    use std::os::unix::process::CommandExt;
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_spot-the-ships"));
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let out_file = block.join(".readme-output");
    let cwd_file = block.join(".readme-cwd");
    let _ = std::fs::remove_file(&cwd_file);
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap \"pwd >'{}'\" EXIT; exec >'{}' 2>&1; (exit {status}); {command}",
            cwd_file.display(),
            out_file.display()
        ))
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(128);
        }
        if start.elapsed() > limit {
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.wait();
            panic!("`{command}` took more than {} s (mark its block <!-- slow -->?)", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read(&out_file).unwrap_or_default();
    let _ = std::fs::remove_file(&out_file);
    let ended_in =
        std::fs::read_to_string(&cwd_file).map_or_else(|_| dir.to_path_buf(), |p| PathBuf::from(p.trim_end()));
    (String::from_utf8_lossy(&text).into_owned(), ended_in, status)
}

/// The documents whose examples run: README.md, then `report/*.md` in name order.
fn documents() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(root().join("report"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("report/{name}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_string());
    docs
}

/// Runs every block of every document that `pick` selects; returns the number of
/// commands run and the failures, each described.
fn run_blocks(pick: impl Fn(&Block) -> bool, limit: Duration) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(root().join(&doc)).unwrap();
        let (more, mut failed) = run_document(&doc, &text, &pick, limit);
        ran += more;
        failures.append(&mut failed);
    }
    (ran, failures)
}

/// Runs every block of `text` (the document `doc`) that `pick` selects.
fn run_document(doc: &str, text: &str, pick: &impl Fn(&Block) -> bool, limit: Duration) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let tag = doc.replace(['/', '.'], "-");
    for (n, block) in blocks(text).iter().filter(|b| pick(b)).enumerate() {
        let dir = std::env::temp_dir().join(format!("spot-readme-{}-{tag}-{}-{n}", std::process::id(), block.line));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        match &block.files {
            Some(files) => files.iter().for_each(|f| copy_in(f, &dir)),
            None => copy_in("samples", &dir),
        }
        let (mut cwd, mut status) = (dir.clone(), 0);
        for step in &block.steps {
            ran += 1;
            let (got, ended_in, ended_with) = output_of(&step.command, (&cwd, status), &dir, limit);
            (cwd, status) = (ended_in, ended_with);
            let got_lines: Vec<&str> = got.lines().collect();
            if !lines_match(&step.expected, &got_lines) {
                failures.push(format!(
                    "{doc} line {}: `$ {}`\n--- {doc} shows:\n{}\n--- it printed:\n{}",
                    block.line,
                    step.command,
                    step.expected.join("\n"),
                    got.trim_end()
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    (ran, failures)
}

#[test]
fn readme_examples_print_what_readme_shows() {
    let (ran, failures) = run_blocks(|b| !b.slow, Duration::from_secs(60));
    assert!(ran >= 10, "only {ran} commands found in the documents' console blocks");
    assert!(failures.is_empty(), "{} example(s) differ:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
#[ignore = "the documents' slow examples (minutes): cargo test --release --test all readme:: -- --ignored"]
fn readme_slow_examples_print_what_readme_shows() {
    let (_, failures) = run_blocks(|b| b.slow, Duration::from_secs(1800));
    assert!(failures.is_empty(), "{} example(s) differ:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn the_block_format_reads_commands_markers_and_settings() {
    let text = "intro\n<!-- slow; files: a/b c -->\n\n```console\n$ one \\\n  two\nout 1\n...\n$ three\n```\n\
                ```console\n$ four\n```\n```sh\n$ not run\n```\n";
    let b = blocks(text);
    assert_eq!(b.len(), 2);
    assert!(b[0].slow && !b[1].slow);
    assert_eq!(b[0].files, Some(vec!["a/b".to_string(), "c".to_string()]));
    assert_eq!(b[1].files, None);
    assert_eq!(b[0].steps[0].command, "one two");
    assert_eq!(b[0].steps[0].expected, vec!["out 1".to_string(), "...".to_string()]);
    assert_eq!(b[0].steps[1].command, "three");
    assert!(b[0].steps[1].expected.is_empty());
    let want = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&want(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&want(&["a", "  ...", "b"]), &["a", "b"]));
    assert!(!lines_match(&want(&["a", "b"]), &["a", "b", "c"]));
    assert!(!lines_match(&want(&[]), &["x"]));
    assert!(line_matches("wall time ... s, 2 thread(s)", "wall time 1.65 s, 2 thread(s)"));
    assert!(line_matches("x ... y ... z", "x 1 y 2 z"));
    assert!(!line_matches("x ... y", "x 1 z"));
    assert!(!line_matches("rate 5...", "speed 5 a"));
}

#[test]
fn a_cd_and_the_exit_status_carry_to_the_next_command_as_in_a_terminal() {
    let block = std::env::temp_dir().join(format!("spot-readme-carry-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&block);
    std::fs::create_dir_all(block.join("sub")).unwrap();
    let limit = Duration::from_secs(10);
    let (_, cwd, status) = output_of("cd sub && false", (&block, 0), &block, limit);
    assert_eq!((cwd.file_name().unwrap(), status), (std::ffi::OsStr::new("sub"), 1));
    let (got, _, _) = output_of("echo $? && basename \"$PWD\"", (&cwd, status), &block, limit);
    assert_eq!(got, "1\nsub\n");
    let (_, _, status) = output_of("exit 3", (&block, 0), &block, limit);
    assert_eq!(status, 3);
    let _ = std::fs::remove_dir_all(&block);
}

#[test]
fn the_examples_of_readme_and_of_every_report_document_run() {
    let docs = documents();
    assert_eq!(docs.first().map(String::as_str), Some("README.md"));
    for doc in ["report/spec.md", "report/rules.md", "report/grading.md", "report/results.md"] {
        assert!(docs.iter().any(|d| d == doc), "{doc} is not among the documents run: {docs:?}");
    }
    // A failing example in a report document is reported with its file and line.
    let text = "intro\n```console\n$ echo one\ntwo\n```\n";
    let (ran, failures) = run_document("report/x.md", text, &|_: &Block| true, Duration::from_secs(10));
    assert_eq!(ran, 1);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].starts_with("report/x.md line 2: `$ echo one`"), "{}", failures[0]);
}
