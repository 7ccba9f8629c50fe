//! parity: hunt on a diagonal lattice, then sink what was hit.
//!
//! *Hunting.* Every ship of `L` cells, straight, covers one cell of each residue of
//! `(r + c) mod L`, so probing the lattice `(r + c) % L == k` is bound to hit every ship
//! of the longest remaining size `L` (the CSE 202 diagonal strategy). Among lattice
//! cells the next probe is the one crossed by the most placements of an `L` ship over
//! unknown cells, then the one with the highest *neighbour score* (for each unknown
//! orthogonal neighbour, its water, eliminated or edge neighbours: a miss there
//! isolates more cells; the Cubido tie-break), then the first in row-major order. When
//! finished ships shrink `L` (known fleet), or no lattice cell may hold an `L` ship any
//! more (unknown fleet: sizes up to 5 assumed), a new lattice is laid with the offset
//! `k` that leaves the fewest cells to probe; with `L = 1` every cell is on it.
//!
//! *Targeting.* After a hit, the 4 neighbours of a lone hit, then the cells beyond both
//! ends of a line of hits, are probed, best first by the number of ship placements
//! through the run and that cell. A run that no remaining ship can extend (both ends
//! water or edge, or no size left that is longer) is a finished ship: its surroundings
//! are eliminated and, when the fleet is known, its size leaves the fleet.
//!
//! *Other rules.* When the rules announce sunk ships, a sunk answer finishes its ship
//! at once. When ships may touch, nothing is eliminated (a hit's neighbours, even
//! diagonal, may be another ship's): every unknown N, E, S, W neighbour of a hit not
//! yet given to a sunk ship ([`Afloat`]) is a target, best first by the placements of
//! an afloat size through it and the line of hits it extends, and only sunk answers
//! take ships off the fleet.
//!
//! Keys are kept as one byte per cell in a [`Ranking`] (a tree over blocks of cells
//! that finds the first cell of the highest key). A probe or an elimination moves only
//! the keys of cells within distance 2 (their neighbour scores) and of the few lattice
//! cells within `L - 1` along its row and column (their placements), and each is moved
//! by the change at once, not recomputed ([`Parity::blocked`]). So large boards cost a
//! little over a byte per cell, a few tree walks per probe, and one pass over the board
//! per lattice change.

use super::ScanStrategy;
use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::{Direction, Position};
use crate::game::ship::{MAX_SHIP, MIN_SHIP};
use crate::limits::memory::{self, OutOfMemory};
use crate::scan::observer::Source;
use crate::scan::record::CellState;
use crate::scan::runs;
use crate::scan::sonar::Answer;
use crate::scan::{Scan, ScanError};
use crate::strategy::afloat::Afloat;
use crate::strategy::ranking::Ranking;

/// A hunting key: placements of an `L` ship through the cell, then the neighbour score.
type Key = (u32, u32);

/// A key as one byte that orders keys as the pairs do: placements (at most 10: 2L with
/// L <= 5) times 18, plus the neighbour score plus one (at most 17); 0 for `(0, 0)`.
fn rank(key: Key) -> u8 {
    (key.0 * 18 + key.1).min(255) as u8
}

/// The parity scanner.
#[derive(Debug, Clone, Default)]
pub struct Parity {
    bay: Bay,
    /// Ships not yet finished, by size, when the fleet is known.
    fleet: Option<[usize; MAX_SHIP + 1]>,
    /// Largest size still possible when hunting (shrinks as lattices run dry).
    cap: usize,
    /// Lattice spacing and offset.
    spacing: usize,
    offset: usize,
    /// The key of each cell, as [`rank`]s.
    keys: Ranking,
    /// Unfinished runs of hits, each in row-major order.
    runs: Vec<Vec<Position>>,
    /// True when ships may touch: nothing is eliminated, runs are not ships.
    touch: bool,
    /// When ships may touch: the hits not given to a sunk ship.
    live: Vec<Position>,
    /// The ships the sunk answers leave afloat.
    afloat: Afloat,
}

/// The neighbour score of `pos`: for each unknown orthogonal neighbour, the number of
/// its own orthogonal neighbours that are water, eliminated or outside the board.
/// Pre: none. Post: at most 16.
pub fn neighbour_score(scan: &Scan<'_>, pos: Position) -> u32 {
    let bay = scan.bay();
    let mut score = 0;
    for u in bay.neighbours4(pos) {
        if scan.state(u) != CellState::Unknown {
            continue;
        }
        for d2 in Direction::ORTHOGONAL {
            score += match bay.step(u, d2) {
                None => 1,
                Some(w) => u32::from(scan.state(w).is_water()),
            };
        }
    }
    score
}

/// For each lattice offset `k < l`, the unknown cells with `(row + col) % l == k` that an
/// `l`-cell ship may cover: those in a run of at least `l` unknown cells along their row
/// or (for `l > 1`) their column. Runs are measured in one pass over the rows, so this
/// costs a few reads per cell (`tests::lattice_need_counts_the_cells_placements_finds`
/// holds it to the cell-by-cell count).
/// Pre: `l >= 1`. Post: `l` counts; `Err` when the bit per cell cannot be had.
fn lattice_need(scan: &Scan<'_>, l: usize) -> Result<Vec<usize>, OutOfMemory> {
    let bay = scan.bay();
    let Bay { rows, cols } = bay; // runs are found by row and column arithmetic
    let unknown = |r: usize, c: usize| scan.state(Position::new(r, c)) == CellState::Unknown;
    // Cells in a long enough run, one bit each.
    let mut long = CellSet::try_new(bay.cells())?;
    for r in 0..rows {
        let mut start = 0;
        for c in 0..=cols {
            if c < cols && unknown(r, c) {
                continue;
            }
            if c - start >= l {
                long.insert_range(r * cols + start, r * cols + c);
            }
            start = c + 1;
        }
    }
    if l > 1 {
        // Column runs, row by row: `up[c]` unknown cells end at this row in column c.
        let mut up = memory::filled(cols, 0usize)?;
        for r in 0..=rows {
            for (c, run) in up.iter_mut().enumerate() {
                if r < rows && unknown(r, c) {
                    *run += 1;
                    continue;
                }
                if *run >= l {
                    (r - *run..r).for_each(|y| long.insert(y * cols + c));
                }
                *run = 0;
            }
        }
    }
    let mut need = vec![0usize; l];
    for p in long.iter().map(|i| bay.position(i)) {
        if let Some(n) = need.get_mut((p.row + p.col) % l) {
            *n += 1;
        }
    }
    Ok(need)
}

/// Unknown cells in a straight line from `pos` (excluded) in direction `dir`, up to `max`.
fn free_run(scan: &Scan<'_>, pos: Position, dir: Direction, max: usize) -> usize {
    let bay = scan.bay();
    let mut n = 0;
    let mut p = pos;
    while n < max {
        match bay.step(p, dir) {
            Some(q) if scan.state(q) == CellState::Unknown => {
                n += 1;
                p = q;
            }
            _ => break,
        }
    }
    n
}

impl Parity {
    fn reset(&mut self, scan: &Scan<'_>) -> Result<(), ScanError> {
        self.bay = scan.bay();
        self.fleet = scan.fleet().and_then(|f| {
            let mut counts = [0usize; MAX_SHIP + 1];
            for s in f.sizes() {
                *counts.get_mut(s)? += 1;
            }
            Some(counts)
        });
        self.cap = MAX_SHIP;
        self.runs.clear();
        self.live.clear();
        self.touch = scan.rules().touch();
        self.afloat =
            Afloat::from_record(scan.record(), scan.rules(), scan.fleet()).map_err(|e| scan.out_of_memory(e))?;
        // Start from whatever the record already knows (bayes hands over mid-game); a
        // blank record knows nothing, and its grid would cost a byte per cell.
        if scan.record().scans() == 0 {
            self.spacing = 0;
            return self.relay(scan);
        }
        let record = scan.record();
        let mut grid =
            memory::filled(record.rows() * record.cols(), CellState::Unknown).map_err(|e| scan.out_of_memory(e))?;
        grid.iter_mut().enumerate().for_each(|(i, s)| *s = record.state_at(i));
        if self.touch {
            for sizes in self.afloat_sizes_gone(scan) {
                self.remove_size(sizes);
            }
            self.live.extend(
                grid.iter()
                    .enumerate()
                    .filter(|&(i, &s)| s == CellState::Hit && !self.afloat.is_sunk(self.bay.position(i)))
                    .map(|(i, _)| self.bay.position(i)),
            );
        } else {
            for run in runs::find(self.bay.rows, self.bay.cols, &grid).unwrap_or_default() {
                if run.closed(self.bay.rows, self.bay.cols, &grid) {
                    self.remove_size(run.len);
                } else {
                    self.runs.push(run.cells().collect());
                }
            }
        }
        self.spacing = 0;
        self.relay(scan)
    }

    /// The sizes of the ships the record's sunk answers already took off the fleet.
    fn afloat_sizes_gone(&self, scan: &Scan<'_>) -> Vec<usize> {
        let Some(fleet) = scan.fleet() else { return Vec::new() };
        let mut gone = Vec::new();
        for (k, kind) in fleet.kinds().iter().enumerate() {
            for _ in self.afloat.left(k)..kind.count {
                gone.push(kind.shape.size());
            }
        }
        gone
    }

    fn remove_size(&mut self, size: usize) {
        if let Some(n) = self.fleet.as_mut().and_then(|f| f.get_mut(size)) {
            *n = n.saturating_sub(1);
        }
    }

    /// Sizes that may still be afloat: the known fleet's, or 1..=cap.
    fn may_be(&self, size: usize) -> bool {
        size <= self.cap && self.fleet.is_none_or(|f| f.get(size).copied().unwrap_or(0) > 0)
    }

    fn longest(&self) -> usize {
        (MIN_SHIP..=MAX_SHIP).rev().find(|&s| self.may_be(s)).unwrap_or(MIN_SHIP)
    }

    /// The hunting key of `pos` on the current lattice (`(0, 0)`: not worth a probe),
    /// from scratch: the plain reference the kept keys are tested against.
    #[cfg(test)]
    fn key_of(&self, scan: &Scan<'_>, pos: Position) -> Key {
        if (pos.row + pos.col) % self.spacing.max(1) != self.offset {
            return (0, 0);
        }
        match self.placements(scan, pos) {
            0 => (0, 0),
            n => (n as u32, neighbour_score(scan, pos) + 1),
        }
    }

    /// The number of placements of a ship of the lattice's size through `pos` (0 when
    /// `pos` is known): the first part of its key, whatever the lattice's offset.
    fn placements(&self, scan: &Scan<'_>, pos: Position) -> usize {
        let l = self.spacing.max(1);
        if scan.state(pos) != CellState::Unknown {
            return 0;
        }
        let count = |a: Direction, b: Direction| {
            let (x, y) = (free_run(scan, pos, a, l - 1), free_run(scan, pos, b, l - 1));
            (x + y + 1).saturating_sub(l - 1)
        };
        let mut n = count(Direction::W, Direction::E);
        if l > 1 {
            n += count(Direction::N, Direction::S);
        }
        n
    }

    /// Lays the lattice for the longest possible size again if it changed.
    fn relay(&mut self, scan: &Scan<'_>) -> Result<(), ScanError> {
        let l = self.longest();
        if l == self.spacing {
            return Ok(());
        }
        self.spacing = l;
        // The offset leaving the fewest lattice cells that may hold an L ship (with
        // `L = 1` there is one offset, and nothing to count).
        self.offset = if l == 1 {
            0
        } else {
            let need = lattice_need(scan, l).map_err(|e| scan.out_of_memory(e))?;
            (0..l).min_by_key(|&k| need.get(k).copied().unwrap_or(0)).unwrap_or(0)
        };
        self.fill_keys(scan).map_err(|e| scan.out_of_memory(e))
    }

    /// Sets every key from the record, as `Parity::key_of` (in the tests) gives it
    /// (`tests::incremental_keys_match_a_full_recompute`), a row at a time: the score of a
    /// cell adds the sides of its unknown neighbours ([`neighbour_score`]), so each
    /// unknown cell's sides are counted once, into one of three rows kept at hand (the
    /// rows above, at and below the row being filled).
    fn fill_keys(&mut self, scan: &Scan<'_>) -> Result<(), OutOfMemory> {
        let bay = self.bay;
        let Bay { rows, cols } = bay; // row and column arithmetic below
        let (l, offset) = (self.spacing.max(1), self.offset);
        let is_water = |p: Position| scan.state(p).is_water();
        // The sides of each cell of row `r` that is unknown (0 for the others).
        let sides_of = |r: usize, out: &mut [u8]| {
            for (c, s) in out.iter_mut().enumerate() {
                let p = Position::new(r, c);
                *s = if r < rows && scan.state(p) == CellState::Unknown {
                    Direction::ORTHOGONAL.iter().map(|&d| bay.step(p, d).map_or(1, |w| u8::from(is_water(w)))).sum()
                } else {
                    0
                };
            }
        };
        let mut around = [memory::filled(cols, 0u8)?, memory::filled(cols, 0u8)?, memory::filled(cols, 0u8)?];
        let mut keys_of_row = memory::filled(cols, 0u8)?;
        let (mut r, mut c) = (0, 0);
        let mut keys = std::mem::take(&mut self.keys);
        let filled = keys.fill(rows * cols, |_| {
            if c == 0 {
                // A new row: the sides of the rows at and below it, then its keys.
                if r == 0 {
                    sides_of(0, &mut around[1]);
                } else {
                    around.rotate_left(1);
                }
                sides_of(r + 1, &mut around[2]);
                keys_of_row.fill(0);
                let side = |k: usize, x: Option<usize>| around.get(k).and_then(|a| a.get(x?)).copied().unwrap_or(0);
                for x in (((offset + l) - r % l) % l..cols).step_by(l) {
                    let p = Position::new(r, x);
                    if scan.state(p) != CellState::Unknown {
                        continue;
                    }
                    let n = if l == 1 { 1 } else { self.placements(scan, p) };
                    if n > 0 {
                        let score =
                            side(0, Some(x)) + side(2, Some(x)) + side(1, x.checked_sub(1)) + side(1, Some(x + 1));
                        if let Some(k) = keys_of_row.get_mut(x) {
                            *k = rank((n as u32, u32::from(score) + 1));
                        }
                    }
                }
            }
            let key = keys_of_row.get(c).copied().unwrap_or(0);
            c += 1;
            if c == cols {
                (r, c) = (r + 1, 0);
            }
            key
        });
        self.keys = keys;
        filled
    }

    /// Brings the keys up to date after `pos` turned from unknown to known (probed or
    /// eliminated). It must be called at once, before any other cell changes, so that
    /// every other key still matches the record: then only the keys `pos` can move are
    /// touched, each by the change `pos` makes to it, not recomputed
    /// (`tests::incremental_keys_match_a_full_recompute` holds it to `Parity::key_of`
    /// on every cell).
    ///
    /// A key is 0, or `placements * 18 + score + 1` ([`rank`]), so both parts can be read
    /// back; a key at 0 stays 0 until the next lattice (cells only ever get known, so
    /// runs only shrink), and a key above 0 is that of an unknown lattice cell.
    /// - `pos` itself drops to 0.
    /// - Scores: a cell's score adds, for each unknown neighbour `u`, the sides of `u`
    ///   that are water, eliminated or edge (`sides(u)`). `pos` leaves the sum of each of
    ///   its neighbours (minus `sides(pos)`); when `pos` is water or eliminated, each
    ///   unknown neighbour `u` of `pos` gains a side, so each other neighbour of `u` (two
    ///   steps from `pos`, never a neighbour of `pos`) gains 1.
    /// - Placements: a window of `L` cells through a cell and `pos` lies within `L - 1`
    ///   of both, along a row or a column, so only those cells can lose placements; the
    ///   lattice holds one of them in each direction, none when `pos` is on the lattice.
    ///   They are counted again (a few reads each).
    fn blocked(&mut self, scan: &Scan<'_>, pos: Position) {
        let bay = self.bay;
        let Bay { rows, cols } = bay; // row and column arithmetic below
        self.keys.set(bay.index(pos), 0);
        let state = |p: Position| scan.state(p);
        let is_water = |p: Position| state(p).is_water();
        let sides: u8 =
            Direction::ORTHOGONAL.iter().map(|&d| bay.step(pos, d).map_or(1, |w| u8::from(is_water(w)))).sum();
        let water = is_water(pos);
        for d in Direction::ORTHOGONAL {
            let Some(u) = bay.step(pos, d) else { continue };
            self.shift(u, |k| k.saturating_sub(sides));
            if water && state(u) == CellState::Unknown {
                for d2 in Direction::ORTHOGONAL {
                    match bay.step(u, d2) {
                        Some(q) if q != pos => self.shift(q, |k| k.saturating_add(1)),
                        _ => {}
                    }
                }
            }
        }
        let l = self.spacing.max(1);
        if l == 1 {
            return; // one placement through every unknown cell, whatever its row
        }
        let (r, c) = (pos.row, pos.col);
        let base = (r + c) % l;
        // Cells at +d along the row or column are on the lattice when d = offset - base
        // (mod l), cells at -d when d = base - offset (mod l); d = l is out of reach.
        let ahead = (self.offset + l - base) % l;
        let behind = (base + l - self.offset) % l;
        let mut near = [None; 4];
        if ahead > 0 {
            near[0] = (c + ahead < cols).then(|| Position::new(r, c + ahead));
            near[1] = (r + ahead < rows).then(|| Position::new(r + ahead, c));
        }
        if behind > 0 {
            near[2] = c.checked_sub(behind).map(|x| Position::new(r, x));
            near[3] = r.checked_sub(behind).map(|y| Position::new(y, c));
        }
        for q in near.into_iter().flatten() {
            let i = bay.index(q);
            let key = self.keys.rank(i);
            if key > 0 {
                let n = self.placements(scan, q) as u8;
                // The score part (`key % 18`, already up to date) stays.
                self.keys.set(i, if n == 0 { 0 } else { n * 18 + key % 18 });
            }
        }
    }

    /// Changes the key of `pos` by `f` if it is above 0 (an unknown lattice cell with
    /// placements); a key at 0 stays 0.
    fn shift(&mut self, pos: Position, f: impl Fn(u8) -> u8) {
        let i = self.bay.index(pos);
        let key = self.keys.rank(i);
        if key > 0 {
            self.keys.set(i, f(key));
        }
    }

    fn eliminate(&mut self, scan: &mut Scan<'_>, pos: Position) {
        if scan.eliminate(pos) {
            self.blocked(scan, pos);
        }
    }

    /// The best cell to extend `run`, or `None` when no ship that may be afloat can
    /// extend it (the run is then a finished ship).
    fn target(&self, scan: &Scan<'_>, run: &[Position]) -> Option<Position> {
        let bay = self.bay;
        let (first, last) = (*run.first()?, *run.last()?);
        let horizontal = run.len() < 2 || first.row == last.row;
        let vertical = run.len() < 2 || first.col == last.col;
        let mut best: Option<(usize, Position)> = None;
        let dirs = [
            (Direction::N, vertical),
            (Direction::E, horizontal),
            (Direction::S, vertical),
            (Direction::W, horizontal),
        ];
        for (dir, allowed) in dirs {
            if !allowed {
                continue;
            }
            let end = if matches!(dir, Direction::N | Direction::W) { first } else { last };
            let Some(cand) = bay.step(end, dir) else { continue };
            if scan.state(cand) != CellState::Unknown {
                continue;
            }
            // Placements of a possible size through the run and `cand`, along this axis.
            let (back, fwd) = match dir {
                Direction::N | Direction::S => (Direction::N, Direction::S),
                _ => (Direction::W, Direction::E),
            };
            let (lo, hi) = if matches!(dir, Direction::N | Direction::W) { (cand, last) } else { (first, cand) };
            let before = free_run(scan, lo, back, MAX_SHIP);
            let after = free_run(scan, hi, fwd, MAX_SHIP);
            let span = run.len() + 1;
            let mut n = 0;
            for size in span..=MAX_SHIP {
                if self.may_be(size) {
                    // Starts from `size - span` cells before `lo` to none, within the room.
                    let extra = size - span;
                    n += (0..=extra).filter(|&b| b <= before && extra - b <= after).count();
                }
            }
            if n > 0 && best.is_none_or(|(m, _)| n > m) {
                best = Some((n, cand));
            }
        }
        best.map(|(_, p)| p)
    }

    /// Closes the first open run: eliminates its surroundings and drops its size.
    fn finish_run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        self.finish(scan, 0)
    }

    /// Closes the open run `k`: eliminates its surroundings and drops its size.
    fn finish(&mut self, scan: &mut Scan<'_>, k: usize) -> Result<(), ScanError> {
        if k >= self.runs.len() {
            return Ok(());
        }
        let run = self.runs.remove(k);
        let bay = self.bay;
        // The run's halo (its own cells, hits, are not open: eliminating them is a no-op).
        for &p in &run {
            for n in bay.around(p) {
                self.eliminate(scan, n);
            }
        }
        self.remove_size(run.len());
        self.relay(scan)
    }

    /// Records a hit at `pos`: eliminates its diagonals and extends (or starts) a run.
    fn hit(&mut self, scan: &mut Scan<'_>, pos: Position) {
        let bay = self.bay;
        for d in bay.diagonals(pos) {
            self.eliminate(scan, d);
        }
        // The hit joins every run it touches (two runs with a gap between merge).
        let mut merged = vec![pos];
        let mut k = 0;
        while k < self.runs.len() {
            if self.runs.get(k).is_some_and(|run| run.iter().any(|q| q.touches(pos))) {
                merged.extend(self.runs.remove(k));
            } else {
                k += 1;
            }
        }
        merged.sort();
        self.runs.push(merged);
    }

    /// The next hunting cell, laying smaller lattices when this one runs dry.
    fn hunt(&mut self, scan: &Scan<'_>) -> Result<Option<Position>, ScanError> {
        loop {
            if let Some((_, i)) = self.keys.best() {
                return Ok(Some(self.bay.position(i)));
            }
            // No lattice cell may hold an L ship: no such ship is left unfound.
            if self.spacing <= 1 {
                return Ok(None);
            }
            self.cap = self.spacing - 1;
            self.relay(scan)?;
        }
    }
}

impl ScanStrategy for Parity {
    fn name(&self) -> &'static str {
        "parity"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        if scan.is_done() {
            // No ship cell to find (a bay without ships): no lattice to lay.
            return Ok(());
        }
        self.reset(scan)?;
        if self.touch {
            return self.run_touching(scan);
        }
        let cells = self.bay.cells();
        while !scan.is_done() {
            if scan.record().scans() >= cells {
                return Err(scan.exhausted());
            }
            let mut choice = None;
            while let Some(run) = self.runs.first() {
                match self.target(scan, run) {
                    Some(p) => {
                        choice = Some((p, Source::Target));
                        break;
                    }
                    None => self.finish_run(scan)?,
                }
            }
            let (pos, source) = match choice {
                Some(c) => c,
                None => match self.hunt(scan)? {
                    Some(p) => (p, Source::Hunt),
                    None => return Err(scan.exhausted()),
                },
            };
            let answer = scan.probe(pos, source)?;
            self.blocked(scan, pos);
            if answer.is_hit() {
                self.hit(scan, pos);
            }
            if let Answer::Sunk(_) = answer {
                // The run holding the cell is a whole ship.
                if let Some(k) = self.runs.iter().position(|run| run.contains(&pos)) {
                    self.finish(scan, k)?;
                }
            }
            scan.end_step();
        }
        Ok(())
    }
}

impl Parity {
    /// The game when ships may touch (see the module notes).
    fn run_touching(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let cells = self.bay.cells();
        let rules = scan.rules().clone();
        let fleet = scan.fleet().cloned();
        while !scan.is_done() {
            if scan.record().scans() >= cells {
                return Err(scan.exhausted());
            }
            let (pos, source) = match self.target_touching(scan) {
                Some(p) => (p, Source::Target),
                None => match self.hunt(scan)? {
                    Some(p) => (p, Source::Hunt),
                    None => return Err(scan.exhausted()),
                },
            };
            let answer = scan.probe(pos, source)?;
            self.blocked(scan, pos);
            if answer.is_hit() {
                self.live.push(pos);
            }
            if let Answer::Sunk(kind) = answer {
                let record = scan.record();
                let sunk = self.afloat.sink(pos, kind, &rules, fleet.as_ref(), |p| record.state(p) == CellState::Hit);
                if let Some((_, ship)) = sunk {
                    self.live.retain(|p| !ship.cells().any(|c| c == *p));
                    self.remove_size(ship.size());
                    self.relay(scan)?;
                }
            }
            scan.end_step();
        }
        Ok(())
    }

    /// The best unknown N, E, S, W neighbour of a live hit: the most placements of an
    /// afloat size along its axis through it and the line of live hits it extends.
    /// Hits with no such neighbour left are dropped from the live list.
    fn target_touching(&mut self, scan: &Scan<'_>) -> Option<Position> {
        let bay = self.bay;
        let is_live = |p: Position, live: &[Position]| live.contains(&p);
        let mut best: Option<(usize, Position)> = None;
        let mut done = Vec::new();
        for &h in &self.live {
            let mut any = false;
            for dir in Direction::ORTHOGONAL {
                let Some(cand) = bay.step(h, dir) else { continue };
                if scan.state(cand) != CellState::Unknown {
                    continue;
                }
                any = true;
                // The line of live hits through h, away from the candidate.
                let back = match dir {
                    Direction::N => Direction::S,
                    Direction::S => Direction::N,
                    Direction::E => Direction::W,
                    _ => Direction::E,
                };
                let mut run = 1;
                let mut p = h;
                while let Some(q) = bay.step(p, back).filter(|&q| is_live(q, &self.live)) {
                    run += 1;
                    p = q;
                }
                let behind = free_run(scan, p, back, MAX_SHIP);
                let ahead = free_run(scan, cand, dir, MAX_SHIP);
                let span = run + 1;
                let mut n = 0;
                for size in span..=MAX_SHIP {
                    if self.may_be(size) {
                        let extra = size - span;
                        n += (0..=extra).filter(|&b| b <= behind && extra - b <= ahead).count();
                    }
                }
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, cand));
                }
            }
            if !any {
                done.push(h);
            }
        }
        self.live.retain(|p| !done.contains(p));
        best.map(|(_, p)| p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;
    use crate::game::placement::{random_board, Placer, STANDARD_FLEET};
    use crate::game::position::Orientation;
    use crate::game::rng::Rng;
    use crate::game::ship::Ship;
    use crate::scan::referee::Referee;
    use crate::strategy::solve;
    use std::cmp::Reverse;

    fn check(board: &Board) -> usize {
        let record = solve(&mut Parity::default(), &mut Referee::new(board)).unwrap();
        crate::strategy::testing::assert_finished(board, &record);
        record.scans()
    }

    #[test]
    fn finds_every_ship_on_random_boards() {
        let mut rng = Rng::new(21);
        for _ in 0..400 {
            let rows = 1 + rng.below(12) as usize;
            let cols = 1 + rng.below(12) as usize;
            check(&random_board(rows, cols, &mut rng).unwrap());
        }
    }

    #[test]
    fn beats_smart_on_the_benchmark() {
        let mut placer = Placer::new(10, 10);
        let mut total = 0;
        for i in 0..300 {
            let ships = placer.place_fleet(&STANDARD_FLEET, &mut Rng::for_stream(2021, i)).unwrap();
            total += check(&Board::new(10, 10, ships).unwrap());
        }
        let mean = total as f64 / 300.0;
        assert!(mean < 60.0, "parity mean {mean}");
    }

    #[test]
    fn a_closed_run_is_finished_and_its_surroundings_eliminated() {
        // A lone 3-ship across the middle of a 5x5 bay: after it is found (and closed),
        // every cell around it is eliminated.
        let board = Board::new(5, 5, vec![Ship::new(Position::new(2, 1), 3, Orientation::East)]).unwrap();
        let record = solve(&mut Parity::default(), &mut Referee::new(&board)).unwrap();
        for p in [Position::new(1, 2), Position::new(3, 2), Position::new(1, 0), Position::new(3, 4)] {
            assert!(record.state(p).is_blocked(), "{p}");
        }
    }

    #[test]
    fn hunting_picks_the_best_key_as_a_full_scan_would() {
        // Hunt only (no targeting), checking every pick against a plain scan of all keys.
        let mut rng = Rng::new(8);
        for _ in 0..40 {
            let board = random_board(2 + rng.below(14) as usize, 2 + rng.below(14) as usize, &mut rng).unwrap();
            let mut sonar = Referee::new(&board);
            let mut obs = crate::scan::observer::Silent;
            let mut scan = Scan::new(&mut sonar, &mut obs);
            let mut parity = Parity::default();
            parity.reset(&scan).unwrap();
            while let Some(pos) = parity.hunt(&scan).unwrap() {
                let cells = parity.bay.cells();
                let plain = (0..cells)
                    .map(|i| (parity.key_of(&scan, parity.bay.position(i)), Reverse(i)))
                    .max()
                    .map(|(_, Reverse(i))| parity.bay.position(i));
                assert_eq!(Some(pos), plain);
                let hit = scan.probe(pos, Source::Hunt).unwrap().is_hit();
                parity.blocked(&scan, pos);
                if hit {
                    parity.hit(&mut scan, pos);
                }
            }
        }
    }

    /// Every key as [`Parity::key_of`] gives it from scratch, beside the kept ones.
    fn assert_keys_fresh(parity: &Parity, scan: &Scan<'_>, what: &str) {
        for i in 0..parity.bay.cells() {
            let plain = rank(parity.key_of(scan, parity.bay.position(i)));
            assert_eq!(parity.keys.rank(i), plain, "{what}: cell {i}");
        }
    }

    #[test]
    fn incremental_keys_match_a_full_recompute() {
        // Every lattice (spacing 1 to 5, every offset) on random small boards: the keys
        // filled a row at a time, then kept by `blocked` through random probes and
        // eliminations, equal `key_of` on every cell after every step.
        let mut rng = Rng::new(29);
        for round in 0..120 {
            let (rows, cols) = (1 + rng.below(11) as usize, 1 + rng.below(11) as usize);
            let board = random_board(rows, cols, &mut rng).unwrap();
            let l = 1 + round % MAX_SHIP;
            let offset = rng.below(l as u64) as usize;
            let mut sonar = Referee::new(&board);
            let mut obs = crate::scan::observer::Silent;
            let mut scan = Scan::new(&mut sonar, &mut obs);
            // Some cells known before the keys are filled.
            for _ in 0..rng.below((rows * cols) as u64 / 2 + 1) {
                let p = Position::from_index(rng.below((rows * cols) as u64) as usize, cols);
                if scan.state(p) == CellState::Unknown {
                    scan.probe(p, Source::Hunt).unwrap();
                }
            }
            let mut parity = Parity { bay: Bay::new(rows, cols), spacing: l, offset, ..Parity::default() };
            parity.fill_keys(&scan).unwrap();
            assert_keys_fresh(&parity, &scan, &format!("{rows}x{cols} l {l} offset {offset} filled"));
            for step in 0..rows * cols {
                let p = Position::from_index(rng.below((rows * cols) as u64) as usize, cols);
                if scan.state(p) != CellState::Unknown {
                    continue;
                }
                if rng.below(3) == 0 {
                    scan.eliminate(p);
                } else {
                    scan.probe(p, Source::Hunt).unwrap();
                }
                parity.blocked(&scan, p);
                assert_keys_fresh(&parity, &scan, &format!("{rows}x{cols} l {l} offset {offset} step {step} at {p}"));
            }
        }
    }

    #[test]
    fn finds_every_ship_under_other_rules() {
        use crate::game::rules::Rules;
        for name in ["classic", "russian"] {
            for sunk in [crate::game::rules::Sunk::None, crate::game::rules::Sunk::Yes, crate::game::rules::Sunk::Named]
            {
                let rules = Rules::preset(name).unwrap().with_sunk(sunk);
                let mut total = 0;
                for board in crate::strategy::testing::game_boards(&rules, 10, 10, 6, 100) {
                    total += check(&board);
                }
                // Well below random's ~96 (classic) and linear's.
                assert!(total < 100 * 80, "{name} {sunk:?}: mean {}", total as f64 / 100.0);
            }
        }
    }

    #[test]
    fn ranks_order_as_the_keys() {
        // Every key a cell can have (placements 0..=10, score 1..=17, or (0, 0)), sorted
        // by the pair, has ranks in the same order, and (0, 0) alone ranks 0.
        let mut keys: Vec<Key> = vec![(0, 0)];
        keys.extend((1..=10).flat_map(|n| (1..=17).map(move |s| (n, s))));
        keys.sort();
        for pair in keys.windows(2) {
            assert!(rank(pair[0]) < rank(pair[1]), "{pair:?}");
        }
        assert_eq!(rank((0, 0)), 0);
    }

    #[test]
    fn lattice_need_counts_the_cells_placements_finds() {
        let mut rng = crate::game::rng::Rng::new(4);
        for (rows, cols) in [(1, 1), (1, 9), (8, 1), (6, 7), (10, 10), (13, 9)] {
            let board = crate::game::placement::random_board(rows, cols, &mut rng).unwrap();
            let mut sonar = Referee::new(&board);
            let mut obs = crate::scan::observer::Silent;
            let mut scan = Scan::new(&mut sonar, &mut obs);
            for step in 0..rows * cols {
                let p = Position::from_index(rng.below((rows * cols) as u64) as usize, cols);
                if scan.state(p) == CellState::Unknown {
                    if step % 3 == 0 {
                        scan.eliminate(p);
                    } else {
                        scan.probe(p, Source::Hunt).unwrap();
                    }
                }
                for l in 1..=MAX_SHIP {
                    let parity = Parity { spacing: l, bay: Bay::new(rows, cols), ..Parity::default() };
                    let mut plain = vec![0usize; l];
                    for q in Bay::new(rows, cols).positions() {
                        if parity.placements(&scan, q) > 0 {
                            plain[(q.row + q.col) % l] += 1;
                        }
                    }
                    assert_eq!(lattice_need(&scan, l).unwrap(), plain, "{rows}x{cols}, l = {l}, step {step}");
                }
            }
        }
    }

    #[test]
    fn neighbour_score_counts_water_and_edges() {
        let board = Board::new(3, 3, vec![]).unwrap();
        let mut sonar = Referee::new(&board);
        let mut obs = crate::scan::observer::Silent;
        let mut scan = Scan::new(&mut sonar, &mut obs);
        // Centre of an empty 3x3: each of its 4 unknown neighbours has one edge side.
        assert_eq!(neighbour_score(&scan, Position::new(1, 1)), 4);
        scan.probe(Position::new(0, 0), Source::Hunt).unwrap();
        // (0,1) now has the edge and the miss (0,0); (1,0) too.
        assert_eq!(neighbour_score(&scan, Position::new(1, 1)), 6);
    }
}
