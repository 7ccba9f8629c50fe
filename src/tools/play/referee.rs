//! `referee`'s side of the play protocol: the bay it hides (a judge input's, or the
//! rules' fleet placed at random) and the answers to a player's probes, over a stream
//! each way.

use crate::game::board::Board;
use crate::game::input::{self, InputError};
use crate::game::placement::PlacementError;
use crate::limits::LINE_BYTES;
use crate::scan::record::ScanRecord;
use crate::scan::referee::{RefereeGame, Refused};
use crate::strategy;
use crate::tools::opponent::DrawError;
use crate::tools::play::protocol::{parse_probe, read_line, reply_line, Header};
use crate::tools::settings::{RuleSettings, SettingError};
use std::fmt;
use std::io::{self, BufRead, Write};

/// Where the referee's bay comes from.
#[derive(Debug)]
pub(crate) enum BaySource {
    /// `--board FILE`: the ships of a judge input.
    File(String),
    /// The rules' fleet placed at random on a bay of this size from this seed.
    Random {
        /// Rows and columns.
        bay: (usize, usize),
        /// `--seed`.
        seed: u64,
    },
}

/// Why the referee could not hide its bay or answer to the end.
#[derive(Debug)]
pub enum RefereeRunError {
    /// The bay's file cannot be opened.
    Open {
        /// The path.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// The bay's file is a directory.
    Directory(String),
    /// The bay's file is no judge input.
    Input {
        /// The path.
        path: String,
        /// Why.
        error: InputError,
    },
    /// The input's ships are not the fleet given.
    Setting(SettingError),
    /// The fleet cannot be placed.
    Placement(PlacementError),
    /// The board refused the ships placed.
    Draw(DrawError),
    /// Reading or writing the protocol's lines failed.
    Io(io::Error),
    /// The player's input ended before every ship cell was found.
    Stopped {
        /// The probes made.
        probes: usize,
        /// The ship cells found.
        hits: usize,
        /// The ship cells in all.
        ship_cells: usize,
    },
    /// A line longer than the protocol's limit.
    LongLine,
    /// A line that is not `? r c`.
    Probe(String),
    /// A probe outside the bay or asked twice.
    Refused(Refused),
}

impl RefereeRunError {
    /// True when the error is a write to a reader that went away (`| head`).
    /// Pre: none. Post: no change.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RefereeRunError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for RefereeRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::render::words::count;
        match self {
            RefereeRunError::Open { path, error } => write!(f, "--board: cannot read `{path}`: {error}"),
            RefereeRunError::Directory(path) => write!(f, "--board: cannot read `{path}`: it is a directory"),
            RefereeRunError::Input { path, error } => write!(f, "--board: {path}: {error}"),
            RefereeRunError::Setting(e) => write!(f, "{e}"),
            RefereeRunError::Placement(e) => write!(f, "{e}"),
            RefereeRunError::Draw(e) => write!(f, "{e}"),
            RefereeRunError::Io(e) => write!(f, "{e}"),
            RefereeRunError::Stopped { probes, hits, ship_cells } => write!(
                f,
                "the player stopped after {}, with {hits} of {} found",
                count(*probes, "probe"),
                count(*ship_cells, "ship cell")
            ),
            RefereeRunError::LongLine => write!(f, "a line longer than {LINE_BYTES} bytes"),
            RefereeRunError::Probe(e) => write!(f, "{e}"),
            RefereeRunError::Refused(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RefereeRunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RefereeRunError::Open { error, .. } | RefereeRunError::Io(error) => Some(error),
            RefereeRunError::Input { error, .. } => Some(error),
            RefereeRunError::Setting(e) => Some(e),
            RefereeRunError::Placement(e) => Some(e),
            RefereeRunError::Draw(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for RefereeRunError {
    fn from(e: io::Error) -> RefereeRunError {
        RefereeRunError::Io(e)
    }
}

/// The bay: a judge input's (its fleet checked against the one `rules` give), or the
/// rules' fleet placed at random.
/// Pre: none. Post: `Err` for an unreadable input, or a fleet that does not fit.
pub(crate) fn board(rules: &RuleSettings, bay: &BaySource) -> Result<Board, RefereeRunError> {
    match bay {
        BaySource::File(path) => {
            // Read as a stream, as the judge reads its input: memory grows with the board
            // and its ships, never with the bytes read (`--board /dev/zero` stops at the
            // first word longer than a judge input's).
            let file =
                std::fs::File::open(path).map_err(|error| RefereeRunError::Open { path: path.clone(), error })?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                return Err(RefereeRunError::Directory(path.clone()));
            }
            let mut reader = io::BufReader::with_capacity(1 << 16, file);
            let parsed = input::read_under(&mut reader, &strategy::NAMES, &rules.rules)
                .map_err(|error| RefereeRunError::Input { path: path.clone(), error })?;
            rules.check_fleet(parsed.board.rules().fleet()).map_err(RefereeRunError::Setting)?;
            Ok(parsed.board)
        }
        BaySource::Random { bay, seed } => crate::tools::opponent::random_board(&rules.rules, *bay, *seed, false)
            .map_err(|e| match e {
                DrawError::Placement(e) => RefereeRunError::Placement(e),
                e => RefereeRunError::Draw(e),
            }),
    }
}

/// Plays the referee's side for `board`: the header, then one answer per probe read
/// from `input`, and `done N` after the last ship cell is found.
/// Pre: none. Post: on `Ok`, `output` holds the header, one answer per probe and
/// `done N`; on `Err`, the last line written is the last answer.
pub(crate) fn answer(board: &Board, input: &mut dyn BufRead, output: &mut dyn Write) -> Result<(), RefereeRunError> {
    let header = Header { rows: board.rows(), cols: board.cols(), rules: board.rules().clone() };
    output.write_all(header.lines().as_bytes())?;
    let mut record = ScanRecord::new(board.rows(), board.cols());
    let mut game = RefereeGame::new(board, &mut record);
    loop {
        if game.is_over() {
            writeln!(output, "done {}", game.probes())?;
            output.flush()?;
            return Ok(());
        }
        output.flush()?;
        let line = match read_line(input)? {
            None => {
                let ship_cells = board.ship_cells();
                return Err(RefereeRunError::Stopped { probes: game.probes(), hits: game.hits(), ship_cells });
            }
            Some((_, true)) => return Err(RefereeRunError::LongLine),
            Some((line, false)) => line,
        };
        let pos = parse_probe(&line).map_err(RefereeRunError::Probe)?;
        let answer = game.probe(pos).map_err(RefereeRunError::Refused)?;
        writeln!(output, "{}", reply_line(answer, board.rules().fleet()))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        let words = crate::tools::settings::RuleWords { fleet: Some("2"), ..Default::default() };
        let rules = RuleSettings::from_words(words).unwrap();
        board_of(&rules, &BaySource::Random { bay: (3, 3), seed: 1 }).unwrap()
    }

    fn board_of(rules: &RuleSettings, bay: &BaySource) -> Result<Board, RefereeRunError> {
        super::board(rules, bay)
    }

    #[test]
    fn answers_each_probe_and_says_when_the_player_stops() {
        let board = board();
        let mut out = Vec::new();
        let e = answer(&board, &mut "? 0 0\n".as_bytes(), &mut out).unwrap_err();
        assert!(matches!(e, RefereeRunError::Stopped { probes: 1, .. }), "{e:?}");
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("bay 3 3\n") && (text.ends_with("hit\n") || text.ends_with("miss\n")), "{text}");
        let e = answer(&board, &mut "? 9 9\n".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, RefereeRunError::Refused(_)), "{e:?}");
        let e = answer(&board, &mut "probe\n".as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(matches!(e, RefereeRunError::Probe(_)), "{e:?}");
    }

    #[test]
    fn a_bay_file_that_cannot_be_read_is_named() {
        let rules = RuleSettings::from_words(Default::default()).unwrap();
        let e = board_of(&rules, &BaySource::File("/no/such/file".into())).unwrap_err().to_string();
        assert!(e.starts_with("--board: cannot read `/no/such/file`: "), "{e}");
        let dir = std::env::temp_dir().to_string_lossy().into_owned();
        let e = board_of(&rules, &BaySource::File(dir.clone())).unwrap_err().to_string();
        assert_eq!(e, format!("--board: cannot read `{dir}`: it is a directory"));
    }
}
