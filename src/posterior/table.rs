//! Every placement of every ship group on one board: its cells, its halo (the cells it
//! forbids to the other ships: its cells, and their neighbours when ships may not
//! touch) and its ring (halo minus cells), as bit masks over a window of the board's
//! 64-bit words; and the bit-parallel count of the placements that fit a blocked mask.

use super::groups::Group;
use crate::game::bay::Bay;

/// One placement: a group's variant at an anchor (the top-left corner of its box).
#[derive(Debug, Clone, Copy)]
pub(super) struct Placement {
    /// The group (an index into the groups).
    pub group: u16,
    /// Its variant slot (see [`Table::slots_of`]).
    pub slot: u16,
    /// The anchor's row-major index.
    pub anchor: u32,
    /// Masks: words `[first, first + len)` of the board, stored in the arena.
    pub cells: Span,
    pub halo: Span,
    /// Halo minus cells.
    pub ring: Span,
}

/// A mask over a window of the board's words, stored in [`Table`]'s arena.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    first: u32,
    off: u32,
    len: u32,
}

/// Every placement of every group on one board size.
#[derive(Debug, Clone)]
pub(super) struct Table {
    pub rows: usize,
    pub cols: usize,
    /// Words of a board mask.
    pub words: usize,
    /// What the table was built for (to tell when it must be built again).
    key: Vec<(usize, Vec<crate::game::shape::Shape>)>,
    reach: usize,
    arena: Vec<u64>,
    all: Vec<Placement>,
    /// The first variant slot of each group, and one past the last.
    slots: Vec<usize>,
    /// Each slot's cell offsets (row-major index steps from the anchor), and shape.
    offsets: Vec<Vec<usize>>,
    shapes: Vec<crate::game::shape::Shape>,
    /// Placement id by (slot, anchor), `u32::MAX` for none.
    lookup: Vec<u32>,
    /// The board's cells as a mask (bits beyond the last cell clear).
    pub board: Vec<u64>,
    /// Each slot's anchors, as a mask.
    starts: Vec<Vec<u64>>,
    /// The same masks and the board's as `u128`s, on boards of at most 128 cells.
    starts_small: Vec<u128>,
    board_small: u128,
    /// Work done by [`Table::fitting`] since the last [`Table::take_work`]: one unit per
    /// mask word per shift (what a call costs, whatever the machine).
    work: std::cell::Cell<u64>,
}

/// Scratch masks for [`Table::fitting`].
#[derive(Debug, Clone, Default)]
pub(super) struct Fit {
    free: Vec<u64>,
    /// One mask of fitting anchors per variant of the group counted.
    accs: Vec<Vec<u64>>,
    /// The same masks on boards of at most 128 cells (then `accs` is not used): a
    /// group has at most 4 shapes, the turns of one drawing.
    small: [u128; 4],
    /// The bits of each of `small`.
    small_counts: [u64; 4],
    /// Per cell, the placements covering it ([`Table::add_cover`]'s general loop;
    /// all 0 between calls), and the cells met.
    covers: Vec<u32>,
    met: Vec<u64>,
}

/// The bit planes of [`Table::add_cover`]'s counters on small boards: counts below
/// 256 a cell.
const COVER_PLANES: usize = 8;

impl Table {
    /// The table of `groups` on a `rows` x `cols` board where a ship forbids the cells
    /// within `reach` (0 or 1) of its own.
    pub fn new(rows: usize, cols: usize, groups: &[Group], reach: usize) -> Table {
        let bay = Bay::new(rows, cols);
        let cells = bay.cells();
        let words = cells.div_ceil(64);
        let mut slots = vec![0];
        let mut offsets = Vec::new();
        let mut shapes = Vec::new();
        for g in groups {
            for &v in &g.variants {
                offsets.push(v.cells().map(|(r, c)| r * cols + c).collect::<Vec<_>>());
                shapes.push(v);
            }
            slots.push(shapes.len());
        }
        let mut t = Table {
            rows,
            cols,
            words,
            key: groups.iter().map(|g| (reach, g.variants.clone())).collect(),
            reach,
            arena: Vec::new(),
            all: Vec::new(),
            lookup: vec![u32::MAX; shapes.len() * cells],
            board: vec![0; words],
            starts: vec![vec![0; words]; shapes.len()],
            starts_small: Vec::new(),
            board_small: 0,
            work: std::cell::Cell::new(0),
            slots,
            offsets,
            shapes: shapes.clone(),
        };
        for i in 0..cells {
            set_bit(&mut t.board, i);
        }
        for (g, group_slots) in t.slots.clone().windows(2).enumerate() {
            let (lo, hi) = (group_slots[0], group_slots[1]);
            for i in 0..cells {
                let (r, c) = (i / cols, i % cols);
                for slot in lo..hi {
                    let Some(&shape) = shapes.get(slot) else { continue };
                    if r + shape.rows() > rows || c + shape.cols() > cols {
                        continue;
                    }
                    let cells_of: Vec<usize> =
                        t.offsets.get(slot).map_or(Vec::new(), |o| o.iter().map(|&d| i + d).collect());
                    let mut halo = Vec::new();
                    bay.for_each_forbidden(cells_of.iter().map(|&c| bay.position(c)), reach, |h| halo.push(h));
                    halo.sort_unstable();
                    halo.dedup();
                    let ring: Vec<usize> = halo.iter().copied().filter(|h| !cells_of.contains(h)).collect();
                    let p = Placement {
                        group: g as u16,
                        slot: slot as u16,
                        anchor: i as u32,
                        cells: t.span(&cells_of),
                        halo: t.span(&halo),
                        ring: t.span(&ring),
                    };
                    let pid = t.all.len() as u32;
                    if let Some(x) = t.lookup.get_mut(slot * cells + i) {
                        *x = pid;
                    }
                    if let Some(m) = t.starts.get_mut(slot) {
                        set_bit(m, i);
                    }
                    t.all.push(p);
                }
            }
        }
        if words <= 2 {
            t.starts_small = t.starts.iter().map(|m| small(m)).collect();
            t.board_small = small(&t.board);
        }
        t
    }

    /// True when this table was built for a board of this size, these groups' shapes
    /// and this reach.
    pub fn fits(&self, rows: usize, cols: usize, groups: &[Group], reach: usize) -> bool {
        self.rows == rows
            && self.cols == cols
            && self.reach == reach
            && self.key.len() == groups.len()
            && self.key.iter().zip(groups).all(|((_, v), g)| *v == g.variants)
    }

    /// Stores the mask of `cells` and returns its span (an empty set gets one word).
    fn span(&mut self, cells: &[usize]) -> Span {
        let lo = cells.iter().min().copied().unwrap_or(0) / 64;
        let hi = cells.iter().max().copied().unwrap_or(0) / 64;
        let off = self.arena.len();
        self.arena.resize(off + hi - lo + 1, 0);
        for &c in cells {
            if let Some(w) = self.arena.get_mut(off + c / 64 - lo) {
                *w |= 1 << (c % 64);
            }
        }
        Span { first: lo as u32, off: off as u32, len: (hi - lo + 1) as u32 }
    }

    fn mask(&self, s: Span) -> (&[u64], usize) {
        let off = s.off as usize;
        (self.arena.get(off..off + s.len as usize).unwrap_or(&[]), s.first as usize)
    }

    /// True when the span's mask shares no bit with `board`.
    #[inline]
    pub fn disjoint(&self, board: &[u64], s: Span) -> bool {
        let (m, first) = self.mask(s);
        let b = board.get(first..first + m.len()).unwrap_or(&[]);
        b.iter().zip(m).all(|(x, y)| x & y == 0)
    }

    /// ORs the span's mask into `board`.
    #[inline]
    pub fn or_into(&self, board: &mut [u64], s: Span) {
        let (m, first) = self.mask(s);
        if let Some(b) = board.get_mut(first..first + m.len()) {
            b.iter_mut().zip(m).for_each(|(x, y)| *x |= y);
        }
    }

    /// Placement `pid`.
    #[inline]
    pub fn get(&self, pid: u32) -> Option<&Placement> {
        self.all.get(pid as usize)
    }

    /// The variant slots of group `g`.
    pub fn slots_of(&self, g: usize) -> std::ops::Range<usize> {
        let lo = self.slots.get(g).copied().unwrap_or(0);
        let hi = self.slots.get(g + 1).copied().unwrap_or(lo);
        lo..hi
    }

    /// The placement of `slot` at `anchor`, if it lies inside the board.
    #[inline]
    pub fn find(&self, slot: usize, anchor: usize) -> Option<u32> {
        self.lookup.get(slot * self.rows * self.cols + anchor).copied().filter(|&pid| pid != u32::MAX)
    }

    /// The shape of `slot`.
    pub fn shape(&self, slot: usize) -> crate::game::shape::Shape {
        self.shapes
            .get(slot)
            .copied()
            .unwrap_or(crate::game::shape::Shape::straight(1, crate::game::position::Orientation::East))
    }

    /// The cell offsets of `slot` from its anchor (row-major index steps).
    pub fn offsets(&self, slot: usize) -> &[usize] {
        self.offsets.get(slot).map_or(&[], Vec::as_slice)
    }

    /// Writes into `fit` the anchors, per variant, of the placements of group `g` whose
    /// cells all avoid `blocked`; returns how many placements fit in all.
    pub fn fitting(&self, blocked: &[u64], g: usize, fit: &mut Fit) -> u64 {
        if self.words <= 2 {
            return self.fitting_small(blocked, g, fit);
        }
        fit.free.clear();
        fit.free.extend(blocked.iter().zip(&self.board).map(|(b, m)| !b & m));
        let slots = self.slots_of(g);
        if fit.accs.len() < slots.len() {
            fit.accs.resize(slots.len(), Vec::new());
        }
        let mut total = 0;
        for (acc, slot) in fit.accs.iter_mut().zip(slots) {
            acc.clear();
            acc.extend_from_slice(self.starts.get(slot).map_or(&[][..], |v| v));
            // An anchor fits when the cells `anchor + offset` are all free.
            let offsets = self.offsets.get(slot).map_or(&[][..], |v| v);
            self.add_work(self.words * (offsets.len() + 1));
            for &o in offsets {
                shr_and(acc, &fit.free, o);
            }
            total += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        total
    }

    /// [`Table::fitting`] on a board of at most 128 cells, the masks held in `u128`s
    /// (the same masks, word for word: a third of the instructions of the general
    /// loop, which the tests compare it with).
    fn fitting_small(&self, blocked: &[u64], g: usize, fit: &mut Fit) -> u64 {
        let free = !small(blocked) & self.board_small;
        let mut total = 0;
        for ((out, count), slot) in fit.small.iter_mut().zip(&mut fit.small_counts).zip(self.slots_of(g)) {
            let mut a = self.starts_small.get(slot).copied().unwrap_or(0);
            let offsets = self.offsets.get(slot).map_or(&[][..], |v| v);
            self.add_work(offsets.len() + 1);
            for &o in offsets {
                a &= free.checked_shr(o as u32).unwrap_or(0);
            }
            *count = u64::from(a.count_ones());
            total += *count;
            *out = a;
        }
        total
    }

    fn add_work(&self, units: usize) {
        self.work.set(self.work.get().saturating_add(units as u64));
    }

    /// The work units [`Table::fitting`] did since the last call, and starts counting
    /// afresh.
    /// Pre: none. Post: the count is 0.
    pub fn take_work(&self) -> u64 {
        self.work.take()
    }

    /// The `r`-th (from 0; the first variant's anchors first, each in row-major order)
    /// placement found by the last [`Table::fitting`] call for group `g`.
    pub fn nth_fit(&self, fit: &Fit, g: usize, mut r: u64) -> Option<u32> {
        if self.words <= 2 {
            for ((&a, &c), slot) in fit.small.iter().zip(&fit.small_counts).zip(self.slots_of(g)) {
                if r >= c {
                    r -= c;
                    continue;
                }
                return self.find(slot, select(a, r as u32) as usize);
            }
            return None;
        }
        for (acc, slot) in fit.accs.iter().zip(self.slots_of(g)) {
            for (k, &w) in acc.iter().enumerate() {
                let c = u64::from(w.count_ones());
                if r >= c {
                    r -= c;
                    continue;
                }
                let mut w = w;
                for _ in 0..r {
                    w &= w - 1;
                }
                return self.find(slot, k * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Writes into `out` the placements of group `g` whose cells all avoid `blocked`, in
    /// the order of their ids (anchors in row-major order, each one's variants in order):
    /// the group's placements filtered, found bit-parallel.
    /// Pre: none. Post: `out` sorted by placement id.
    pub fn fitting_in_order(&self, blocked: &[u64], g: usize, fit: &mut Fit, out: &mut Vec<u32>) {
        out.clear();
        // Not counted as work: the budget of [`Table::take_work`] measures the estimates,
        // and building a model never counted.
        let work = self.work.get();
        self.fitting(blocked, g, fit);
        self.work.set(work);
        if self.words > 2 {
            self.for_each_fit(fit, g, |pid| out.push(pid));
            // Ids were given in that order.
            out.sort_unstable();
            return;
        }
        let slots = self.slots_of(g);
        let masks = fit.small.get(..slots.len()).unwrap_or(&[]);
        // Every anchor some variant fits at, in row-major order; its variants in order.
        let mut anchors = masks.iter().fold(0u128, |a, &m| a | m);
        while anchors != 0 {
            let anchor = anchors.trailing_zeros();
            for (&m, slot) in masks.iter().zip(slots.clone()) {
                if m >> anchor & 1 == 1 {
                    if let Some(pid) = self.find(slot, anchor as usize) {
                        out.push(pid);
                    }
                }
            }
            anchors &= anchors - 1;
        }
    }

    /// Calls `f` on every placement found by the last [`Table::fitting`] call for group
    /// `g`, in the order of [`Table::nth_fit`].
    pub fn for_each_fit(&self, fit: &Fit, g: usize, mut f: impl FnMut(u32)) {
        self.each_anchor(fit, g, |slot, _, anchor| {
            if let Some(pid) = self.find(slot, anchor) {
                f(pid);
            }
        });
    }

    /// Calls `f(anchor, offsets)` on every placement found by the last
    /// [`Table::fitting`] call for group `g`, in the order of [`Table::for_each_fit`]:
    /// its cells are `anchor + o` for each `o` of `offsets`, as [`Table::cells`] lists
    /// them (without looking the placement up).
    /// Pre: `fit` is the last fit of group `g` (its anchors are placements' anchors).
    pub fn for_each_fit_cells(&self, fit: &Fit, g: usize, mut f: impl FnMut(usize, &[usize])) {
        self.each_anchor(fit, g, |_, offsets, anchor| f(anchor, offsets));
    }

    /// Adds `share × m` to `prob[c]` for every cell `c`, where `m` is the number of
    /// placements found by the last [`Table::fitting`] call for group `g` that cover `c`:
    /// the sum of `share` over every (placement, cell), with one rounding a cell.
    /// On boards of at most 128 cells the counts are added bit-parallel (each mask of
    /// fitting anchors shifted by each offset and added into bit planes, a ripple-carry
    /// adder per bit), spread to a byte a cell, and the cells updated in one pass with
    /// no branch (a cell no placement covers gains `+0.0`, which leaves it as it was);
    /// elsewhere a counter a cell is kept.
    /// Pre: `fit` is the last fit of group `g`; `prob` has a value a cell and none
    /// negative. Post: `fit`'s masks unchanged.
    pub fn add_cover(&self, fit: &mut Fit, g: usize, share: f64, prob: &mut [f64]) {
        let most: usize = self.slots_of(g).map(|slot| self.offsets(slot).len()).sum();
        // The planes a count up to `most` needs.
        let depth = (usize::BITS - most.leading_zeros()) as usize;
        if self.words > 2 || depth > COVER_PLANES {
            return cover_general(self, fit, g, |cell, m| {
                if let Some(x) = prob.get_mut(cell) {
                    *x += share * f64::from(m);
                }
            });
        }
        let mut planes = [0u128; COVER_PLANES];
        for (&a, slot) in fit.small.iter().zip(self.slots_of(g)) {
            for &o in self.offsets(slot) {
                // The cells `anchor + o` of every fitting anchor, added into the planes.
                let mut carry = a.checked_shl(o as u32).unwrap_or(0);
                for plane in planes.iter_mut().take(depth) {
                    let next = *plane & carry;
                    *plane ^= carry;
                    carry = next;
                }
            }
        }
        // A cell's count is its bit in each plane: eight cells at a time, each plane's
        // byte spread to a byte a cell and added in at its weight (counts stay below
        // 256, so no byte carries into the next).
        let mut counts = [0u8; 128];
        for (k, chunk) in counts.chunks_exact_mut(8).enumerate() {
            let mut bytes = 0u64;
            for (i, plane) in planes.iter().take(depth).enumerate() {
                bytes += spread_byte((plane >> (8 * k)) as u64) << i;
            }
            chunk.copy_from_slice(&bytes.to_le_bytes());
        }
        for (x, &m) in prob.iter_mut().zip(&counts) {
            *x += share * f64::from(m);
        }
    }

    /// Calls `f(slot, offsets, anchor)` on every anchor of the last fit of group `g`,
    /// variant by variant (`offsets` those of the variant `slot`), each variant's anchors
    /// in row-major order (each is a placement's anchor: the fit's masks come from
    /// `starts`).
    #[inline]
    fn each_anchor(&self, fit: &Fit, g: usize, mut f: impl FnMut(usize, &[usize], usize)) {
        if self.words <= 2 {
            for (&a, slot) in fit.small.iter().zip(self.slots_of(g)) {
                let offsets = self.offsets(slot);
                let mut a = a;
                while a != 0 {
                    f(slot, offsets, a.trailing_zeros() as usize);
                    a &= a - 1;
                }
            }
            return;
        }
        for (acc, slot) in fit.accs.iter().zip(self.slots_of(g)) {
            let offsets = self.offsets(slot);
            for (k, &w) in acc.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    f(slot, offsets, k * 64 + w.trailing_zeros() as usize);
                    w &= w - 1;
                }
            }
        }
    }

    /// The cells (row-major indices) of placement `pid`.
    pub fn cells(&self, pid: u32) -> impl Iterator<Item = usize> + '_ {
        let p = self.get(pid).copied();
        let offsets = p.map_or(&[][..], |p| self.offsets(p.slot as usize));
        offsets.iter().map(move |&o| p.map_or(0, |p| p.anchor as usize) + o)
    }
}

/// The counts of [`Table::add_cover`] with a counter a cell: every placement's cells
/// counted; then `f(cell, m)` called once on each cell some placement covers, in
/// row-major order (found bit-parallel: the anchors' masks shifted by each offset),
/// and its counter cleared.
fn cover_general(t: &Table, fit: &mut Fit, g: usize, mut f: impl FnMut(usize, u32)) {
    let mut covers = std::mem::take(&mut fit.covers);
    let mut met = std::mem::take(&mut fit.met);
    covers.resize(t.rows * t.cols, 0);
    met.clear();
    met.resize(t.words, 0);
    t.for_each_fit_cells(fit, g, |anchor, offsets| {
        for &o in offsets {
            if let Some(c) = covers.get_mut(anchor + o) {
                *c += 1;
            }
        }
    });
    for (slot, k) in t.slots_of(g).enumerate() {
        for &o in t.offsets(k) {
            if t.words <= 2 {
                let a = fit.small.get(slot).copied().unwrap_or(0).checked_shl(o as u32).unwrap_or(0);
                shl_or(&mut met, &[a as u64, (a >> 64) as u64], 0);
            } else if let Some(acc) = fit.accs.get(slot) {
                shl_or(&mut met, acc, o);
            }
        }
    }
    for (k, &w) in met.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let cell = k * 64 + w.trailing_zeros() as usize;
            if let Some(c) = covers.get_mut(cell) {
                f(cell, *c);
                *c = 0;
            }
            w &= w - 1;
        }
    }
    fit.covers = covers;
    fit.met = met;
}

/// The position of the `r`-th set bit of `a` (from 0, lowest first): in the low word or,
/// past its bits, the high one (see [`select64`]).
/// Pre: `r < a.count_ones()`. Post: a bit index below 128.
#[inline]
fn select(a: u128, r: u32) -> u32 {
    let low = a as u64;
    let sums = byte_sums(low);
    let in_low = (sums >> 56) as u32;
    if r < in_low {
        select64(low, sums, r)
    } else {
        let high = (a >> 64) as u64;
        64 + select64(high, byte_sums(high), r - in_low)
    }
}

/// Byte `i` of the result: the set bits of `w` in its bytes `0..=i` (at most 64, so
/// each fits its byte; the top byte is `w.count_ones()`).
#[inline]
fn byte_sums(w: u64) -> u64 {
    let mut s = w - ((w >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(BYTE_ONES)
}

/// `0x01` in every byte.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// The low byte of `w` spread out, bit `j` to byte `j` (as 0 or 1).
#[inline]
fn spread_byte(w: u64) -> u64 {
    SPREAD.get((w & 0xff) as usize).copied().unwrap_or(0)
}

/// `SPREAD[b]`: byte `j` is bit `j` of `b`.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            table[b] |= ((b as u64) >> j & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    table
};

/// The `r`-th set bit of `w` given its [`byte_sums`], broadword (after Vigna's
/// "Broadword implementation of rank/select queries"): every byte's running sum is
/// compared with `r` at once, which finds the byte holding the bit, and a table gives
/// the bit within the byte. No loop, no branch.
/// Pre: `sums == byte_sums(w)`, `r < w.count_ones()`. Post: a bit index below 64.
#[inline]
fn select64(w: u64, sums: u64, r: u32) -> u32 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Byte i's high bit is set when sums_i <= r (0x80 + r - sums_i, no borrow: sums_i <= 64).
    let at_most = (((u64::from(r) * BYTE_ONES) | HIGH) - sums) & HIGH;
    // The running sums never decrease: the bytes with sums_i <= r come first, and their
    // number is the byte holding the bit.
    let shift = (((at_most >> 7).wrapping_mul(BYTE_ONES) >> 56) * 8) as u32;
    let before = ((sums << 8) >> shift) as u32 & 0xff;
    let byte = ((w >> shift) & 0xff) as usize;
    let k = r.wrapping_sub(before) as usize & 7;
    shift + u32::from(SELECT_IN_BYTE.get(byte * 8 + k).copied().unwrap_or(0))
}

/// `SELECT_IN_BYTE[b * 8 + k]`: the position of the `k`-th set bit of the byte `b` (0
/// where `b` has fewer bits).
const SELECT_IN_BYTE: [u8; 256 * 8] = {
    let mut table = [0u8; 256 * 8];
    let mut b = 0;
    while b < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b * 8 + k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The first two words of a mask as one `u128` (a board of at most 128 cells).
#[inline]
fn small(v: &[u64]) -> u128 {
    u128::from(v.first().copied().unwrap_or(0)) | u128::from(v.get(1).copied().unwrap_or(0)) << 64
}

/// `acc &= src >> k` on multi-word bit sets (bit `i` of the shifted set is bit `i + k`).
fn shr_and(acc: &mut [u64], src: &[u64], k: usize) {
    let (q, b) = (k / 64, k % 64);
    for (i, a) in acc.iter_mut().enumerate() {
        let lo = src.get(i + q).copied().unwrap_or(0);
        let v = if b == 0 { lo } else { (lo >> b) | (src.get(i + q + 1).copied().unwrap_or(0) << (64 - b)) };
        *a &= v;
    }
}

/// `dst |= src << k` on multi-word bit sets (bit `i + k` of the result is bit `i` of
/// `src`; bits shifted past `dst`'s end are dropped).
fn shl_or(dst: &mut [u64], src: &[u64], k: usize) {
    let (q, b) = (k / 64, k % 64);
    for (i, d) in dst.iter_mut().enumerate().skip(q) {
        let lo = src.get(i - q).copied().unwrap_or(0);
        let v =
            if b == 0 || i == q { lo << b } else { (lo << b) | (src.get(i - q - 1).copied().unwrap_or(0) >> (64 - b)) };
        *d |= v;
    }
}

/// True when bit `i` of `board` is set.
#[inline]
pub(super) fn bit(board: &[u64], i: usize) -> bool {
    board.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

/// Sets bit `i` of `board`.
#[inline]
pub(super) fn set_bit(board: &mut [u64], i: usize) {
    if let Some(w) = board.get_mut(i / 64) {
        *w |= 1 << (i % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::Rng;
    use crate::game::rules::Rules;

    /// The general loop of [`Table::fitting`], whatever the board's size.
    fn fitting_general(t: &Table, blocked: &[u64], g: usize, fit: &mut Fit) -> u64 {
        fit.free.clear();
        fit.free.extend(blocked.iter().zip(&t.board).map(|(b, m)| !b & m));
        let slots = t.slots_of(g);
        fit.accs.resize(slots.len(), Vec::new());
        let mut total = 0;
        for (acc, slot) in fit.accs.iter_mut().zip(slots) {
            acc.clear();
            acc.extend_from_slice(&t.starts[slot]);
            for &o in &t.offsets[slot] {
                shr_and(acc, &fit.free, o);
            }
            total += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
        total
    }

    /// The general loop of [`Table::nth_fit`].
    fn nth_general(t: &Table, fit: &Fit, g: usize, mut r: u64) -> Option<u32> {
        for (acc, slot) in fit.accs.iter().zip(t.slots_of(g)) {
            for (k, &w) in acc.iter().enumerate() {
                for b in 0..64 {
                    if w >> b & 1 == 1 {
                        if r == 0 {
                            return t.find(slot, k * 64 + b);
                        }
                        r -= 1;
                    }
                }
            }
        }
        None
    }

    /// Every preset's table on each board of `sizes`: its label, the table and the
    /// number of its groups.
    fn tables(sizes: &[(usize, usize)]) -> Vec<(String, Table, usize)> {
        let mut out = Vec::new();
        for name in ["problem-g", "classic", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let groups = crate::posterior::groups::groups(rules.fleet(), &rules);
            for &(rows, cols) in sizes {
                out.push((
                    format!("{name} {rows}x{cols}"),
                    Table::new(rows, cols, &groups, rules.reach()),
                    groups.len(),
                ));
            }
        }
        out
    }

    #[test]
    fn fitting_in_order_is_the_group_filtered() {
        let mut rng = Rng::new(6);
        for (label, t, groups) in tables(&[(10, 10), (8, 16), (1, 64), (11, 11), (3, 3), (20, 20)]) {
            for _ in 0..20 {
                let blocked: Vec<u64> = (0..t.words).map(|_| rng.next_u64() & rng.next_u64()).collect();
                for g in 0..groups {
                    let (mut fit, mut got) = (Fit::default(), Vec::new());
                    t.fitting_in_order(&blocked, g, &mut fit, &mut got);
                    // Ids are given group by group, each group's anchors in row-major
                    // order, each anchor's variants in order.
                    let want: Vec<u32> = (0..t.all.len() as u32)
                        .filter(|&pid| t.get(pid).unwrap().group as usize == g)
                        .filter(|&pid| t.disjoint(&blocked, t.get(pid).unwrap().cells))
                        .collect();
                    assert_eq!(got, want, "{label} group {g}");
                }
            }
        }
    }

    #[test]
    fn cover_adds_the_share_of_every_placement_over_each_cell() {
        let mut rng = Rng::new(8);
        for (label, t, groups) in tables(&[(10, 10), (8, 16), (1, 64), (11, 11), (3, 3), (20, 20), (1, 128), (128, 1)])
        {
            for round in 0..20 {
                // Sparse blocks first (most placements fit), then denser ones.
                let blocked: Vec<u64> = (0..t.words)
                    .map(|_| {
                        let w = rng.next_u64() & rng.next_u64();
                        if round < 5 {
                            w & rng.next_u64()
                        } else {
                            w
                        }
                    })
                    .collect();
                for g in 0..groups {
                    let mut fit = Fit::default();
                    t.fitting(&blocked, g, &mut fit);
                    // The plain count: one for each (placement, cell), each placement
                    // looked up.
                    let mut want = vec![0u32; t.rows * t.cols];
                    t.for_each_fit(&fit, g, |pid| t.cells(pid).for_each(|c| want[c] += 1));
                    let mut general = Vec::new();
                    cover_general(&t, &mut fit, g, |cell, m| general.push((cell, m)));
                    let covered: Vec<(usize, u32)> =
                        want.iter().enumerate().filter(|(_, &m)| m > 0).map(|(c, &m)| (c, m)).collect();
                    assert_eq!(general, covered, "{label} group {g}, general loop");
                    assert!(fit.covers.iter().all(|&c| c == 0), "its counters are clear for the next call");
                    // The sums, bit for bit, from uneven starting values.
                    let start: Vec<f64> = (0..t.rows * t.cols).map(|_| rng.below(1000) as f64 / 7.0).collect();
                    let share = 1.0 / (1 + rng.below(97)) as f64;
                    let mut got = start.clone();
                    t.add_cover(&mut fit, g, share, &mut got);
                    let plain: Vec<f64> = start
                        .iter()
                        .zip(&want)
                        .map(|(&x, &m)| if m > 0 { x + share * f64::from(m) } else { x })
                        .collect();
                    assert_eq!(got, plain, "{label} group {g}");
                }
            }
        }
    }

    #[test]
    fn select_finds_the_rth_bit() {
        let mut rng = Rng::new(2);
        let edges = [u128::MAX, 1 << 127, 1, 1 << 63 | 1 << 64, u128::from(u64::MAX), u128::MAX << 64, 0x80 << 56];
        let random = (0..2000).map(|_| u128::from(rng.next_u64() & rng.next_u64()) | u128::from(rng.next_u64()) << 64);
        for a in edges.into_iter().chain(random) {
            let bits: Vec<u32> = (0..128).filter(|&b| a >> b & 1 == 1).collect();
            for (r, &b) in bits.iter().enumerate() {
                assert_eq!(select(a, r as u32), b);
            }
        }
    }

    #[test]
    fn small_boards_fit_as_the_general_loop_does() {
        let mut rng = Rng::new(4);
        for (label, t, groups) in tables(&[(10, 10), (8, 16), (1, 64), (11, 11), (3, 3)]) {
            for _ in 0..20 {
                let blocked: Vec<u64> = (0..t.words).map(|_| rng.next_u64() & rng.next_u64()).collect();
                for g in 0..groups {
                    let (mut a, mut b) = (Fit::default(), Fit::default());
                    let n = t.fitting(&blocked, g, &mut a);
                    assert_eq!(n, fitting_general(&t, &blocked, g, &mut b));
                    let got: Vec<Vec<u64>> = if t.words <= 2 {
                        a.small[..t.slots_of(g).len()]
                            .iter()
                            .map(|&m| [m as u64, (m >> 64) as u64][..t.words].to_vec())
                            .collect()
                    } else {
                        a.accs[..t.slots_of(g).len()].to_vec()
                    };
                    assert_eq!(got, b.accs[..t.slots_of(g).len()], "{label}");
                    for r in 0..n {
                        assert_eq!(t.nth_fit(&a, g, r), nth_general(&t, &b, g, r), "{label} #{r}");
                    }
                }
            }
        }
    }
}
