//! A small rank (0 to 255) per cell, and the first cell of the highest rank: how
//! parity finds its next hunting cell on boards of a hundred million cells.
//!
//! Ranks sit in one byte per cell; cells are grouped in blocks of [`BLOCK`], each
//! block's highest rank is kept, and a max-tree over the blocks finds the first block
//! holding the highest rank, then a scan of its cells the first cell. Memory is a
//! little over one byte per cell; changing a rank costs a walk up the tree (a rescan of
//! the block only when its highest cell went down).

use crate::limits::memory::{self, OutOfMemory};

/// Cells per block.
pub const BLOCK: usize = 64;

/// Ranks of cells `0..len`, with the first cell of the highest rank at hand.
#[derive(Debug, Clone, Default)]
pub struct Ranking {
    ranks: Vec<u8>,
    /// Leaves `leaves..leaves + blocks` hold each block's highest rank; node `k` holds
    /// the highest of nodes `2k` and `2k + 1`; node 1 is the root.
    tree: Vec<u8>,
    leaves: usize,
}

impl Ranking {
    /// Sets the ranks of cells `0..len` to `rank(i)`.
    /// Pre: none. Post: on `Ok`, `rank(i)` of every cell as given; on `Err` the ranking
    /// is empty.
    pub fn fill(&mut self, len: usize, rank: impl Fn(usize) -> u8) -> Result<(), OutOfMemory> {
        self.ranks.clear();
        self.tree.clear();
        let blocks = len.div_ceil(BLOCK).max(1);
        self.leaves = blocks.next_power_of_two();
        if let Err(e) =
            memory::reserve(&mut self.ranks, len).and_then(|()| memory::resize(&mut self.tree, 2 * self.leaves, 0))
        {
            *self = Ranking::default();
            return Err(e);
        }
        self.ranks.extend((0..len).map(rank));
        for (b, chunk) in self.ranks.chunks(BLOCK).enumerate() {
            if let Some(leaf) = self.tree.get_mut(self.leaves + b) {
                *leaf = chunk.iter().copied().max().unwrap_or(0);
            }
        }
        for node in (1..self.leaves).rev() {
            let high = self.node(2 * node).max(self.node(2 * node + 1));
            if let Some(v) = self.tree.get_mut(node) {
                *v = high;
            }
        }
        Ok(())
    }

    fn node(&self, k: usize) -> u8 {
        self.tree.get(k).copied().unwrap_or(0)
    }

    /// The rank of cell `i` (0 beyond the cells).
    /// Pre: none. Post: no change.
    pub fn rank(&self, i: usize) -> u8 {
        self.ranks.get(i).copied().unwrap_or(0)
    }

    /// Sets the rank of cell `i` (ignored beyond the cells).
    /// Pre: none. Post: `rank(i) == rank` and `best()` accounts for it.
    pub fn set(&mut self, i: usize, rank: u8) {
        let Some(r) = self.ranks.get_mut(i) else { return };
        let old = std::mem::replace(r, rank);
        if old == rank {
            return;
        }
        let block = i / BLOCK;
        let leaf = self.leaves + block;
        let high = self.node(leaf);
        let new_high = if rank >= high {
            rank
        } else if old < high {
            return; // the block's highest cell is another one, unchanged
        } else {
            // The highest cell went down: look at the whole block again.
            let start = block * BLOCK;
            self.ranks
                .get(start..(start + BLOCK).min(self.ranks.len()))
                .map_or(0, |c| c.iter().copied().max().unwrap_or(0))
        };
        let mut node = leaf;
        if let Some(v) = self.tree.get_mut(node) {
            *v = new_high;
        }
        while node > 1 {
            node /= 2;
            let high = self.node(2 * node).max(self.node(2 * node + 1));
            match self.tree.get_mut(node) {
                Some(v) if *v != high => *v = high,
                _ => break, // unchanged here: unchanged above
            }
        }
    }

    /// The highest rank and the first cell (lowest index) holding it, or `None` when
    /// every rank is 0.
    /// Pre: none. Post: no change.
    pub fn best(&self) -> Option<(u8, usize)> {
        let top = self.node(1);
        if top == 0 {
            return None;
        }
        let mut node = 1;
        while node < self.leaves {
            node = if self.node(2 * node) == top { 2 * node } else { 2 * node + 1 };
        }
        let start = (node - self.leaves) * BLOCK;
        let cells = self.ranks.get(start..(start + BLOCK).min(self.ranks.len()))?;
        cells.iter().position(|&r| r == top).map(|k| (top, start + k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;

    /// The plain reference: scan every cell.
    fn plain(ranks: &[u8]) -> Option<(u8, usize)> {
        let top = ranks.iter().copied().max().filter(|&t| t > 0)?;
        ranks.iter().position(|&r| r == top).map(|i| (top, i))
    }

    #[test]
    fn agrees_with_a_scan_of_every_cell() {
        let mut rng = Rng::new(5);
        for len in [1, 2, 63, 64, 65, 130, 1000, 4097] {
            let mut plain_ranks: Vec<u8> = (0..len).map(|_| rng.below(4) as u8).collect();
            let mut r = Ranking::default();
            r.fill(len, |i| plain_ranks[i]).unwrap();
            assert_eq!(r.best(), plain(&plain_ranks), "len {len} at start");
            for step in 0..3 * len {
                let i = rng.below(len as u64) as usize;
                // Mostly downward changes, as in a game, with some rises.
                let v = if rng.below(5) == 0 { rng.below(200) as u8 } else { plain_ranks[i] / 2 };
                plain_ranks[i] = v;
                r.set(i, v);
                assert_eq!(r.rank(i), v);
                assert_eq!(r.best(), plain(&plain_ranks), "len {len} step {step}");
            }
            for i in 0..len {
                r.set(i, 0);
            }
            assert_eq!(r.best(), None);
        }
    }

    #[test]
    fn ignores_cells_beyond_and_refuses_the_impossible() {
        let mut r = Ranking::default();
        r.fill(10, |i| i as u8).unwrap();
        r.set(10, 200);
        assert_eq!((r.best(), r.rank(10)), (Some((9, 9)), 0));
        assert!(r.fill(usize::MAX / 2, |_| 0).is_err());
        assert_eq!(r.best(), None);
    }
}
