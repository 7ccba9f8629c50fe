//! The rules of a game, in one place: whether ships may touch (which cells a ship
//! forbids to the others), what a probe answers (only hit or miss, or also "sunk",
//! perhaps with the ship's name), whether drawn ships may be turned, and the fleet.
//!
//! Presets name the usual games ([`PRESETS`]); flags override any part of them. Every
//! other part of the program asks a [`Rules`] value instead of assuming Problem G's.

use crate::game::fleet::{Fleet, FleetFileError};
use crate::game::shape::Shape;
use std::fmt;

/// What a probe that completes a ship answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sunk {
    /// Only hit or miss (Problem G).
    None,
    /// `sunk` when a probe hits the last cell of a ship.
    Yes,
    /// `sunk NAME`: also which ship.
    Named,
}

impl Sunk {
    /// The word used on the command line and in protocol headers.
    /// Pre: none. Post: `none`, `yes` or `named`.
    pub fn word(self) -> &'static str {
        match self {
            Sunk::None => "none",
            Sunk::Yes => "yes",
            Sunk::Named => "named",
        }
    }

    /// The value a word names.
    /// Pre: none. Post: `None` for anything but `none`, `yes` and `named`.
    pub fn from_word(word: &str) -> Option<Sunk> {
        match word {
            "none" => Some(Sunk::None),
            "yes" => Some(Sunk::Yes),
            "named" => Some(Sunk::Named),
            _ => None,
        }
    }
}

/// A named set of rules.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Preset {
    /// The name given to `--rules`.
    pub name: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// May ships touch (never overlap)?
    pub touch: bool,
    /// What completing a ship answers.
    pub sunk: Sunk,
    /// The ships: names and sizes of straight ships, or drawings (rows separated by `|`).
    pub fleet: &'static [(&'static str, PresetShip)],
    /// May drawn ships be turned?
    pub rotate: bool,
    /// The usual bay: rows and columns.
    pub bay: (usize, usize),
    /// True when the ships are named by their size rather than by their names here.
    pub by_size: bool,
}

/// A preset's ship: a straight size or a drawing.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PresetShip {
    /// A straight ship of this many cells.
    Size(usize),
    /// A drawing, rows separated by `|`.
    Drawing(&'static str),
}

/// The presets, the default first.
pub(crate) const PRESETS: [Preset; 4] = [
    Preset {
        name: "problem-g",
        summary: "the course's game: ships never touch, answers are hit or miss",
        touch: false,
        sunk: Sunk::None,
        fleet: &[
            ("5", PresetShip::Size(5)),
            ("4", PresetShip::Size(4)),
            ("3", PresetShip::Size(3)),
            ("3", PresetShip::Size(3)),
            ("2", PresetShip::Size(2)),
            ("2", PresetShip::Size(2)),
            ("1", PresetShip::Size(1)),
            ("1", PresetShip::Size(1)),
        ],
        rotate: true,
        bay: (10, 10),
        by_size: true,
    },
    Preset {
        name: "classic",
        summary: "Battleship: ships may touch, a sunk ship is announced by name",
        touch: true,
        sunk: Sunk::Named,
        fleet: &[
            ("carrier", PresetShip::Size(5)),
            ("battleship", PresetShip::Size(4)),
            ("cruiser", PresetShip::Size(3)),
            ("submarine", PresetShip::Size(3)),
            ("destroyer", PresetShip::Size(2)),
        ],
        rotate: true,
        bay: (10, 10),
        by_size: false,
    },
    Preset {
        name: "russian",
        summary: "Morskoy boy: ships never touch, a sunk ship is announced",
        touch: false,
        sunk: Sunk::Yes,
        fleet: &[
            ("4", PresetShip::Size(4)),
            ("3", PresetShip::Size(3)),
            ("3", PresetShip::Size(3)),
            ("2", PresetShip::Size(2)),
            ("2", PresetShip::Size(2)),
            ("2", PresetShip::Size(2)),
            ("1", PresetShip::Size(1)),
            ("1", PresetShip::Size(1)),
            ("1", PresetShip::Size(1)),
            ("1", PresetShip::Size(1)),
        ],
        rotate: true,
        bay: (10, 10),
        by_size: true,
    },
    Preset {
        name: "starwars",
        summary: "the remote-service game: four drawn ships, never turned, may touch",
        touch: true,
        sunk: Sunk::None,
        fleet: &[
            ("Petar Kresimir", PresetShip::Drawing("X|X|X|X")),
            ("TIE fighter", PresetShip::Drawing("X.X|XXX|X.X")),
            ("X wing", PresetShip::Drawing("X.X|.X.|X.X")),
            ("Y wing", PresetShip::Drawing("X.X|X.X|.X.")),
        ],
        rotate: false,
        bay: (58, 23),
        by_size: false,
    },
];

/// The names of the presets, the default first.
pub const PRESET_NAMES: [&str; PRESETS.len()] = {
    let mut out = [""; PRESETS.len()];
    let mut i = 0;
    while i < PRESETS.len() {
        out[i] = PRESETS[i].name;
        i += 1;
    }
    out
};

impl Preset {
    /// This preset's fleet.
    /// Pre: none. Post: the ships listed, in placement order.
    pub(crate) fn fleet(&self) -> Fleet {
        if self.by_size {
            let sizes: Vec<usize> = self.fleet.iter().filter_map(|(_, s)| s.size()).collect();
            return Fleet::of_sizes(&sizes);
        }
        if self.fleet.iter().all(|(_, s)| s.size().is_some()) {
            let ships: Vec<(&str, usize)> = self.fleet.iter().filter_map(|(n, s)| Some((*n, s.size()?))).collect();
            return Fleet::named(&ships);
        }
        let mut text = String::new();
        for (name, ship) in self.fleet {
            text.push_str(name);
            text.push('\n');
            match ship {
                PresetShip::Size(n) => text.push_str(&"X".repeat(*n)),
                PresetShip::Drawing(d) => text.push_str(&d.replace('|', "\n")),
            }
            text.push_str("\n\n");
        }
        // The drawings above are part of the program; a bad one is caught by the tests.
        Fleet::parse_file(&text).map(Fleet::without_lines).unwrap_or_else(|_| Fleet::of_sizes(&[]))
    }
}

impl PresetShip {
    fn size(self) -> Option<usize> {
        match self {
            PresetShip::Size(n) => Some(n),
            PresetShip::Drawing(_) => None,
        }
    }
}

/// Why rules could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// No preset of that name.
    UnknownPreset(String),
    /// A fleet list that does not parse.
    Fleet(String),
    /// A fleet file that does not parse.
    FleetFile {
        /// The file.
        path: String,
        /// Where and what.
        error: FleetFileError,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownPreset(name) => {
                let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
                let hint = crate::text::did_you_mean(name, &names);
                write!(f, "--rules: no rules called `{name}`; {hint}presets: {}", names.join(", "))
            }
            RulesError::Fleet(why) => write!(f, "--fleet: {why}"),
            RulesError::FleetFile { path, error } => write!(f, "--fleet-file: {path}: {error}"),
        }
    }
}

impl std::error::Error for RulesError {}

/// The rules of one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    preset: &'static str,
    touch: bool,
    sunk: Sunk,
    rotate: bool,
    fleet: Fleet,
    bay: (usize, usize),
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::problem_g()
    }
}

impl Rules {
    /// Problem G's rules and fleet (5,4,3,3,2,2,1,1).
    /// Pre: none. Post: `is_problem_g()`.
    pub fn problem_g() -> Rules {
        Rules::from_preset(&PRESETS[0])
    }

    fn from_preset(p: &Preset) -> Rules {
        Rules { preset: p.name, touch: p.touch, sunk: p.sunk, rotate: p.rotate, fleet: p.fleet(), bay: p.bay }
    }

    /// The preset called `name`.
    /// Pre: none. Post: `Err(UnknownPreset)` for a name not in [`PRESETS`].
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        PRESETS
            .iter()
            .find(|p| p.name == name)
            .map(Rules::from_preset)
            .ok_or_else(|| RulesError::UnknownPreset(name.into()))
    }

    /// The same rules with ships allowed to touch, or not.
    /// Pre: none. Post: `touch() == touch`.
    pub fn with_touch(mut self, touch: bool) -> Rules {
        self.touch = touch;
        self
    }

    /// The same rules with another answer to a probe that completes a ship.
    /// Pre: none. Post: `sunk() == sunk`.
    pub fn with_sunk(mut self, sunk: Sunk) -> Rules {
        self.sunk = sunk;
        self
    }

    /// The same rules with drawn ships allowed to turn, or not.
    /// Pre: none. Post: `rotate() == rotate`.
    pub fn with_rotate(mut self, rotate: bool) -> Rules {
        self.rotate = rotate;
        self
    }

    /// The same rules with another fleet.
    /// Pre: none. Post: `fleet() == &fleet`.
    pub fn with_fleet(mut self, fleet: Fleet) -> Rules {
        self.fleet = fleet;
        self
    }

    /// The preset these rules started from.
    /// Pre: none. Post: one of [`PRESETS`]' names.
    pub fn preset_name(&self) -> &'static str {
        self.preset
    }

    /// True when ships may touch (side by side or diagonally; they never overlap).
    /// Pre: none. Post: no change.
    pub fn touch(&self) -> bool {
        self.touch
    }

    /// How far a ship's cells forbid the other ships: 0 when ships may touch (only the
    /// cells themselves), 1 when they may not (the cells and their 8 neighbours).
    /// Pre: none. Post: 0 or 1.
    pub fn reach(&self) -> usize {
        usize::from(!self.touch)
    }

    /// What a probe that completes a ship answers.
    /// Pre: none. Post: no change.
    pub fn sunk(&self) -> Sunk {
        self.sunk
    }

    /// True when drawn ships may take any of their four quarter turns.
    /// Pre: none. Post: no change.
    pub fn rotate(&self) -> bool {
        self.rotate
    }

    /// The fleet.
    /// Pre: none. Post: no change.
    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    /// The usual bay of the preset (rows, columns).
    /// Pre: none. Post: both at least 1.
    pub fn bay(&self) -> (usize, usize) {
        self.bay
    }

    /// The shapes a ship of `shape` may take on the bay: its four quarter turns when
    /// the rules let ships turn (a straight ship then runs east or south), else only
    /// its drawing.
    /// Pre: none. Post: at least one shape, `shape` first.
    pub fn variants(&self, shape: Shape) -> Vec<Shape> {
        shape.variants(self.rotate)
    }

    /// True for Problem G's rules: ships never touch, answers are only hit or miss, and
    /// every ship is straight (the judge's byte-exact strategies need these).
    /// Pre: none. Post: no change.
    pub fn is_problem_g(&self) -> bool {
        !self.touch && self.sunk == Sunk::None && self.fleet.is_straight()
    }

    /// `touch=yes|no sunk=none|yes|named`, as the play protocol's `rules` line says it.
    /// Pre: none. Post: no change.
    pub fn describe(&self) -> String {
        format!("touch={} sunk={}", if self.touch { "yes" } else { "no" }, self.sunk.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_what_they_say() {
        let g = Rules::problem_g();
        assert!(g.is_problem_g() && !g.touch() && g.reach() == 1);
        assert_eq!(g.fleet().sizes(), vec![5, 4, 3, 3, 2, 2, 1, 1]);
        assert_eq!(g.describe(), "touch=no sunk=none");
        let c = Rules::preset("classic").unwrap();
        assert!(c.touch() && c.reach() == 0 && c.sunk() == Sunk::Named && !c.is_problem_g());
        assert_eq!(c.fleet().describe(), "carrier 5, battleship 4, cruiser 3, submarine 3, destroyer 2");
        let r = Rules::preset("russian").unwrap();
        assert_eq!((r.touch(), r.sunk()), (false, Sunk::Yes));
        assert_eq!(r.fleet().sizes(), vec![4, 3, 3, 2, 2, 2, 1, 1, 1, 1]);
        let s = Rules::preset("starwars").unwrap();
        assert_eq!((s.touch(), s.sunk(), s.rotate(), s.bay()), (true, Sunk::None, false, (58, 23)));
        let sizes: Vec<(String, usize)> = s.fleet().kinds().iter().map(|k| (k.name.clone(), k.shape.size())).collect();
        assert_eq!(
            sizes,
            vec![("Petar Kresimir".into(), 4), ("TIE fighter".into(), 7), ("X wing".into(), 5), ("Y wing".into(), 5)]
        );
        assert!(matches!(Rules::preset("chess"), Err(RulesError::UnknownPreset(_))));
        assert_eq!(Rules::default(), g);
    }

    #[test]
    fn overrides_change_one_thing() {
        let r = Rules::preset("classic").unwrap().with_touch(false).with_sunk(Sunk::None);
        assert!(r.is_problem_g());
        assert_eq!(r.preset_name(), "classic");
        let r = r.with_fleet(Fleet::of_sizes(&[2]));
        assert_eq!(r.fleet().sizes(), vec![2]);
        let line = Shape::straight(3, crate::game::position::Orientation::East);
        assert_eq!(r.variants(line).len(), 2);
        assert_eq!(r.with_rotate(false).variants(line), vec![line]);
        for w in ["none", "yes", "named"] {
            assert_eq!(Sunk::from_word(w).map(Sunk::word), Some(w));
        }
        assert_eq!(Sunk::from_word("maybe"), None);
    }
}
