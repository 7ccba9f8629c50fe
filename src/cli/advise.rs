//! `advise`: reads a game in progress (a grid of `.`, `X`, `+`) and tells how likely
//! each cell is to hold a ship, which cell to probe next, and which cells are settled.

use super::args::{Command, Flag, Operands, Parsed};
use super::{read_input, CliError, Streams};
use crate::likelihood::Likelihood;
use crate::placement::{parse_fleet, Placer, STANDARD_FLEET};
use crate::position::Position;
use crate::posterior::{Estimator, Method, Posterior, PosteriorError, Settings};
use crate::record::CellState;
use crate::state::{self, Deduction, StateGrid};
use crate::strategy::DEFAULT_SEED;
use std::fmt::Write as _;

/// Layouts drawn when bayes must sample (one advice, not a game: it can afford many).
const SAMPLES: usize = 20_000;

const FLAGS: &[Flag] = &[
    Flag::value("--fleet", "LIST", "ship sizes, e.g. 5,4,3,3,2,2,1,1; every ship of the bay,\nfound or not"),
    Flag::value("--strategy", "NAME", "prob: the statement's likelihood scores (default without\n--fleet); bayes: the probability of a ship on each cell\ngiven the fleet (default with --fleet; fleet\n5,4,3,3,2,2,1,1 when none is given)"),
    Flag::value("--seed", "S", "seed of bayes's sampling when the layouts are too many\nto list").default("2021"),
];

/// `advise`'s command line.
pub const COMMAND: Command = Command {
    name: "advise",
    summary: "where to probe next in a game in progress",
    usage: &["advise [OPTIONS] [FILE]     (or standard input: < state.txt)"],
    groups: &[("OPTIONS", FLAGS)],
    operands: Operands::File,
    after: "\
INPUT
  The game so far (FILE or standard input), one line per row, one character per
  cell:
    .  unknown        X  water (a miss, or known water)        +  a hit
  All rows equally long; CRLF line ends and a final empty line are fine.

OUTPUT
  prob:  `likelihood (...)` and the statement's matrix: row score + column score
         over the cells not blocked, -1 for blocked cells (X, + and the diagonal
         neighbours of hits, which are water since ships never touch),
         right-aligned. suggest: a certain ship cell if any, else the unknown
         N/E/S/W neighbour of a hit with the highest score (prob's list), else
         the highest score; ties go to the first cell in row-major order.
  bayes: `ship probability (percent, ...)`: a percentage per cell (100 for hits,
  0 for
         water; cells neither certain show 1 to 99), exact when the layouts of
         the fleet that agree with the grid are few, estimated by sampling
         otherwise. suggest: the unknown cell most likely to be a ship.
  Then, for both, lines
    suggest: (r,c)                       or `suggest: none` when no cell is
    worth it certain water: (r,c) (r,c) ...       unknown cells that cannot hold
    a ship certain ship: (r,c) ...              unknown cells that must hold a
    ship
  (rows and columns from 0; `none` when empty). The rules used: diagonals of
  hits are water; a run of hits closed by water is a whole ship; a run as long
  as the longest ship not yet whole is whole too (its ends are water); with a
  fleet, once all its cells are hit everything else is water, and a run shorter
  than every ship left that can grow only one way grows there.

ERRORS (one `error: ` line on stderr, exit status 2, nothing on stdout)
  empty input, rows of different lengths, a character other than . X +, hits
  touching diagonally, a line of hits longer than 5 or than the longest ship,
  more hits than the fleet's ship cells, a whole ship the fleet has no room for,
  and any grid no layout of the fleet agrees with (bayes).
",
    extra: None,
};

/// The two ways of advising.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Prob,
    Bayes,
}

/// Runs `advise`.
/// Pre: none. Post: on `Ok`, stdout holds the matrix, the suggestion and the certain
/// cells (or the usage text); on `Err`, nothing was written.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let fleet = match flags.text("--fleet") {
        Some(text) => Some(parse_fleet(text).map_err(|e| CliError::Usage(format!("--fleet: {e}")))?),
        None => None,
    };
    let mode = match flags.choice("--strategy", &["prob", "bayes"])? {
        None if fleet.is_some() => Mode::Bayes,
        None | Some("prob") => Mode::Prob,
        Some(_) => Mode::Bayes,
    };
    let seed = flags.get_or("--seed", DEFAULT_SEED)?;
    let bytes = read_input(flags, io, "`spot-the-ships advise --help` for the format")?;
    let grid = state::parse(&bytes).map_err(|e| CliError::Invalid(e.to_string()))?;
    if let Some(sizes) = fleet.as_deref().or((mode == Mode::Bayes).then_some(&STANDARD_FLEET[..])) {
        Placer::new(grid.rows(), grid.cols()).check_fleet(sizes)?;
    }
    let report = match mode {
        Mode::Prob => prob_report(&grid, fleet.as_deref())?,
        Mode::Bayes => bayes_report(&grid, fleet.as_deref().unwrap_or(&STANDARD_FLEET), seed)?,
    };
    io.stdout.write_all(report.as_bytes())?;
    Ok(())
}

/// The rules' deductions, or the grid's inconsistency as a `CliError`.
fn deduce(grid: &StateGrid, fleet: Option<&[usize]>) -> Result<Deduction, CliError> {
    grid.deduce(fleet).map_err(|e| CliError::Invalid(e.to_string()))
}

/// Every cell of the grid, row-major.
fn positions(grid: &StateGrid) -> impl Iterator<Item = Position> {
    let cols = grid.cols();
    (0..grid.rows() * cols).map(move |i| Position::from_index(i, cols))
}

/// Writes `values` as a right-aligned matrix of `cols` columns.
fn write_matrix(out: &mut String, cols: usize, values: &[String]) {
    let width = values.iter().map(String::len).max().unwrap_or(1);
    for row in values.chunks(cols.max(1)) {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
}

/// The suggestion and certain-cell lines.
fn write_conclusions(out: &mut String, grid: &StateGrid, suggest: Option<(Position, String)>, d: &Deduction) {
    match suggest {
        Some((p, why)) => {
            let _ = writeln!(out, "suggest: {p}  ({why})");
        }
        None => out.push_str("suggest: none (no unknown cell can hold a ship)\n"),
    }
    let unknown = |p: &Position| grid.state(*p) == CellState::Unknown;
    let list = |flags: &[bool]| {
        let cells: Vec<String> = positions(grid)
            .filter(|p| unknown(p) && flags.get(p.index(grid.cols())).copied().unwrap_or(false))
            .map(|p| p.to_string())
            .collect();
        if cells.is_empty() {
            "none".to_string()
        } else {
            cells.join(" ")
        }
    };
    let _ = writeln!(out, "certain water: {}", list(&d.water));
    let _ = writeln!(out, "certain ship: {}", list(&d.ship));
}

/// prob's advice: the statement's matrix over the cells prob would have blocked.
fn prob_report(grid: &StateGrid, fleet: Option<&[usize]>) -> Result<String, CliError> {
    let d = deduce(grid, fleet)?;
    let (rows, cols) = (grid.rows(), grid.cols());
    let mut matrix = Likelihood::new(rows, cols);
    for (i, &b) in grid.blocked().iter().enumerate() {
        if b {
            matrix.block(Position::from_index(i, cols));
        }
    }
    let flag = |v: &[bool], p: Position| v.get(p.index(cols)).copied().unwrap_or(false);
    let open = |p: Position| grid.state(p) == CellState::Unknown && !flag(&d.water, p);
    // First the best certain ship cell, then the best neighbour of a hit, then the best.
    let best_of = |cells: &mut dyn Iterator<Item = Position>| {
        cells.filter(|&p| open(p)).fold(None, |best: Option<Position>, p| match best {
            Some(b) if matrix.score(b) >= matrix.score(p) => Some(b),
            _ => Some(p),
        })
    };
    let neighbours = positions(grid).filter(|&p| {
        p.orthogonals(rows, cols).any(|n| grid.state(n) == CellState::Hit) && grid.state(p) == CellState::Unknown
    });
    let suggest = if let Some(p) = best_of(&mut positions(grid).filter(|&p| flag(&d.ship, p))) {
        Some((p, format!("certainly a ship cell, score {}", matrix.score(p))))
    } else if let Some(p) = best_of(&mut neighbours.into_iter()) {
        Some((p, format!("next to a hit, score {}", matrix.score(p))))
    } else {
        best_of(&mut positions(grid)).map(|p| (p, format!("highest score, {}", matrix.score(p))))
    };
    let mut out = String::new();
    out.push_str("likelihood (prob: row score + column score; -1 = blocked):\n");
    let values: Vec<String> = positions(grid).map(|p| matrix.score(p).to_string()).collect();
    write_matrix(&mut out, cols, &values);
    write_conclusions(&mut out, grid, suggest, &d);
    Ok(out)
}

/// bayes's advice: the posterior probability of a ship on every cell.
fn bayes_report(grid: &StateGrid, fleet: &[usize], seed: u64) -> Result<String, CliError> {
    let mut d = deduce(grid, Some(fleet))?;
    let (rows, cols) = (grid.rows(), grid.cols());
    let settings = Settings { samples: SAMPLES, ..Settings::default() };
    let post: Posterior =
        Estimator::with_settings(seed, settings).estimate(rows, cols, grid.cells(), fleet).map_err(|e| {
            let list: Vec<String> = fleet.iter().map(usize::to_string).collect();
            CliError::Invalid(match e {
                PosteriorError::Contradiction(why) => {
                    format!("the grid contradicts the fleet {}: {why}", list.join(","))
                }
                PosteriorError::Intractable => {
                    format!("no layout of the fleet {} that agrees with the grid was found", list.join(","))
                }
                PosteriorError::TooLarge(_) => format!("bayes: {e}; --strategy prob has no such limit"),
                other => other.to_string(),
            })
        })?;
    // Both sources are sound: keep what either settles.
    for p in positions(grid) {
        let i = p.index(cols);
        if let Some(w) = d.water.get_mut(i) {
            *w |= post.is_certain_water(p);
        }
        if let Some(s) = d.ship.get_mut(i) {
            *s |= post.is_certain_ship(p);
        }
    }
    let flag = |v: &[bool], p: Position| v.get(p.index(cols)).copied().unwrap_or(false);
    let percent = |p: Position| -> u32 {
        if flag(&d.ship, p) {
            return 100;
        }
        if flag(&d.water, p) {
            return 0;
        }
        ((post.prob(p) * 100.0).round() as u32).clamp(1, 99)
    };
    let suggest = positions(grid)
        .filter(|&p| grid.state(p) == CellState::Unknown && !flag(&d.water, p))
        .fold(None, |best: Option<(Position, f64)>, p| {
            let q = if flag(&d.ship, p) { 1.0 } else { post.prob(p) };
            match best {
                Some((_, b)) if b >= q => best,
                _ => Some((p, q)),
            }
        })
        .map(|(p, q)| (p, format!("ship probability {:.1}%", q * 100.0)));
    let how = match post.method {
        Method::Exact => format!("exact over {} layout{}", post.layouts, if post.layouts == 1.0 { "" } else { "s" }),
        Method::Sampled => format!(
            "estimated from {} sampled layouts, effective sample size {:.0}",
            post.samples, post.effective_samples
        ),
    };
    let mut out = String::new();
    let sizes: Vec<String> = fleet.iter().map(usize::to_string).collect();
    let _ = writeln!(out, "ship probability (percent; bayes, fleet {}, {how}):", sizes.join(","));
    let values: Vec<String> = positions(grid).map(|p| percent(p).to_string()).collect();
    write_matrix(&mut out, cols, &values);
    write_conclusions(&mut out, grid, suggest, &d);
    Ok(out)
}
