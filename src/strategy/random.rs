//! random: probe cells in a seeded random order.
//!
//! Boards of up to [`SHUFFLE_LIMIT`] cells draw the order by a Fisher-Yates shuffle done
//! lazily, one cell per probe. Larger boards use a pseudo-random permutation of the cell
//! indices computed on the fly (a four-round Feistel network over the smallest even power
//! of two covering the board, with cycle walking back into `0..cells`), so no shuffled
//! array of the whole board is kept: memory stays flat and large boards cache-friendly.

use super::ScanStrategy;
use crate::game::position::Position;
use crate::game::rng::Rng;
use crate::scan::observer::Source;
use crate::scan::{Scan, ScanError};

/// Boards up to this many cells shuffle an array; larger ones use [`Permutation`].
/// (Each side of such a board is below 2^16, as the packed cells need.)
pub const SHUFFLE_LIMIT: usize = (1 << 16) - 1;

/// Scans cells in a random order fixed by the seed.
#[derive(Debug, Clone)]
pub struct Random {
    seed: u64,
    /// The shuffled prefix and the cells not drawn yet (small boards), each packed as
    /// `row << 16 | col` so no division is needed to find the cell.
    order: Vec<u32>,
    /// Every cell in row-major order, packed as in `order`: the start of every run,
    /// kept from run to run while the board size stays the same.
    cells: Vec<u32>,
    /// The board width `cells` was built for.
    cells_cols: usize,
}

impl Random {
    /// A random scanner whose order is fixed by `seed`.
    /// Pre: none. Post: two scanners with the same seed probe the same cells.
    pub fn new(seed: u64) -> Random {
        Random { seed, order: Vec::new(), cells: Vec::new(), cells_cols: 0 }
    }
}

/// A keyed bijection of `0..n`.
#[derive(Debug, Clone)]
pub struct Permutation {
    n: u64,
    half_bits: u32,
    keys: [u64; 4],
}

impl Permutation {
    /// A permutation of `0..n` chosen by `rng`.
    /// Pre: none. Post: `apply` maps `0..n` onto `0..n` one to one.
    pub fn new(n: u64, rng: &mut Rng) -> Permutation {
        let bits = 64 - n.saturating_sub(1).leading_zeros();
        let half_bits = bits.div_ceil(2).max(1);
        Permutation { n, half_bits, keys: [rng.next_u64(), rng.next_u64(), rng.next_u64(), rng.next_u64()] }
    }

    /// One pass of the Feistel network over `0..4^half_bits`.
    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (x >> self.half_bits, x & mask);
        for key in self.keys {
            let mut h = (right ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
            (left, right) = (right, left ^ (h & mask));
        }
        (left << self.half_bits) | right
    }

    /// The image of `k`.
    /// Pre: `k < n`. Post: `result < n`; distinct `k` give distinct results.
    pub fn apply(&self, k: u64) -> u64 {
        // Cycle walking: the network permutes a larger domain; following it until it
        // lands inside 0..n keeps a bijection on 0..n (the domain is < 4n, so few steps).
        let mut x = self.feistel(k);
        while x >= self.n {
            x = self.feistel(x);
        }
        x
    }
}

impl ScanStrategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let (cols, n) = (scan.cols(), scan.rows() * scan.cols());
        let mut rng = Rng::new(self.seed);
        let large = (n > SHUFFLE_LIMIT).then(|| Permutation::new(n as u64, &mut rng));
        if large.is_none() {
            if self.cells.len() != n || self.cells_cols != cols {
                let rows = scan.rows() as u32;
                self.cells.clear();
                self.cells.extend((0..rows).flat_map(|r| (0..cols as u32).map(move |c| (r << 16) | c)));
                self.cells_cols = cols;
            }
            self.order.clone_from(&self.cells);
        }
        let mut k = 0;
        while !scan.is_done() {
            if k >= n {
                return Err(scan.exhausted());
            }
            let cell = match &large {
                Some(p) => Position::from_index(p.apply(k as u64) as usize, cols),
                None => {
                    // Fisher-Yates, one step per probe: swap a random undrawn cell into k.
                    let j = k + rng.below((n - k) as u64) as usize;
                    self.order.swap(k, j);
                    let packed = self.order.get(k).copied().unwrap_or(0);
                    Position::new((packed >> 16) as usize, (packed & 0xffff) as usize)
                }
            };
            scan.probe(cell, Source::Shuffle)?;
            scan.end_step();
            k += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::referee::Referee;

    #[test]
    fn permutation_is_a_bijection() {
        let mut rng = Rng::new(1);
        for n in [1u64, 2, 3, 5, 64, 100, 1000, 4097] {
            let p = Permutation::new(n, &mut rng);
            let mut seen = vec![false; n as usize];
            for k in 0..n {
                let v = p.apply(k) as usize;
                assert!(!seen[v], "n={n}: {v} twice");
                seen[v] = true;
            }
        }
    }

    #[test]
    fn finds_the_ship_with_either_order() {
        use crate::game::board::Board;
        use crate::scan::record::CellState;
        for (rows, cols) in [(7, 9), (300, 300)] {
            // Small boards shuffle an array, large ones use the Feistel permutation; a
            // repeated cell would be refused by the scan, so Ok means no repeats.
            let board = Board::new(
                rows,
                cols,
                vec![crate::game::ship::Ship::new(Position::new(0, 0), 1, crate::game::position::Orientation::East)],
            )
            .unwrap();
            let record = crate::strategy::solve(&mut Random::new(3), &mut Referee::new(&board)).unwrap();
            assert!(record.scans() >= 1);
            assert_eq!(record.state(Position::new(0, 0)), CellState::Hit);
        }
        const { assert!(300 * 300 > SHUFFLE_LIMIT) };
    }

    #[test]
    fn a_reused_scanner_scans_like_a_fresh_one() {
        use crate::game::placement::random_board;
        let mut rng = Rng::new(4);
        let mut reused = Random::new(0);
        for (rows, cols) in [(7, 9), (9, 7), (7, 9), (3, 3), (10, 10), (10, 10)] {
            let board = random_board(rows, cols, &mut rng).unwrap();
            reused.reseed(rows as u64);
            let a = crate::strategy::solve(&mut reused, &mut Referee::new(&board)).unwrap();
            let b = crate::strategy::solve(&mut Random::new(rows as u64), &mut Referee::new(&board)).unwrap();
            assert_eq!(a.render_output(None), b.render_output(None));
        }
    }

    #[test]
    fn different_seeds_give_different_orders() {
        let a = Permutation::new(100, &mut Rng::new(1));
        let b = Permutation::new(100, &mut Rng::new(2));
        assert!((0..100).any(|k| a.apply(k) != b.apply(k)));
    }
}
