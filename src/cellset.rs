//! Sets of cell indices stored as bits: a flat one, and a layered one that finds its
//! smallest member without scanning the board.

/// A set of cell indices `0..len`, one bit per cell.
#[derive(Debug, Clone, Default)]
pub struct CellSet {
    words: Vec<u64>,
    len: usize,
}

impl CellSet {
    /// An empty set able to hold indices `0..len`.
    /// Pre: none. Post: `contains(i)` is false for every `i`.
    pub fn new(len: usize) -> CellSet {
        CellSet { words: vec![0; len.div_ceil(64)], len }
    }

    /// The number of indices the set can hold.
    /// Pre: none. Post: the `len` given to `new` or `reset`.
    pub fn capacity(&self) -> usize {
        self.len
    }

    /// Empties the set and resizes it to hold `0..len`, reusing its memory.
    /// Pre: none. Post: empty, capacity `len`.
    pub fn reset(&mut self, len: usize) {
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
        self.len = len;
    }

    /// True when `i` is in the set; false for indices beyond the capacity.
    /// Pre: none. Post: no change.
    pub fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `i`; indices beyond the capacity are ignored.
    /// Pre: none. Post: `contains(i)` if `i < capacity()`.
    pub fn insert(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// Removes `i`.
    /// Pre: none. Post: `!contains(i)`.
    pub fn remove(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }

    /// Number of members.
    /// Pre: none. Post: no change.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A set of indices `0..len` that also answers "which is the smallest member?" in
/// O(log64 len): a bit per index, plus summary layers where bit `j` of layer `k+1` is
/// set exactly when word `j` of layer `k` is non-zero.
#[derive(Debug, Clone, Default)]
pub struct LayeredSet {
    /// `layers[0]` holds one bit per index; the last layer is a single word.
    layers: Vec<Vec<u64>>,
}

impl LayeredSet {
    /// An empty set able to hold indices `0..len`.
    /// Pre: none. Post: `first()` is `None`.
    pub fn new(len: usize) -> LayeredSet {
        let mut set = LayeredSet::default();
        set.reset(len);
        set
    }

    /// Empties the set and resizes it for `0..len`, reusing its memory.
    /// Pre: none. Post: empty.
    pub fn reset(&mut self, len: usize) {
        let mut sizes = Vec::new();
        let mut n = len.max(1);
        loop {
            let words = n.div_ceil(64);
            sizes.push(words);
            if words == 1 {
                break;
            }
            n = words;
        }
        self.layers.resize_with(sizes.len(), Vec::new);
        for (layer, words) in self.layers.iter_mut().zip(sizes) {
            layer.clear();
            layer.resize(words, 0);
        }
    }

    /// True when `i` is a member.
    /// Pre: none. Post: no change.
    pub fn contains(&self, i: usize) -> bool {
        self.layers.first().and_then(|l| l.get(i / 64)).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `i` (ignored beyond the capacity).
    /// Pre: none. Post: `contains(i)` when `i` is within capacity.
    pub fn insert(&mut self, mut i: usize) {
        for layer in &mut self.layers {
            let Some(w) = layer.get_mut(i / 64) else {
                return;
            };
            let was_empty = *w == 0;
            *w |= 1 << (i % 64);
            if !was_empty {
                return; // the layers above already know this word is non-empty
            }
            i /= 64;
        }
    }

    /// Removes `i`.
    /// Pre: none. Post: `!contains(i)`.
    pub fn remove(&mut self, mut i: usize) {
        for layer in &mut self.layers {
            let Some(w) = layer.get_mut(i / 64) else {
                return;
            };
            *w &= !(1 << (i % 64));
            if *w != 0 {
                return; // the word still has members: the summary bit stays
            }
            i /= 64;
        }
    }

    /// The smallest member, found by descending from the top summary word.
    /// Pre: none. Post: `None` exactly when the set is empty.
    pub fn first(&self) -> Option<usize> {
        let mut index = 0usize;
        for layer in self.layers.iter().rev() {
            let w = *layer.get(index)?;
            if w == 0 {
                return None;
            }
            index = index * 64 + w.trailing_zeros() as usize;
        }
        Some(index)
    }

    /// True when the set has no member.
    /// Pre: none. Post: no change.
    pub fn is_empty(&self) -> bool {
        self.layers.last().is_none_or(|top| top.iter().all(|&w| w == 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use std::collections::BTreeSet;

    #[test]
    fn cellset_basics() {
        let mut s = CellSet::new(130);
        assert_eq!(s.capacity(), 130);
        s.insert(0);
        s.insert(129);
        s.insert(500); // ignored
        assert!(s.contains(0) && s.contains(129) && !s.contains(500) && !s.contains(64));
        assert_eq!(s.count(), 2);
        s.remove(0);
        assert!(!s.contains(0));
        s.reset(10);
        assert_eq!(s.count(), 0);
    }

    #[test]
    fn layered_set_matches_btreeset() {
        let mut rng = Rng::new(7);
        for len in [1usize, 63, 64, 65, 4096, 4097, 300_000] {
            let mut fast = LayeredSet::new(len);
            let mut plain = BTreeSet::new();
            assert!(fast.is_empty());
            for _ in 0..3000 {
                let i = rng.below(len as u64) as usize;
                if rng.below(3) == 0 {
                    fast.remove(i);
                    plain.remove(&i);
                } else {
                    fast.insert(i);
                    plain.insert(i);
                }
                assert_eq!(fast.first(), plain.first().copied());
                assert_eq!(fast.contains(i), plain.contains(&i));
                assert_eq!(fast.is_empty(), plain.is_empty());
            }
            fast.reset(len);
            assert_eq!(fast.first(), None);
        }
    }
}
