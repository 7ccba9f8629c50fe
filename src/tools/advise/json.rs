//! An advice as one JSON object: `advise --format json`'s line and `/api/advise`'s
//! answer.

use super::{Advice, Values};
use crate::game::position::Position;
use crate::posterior::Method;
use crate::render::json::{self, Array, Object, Raw};

impl Advice {
    /// The JSON object: `rows`, `cols`, `method` (`exact`, `sampled` or `likelihood`),
    /// `layouts` (bayes's count, null for prob, and null with `layouts_overflow` true
    /// past the largest float), the value of every unknown cell (null for known cells)
    /// under `probability` (bayes) or `score` (prob), and `suggest` (`[r, c]` or null).
    /// Pre: none. Post: one line, ending with `\n`.
    pub fn json(&self) -> String {
        let cols = self.known.cols();
        let (key, method, layouts) = match &self.values {
            Values::Scores(_) => ("score", "likelihood", None),
            Values::Probabilities { estimate: e, .. } => {
                ("probability", if e.method == Method::Exact { "exact" } else { "sampled" }, Some(e.layouts.round()))
            }
        };
        let value = |p: Position| match &self.values {
            Values::Scores(m) => m.score(p).to_string(),
            Values::Probabilities { values: v, .. } => json::fixed(v.get(p.index(cols)).copied().unwrap_or(0.0), 6),
        };
        let cell = |p: Position| self.is_unknown(p).then(|| value(p));
        let row = |r: usize| (0..cols).fold(Array::new(), |a, c| a.item(cell(Position::new(r, c)).as_deref().map(Raw)));
        let rows = (0..self.known.rows()).map(row);
        // The count of layouts as Rust prints a float (no exponent, no fixed decimals);
        // null when it overflowed, with `layouts_overflow` true (absent otherwise).
        let overflow = layouts.is_some_and(|l: f64| !l.is_finite());
        let object = Object::new()
            .field("rows", self.known.rows())
            .field("cols", cols)
            .field("method", method)
            .field("layouts", layouts.map(json::Count));
        let object = if overflow { object.field("layouts_overflow", true) } else { object };
        let suggest = self.suggest.map(|s| (s.cell.row, s.cell.col));
        object.field(key, Array::of(rows)).field("suggest", suggest).line()
    }
}
