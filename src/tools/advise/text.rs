//! An advice as text for people: `advise`'s output (its JSON object is [`super::json`]'s).

use super::{Advice, Values};
use crate::game::position::Position;
use crate::posterior::{Method, Prior};
use std::fmt::Write as _;

/// The longest fleet description the bayes header shows (longer ones are summed up).
const FLEET_SHOWN: usize = 80;

/// How the advice is written.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// Cells named `B7`, the matrix labelled with row letters and column numbers.
    letters: bool,
}

impl Style {
    /// `p` as this style names it.
    fn name(self, p: Position) -> String {
        if self.letters {
            crate::render::coords::letters(p)
        } else {
            p.to_string()
        }
    }
}

impl Advice {
    /// The advice as text: a header, the matrix, the suggestion and the certain cells
    /// (`letters`: cells named `B7`, the matrix labelled with row letters and column
    /// numbers; else `(r,c)` from 0).
    /// Pre: none. Post: lines ending with `\n`.
    pub fn text(&self, letters: bool) -> String {
        text(self, Style { letters })
    }
}

/// [`Advice::text`].
fn text(advice: &Advice, style: Style) -> String {
    let mut out = String::new();
    let cols = advice.known.cols();
    match &advice.values {
        Values::Probabilities { values: v, estimate: e } => {
            let how = match e.method {
                Method::Exact => format!("exact over {} layout{}", e.layouts, if e.layouts == 1.0 { "" } else { "s" }),
                Method::Sampled => format!(
                    "estimated from {} sampled layouts, effective sample size {:.0}",
                    e.samples, e.effective_samples
                ),
            };
            let prior_name = if advice.prior == Prior::Uniform { "uniform" } else { "generator" };
            // A fleet too long to read on one line is summed up (800 one-cell ships:
            // `800 ships, 800 cells`).
            let fleet = &advice.fleet;
            let described = fleet.describe();
            let described = if described.len() > FLEET_SHOWN {
                format!(
                    "of {} and {}",
                    crate::render::words::count(fleet.len(), "ship"),
                    crate::render::words::count(fleet.ship_cells(), "cell")
                )
            } else {
                described
            };
            let _ = writeln!(out, "ship probability (percent; bayes, fleet {described}, {prior_name} prior, {how}):");
            let percent = |p: Position| -> u32 {
                let q = v.get(p.index(cols)).copied().unwrap_or(0.0);
                if q >= 1.0 || q <= 0.0 {
                    return (q * 100.0) as u32;
                }
                ((q * 100.0).round() as u32).clamp(1, 99)
            };
            write_matrix(&mut out, advice, &|p| percent(p).to_string(), style);
        }
        Values::Scores(m) => {
            out.push_str("likelihood (prob: row score + column score; -1 = blocked or water):\n");
            write_matrix(&mut out, advice, &|p| m.score(p).to_string(), style);
        }
    }
    match advice.suggest {
        Some(s) => {
            let _ = writeln!(out, "suggest: {}  ({})", style.name(s.cell), s.reason);
        }
        None => out.push_str("suggest: none (no unknown cell can hold a ship)\n"),
    }
    let list = |ship: bool| {
        let cells: Vec<String> = advice.certain(ship).map(|p| style.name(p)).collect();
        if cells.is_empty() {
            "none".to_string()
        } else {
            cells.join(" ")
        }
    };
    let _ = writeln!(out, "certain water: {}", list(false));
    let _ = writeln!(out, "certain ship: {}", list(true));
    out
}

/// Writes the values of the advice's cells (`value` of each, made when it is written:
/// a grid may have a million cells) as a right-aligned matrix (with letters, a line of
/// column numbers first and each row's letters before it).
fn write_matrix(out: &mut String, advice: &Advice, value: &dyn Fn(Position) -> String, style: Style) {
    let (rows, cols) = (advice.known.rows(), advice.known.cols());
    let mut width = advice.positions().map(|p| value(p).len()).max().unwrap_or(1);
    let lead = if style.letters {
        width = width.max(cols.to_string().len());
        let lead = crate::render::coords::row_letters(rows.saturating_sub(1)).len();
        let header: Vec<String> = (1..=cols).map(|c| format!("{c:>width$}")).collect();
        let _ = writeln!(out, "{:lead$} {}", "", header.join(" "));
        lead
    } else {
        0
    };
    for r in 0..rows {
        if style.letters {
            let _ = write!(out, "{:>lead$} ", crate::render::coords::row_letters(r));
        }
        for c in 0..cols {
            let sep = if c == 0 { "" } else { " " };
            let _ = write!(out, "{sep}{:>width$}", value(Position::new(r, c)));
        }
        out.push('\n');
    }
}
