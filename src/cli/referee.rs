//! `referee`: the other side of `play`. Hides a bay (generated from a seed, or the ships
//! of a judge input) and answers a player's probes over stdin and stdout.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, SEED};
use super::{CliError, Streams};
use crate::game::board::Board;
use crate::game::input;
use crate::limits::LINE_BYTES;
use crate::scan::record::ScanRecord;
use crate::scan::referee::RefereeGame;
use crate::strategy;
use crate::tools::opponent::DrawError;
use crate::tools::play::protocol::{parse_probe, read_line, reply_line, Header};

const FLAGS: &[Flag] = &[
    ROWS,
    COLS,
    SEED.with_help("the bay is the rules' fleet placed at random from S"),
    Flag::value("--board", "FILE", "instead: the bay of a judge input (its strategy line is\nignored)"),
];

/// `referee`'s command line.
pub const COMMAND: Command = Command {
    name: "referee",
    summary: "hide a bay and answer a player's probes",
    usage: &["referee [--rules NAME] [--rows R --cols C] [--seed S]", "referee [--rules NAME] --board FILE"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL (one line each way; stdout is flushed after every line)
  First the header:
    bay ROWS COLS
    fleet SIZES                 comma-separated, largest first
    names NAMES                 when the ships have names, in the same order
    rules touch=yes|no sunk=none|yes|named
  (a fleet of drawn ships: `fleet-file`, the fleet file's lines and `end`
  instead of the fleet and names lines; its rules line adds rotate=yes|no).
  Then the player writes `? r c` (row and column from 0) and the referee
  answers `hit`, `miss`, `sunk` or `sunk NAME` as the rules say. After the
  answer that finds the last ship cell it writes `done N` (N probes) and exits
  0 (`help protocol` has it all). play starts it for you:
    spot-the-ships play --referee 'spot-the-ships referee --rules classic'

ERRORS (one `error: ` line on stderr, exit status 2)
  a probe outside the bay or asked twice, a line that is not `? r c`, or the end
  of the player's input before every ship cell was found.
",
    extra: None,
};

/// Where `referee`'s bay comes from.
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

/// `referee`'s flags, read (`serve` builds its games with the same flags).
#[derive(Debug)]
pub(crate) struct RefereeConfig {
    /// The rule flags.
    pub rules: RuleFlags,
    /// The bay.
    pub bay: BaySource,
}

impl RefereeConfig {
    /// Reads `referee`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, or
    /// `--board` with `--rows`, `--cols` or `--seed`.
    pub(crate) fn read(p: &Parsed) -> Result<RefereeConfig, CliError> {
        let rules = RuleFlags::read(p)?;
        let bay = match p.text("--board") {
            Some(path) => {
                if p.has(ROWS.name) || p.has(COLS.name) || p.has(SEED.name) {
                    return Err(CliError::Usage(
                        "--board takes the bay from the file: no --rows, --cols or --seed".into(),
                    ));
                }
                BaySource::File(path.to_string())
            }
            None => {
                let bay = BayFlags::read(p)?.or_rules(&rules.rules)?;
                BaySource::Random { bay, seed: shared::seed(p)? }
            }
        };
        Ok(RefereeConfig { rules, bay })
    }

    /// The bay: a judge input's, or the rules' fleet placed at random.
    /// Pre: none. Post: `Err` for an unreadable input, or a fleet that does not fit.
    pub(crate) fn board(&self) -> Result<Board, CliError> {
        let rules = &self.rules.rules;
        let board = match &self.bay {
            BaySource::File(path) => {
                // Read as a stream, as the judge reads its input: memory grows with the board
                // and its ships, never with the bytes read (`--board /dev/zero` stops at the
                // first word longer than a judge input's).
                let file = std::fs::File::open(path)
                    .map_err(|e| CliError::Usage(format!("--board: cannot read `{path}`: {e}")))?;
                if file.metadata().is_ok_and(|m| m.is_dir()) {
                    return Err(CliError::Usage(format!("--board: cannot read `{path}`: it is a directory")));
                }
                let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
                let parsed = input::read_under(&mut reader, &strategy::NAMES, rules)
                    .map_err(|e| CliError::Invalid(format!("--board: {path}: {e}")))?;
                self.rules.check_fleet(parsed.board.rules().fleet())?;
                parsed.board
            }
            BaySource::Random { bay, seed } => crate::tools::opponent::random_board(rules, *bay, *seed, false)
                .map_err(|e| match e {
                    DrawError::Placement(e) => CliError::Placement(e),
                    DrawError::Board(e) => CliError::Invalid(e.to_string()),
                })?,
        };
        Ok(board)
    }
}

/// Runs `referee`.
/// Pre: none. Post: on `Ok`, stdout holds the header, one answer per probe and `done N`;
/// on `Err`, the last line written is the last answer.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let board = RefereeConfig::read(flags)?.board()?;
    referee(&board, io)
}

/// Plays the referee's side for `board`.
fn referee(board: &Board, io: &mut Streams<'_>) -> Result<(), CliError> {
    let header = Header { rows: board.rows(), cols: board.cols(), rules: board.rules().clone() };
    io.stdout.write_all(header.lines().as_bytes())?;
    let mut record = ScanRecord::new(board.rows(), board.cols());
    let mut game = RefereeGame::new(board, &mut record);
    loop {
        if game.is_over() {
            writeln!(io.stdout, "done {}", game.probes())?;
            io.stdout.flush()?;
            return Ok(());
        }
        io.stdout.flush()?;
        let line = match read_line(&mut *io.stdin)? {
            None => {
                return Err(CliError::Invalid(format!(
                    "the player stopped after {}, with {} of {} found",
                    crate::render::words::count(game.probes(), "probe"),
                    game.hits(),
                    crate::render::words::count(board.ship_cells(), "ship cell")
                )))
            }
            Some((_, true)) => return Err(CliError::Invalid(format!("a line longer than {LINE_BYTES} bytes"))),
            Some((line, false)) => line,
        };
        let pos = parse_probe(&line).map_err(CliError::Invalid)?;
        let answer = game.probe(pos).map_err(|refused| CliError::Invalid(refused.to_string()))?;
        writeln!(io.stdout, "{}", reply_line(answer, board.rules().fleet()))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = RefereeConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert!(matches!(c.bay, BaySource::Random { bay: (10, 10), seed: 2021 }));
        let c = RefereeConfig::read(&COMMAND.parse_words(&["--rows", "6", "--cols", "7", "--seed", "5"])).unwrap();
        assert!(matches!(c.bay, BaySource::Random { bay: (6, 7), seed: 5 }));
        let c = RefereeConfig::read(&COMMAND.parse_words(&["--board", "in.txt"])).unwrap();
        assert!(matches!(c.bay, BaySource::File(ref f) if f == "in.txt"));
        let e = |w: &[&str]| RefereeConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(
            e(&["--board", "in.txt", "--seed", "1"]),
            "--board takes the bay from the file: no --rows, --cols or --seed"
        );
        assert_eq!(e(&["--seed", "x"]), "--seed: expected a whole number, got `x`");
    }
}
