//! Limits: every cap on what the program reads, the boards each part plays, and the work
//! and time it spends, one constant per concept, each with its reason. A limit passed is
//! an error that names it (report/reliability.md, "Limits", lists them for users); memory
//! itself is asked for fallibly ([`memory`]).

pub mod memory;

use std::time::Duration;

// What is read: every input is read within these, whatever its bytes.

/// The longest token read, in bytes: no value of a judge input needs more, and a
/// longer one is refused as soon as it is seen (reading stops there).
pub const TOKEN_BYTES: usize = 1000;

/// The longest line of the play protocol read (probes, answers, header), in bytes;
/// longer lines are refused (read to their end, up to [`DROPPED_BYTES`]).
pub const LINE_BYTES: usize = 1000;

/// How many bytes of a protocol line longer than [`LINE_BYTES`] are read and dropped, at
/// most, looking for its end: past them the line is given up as too long where it stands
/// (an endless line, `< /dev/zero`, costs a bounded time, not a hang).
pub const DROPPED_BYTES: usize = 1 << 20;

/// The lines of a fleet file a header may carry at most.
pub const HEADER_FLEET_LINES: usize = 10_000;

/// The most ships a fleet may have (fleet files, `--fleet`).
pub const SHIPS: usize = 1_000_000;

/// The most cells a shape's box may have (one bit each in a `u64`).
pub const SHAPE_BOX_CELLS: usize = 64;

/// The most bytes the JSON reader ([`crate::render::json::parse`]) reads: a `simulate`
/// report of the largest run is far smaller.
pub const JSON_BYTES: usize = 64 << 20;

/// The deepest nesting of arrays and objects the JSON reader accepts (its reading is
/// recursive: the stack stays small).
pub const JSON_DEPTH: usize = 64;

/// The longest HTTP response body `play --url` reads, in bytes.
pub const HTTP_BODY_BYTES: usize = 16 << 20;

/// The largest file of `check --cases` read, in bytes.
pub const CASES_FILE_BYTES: u64 = 64 << 20;

/// Deepest folder searched for pairs below the `--cases` directory.
pub const CASES_DEPTH: usize = 8;

/// The most input/output pairs `check --cases` reads.
pub const CASES_PAIRS: usize = 100_000;

/// The most bytes a fleet file may have (`--fleet-file`): a fleet of the most ships
/// ([`SHIPS`]) drawn one line each fits, and reading stays cheap.
pub const FLEET_FILE_BYTES: u64 = 1 << 20;

/// The longest name of a `simulate --bot` (it heads a column of the report).
pub const BOT_NAME_CHARS: usize = 32;

/// The largest board `trace` follows without `--limit`, in cells.
pub const TRACE_UNLIMITED_CELLS: usize = 10_000;

/// The most bytes a trace may write (1 GiB): a trace that could pass it is refused
/// before it starts, with the figure; the writer stops at it too (colour can add more
/// than the estimate counts).
pub const TRACE_OUTPUT_BYTES: u64 = 1 << 30;

// Boards: the largest each part plays (a board is rows x cols cells).

/// The largest board accepted, in cells (judge inputs, `generate`, `play`): the
/// memory budget is 8 bytes a cell.
pub const BOARD_CELLS: usize = 100_000_000;

/// The largest grid `advise` accepts, in cells (a game someone is advised on, drawn back in full).
pub const ADVISE_CELLS: usize = 1_000_000;

/// The largest bay `/api/advise` and `/api/trace` accept, in cells.
pub const SERVE_CELLS: usize = 2_500;

/// density's largest board: larger ones are refused ([`crate::strategy::too_large`]): the totals
/// and their tree take 16 bytes a cell, more than the 8 of the memory budget.
pub const DENSITY_CELLS: usize = 1 << 22;

/// The largest board (in cells) the posterior accepts (bayes, `advise --strategy
/// bayes`): its exact and sampled estimates grow faster than the board.
pub const POSTERIOR_CELLS: usize = 4096;

/// lookahead's largest board, in cells: each probe plays thousands of games of density,
/// which is fast on boards of at most 128 cells (its fast path, a 128-bit mask a
/// position); a 10x10 classic game takes about 16 seconds of CPU time even so.
pub const LOOKAHEAD_CELLS: usize = 128;

// Work and time: bounds on searches and on programs run, so that nothing hangs.

/// How many times the generator starts a stuck fleet again before giving up.
pub const PLACEMENT_RESTARTS: usize = 1000;

/// bayes: placements tried per sampled layout beyond which the posterior is not used (about
/// 25 times the statement's benchmark).
pub const BAYES_LAYOUT_WORK: usize = 40_000;

/// bayes: the posterior's cost in a game ([`crate::posterior::Estimator::work`] units: a 64-cell mask word
/// shifted and combined once) beyond which parity plays the rest. About a quarter of a
/// second here; 10x10 games stay under 1.5 million (2,000 games of each preset), 20x20
/// ones under 17 million, starwars ones under 9 million; the longest known input
/// (`1 4096 4` with four 5-cell ships spread out) needed 23 billion, 13 s, before.
pub const BAYES_GAME_WORK: u64 = 250_000_000;

/// Longest a build command may run: a safety net, not a time limit (builds are
/// untimed, as Mooshak's compile step is not part of any test's time).
pub const BUILD_TIME: Duration = Duration::from_secs(600);

/// The most games one `simulate` run plays (about a day of the fastest strategies on
/// two cores): a larger study is split into shards and merged.
pub const SIMULATE_GAMES: u64 = 10_000_000_000;
