//! `referee` and `play` as two real processes joined by pipes: the referee's stdout is
//! the player's stdin, and the player's questions go back through this test to the
//! referee's stdin. Under every preset and every strategy that supports it, each game
//! ends with every ship cell found and the count and grid the judge prints for the
//! same bay. Then the referee's errors.

use crate::common;

use common::game;

use spot_the_ships::game::rules::{Rules, PRESET_NAMES};
use spot_the_ships::strategy::STRATEGIES;

fn judge(rules: &str, strategy: &str, seed: &str, input: &str) -> String {
    let out = common::run(&["--rules", rules, "--strategy", strategy, "--seed", seed, input], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_strategy_plays_every_preset_through_pipes_as_the_judge_does() {
    let dir = std::env::temp_dir().join(format!("spot-referee-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut played = 0;
    for preset in PRESET_NAMES {
        let rules = Rules::preset(preset).unwrap();
        // Smaller bays than the presets' for speed, but the presets' fleets.
        let bay =
            if preset == "starwars" { ["--rows", "14", "--cols", "12"] } else { ["--rows", "10", "--cols", "10"] };
        for seed in ["1", "2"] {
            let input = dir.join(format!("{preset}-{seed}.in"));
            let gen = common::run(
                &[&["generate", "--rules", preset, "--seed", seed, "--strategy", "linear"][..], &bay].concat(),
                b"",
            );
            assert_eq!(gen.status.code(), Some(0), "{}", String::from_utf8_lossy(&gen.stderr));
            std::fs::write(&input, &gen.stdout).unwrap();
            let path = input.to_str().unwrap();
            // lookahead (seconds a game) on one classic board.
            let once = preset == "classic" && seed == "1";
            for entry in STRATEGIES.iter().filter(|e| (e.supports)(&rules).is_ok() && (e.in_all || once)) {
                let g = game(&["--rules", preset, "--board", path], &["--strategy", entry.name, "--seed", seed]);
                assert_eq!(g.referee_status, Some(0), "{preset} {}: referee: {}", entry.name, g.referee_stderr);
                assert_eq!(g.play_status, Some(0), "{preset} {}: play: {}", entry.name, g.play_stderr);
                assert_eq!(g.output, judge(preset, entry.name, seed, path), "{preset} {} seed {seed}", entry.name);
                assert!(!g.output.contains('O'));
                played += 1;
            }
        }
    }
    assert!(played >= 40, "{played}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_header_names_the_game() {
    let out = common::run(&["referee", "--rules", "classic", "--seed", "3"], b"");
    // No probe: the referee reports the player stopped, after the header.
    assert_eq!(out.status.code(), Some(2));
    let header = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        header,
        "bay 10 10\nfleet 5,4,3,3,2\nnames carrier,battleship,cruiser,submarine,destroyer\nrules touch=yes sunk=named\n"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: referee: the player stopped after 0 probes"), "{err}");
    let out = common::run(&["referee", "--rules", "starwars", "--rows", "9", "--cols", "9"], b"");
    let header = String::from_utf8(out.stdout).unwrap();
    assert!(header.starts_with("bay 9 9\nfleet-file\nPetar Kresimir\nX\nX\nX\nX\n\nTIE fighter\n"), "{header}");
    assert!(header.ends_with("end\nrules touch=yes sunk=none rotate=no\n"), "{header}");
}

#[test]
fn the_referee_refuses_bad_probes() {
    let refuse = |input: &str, part: &str| {
        let out = common::run(&["referee", "--rows", "3", "--cols", "3", "--fleet", "1"], input.as_bytes());
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{input:?}: {err}");
        assert!(err.starts_with("error: referee: ") && err.matches('\n').count() == 1, "{err:?}");
        assert!(err.contains(part), "{input:?}: {err}");
    };
    refuse("? 3 0\n", "outside the 3x3 bay");
    refuse("? 0 0\n? 0 0\n", "already probed");
    refuse("fire 1 1\n", "not a probe");
    refuse("? 1\n", "not a probe");
    refuse(&format!("? 0 {}\n", "9".repeat(2000)), "longer than");
    // Answers: the whole game of a 1-cell ship on a 1x2 bay.
    let out = common::run(&["referee", "--rows", "1", "--cols", "2", "--fleet", "1", "--seed", "1"], b"? 0 0\n? 0 1\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.ends_with("hit\ndone 1\n") || text.ends_with("miss\nhit\ndone 2\n"), "{text}");
}

#[test]
fn play_checks_the_referees_count() {
    let header = "bay 1 2\nfleet 1\nrules touch=no sunk=none\n";
    let run = |answers: &str| common::run(&["play", "--strategy", "linear"], format!("{header}{answers}").as_bytes());
    let ok = run("hit\ndone 1\n");
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    assert_eq!(String::from_utf8(ok.stdout).unwrap(), "? 0 0\n1\n+.\n");
    let bad = run("hit\ndone 5\n");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("the referee counted 5 probes, but 1 were made"));
    let unknown = common::run(&["play"], b"bay 2 2\nfleet 1\nrules touch=no sunk=named\nsunk frigate\n");
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no ship called `frigate`"));
}

#[test]
fn strategies_refuse_rules_they_cannot_honour() {
    for (args, parts) in [
        (&["--rules", "classic"][..], &["strategy smart", "touch=yes"][..]),
        (&["--touch", "yes"], &["strategy smart", "touch"]),
    ] {
        let out = common::run(args, b"smart\n5 5 1\n0 0 2 E\n");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{err}");
        for p in parts {
            assert!(err.contains(p), "{p} missing from {err}");
        }
    }
    let out = common::run(&["simulate", "--rules", "starwars", "--strategies", "parity", "--games", "1"], b"");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("strategy parity cannot play these rules") && err.contains("drawn"), "{err}");
    let out = common::run(&["--rules", "chess"], b"linear 1 1 0");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no rules called `chess`; presets: problem-g, classic"));
}

#[test]
fn play_in_letters_plays_the_referee() {
    // `play --coords letters` asks `? B7`; the referee reads it as row 1, column 6.
    let numbers = game(&["--rules", "classic", "--seed", "5"], &["--strategy", "hunt"]);
    let letters = game(&["--rules", "classic", "--seed", "5"], &["--strategy", "hunt", "--coords", "letters"]);
    assert_eq!((letters.play_status, letters.referee_status), (Some(0), Some(0)), "{}", letters.referee_stderr);
    assert_eq!(letters.output, numbers.output);
    let out = common::run(&["referee", "--rows", "3", "--cols", "3", "--fleet", "1"], b"? D1\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside"), "{}", String::from_utf8_lossy(&out.stderr));
}
