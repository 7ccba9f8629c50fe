//! The journeys of README, each as a user takes it (issue 26): a player against a
//! referee started by `play --referee`, defaults that follow the rules, `play` at a
//! terminal, `advise` in a classic game, reproducible random bots, and help a person
//! can read.

use crate::common;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_spot-the-ships");

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs the binary with `args`, stdin empty.
fn run(args: &[&str]) -> Output {
    common::run(args, b"")
}

/// Asserts the error contract: one `error: ` line, exit status 2, nothing on stdout.
fn refused(out: &Output) -> String {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "{}", stdout_of(out));
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err}");
    err
}

/// True while process `pid` exists (a reaped process has no /proc entry).
fn alive(pid: &str) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spot-journeys-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// Item 2: play starts its opponent.

#[test]
fn play_starts_the_referee_and_keeps_its_result_on_stdout() {
    let referee = format!("{BIN} referee --rules classic --seed 5");
    let out = run(&["play", "--referee", &referee]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(out.stderr.is_empty(), "{}", stderr_of(&out));
    let text = stdout_of(&out);
    assert!(!text.contains("? "), "the probes go to the referee, not to stdout: {text}");
    // The same game as two processes joined by hand (README's former FIFO recipe).
    let by_hand = common::game(&["--rules", "classic", "--seed", "5"], &[]);
    assert_eq!(by_hand.play_status, Some(0), "{}", by_hand.play_stderr);
    assert_eq!(text, by_hand.output);
    assert!(text.starts_with("carrier at "), "{text}");
    // Any strategy the rules allow, and a referee hiding a judge input's ships.
    let dir = scratch("board");
    let board = dir.join("board.in");
    std::fs::write(&board, "prob\n5 6 2\n1 1 2 E 3 3 2 S\n").unwrap_or_default();
    let referee = format!("{BIN} referee --board '{}' --fleet 2,2", board.display());
    let out = run(&["play", "--strategy", "linear", "--fleet", "2,2", "--referee", &referee]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let judged = common::run(&["--strategy", "linear"], b"linear\n5 6 2\n1 1 2 E 3 3 2 S\n");
    assert_eq!(stdout_of(&out), stdout_of(&judged));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_referee_is_one_error_line_with_its_reason() {
    let out = run(&["play", "--referee", &format!("{BIN} referee --rules clasic")]);
    let err = refused(&out);
    assert!(err.contains("the referee `") && err.contains("no rules called `clasic`"), "{err}");
    let err = refused(&run(&["play", "--referee", "no-such-program-here"]));
    assert!(err.contains("cannot start `no-such-program-here`"), "{err}");
    let err = refused(&run(&["play", "--referee", "'unclosed"]));
    assert!(err.contains("--referee"), "{err}");
    let err = refused(&run(&["play", "--rows", "3", "--cols", "3", "--referee", "true"]));
    assert!(err.contains("leave out --rows and --cols"), "{err}");
}

#[test]
fn no_referee_process_outlives_play() {
    let dir = scratch("pids");
    let pid_file = dir.join("pid");
    let pid_of = || std::fs::read_to_string(&pid_file).unwrap_or_default().trim().to_string();
    // A referee that lingers after the game (it ignores its closed input): killed.
    let lingering = format!(
        "sh -c 'echo $$ > {}; printf \"bay 1 1\\nfleet 1\\nrules touch=no sunk=none\\n\"; read probe; \
         printf \"hit\\ndone 1\\n\"; exec sleep 60'",
        pid_file.display()
    );
    let start = Instant::now();
    let out = run(&["play", "--referee", &lingering]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(stdout_of(&out), "1\n+\n");
    assert!(start.elapsed() < Duration::from_secs(20), "{:?}", start.elapsed());
    let pid = pid_of();
    assert!(!pid.is_empty() && !alive(&pid), "referee {pid} still runs");
    // play stops on an error while the referee waits for a probe: killed too.
    let waiting = format!("sh -c 'echo $$ > {}; exec {BIN} referee --rules classic'", pid_file.display());
    let err = refused(&run(&["play", "--strategy", "prob", "--referee", &waiting]));
    assert!(err.contains("strategy prob cannot play these rules"), "{err}");
    let pid = pid_of();
    assert!(!pid.is_empty() && !alive(&pid), "referee {pid} still runs");
    let _ = std::fs::remove_dir_all(&dir);
}

// Item 3: defaults follow the rules.

#[test]
fn defaults_follow_the_rules() {
    // simulate: every strategy that supports the rules when one of the usual four cannot.
    let classic = run(&["simulate", "--rules", "classic", "--games", "20", "--format", "csv"]);
    assert_eq!(classic.status.code(), Some(0), "{}", stderr_of(&classic));
    let names: Vec<String> = {
        let mut v: Vec<String> =
            stdout_of(&classic).lines().skip(1).filter_map(|l| l.split(',').next()).map(str::to_string).collect();
        v.dedup();
        v
    };
    assert_eq!(names, ["linear", "random", "parity", "bayes", "hunt", "hunt-parity", "density", "density-random"]);
    // Under Problem G the statement's four stay the default.
    let out = run(&["simulate", "--games", "20", "--format", "csv"]);
    let text = stdout_of(&out);
    for name in ["random", "linear", "smart", "prob"] {
        assert!(text.contains(&format!("\n{name},")), "{text}");
    }
    assert!(!text.contains("bayes"), "{text}");
    // --strategies all: the same list as the default under classic.
    let all = run(&["simulate", "--rules", "classic", "--games", "20", "--format", "csv", "--strategies", "all"]);
    assert_eq!(stdout_of(&all), stdout_of(&classic));
    // play: prob where it can play, the strongest for the rules otherwise: lookahead on
    // classic's own bay (its first two probes, against a miss: a whole game is seconds),
    // bayes on another bay.
    let first_two = |rules: &str, bay: &str, strategy: Option<&str>| {
        let mut args = vec!["play", "--rules", rules, "--rows", bay, "--cols", bay];
        if let Some(name) = strategy {
            args.extend(["--strategy", name]);
        }
        let out = common::run(&args, b"miss\n");
        assert!(stderr_of(&out).contains("answers ended"), "{}", stderr_of(&out));
        stdout_of(&out)
    };
    for (rules, bay, strongest, not) in [
        ("classic", "10", "lookahead", "bayes"),
        ("classic", "9", "bayes", "lookahead"),
        ("russian", "10", "prob", "density"),
    ] {
        let default = first_two(rules, bay, None);
        assert_eq!(default.lines().count(), 2, "{default}");
        assert_eq!(default, first_two(rules, bay, Some(strongest)), "{rules} {bay}");
        assert_ne!(default, first_two(rules, bay, Some(not)), "{rules} {bay}");
    }
    let typed = run(&["play", "--rules", "classic", "--rows", "1", "--cols", "2", "--fleet", "1"]);
    assert!(stderr_of(&typed).contains("answers ended"), "{}", stderr_of(&typed));
    // advise: bayes under rules that rule prob out.
    let out = common::run(&["advise", "--rules", "classic", "--fleet", "2"], b"...\n.+.\n...\n");
    assert!(stdout_of(&out).starts_with("ship probability"), "{}", stderr_of(&out));
}

// Item 4: play at a terminal says what it waits for.

/// Runs `args` with a terminal as stdin and stderr (through `script`), feeding `typed`.
fn at_a_terminal(args: &str, typed: &str) -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to make a terminal");
        return None;
    }
    let command = format!("{BIN} {args} 2>&1");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("(sleep 0.5; printf '{typed}') | script -qec '{command}' /dev/null"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
}

#[test]
fn play_at_a_terminal_says_what_it_waits_for() {
    let Some(out) = at_a_terminal("play --rules classic", "\\004") else { return };
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with("reading a referee's header from the terminal (`bay ROWS COLS`"), "{out}");
    assert!(first.contains("`--rows 10 --cols 10` (the rules' bay)") && first.contains("`--referee CMD`"), "{out}");
    assert!(out.contains("error: play: the input ended before the referee's header"), "{out}");
    // Over a pipe, nothing is said.
    let piped = run(&["play"]);
    assert!(!stderr_of(&piped).contains("reading a referee"), "{}", stderr_of(&piped));
}

// Item 7: help a person can read.

const COMMANDS: [&str; 11] = [
    "judge",
    "generate",
    "simulate",
    "simulate merge",
    "trace",
    "advise",
    "play",
    "referee",
    "serve",
    "check",
    "testset",
];

#[test]
fn every_help_fits_60_lines_and_points_to_the_topics() {
    for command in COMMANDS {
        let mut args = vec!["help"];
        args.extend(command.split(' '));
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "help {command}: {}", stderr_of(&out));
        let text = stdout_of(&out);
        let lines = text.lines().count();
        assert!(lines <= 60, "help {command}: {lines} lines");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "help {command}: a line over 80 columns: {text}");
        // Each command's help ends with the document that has its details.
        let last = text.lines().last().unwrap_or("");
        assert!(
            last.contains("report/") && last.contains(".md") && last.contains("repository"),
            "help {command} does not end with its document: {last}"
        );
        if text.contains("--rules NAME") {
            assert!(text.contains("`help rules`") && text.contains("`help fleet-file`"), "help {command}: {text}");
        }
    }
    let top = stdout_of(&run(&["--help"]));
    assert!(top.lines().count() <= 60, "--help: {} lines", top.lines().count());
    for topic in ["strategies", "rules", "fleet-file", "protocol"] {
        assert!(top.contains(&format!("`help {topic}`")), "{top}");
        let text = stdout_of(&run(&["help", topic]));
        assert!(text.lines().count() <= 60 && text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.starts_with(&format!("spot-the-ships help {topic}: ")), "{text}");
    }
    assert!(stdout_of(&run(&["help", "rules"])).contains("carrier 5, battleship 4"));
    assert!(stdout_of(&run(&["help", "fleet-file"])).contains("Y wing\n  X.X\n  X.X\n  .X.\n"));
    assert!(stdout_of(&run(&["help", "protocol"])).contains("game K SEED"));
    let strategies = stdout_of(&run(&["help", "strategies"]));
    assert!(strategies.contains("  prob            problem-g, russian\n"), "{strategies}");
    assert!(top.contains("--version"), "{top}");
}

#[test]
fn mistyped_values_get_a_suggestion() {
    let cases: [(&[&str], &str); 6] = [
        (&["generate", "--rules", "clasic"], "did you mean `classic`?"),
        (&["simulate", "--strategies", "prb", "--games", "1"], "did you mean `prob`?"),
        (&["generate", "--strategy", "prb"], "did you mean `prob`?"),
        (&["simulate", "--format", "jsn", "--games", "1"], "did you mean `json`?"),
        (&["help", "rulez"], "did you mean `rules`?"),
        (&["check", "--strategies", "smrt", "--", "true"], "did you mean `smart`?"),
    ];
    for (args, hint) in cases {
        let err = refused(&run(args));
        assert!(err.contains(hint), "{args:?}: {err}");
    }
    let err = refused(&common::run(&[], b"prb\n2 2 0\n"));
    assert!(err.contains("did you mean `prob`?"), "{err}");
    let err = refused(&common::run(&["--strategy", "prb"], b"prob\n2 2 0\n"));
    assert!(err.contains("did you mean `prob`?"), "{err}");
}

#[test]
fn version_takes_nothing_more() {
    let out = run(&["--version"]);
    assert_eq!(stdout_of(&out), format!("spot-the-ships {}\n", env!("CARGO_PKG_VERSION")));
    let err = refused(&run(&["--version", "extra"]));
    assert!(err.contains("--version takes nothing after it, got `extra`"), "{err}");
    refused(&run(&["-V", "--help"]));
}

// Item 6: reproducible random bots.

/// README's bot (a random order of the cells, seeded by `game K SEED`) in a run of
/// `simulate` with `extra` flags, as JSON.
fn mini_run(extra: &[&str]) -> String {
    let mini = format!("mini=python3 {}/tests/bots/mini.py", env!("CARGO_MANIFEST_DIR"));
    let mut args = vec!["simulate", "--games", "60", "--strategies", "random", "--bot", &mini, "--format", "json"];
    args.extend(extra);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    stdout_of(&out)
}

#[test]
fn a_bot_seeded_by_its_games_gives_the_same_results_for_any_threads_and_shards() {
    let one = mini_run(&["--threads", "1"]);
    assert_eq!(mini_run(&["--threads", "1"]), one, "two runs on one thread differ");
    assert_eq!(mini_run(&["--threads", "2"]), one, "one and two threads differ");
    let dir = scratch("shards");
    let mut files = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let path = dir.join(format!("{k}.json"));
        std::fs::write(&path, mini_run(&["--shard", &shard])).unwrap();
        files.push(path.display().to_string());
    }
    let mut args = vec!["simulate", "merge"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(stdout_of(&run(&args)), one, "the merged shards differ from the whole run");
    // And the bot is random: not the same scans as the built-in random on every board.
    assert!(one.contains("\"name\": \"mini\""), "{one}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_game_tells_the_bot_its_number_and_seed() {
    // A bot that records what it reads: before each header, `game K SEED`.
    let dir = scratch("record");
    let log = dir.join("log");
    let bot =
        format!("rec=sh -c 'tee -a {} | python3 {}/tests/bots/mini.py'", log.display(), env!("CARGO_MANIFEST_DIR"));
    let out =
        run(&["simulate", "--games", "4", "--threads", "1", "--strategies", "linear", "--bot", &bot, "--seed", "9"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let starts: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(starts.len(), 4, "{text}");
    for (k, line) in starts.iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 3, "{line}");
        assert_eq!(words[1], k.to_string(), "{line}");
        assert!(words[2].parse::<u64>().is_ok(), "{line}");
    }
    let seeds: std::collections::HashSet<&str> = starts.iter().map(|l| l.split(' ').nth(2).unwrap_or("")).collect();
    assert_eq!(seeds.len(), 4, "every game has its own seed: {text}");
    assert!(text.lines().zip(text.lines().skip(1)).all(|(a, b)| !a.starts_with("game ") || b.starts_with("bay ")));
    let _ = std::fs::remove_dir_all(&dir);
}

// Item 5: advise in a classic game.

#[test]
fn advise_takes_the_ships_afloat_by_name_and_checks_them() {
    let grid = b".....\n.+...\n";
    let by_name = common::run(&["advise", "--rules", "classic", "--afloat", "battleship,submarine"], grid);
    let by_size = common::run(&["advise", "--rules", "classic", "--afloat", "4,3"], grid);
    assert_eq!(by_name.status.code(), Some(0), "{}", stderr_of(&by_name));
    assert!(stdout_of(&by_name).contains("fleet battleship 4, submarine 3,"), "{}", stdout_of(&by_name));
    assert!(stdout_of(&by_size).contains("fleet battleship 4, cruiser 3,"), "{}", stdout_of(&by_size));
    // The same layouts: the probabilities are the same.
    let matrix = |o: &Output| stdout_of(o).lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(matrix(&by_name), matrix(&by_size));
    // Classic has one destroyer.
    let err = refused(&common::run(&["advise", "--rules", "classic", "--afloat", "4,3,3,2,2"], grid));
    assert!(err.contains("`destroyer` given 2 times, but the fleet has 1 such ship"), "{err}");
    assert!(err.contains("the fleet is carrier 5, battleship 4, cruiser 3, submarine 3, destroyer 2"), "{err}");
    let err = refused(&common::run(&["advise", "--rules", "classic", "--afloat", "batleship"], grid));
    assert!(err.contains("no ship called `batleship`") && err.contains("did you mean `battleship`?"), "{err}");
    let err = refused(&common::run(&["advise", "--afloat", "4,4"], grid));
    assert!(err.contains("ships of 4 cells given 2 times"), "{err}");
    // Sunk cells of ships that may touch: why they cannot be read, and what to write.
    let err = refused(&common::run(&["advise", "--rules", "classic"], b".....\n.###.\n.##..\n"));
    assert!(err.contains("5 `#` cells cannot be split into ships: ships may touch"), "{err}");
    assert!(err.contains("--afloat 'battleship,cruiser,submarine,destroyer'"), "{err}");
    // Which works.
    let out = common::run(
        &["advise", "--rules", "classic", "--afloat", "battleship,cruiser,submarine,destroyer"],
        b".....\n.###.\n.##..\n.....\n.....\n.....\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    // A drawn fleet by name.
    let out =
        common::run(&["advise", "--rules", "starwars", "--afloat", "X wing", "--seed", "1"], &b"....\n".repeat(6));
    assert!(stdout_of(&out).contains("X wing"), "{}{}", stdout_of(&out), stderr_of(&out));
}

// Item 8: the course report, current and legible (the chart's text size is tested in
// src/chart.rs; the PDF is rebuilt by report/build).

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_default()
}

#[test]
fn the_report_agrees_with_readme_and_keeps_double_hyphens() {
    let (readme, report) = (read("README.md"), read("report/report.md"));
    // The course report's length: at most 8 pages (the statement asks for about 5).
    let pdf =
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("report/report.pdf")).unwrap_or_default();
    let pages = pdf.windows(11).filter(|w| w.starts_with(b"/Type /Page") && w[10] != b's').count()
        + pdf.windows(10).filter(|w| w.starts_with(b"/Type/Page") && w[9] != b's').count();
    assert!((1..=8).contains(&pages), "report/report.pdf has {pages} pages (at most 8)");
    // Outside code, pandoc turns `--` into an en dash: flags must sit in code, or be
    // written &#45;&#45; in raw HTML.
    let mut fenced = false;
    for (k, line) in report.lines().enumerate() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let prose: String = line.split('`').step_by(2).collect();
        let table_rule = prose.trim().chars().all(|c| "|-: ".contains(c));
        assert!(fenced || table_rule || !prose.contains("--"), "report.md line {}: `--` outside code: {line}", k + 1);
    }
    // classes.dot: as many graphs as README says, each rendered to the SVG README names;
    // the report's own figures likewise.
    let dot = read("report/classes.dot");
    let graphs = dot.lines().filter(|l| l.starts_with("digraph ")).count();
    assert_eq!(graphs, 3);
    assert!(
        readme.contains("`report/classes.dot` (the toolkit's class diagram, three Graphviz graphs"),
        "README's classes.dot"
    );
    for svg in ["classes.svg", "classes-2.svg", "classes-3.svg", "judge.svg", "modules.svg"] {
        assert!(readme.contains(svg) && read("report/build").contains(svg), "{svg}");
    }
    for svg in ["judge.svg", "modules.svg"] {
        assert!(report.contains(svg), "report.md does not show {svg}");
    }
    // What report/build installs, said in README.
    let install = "apt-get install -y pandoc graphviz\nweasyprint";
    assert!(readme.contains(install), "README does not say what report/build installs");
    assert!(read("report/build").contains("apt-get install -y pandoc graphviz weasyprint"));
}
