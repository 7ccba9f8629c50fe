//! random: probe cells in a seeded random order (a Fisher-Yates shuffle drawn lazily, one
//! cell per probe).

use super::ScanStrategy;
use crate::observer::Source;
use crate::position::Position;
use crate::rng::Rng;
use crate::scan::{Scan, ScanError};

/// Scans cells in a random order fixed by the seed.
#[derive(Debug, Clone)]
pub struct Random {
    rng: Rng,
    order: Vec<u32>,
}

impl Random {
    /// A random scanner whose order is fixed by `seed`.
    /// Pre: none. Post: two scanners with the same seed probe the same cells.
    pub fn new(seed: u64) -> Random {
        Random { rng: Rng::new(seed), order: Vec::new() }
    }
}

impl ScanStrategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let (cols, n) = (scan.cols(), scan.rows() * scan.cols());
        self.order.clear();
        self.order.extend(0..n as u32);
        let mut k = 0;
        while !scan.is_done() {
            if k >= n {
                return Err(scan.exhausted());
            }
            // Draw the k-th cell of the shuffle among the cells not drawn yet.
            let j = k + self.rng.below((n - k) as u64) as usize;
            self.order.swap(k, j);
            let cell = self.order.get(k).copied().unwrap_or(0) as usize;
            scan.probe(Position::from_index(cell, cols), Source::Shuffle)?;
            scan.end_step();
            k += 1;
        }
        Ok(())
    }
}
