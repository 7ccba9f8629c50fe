//! One run of a strategy against a sonar: it forwards probes, keeps the scan record,
//! counts the ship cells still to spot and tells the observer about every step.

pub mod answer;
pub mod check;
pub mod deduce;
pub mod observer;
pub mod record;
pub mod referee;
pub mod runs;
pub mod sonar;
pub mod state;

use crate::game::board::Board;
use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::{Rules, Sunk};
use crate::limits::memory::{OutOfMemory, Shortage};
use crate::scan::observer::{ListView, ScanObserver, ScoreView, Source};
use crate::scan::record::{CellState, ScanRecord};
use crate::scan::sonar::{Answer, ProbeError, Sonar};
use std::fmt;

/// Why a scan stopped before spotting every ship cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanError {
    /// The sonar could not answer.
    Probe(ProbeError),
    /// A strategy asked for a cell outside the board (a bug in the strategy).
    Outside(Position),
    /// A strategy asked for a cell already probed or eliminated (a bug in the strategy).
    Repeated(Position),
    /// Every open cell was used up with ship cells still missing: the answers broke the
    /// rules (only an interactive sonar can do that).
    Exhausted {
        /// Ship cells found.
        found: usize,
        /// Ship cells announced.
        expected: usize,
    },
    /// An answer contradicts the rules or earlier answers ([`check`]).
    Contradiction(crate::scan::sonar::Contradiction),
    /// The memory a strategy needs for this board could not be had.
    OutOfMemory(Shortage),
    /// The board is larger than the strategy plays (the message names the limit and
    /// the strategies that can play it: [`crate::strategy::too_large`]).
    TooLarge(String),
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScanError::Probe(e) => write!(f, "{e}"),
            ScanError::Outside(p) => write!(f, "internal: strategy probed {p}, outside the board"),
            ScanError::Repeated(p) => write!(f, "internal: strategy probed {p} twice"),
            ScanError::Exhausted { found, expected } => {
                write!(
                    f,
                    "contradiction: no cell is left to scan but only {found} of {} were found",
                    crate::render::words::count(*expected, "ship cell")
                )
            }
            ScanError::Contradiction(why) => write!(f, "contradiction: {why}"),
            ScanError::OutOfMemory(e) => write!(f, "{e}"),
            ScanError::TooLarge(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ScanError {}

impl From<ProbeError> for ScanError {
    fn from(e: ProbeError) -> ScanError {
        match e {
            ProbeError::Contradiction(c) => ScanError::Contradiction(c),
            e => ScanError::Probe(e),
        }
    }
}

/// The error for a probe of `pos` that `record` refuses (outside, or already known).
pub(crate) fn refused(record: &ScanRecord, pos: Position) -> ScanError {
    if pos.row >= record.rows() || pos.col >= record.cols() {
        ScanError::Outside(pos)
    } else {
        ScanError::Repeated(pos)
    }
}

/// Who answers the probes. A [`Board`] is asked directly (no virtual call per probe:
/// `simulate` plays hundreds of millions of probes); any other sonar through its trait.
enum Oracle<'a> {
    Board(&'a Board),
    Other(&'a mut dyn Sonar),
    /// A sonar that said it was a board and then did not (breaks `as_board`'s contract):
    /// every probe fails instead of panicking.
    Inconsistent(&'a dyn Sonar),
}

/// A scan in progress. Strategies probe and eliminate through it; they never see ships.
pub struct Scan<'a> {
    oracle: Oracle<'a>,
    /// `None` when the observer is [`crate::scan::observer::Silent`]: nothing to tell.
    observer: Option<&'a mut dyn ScanObserver>,
    record: ScanRecord,
    /// Ship cells of the bay (asked once: it never changes).
    ship_cells: usize,
    /// True when the rules announce sunk ships: the board's answers then depend on the
    /// record, and the record keeps the order of the hits.
    announce: bool,
    /// The quiet lane, chosen once when the scan starts: the board, when a board answers
    /// and nobody watches (every game `simulate` plays). A probe then needs no observer
    /// call and no check of the answer (a validated board cannot contradict the rules),
    /// and a sweep probes a whole run of water at once.
    quiet: Option<&'a Board>,
}

impl<'a> Scan<'a> {
    /// Starts a scan of `sonar`'s bay, reporting to `observer`.
    /// Pre: none. Post: nothing probed; `remaining() == sonar.ship_cells()`.
    pub fn new(sonar: &'a mut dyn Sonar, observer: &'a mut dyn ScanObserver) -> Scan<'a> {
        Scan::with_record(sonar, observer, ScanRecord::new(0, 0))
    }

    /// As [`Scan::new`], keeping its record in `record`'s memory (simulate reuses one
    /// record for every scan instead of allocating one per scan).
    /// Pre: none. Post: as `new(sonar, observer)`; what `record` held is forgotten.
    pub fn with_record(
        sonar: &'a mut dyn Sonar,
        observer: &'a mut dyn ScanObserver,
        mut record: ScanRecord,
    ) -> Scan<'a> {
        record.reset(sonar.rows(), sonar.cols());
        if sonar.rules().sunk() != Sunk::None {
            record.log_answers();
        }
        Scan::on(sonar, observer, record)
    }

    /// A scan of `sonar`'s bay reporting to `observer` whose record is `record` as it
    /// is (the one place a scan's lane is chosen).
    /// Pre: `record` is of `sonar`'s size and logs the answers when the rules announce
    /// sunk ships.
    fn on(sonar: &'a mut dyn Sonar, observer: &'a mut dyn ScanObserver, record: ScanRecord) -> Scan<'a> {
        let ship_cells = sonar.ship_cells();
        let announce = sonar.rules().sunk() != Sunk::None;
        let observer = if observer.is_silent() { None } else { Some(observer) };
        let oracle = if sonar.as_board().is_some() {
            let shared: &'a dyn Sonar = sonar;
            match shared.as_board() {
                Some(board) => Oracle::Board(board),
                None => Oracle::Inconsistent(shared),
            }
        } else {
            Oracle::Other(sonar)
        };
        let quiet = match (&oracle, &observer) {
            (Oracle::Board(board), None) => Some(*board),
            _ => None,
        };
        Scan { oracle, observer, record, ship_cells, announce, quiet }
    }

    /// A scan of `sonar`'s bay that goes on from what `record` knows (a rollout plays
    /// the rest of a game on a layout that agrees with the answers so far).
    /// Pre: `record` is of `sonar`'s size and every answer in it is the one `sonar`
    /// gives (with the order of the hits and sunk answers logged when the rules announce
    /// sunk ships). Post: `record()` is `record` and probes go on from it; a record of
    /// another size, or without the log the rules need, is dropped and the scan starts
    /// afresh, as [`Scan::new`].
    pub fn resume(sonar: &'a mut dyn Sonar, observer: &'a mut dyn ScanObserver, record: ScanRecord) -> Scan<'a> {
        let fits = (record.rows(), record.cols()) == (sonar.rows(), sonar.cols())
            && (record.answers().is_some() || sonar.rules().sunk() == Sunk::None);
        if fits {
            Scan::on(sonar, observer, record)
        } else {
            Scan::with_record(sonar, observer, record)
        }
    }

    /// Number of rows.
    /// Pre: none. Post: at least 1.
    pub fn rows(&self) -> usize {
        self.record.rows()
    }

    /// The bay being scanned.
    /// Pre: none. Post: `rows()` x `cols()`.
    pub(crate) fn bay(&self) -> crate::game::bay::Bay {
        self.record.bay()
    }

    /// Number of columns.
    /// Pre: none. Post: at least 1.
    pub fn cols(&self) -> usize {
        self.record.cols()
    }

    /// Total ship cells of the bay.
    /// Pre: none. Post: no change.
    pub fn ship_cells(&self) -> usize {
        self.ship_cells
    }

    /// The fleet, when the sonar knows it.
    /// Pre: none. Post: no change.
    pub fn fleet(&self) -> Option<&Fleet> {
        match &self.oracle {
            Oracle::Board(b) => Some(b.rules().fleet()),
            Oracle::Other(s) => s.fleet(),
            Oracle::Inconsistent(s) => s.fleet(),
        }
    }

    /// The rules the answers follow.
    /// Pre: none. Post: no change.
    pub fn rules(&self) -> &Rules {
        match &self.oracle {
            Oracle::Board(b) => b.rules(),
            Oracle::Other(s) => s.rules(),
            Oracle::Inconsistent(s) => s.rules(),
        }
    }

    /// Ship cells not spotted yet.
    /// Pre: none. Post: `ship_cells() - record().hits()`.
    pub fn remaining(&self) -> usize {
        self.ship_cells.saturating_sub(self.record.hits())
    }

    /// True once every ship cell is spotted.
    /// Pre: none. Post: `remaining() == 0`.
    pub fn is_done(&self) -> bool {
        self.record.hits() >= self.ship_cells
    }

    /// What is known so far.
    /// Pre: none. Post: no change.
    pub fn record(&self) -> &ScanRecord {
        &self.record
    }

    /// What is known of `pos` (outside cells read as eliminated).
    /// Pre: none. Post: no change.
    pub fn state(&self, pos: Position) -> CellState {
        self.record.state(pos)
    }

    /// Probes `pos`, records the answer and tells the observer.
    /// Pre: `pos` inside and unknown. Post: `Ok(answer)`; the cell is `Hit` or `Miss`,
    /// one more scan. Errors leave the record unchanged.
    #[inline]
    pub fn probe(&mut self, pos: Position, source: Source) -> Result<Answer, ScanError> {
        // The quiet lane, taken by every probe simulate plays: only the cell is checked.
        if let Some(board) = self.quiet {
            if let Some(i) = self.record.open_index(pos) {
                return Ok(crate::scan::referee::probe(board, i, &mut self.record));
            }
        }
        self.probe_watched(pos, source)
    }

    /// Probes the next unknown cells in row-major order from index `from`: on the quiet
    /// lane every one of them up to the first ship cell, else only the first (so that an
    /// observer sees one step per probe).
    /// Pre: none. Post: `Ok(Some((i, hit)))` for the last cell probed, every unknown
    /// cell from `from` to `i` probed, only `i` possibly a hit; `Ok(None)` when no
    /// unknown cell is left at or after `from`.
    pub fn sweep(&mut self, from: usize, source: Source) -> Result<Option<(usize, bool)>, ScanError> {
        if let Some(board) = self.quiet {
            let swept = self.record.sweep(from, board);
            if self.announce {
                if let Some((i, true)) = swept {
                    // The sweep recorded the hit; its answer (sunk or not) needs the
                    // record without it, which is the same but for this cell.
                    let answer = crate::scan::referee::answer(board, i, &self.record);
                    self.record.note_answer(i, answer);
                }
            }
            return Ok(swept);
        }
        let bay = self.bay();
        let Some(i) = (from..bay.cells()).find(|&i| self.record.state_at(i) == CellState::Unknown) else {
            return Ok(None);
        };
        let answer = self.probe(bay.position(i), source)?;
        Ok(Some((i, answer.is_hit())))
    }

    /// Every probe off the quiet lane: refuses cells outside or already known, asks the
    /// board or the sonar, refuses a sonar's answers that contradict the rules (a board's
    /// cannot: its ships were validated), and tells the observer. Kept out of line so
    /// that the quiet lane above stays small.
    #[inline(never)]
    fn probe_watched(&mut self, pos: Position, source: Source) -> Result<Answer, ScanError> {
        let Some(i) = self.record.open_index(pos) else {
            return Err(refused(&self.record, pos));
        };
        let answer = match &mut self.oracle {
            Oracle::Board(b) => crate::scan::referee::probe(b, i, &mut self.record),
            Oracle::Other(s) => {
                let answer = s.probe(pos)?;
                let search = s.layout_search();
                let announced =
                    check::Announced { rules: self.rules(), fleet: self.fleet(), ship_cells: self.ship_cells, search };
                check::answer(&self.record, announced, pos, answer).map_err(ScanError::Contradiction)?;
                self.record.answered(i, answer);
                answer
            }
            Oracle::Inconsistent(_) => {
                return Err(ScanError::Probe(ProbeError::Io("internal: the sonar stopped being a board".into())))
            }
        };
        if let Some(o) = self.observer.as_mut() {
            o.probed(pos, source, answer);
        }
        Ok(answer)
    }

    /// Marks `pos` as water without probing it, if it is still unknown.
    /// Pre: none. Post: returns true when the cell changed (the observer is told).
    pub fn eliminate(&mut self, pos: Position) -> bool {
        let changed = self.record.mark_eliminated(pos);
        if changed {
            if let Some(o) = self.observer.as_mut() {
                o.eliminated(pos);
            }
        }
        changed
    }

    /// Shows the strategy's list to the observer.
    /// Pre: none. Post: no change to the scan.
    pub fn show_list(&mut self, list: &dyn ListView) {
        if let Some(o) = self.observer.as_mut() {
            o.list_changed(list);
        }
    }

    /// True when the observer shows what the strategy weighs (the web page's Watch
    /// view; see [`ScanObserver::wants_weights`]).
    /// Pre: none. Post: no change.
    pub fn wants_weights(&self) -> bool {
        self.observer.as_ref().is_some_and(|o| o.wants_weights())
    }

    /// Shows what the strategy weighs on every cell (row-major): `weights` is called
    /// only when an observer watches.
    /// Pre: none. Post: no change to the scan.
    pub fn show_weights(&mut self, what: &'static str, weights: impl FnOnce() -> Vec<f64>) {
        if let Some(o) = self.observer.as_mut() {
            o.weights_read(what, &weights());
        }
    }

    /// Shows the likelihood matrix the strategy is about to read.
    /// Pre: none. Post: no change to the scan.
    pub fn show_likelihood(&mut self, matrix: &dyn ScoreView) {
        if let Some(o) = self.observer.as_mut() {
            o.likelihood_read(matrix);
        }
    }

    /// Ends the current step (one per probe).
    /// Pre: a probe was made since the last call. Post: the observer saw the record.
    #[inline]
    pub fn end_step(&mut self) {
        if let Some(o) = self.observer.as_mut() {
            o.step_done(&self.record);
        }
    }

    /// The error to return when a strategy has no cell left to probe.
    /// Pre: `!is_done()`. Post: `ScanError::Exhausted` with the counts.
    pub fn exhausted(&self) -> ScanError {
        ScanError::Exhausted { found: self.record.hits(), expected: self.ship_cells() }
    }

    /// The error for an allocation the system refused during this scan.
    /// Pre: none. Post: names this board's size.
    pub fn out_of_memory(&self, e: OutOfMemory) -> ScanError {
        ScanError::OutOfMemory(Shortage::of(self.rows(), self.cols(), e))
    }

    /// Ends the scan and hands back its record.
    /// Pre: none. Post: the record holds every probe and elimination made.
    pub fn into_record(self) -> ScanRecord {
        self.record
    }
}
