//! Where each ship of a named or drawn fleet is, as the judge and `play` print it
//! (lines) and as the judge's JSON gives it.

use crate::game::ship::Placed;
use crate::render::json::{Array, Object};
use std::fmt::Write as _;

/// The places as lines: `NAME at (r,c)`, `NAME: N possible places` or `NAME: too many
/// possible places to list`.
/// Pre: none. Post: one line ending in `\n` per entry.
pub(crate) fn lines(places: &[(String, Placed)]) -> String {
    let mut out = String::new();
    for (name, placed) in places {
        let _ = match placed {
            Placed::At(p) => writeln!(out, "{name} at {p}"),
            Placed::Places(n) => writeln!(out, "{name}: {n} possible places"),
            Placed::TooMany => writeln!(out, "{name}: too many possible places to list"),
        };
    }
    out
}

/// The places as a JSON array of `{"name", "at": [r, c]}` or `{"name", "places": N}`
/// (`null` when too many to count); `None` when there is none (a fleet of straight
/// sizes).
/// Pre: none. Post: valid JSON.
pub(crate) fn json(places: &[(String, Placed)]) -> Option<String> {
    if places.is_empty() {
        return None;
    }
    let items = places.iter().map(|(name, placed)| {
        let item = Object::new().field("name", name);
        match placed {
            Placed::At(p) => item.field("at", (p.row, p.col)),
            Placed::Places(n) => item.field("places", Some(n)),
            Placed::TooMany => item.field("places", None::<usize>),
        }
    });
    Some(Array::of(items).finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Position;

    #[test]
    fn lines_and_json_say_the_same() {
        let places = vec![
            ("carrier".to_string(), Placed::At(Position { row: 2, col: 1 })),
            ("red".to_string(), Placed::Places(7)),
            ("blue".to_string(), Placed::TooMany),
        ];
        assert_eq!(
            lines(&places),
            "carrier at (2,1)\nred: 7 possible places\nblue: too many possible places to list\n"
        );
        assert_eq!(
            json(&places).as_deref(),
            Some(
                r#"[{"name": "carrier", "at": [2, 1]}, {"name": "red", "places": 7}, {"name": "blue", "places": null}]"#
            )
        );
        assert_eq!(json(&[]), None);
    }
}
