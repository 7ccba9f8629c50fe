//! `advise` on hand-made states: prob's scores against a full recomputation, the
//! suggestion, the certain cells, bayes's exact answers, and every refused grid.

use crate::common;

use spot_the_ships::strategy::likelihood::recompute;

/// The parts of an `advise` report.
struct Report {
    matrix: Vec<Vec<i32>>,
    header: String,
    suggest: String,
    water: Vec<(usize, usize)>,
    ship: Vec<(usize, usize)>,
}

fn cells(list: &str) -> Vec<(usize, usize)> {
    if list == "none" {
        return Vec::new();
    }
    list.split(' ')
        .map(|t| {
            let (r, c) = t.trim_matches(|ch| ch == '(' || ch == ')').split_once(',').expect("(r,c)");
            (r.parse().expect("row"), c.parse().expect("col"))
        })
        .collect()
}

fn advise(args: &[&str], state: &str) -> Report {
    let mut all = vec!["advise"];
    all.extend_from_slice(args);
    let out = common::run(&all, state.as_bytes());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut lines = text.lines();
    let header = lines.next().expect("header").to_string();
    let mut matrix = Vec::new();
    let mut rest = Vec::new();
    for line in lines {
        if line.contains(':') {
            rest.push(line);
        } else {
            matrix.push(line.split_whitespace().map(|t| t.parse().expect("number")).collect());
        }
    }
    let field = |name: &str| {
        rest.iter().find_map(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("no `{name}` in {text}")).to_string()
    };
    Report {
        matrix,
        header,
        suggest: field("suggest: "),
        water: cells(&field("certain water: ")),
        ship: cells(&field("certain ship: ")),
    }
}

/// The cells prob would have blocked, computed here: X, + and diagonals of hits.
fn blocked(state: &str) -> (usize, usize, Vec<bool>) {
    let grid: Vec<&[u8]> = state.lines().map(str::as_bytes).collect();
    let (rows, cols) = (grid.len(), grid[0].len());
    let mut b = vec![false; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            match grid[r][c] {
                b'X' => b[r * cols + c] = true,
                b'+' => {
                    b[r * cols + c] = true;
                    for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                        let (rr, cc) = (r as isize + dr, c as isize + dc);
                        if rr >= 0 && cc >= 0 && (rr as usize) < rows && (cc as usize) < cols {
                            b[rr as usize * cols + cc as usize] = true;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    (rows, cols, b)
}

fn check_scores(state: &str, report: &Report) {
    let (rows, cols, mut b) = blocked(state);
    // Cells the rules prove to be water are blocked too (-1).
    for &(r, c) in &report.water {
        b[r * cols + c] = true;
    }
    let expected = recompute(rows, cols, &b);
    let got: Vec<i32> = report.matrix.iter().flatten().copied().collect();
    assert_eq!(got, expected, "{state}");
}

const STATES: [&str; 5] = [
    "......\n......\n......\n......\n......\n",
    "......\n.+X...\n......\n......\n...X..\n",
    "X.X.X.X\n.......\n..++...\n.......\nXXXXXXX\n",
    "+\n.\n.\nX\n.\n",
    "..........\n..........\n...+......\n...+......\n..........\n.....X....\n..........\n..X.......\n..........\n.........+\n",
];

#[test]
fn certain_water_shows_minus_one() {
    // The state of the issue: with a fleet of 2 and 1, (1,0)... are certain water.
    let state = "++X\nXXX\n..+\n";
    let r = advise(&["--fleet", "2,1", "--strategy", "prob"], state);
    assert!(!r.water.is_empty(), "{:?}", r.water);
    for &(rr, cc) in &r.water {
        assert_eq!(r.matrix[rr][cc], -1, "({rr},{cc}) is certain water: {:?}", r.matrix);
    }
    check_scores(state, &r);
}

#[test]
fn prob_scores_equal_a_full_recomputation() {
    for state in STATES {
        let report = advise(&["--strategy", "prob"], state);
        assert!(report.header.starts_with("likelihood"), "{}", report.header);
        check_scores(state, &report);
    }
    // Without --fleet prob is the default.
    let report = advise(&[], STATES[1]);
    check_scores(STATES[1], &report);
}

#[test]
fn empty_board_gives_the_statements_matrix_and_its_best_cell() {
    let r = advise(&[], STATES[0]);
    assert_eq!(r.matrix[0], vec![10, 14, 16, 16, 14, 10]);
    assert_eq!(r.matrix[2], vec![14, 18, 20, 20, 18, 14]);
    assert!(r.suggest.starts_with("(2,2)"), "{}", r.suggest);
    assert!(r.water.is_empty() && r.ship.is_empty());
}

#[test]
fn prob_suggests_the_best_neighbour_of_a_hit() {
    // Hit (1,1): neighbours (0,1)=2, (1,0)=2, (2,1)=4; (1,2) is X.
    let r = advise(&[], STATES[1]);
    assert!(r.suggest.starts_with("(2,1)"), "{}", r.suggest);
    assert_eq!(r.water, vec![(0, 0), (0, 2), (2, 0), (2, 2)]);
    // A vertical pair: its ends, not its sides (diagonals of the other cell).
    let r = advise(&[], STATES[4]);
    assert!(r.suggest.starts_with("(4,3)"), "{}", r.suggest);
    // No hit: the highest score, first in row-major order among equals.
    let r = advise(&[], "X..\n...\n");
    let best = r.matrix.iter().flatten().copied().max().unwrap();
    let first = r.matrix.iter().flatten().position(|&s| s == best).unwrap();
    assert!(r.suggest.starts_with(&format!("({},{})", first / 3, first % 3)), "{}", r.suggest);
}

#[test]
fn prob_certain_cells() {
    // A run of five is a whole ship even without a fleet: its ends are water.
    let r = advise(&[], ".......\n.+++++.\n.......\n");
    assert!(r.water.contains(&(1, 0)) && r.water.contains(&(1, 6)), "{:?}", r.water);
    assert_eq!(r.water.len(), 16);
    assert!(r.suggest.starts_with("none"), "{}", r.suggest);
    // With a fleet whose longest ship is 2, a pair is whole too.
    let r = advise(&["--strategy", "prob", "--fleet", "2,1"], "....\n.++.\n....\n....\n");
    assert!(r.water.contains(&(1, 0)) && r.water.contains(&(1, 3)), "{:?}", r.water);
    // Every ship cell hit: the rest is water.
    let r = advise(&["--strategy", "prob", "--fleet", "1"], "...\n.+.\n...\n");
    assert_eq!(r.water.len(), 8);
    assert!(r.suggest.starts_with("none"));
    // A lone hit in a corner, ships of 2 or more, one side blocked: the other is ship.
    let r = advise(&["--strategy", "prob", "--fleet", "3,2"], "+X..\n....\n....\n");
    assert_eq!(r.ship, vec![(1, 0)]);
    assert!(r.suggest.starts_with("(1,0)"), "{}", r.suggest);
}

#[test]
fn bayes_is_the_default_with_a_fleet_and_exact_on_small_cases() {
    // One 2-ship, a hit in the corner of a 1x3 strip: the ship is (0,0)-(0,1).
    let r = advise(&["--fleet", "2"], "+..\n");
    assert!(r.header.starts_with("ship probability"), "{}", r.header);
    assert_eq!(r.matrix, vec![vec![100, 100, 0]]);
    assert_eq!(r.ship, vec![(0, 1)]);
    assert_eq!(r.water, vec![(0, 2)]);
    assert!(r.suggest.starts_with("(0,1)"), "{}", r.suggest);
    // A 1-ship on a 1x3 strip with the middle water: two equally likely cells.
    let r = advise(&["--fleet", "1"], ".X.\n");
    assert_eq!(r.matrix, vec![vec![50, 0, 50]]);
    assert!(r.suggest.starts_with("(0,0)"), "{}", r.suggest);
    assert!(r.water.is_empty() && r.ship.is_empty());
}

#[test]
fn bayes_default_fleet_on_a_ten_by_ten() {
    let state = "..........\n".repeat(4) + "....+.....\n" + &"..........\n".repeat(5);
    let r = advise(&["--strategy", "bayes"], &state);
    assert!(r.header.contains("5,4,3,3,2,2,1,1"), "{}", r.header);
    assert_eq!(r.matrix.len(), 10);
    assert_eq!(r.matrix[4][4], 100);
    for (rr, cc) in [(3, 3), (3, 5), (5, 3), (5, 5)] {
        assert_eq!(r.matrix[rr][cc], 0);
        assert!(r.water.contains(&(rr, cc)));
    }
    // The suggestion is a most likely unknown cell (to the percent shown).
    let (sr, sc) = cells(r.suggest.split(' ').next().unwrap())[0];
    let top = r.matrix.iter().flatten().copied().filter(|&p| p < 100).max().unwrap();
    assert_eq!(r.matrix[sr][sc], top, "{}", r.suggest);
    // Symmetric board, symmetric estimate: the four neighbours agree within sampling noise.
    let n = [r.matrix[3][4], r.matrix[5][4], r.matrix[4][3], r.matrix[4][5]];
    assert!(n.iter().max().unwrap() - n.iter().min().unwrap() <= 4, "{n:?}");
}

#[test]
fn crlf_and_a_final_empty_line_are_accepted() {
    let r = advise(&[], "...\r\n.+.\r\n...\r\n\r\n");
    assert_eq!(r.matrix.len(), 3);
    assert_eq!(r.water.len(), 4);
    let r = advise(&[], "..\n..");
    assert_eq!(r.matrix.len(), 2);
}

/// Runs advise expecting the error contract; returns the message.
fn refused<S: AsRef<[u8]> + ?Sized>(args: &[&str], state: &S) -> String {
    let state = state.as_ref();
    let mut all = vec!["advise"];
    all.extend_from_slice(args);
    let out = common::run(&all, state);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{:?}: {err}", String::from_utf8_lossy(state));
    assert!(out.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&out.stdout));
    assert!(err.starts_with("error: ") && err.matches('\n').count() == 1, "{err:?}");
    err
}

fn has(err: &str, parts: &[&str]) {
    for p in parts {
        assert!(err.contains(p), "`{p}` missing from {err}");
    }
}

#[test]
fn inconsistent_states_are_refused_naming_the_cell() {
    has(&refused(&[], ""), &["empty input"]);
    has(&refused(&[], "\r\n\n"), &["empty input"]);
    has(&refused(&[], "...\n..\n"), &["row 1", "2 cells", "3"]);
    has(&refused(&[], "...\n.o.\n"), &["(1,1)", "`o`"]);
    has(&refused(&[], "..\n.\u{e9}\n"), &["(1,1)"]);
    has(&refused(&[], b"\xff\n"), &["(0,0)"]);
    has(&refused(&[], "+..\n.+.\n"), &["impossible: (1,1) is a hit diagonal to the hit (0,0)"]);
    // A bent line shows as diagonal hits (the consistency check refuses it before the
    // deductions run, as it does every case below that they would refuse).
    has(&refused(&[], "++\n.+\n"), &["impossible: (1,1) is a hit diagonal to the hit (0,0), and ships never touch"]);
    has(
        &refused(&["--fleet", "1"], "+.+\n"),
        &["the grid has more hits than the fleet's 1 ship cell ((0,2) is one too many, in reading order)"],
    );
    has(&refused(&[], "++++++\n"), &["(0,5) is a hit that makes 6 hits in a line", "longest ship afloat has 5 cells"]);
    has(&refused(&["--fleet", "3,2"], ".+\n.+\n.+\n.+\n"), &["(3,1) is a hit that makes 4 hits", "has 3 cells"]);
    has(
        &refused(&["--strategy", "prob", "--fleet", "1,1"], "+.+.+\n"),
        &["more hits than the fleet's 2 ship cells ((0,4) is one too many"],
    );
    has(
        &refused(&["--strategy", "prob", "--fleet", "2,1"], "+X+X\nX.X.\n"),
        &["the hit at (0,2) must be a whole ship", "ships of 1 cell"],
    );
    has(
        &refused(&["--strategy", "prob", "--fleet", "3,1,1"], "+++X.\nXXX..\n...++\n"),
        &["the 2 hits in a line from (2,3) are longer than any ship that can hold them (1 cell)\n"],
    );
    has(&refused(&[], "#+..\n....\n"), &["the hit (0,1) touches the sunk ship's cell (0,0)"]);
    // bayes: no layout of the fleet fits.
    has(&refused(&["--fleet", "5"], "...\n...\n"), &["cannot fit", "5 cells"]);
    has(&refused(&["--strategy", "bayes"], "...\n...\n"), &["cannot fit"]);
    has(&refused(&["--fleet", "2,2"], "+.+\nX.X\n...\n"), &["contradicts the fleet 2,2"]);
    has(&refused(&["--strategy", "bayes", "--fleet", "3,2"], ".....\n.+++.\n.....\n"), &["missing"]);
}

#[test]
fn bad_flags_are_refused() {
    has(&refused(&["--strategy", "linear"], "..\n"), &["prob or bayes"]);
    has(&refused(&["--fleet", "9"], "..\n"), &["--fleet"]);
    has(&refused(&["--seed", "x"], "..\n"), &["--seed"]);
    has(&refused(&["--nope"], "..\n"), &["--nope"]);
}

#[test]
fn help_describes_the_format() {
    let out = common::run(&["advise", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for part in ["state.txt", "unknown", "water", "hit", "suggest:", "certain water:", "certain ship:", "-1"] {
        assert!(text.contains(part), "{part} missing from help");
    }
}

#[test]
fn deductions_are_sound_on_random_games() {
    use spot_the_ships::game::cellset::CellSet;
    use spot_the_ships::game::placement::random_board;
    use spot_the_ships::game::position::Position;
    use spot_the_ships::game::rng::Rng;
    use spot_the_ships::scan::deduce::deduce;
    use spot_the_ships::scan::record::{CellState, ScanRecord};
    let mut rng = Rng::new(5);
    let (mut water_found, mut ship_found) = (0, 0);
    for _ in 0..3000 {
        let (rows, cols) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
        let board = random_board(rows, cols, &mut rng).unwrap();
        let reveal = rng.below(101);
        let mut known = ScanRecord::new(rows, cols);
        for i in 0..rows * cols {
            if rng.below(100) < reveal {
                known.set_probed(i, board.is_ship(Position::from_index(i, cols)));
            }
        }
        let sizes = board.fleet();
        for fleet in [None, Some(sizes.as_slice())] {
            let d = deduce(&known, &CellSet::new(rows * cols), fleet)
                .unwrap_or_else(|e| panic!("{e} on a consistent grid"));
            assert_eq!((d.water.capacity(), d.ship.capacity()), (rows * cols, rows * cols));
            for i in 0..rows * cols {
                let p = Position::from_index(i, cols);
                let unknown = known.state(p) == CellState::Unknown;
                if d.water.contains(i) {
                    assert!(!board.is_ship(p), "{p} deduced water on a ship");
                    water_found += usize::from(unknown);
                }
                if d.ship.contains(i) {
                    assert!(board.is_ship(p), "{p} deduced ship on water");
                    ship_found += usize::from(unknown);
                }
            }
        }
    }
    assert!(water_found > 1000 && ship_found > 10, "{water_found} {ship_found}");
}

#[test]
fn lower_case_x_is_water() {
    let upper = advise(&[], "X..\n.+.\n...\n");
    let lower = advise(&[], "x..\n.+.\n...\n");
    assert_eq!(upper.matrix, lower.matrix);
    assert_eq!(upper.suggest, lower.suggest);
}

#[test]
fn sunk_ships_leave_the_fleet() {
    // 1x7 under russian rules (ships never touch), fleet 2,1: the 2-ship is sunk at the
    // left; the 1-ship may not touch it, so it is on one of columns 3 to 6.
    let r = advise(&["--rules", "russian", "--fleet", "2,1"], "##.....\n");
    assert!(r.header.contains("fleet 1"), "{}", r.header);
    assert_eq!(r.matrix, vec![vec![0, 0, 0, 25, 25, 25, 25]]);
    assert!(r.water.contains(&(0, 2)), "{:?}", r.water);
    // The same with the afloat ships given.
    let given = advise(&["--rules", "russian", "--fleet", "2,1", "--afloat", "1"], "##.....\n");
    assert_eq!(given.matrix, r.matrix);
    // Ships that touch: the sizes of sunk ships cannot be read, --afloat is needed.
    let err = refused(&["--rules", "classic"], "##...\n");
    has(&err, &["--afloat"]);
    let r = advise(&["--rules", "classic", "--fleet", "2,1", "--afloat", "1"], "##...\n");
    assert_eq!(r.matrix, vec![vec![0, 0, 33, 33, 33]]);
    // A hit touching a sunk ship when ships never touch.
    has(&refused(&["--rules", "russian", "--fleet", "2,1"], "##+....\n"), &["touches", "sunk"]);
}

#[test]
fn the_prior_is_uniform_unless_asked() {
    // One 2-ship on a 1x4 strip: 3 layouts, the middle cells in two of them.
    let uniform = advise(&["--fleet", "2"], "....\n");
    assert_eq!(uniform.matrix, vec![vec![33, 67, 67, 33]]);
    assert!(uniform.header.contains("uniform prior"), "{}", uniform.header);
    // A 2-ship and a 1-ship on 1x5: the generator places the 2-ship first, uniformly,
    // which weighs layouts differently from the uniform prior.
    let u = advise(&["--fleet", "2,1"], ".....\n");
    let g = advise(&["--fleet", "2,1", "--prior", "generator"], ".....\n");
    assert_ne!(u.matrix, g.matrix);
    has(&refused(&["--prior", "flat"], "..\n"), &["--prior", "uniform or generator"]);
}

#[test]
fn json_gives_the_probabilities() {
    let out = common::run(&["advise", "--fleet", "2", "--format", "json"], b"+..\n");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "{\"rows\": 1, \"cols\": 3, \"method\": \"exact\", \"layouts\": 1, \"probability\": [[null, 1.000000, 0.000000]], \"suggest\": [0, 1]}\n"
    );
    let out = common::run(&["advise", "--strategy", "prob", "--format", "json"], b"...\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("{\"rows\": 1, \"cols\": 3, \"method\": \"likelihood\", \"layouts\": null, \"score\": [["),
        "{text}"
    );
}

#[test]
fn classic_rules_allow_touching_hits() {
    // Under classic rules diagonal hits are fine (two ships side by side).
    let r = advise(&["--rules", "classic", "--fleet", "2,2"], "+...\n.+..\n....\n");
    assert_eq!(r.matrix[0][0], 100);
    has(&refused(&["--rules", "classic", "--strategy", "prob"], "...\n"), &["--strategy prob", "touch"]);
}
