//! A small rank (0 to 255) per cell, and the first cell of the highest rank: how
//! parity finds its next hunting cell on boards of a hundred million cells.
//!
//! Ranks sit in one byte per cell. Cells are grouped in blocks of [`BLOCK`] and each
//! block's highest rank is kept in the level above, whose entries are grouped in
//! blocks again, up to a level of at most one block (a tree with [`BLOCK`] children a
//! node: 4 levels over 16 million cells). Finding the first cell of the highest rank
//! reads one block a level, top down; changing a rank walks up while the block's
//! highest changes (reading the block again only when its highest cell went down).
//! Each step reads 64 bytes that sit side by side, so a walk costs a few cache lines
//! however large the board. Memory is a little over one byte per cell.

use crate::limits::memory::{self, OutOfMemory};

/// Entries per block (children per node).
pub const BLOCK: usize = 64;

/// Ranks of cells `0..len`, with the first cell of the highest rank at hand.
#[derive(Debug, Clone, Default)]
pub struct Ranking {
    /// `levels[0]` holds the cells' ranks; `levels[k + 1][j]` the highest of block `j`
    /// of `levels[k]`; the last level is one block. Every level is padded with zeros
    /// to whole blocks.
    levels: Vec<Vec<u8>>,
    /// The number of cells.
    len: usize,
}

/// One block of entries.
type Block = [u8; BLOCK];

/// The highest byte of `block`.
fn highest(block: &Block) -> u8 {
    block.iter().copied().fold(0, u8::max)
}

/// The index of the first byte of `block` equal to `v`, eight bytes at a time: in
/// `x = word ^ (v in every byte)` the bytes equal to `v` are 0, and the lowest high bit
/// of `(x - 0x01..01) & !x & 0x80..80` marks the first zero byte exactly (the borrow
/// can only mark bytes above a zero byte).
fn first_equal(block: &Block, v: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let pattern = ONES * u64::from(v);
    for (w, bytes) in block.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(bytes.try_into().ok()?) ^ pattern;
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        if zero != 0 {
            return Some(w * 8 + zero.trailing_zeros() as usize / 8);
        }
    }
    None
}

/// Block `j` of `level`, if there is one.
fn block(level: &[u8], j: usize) -> Option<&Block> {
    let start = j.checked_mul(BLOCK)?;
    level.get(start..start.checked_add(BLOCK)?)?.try_into().ok()
}

impl Ranking {
    /// Sets the ranks of cells `0..len` to `rank(i)`, called for `i = 0, 1, ...` in turn.
    /// Pre: none. Post: on `Ok`, `rank(i)` of every cell as given; on `Err` the ranking
    /// is empty.
    pub fn fill(&mut self, len: usize, rank: impl FnMut(usize) -> u8) -> Result<(), OutOfMemory> {
        let mut levels = std::mem::take(&mut self.levels);
        self.len = 0;
        levels.truncate(1);
        let mut cells = levels.pop().unwrap_or_default();
        cells.clear();
        let padded = len.div_ceil(BLOCK).max(1).saturating_mul(BLOCK);
        memory::reserve(&mut cells, padded)?;
        cells.extend((0..len).map(rank));
        cells.resize(padded, 0);
        levels.push(cells);
        while let Some(below) = levels.last().filter(|l| l.len() > BLOCK) {
            let mut above = Vec::new();
            let blocks = below.len() / BLOCK;
            memory::reserve(&mut above, blocks.div_ceil(BLOCK) * BLOCK)?;
            above.extend(below.chunks_exact(BLOCK).map(|b| b.iter().copied().fold(0, u8::max)));
            above.resize(blocks.div_ceil(BLOCK) * BLOCK, 0);
            levels.push(above);
        }
        self.levels = levels;
        self.len = len;
        Ok(())
    }

    /// The rank of cell `i` (0 beyond the cells).
    /// Pre: none. Post: no change.
    pub fn rank(&self, i: usize) -> u8 {
        self.levels.first().and_then(|cells| cells.get(i)).copied().unwrap_or(0)
    }

    /// Sets the rank of cell `i` (ignored beyond the cells).
    /// Pre: none. Post: `rank(i) == rank` and `best()` accounts for it.
    pub fn set(&mut self, i: usize, rank: u8) {
        if i >= self.len {
            return;
        }
        let Some(r) = self.levels.first_mut().and_then(|cells| cells.get_mut(i)) else { return };
        let (mut old, mut new) = (std::mem::replace(r, rank), rank);
        let mut i = i;
        for k in 1..self.levels.len() {
            if old == new {
                return;
            }
            let j = i / BLOCK;
            let Some(&high) = self.levels.get(k).and_then(|level| level.get(j)) else { return };
            let new_high = if new >= high {
                new
            } else if old < high {
                return; // the block's highest entry is another one, unchanged
            } else {
                // The highest entry went down: look at the whole block again.
                self.levels.get(k - 1).and_then(|below| block(below, j)).map_or(0, highest)
            };
            if let Some(v) = self.levels.get_mut(k).and_then(|level| level.get_mut(j)) {
                *v = new_high;
            }
            (old, new, i) = (high, new_high, j);
        }
    }

    /// The highest rank and the first cell (lowest index) holding it, or `None` when
    /// every rank is 0.
    /// Pre: none. Post: no change.
    pub fn best(&self) -> Option<(u8, usize)> {
        let top = highest(block(self.levels.last()?, 0)?);
        if top == 0 {
            return None;
        }
        // Top down: the first entry of the highest rank in block `j` of each level.
        let mut j = 0;
        for level in self.levels.iter().rev() {
            j = j * BLOCK + first_equal(block(level, j)?, top)?;
        }
        Some((top, j))
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
        for len in [0, 1, 2, 63, 64, 65, 130, 1000, 4095, 4096, 4097, 2 * 4096 + 65, 64 * 4096 + 1] {
            let mut plain_ranks: Vec<u8> = (0..len).map(|_| rng.below(4) as u8).collect();
            let mut r = Ranking::default();
            r.fill(len, |i| plain_ranks[i]).unwrap();
            assert_eq!(r.best(), plain(&plain_ranks), "len {len} at start");
            for step in 0..(3 * len).min(3000) {
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
    fn first_equal_agrees_with_position() {
        let mut rng = Rng::new(9);
        const SOME: [u8; 6] = [0, 1, 127, 128, 254, 255];
        for _ in 0..3000 {
            // Drawn from the first few of SOME only, so that some are missing.
            let kinds = 1 + rng.below(6);
            let bytes: Block = std::array::from_fn(|_| SOME[rng.below(kinds) as usize]);
            for v in SOME {
                assert_eq!(first_equal(&bytes, v), bytes.iter().position(|&b| b == v), "{bytes:?} {v}");
            }
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
