//! Sets of cell indices stored as bits: a flat one, and a layered one that finds its
//! smallest member without scanning the board.

use crate::limits::memory::{self, OutOfMemory};

/// A set of cell indices `0..len`, one bit per cell (bit `i % 64` of word `i / 64`;
/// the last word's bits beyond `len` are always clear). The one cell-set type for the
/// general case: fast paths that keep raw masks (density's `small` bays of at most 128
/// cells, the posterior's placement table) say so where they do.
#[derive(Debug, Default)]
pub struct CellSet {
    words: Vec<u64>,
    len: usize,
}

impl Clone for CellSet {
    fn clone(&self) -> CellSet {
        CellSet { words: self.words.clone(), len: self.len }
    }

    /// Copies `source` into this set's memory (a rollout copies a state thousands of
    /// times: no allocation once the words fit).
    fn clone_from(&mut self, source: &CellSet) {
        self.words.clone_from(&source.words);
        self.len = source.len;
    }
}

impl CellSet {
    /// An empty set able to hold indices `0..len`.
    /// Pre: none. Post: `contains(i)` is false for every `i`.
    pub fn new(len: usize) -> CellSet {
        CellSet { words: vec![0; len.div_ceil(64)], len }
    }

    /// As [`CellSet::new`], or the error when the memory cannot be had.
    /// Pre: none. Post: `Ok` is empty, capacity `len`.
    pub fn try_new(len: usize) -> Result<CellSet, OutOfMemory> {
        Ok(CellSet { words: memory::filled(len.div_ceil(64), 0)?, len })
    }

    /// As [`CellSet::reset`], or the error when the memory cannot be had.
    /// Pre: none. Post: on `Ok`, empty with capacity `len`; on `Err`, unchanged.
    pub fn try_reset(&mut self, len: usize) -> Result<(), OutOfMemory> {
        let words = len.div_ceil(64);
        let more = words.saturating_sub(self.words.len());
        memory::reserve(&mut self.words, more)?;
        self.reset(len);
        Ok(())
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
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `i`; indices beyond the capacity are ignored.
    /// Pre: none. Post: `contains(i)` if `i < capacity()`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        if i >= self.len {
            return; // the last word's spare bits stay clear
        }
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

    /// True when some index in `start..end` is a member (word at a time).
    /// Pre: none. Post: no change; indices beyond the capacity count as absent.
    pub fn any_in(&self, start: usize, end: usize) -> bool {
        if let Some((word, mask)) = one_word(start, end.min(self.len)) {
            return self.words.get(word).is_some_and(|w| w & mask != 0);
        }
        spans(start, end.min(self.len)).any(|(word, mask)| self.words.get(word).is_some_and(|w| w & mask != 0))
    }

    /// Adds every index in `start..end` (word at a time).
    /// Pre: none. Post: each index below the capacity is a member.
    pub fn insert_range(&mut self, start: usize, end: usize) {
        if let Some((word, mask)) = one_word(start, end.min(self.len)) {
            if let Some(w) = self.words.get_mut(word) {
                *w |= mask;
            }
            return;
        }
        for (word, mask) in spans(start, end.min(self.len)) {
            if let Some(w) = self.words.get_mut(word) {
                *w |= mask;
            }
        }
    }

    /// The smallest member at or after `from`, a word at a time.
    /// Pre: none. Post: `None` when no member lies in `from..capacity()`.
    pub fn next_member(&self, from: usize) -> Option<usize> {
        let mut word = from / 64;
        let mut bits = self.words.get(word)? & (u64::MAX << (from % 64));
        while bits == 0 {
            word += 1;
            bits = *self.words.get(word)?;
        }
        let i = word * 64 + bits.trailing_zeros() as usize;
        (i < self.len).then_some(i)
    }

    /// Number of members.
    /// Pre: none. Post: no change.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when the set has no member.
    /// Pre: none. Post: `count() == 0`.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The set of the indices `0..len` for which `member` is true.
    /// Pre: none. Post: capacity `len`; `contains(i) == member(i)` for `i < len`.
    pub fn from_fn(len: usize, mut member: impl FnMut(usize) -> bool) -> CellSet {
        let mut words = vec![0u64; len.div_ceil(64)];
        // A word at a time: no bounds check per index.
        for (k, w) in words.iter_mut().enumerate() {
            let base = k * 64;
            for b in 0..(len - base).min(64) {
                *w |= u64::from(member(base + b)) << b;
            }
        }
        CellSet { words, len }
    }

    /// The words of the set (bit `i % 64` of word `i / 64`), for a fast path that ORs
    /// in masks laid out the same way (the posterior's placement table,
    /// `Table::or_into` of the posterior's table module).
    /// Pre: the caller sets no bit at or beyond `capacity()`. Post: the set's own words.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// The members in increasing order, a word at a time.
    /// Pre: none. Post: each member once, all below the capacity.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut bits = w;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = k * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    }

    /// Adds every member of `other` (the union); members beyond this set's capacity
    /// are left out.
    /// Pre: none. Post: `contains(i)` for every `i < capacity()` in `other`.
    pub fn union_with(&mut self, other: &CellSet) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
        self.clear_tail();
    }

    /// Keeps only the members also in `other` (the intersection).
    /// Pre: none. Post: `contains(i)` only where both contained `i`.
    pub fn intersect_with(&mut self, other: &CellSet) {
        for (k, w) in self.words.iter_mut().enumerate() {
            *w &= other.words.get(k).copied().unwrap_or(0);
        }
    }

    /// Removes every member of `other` (the difference).
    /// Pre: none. Post: `contains(i)` only where this set contained `i` and `other` did not.
    pub fn difference_with(&mut self, other: &CellSet) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= !o;
        }
    }

    /// Adds `i` when `member`, removes it otherwise: the set as a `Vec<bool>` is written.
    /// Pre: none. Post: `contains(i) == member` for `i < capacity()`; beyond, no change.
    #[inline]
    pub fn set(&mut self, i: usize, member: bool) {
        if member {
            self.insert(i);
        } else {
            self.remove(i);
        }
    }

    /// Adds every index `indices` gives; those beyond the capacity are ignored.
    /// Pre: none. Post: `contains(i)` for each given `i < capacity()`.
    pub fn insert_all(&mut self, indices: impl IntoIterator<Item = usize>) {
        for i in indices {
            self.insert(i);
        }
    }

    /// Clears the bits of the last word beyond the capacity.
    fn clear_tail(&mut self) {
        if !self.len.is_multiple_of(64) {
            if let Some(w) = self.words.last_mut() {
                *w &= (1u64 << (self.len % 64)) - 1;
            }
        }
    }
}

/// `a | b`: the union, with `a`'s capacity (members of `b` beyond it are left out).
impl std::ops::BitOr<&CellSet> for &CellSet {
    type Output = CellSet;
    /// Pre: none. Post: as [`CellSet::union_with`] on a copy of `self`.
    fn bitor(self, other: &CellSet) -> CellSet {
        let mut out = self.clone();
        out.union_with(other);
        out
    }
}

/// `a & b`: the intersection, with `a`'s capacity.
impl std::ops::BitAnd<&CellSet> for &CellSet {
    type Output = CellSet;
    /// Pre: none. Post: as [`CellSet::intersect_with`] on a copy of `self`.
    fn bitand(self, other: &CellSet) -> CellSet {
        let mut out = self.clone();
        out.intersect_with(other);
        out
    }
}

/// `a - b`: the members of `a` not in `b`, with `a`'s capacity.
impl std::ops::Sub<&CellSet> for &CellSet {
    type Output = CellSet;
    /// Pre: none. Post: as [`CellSet::difference_with`] on a copy of `self`.
    fn sub(self, other: &CellSet) -> CellSet {
        let mut out = self.clone();
        out.difference_with(other);
        out
    }
}

/// `a |= b`: [`CellSet::union_with`].
impl std::ops::BitOrAssign<&CellSet> for CellSet {
    /// Pre: none. Post: as [`CellSet::union_with`].
    fn bitor_assign(&mut self, other: &CellSet) {
        self.union_with(other);
    }
}

/// `a &= b`: [`CellSet::intersect_with`].
impl std::ops::BitAndAssign<&CellSet> for CellSet {
    /// Pre: none. Post: as [`CellSet::intersect_with`].
    fn bitand_assign(&mut self, other: &CellSet) {
        self.intersect_with(other);
    }
}

/// `a -= b`: [`CellSet::difference_with`].
impl std::ops::SubAssign<&CellSet> for CellSet {
    /// Pre: none. Post: as [`CellSet::difference_with`].
    fn sub_assign(&mut self, other: &CellSet) {
        self.difference_with(other);
    }
}

/// Two sets are equal when they have the same capacity and the same members.
impl PartialEq for CellSet {
    fn eq(&self, other: &CellSet) -> bool {
        self.len == other.len && self.words == other.words
    }
}

impl Eq for CellSet {}

/// The word and mask of `start..end` when the range is non-empty and lies within one
/// word: the common case of ships and their surroundings on small boards, answered
/// without the loop of [`spans`] (which gives the same single pair).
#[inline]
fn one_word(start: usize, end: usize) -> Option<(usize, u64)> {
    if start >= end || start / 64 != (end - 1) / 64 {
        return None;
    }
    let span = end - start; // 1..=64
    let mask = if span == 64 { u64::MAX } else { ((1u64 << span) - 1) << (start % 64) };
    Some((start / 64, mask))
}

/// The words covering indices `start..end`, each with the mask of its bits in the range.
fn spans(start: usize, end: usize) -> impl Iterator<Item = (usize, u64)> {
    let mut i = start;
    std::iter::from_fn(move || {
        if i >= end {
            return None;
        }
        let (word, bit) = (i / 64, i % 64);
        let span = (64 - bit).min(end - i);
        let mask = if span == 64 { u64::MAX } else { ((1u64 << span) - 1) << bit };
        i += span;
        Some((word, mask))
    })
}

/// `count` sets of indices `0..len`, each able to answer "which is your smallest
/// member?" in O(log64 len) without scanning: a bit per index, plus summary layers where
/// bit `j` of a layer is set exactly when word `j` of the layer below is non-zero.
///
/// The sets are interleaved: word `w` of every set sits side by side (`w * count + set`),
/// so moving an index from one set to another touches one small region of memory. The
/// likelihood matrix keeps one set per score this way.
#[derive(Debug, Clone, Default)]
pub struct LayeredSets {
    count: usize,
    /// `layers[0]` holds one bit per index and set; the last layer has one word per set.
    layers: Vec<Vec<u64>>,
}

impl LayeredSets {
    /// `count` empty sets able to hold indices `0..len`.
    /// Pre: none. Post: `first(s)` is `None` for every set.
    pub fn new(len: usize, count: usize) -> LayeredSets {
        let mut sets = LayeredSets::default();
        sets.reset(len, count);
        sets
    }

    /// Empties every set and resizes them, reusing memory.
    /// Pre: none. Post: all `count` sets empty, capacity `len`.
    pub fn reset(&mut self, len: usize, count: usize) {
        self.count = count.max(1);
        let sizes = Self::layer_words(len);
        self.layers.resize_with(sizes.len(), Vec::new);
        for (layer, words) in self.layers.iter_mut().zip(sizes) {
            layer.clear();
            layer.resize(words * self.count, 0);
        }
    }

    /// As [`LayeredSets::reset`], or the error when the memory cannot be had.
    /// Pre: none. Post: on `Ok`, as `reset`; on `Err`, unchanged.
    pub fn try_reset(&mut self, len: usize, count: usize) -> Result<(), OutOfMemory> {
        let sizes = Self::layer_words(len);
        self.layers.resize_with(self.layers.len().max(sizes.len()), Vec::new);
        for (layer, words) in self.layers.iter_mut().zip(&sizes) {
            let more = words.saturating_mul(count.max(1)).saturating_sub(layer.len());
            memory::reserve(layer, more)?;
        }
        self.reset(len, count);
        Ok(())
    }

    /// Words per set in each layer: one bit per index, then one per word below.
    fn layer_words(len: usize) -> Vec<usize> {
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
        sizes
    }

    /// True when `i` is a member of set `set`.
    /// Pre: none. Post: no change.
    pub fn contains(&self, set: usize, i: usize) -> bool {
        set < self.count
            && self
                .layers
                .first()
                .and_then(|l| l.get((i / 64) * self.count + set))
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `i` to set `set` (ignored beyond the capacity or the number of sets).
    /// Pre: none. Post: `contains(set, i)` when both are in range.
    pub fn insert(&mut self, set: usize, mut i: usize) {
        if set >= self.count {
            return;
        }
        for layer in &mut self.layers {
            let Some(w) = layer.get_mut((i / 64) * self.count + set) else { return };
            let was_empty = *w == 0;
            *w |= 1 << (i % 64);
            if !was_empty {
                return; // the layers above already know this word is non-empty
            }
            i /= 64;
        }
    }

    /// Removes `i` from set `set`.
    /// Pre: none. Post: `!contains(set, i)`.
    pub fn remove(&mut self, set: usize, mut i: usize) {
        if set >= self.count {
            return;
        }
        for layer in &mut self.layers {
            let Some(w) = layer.get_mut((i / 64) * self.count + set) else { return };
            *w &= !(1 << (i % 64));
            if *w != 0 {
                return; // the word still has members: the summary bit stays
            }
            i /= 64;
        }
    }

    /// The smallest member of set `set`, found by descending from its top summary word.
    /// Pre: none. Post: `None` exactly when the set is empty (or `set` is out of range).
    pub fn first(&self, set: usize) -> Option<usize> {
        if set >= self.count {
            return None;
        }
        let mut index = 0usize;
        for layer in self.layers.iter().rev() {
            let w = *layer.get(index * self.count + set)?;
            if w == 0 {
                return None;
            }
            index = index * 64 + w.trailing_zeros() as usize;
        }
        Some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;
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
    fn set_operations_match_plain_sets() {
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let (la, lb) = (rng.below(200) as usize, rng.below(200) as usize);
            let pa: BTreeSet<usize> = (0..la).filter(|_| rng.below(4) == 0).collect();
            let pb: BTreeSet<usize> = (0..lb).filter(|_| rng.below(3) == 0).collect();
            let a = CellSet::from_fn(la, |i| pa.contains(&i));
            let b = CellSet::from_fn(lb, |i| pb.contains(&i));
            assert_eq!(a.iter().collect::<Vec<_>>(), pa.iter().copied().collect::<Vec<_>>());
            assert_eq!((a.count(), a.is_empty()), (pa.len(), pa.is_empty()));
            let mut u = a.clone();
            u.union_with(&b);
            let want: Vec<usize> = pa.union(&pb).copied().filter(|&i| i < la).collect();
            assert_eq!(u.iter().collect::<Vec<_>>(), want);
            assert_eq!(u.count(), want.len());
            let mut n = a.clone();
            n.intersect_with(&b);
            let want: Vec<usize> = pa.intersection(&pb).copied().collect();
            assert_eq!(n.iter().collect::<Vec<_>>(), want);
            assert_eq!(u.capacity(), la);
        }
    }

    /// The plain reference of a set: one `bool` per index of its capacity.
    fn plain(set: &CellSet) -> Vec<bool> {
        (0..set.capacity()).map(|i| set.contains(i)).collect()
    }

    #[test]
    fn operators_match_vectors_of_bools() {
        let mut rng = Rng::new(11);
        for _ in 0..300 {
            let (la, lb) = (rng.below(200) as usize, rng.below(200) as usize);
            let va: Vec<bool> = (0..la).map(|_| rng.below(3) == 0).collect();
            let vb: Vec<bool> = (0..lb).map(|_| rng.below(2) == 0).collect();
            let mut a = CellSet::new(la);
            for (i, &m) in va.iter().enumerate() {
                a.set(i, m);
            }
            let mut b = CellSet::new(lb);
            b.insert_all(vb.iter().enumerate().filter(|(_, &m)| m).map(|(i, _)| i));
            b.insert_all([lb, lb + 1, lb + 64, usize::MAX]); // beyond the capacity: ignored
            assert_eq!(plain(&a), va);
            assert_eq!(plain(&b), vb);
            assert_eq!(b.count(), vb.iter().filter(|&&m| m).count());
            assert_eq!(b.iter().collect::<Vec<_>>(), (0..lb).filter(|&i| vb[i]).collect::<Vec<_>>());
            let at = |v: &[bool], i: usize| v.get(i).copied().unwrap_or(false);
            let union: Vec<bool> = (0..la).map(|i| va[i] || at(&vb, i)).collect();
            let inter: Vec<bool> = (0..la).map(|i| va[i] && at(&vb, i)).collect();
            let diff: Vec<bool> = (0..la).map(|i| va[i] && !at(&vb, i)).collect();
            assert_eq!(plain(&(&a | &b)), union);
            assert_eq!(plain(&(&a & &b)), inter);
            assert_eq!(plain(&(&a - &b)), diff);
            let (mut u, mut n, mut d) = (a.clone(), a.clone(), a.clone());
            u |= &b;
            n &= &b;
            d -= &b;
            assert_eq!((plain(&u), plain(&n), plain(&d)), (union.clone(), inter, diff));
            // Equality is capacity and members, whatever was done to get them.
            assert_eq!(u, CellSet::from_fn(la, |i| union[i]));
            assert_ne!(CellSet::new(la), CellSet::new(la + 1));
            for i in 0..la + 70 {
                assert_eq!(u.contains(i), at(&union, i), "{la} {i}");
            }
        }
    }

    #[test]
    fn ranges_match_single_bits() {
        let mut rng = Rng::new(2);
        for _ in 0..200 {
            let len = 1 + rng.below(300) as usize;
            let mut s = CellSet::new(len);
            let mut plain = vec![false; len];
            for _ in 0..5 {
                let a = rng.below(len as u64) as usize;
                let b = a + rng.below(70) as usize;
                s.insert_range(a, b);
                for x in plain.iter_mut().take(b.min(len)).skip(a) {
                    *x = true;
                }
                let (c, d) = (rng.below(len as u64) as usize, rng.below(len as u64 + 80) as usize);
                assert_eq!(s.any_in(c, d), (c..d.min(len)).any(|i| plain[i]));
            }
            assert_eq!(s.count(), plain.iter().filter(|&&x| x).count());
            assert!(!s.any_in(5, 5));
        }
    }

    #[test]
    fn next_member_finds_the_first_member_at_or_after() {
        let mut rng = crate::game::rng::Rng::new(3);
        for len in [0, 1, 63, 64, 65, 100, 200] {
            let mut set = CellSet::new(len);
            let members: Vec<bool> = (0..len).map(|_| rng.below(9) == 0).collect();
            for (i, _) in members.iter().enumerate().filter(|(_, &m)| m) {
                set.insert(i);
            }
            for from in 0..len + 70 {
                let plain = (from..len).find(|&i| members[i]);
                assert_eq!(set.next_member(from), plain, "len {len} from {from}");
            }
        }
    }

    #[test]
    fn one_word_agrees_with_spans() {
        for start in 0..200 {
            for end in 0..260 {
                let all: Vec<_> = spans(start, end).collect();
                match one_word(start, end) {
                    Some(pair) => assert_eq!(all, vec![pair], "{start}..{end}"),
                    None => assert_ne!(all.len(), 1, "{start}..{end}"),
                }
            }
        }
    }

    #[test]
    fn layered_sets_match_btreesets() {
        let mut rng = Rng::new(7);
        for len in [1usize, 63, 64, 65, 4096, 4097, 300_000] {
            let count = 1 + rng.below(5) as usize;
            let mut fast = LayeredSets::new(len, count);
            let mut plain = vec![BTreeSet::new(); count];
            for _ in 0..4000 {
                let i = rng.below(len as u64) as usize;
                let s = rng.below(count as u64) as usize;
                if rng.below(3) == 0 {
                    fast.remove(s, i);
                    plain[s].remove(&i);
                } else {
                    fast.insert(s, i);
                    plain[s].insert(i);
                }
                for (k, p) in plain.iter().enumerate() {
                    assert_eq!(fast.first(k), p.first().copied());
                }
                assert_eq!(fast.contains(s, i), plain[s].contains(&i));
            }
            assert_eq!(fast.first(count), None);
            assert!(!fast.contains(count, 0));
            fast.reset(len, count);
            assert!((0..count).all(|k| fast.first(k).is_none()));
        }
    }
}
