//! The stronger strategies (`parity`, `bayes`) through the public API and the binary:
//! invariants on many random boards, determinism, reuse across games, play without a
//! fleet, and the posterior against known answers.

use crate::common;

use spot_the_ships::game::board::Board;
use spot_the_ships::game::placement::{random_board, Placer, STANDARD_FLEET};
use spot_the_ships::game::position::Position;
use spot_the_ships::game::rng::Rng;
use spot_the_ships::scan::record::{CellState, ScanRecord};
use spot_the_ships::scan::referee::Referee;
use spot_the_ships::strategy::{by_name, solve, NAMES};

/// Checks the judge's invariants of a finished run on `board`.
fn check(board: &Board, record: &ScanRecord) {
    let (rows, cols) = (board.rows(), board.cols());
    assert!(record.scans() <= rows * cols);
    assert_eq!(record.hits(), board.ship_cells());
    for i in 0..rows * cols {
        let p = Position::from_index(i, cols);
        match record.state(p) {
            CellState::Hit => assert!(board.is_ship(p)),
            CellState::Miss | CellState::Eliminated => assert!(!board.is_ship(p), "{p} is a ship"),
            CellState::Unknown => assert!(!board.is_ship(p), "{p} never spotted"),
        }
    }
}

#[test]
fn both_are_registered() {
    for name in ["parity", "bayes"] {
        assert!(NAMES.contains(&name));
        assert_eq!(by_name(name, 1).unwrap().name(), name);
    }
}

#[test]
fn invariants_hold_on_random_boards() {
    for name in ["parity", "bayes"] {
        let mut strategy = by_name(name, 7).unwrap();
        let mut rng = Rng::new(77);
        for _ in 0..120 {
            let rows = 1 + rng.below(11) as usize;
            let cols = 1 + rng.below(11) as usize;
            let board = random_board(rows, cols, &mut rng).unwrap();
            let record = solve(strategy.as_mut(), &mut Referee::new(&board)).unwrap();
            check(&board, &record);
        }
    }
}

#[test]
fn same_seed_gives_the_same_game() {
    let mut placer = Placer::new(10, 10);
    for i in 0..5 {
        let board =
            Board::new(10, 10, placer.place_fleet(&STANDARD_FLEET, &mut Rng::for_stream(3, i)).unwrap()).unwrap();
        for name in ["parity", "bayes"] {
            let a = solve(by_name(name, 11).unwrap().as_mut(), &mut Referee::new(&board)).unwrap();
            let mut reused = by_name(name, 99).unwrap();
            solve(reused.as_mut(), &mut Referee::new(&board)).unwrap();
            reused.reseed(11);
            let b = solve(reused.as_mut(), &mut Referee::new(&board)).unwrap();
            assert_eq!(a.render_output(Some(&board)), b.render_output(Some(&board)), "{name}");
        }
    }
}

/// A bay that only tells the ship-cell count, like interactive play.
#[test]
fn without_a_fleet_both_still_finish() {
    let mut rng = Rng::new(5);
    for name in ["parity", "bayes"] {
        let mut strategy = by_name(name, 1).unwrap();
        for _ in 0..100 {
            let rows = 1 + rng.below(10) as usize;
            let cols = 1 + rng.below(10) as usize;
            let board = random_board(rows, cols, &mut rng).unwrap();
            let record = solve(strategy.as_mut(), &mut common::NoFleet(Referee::new(&board))).unwrap();
            check(&board, &record);
        }
    }
}

#[test]
fn the_judge_runs_them() {
    let input = b"bayes\n5 6 2\n1 1 4 E 3 3 2 S\n";
    let out = common::run(&[], input);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let scans: usize = text.lines().next().unwrap().parse().unwrap();
    assert!((6..=30).contains(&scans));
    assert_eq!(text.matches('+').count(), 6);
    assert!(!text.contains('O'));
    let out = common::run(&[], b"parity\n5 6 0\n");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0\n......\n......\n......\n......\n......\n");
}

#[test]
fn posterior_of_an_empty_bay_is_the_generators_law() {
    // The sampled posterior of the empty 10x10 bay against the generator's frequencies.
    let grid = vec![CellState::Unknown; 100];
    let settings = spot_the_ships::posterior::Settings { samples: 20_000, ..Default::default() };
    let post = spot_the_ships::posterior::Estimator::with_settings(1, settings)
        .estimate(10, 10, &grid, &STANDARD_FLEET)
        .unwrap();
    let mut counts = [0u32; 100];
    let mut placer = Placer::new(10, 10);
    let n = 20_000;
    for i in 0..n {
        for ship in placer.place_fleet(&STANDARD_FLEET, &mut Rng::for_stream(9, i)).unwrap() {
            for c in ship.cells() {
                counts[c.index(10)] += 1;
            }
        }
    }
    for (i, &c) in counts.iter().enumerate() {
        let freq = c as f64 / n as f64;
        let p = post.prob(Position::from_index(i, 10));
        assert!((freq - p).abs() < 0.03, "cell {i}: generator {freq}, posterior {p}");
    }
}
