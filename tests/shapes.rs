//! Ships of any shape, end to end (issue 18): fleet files read by every command (the
//! good case and every bad one, each error naming the line), and games between the
//! real `referee` and `play` processes joined by pipes with drawn fleets, each ending
//! with every ship cell found and the right placement lines (`NAME at (r,c)`, or
//! `NAME: N possible places` when ships that touch leave several).

use crate::common;

use common::{game, Game};

use std::path::PathBuf;

/// A fresh directory for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spot-shapes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path as text.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs the binary, expecting success; returns stdout.
fn ok(args: &[&str], stdin: &[u8]) -> String {
    let out = common::run(args, stdin);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Runs the binary, expecting the one-line error of a refused input; returns it.
fn refused(args: &[&str], stdin: &[u8]) -> String {
    let out = common::run(args, stdin);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.matches('\n').count() == 1, "{args:?}: {err:?}");
    err
}

/// The malformed fleet files: the text, the line the error must name, and a part of
/// its explanation.
const BAD_FILES: &[(&str, &str, usize, &str)] = &[
    ("ragged", "# a ragged drawing\nwing\nX.X\nX.\n", 4, "drawing row 2 has 2 characters but its first row has 3"),
    ("empty", "# a name and no drawing\nbar\n\nbox\nXX\n", 2, "ship `bar`: the drawing has no `X`"),
    ("gaps-only", "bar\nX\n\nghost\n...\n...\n", 4, "ship `ghost`: the drawing has no `X`"),
    ("unknown-char", "bar\nX\n\nwing\nX.X\nXoX\n", 6, "column 2 holds `o`: only `X` (ship cell) and `.` (gap)"),
    ("lowercase-x", "bar\nx\n", 2, "holds `x`"),
    ("duplicate", "Y wing\nX.X\n\n# again, another case\ny WING\nXX\n", 5, "the name `y WING` is given twice"),
    (
        "too-large-box",
        "bar\nX\n\nlong\nXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n",
        4,
        "more than 64 cells",
    ),
    ("end", "bar\nX\n\nEND\nXX\n", 4, "may not be called `end`"),
    ("no-ship", "# only a comment\n\n", 1, "no ship"),
    ("long-name", "a ship whose name is far longer than forty characters\nX\n", 1, "at most 40 characters"),
];

#[test]
fn every_malformed_fleet_file_is_refused_by_every_command_naming_its_line() {
    let dir = scratch("bad");
    let grid = file(&dir, "grid.txt", ".....\n.....\n.....\n.....\n.....\n");
    let input = file(&dir, "empty.in", "linear\n5 5 0\n");
    for &(name, text, line, part) in BAD_FILES {
        let fleet = file(&dir, &format!("{name}.fleet"), text);
        let f = fleet.as_str();
        let commands: [&[&str]; 7] = [
            &["generate", "--rows", "5", "--cols", "5", "--strategy", "linear", "--fleet-file", f],
            &["simulate", "--games", "1", "--rows", "5", "--cols", "5", "--strategies", "linear", "--fleet-file", f],
            &["referee", "--rows", "5", "--cols", "5", "--fleet-file", f],
            &["play", "--rows", "5", "--cols", "5", "--strategy", "linear", "--fleet-file", f],
            &["advise", "--fleet-file", f, &grid],
            &["trace", "--fleet-file", f, &input],
            &["--fleet-file", f, &input],
        ];
        for args in commands {
            let err = refused(args, b"");
            assert!(err.contains(&format!("--fleet-file: {f}: line {line}: ")), "{name} {args:?}: {err}");
            assert!(err.contains(part), "{name} {args:?}: {err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ship_larger_than_the_bay_is_named_with_its_line() {
    let dir = scratch("large");
    // Line 5 draws a 2x6 ship: larger than a 5x5 bay even turned.
    let f = file(&dir, "wide.fleet", "bar\nX\n\n# too wide\nwide\nXXXXXX\nX....X\n");
    let grid = file(&dir, "grid.txt", ".....\n.....\n.....\n.....\n.....\n");
    let commands: [&[&str]; 5] = [
        &["generate", "--rows", "5", "--cols", "5", "--strategy", "linear", "--fleet-file", &f],
        &["simulate", "--games", "1", "--rows", "5", "--cols", "5", "--strategies", "linear", "--fleet-file", &f],
        &["referee", "--rows", "5", "--cols", "5", "--fleet-file", &f],
        &["play", "--rows", "5", "--cols", "5", "--strategy", "linear", "--fleet-file", &f],
        &["advise", "--fleet-file", &f, &grid],
    ];
    for args in commands {
        let err = refused(args, b"");
        assert!(
            err.contains(
                "ship `wide` (line 5 of the fleet file) is 2x6 (rows x columns), even turned: larger than the board"
            ),
            "{args:?}: {err}"
        );
    }
    // Without turns, a 6x2 bay is too narrow for it as drawn; a 2x6 bay holds it.
    let err = refused(
        &["referee", "--rows", "6", "--cols", "2", "--rotate", "no", "--touch", "yes", "--fleet-file", &f],
        b"",
    );
    assert!(err.contains("ship `wide` (line 5 of the fleet file) is 2x6 (rows x columns): larger"), "{err}");
    ok(
        &[
            "generate",
            "--rows",
            "2",
            "--cols",
            "6",
            "--rotate",
            "no",
            "--touch",
            "yes",
            "--strategy",
            "linear",
            "--fleet-file",
            &f,
        ],
        b"",
    );
    // The preset's bar is 4 rows high: a 3-row sea cannot hold it.
    let err = refused(&["referee", "--rules", "starwars", "--rows", "3", "--cols", "30"], b"");
    assert!(err.contains("ship `Petar Kresimir` is 4x1 (rows x columns): larger than the board"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The seed's four ships, written as a fleet file with comments and blank lines.
const STARWARS_FILE: &str = "\
# the remote-service game's fleet
Petar Kresimir
X
X
X
X

TIE fighter
X.X
XXX
X.X


X wing
X.X
.X.
X.X

# the Y wing's third row: one cell, in the middle
Y wing
X.X
X.X
.X.
";

#[test]
fn a_good_fleet_file_is_the_preset_it_draws() {
    let dir = scratch("good");
    let f = file(&dir, "starwars.fleet", STARWARS_FILE);
    let flags = ["--touch", "yes", "--rotate", "no", "--fleet-file", &f];
    // The same boards, the same games, the same header as --rules starwars.
    let gen = |extra: &[&str]| {
        ok(
            &[&["generate", "--rows", "20", "--cols", "16", "--seed", "4", "--strategy", "bayes"][..], extra].concat(),
            b"",
        )
    };
    let from_file = gen(&flags);
    assert_eq!(from_file, gen(&["--rules", "starwars"]));
    assert_eq!(ok(&flags, from_file.as_bytes()), ok(&["--rules", "starwars"], from_file.as_bytes()));
    let header = |extra: &[&str]| {
        let out = common::run(&[&["referee", "--rows", "9", "--cols", "9"][..], extra].concat(), b"");
        String::from_utf8(out.stdout).unwrap()
    };
    let h = header(&flags);
    assert_eq!(h, header(&["--rules", "starwars"]));
    // The header carries the file's ships, without its comments, and the rules.
    assert_eq!(
        h,
        "bay 9 9\nfleet-file\nPetar Kresimir\nX\nX\nX\nX\n\nTIE fighter\nX.X\nXXX\nX.X\n\nX wing\nX.X\n.X.\nX.X\n\n\
         Y wing\nX.X\nX.X\n.X.\nend\nrules touch=yes sunk=none rotate=no\n"
    );
    // simulate and advise take it too.
    let sim = ok(
        &[&["simulate", "--games", "3", "--rows", "12", "--cols", "12", "--strategies", "density,bayes"][..], &flags]
            .concat(),
        b"",
    );
    assert!(sim.contains("fleet Petar Kresimir 4, TIE fighter 7, X wing 5, Y wing 5 (21 ship cells)"), "{sim}");
    let grid = file(&dir, "grid.txt", &".........\n".repeat(9));
    assert_eq!(ok(&[&["advise", &grid][..], &flags].concat(), b""), ok(&["advise", "--rules", "starwars", &grid], b""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ships of a judge input with a drawn fleet: (kind from 1, row, column) each.
fn drawn_ships(input: &str) -> Vec<(usize, usize, usize)> {
    let t: Vec<&str> = input.split_whitespace().collect();
    let n: usize = t[3].parse().unwrap();
    (0..n)
        .map(|k| (t[6 + 4 * k].parse().unwrap(), t[4 + 4 * k].parse().unwrap(), t[5 + 4 * k].parse().unwrap()))
        .collect()
}

/// Checks a finished game: both sides succeeded, every ship cell was found, and the
/// placement lines before the count are one per ship of `names`, each `NAME at (r,c)`
/// at the ship's true corner or `NAME: N possible places` with N >= 2. Returns how many
/// ships were placed exactly.
fn check_game(g: &Game, what: &str, names: &[&str], ships: &[(usize, usize, usize)], cells: usize) -> usize {
    assert_eq!(g.referee_status, Some(0), "{what}: referee: {}", g.referee_stderr);
    assert_eq!(g.play_status, Some(0), "{what}: play: {}", g.play_stderr);
    let lines: Vec<&str> = g.output.lines().collect();
    let (placed, rest) = lines.split_at(names.len());
    let grid = &rest[1..];
    assert!(rest[0].parse::<usize>().is_ok(), "{what}: {}", g.output);
    assert_eq!(grid.iter().map(|l| l.matches('+').count()).sum::<usize>(), cells, "{what}: {}", g.output);
    assert!(!g.output.contains('O'), "{what}: a ship cell never probed\n{}", g.output);
    let mut exact = 0;
    for (k, (&line, &name)) in placed.iter().zip(names).enumerate() {
        let (_, r, c) = ships.iter().find(|s| s.0 == k + 1).copied().unwrap();
        if let Some(n) = line.strip_prefix(&format!("{name}: ")).and_then(|l| l.strip_suffix(" possible places")) {
            assert!(n.parse::<usize>().unwrap() >= 2, "{what}: {line}");
        } else {
            assert_eq!(line, format!("{name} at ({r},{c})"), "{what}\n{}", g.output);
            exact += 1;
        }
    }
    exact
}

#[test]
fn starwars_games_through_pipes_end_with_every_ship_placed() {
    let dir = scratch("pipes");
    let names = ["Petar Kresimir", "TIE fighter", "X wing", "Y wing"];
    let (mut games, mut exact) = (0, 0);
    for seed in ["1", "2", "3"] {
        let input = ok(
            &[
                "generate",
                "--rules",
                "starwars",
                "--rows",
                "18",
                "--cols",
                "14",
                "--seed",
                seed,
                "--strategy",
                "linear",
            ],
            b"",
        );
        let path = file(&dir, &format!("sw-{seed}.in"), &input);
        let ships = drawn_ships(&input);
        for strategy in ["linear", "random", "hunt", "density", "density-random", "bayes"] {
            let g = game(&["--rules", "starwars", "--board", &path], &["--strategy", strategy, "--seed", seed]);
            let what = format!("starwars seed {seed} {strategy}");
            exact += check_game(&g, &what, &names, &ships, 21);
            // The judge prints the same for the same bay.
            let judge = ok(&["--rules", "starwars", "--strategy", strategy, "--seed", seed, &path], b"");
            assert_eq!(g.output, judge, "{what}");
            games += 1;
        }
    }
    // Ships may touch, so a few may stay ambiguous; most are placed exactly.
    assert!(exact * 10 >= games * 4 * 9, "{exact} of {} ships placed exactly", games * 4);
    // The refused strategies say why.
    let err = refused(&["play", "--rules", "starwars", "--rows", "9", "--cols", "9", "--strategy", "parity"], b"");
    assert!(err.contains("strategy parity cannot play these rules") && err.contains("drawn"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn turned_ships_that_never_touch_through_pipes() {
    let dir = scratch("turned");
    // Connected shapes that never touch: each is found and placed exactly, turned or not.
    let f = file(&dir, "tetro.fleet", "# two tetrominoes and a bar\nell\nX.\nX.\nXX\n\ntee\nXXX\n.X.\n\nbar\nXX\n");
    let flags = ["--fleet-file", f.as_str(), "--rotate", "yes", "--touch", "no"];
    let header =
        String::from_utf8(common::run(&[&["referee", "--rows", "8", "--cols", "8"][..], &flags].concat(), b"").stdout)
            .unwrap();
    assert_eq!(
        header,
        "bay 8 8\nfleet-file\nell\nX.\nX.\nXX\n\ntee\nXXX\n.X.\n\nbar\nXX\nend\nrules touch=no sunk=none rotate=yes\n"
    );
    let mut turned = 0;
    for seed in 1..=6 {
        let seed = seed.to_string();
        let input = ok(
            &[&["generate", "--rows", "8", "--cols", "8", "--strategy", "linear", "--seed", &seed][..], &flags]
                .concat(),
            b"",
        );
        turned += input.split_whitespace().skip(4).filter(|w| ["E", "S", "W"].contains(w)).count();
        let path = file(&dir, &format!("t-{seed}.in"), &input);
        let ships = drawn_ships(&input);
        for strategy in ["hunt", "density", "bayes"] {
            let g =
                game(&[&["--board", path.as_str()][..], &flags].concat(), &["--strategy", strategy, "--seed", &seed]);
            let what = format!("seed {seed} {strategy}\n{input}");
            assert_eq!(check_game(&g, &what, &["ell", "tee", "bar"], &ships, 10), 3, "{what}\n{}", g.output);
        }
    }
    assert!(turned >= 6, "only {turned} ships turned: the test would not see turns");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ships_that_touch_may_leave_several_places() {
    let dir = scratch("touch");
    // A 1x6 bay: a 2-cell and a 3-cell ship side by side from column 0, column 5
    // water. The hits are columns 0 to 4, which fit `a` then `b` or `b` then `a`.
    let f = file(&dir, "ab.fleet", "a\nXX\n\nb\nXXX\n\n# a long bar: six cells is a drawn ship\nc\nXXXXXX\n");
    let flags = ["--fleet-file", f.as_str(), "--touch", "yes", "--rotate", "no"];
    let board = file(&dir, "ab.in", "linear\n2 6 3\n0 0 1 N 0 2 2 N 1 0 3 N\n");
    for strategy in ["linear", "density", "bayes"] {
        let g = game(&[&["--board", board.as_str()][..], &flags].concat(), &["--strategy", strategy]);
        assert_eq!(g.play_status, Some(0), "{}", g.play_stderr);
        assert_eq!(g.referee_status, Some(0), "{}", g.referee_stderr);
        let lines: Vec<&str> = g.output.lines().collect();
        assert_eq!(
            lines[..3],
            ["a: 2 possible places", "b: 2 possible places", "c at (1,0)"],
            "{strategy}: {}",
            g.output
        );
        // Column 5 of row 0 is water, probed or not.
        assert!(lines[4] == "+++++X" || lines[4] == "+++++.", "{strategy}: {}", g.output);
        assert_eq!(lines[5..], ["++++++"], "{strategy}: {}", g.output);
    }
    // A vertical bar that may not turn is announced by its drawing, not as `fleet 3`.
    let bar = file(&dir, "bar.fleet", "bar\nX\nX\nX\n");
    let flags = ["--fleet-file", bar.as_str(), "--rotate", "no"];
    let input = file(&dir, "bar.in", "linear\n4 4 1\n1 2 3 S\n");
    let g = game(&[&["--board", input.as_str()][..], &flags].concat(), &["--strategy", "bayes"]);
    assert_eq!(g.play_status, Some(0), "{}", g.play_stderr);
    assert!(g.output.starts_with("bar at (1,2)\n"), "{}", g.output);
    let header =
        String::from_utf8(common::run(&[&["referee", "--board", input.as_str()][..], &flags].concat(), b"").stdout)
            .unwrap();
    assert_eq!(header, "bay 4 4\nfleet-file\nbar\nX\nX\nX\nend\nrules touch=no sunk=none rotate=no\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn problem_g_prints_no_placement_lines() {
    // Sizes are not names: the judge's and play's output is only the count and grid.
    let out = ok(&[], b"linear\n2 3 1\n0 0 2 E\n");
    assert_eq!(out, "2\n++.\n...\n");
    let g = game(&["--rows", "2", "--cols", "3", "--fleet", "2", "--seed", "1"], &["--strategy", "linear"]);
    assert_eq!(g.play_status, Some(0), "{}", g.play_stderr);
    assert!(g.output.lines().next().unwrap().parse::<usize>().is_ok(), "{}", g.output);
}
