use super::*;
use crate::game::rng::Rng;

/// Every placement (cells) of a `size` ship on a `rows` x `cols` board.
fn placements(rows: usize, cols: usize, size: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if c + size <= cols {
                v.push((0..size).map(|k| r * cols + c + k).collect());
            }
            if size > 1 && r + size <= rows {
                v.push((0..size).map(|k| (r + k) * cols + c).collect());
            }
        }
    }
    v
}

fn touches(a: &[usize], b: &[usize], cols: usize) -> bool {
    a.iter().any(|&x| b.iter().any(|&y| (x / cols).abs_diff(y / cols) <= 1 && (x % cols).abs_diff(y % cols) <= 1))
}

/// Brute force: every labeled sequence of placements (fleet largest first) valid in
/// order, weighted by the prior; the posterior of `grid`.
fn brute(rows: usize, cols: usize, grid: &[CellState], fleet: &[usize], prior: Prior) -> Vec<f64> {
    let mut sizes = fleet.to_vec();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut acc = vec![0.0; rows * cols];
    let mut total = 0.0;
    #[allow(clippy::too_many_arguments)]
    fn rec(
        rows: usize,
        cols: usize,
        sizes: &[usize],
        placed: &mut Vec<Vec<usize>>,
        w: f64,
        prior: Prior,
        grid: &[CellState],
        acc: &mut [f64],
        total: &mut f64,
    ) {
        let Some((&s, rest)) = sizes.split_first() else {
            let ship: Vec<usize> = placed.iter().flatten().copied().collect();
            let ok = grid.iter().enumerate().all(|(i, &g)| match g {
                CellState::Hit => ship.contains(&i),
                CellState::Miss | CellState::Eliminated => !ship.contains(&i),
                CellState::Unknown => true,
            });
            if ok {
                *total += w;
                for i in ship {
                    acc[i] += w;
                }
            }
            return;
        };
        let valid: Vec<Vec<usize>> =
            placements(rows, cols, s).into_iter().filter(|p| placed.iter().all(|q| !touches(p, q, cols))).collect();
        let n = valid.len() as f64;
        for p in valid {
            placed.push(p);
            let w2 = if prior == Prior::Generator { w / n } else { w };
            rec(rows, cols, rest, placed, w2, prior, grid, acc, total);
            placed.pop();
        }
    }
    rec(rows, cols, &sizes, &mut Vec::new(), 1.0, prior, grid, &mut acc, &mut total);
    acc.iter().map(|a| a / total).collect()
}

/// A random grid consistent with a random layout of `fleet`: some cells revealed.
fn random_grid(rows: usize, cols: usize, fleet: &[usize], rng: &mut Rng) -> Option<Vec<CellState>> {
    let mut placer = crate::game::placement::Placer::new(rows, cols);
    let ships = placer.place_fleet(fleet, rng).ok()?;
    let board = crate::game::board::Board::new(rows, cols, ships).ok()?;
    let reveal = rng.below(rows as u64 * cols as u64 / 2 + 1);
    let mut grid = vec![CellState::Unknown; rows * cols];
    for _ in 0..reveal {
        let i = rng.below((rows * cols) as u64) as usize;
        grid[i] = if board.is_ship(Position::from_index(i, cols)) { CellState::Hit } else { CellState::Miss };
    }
    Some(grid)
}

#[test]
fn exact_matches_brute_force_on_tiny_boards() {
    let mut rng = Rng::new(11);
    let cases: [(usize, usize, &[usize]); 4] =
        [(3, 4, &[2, 1]), (4, 4, &[3, 1, 1]), (4, 5, &[3, 2, 1]), (5, 4, &[2, 2, 1])];
    let mut checked = 0;
    for _ in 0..40 {
        for &(rows, cols, fleet) in &cases {
            let Some(grid) = random_grid(rows, cols, fleet, &mut rng) else { continue };
            for prior in [Prior::Generator, Prior::Uniform] {
                let want = brute(rows, cols, &grid, fleet, prior);
                let got = exact_posterior(rows, cols, &grid, fleet, prior, 1 << 30).unwrap().unwrap();
                for (i, (&w, &g)) in want.iter().zip(got.probabilities()).enumerate() {
                    assert!((w - g).abs() < 1e-9, "{prior:?} {rows}x{cols} {fleet:?} cell {i}: {g} != {w}\n{grid:?}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 200);
}

#[test]
fn sampling_agrees_with_brute_force() {
    let mut rng = Rng::new(12);
    let settings = Settings { samples: 20_000, exact_layouts: 0.0, ..Settings::default() };
    for _ in 0..6 {
        let (rows, cols, fleet) = (5, 5, &[3, 2, 1][..]);
        let Some(grid) = random_grid(rows, cols, fleet, &mut rng) else { continue };
        for prior in [Prior::Generator, Prior::Uniform] {
            let want = brute(rows, cols, &grid, fleet, prior);
            let mut est = Estimator::with_settings(3, Settings { prior, ..settings });
            let got = est.estimate(rows, cols, &grid, fleet).unwrap();
            assert_eq!(got.method, Method::Sampled);
            for (i, (&w, &g)) in want.iter().zip(got.probabilities()).enumerate() {
                assert!((w - g).abs() < 0.03, "{prior:?} cell {i}: {g} != {w}\n{grid:?}");
            }
        }
    }
}

mod more_tests {
    use super::*;
    use CellState::{Eliminated as E, Hit as H, Miss as M, Unknown as U};

    #[test]
    fn finished_ships_leave_the_fleet_and_fix_their_surroundings() {
        // 1x5: a closed 2-ship at the left; the 1-ship must be at column 4 (column 3
        // touches nothing but column 2 is next to the finished ship).
        let grid = [H, H, M, U, U];
        let p = exact_posterior(1, 5, &grid, &[2, 1], Prior::Generator, 1000).unwrap().unwrap();
        assert_eq!(p.method, Method::Exact);
        assert_eq!(p.layouts, 2.0);
        assert!((p.prob(Position::new(0, 3)) - 0.5).abs() < 1e-12);
        // A finished 3-ship in a fleet without one is a contradiction.
        assert!(matches!(
            exact_posterior(1, 5, &[H, H, H, M, U], &[2, 1], Prior::Uniform, 1000),
            Err(PosteriorError::Contradiction(_))
        ));
    }

    #[test]
    fn certainties_are_sound() {
        // 1x6, fleet [3]: a hit at column 1 with column 0 water: the ship is columns 1-3.
        let grid = [M, H, U, U, U, U];
        for method in [0.0, 1e9] {
            let settings = Settings { exact_layouts: method, samples: 50, ..Settings::default() };
            let p = Estimator::with_settings(1, settings).estimate(1, 6, &grid, &[3]).unwrap();
            assert!(p.is_certain_ship(Position::new(0, 2)) && p.is_certain_ship(Position::new(0, 3)));
            // Sampled certainties only use single placements (a free 3-ship could sit at
            // columns 3-5 if the fleet had one more), so only the exact count proves these.
            if p.method == Method::Exact {
                assert!(p.is_certain_water(Position::new(0, 4)) && p.is_certain_water(Position::new(0, 5)));
            }
            assert_eq!(p.prob(Position::new(0, 4)), 0.0);
            assert!(p.is_certain_water(Position::new(0, 0)) && !p.is_certain_water(Position::new(0, 2)));
            assert_eq!(p.best(), Some(Position::new(0, 2)));
        }
    }

    #[test]
    fn estimates_are_deterministic_per_seed() {
        let grid = vec![U; 100];
        let a = posterior(10, 10, &grid, &[5, 4, 3, 3, 2, 2, 1, 1], 4).unwrap();
        let b = posterior(10, 10, &grid, &[5, 4, 3, 3, 2, 2, 1, 1], 4).unwrap();
        assert_eq!(a.method, Method::Sampled);
        assert_eq!(a.probabilities(), b.probabilities());
        let total: f64 = a.probabilities().iter().sum();
        assert!((total - 21.0).abs() < 1e-6, "{total}");
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(matches!(posterior(2, 2, &[U; 3], &[1], 0), Err(PosteriorError::Grid { .. })));
        assert!(matches!(posterior(2, 2, &[U; 4], &[6], 0), Err(PosteriorError::Fleet(6))));
        assert!(matches!(posterior(2, 2, &[M, M, M, M], &[1], 0), Err(PosteriorError::Contradiction(_))));
        assert!(matches!(posterior(100, 100, &vec![U; 10_000], &[1], 0), Err(PosteriorError::TooLarge(_))));
        let _ = E;
    }
}

/// The general brute force: every labeled layout of `rules`' fleet (ships in placement
/// order, each among the placements valid after the ones before: the shapes the rules
/// allow, no overlap, no contact when the rules forbid it), weighted by the prior, kept
/// when it gives exactly the answers recorded (the grid, and the sunk answers replayed
/// hit by hit from the log), and the posterior of every cell.
mod general {
    use super::*;
    use crate::game::board::Board;
    use crate::game::fleet::Fleet;
    use crate::game::placement::Placer;
    use crate::game::rules::{Rules, Sunk};
    use crate::scan::record::{AnswerLog, ScanRecord};

    /// One ship of a layout: its kind and its cells.
    type Placed = (usize, Vec<usize>);

    fn all_placements(rows: usize, cols: usize, rules: &Rules, kind: usize) -> Vec<Placed> {
        let shape = rules.fleet().kinds()[kind].shape;
        let mut out = Vec::new();
        for v in rules.variants(shape) {
            for r in 0..rows {
                for c in 0..cols {
                    if r + v.rows() <= rows && c + v.cols() <= cols {
                        out.push((kind, v.cells().map(|(dr, dc)| (r + dr) * cols + c + dc).collect()));
                    }
                }
            }
        }
        out
    }

    fn clash(a: &[usize], b: &[usize], cols: usize, touch: bool) -> bool {
        if touch {
            a.iter().any(|x| b.contains(x))
        } else {
            touches(a, b, cols) || a.iter().any(|x| b.contains(x))
        }
    }

    /// True when `layout` answers exactly as recorded.
    fn agrees(layout: &[Placed], grid: &[CellState], log: Option<&AnswerLog>, rules: &Rules) -> bool {
        let owner = |i: usize| layout.iter().position(|(_, cells)| cells.contains(&i));
        let cells_ok = grid.iter().enumerate().all(|(i, &g)| match g {
            CellState::Hit => owner(i).is_some(),
            CellState::Miss | CellState::Eliminated => owner(i).is_none(),
            CellState::Unknown => true,
        });
        if !cells_ok {
            return false;
        }
        let Some(log) = log else { return true };
        let mut sunk = Vec::new();
        for (rank, &h) in log.hits.iter().enumerate() {
            let Some(k) = owner(h as usize) else { return false };
            let (kind, cells) = &layout[k];
            let rank_of = |c: usize| log.hits.iter().position(|&x| x as usize == c);
            if cells.iter().all(|&c| rank_of(c).is_some_and(|r| r <= rank)) {
                let named = (rules.sunk() == Sunk::Named).then_some(*kind);
                sunk.push((h, named));
            }
        }
        let told: Vec<(u32, Option<usize>)> = log.sunk.iter().map(|e| (e.cell, e.kind)).collect();
        sunk == told
    }

    fn brute_under(
        rows: usize,
        cols: usize,
        grid: &[CellState],
        log: Option<&AnswerLog>,
        rules: &Rules,
        prior: Prior,
    ) -> Vec<f64> {
        let kinds: Vec<usize> = rules.fleet().ship_kinds().collect();
        let mut acc = vec![0.0; rows * cols];
        let mut total = 0.0;
        #[allow(clippy::too_many_arguments)]
        fn rec(
            rows: usize,
            cols: usize,
            kinds: &[usize],
            placed: &mut Vec<Placed>,
            w: f64,
            prior: Prior,
            rules: &Rules,
            ev: (&[CellState], Option<&AnswerLog>),
            acc: &mut [f64],
            total: &mut f64,
        ) {
            let Some((&k, rest)) = kinds.split_first() else {
                if agrees(placed, ev.0, ev.1, rules) {
                    *total += w;
                    for (_, cells) in placed.iter() {
                        for &c in cells {
                            acc[c] += w;
                        }
                    }
                }
                return;
            };
            let valid: Vec<Placed> = all_placements(rows, cols, rules, k)
                .into_iter()
                .filter(|(_, p)| placed.iter().all(|(_, q)| !clash(p, q, cols, rules.touch())))
                .collect();
            let n = valid.len() as f64;
            for p in valid {
                placed.push(p);
                let w2 = if prior == Prior::Generator { w / n } else { w };
                rec(rows, cols, rest, placed, w2, prior, rules, ev, acc, total);
                placed.pop();
            }
        }
        rec(rows, cols, &kinds, &mut Vec::new(), 1.0, prior, rules, (grid, log), &mut acc, &mut total);
        // Every labeled layout of interchangeable ships is counted once per order; the
        // ratio is the same.
        acc.iter().map(|a| a / total).collect()
    }

    /// A random game in progress: a board of `rules` placed at random, then a random
    /// number of random probes answered by it, the record logging the answers.
    fn random_game(rows: usize, cols: usize, rules: &Rules, rng: &mut Rng) -> Option<(Vec<CellState>, ScanRecord)> {
        let mut ships = Vec::new();
        Placer::with_rules(rows, cols, rules).place(rules.fleet(), rng, &mut ships).ok()?;
        let board = Board::with_rules(rows, cols, ships, rules).ok()?;
        let mut record = ScanRecord::new(rows, cols);
        if rules.sunk() != Sunk::None {
            record.log_answers();
        }
        let probes = rng.below((rows * cols) as u64 * 2 / 3 + 1);
        for _ in 0..probes {
            let i = rng.below((rows * cols) as u64) as usize;
            if record.state_at(i) != CellState::Unknown {
                continue;
            }
            crate::scan::referee::probe(&board, i, &mut record);
        }
        Some((record.states(), record))
    }

    fn cases() -> Vec<(usize, usize, Rules)> {
        let classic = Rules::preset("classic").unwrap();
        let small = |r: &Rules, f: Fleet| r.clone().with_fleet(f);
        let named = Fleet::named(&[("long", 3), ("short", 2), ("other", 2)]);
        let drawn = Fleet::parse_file("ell\nX.\nXX\n\nbar\nXX\n").unwrap();
        // Ships whose cells are not connected, as the remote-service game's wings.
        let apart = Fleet::parse_file("vee\nX.X\n.X.\n\npair\nX.X\n").unwrap();
        vec![
            (3, 4, small(&classic, named.clone())),
            (4, 4, small(&classic.clone().with_sunk(Sunk::Yes), Fleet::of_sizes(&[3, 2, 1]))),
            (4, 4, small(&classic.clone().with_sunk(Sunk::None), Fleet::of_sizes(&[2, 2, 1]))),
            (4, 4, small(&Rules::preset("russian").unwrap(), Fleet::of_sizes(&[3, 1, 1]))),
            (4, 4, small(&classic.clone().with_touch(false), named)),
            (3, 4, small(&classic.clone().with_rotate(true), drawn.clone())),
            (4, 3, small(&Rules::preset("starwars").unwrap(), drawn.clone())),
            (4, 4, small(&Rules::preset("starwars").unwrap().with_touch(false), drawn)),
            (4, 4, small(&Rules::preset("starwars").unwrap(), apart.clone())),
            (4, 4, small(&classic.clone().with_sunk(Sunk::None).with_touch(false), apart)),
        ]
    }

    /// One game of the random games of `cases`, `rounds` times over, drawn from
    /// `seed`: its board size, rules, grid and record, the evidence, and the brute-force
    /// posterior under each prior.
    struct Case<'a> {
        rows: usize,
        cols: usize,
        rules: &'a Rules,
        grid: &'a [CellState],
        record: &'a ScanRecord,
        ev: Evidence<'a>,
        prior: Prior,
        want: Vec<f64>,
    }

    /// Calls `f` on every case (see [`Case`]); returns how many.
    fn for_random_games(seed: u64, rounds: usize, mut f: impl FnMut(Case<'_>)) -> usize {
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        for _ in 0..rounds {
            for (rows, cols, rules) in cases() {
                let Some((grid, record)) = random_game(rows, cols, &rules, &mut rng) else { continue };
                for prior in [Prior::Generator, Prior::Uniform] {
                    let want = brute_under(rows, cols, &grid, record.answers(), &rules, prior);
                    let ev = Evidence { known: &record, wrecks: None, rules: &rules };
                    f(Case { rows, cols, rules: &rules, grid: &grid, record: &record, ev, prior, want });
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn exact_matches_brute_force_under_other_rules() {
        let checked = for_random_games(17, 25, |c| {
            let (grid, record, rules) = (c.grid, c.record, c.rules);
            let got = exact_posterior_under(&c.ev, c.prior, 1 << 30)
                .unwrap_or_else(|e| {
                    panic!("{} {:?}: {e}\n{grid:?}\n{:?}", rules.describe(), rules.fleet(), record.answers())
                })
                .unwrap();
            for (i, (&w, &g)) in c.want.iter().zip(got.probabilities()).enumerate() {
                assert!(
                    (w - g).abs() < 1e-9,
                    "{} {:?} {}x{} cell {i}: {g} != {w}\n{grid:?}\n{:?}",
                    rules.describe(),
                    c.prior,
                    c.rows,
                    c.cols,
                    record.answers()
                );
            }
        });
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn sampling_matches_brute_force_under_other_rules() {
        let settings = Settings { samples: 20_000, exact_layouts: 0.0, ..Settings::default() };
        let checked = for_random_games(18, 3, |c| {
            let mut est = Estimator::with_settings(3, Settings { prior: c.prior, ..settings });
            let got = est.estimate_under(&c.ev).unwrap();
            for (i, (&w, &g)) in c.want.iter().zip(got.probabilities()).enumerate() {
                assert!(
                    (w - g).abs() < 0.03,
                    "{} {:?} cell {i}: {g} != {w}\n{:?}",
                    c.rules.describe(),
                    c.prior,
                    c.grid
                );
            }
        });
        assert!(checked > 30, "{checked}");
    }

    #[test]
    fn sampled_layouts_agree_with_the_answers_and_match_brute_force() {
        let checked = for_random_games(19, 3, |c| {
            let (rows, cols, rules) = (c.rows, c.cols, c.rules);
            let mut est = Estimator::with_settings(4, Settings { prior: c.prior, ..Settings::default() });
            let mut layouts = Vec::new();
            est.sample_layouts(&c.ev, 20_000, &mut layouts).unwrap();
            assert!(layouts.len() > 1_000, "{}: {} draws succeeded", rules.describe(), layouts.len());
            assert!((layouts.iter().map(|l| l.weight).sum::<f64>() - 1.0).abs() < 1e-9);
            let mut got = vec![0.0; rows * cols];
            for layout in &layouts {
                // A valid board whose ships are named as the answers named them.
                let board = Board::with_rules(rows, cols, layout.ships.clone(), rules).unwrap();
                let placed: Vec<Placed> = (0..board.ship_count())
                    .map(|k| {
                        let ship = board.ship(k).unwrap();
                        (board.kind_of(k).unwrap(), ship.cells().map(|p| p.index(cols)).collect())
                    })
                    .collect();
                assert!(agrees(&placed, c.grid, c.record.answers(), rules), "{}: {placed:?}", rules.describe());
                for (_, cells) in &placed {
                    for &cell in cells {
                        got[cell] += layout.weight;
                    }
                }
            }
            for (i, (&w, &g)) in c.want.iter().zip(&got).enumerate() {
                assert!((w - g).abs() < 0.03, "{} {:?} cell {i}: {g} != {w}\n{:?}", rules.describe(), c.prior, c.grid);
            }
        });
        assert!(checked > 30, "{checked}");
    }

    #[test]
    fn wrecks_are_left_out() {
        // 1x5 under russian rules: a wreck at column 0 (a sunk 1-ship, out of the fleet);
        // the one afloat 1-ship cannot touch it, so it is at column 2, 3 or 4.
        let rules = Rules::preset("russian").unwrap().with_fleet(Fleet::of_sizes(&[1]));
        let mut known = ScanRecord::new(1, 5);
        known.mark_eliminated(Position::new(0, 0));
        let mut wrecks = crate::game::cellset::CellSet::new(5);
        wrecks.insert(0);
        let ev = Evidence { known: &known, wrecks: Some(&wrecks), rules: &rules };
        let p = exact_posterior_under(&ev, Prior::Uniform, 1000).unwrap().unwrap();
        assert_eq!(p.probabilities(), &[0.0, 0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
    }
}

/// `exists` on `advise`'s grids: what `advise` asks before it says that no layout fits
/// (sampling can miss layouts that exist when the fleet nearly fills the bay).
mod exists_on_grids {
    use super::*;
    use crate::game::fleet::Fleet;

    fn found(text: &str, rules: &Rules, budget: usize) -> Found {
        let (known, wrecks) = crate::scan::state::parse(text.as_bytes()).unwrap();
        exists(&Evidence { known: &known, wrecks: Some(&wrecks), rules }, budget)
    }

    fn ones(n: usize) -> Rules {
        Rules::problem_g().with_fleet(Fleet::of_sizes(&vec![1; n]))
    }

    #[test]
    fn packed_fleets_are_found_and_impossible_ones_proved() {
        let empty = |k: usize| format!("{}\n", ".".repeat(k)).repeat(k);
        // 49 one-cell ships that never touch: 13x13 holds exactly one layout, 14x14 many.
        assert_eq!(found(&empty(13), &ones(49), 100_000), Found::Layout);
        assert_eq!(found(&empty(14), &ones(49), 100_000), Found::Layout);
        assert_eq!(found(&empty(64), &ones(1000), 100_000), Found::Layout);
        // 5x5 holds 9 of them at most.
        assert_eq!(found(&empty(5), &ones(9), 100_000), Found::Layout);
        assert_eq!(found(&empty(5), &ones(10), 100_000), Found::None);
        // A hit must be covered: a lone hit in a corner, and the fleet's only ship of 2.
        let rules = Rules::problem_g().with_fleet(Fleet::of_sizes(&[2]));
        assert_eq!(found("+X\nX.\n", &rules, 1000), Found::None);
        assert_eq!(found("+.\nX.\n", &rules, 1000), Found::Layout);
        // Wrecks keep the others away: a ship of 1 beside a wreck fits nowhere.
        let one = Rules::problem_g().with_fleet(Fleet::of_sizes(&[1]));
        assert_eq!(found("#.\n..\n", &one, 1000), Found::None);
        assert_eq!(found("#..\n...\n", &one, 1000), Found::Layout);
        // Too little work allowed: nothing is known.
        assert_eq!(found(&empty(14), &ones(50), 10), Found::GaveUp);
    }
}
