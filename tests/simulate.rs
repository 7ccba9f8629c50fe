//! `simulate` and `generate` through the real binary: formats, reproducibility, thread
//! independence, the SVG file, and errors.

use crate::common;

use spot_the_ships::game::input;
use spot_the_ships::strategy::NAMES;

fn stdout(args: &[&str]) -> String {
    let out = common::run(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "stderr is not a terminal: nothing expected there");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn json_is_identical_for_one_and_two_threads_and_complete() {
    let base = ["simulate", "--games", "3000", "--format", "json", "--seed", "7"];
    let one = stdout(&[&base[..], &["--threads", "1"]].concat());
    let two = stdout(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.starts_with("{\"games\": 3000, \"rows\": 10, \"cols\": 10, \"fleet\": [5,4,3,3,2,2,1,1], \"rules\": "));
    assert!(
        one.contains("\"rules\": {\"preset\": \"problem-g\", \"touch\": false, \"sunk\": \"none\", \"rotate\": true")
    );
    assert!(one.contains("]}, \"seed\": 7, \"strategies\": ["), "{one}");
    for name in ["random", "linear", "smart", "prob"] {
        assert!(one.contains(&format!("{{\"name\": \"{name}\", \"mean\": ")), "{name}");
    }
    // vs_first on every strategy but the first, each counting all 3000 boards.
    assert_eq!(one.matches("\"vs_first\"").count(), 3);
    for part in one.split("\"vs_first\": ").skip(1) {
        let nums: Vec<u64> = part
            .split('}')
            .next()
            .unwrap()
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|t| t.parse().ok())
            .collect();
        assert_eq!(nums.iter().sum::<u64>(), 3000, "{part}");
    }
}

#[test]
fn csv_rows_sum_to_the_games_per_strategy() {
    let csv = stdout(&["simulate", "--games", "1500", "--format", "csv", "--strategies", "prob,smart"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("strategy,scans,games"));
    let mut totals = std::collections::HashMap::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 3, "{line}");
        *totals.entry(f[0].to_string()).or_insert(0u64) += f[2].parse::<u64>().unwrap();
    }
    assert_eq!(totals.get("prob"), Some(&1500));
    assert_eq!(totals.get("smart"), Some(&1500));
}

#[test]
fn text_report_fits_80_columns_and_writes_the_svg() {
    let svg = std::env::temp_dir().join(format!("spot-the-ships-test-{}.svg", std::process::id()));
    let text = stdout(&["simulate", "--games", "2000", "--svg", svg.to_str().unwrap()]);
    assert!(text.contains("paired with random"));
    for name in ["random", "linear", "smart", "prob"] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name}");
    }
    assert!(text.contains("games (up)"));
    // Speed per wall-second and per CPU-second, for the run and each strategy.
    assert!(text.contains(" wall g/s  CPU g/s\n") && text.contains(" games per CPU-second\n"), "{text}");
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    let doc = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"));
    assert_eq!(doc.matches("<polyline points=").count(), 4 + 1, "four series and the axes");
}

#[test]
fn simulate_refuses_bad_flags() {
    for args in [
        &["simulate", "--games", "0"][..],
        &["simulate", "--strategies", "prob,nope"],
        &["simulate", "--fleet", "6"],
        &["simulate", "--format", "xml"],
        &["simulate", "--threads", "0"],
        &["simulate", "--rows", "2", "--cols", "2", "--fleet", "5"],
        &["simulate", "--svg", "/nonexistent-dir/x.svg"],
    ] {
        let out = common::run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "));
    }
}

#[test]
fn generate_is_reproducible_and_valid() {
    for name in NAMES {
        let args = ["generate", "--rows", "12", "--cols", "9", "--seed", "5", "--strategy", name];
        let a = stdout(&args);
        assert_eq!(a, stdout(&args));
        let parsed = input::parse(a.as_bytes(), &NAMES).unwrap();
        assert_eq!(parsed.strategy, name);
        assert_eq!(parsed.board.fleet(), [5, 4, 3, 3, 2, 2, 1, 1]);
    }
    let dense = stdout(&["generate", "--rows", "200", "--cols", "150", "--density", "0.25"]);
    let board = input::parse(dense.as_bytes(), &NAMES).unwrap().board;
    assert!(board.ship_cells() >= 200 * 150 / 4 * 98 / 100);
    assert_ne!(
        stdout(&["generate", "--rows", "9", "--cols", "9", "--seed", "1"]),
        stdout(&["generate", "--rows", "9", "--cols", "9", "--seed", "2"])
    );
}

#[test]
fn generate_refuses_fleets_that_cannot_fit() {
    for args in [
        &["generate", "--rows", "3", "--cols", "3", "--fleet", "5"][..],
        &["generate", "--rows", "3", "--cols", "3", "--fleet", "1,1,1,1,1"],
        &["generate", "--rows", "2", "--cols", "5", "--fleet", "3,3"],
        &["generate", "--rows", "10", "--cols", "10", "--density", "0.6"],
        &["generate", "--rows", "10", "--cols", "0"],
        &["generate", "--rules", "starwars", "--rows", "3"],
    ] {
        let out = common::run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && err.matches('\n').count() == 1, "{err}");
    }
}

/// A scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spot-the-ships-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn shards_merge_into_the_whole_run_byte_for_byte() {
    let dir = scratch("shards");
    for (rules, strategies) in [("problem-g", "prob,random,linear"), ("classic", "hunt,random,linear")] {
        let base = ["simulate", "--games", "500", "--seed", "11", "--rules", rules, "--strategies", strategies];
        let whole = stdout(&[&base[..], &["--format", "json", "--threads", "2"]].concat());
        let mut files = Vec::new();
        for k in [2, 0, 1] {
            let part =
                stdout(&[&base[..], &["--format", "json", "--threads", "1", "--shard", &format!("{k}/3")]].concat());
            assert!(part.ends_with(&format!(", \"shard\": {{\"index\": {k}, \"count\": 3, \"run_games\": 500}}}}\n")));
            let games = if k < 2 { 167 } else { 166 };
            assert!(part.starts_with(&format!("{{\"games\": {games}, ")), "{part}");
            let path = dir.join(format!("{rules}-{k}.json"));
            std::fs::write(&path, part).unwrap();
            files.push(path.to_str().unwrap().to_string());
        }
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        assert_eq!(stdout(&[&["simulate", "merge"][..], &files].concat()), whole, "{rules}");
        assert_eq!(
            stdout(&[&["simulate", "merge", "--format", "csv"][..], &files].concat()),
            stdout(&[&base[..], &["--format", "csv"]].concat())
        );
        let text = stdout(&[&["simulate", "merge", "--format", "text"][..], &files].concat());
        assert!(text.starts_with("500 games, 10x10 board") && text.contains("merged from 3 shards"), "{text}");
        assert!(text.contains("paired with "), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_shards_that_do_not_make_one_run() {
    let dir = scratch("merge-refusals");
    let write = |name: &str, args: &[&str]| {
        let path = dir.join(name);
        let mut base = vec!["simulate", "--games", "40", "--format", "json"];
        if !args.contains(&"--strategies") {
            base.extend(["--strategies", "linear,random"]);
        }
        std::fs::write(&path, stdout(&[&base[..], args].concat())).unwrap();
        path.to_str().unwrap().to_string()
    };
    let a = write("a.json", &["--shard", "0/2"]);
    let b = write("b.json", &["--shard", "1/2"]);
    let seed = write("seed.json", &["--shard", "1/2", "--seed", "9"]);
    let three = write("three.json", &["--shard", "1/3"]);
    let other = write("other.json", &["--shard", "1/2", "--strategies", "random,linear"]);
    let whole = write("whole.json", &[]);
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"games\": 40,").unwrap();
    let junk = junk.to_str().unwrap();
    let merged = stdout(&["simulate", "merge", &a, &b]);
    assert_eq!(merged, std::fs::read_to_string(&whole).unwrap());
    assert_eq!(stdout(&["simulate", "merge", &whole]), merged, "a whole run is its own only shard");
    for (files, part) in [
        (vec![a.as_str()], "shard 1/2 is missing"),
        (vec![&a, &b, &a], "are both shard 0/2"),
        (vec![&a, &seed], "is not a shard of the same run"),
        (vec![&a, &seed], "its `seed` is 9, the first's 2021"),
        (vec![&a, &three], "it is shard 1/3 of 40 games, the first 0/2 of 40"),
        (vec![&a, &other], "its strategies are random,linear, the first's linear,random"),
        (vec![&a, &whole], "shard 0/1 of 40 games"),
        (vec![&a, junk], "is not JSON: line 1, column 14"),
        (vec![&a, "/nonexistent/x.json"], "cannot open `/nonexistent/x.json`"),
        (vec![], "give the JSON reports of every shard"),
    ] {
        let out = common::run(&[&["simulate", "merge"][..], &files].concat(), b"");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{files:?}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.starts_with("error: simulate merge: ") && err.matches('\n').count() == 1, "{err}");
        assert!(err.contains(part), "{files:?}: {err}");
    }
    for bad in ["3/3", "1", "a/b", "0/41", "-1/2"] {
        let out = common::run(&["simulate", "--games", "40", "--shard", bad], b"");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.code() == Some(2) && err.contains("--shard: expected K/N"), "{bad}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_has_its_help_and_simulate_names_it() {
    let merge = stdout(&["simulate", "merge", "--help"]);
    assert!(merge.starts_with("spot-the-ships simulate merge: "), "{merge}");
    assert_eq!(stdout(&["help", "simulate", "merge"]), merge);
    assert_eq!(stdout(&["simulate", "merge", "-h"]), merge);
    let simulate = stdout(&["simulate", "--help"]);
    assert_eq!(stdout(&["help", "simulate"]), simulate);
    assert!(simulate.contains("simulate merge [--format F] FILE...") && simulate.contains("--shard K/N"));
    for line in merge.lines().chain(simulate.lines()) {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
}

#[test]
fn every_strategy_is_paired_with_the_ones_before_it() {
    let args = ["simulate", "--games", "200", "--strategies", "random,linear,prob", "--seed", "5"];
    let text = stdout(&args);
    // Two references: random for linear and prob, then linear for prob.
    let blocks: Vec<&str> = text.split("\n\n").filter(|b| b.starts_with("paired with")).collect();
    assert_eq!(blocks.len(), 2, "{text}");
    assert!(blocks[0].starts_with("paired with random") && blocks[0].lines().count() == 3, "{text}");
    assert!(blocks[1].starts_with("paired with linear") && blocks[1].lines().count() == 2, "{text}");
    // prob beats linear on every board of the standard fleet.
    assert!(blocks[1].contains("prob      fewer 100.0%  equal   0.0%  more   0.0%  at least as good 100.0%"), "{text}");
    let json = stdout(&[&args[..], &["--format", "json"]].concat());
    assert!(json.contains("\"vs_earlier\": [{\"with\": \"random\", \"fewer\": "), "{json}");
    assert!(json.contains("{\"with\": \"linear\", \"fewer\": 200, \"equal\": 0, \"more\": 0}]"), "{json}");
    // At least as good, as printed, is fewer plus as many.
    for line in text.lines().filter(|l| l.contains("at least as good")) {
        let p: Vec<f64> = line.split_whitespace().filter_map(|w| w.strip_suffix('%')?.parse().ok()).collect();
        assert_eq!(p.len(), 4, "{line}");
        assert!((p[0] + p[1] + p[2] - 100.0).abs() < 0.11 && (p[3] - p[0] - p[1]).abs() < 0.11, "{line}");
    }
}

/// The mean scans of `name` in simulate's text report.
fn mean_of(report: &str, name: &str) -> f64 {
    let line = report.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap_or_else(|| panic!("{report}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn placement_as_an_opponent_would_is_harder_for_density_and_text_or_csv_only() {
    let base = ["simulate", "--rules", "classic", "--games", "300", "--strategies", "density,bayes", "--threads", "1"];
    let uniform = stdout(&base);
    let opponent = stdout(&[&base[..], &["--placement", "opponent"]].concat());
    assert!(!uniform.contains("as an opponent would"), "{uniform}");
    assert!(
        opponent.contains(
            "fleets placed as an opponent would: of 16 uniform ones, the one density needs the most scans for"
        ),
        "{opponent}"
    );
    assert!(mean_of(&opponent, "density") > mean_of(&uniform, "density") + 10.0, "{uniform}\n{opponent}");
    assert!(mean_of(&opponent, "bayes") > mean_of(&uniform, "bayes"), "{uniform}\n{opponent}");
    // Reproducible, and `uniform` is the default.
    let again = stdout(&[&base[..], &["--placement", "opponent"]].concat());
    assert_eq!(mean_of(&opponent, "density"), mean_of(&again, "density"));
    assert_eq!(mean_of(&opponent, "bayes"), mean_of(&again, "bayes"));
    assert_eq!(
        mean_of(&uniform, "density"),
        mean_of(&stdout(&[&base[..], &["--placement", "uniform"]].concat()), "density")
    );
    for extra in [&["--format", "json"][..], &["--shard", "0/2"][..], &["--placement", "hard"][..]] {
        let mut args: Vec<&str> = base.to_vec();
        if extra[0] != "--placement" {
            args.extend(["--placement", "opponent"]);
        }
        args.extend(extra);
        let out = common::run(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: simulate: --placement") && err.lines().count() == 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}
