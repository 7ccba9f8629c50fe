//! Strategy behaviour beyond the goldens: agreement with the slow reference on many
//! random boards, the output invariants on a large generated board, the incremental
//! likelihood against a full recomputation at every read, and the probe bound.

use crate::common;

use spot_the_ships::game::board::Board;
use spot_the_ships::game::placement::{random_board, Placer};
use spot_the_ships::game::position::Position;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::scan::observer::{ScanObserver, ScoreView};
use spot_the_ships::scan::record::{CellState, ScanRecord};
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::strategy::likelihood::recompute;
use spot_the_ships::strategy::{self, solve, solve_observed, Lookahead, ScanStrategy};

fn judge_text(name: &str, board: &Board) -> String {
    let mut s = format!("{name}\n{} {} {}\n", board.rows(), board.cols(), board.ships().len());
    for ship in board.ships() {
        s.push_str(&format!("{ship}\n"));
    }
    s
}

/// Every strategy of the table that plays a board of `cells` cells, made from `seed`, but
/// lookahead with 16 layouts a probe: its 8,192 take seconds a game; the code is the same.
fn every_strategy(cells: usize, seed: u64) -> Vec<(&'static str, Box<dyn ScanStrategy + Send>)> {
    strategy::STRATEGIES
        .iter()
        .filter(|e| e.max_cells >= cells)
        .map(|e| {
            let s: Box<dyn ScanStrategy + Send> =
                if e.name == "lookahead" { Box::new(Lookahead::with_layouts(seed, 16)) } else { (e.make)(seed) };
            (e.name, s)
        })
        .collect()
}

#[test]
fn statement_strategies_agree_with_the_reference_on_random_boards() {
    let mut rng = Rng::new(99);
    for _ in 0..600 {
        let rows = 1 + rng.below(12) as usize;
        let cols = 1 + rng.below(12) as usize;
        let board = random_board(rows, cols, &mut rng).unwrap();
        for name in ["linear", "smart", "prob"] {
            let mut s = strategy::by_name(name, 1).unwrap();
            let record = solve(s.as_mut(), &mut Referee::new(&board)).unwrap();
            let expected = common::solve(&common::parse(&judge_text(name, &board)));
            assert_eq!(record.render_output(Some(&board)), expected, "{}", judge_text(name, &board));
        }
    }
}

/// Checks the output invariants of a finished run.
fn check_invariants(board: &Board, record: &ScanRecord, name: &str) {
    let mut probed = 0;
    for r in 0..board.rows() {
        for c in 0..board.cols() {
            let p = Position::new(r, c);
            match record.state(p) {
                CellState::Hit => {
                    assert!(board.is_ship(p), "{name}: hit on water at {p}");
                    probed += 1;
                }
                CellState::Miss => {
                    assert!(!board.is_ship(p), "{name}: miss on a ship at {p}");
                    probed += 1;
                }
                CellState::Eliminated => assert!(!board.is_ship(p), "{name}: eliminated a ship cell at {p}"),
                CellState::Unknown => assert!(!board.is_ship(p), "{name}: ship cell {p} never spotted"),
            }
        }
    }
    assert_eq!(record.scans(), probed, "{name}: scans differ from probed cells");
    assert!(record.scans() <= board.cells());
    assert!(!record.render_grid(Some(board)).contains('O'));
}

#[test]
fn every_strategy_keeps_the_invariants_on_a_300x300_board() {
    let ships = Placer::new(300, 300).fill_density(0.25, &mut Rng::new(300)).unwrap();
    let board = Board::new(300, 300, ships).unwrap();
    for (name, mut s) in every_strategy(board.cells(), 7) {
        let record = solve(s.as_mut(), &mut Referee::new(&board)).unwrap();
        check_invariants(&board, &record, name);
    }
}

#[test]
fn every_strategy_keeps_the_invariants_on_small_random_boards() {
    let mut rng = Rng::new(5);
    for _ in 0..300 {
        let board = random_board(1 + rng.below(15) as usize, 1 + rng.below(15) as usize, &mut rng).unwrap();
        for (name, mut s) in every_strategy(board.cells(), rng.next_u64()) {
            let record = solve(s.as_mut(), &mut Referee::new(&board)).unwrap();
            check_invariants(&board, &record, name);
        }
    }
}

/// Compares every matrix prob reads with a recomputation from the record.
struct MatrixChecker {
    reads: usize,
    record: Option<ScanRecord>,
}

impl ScanObserver for MatrixChecker {
    fn likelihood_read(&mut self, m: &dyn ScoreView) {
        let (rows, cols) = (m.rows(), m.cols());
        let blocked: Vec<bool> = match &self.record {
            Some(rec) => (0..rows * cols).map(|i| rec.state_at(i).is_blocked()).collect(),
            None => vec![false; rows * cols],
        };
        let expected = recompute(rows, cols, &blocked);
        let got: Vec<i32> = (0..rows * cols).map(|i| m.score(Position::from_index(i, cols))).collect();
        assert_eq!(got, expected, "matrix read {} differs", self.reads);
        self.reads += 1;
    }
    fn step_done(&mut self, record: &ScanRecord) {
        self.record = Some(record.clone());
    }
}

#[test]
fn prob_reads_a_matrix_equal_to_a_full_recomputation() {
    let mut rng = Rng::new(17);
    let mut reads = 0;
    for _ in 0..200 {
        let board = random_board(1 + rng.below(12) as usize, 1 + rng.below(12) as usize, &mut rng).unwrap();
        let mut checker = MatrixChecker { reads: 0, record: None };
        let mut prob = strategy::by_name("prob", 0).unwrap();
        solve_observed(prob.as_mut(), &mut Referee::new(&board), &mut checker).unwrap();
        reads += checker.reads;
    }
    assert!(reads > 1000, "only {reads} reads checked");
}

#[test]
fn the_reference_matrix_agrees_with_the_library_reference() {
    let mut rng = Rng::new(3);
    for _ in 0..100 {
        let (rows, cols) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
        let blocked: Vec<Vec<bool>> = (0..rows).map(|_| (0..cols).map(|_| rng.below(3) == 0).collect()).collect();
        let flat: Vec<bool> = blocked.iter().flatten().copied().collect();
        let a: Vec<i32> = common::likelihood(rows, cols, &blocked).into_iter().flatten().collect();
        assert_eq!(a, recompute(rows, cols, &flat));
    }
}

/// Counts what a watched scan reports.
#[derive(Default)]
struct StepCounter {
    probes: usize,
    steps: usize,
}

impl ScanObserver for StepCounter {
    fn probed(
        &mut self,
        _pos: Position,
        _source: spot_the_ships::scan::observer::Source,
        _answer: spot_the_ships::scan::sonar::Answer,
    ) {
        self.probes += 1;
    }
    fn step_done(&mut self, record: &ScanRecord) {
        self.steps += 1;
        assert_eq!(record.scans(), self.steps, "one step per probe");
    }
}

#[test]
fn the_quiet_lane_scans_exactly_like_a_watched_scan_under_every_preset() {
    // Under rules that announce sunk ships the quiet lane's sweep records the answer of
    // the hit that ends it after the fact; the watched lane asks probe by probe.
    use spot_the_ships::game::rules::{Rules, PRESET_NAMES};
    let mut rng = Rng::new(2027);
    for preset in PRESET_NAMES {
        let rules = Rules::preset(preset).unwrap();
        let mut played = 0;
        for _ in 0..60 {
            let (rows, cols) = (8 + rng.below(5) as usize, 8 + rng.below(5) as usize);
            let mut ships = Vec::new();
            if Placer::with_rules(rows, cols, &rules).place(rules.fleet(), &mut rng, &mut ships).is_err() {
                continue;
            }
            let board = Board::with_rules(rows, cols, ships, &rules).unwrap();
            let (quiet_ones, watched_ones) = (every_strategy(board.cells(), 7), every_strategy(board.cells(), 7));
            let supported = |(name, _): &(&str, _)| strategy::supporting(&rules).any(|e| e.name == *name);
            let pairs = quiet_ones.into_iter().zip(watched_ones).filter(|(q, _)| supported(q));
            for ((name, mut quiet_one), (_, mut watched_one)) in pairs {
                let quiet = solve(quiet_one.as_mut(), &mut Referee::new(&board)).unwrap();
                let mut counter = StepCounter::default();
                let watched = solve_observed(watched_one.as_mut(), &mut Referee::new(&board), &mut counter).unwrap();
                assert_eq!(quiet.render_output(Some(&board)), watched.render_output(Some(&board)), "{preset} {name}");
                assert_eq!(quiet.answers(), watched.answers(), "{preset} {name}: the answers, sunk ones too");
                assert_eq!((counter.probes, counter.steps), (watched.scans(), watched.scans()), "{preset} {name}");
                played += 1;
            }
        }
        assert!(played > 60, "{preset}: {played} games");
    }
}

#[test]
fn the_quiet_lane_scans_exactly_like_a_watched_scan() {
    // `solve` with nobody watching takes the quiet lane (row-major sweeps of whole runs
    // of water, probes without observer calls); a watched scan goes probe by probe.
    let mut rng = Rng::new(2026);
    for _ in 0..400 {
        let rows = 1 + rng.below(14) as usize;
        let cols = 1 + rng.below(14) as usize;
        let board = random_board(rows, cols, &mut rng).unwrap();
        let pairs = every_strategy(board.cells(), 7).into_iter().zip(every_strategy(board.cells(), 7));
        for ((name, mut quiet_one), (_, mut watched_one)) in pairs {
            let quiet = solve(quiet_one.as_mut(), &mut Referee::new(&board)).unwrap();
            let mut counter = StepCounter::default();
            let watched = solve_observed(watched_one.as_mut(), &mut Referee::new(&board), &mut counter).unwrap();
            assert_eq!(quiet.render_output(Some(&board)), watched.render_output(Some(&board)), "{name}");
            assert_eq!((quiet.scans(), quiet.hits()), (watched.scans(), watched.hits()), "{name}");
            assert_eq!((counter.probes, counter.steps), (watched.scans(), watched.scans()), "{name}");
        }
    }
}
