//! The fleet: which ships a bay holds, each with a name and a shape. Problem G's fleet
//! is given as sizes (`5,4,3,3,2,2,1,1`; its ships are then named by their size),
//! classic Battleship's has names (carrier, battleship, ...), and a fleet file draws
//! ships of any shape.
//!
//! Ships of the same name and shape are one [`Kind`] with a count. Kinds are kept in
//! the order given (a fleet file's order); the generator places ships largest first
//! (most cells), ties in that order ([`Fleet::ship_kinds`]).
//!
//! # Fleet files
//! Each ship is a name line followed by its drawing, one line per row, `X` for a ship
//! cell and `.` for a gap; ships are separated by blank lines; a line starting with `#`
//! is a comment. Names are unique (case does not count). Example:
//!
//! ```text
//! # the X wing of the remote-service game
//! X wing
//! X.X
//! .X.
//! X.X
//! ```

use crate::game::position::Orientation;
use crate::game::shape::{Shape, ShapeError};
use crate::game::ship::{MAX_SHIP, MIN_SHIP};
use crate::limits::SHIPS;
use std::fmt;

/// Ships of one name and shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kind {
    /// Its name (`carrier`, or the size, `3`, for fleets given as sizes).
    pub name: String,
    /// Its shape as drawn (a straight ship: 1 x size, running east).
    pub shape: Shape,
    /// How many ships of this kind the fleet has.
    pub count: usize,
}

/// The ships of a bay.
#[derive(Debug, Clone)]
pub struct Fleet {
    kinds: Vec<Kind>,
    /// True when the names mean something (a preset's or a file's), false when they are
    /// only the sizes.
    named: bool,
    /// The kinds in placement order: most cells first, ties in the order given.
    order: Vec<usize>,
    /// For a fleet read from a file: the line of each kind's name (from 1), so that a
    /// ship found too large for the bay later can be pointed at; empty otherwise.
    lines: Vec<usize>,
}

/// Two fleets are equal when they have the same ships, names and order, wherever
/// they were read from (the lines of a file do not count).
impl PartialEq for Fleet {
    fn eq(&self, other: &Fleet) -> bool {
        self.kinds == other.kinds && self.named == other.named && self.order == other.order
    }
}

impl Eq for Fleet {}

/// Why a fleet file was refused; `line` counts from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetFileError {
    /// The line at fault.
    pub line: usize,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for FleetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for FleetFileError {}

/// A ship being read from a fleet file: its name, the name's line, and its drawing's
/// lines with their line numbers.
struct Drawing {
    name: String,
    line: usize,
    rows: Vec<(usize, String)>,
}

impl Fleet {
    /// A fleet of straight ships of these sizes, named by their size.
    /// Pre: sizes in 1..=5. Post: one kind per distinct size, largest first.
    pub fn of_sizes(sizes: &[usize]) -> Fleet {
        let mut counts = [0usize; MAX_SHIP + 1];
        for &s in sizes {
            if let Some(n) = counts.get_mut(s) {
                *n += 1;
            }
        }
        Fleet::of_counts(&counts)
    }

    /// A fleet of straight ships with `counts[s]` ships of `s` cells, named by size.
    /// Pre: none (sizes outside 1..=5 are left out). Post: one kind per size with
    /// ships, largest first.
    pub fn of_counts(counts: &[usize; MAX_SHIP + 1]) -> Fleet {
        let kinds = (MIN_SHIP..=MAX_SHIP)
            .rev()
            .filter_map(|s| {
                let count = counts.get(s).copied().unwrap_or(0);
                (count > 0).then(|| Kind { name: s.to_string(), shape: Shape::straight(s, Orientation::East), count })
            })
            .collect();
        Fleet::from_kinds(kinds, false)
    }

    /// A fleet of named straight ships (a preset's), one ship per pair.
    /// Pre: sizes in 1..=5, names distinct. Post: kinds in placement order.
    pub fn named(ships: &[(&str, usize)]) -> Fleet {
        let kinds = ships
            .iter()
            .map(|&(name, size)| Kind {
                name: name.to_string(),
                shape: Shape::straight(size, Orientation::East),
                count: 1,
            })
            .collect();
        Fleet::from_kinds(kinds, true)
    }

    /// A fleet of the given kinds, in that order.
    fn from_kinds(kinds: Vec<Kind>, named: bool) -> Fleet {
        let mut order: Vec<usize> = (0..kinds.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(kinds.get(k).map_or(0, |kind| kind.shape.size())));
        Fleet { kinds, named, order, lines: Vec::new() }
    }

    /// Reads sizes separated by commas, like `5,4,3,3,2,2,1,1`; an empty text is a
    /// fleet with no ship.
    /// Pre: none. Post: `Err` names the item that is not a size in 1..=5.
    pub fn parse_sizes(text: &str) -> Result<Fleet, String> {
        if text.trim().is_empty() {
            return Ok(Fleet::of_sizes(&[]));
        }
        let mut sizes = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            match item.parse::<usize>() {
                Ok(s) if (MIN_SHIP..=MAX_SHIP).contains(&s) => sizes.push(s),
                _ => {
                    return Err(format!(
                        "`{}` is not a ship size {MIN_SHIP}..={MAX_SHIP} (give sizes like 5,4,3,3,2)",
                        crate::text::shown(item.as_bytes())
                    ))
                }
            }
            if sizes.len() > SHIPS {
                return Err(format!("more than {SHIPS} ships"));
            }
        }
        Ok(Fleet::of_sizes(&sizes))
    }

    /// Reads a fleet file (see the module notes).
    /// Pre: none. Post: `Err` names the line: a drawing that is empty, ragged, holds
    /// another character or is too large, a name given twice, or no ship at all.
    pub fn parse_file(text: &str) -> Result<Fleet, FleetFileError> {
        let mut kinds: Vec<Kind> = Vec::new();
        let mut name_lines: Vec<usize> = Vec::new();
        let mut current: Option<Drawing> = None;
        let mut finish = |cur: Option<Drawing>, kinds: &mut Vec<Kind>| {
            let Some(Drawing { name, line, rows }) = cur else { return Ok(()) };
            let lines: Vec<&str> = rows.iter().map(|(_, r)| r.as_str()).collect();
            let shape = Shape::from_drawing(&lines).map_err(|e| {
                let at = match &e {
                    ShapeError::Ragged { row, .. } | ShapeError::BadChar { row, .. } => {
                        rows.get(*row).map_or(line, |(l, _)| *l)
                    }
                    _ => line,
                };
                FleetFileError { line: at, why: format!("ship `{name}`: {e}") }
            })?;
            if kinds.iter().any(|k| k.name.eq_ignore_ascii_case(&name)) {
                return Err(FleetFileError { line, why: format!("the name `{name}` is given twice") });
            }
            kinds.push(Kind { name, shape, count: 1 });
            name_lines.push(line);
            Ok(())
        };
        for (k, raw) in text.lines().enumerate() {
            let line = k + 1;
            let trimmed = raw.trim_end();
            if trimmed.trim_start().starts_with('#') {
                continue;
            }
            if trimmed.trim().is_empty() {
                finish(current.take(), &mut kinds)?;
                continue;
            }
            match current.as_mut() {
                None => {
                    let name = trimmed.trim().to_string();
                    if name.chars().count() > 40 {
                        return Err(FleetFileError { line, why: "a ship's name has at most 40 characters".into() });
                    }
                    // The protocol's `names` line separates names by commas, and answers
                    // and the judge's output quote them: letters, digits, `-`, `_` and
                    // spaces between words (the seed's `Y wing`) only.
                    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ' ';
                    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
                        return Err(FleetFileError {
                            line,
                            why: format!(
                                "ship name `{}`: `{}` is not allowed (letters, digits, `-`, `_` and spaces only)",
                                crate::text::escaped(&name),
                                crate::text::escaped(&bad.to_string())
                            ),
                        });
                    }
                    if name.eq_ignore_ascii_case("end") {
                        return Err(FleetFileError {
                            line,
                            why: "a ship may not be called `end` (the word closes a fleet file in the play protocol's header)"
                                .into(),
                        });
                    }
                    current = Some(Drawing { name, line, rows: Vec::new() });
                }
                Some(d) => d.rows.push((line, trimmed.trim_start().to_string())),
            }
            if kinds.len() > SHIPS {
                return Err(FleetFileError { line, why: format!("more than {SHIPS} ships") });
            }
        }
        finish(current.take(), &mut kinds)?;
        if kinds.is_empty() {
            return Err(FleetFileError { line: 1, why: "no ship: give a name line, then its drawing".into() });
        }
        Ok(Fleet { lines: name_lines, ..Fleet::from_kinds(kinds, true) })
    }

    /// The line of the fleet file where kind `kind`'s name is (from 1).
    /// Pre: none. Post: `None` for a fleet not read from a file (sizes, a preset, or
    /// the same fleet with its lines forgotten) or a kind it does not have.
    pub fn line_of(&self, kind: usize) -> Option<usize> {
        self.lines.get(kind).copied()
    }

    /// The same fleet, with the lines of its file forgotten (a preset's fleet is written
    /// in a file only internally: its lines mean nothing to the user).
    /// Pre: none. Post: `line_of` is `None` for every kind; equal to `self`.
    pub fn without_lines(mut self) -> Fleet {
        self.lines.clear();
        self
    }

    /// The fleet written as a fleet file (each kind once per ship: name, drawing, a
    /// blank line between ships).
    /// Pre: none. Post: `Fleet::parse_file` of the text gives this fleet back when its
    /// names are distinct.
    pub fn to_file(&self) -> String {
        let mut blocks = Vec::new();
        for k in &self.kinds {
            for _ in 0..k.count {
                let mut b = k.name.clone();
                for row in k.shape.drawing() {
                    b.push('\n');
                    b.push_str(&row);
                }
                blocks.push(b);
            }
        }
        blocks.join("\n\n") + "\n"
    }

    /// The kinds, in the order given (a fleet file's; kind numbers count from 1 in it).
    /// Pre: none. Post: no change.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// True when the ships have names of their own (a preset's or a file's).
    /// Pre: none. Post: no change.
    pub fn is_named(&self) -> bool {
        self.named
    }

    /// True when every ship is straight and of 1 to 5 cells, the ships a judge input
    /// gives by size (a fleet given as sizes, or a file drawing only such lines); a
    /// longer line counts as a drawn ship, written by its number in the file.
    /// Pre: none. Post: no change.
    pub fn is_straight(&self) -> bool {
        self.kinds
            .iter()
            .all(|k| k.shape.straight_line().is_some_and(|(size, _)| (MIN_SHIP..=MAX_SHIP).contains(&size)))
    }

    /// The kind of each ship, one entry per ship, in placement order (most cells first,
    /// ties in the order given).
    /// Pre: none. Post: `len()` entries.
    pub fn ship_kinds(&self) -> impl Iterator<Item = usize> + '_ {
        self.order.iter().flat_map(|&k| std::iter::repeat_n(k, self.kinds.get(k).map_or(0, |kind| kind.count)))
    }

    /// The size of each ship, largest first.
    /// Pre: none. Post: `len()` sizes summing to `ship_cells()`.
    pub fn sizes(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.ship_kinds().filter_map(|k| self.kinds.get(k)).map(|k| k.shape.size()).collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    }

    /// Number of ships.
    /// Pre: none. Post: no change.
    pub fn len(&self) -> usize {
        self.kinds.iter().map(|k| k.count).sum()
    }

    /// True when the fleet has no ship.
    /// Pre: none. Post: `len() == 0`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of ship cells.
    /// Pre: none. Post: sum of the ships' sizes.
    pub fn ship_cells(&self) -> usize {
        self.kinds.iter().map(|k| k.count * k.shape.size()).sum()
    }

    /// The kind called `name` (case does not count; surrounding spaces ignored).
    /// Pre: none. Post: `None` when no kind has that name.
    pub fn kind_named(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        self.kinds.iter().position(|k| k.name.eq_ignore_ascii_case(name))
    }

    /// The sizes as a list, largest first (`5,4,3`).
    /// Pre: none. Post: no change.
    pub fn sizes_text(&self) -> String {
        self.sizes().iter().map(usize::to_string).collect::<Vec<_>>().join(",")
    }

    /// A short description: sizes, or names with sizes when the ships are named
    /// (`carrier 5, battleship 4, ...`).
    /// Pre: none. Post: no change.
    pub fn describe(&self) -> String {
        if !self.named {
            return self.sizes_text();
        }
        let items: Vec<String> = self
            .kinds
            .iter()
            .map(|k| {
                if k.count == 1 {
                    format!("{} {}", k.name, k.shape.size())
                } else {
                    format!("{}x {} {}", k.count, k.name, k.shape.size())
                }
            })
            .collect();
        items.join(", ")
    }

    /// The ships of this fleet that `counts` keeps: `counts[k]` ships of kind `k` (a
    /// missing count is 0); kinds left with no ship are dropped, names and order kept.
    /// Pre: none. Post: no kind has more ships than in this fleet; all counts equal to
    /// this fleet's give this fleet.
    pub fn subset(&self, counts: &[usize]) -> Fleet {
        let kinds: Vec<Kind> = self
            .kinds
            .iter()
            .enumerate()
            .filter_map(|(k, kind)| {
                let count = counts.get(k).copied().unwrap_or(0).min(kind.count);
                (count > 0).then(|| Kind { count, ..kind.clone() })
            })
            .collect();
        Fleet::from_kinds(kinds, self.named)
    }

    /// This fleet's names given to the ships `sizes` (straight ships, any order): when
    /// they are exactly this fleet's sizes, each gets a kind of this fleet (equal sizes
    /// in order: the first 3-cell ship is the first 3-cell kind); otherwise the ships
    /// are named by size.
    /// Pre: none. Post: a fleet with exactly the sizes given.
    pub fn naming(&self, sizes: &[usize]) -> Fleet {
        let mut counts = [0usize; MAX_SHIP + 1];
        for &s in sizes {
            if let Some(n) = counts.get_mut(s) {
                *n += 1;
            }
        }
        self.naming_counts(&counts)
    }

    /// As [`Fleet::naming`] for `counts[s]` ships of each size `s`.
    /// Pre: none. Post: as `naming` of the sizes the counts describe.
    pub fn naming_counts(&self, counts: &[usize; MAX_SHIP + 1]) -> Fleet {
        let mut mine = [0usize; MAX_SHIP + 1];
        let mut other = false;
        for k in &self.kinds {
            match k.shape.straight_line().and_then(|(size, _)| mine.get_mut(size)) {
                Some(n) => *n += k.count,
                None => other = true,
            }
        }
        if !other && &mine == counts {
            self.clone()
        } else {
            Fleet::of_counts(counts)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_make_kinds_largest_first() {
        let f = Fleet::of_sizes(&[1, 5, 3, 3, 1]);
        let names: Vec<(&str, usize)> = f.kinds().iter().map(|k| (k.name.as_str(), k.count)).collect();
        assert_eq!(names, vec![("5", 1), ("3", 2), ("1", 2)]);
        assert_eq!((f.len(), f.ship_cells(), f.sizes()), (5, 13, vec![5, 3, 3, 1, 1]));
        assert_eq!(f.ship_kinds().collect::<Vec<_>>(), vec![0, 1, 1, 2, 2]);
        assert!(!f.is_named() && f.is_straight());
        assert_eq!(f.kind_named(" 3 "), Some(1));
        assert_eq!(f.describe(), "5,3,3,1,1");
    }

    #[test]
    fn parses_sizes() {
        assert_eq!(Fleet::parse_sizes("5,4,3").unwrap().sizes(), vec![5, 4, 3]);
        assert_eq!(Fleet::parse_sizes(" 1 , 2 ").unwrap().sizes(), vec![2, 1]);
        assert!(Fleet::parse_sizes("").unwrap().is_empty());
        assert!(Fleet::parse_sizes("6").unwrap_err().contains("`6`"));
        assert!(Fleet::parse_sizes("2,,3").is_err());
        assert!(Fleet::parse_sizes("x").is_err());
    }

    #[test]
    fn subsets_keep_names_and_cap_counts() {
        let f = Fleet::named(&[("carrier", 5), ("cruiser", 3), ("destroyer", 2)]);
        assert_eq!(f.subset(&[1, 1, 1]), f);
        let some = f.subset(&[0, 1, 3]);
        assert_eq!(some.describe(), "cruiser 3, destroyer 2");
        assert_eq!(Fleet::of_sizes(&[3, 3, 1]).subset(&[1, 1]).sizes(), vec![3, 1]);
        assert!(f.subset(&[]).is_empty());
    }

    #[test]
    fn named_fleets() {
        let f = Fleet::named(&[("destroyer", 2), ("carrier", 5), ("cruiser", 3), ("submarine", 3)]);
        let names: Vec<&str> = f.kinds().iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, vec!["destroyer", "carrier", "cruiser", "submarine"]);
        assert_eq!(f.ship_kinds().collect::<Vec<_>>(), vec![1, 2, 3, 0]);
        assert_eq!(f.kind_named("SUBMARINE"), Some(3));
        assert_eq!(f.describe(), "destroyer 2, carrier 5, cruiser 3, submarine 3");
        assert_eq!(f.naming(&[3, 2, 5, 3]), f);
        assert_eq!(f.naming(&[3, 2]), Fleet::of_sizes(&[3, 2]));
    }

    #[test]
    fn reads_fleet_files() {
        let text = "# a comment\nPetar Kresimir\nX\nX\nX\nX\n\nY wing\nX.X\nX.X\n.X.\n\n\nTIE fighter\nX.X\nXXX\nX.X\n";
        let f = Fleet::parse_file(text).unwrap();
        let names: Vec<&str> = f.kinds().iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, vec!["Petar Kresimir", "Y wing", "TIE fighter"]);
        assert_eq!(f.ship_kinds().collect::<Vec<_>>(), vec![2, 1, 0]);
        assert!(f.is_named() && !f.is_straight());
        assert_eq!(f.ship_cells(), 16);
        assert_eq!(Fleet::parse_file(&f.to_file()).unwrap(), f);
        // Lines of 1 to 5 cells are straight ships; a longer one is a drawn ship.
        assert!(Fleet::parse_file("a\nXXXXX\n\nb\nX\nX\n").unwrap().is_straight());
        assert!(!Fleet::parse_file("a\nXXXXXX\n").unwrap().is_straight());
    }

    #[test]
    fn bad_fleet_files_name_the_line() {
        let e = |t: &str| Fleet::parse_file(t).unwrap_err();
        assert_eq!(e("").line, 1);
        assert!(e("").why.contains("no ship"));
        let empty = e("A\n\nB\nX\n");
        assert_eq!((empty.line, empty.why.contains("no `X`")), (1, true), "{empty}");
        let ragged = e("A\nXX\nX\n");
        assert_eq!(ragged.line, 3, "{ragged}");
        let bad = e("A\nX\n\nB\nXo\n");
        assert_eq!(bad.line, 5, "{bad}");
        assert!(bad.why.contains("`o`"), "{bad}");
        let twice = e("A\nX\n\na\nXX\n");
        assert_eq!(twice.line, 4, "{twice}");
        assert!(twice.why.contains("given twice"), "{twice}");
        let big = e(&format!("A\n{}\n", "X".repeat(65)));
        assert!(big.why.contains("more than 64"), "{big}");
        let end = e("A\nX\n\n# the header's closing word\nEnd\nX\n");
        assert_eq!(end.line, 5, "{end}");
        assert!(end.why.contains("`end`"), "{end}");
        let long = e(&format!("{}\nX\n", "n".repeat(41)));
        assert_eq!(long.line, 1, "{long}");
    }

    #[test]
    fn a_file_remembers_where_each_ship_is_named() {
        let f = Fleet::parse_file("# two ships\n\nA\nX\n\n\nB\nXX\n").unwrap();
        assert_eq!((f.line_of(0), f.line_of(1), f.line_of(2)), (Some(3), Some(7), None));
        let plain = f.clone().without_lines();
        assert_eq!(plain.line_of(0), None);
        assert_eq!(plain, f);
        assert_eq!(Fleet::of_sizes(&[2]).line_of(0), None);
    }
}
