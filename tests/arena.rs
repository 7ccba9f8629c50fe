//! `simulate --bot`: outside programs raced against the built-in strategies through the
//! play protocol (the bots are Python scripts in tests/bots). A bot that plays linear
//! gets linear's results exactly, takes its place in the paired comparison, and splits
//! into shards like any strategy; every way of forfeiting gives one error line naming
//! the bot and the game, or, with --forfeit-as-max, a counted game.

use crate::common;

use std::time::{Duration, Instant};

/// `python3 tests/bots/FILE ARGS` as a --bot command.
fn bot(file: &str, args: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("bots").join(file);
    format!("python3 '{}' {args}", path.display())
}

fn stdout(args: &[&str]) -> String {
    let out = common::run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The error line of a run that must fail.
fn error(args: &[&str]) -> String {
    let out = common::run(args, b"");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert!(err.starts_with("error: simulate: ") && err.matches('\n').count() == 1, "{err:?}");
    err
}

/// The JSON entry of strategy `name`, from its `"mean"` on.
fn entry<'a>(json: &'a str, name: &str) -> &'a str {
    let start = json.find(&format!("{{\"name\": \"{name}\", ")).unwrap_or_else(|| panic!("no {name} in {json}"));
    let rest = &json[start..];
    let end = rest.find("]]}").map_or(rest.len(), |e| e + 3);
    &rest[rest.find("\"mean\"").unwrap()..end]
}

#[test]
fn a_bot_that_plays_linear_gets_linears_results_exactly() {
    // linear.py reads every kind of header (mini.py, the few lines README shows, plays
    // a random order: tests/journeys.rs holds it to reproducible results).
    let py = format!("pylinear={}", bot("linear.py", ""));
    for (rules, bay, bots) in
        [("problem-g", "10", vec![&py]), ("classic", "10", vec![&py]), ("starwars", "14", vec![&py])]
    {
        let mut args = vec![
            "simulate",
            "--games",
            "300",
            "--rules",
            rules,
            "--rows",
            bay,
            "--cols",
            "12",
            "--strategies",
            "linear",
            "--format",
            "json",
            "--threads",
            "2",
        ];
        for b in &bots {
            args.extend(["--bot", b.as_str()]);
        }
        let json = stdout(&args);
        let linear = entry(&json, "linear");
        for name in bots.iter().map(|b| b.split('=').next().unwrap()) {
            // The paired counts aside (equal on all 300 boards, with linear and every
            // earlier bot), the entry is linear's.
            let bot = entry(&json, name);
            let (Some(from), Some(to)) = (bot.find("\"vs_first\""), bot.find("\"histogram\"")) else {
                panic!("{rules}: {name} is not compared: {bot}")
            };
            let pairs = &bot[from..to];
            assert_eq!(
                pairs.matches("\"fewer\": ").count(),
                pairs.matches("\"fewer\": 0, \"equal\": 300, \"more\": 0").count()
            );
            let same = format!("{}{}", &bot[..from], &bot[to..]);
            assert_eq!(same, linear, "{rules}: {name} against linear on every board");
        }
    }
}

#[test]
fn bots_take_their_place_in_the_comparison_and_the_charts() {
    let py = format!("py={}", bot("linear.py", ""));
    let svg = std::env::temp_dir().join(format!("spot-the-ships-arena-{}.svg", std::process::id()));
    // Appended after --strategies...
    let text = stdout(&[
        "simulate",
        "--games",
        "200",
        "--strategies",
        "prob,random",
        "--bot",
        &py,
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let rows: Vec<&str> =
        text.lines().filter(|l| ["prob ", "random ", "py "].iter().any(|n| l.starts_with(n))).collect();
    assert!(rows[0].starts_with("prob ") && rows[1].starts_with("random ") && rows[2].starts_with("py "), "{text}");
    assert!(text.contains("paired with prob") && text.lines().any(|l| l.starts_with("py ") && l.contains("fewer")));
    assert!(text.contains("p = py (mean") || text.contains("= py (mean"), "{text}");
    let doc = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(doc.contains("py (mean") && doc.matches("<polyline points=").count() == 3 + 1, "{doc}");
    // ...or where --strategies names it: here the reference of the paired comparison.
    let json = stdout(&["simulate", "--games", "200", "--strategies", "py,linear", "--bot", &py, "--format", "json"]);
    assert!(json.contains("\"strategies\": [{\"name\": \"py\", "), "{json}");
    assert!(entry(&json, "linear").contains("\"vs_first\": {\"fewer\": 0, \"equal\": 200, \"more\": 0}"));
}

#[test]
fn every_forfeit_stops_the_run_with_one_line_naming_the_bot_and_the_game() {
    let run = |mode: &str, extra: &[&str]| {
        let bad = format!("bad={}", bot("bad.py", &format!("{mode} 2")));
        let args =
            [&["simulate", "--games", "5", "--strategies", "linear", "--threads", "1", "--bot", &bad][..], extra];
        error(&args.concat())
    };
    let replay = "bot bad forfeited game 1 of seed 2021 (to replay that game alone: the same command with --games 2 \
                  --shard 1/2): ";
    for (mode, what) in [
        ("garbage", "`fire!` is not a probe: expected `? ROW COL`"),
        ("repeat", "it probed (0,0) twice"),
        ("outside", "it probed (10,0), outside the 10x10 bay"),
        ("long", "it wrote a line longer than 1000 bytes"),
        ("exit", "it exited (exit status: 3) before finding every ship cell (its last line on stderr: `giving up`)"),
    ] {
        let err = run(mode, &[]);
        assert!(err.contains(&format!("{replay}{what}")), "{mode}: {err}");
    }
    let start = Instant::now();
    let err = run("sleep", &["--move-time", "0.2"]);
    assert!(err.contains(&format!("{replay}it took more than 0.2 s to probe")), "{err}");
    assert!(start.elapsed() < Duration::from_secs(8), "the slow bot was not cut short");
    // The same after a slow start: the first probe's 10 s do not carry over.
    let start = Instant::now();
    let err = run("slowsleep", &["--move-time", "0.2"]);
    assert!(err.contains(&format!("{replay}it took more than 0.2 s to probe")), "{err}");
    assert!(start.elapsed() < Duration::from_secs(7), "the slow bot was cut short only after 10 s");
    // A bot that stops between games, or fails at once (the error names game 0, the
    // first game its process was to play).
    let err = run("quit", &[]);
    assert!(err.contains(&format!("{replay}it exited (exit status: 0) before finding every ship cell")), "{err}");
    assert!(!err.contains("stderr"), "{err}");
    let err = run("crash", &[]);
    let first = "bot bad forfeited game 0 of seed 2021 (to replay that game alone: the same command with --games 1): \
                 it exited (exit status: 1) before finding every ship cell (its last line on stderr: \
                 `ZeroDivisionError: division by zero`)";
    assert!(err.contains(first), "{err}");
    // Under another seed, with more threads: the game is the first one it was given.
    let bad = format!("bad={}", bot("bad.py", "repeat 1"));
    let err = error(&["simulate", "--games", "9", "--seed", "7", "--threads", "2", "--bot", &bad]);
    assert!(err.contains("bot bad forfeited game ") && err.contains(" of seed 7 ("), "{err}");
    assert!(err.ends_with(": it probed (0,0) twice\n"), "{err}");
    let err = error(&["simulate", "--games", "5", "--bot", "x=/nonexistent/bot"]);
    assert!(err.contains("bot x: cannot start `/nonexistent/bot`: "), "{err}");
}

#[test]
fn forfeits_count_the_whole_bay_with_forfeit_as_max() {
    // The bot loses the second game of each process: games 1, 3, 5, 7 and 9 with one
    // thread (a new process starts after each loss).
    let bad = format!("bad={}", bot("bad.py", "repeat 2"));
    let base = ["simulate", "--games", "10", "--strategies", "linear", "--threads", "1", "--forfeit-as-max"];
    let json = stdout(&[&base[..], &["--bot", &bad, "--format", "json"]].concat());
    assert!(json.ends_with(", \"forfeits\": [{\"name\": \"bad\", \"games\": 5}]}\n"), "{json}");
    // The games it did not lose are linear's: the even games (shard 0 of 2).
    let even = stdout(&["simulate", "--games", "10", "--strategies", "linear", "--shard", "0/2", "--format", "csv"]);
    let mut expected: Vec<(u64, u64)> = even
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|f| (f[1].parse().unwrap(), f[2].parse().unwrap()))
        .collect();
    match expected.iter_mut().find(|(s, _)| *s == 100) {
        Some(e) => e.1 += 5,
        None => expected.push((100, 5)),
    }
    let histogram: Vec<String> = expected.iter().map(|(s, g)| format!("[{s}, {g}]")).collect();
    assert!(entry(&json, "bad").ends_with(&format!("\"histogram\": [{}]}}", histogram.join(", "))), "{json}");
    let text = stdout(&[&base[..], &["--bot", &bad]].concat());
    assert!(
        text.contains("forfeits (--forfeit-as-max: each counts 100 scans, the whole bay):\n  bad: 5 of 10 games; the first, game 1: it probed (0,0) twice\n"),
        "{text}"
    );
}

#[test]
fn shards_with_bots_merge_into_the_whole_run() {
    let py = format!("py={}", bot("linear.py", ""));
    let base = [
        "simulate",
        "--games",
        "90",
        "--strategies",
        "linear,py,prob",
        "--bot",
        &py,
        "--forfeit-as-max",
        "--format",
        "json",
    ];
    let whole = stdout(&base);
    assert!(whole.ends_with(", \"forfeits\": [{\"name\": \"py\", \"games\": 0}]}\n"), "{whole}");
    let dir = std::env::temp_dir().join(format!("spot-the-ships-arena-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for k in 0..3 {
        let path = dir.join(format!("{k}.json"));
        std::fs::write(&path, stdout(&[&base[..], &["--shard", &format!("{k}/3"), "--threads", "1"]].concat()))
            .unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    assert_eq!(stdout(&[&["simulate", "merge"][..], &files].concat()), whole);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bots_get_time_to_start_and_to_leave_and_cannot_hang_the_run() {
    // One second before the first probe is fine (a process's first probe has 10 s)...
    let slow = format!("slow={}", bot("bad.py", "slowstart 0"));
    let base = ["simulate", "--games", "20", "--strategies", "linear", "--threads", "1", "--move-time", "0.3"];
    let json = stdout(&[&base[..], &["--bot", &slow, "--format", "json"]].concat());
    assert!(entry(&json, "slow").contains("\"equal\": 20"), "{json}");
    // ...a bot that stays after its input ends is killed a moment later...
    let start = Instant::now();
    stdout(&[&base[..], &["--bot", &format!("stays={}", bot("bad.py", "linger 0"))]].concat());
    assert!(start.elapsed() < Duration::from_secs(10), "the run waited for the bot");
    // ...and one that never reads its input (so that the answers fill the pipe) is cut
    // short by the move time.
    let start = Instant::now();
    let blind = format!("blind={}", bot("bad.py", "blind 0"));
    let err = error(
        &[&["simulate", "--games", "100000", "--threads", "1", "--move-time", "0.3", "--bot", &blind][..]].concat(),
    );
    assert!(err.contains("bot blind forfeited game ") && err.contains("it took more than 0.3 s to probe"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(20), "the blind bot was not cut short");
}

#[test]
fn bot_flags_are_checked() {
    for (args, part) in [
        (&["--bot", "linear=python3 x.py"][..], "`linear` is a built-in strategy"),
        (&["--bot", "all=python3 x.py"], "`all` is a built-in strategy"),
        (&["--bot", "a b=python3"], "`a b` is not a bot name"),
        (&["--bot", "python3 x.py"], "--bot: expected NAME=CMD"),
        (&["--bot", "a=python3", "--bot", "a=ruby"], "two bots are called `a`"),
        (&["--bot", "a=sh -c 'x"], "--bot a: a ' is not closed"),
        (&["--bot", "a="], "--bot a: the command is empty"),
        (&["--bot", "a=x", "--move-time", "0"], "--move-time: expected seconds from 0.001 to 3600"),
        (&["--move-time", "2"], "--move-time applies to bots only"),
        (&["--forfeit-as-max"], "--forfeit-as-max applies to bots only"),
        (&["--bot", "a=x", "--strategies", "a,linear,a"], "`a` is listed twice"),
    ] {
        let err = error(&[&["simulate", "--games", "3"][..], args].concat());
        assert!(err.contains(part), "{args:?}: {err}");
    }
}

#[test]
fn the_readme_race_runs_from_the_repository() {
    // README's command, run where README runs it (the repository), on fewer games: the
    // few-line bot (cells in a random order seeded by each game's `game K SEED`) races prob and bayes.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_spot-the-ships"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["simulate", "--strategies", "prob,bayes", "--bot", "mini=python3 tests/bots/mini.py", "--games", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let mean = |text: &str, name: &str| {
        let row = text.lines().find(|l| l.starts_with(&format!("{name} ")) && l.split_whitespace().count() == 10);
        row.and_then(|r| r.split_whitespace().nth(1)).unwrap_or_else(|| panic!("no {name} in {text}")).to_string()
    };
    for name in ["prob", "bayes", "mini"] {
        mean(&text, name);
    }
    assert!(text.contains("paired with prob") && text.contains("= mini (mean"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("mini ") && l.contains("fewer") && l.contains("more 100.0%")), "{text}");
}
