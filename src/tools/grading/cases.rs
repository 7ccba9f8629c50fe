//! The test cases of the grading kit: the statement's six samples, named edge cases
//! (one per board and strategy), random cases (seed and index), and a user's own
//! `.in`/`.out` pairs. Every case has a stable name that rebuilds it ([`named`]):
//! `sample-02-prob`, `edge-1x1-smart`, `random-2021-17-linear`, `user-NAME`. The
//! expected output of a built-in case is this program's own judge output, computed in
//! process.

use super::instance::{Instance, InstanceError};
use crate::game::bay::Bay;
use crate::game::cellset::CellSet;
use crate::game::position::{Orientation, Position};
use crate::game::rng::Rng;
use crate::game::ship::{Ship, MAX_SHIP};
use crate::limits::{CASES_DEPTH, CASES_FILE_BYTES, CASES_PAIRS};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where a case comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// One of the statement's six samples.
    Sample,
    /// A named edge case.
    Edge,
    /// A random case, from a seed and an index.
    Random,
    /// A user's `.in`/`.out` pair.
    User,
}

/// One test case: its name, input and expected output.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// Its stable name (see the module notes).
    pub name: String,
    /// Where it comes from.
    pub origin: Origin,
    /// The strategy its input names (`?` when a user's input names none).
    pub strategy: String,
    /// The input bytes.
    pub input: Vec<u8>,
    /// The expected output bytes.
    pub expected: Vec<u8>,
    /// The input as data when it is a valid input whose expected output is this
    /// program's (then it can be shrunk).
    pub instance: Option<Instance>,
    /// True for a large case (`--large`): it runs under the large time limit.
    pub large: bool,
}

/// Why cases could not be made or read: each names the case, file or folder.
#[derive(Debug)]
pub enum CaseError {
    /// A case whose input is not valid: its name, and why.
    Invalid {
        /// The case's name.
        case: String,
        /// Why the input is not valid.
        why: InstanceError,
    },
    /// A file or folder that cannot be read.
    Unreadable {
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// More than [`CASES_PAIRS`] inputs under the folder.
    TooMany {
        /// The folder searched.
        dir: PathBuf,
    },
    /// An input with neither `.out` nor `.ans` beside it.
    NoOutput {
        /// The input file.
        input: PathBuf,
    },
    /// A case file that is not a regular file (a FIFO, a device, ...).
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is (`a FIFO`, `a device`, ...).
        what: &'static str,
        /// Reached through a link.
        link: bool,
    },
    /// A file that was regular when looked at, and not once opened.
    Swapped {
        /// The file.
        path: PathBuf,
    },
    /// A file over [`CASES_FILE_BYTES`].
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// A folder without `problem.yaml`.
    NotPackage {
        /// The folder.
        dir: PathBuf,
    },
    /// A package without its `data` folder.
    NoData {
        /// The package's folder.
        dir: PathBuf,
    },
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::Invalid { case, why } => write!(f, "case {case}: {why}"),
            CaseError::Unreadable { path, source } => write!(f, "cannot read `{}`: {source}", path.display()),
            CaseError::TooMany { dir } => write!(f, "more than {CASES_PAIRS} inputs under `{}`", dir.display()),
            CaseError::NoOutput { input } => write!(f, "`{}` has no `.out` (or `.ans`) beside it", input.display()),
            CaseError::NotRegular { path, what, link } => write!(
                f,
                "`{}` is {what}{}, not a regular file: a case is read from regular files only",
                path.display(),
                if *link { " (through a link)" } else { "" }
            ),
            CaseError::Swapped { path } => write!(f, "`{}` is not a regular file", path.display()),
            CaseError::TooLarge { path } => write!(f, "`{}` is larger than {CASES_FILE_BYTES} bytes", path.display()),
            CaseError::NotPackage { dir } => {
                write!(f, "`{}` is not a problem package: it has no problem.yaml", dir.display())
            }
            CaseError::NoData { dir } => write!(f, "`{}` has no data folder", dir.display()),
        }
    }
}

impl std::error::Error for CaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CaseError::Invalid { why, .. } => Some(why),
            CaseError::Unreadable { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Case {
    /// A case made from an instance, its expected output computed by the judge.
    /// Pre: none. Post: `Err` when the instance is not a valid input.
    pub(crate) fn from_instance(name: String, origin: Origin, instance: Instance) -> Result<Case, CaseError> {
        let expected = match instance.expected() {
            Ok(expected) => expected,
            Err(why) => return Err(CaseError::Invalid { case: name, why }),
        };
        Ok(Case {
            name,
            origin,
            strategy: instance.strategy.clone(),
            input: instance.text().into_bytes(),
            expected: expected.into_bytes(),
            large: instance.rows * instance.cols > BIG_SIDE * BIG_SIDE,
            instance: Some(instance),
        })
    }
}

/// The statement's six samples: name suffix, input, expected output.
const SAMPLES: [(&str, &str, &str); 6] = [
    ("00-linear", include_str!("../../../samples/00-linear.in"), include_str!("../../../samples/00-linear.out")),
    ("01-smart", include_str!("../../../samples/01-smart.in"), include_str!("../../../samples/01-smart.out")),
    ("02-prob", include_str!("../../../samples/02-prob.in"), include_str!("../../../samples/02-prob.out")),
    ("03-linear", include_str!("../../../samples/03-linear.in"), include_str!("../../../samples/03-linear.out")),
    ("04-smart", include_str!("../../../samples/04-smart.in"), include_str!("../../../samples/04-smart.out")),
    ("05-prob", include_str!("../../../samples/05-prob.in"), include_str!("../../../samples/05-prob.out")),
];

/// A ship of a table: row, column, size, `E` or `S`.
type ShipRow = (usize, usize, usize, char);

/// The named edge boards: name, rows, columns, ships. The large board is made by
/// [`large_board`].
const EDGES: [(&str, usize, usize, &[ShipRow]); 16] = [
    ("empty-1x1", 1, 1, &[]),
    ("empty", 5, 6, &[]),
    ("1x1", 1, 1, &[(0, 0, 1, 'E')]),
    ("1xN", 1, 13, &[(0, 0, 2, 'E'), (0, 3, 1, 'E'), (0, 5, 3, 'E'), (0, 9, 4, 'E')]),
    ("Nx1", 13, 1, &[(0, 0, 2, 'S'), (3, 0, 1, 'S'), (5, 0, 3, 'S'), (9, 0, 4, 'S')]),
    ("full-row", 1, 5, &[(0, 0, 5, 'E')]),
    ("full-column", 5, 1, &[(0, 0, 5, 'S')]),
    ("corners", 6, 7, &[(0, 0, 1, 'E'), (0, 6, 1, 'E'), (5, 0, 1, 'E'), (5, 6, 1, 'E')]),
    ("corner-lines", 8, 8, &[(0, 0, 4, 'E'), (0, 7, 4, 'S'), (7, 4, 4, 'E'), (4, 0, 4, 'S')]),
    ("edges", 9, 9, &[(0, 3, 3, 'E'), (3, 0, 3, 'S'), (8, 3, 3, 'E'), (3, 8, 3, 'S')]),
    (
        "rows-of-fives",
        5,
        17,
        &[
            (0, 0, 5, 'E'),
            (0, 6, 5, 'E'),
            (0, 12, 5, 'E'),
            (2, 0, 5, 'E'),
            (2, 6, 5, 'E'),
            (2, 12, 5, 'E'),
            (4, 0, 5, 'E'),
            (4, 6, 5, 'E'),
            (4, 12, 5, 'E'),
        ],
    ),
    (
        "columns-of-fives",
        17,
        5,
        &[
            (0, 0, 5, 'S'),
            (6, 0, 5, 'S'),
            (12, 0, 5, 'S'),
            (0, 2, 5, 'S'),
            (6, 2, 5, 'S'),
            (12, 2, 5, 'S'),
            (0, 4, 5, 'S'),
            (6, 4, 5, 'S'),
            (12, 4, 5, 'S'),
        ],
    ),
    (
        "all-ones",
        7,
        7,
        &[
            (0, 0, 1, 'E'),
            (0, 2, 1, 'E'),
            (0, 4, 1, 'E'),
            (0, 6, 1, 'E'),
            (2, 0, 1, 'E'),
            (2, 2, 1, 'E'),
            (2, 4, 1, 'E'),
            (2, 6, 1, 'E'),
            (4, 0, 1, 'E'),
            (4, 2, 1, 'E'),
            (4, 4, 1, 'E'),
            (4, 6, 1, 'E'),
            (6, 0, 1, 'E'),
            (6, 2, 1, 'E'),
            (6, 4, 1, 'E'),
            (6, 6, 1, 'E'),
        ],
    ),
    (
        "packed",
        9,
        10,
        &[
            (0, 0, 5, 'E'),
            (0, 6, 4, 'E'),
            (2, 0, 3, 'E'),
            (2, 4, 3, 'E'),
            (2, 8, 2, 'E'),
            (4, 0, 2, 'E'),
            (4, 3, 2, 'E'),
            (4, 6, 2, 'E'),
            (4, 9, 1, 'E'),
            (6, 0, 1, 'E'),
            (6, 2, 1, 'E'),
            (6, 4, 1, 'E'),
            (6, 6, 1, 'E'),
            (6, 8, 1, 'E'),
            (8, 0, 4, 'E'),
            (8, 5, 5, 'E'),
        ],
    ),
    (
        "packed-vertical",
        10,
        9,
        &[
            (0, 0, 5, 'S'),
            (6, 0, 4, 'S'),
            (0, 2, 3, 'S'),
            (4, 2, 3, 'S'),
            (8, 2, 2, 'S'),
            (0, 4, 2, 'S'),
            (3, 4, 2, 'S'),
            (6, 4, 2, 'S'),
            (9, 4, 1, 'S'),
            (0, 6, 1, 'S'),
            (2, 6, 1, 'S'),
            (4, 6, 1, 'S'),
            (6, 6, 1, 'S'),
            (8, 6, 1, 'S'),
            (0, 8, 4, 'S'),
            (5, 8, 5, 'S'),
        ],
    ),
    (
        "distance-2",
        5,
        11,
        &[(0, 0, 5, 'S'), (0, 2, 5, 'S'), (0, 4, 5, 'S'), (0, 6, 5, 'S'), (0, 8, 5, 'S'), (0, 10, 5, 'S')],
    ),
];

/// Name of the big edge board, the largest of the default cases.
const BIG: &str = "big-30x30";

/// Side of the big edge board: three times the side of the statement's largest
/// example (10x10), large enough that a program printing its board at every scan
/// passes the output limit, small enough that the statement's algorithms written
/// literally (the likelihood matrix recomputed before every read) take a fraction of
/// a second.
const BIG_SIDE: usize = 30;

/// Name of the large edge board (only with `--large`).
const LARGE: &str = "large-300x300";

/// Side of the large edge board.
const LARGE_SIDE: usize = 300;

/// The names of the default edge boards, in order.
pub(crate) fn edge_names() -> Vec<&'static str> {
    EDGES.iter().map(|e| e.0).chain(std::iter::once(BIG)).collect()
}

/// The edge board called `board`, played by `strategy`.
/// Pre: none. Post: `None` for an unknown board.
fn edge_instance(board: &str, strategy: &str) -> Option<Instance> {
    if board == LARGE {
        return Some(large_board(strategy));
    }
    if board == BIG {
        let ships = place(BIG_SIDE, BIG_SIDE, 60, &mut Rng::new(30));
        return Some(Instance { strategy: strategy.to_string(), rows: BIG_SIDE, cols: BIG_SIDE, ships });
    }
    let (_, rows, cols, ships) = EDGES.iter().find(|e| e.0 == board)?;
    Some(Instance::from_table(strategy, *rows, *cols, ships))
}

/// The 300x300 board: about 4,000 ships drawn from a fixed seed (about 13% of the
/// cells), to catch programs that are too slow.
fn large_board(strategy: &str) -> Instance {
    let mut rng = Rng::new(300);
    let ships = place(LARGE_SIDE, LARGE_SIDE, 4000, &mut rng);
    Instance { strategy: strategy.to_string(), rows: LARGE_SIDE, cols: LARGE_SIDE, ships }
}

/// Draws up to `wanted` ships of random sizes (1 to 5, at most the board's longer side)
/// on a `rows` x `cols` board: each is tried at up to 30 random places and left out if
/// none is free (not on or next to another ship).
/// Pre: `rows, cols >= 1`. Post: the ships form a valid board.
fn place(rows: usize, cols: usize, wanted: u64, rng: &mut Rng) -> Vec<Ship> {
    let bay = Bay::new(rows, cols);
    let mut blocked = CellSet::new(bay.cells());
    let mut ships = Vec::new();
    let longest = MAX_SHIP.min(rows.max(cols)) as u64;
    for _ in 0..wanted {
        let size = 1 + rng.below(longest) as usize;
        for _ in 0..30 {
            let south = if size > cols {
                true
            } else if size > rows {
                false
            } else {
                rng.below(2) == 0
            };
            let (h, w) = if south { (size, 1) } else { (1, size) };
            let r = rng.below((rows + 1 - h) as u64) as usize;
            let c = rng.below((cols + 1 - w) as u64) as usize;
            let orientation = if south { Orientation::South } else { Orientation::East };
            let ship = Ship::new(Position::new(r, c), size, orientation);
            if ship.cells().any(|p| !bay.contains(p) || blocked.contains(bay.index(p))) {
                continue;
            }
            bay.forbid(&mut blocked, ship.cells(), 1);
            ships.push(ship);
            break;
        }
    }
    ships
}

/// Largest side of a random board: twice the side of the statement's largest example.
pub(crate) const RANDOM_SIDE: u64 = 20;

/// Random case `index` of `seed`, played by `strategy`: boards of 1 to 6 cells a side
/// (25%), up to 12 (40%) or up to 20 (35%), a tenth of them a single row and a tenth a
/// single column; 1 to a quarter of the cells' worth of ships (at most 20), each of a
/// random size (1 to 5, at most the board's longer side) at a random free place; at
/// least one ship on every board.
/// Pre: none. Post: deterministic in (`seed`, `index`, `strategy`); a valid input with
/// at least one ship.
pub(crate) fn random_instance(seed: u64, index: u64, strategy: &str) -> Instance {
    let mut rng = Rng::for_stream(seed, index);
    let span = match rng.below(100) {
        0..=24 => 6,
        25..=64 => 12,
        _ => RANDOM_SIDE,
    };
    let mut rows = 1 + rng.below(span) as usize;
    let mut cols = 1 + rng.below(span) as usize;
    match rng.below(10) {
        0 => rows = 1,
        1 => cols = 1,
        _ => {}
    }
    let most = (rows * cols / 4).clamp(1, 20) as u64;
    let wanted = 1 + rng.below(most);
    let mut ships = place(rows, cols, wanted, &mut rng);
    if ships.is_empty() {
        // Always room for one cell.
        let r = rng.below(rows as u64) as usize;
        let c = rng.below(cols as u64) as usize;
        ships.push(Ship::new(Position::new(r, c), 1, Orientation::East));
    }
    Instance { strategy: strategy.to_string(), rows, cols, ships }
}

/// The statement's samples whose strategy is in `strategies`.
/// Pre: none. Post: in the statement's order.
pub(crate) fn samples(strategies: &[String]) -> Vec<Case> {
    SAMPLES
        .iter()
        .filter_map(|(suffix, input, output)| {
            let strategy = suffix.split('-').nth(1).unwrap_or_default();
            strategies.iter().any(|s| s == strategy).then(|| sample(suffix, input, output))
        })
        .collect()
}

/// One sample as a case.
fn sample(suffix: &str, input: &str, output: &str) -> Case {
    let instance = Instance::parse(input.as_bytes());
    Case {
        name: format!("sample-{suffix}"),
        origin: Origin::Sample,
        strategy: suffix.split('-').nth(1).unwrap_or_default().to_string(),
        input: input.as_bytes().to_vec(),
        expected: output.as_bytes().to_vec(),
        instance,
        large: false,
    }
}

/// The large edge cases (`--large`): the 300x300 board played by each strategy.
/// Pre: every strategy is a known name. Post: in the order given; each `large`.
pub(crate) fn large_edges(strategies: &[String]) -> Result<Vec<Case>, CaseError> {
    strategies.iter().map(|s| Case::from_instance(format!("edge-{LARGE}-{s}"), Origin::Edge, large_board(s))).collect()
}

/// Every default edge case: each board, played by each strategy.
/// Pre: every strategy is a known name. Post: boards in order, strategies in the
/// order given; `Err` only if a built-in board were invalid.
pub(crate) fn edges(strategies: &[String]) -> Result<Vec<Case>, CaseError> {
    let mut out = Vec::new();
    for board in edge_names() {
        for s in strategies {
            if let Some(inst) = edge_instance(board, s) {
                out.push(Case::from_instance(format!("edge-{board}-{s}"), Origin::Edge, inst)?);
            }
        }
    }
    Ok(out)
}

/// `count` random cases of `seed`; case `i` is played by strategy `i mod` the number
/// of strategies.
/// Pre: `strategies` is not empty and holds known names. Post: named
/// `random-SEED-INDEX-STRATEGY`, in index order.
pub(crate) fn random(seed: u64, count: u64, strategies: &[String]) -> Result<Vec<Case>, CaseError> {
    let mut out = Vec::new();
    for i in 0..count {
        let Some(s) = strategies.get((i % strategies.len().max(1) as u64) as usize) else { break };
        out.push(random_case(seed, i, s)?);
    }
    Ok(out)
}

/// Random case `index` of `seed` played by `strategy`.
fn random_case(seed: u64, index: u64, strategy: &str) -> Result<Case, CaseError> {
    Case::from_instance(
        format!("random-{seed}-{index}-{strategy}"),
        Origin::Random,
        random_instance(seed, index, strategy),
    )
}

/// The built-in case called `name` (a sample, an edge case or a random case), rebuilt
/// from its name alone.
/// Pre: none. Post: `None` when no built-in case has that name.
pub(crate) fn named(name: &str) -> Option<Case> {
    if let Some(rest) = name.strip_prefix("sample-") {
        let (suffix, input, output) = SAMPLES.iter().find(|s| s.0 == rest)?;
        return Some(sample(suffix, input, output));
    }
    if let Some(rest) = name.strip_prefix("edge-") {
        let (board, strategy) = rest.rsplit_once('-')?;
        crate::strategy::NAMES.contains(&strategy).then_some(())?;
        let inst = edge_instance(board, strategy)?;
        return Case::from_instance(name.to_string(), Origin::Edge, inst).ok();
    }
    let rest = name.strip_prefix("random-")?;
    let mut parts = rest.splitn(3, '-');
    let seed: u64 = parts.next()?.parse().ok()?;
    let index: u64 = parts.next()?.parse().ok()?;
    let strategy = parts.next()?;
    crate::strategy::NAMES.contains(&strategy).then_some(())?;
    random_case(seed, index, strategy).ok()
}

/// Every `.in` file under `dir` (folders searched in name order, at most
/// [`CASES_DEPTH`] deep), as paths.
fn inputs_under(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) -> Result<(), CaseError> {
    let unreadable = |source| CaseError::Unreadable { path: dir.to_path_buf(), source };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        entries.push(entry.map_err(unreadable)?.path());
    }
    entries.sort();
    for path in entries {
        if path.is_dir() && depth < CASES_DEPTH {
            inputs_under(&path, depth + 1, out)?;
        } else if path.extension().is_some_and(|x| x == "in") && !path.is_dir() {
            regular(&path)?;
            if out.len() >= CASES_PAIRS {
                return Err(CaseError::TooMany { dir: dir.to_path_buf() });
            }
            out.push(path);
        }
    }
    Ok(())
}

/// The `.in`/`.out` pairs under `dir` (`.in`/`.ans` pairs too, as the Kattis layout
/// has them; subfolders searched), in path order, each named `user-` and its path
/// below `dir` without the extension, `/` made `-` (`user-secret-001-x`). A pair whose
/// input is valid and whose expected output is this program's own can be shrunk.
/// Pre: none. Post: `Err` names the directory or file that cannot be read, an `.in`
/// with neither `.out` nor `.ans`, or a file over 64 MiB.
pub(crate) fn user(dir: &Path) -> Result<Vec<Case>, CaseError> {
    let mut inputs = Vec::new();
    inputs_under(dir, 0, &mut inputs)?;
    let mut out = Vec::new();
    for input_path in inputs {
        // The first of `.out` and `.ans` that exists (as a link too): it must be a file.
        let beside = ["out", "ans"].iter().map(|x| input_path.with_extension(x));
        let Some(output_path) = beside.clone().find(|p| p.symlink_metadata().is_ok()) else {
            return Err(CaseError::NoOutput { input: input_path });
        };
        regular(&output_path)?;
        let input = read_limited(&input_path)?;
        let expected = read_limited(&output_path)?;
        let relative = input_path.strip_prefix(dir).unwrap_or(&input_path).with_extension("");
        let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let strategy = input
            .split(|b| b.is_ascii_whitespace())
            .find(|t| !t.is_empty())
            .map(|t| crate::render::words::shown(t.get(..20).unwrap_or(t)))
            .unwrap_or_else(|| "?".into());
        let instance = Instance::parse(&input).filter(|i| i.expected().is_ok_and(|e| e.as_bytes() == expected));
        let name = format!("user-{}", parts.join("-"));
        out.push(Case { name, origin: Origin::User, strategy, input, expected, instance, large: false });
    }
    Ok(out)
}

/// The cases of the problem package `dir` (Kattis format): the `.in`/`.ans` pairs
/// under its `data/` (`data/sample`, `data/secret` and their groups), named as
/// [`user`] names them below `data/` (`user-sample-001-x`, `user-secret-002-y`).
/// Pre: none. Post: `Err` when `dir` has no `problem.yaml` or no `data/` folder, or as
/// [`user`] fails.
pub(crate) fn package(dir: &Path) -> Result<Vec<Case>, CaseError> {
    if !dir.join("problem.yaml").is_file() {
        return Err(CaseError::NotPackage { dir: dir.to_path_buf() });
    }
    let data = dir.join("data");
    if !data.is_dir() {
        return Err(CaseError::NoData { dir: dir.to_path_buf() });
    }
    user(&data)
}

/// `O_NONBLOCK` (Linux): opening a FIFO with it returns at once instead of waiting for
/// a writer.
const OPEN_NONBLOCK: i32 = 0o4000;

/// Refuses a case file that is not a regular file once its links are followed (a FIFO
/// would block the reader, a device such as `/dev/zero` never ends), naming it and
/// what it is.
/// Pre: none. Post: `Ok` only for a regular file (or a link to one).
fn regular(path: &Path) -> Result<(), CaseError> {
    let meta = std::fs::metadata(path).map_err(|source| CaseError::Unreadable { path: path.to_path_buf(), source })?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    use std::os::unix::fs::FileTypeExt;
    let what = if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "not a file"
    };
    let link = path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink());
    Err(CaseError::NotRegular { path: path.to_path_buf(), what, link })
}

/// A file's bytes, refused over [`CASES_FILE_BYTES`] or when it is not a regular file.
/// Opened without blocking and checked on the opened file, so that a file swapped for
/// a FIFO after [`regular`] looked is refused too, never waited on.
fn read_limited(path: &Path) -> Result<Vec<u8>, CaseError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let unreadable = |source| CaseError::Unreadable { path: path.to_path_buf(), source };
    let file = std::fs::OpenOptions::new().read(true).custom_flags(OPEN_NONBLOCK).open(path).map_err(unreadable)?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        regular(path)?;
        return Err(CaseError::Swapped { path: path.to_path_buf() });
    }
    let mut bytes = Vec::new();
    file.take(CASES_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > CASES_FILE_BYTES {
        return Err(CaseError::TooLarge { path: path.to_path_buf() });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<String> {
        vec!["linear".into(), "smart".into(), "prob".into()]
    }

    #[test]
    fn every_edge_board_is_valid_and_named_cases_rebuild() {
        let edges = edges(&all()).unwrap();
        assert_eq!(edges.len(), 3 * (EDGES.len() + 1));
        for case in &edges {
            let again = named(&case.name).unwrap();
            assert_eq!((again.input.clone(), again.expected.clone()), (case.input.clone(), case.expected.clone()));
        }
        assert!(edges.iter().all(|c| !c.large));
        let big = edges.iter().find(|c| c.name == "edge-big-30x30-prob").unwrap();
        assert!(big.instance.as_ref().unwrap().ships.len() >= 40);
        let large = large_edges(&all()).unwrap();
        assert_eq!(large.len(), 3);
        let large = large.into_iter().find(|c| c.name == "edge-large-300x300-prob").unwrap();
        assert!(large.large);
        assert_eq!(named(&large.name).unwrap().input, large.input);
        let inst = large.instance.as_ref().unwrap();
        assert!(inst.ships.len() > 3000, "{}", inst.ships.len());
        let cells: usize = inst.ships.iter().map(|s| s.size()).sum();
        assert!((9_000..16_000).contains(&cells), "{cells}");
    }

    #[test]
    fn samples_are_the_statements_and_follow_the_strategies() {
        let s = samples(&all());
        assert_eq!(s.len(), 6);
        assert_eq!(s[2].name, "sample-02-prob");
        for case in &s {
            let inst = case.instance.as_ref().unwrap();
            assert_eq!(inst.expected().unwrap().as_bytes(), case.expected.as_slice());
        }
        let only = samples(&["smart".to_string()]);
        assert_eq!(only.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["sample-01-smart", "sample-04-smart"]);
        assert!(named("sample-04-smart").is_some() && named("sample-09-prob").is_none());
    }

    #[test]
    fn random_cases_are_reproducible_from_their_names() {
        let cases = random(2021, 60, &all()).unwrap();
        assert_eq!(cases.len(), 60);
        assert_eq!(cases[4].name, "random-2021-4-smart");
        for case in &cases {
            let again = named(&case.name).unwrap();
            assert_eq!(again.input, case.input);
        }
        let other = random(7, 60, &all()).unwrap();
        assert_ne!(other[10].input, cases[10].input);
        // Some boards are one row or one column; every one has a ship.
        let insts: Vec<&Instance> = cases.iter().filter_map(|c| c.instance.as_ref()).collect();
        assert!(insts.iter().any(|i| i.rows == 1) && insts.iter().any(|i| i.cols == 1));
        assert!(insts.iter().all(|i| !i.ships.is_empty()));
        assert!(named("random-x-1-prob").is_none() && named("random-1-1-fast").is_none());
        assert!(named("edge-nope-prob").is_none() && named("nothing").is_none());
    }

    /// What a board has that some branch of a strategy needs, for the feature table.
    fn features(i: &Instance) -> Vec<&'static str> {
        let mut f = Vec::new();
        let cells = |s: &Ship| s.cells().collect::<Vec<_>>();
        let any = |p: &dyn Fn(&Ship) -> bool| i.ships.iter().any(p);
        let on = |p: &dyn Fn(Position) -> bool| i.ships.iter().any(|s| cells(s).into_iter().any(p));
        let push = |f: &mut Vec<&'static str>, yes: bool, name: &'static str| {
            if yes {
                f.push(name);
            }
        };
        push(&mut f, i.ships.is_empty(), "no ship");
        push(&mut f, i.ships.len() == 1, "1 ship");
        push(&mut f, (2..=4).contains(&i.ships.len()), "2-4 ships");
        push(&mut f, i.ships.len() >= 5, "5+ ships");
        push(&mut f, i.rows == 1 || i.cols == 1, "one row or column");
        push(&mut f, i.rows.max(i.cols) > 12, "side over 12");
        push(&mut f, any(&|s| s.size() == 1), "a 1-cell ship");
        push(&mut f, any(&|s| s.size() == 5), "a 5-cell ship");
        push(&mut f, any(&|s| s.size() >= 2 && s.orientation() == Some(Orientation::East)), "an E ship (2+)");
        push(&mut f, any(&|s| s.size() >= 2 && s.orientation() == Some(Orientation::South)), "an S ship (2+)");
        push(&mut f, on(&|p| p.row == 0), "a ship on the top row");
        push(&mut f, on(&|p| p.row + 1 == i.rows), "a ship on the bottom row");
        push(&mut f, on(&|p| p.col == 0), "a ship on the left column");
        push(&mut f, on(&|p| p.col + 1 == i.cols), "a ship on the right column");
        push(&mut f, on(&|p| p.row + 1 == i.rows && p.col + 1 == i.cols), "a ship in the last cell");
        push(&mut f, on(&|p| p.row > 0 && p.col > 0 && p.row + 1 < i.rows && p.col + 1 < i.cols), "a ship inside");
        let ends = i.ships.iter().filter_map(|s| s.end()).filter(|e| e.row + 1 < i.rows && e.col + 1 < i.cols);
        push(&mut f, ends.count() > 0, "a ship end with E and S inside");
        f
    }

    /// The default cases (samples, edge, 300 random) counted by feature, per strategy:
    /// every feature is reached by every strategy's cases, at most 5% have no ship.
    /// `cargo test --release --lib cases::tests::features_are_spread -- --nocapture`
    /// prints the table report/grading.md shows.
    #[test]
    fn features_are_spread_over_the_default_cases() {
        let mut cases = samples(&all());
        cases.extend(edges(&all()).unwrap());
        cases.extend(random(crate::strategy::DEFAULT_SEED, 300, &all()).unwrap());
        assert!(cases.len() <= 400, "{}", cases.len());
        let names = [
            "no ship",
            "1 ship",
            "2-4 ships",
            "5+ ships",
            "one row or column",
            "side over 12",
            "a 1-cell ship",
            "a 5-cell ship",
            "an E ship (2+)",
            "an S ship (2+)",
            "a ship on the top row",
            "a ship on the bottom row",
            "a ship on the left column",
            "a ship on the right column",
            "a ship in the last cell",
            "a ship inside",
            "a ship end with E and S inside",
        ];
        let mut table: Vec<(&str, [usize; 3])> = names.iter().map(|n| (*n, [0; 3])).collect();
        for c in &cases {
            let k = ["linear", "smart", "prob"].iter().position(|s| *s == c.strategy).unwrap();
            for f in features(c.instance.as_ref().unwrap()) {
                table.iter_mut().find(|(n, _)| *n == f).unwrap().1[k] += 1;
            }
        }
        println!("{} cases\n| feature | linear | smart | prob |\n|---|---|---|---|", cases.len());
        for (name, n) in &table {
            println!("| {name} | {} | {} | {} |", n[0], n[1], n[2]);
        }
        for (name, n) in &table {
            if *name == "no ship" {
                assert!(n.iter().sum::<usize>() * 20 <= cases.len(), "{n:?}");
            } else {
                assert!(n.iter().all(|&x| x >= 10), "{name}: {n:?}");
            }
        }
    }

    #[test]
    fn user_cases_pair_in_and_out() {
        let dir = std::env::temp_dir().join(format!("grading-user-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("b.in"), "prob\n5 6 2\n1 1 4 E 3 3 2 S\n").unwrap();
        std::fs::write(dir.join("b.out"), include_str!("../../../samples/02-prob.out")).unwrap();
        std::fs::write(dir.join("a.in"), "hello").unwrap();
        std::fs::write(dir.join("a.out"), "world").unwrap();
        let cases = user(&dir).unwrap();
        assert_eq!(cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["user-a", "user-b"]);
        assert!(cases[0].instance.is_none() && cases[1].instance.is_some());
        assert_eq!((cases[0].strategy.as_str(), cases[1].strategy.as_str()), ("hello", "prob"));
        std::fs::create_dir_all(dir.join("secret")).unwrap();
        std::fs::write(dir.join("secret/d.in"), "hello").unwrap();
        std::fs::write(dir.join("secret/d.ans"), "world").unwrap();
        assert_eq!(user(&dir).unwrap().last().unwrap().name, "user-secret-d");
        std::fs::write(dir.join("c.in"), "x").unwrap();
        assert!(user(&dir).unwrap_err().to_string().contains("c.in` has no `.out`"));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(user(&dir).unwrap_err().to_string().contains("cannot read"));
    }
}
