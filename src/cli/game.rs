//! The flags every command shares to say which game is played: the rules (a preset and
//! its overrides) and the fleet.

use super::CliError;
use crate::args::{Flag, Parsed};
use crate::game::rules::Rules;
use crate::tools::settings::RuleWords;
pub(crate) use crate::tools::settings::DEFAULT_PRESET;

/// The rules flags, a group of every command's table.
pub(crate) const RULE_FLAGS: &[Flag] = &[
    Flag::value("--rules", "NAME", "problem-g, classic, russian, starwars (`help rules`)").default(DEFAULT_PRESET),
    Flag::value("--touch", "yes|no", "may ships touch? (overrides the preset)"),
    Flag::value("--sunk", "WHAT", "none, yes or named: what completing a ship answers"),
    Flag::value("--fleet", "LIST", "ship sizes, e.g. 5,4,3,3,2 (ships then named by size)"),
    Flag::value("--fleet-file", "FILE", "ships of any shape, drawn (see `help fleet-file`)"),
    Flag::value("--rotate", "yes|no", "may drawn ships turn? (overrides the preset)"),
];

/// `--rows R`: the bay's rows (each command says more in its help).
pub(crate) const ROWS: Flag = Flag::value("--rows", "R", "rows of the bay (default: the rules' bay)");

/// `--cols C`: the bay's columns (each command says more in its help).
pub(crate) const COLS: Flag = Flag::value("--cols", "C", "columns of the bay (default: the rules' bay)");

/// The rule flags, read: the rules they give, and what was given (the settings'
/// one reader, which the web server's JSON fields go through too).
pub(crate) use crate::tools::settings::RuleSettings as RuleFlags;

impl RuleFlags {
    /// Reads the rule flags: the preset, then each override.
    /// Pre: the command's table has [`RULE_FLAGS`]. Post: `Err(Usage)` for an unknown
    /// preset, a bad value, `--fleet` with `--fleet-file`, or a fleet (file) that does
    /// not parse, naming the flag (and line).
    pub(crate) fn read(p: &Parsed) -> Result<RuleFlags, CliError> {
        let words = RuleWords {
            preset: p.all("--rules").first().map(String::as_str),
            touch: p.text("--touch"),
            sunk: p.text("--sunk"),
            rotate: p.text("--rotate"),
            fleet: p.text("--fleet"),
            fleet_file: p.text("--fleet-file"),
        };
        Ok(RuleFlags::from_words(words)?)
    }
}

/// `--rows` and `--cols`, read (each may be absent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct BayFlags {
    /// `--rows`, when given.
    pub rows: Option<usize>,
    /// `--cols`, when given.
    pub cols: Option<usize>,
}

impl BayFlags {
    /// Reads `--rows` then `--cols`.
    /// Pre: none. Post: `Err(Usage)` for a value that is not a whole number.
    pub(crate) fn read(p: &Parsed) -> Result<BayFlags, CliError> {
        Ok(BayFlags { rows: p.get(ROWS.name)?, cols: p.get(COLS.name)? })
    }

    /// True when `--rows` or `--cols` was given.
    pub(crate) fn given(&self) -> bool {
        self.rows.is_some() || self.cols.is_some()
    }

    /// The bay's size: each flag, else the rules' usual bay.
    /// Pre: none. Post: `Err(Usage)` for a size the board refuses.
    pub(crate) fn or_rules(&self, rules: &Rules) -> Result<(usize, usize), CliError> {
        Ok(crate::tools::settings::bay_or_rules(self.rows, self.cols, rules)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Command;
    use crate::game::fleet::Fleet;
    use crate::game::rules::Sunk;

    const FLAGS: &[Flag] = &[ROWS, COLS];
    const CMD: Command = Command::for_tests(&[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)]);

    fn parse(args: &[&str]) -> Parsed {
        CMD.parse_words(args)
    }

    #[test]
    fn defaults_are_problem_g_and_its_bay() {
        let r = RuleFlags::read(&parse(&[])).unwrap();
        assert_eq!(r.rules, Rules::preset("problem-g").unwrap());
        assert!(r.preset_given.is_none() && !r.fleet_given());
        let bay = BayFlags::read(&parse(&[])).unwrap();
        assert!(!bay.given());
        assert_eq!(bay.or_rules(&r.rules).unwrap(), r.rules.bay());
    }

    #[test]
    fn each_rule_flag_overrides_the_preset() {
        let r = RuleFlags::read(&parse(&["--rules", "classic", "--touch", "yes", "--sunk", "none", "--fleet", "3,2"]))
            .unwrap();
        let want = Rules::preset("classic")
            .unwrap()
            .with_touch(true)
            .with_sunk(Sunk::None)
            .with_fleet(Fleet::parse_sizes("3,2").unwrap());
        assert_eq!(r.rules, want);
        assert_eq!((r.preset_given.as_deref(), r.fleet_flag), (Some("classic"), Some("--fleet")));
        // Another preset where --rules is absent, with the same overrides.
        let r = RuleFlags::read(&parse(&["--touch", "yes"])).unwrap();
        assert_eq!(r.rules_or_preset("starwars").unwrap(), Rules::preset("starwars").unwrap().with_touch(true));
        let r = RuleFlags::read(&parse(&["--rules", "classic"])).unwrap();
        assert_eq!(r.rules_or_preset("starwars").unwrap(), Rules::preset("classic").unwrap());
        let bay = BayFlags::read(&parse(&["--rows", "3", "--cols=4"])).unwrap();
        assert_eq!((bay.given(), bay.or_rules(&r.rules).unwrap()), (true, (3, 4)));
    }

    #[test]
    fn bad_values_are_refused_with_the_flag_named() {
        let e = |args: &[&str]| RuleFlags::read(&parse(args)).unwrap_err().to_string();
        assert_eq!(e(&["--touch", "maybe"]), "--touch: expected yes or no, got `maybe`");
        assert_eq!(e(&["--fleet", "3", "--fleet-file", "f"]), "give --fleet or --fleet-file, not both");
        assert!(e(&["--rules", "nope"]).contains("nope"));
        assert_eq!(
            BayFlags::read(&parse(&["--rows", "x"])).unwrap_err().to_string(),
            "--rows: expected a whole number, got `x`"
        );
        let zero = BayFlags { rows: Some(0), cols: None };
        assert!(zero.or_rules(&Rules::preset("classic").unwrap()).is_err());
    }
}
