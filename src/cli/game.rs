//! The flags every command shares to say which game is played: the rules (a preset and
//! its overrides) and the fleet.

use super::args::{Flag, Parsed};
use super::CliError;
use crate::game::fleet::Fleet;
use crate::game::rules::{Rules, RulesError, Sunk};
use crate::limits::FLEET_FILE_BYTES;

/// The preset of the rules where `--rules` is not given.
pub(crate) const DEFAULT_PRESET: &str = "problem-g";

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

/// The rule flags, read: the rules they give, and what was given.
#[derive(Debug, Clone)]
pub(crate) struct RuleFlags {
    /// The rules: the preset of `--rules` (given or default), then each override.
    pub rules: Rules,
    /// `--rules` as given; `None` when absent.
    pub preset_given: Option<String>,
    /// The flag that gave the fleet (`--fleet` or `--fleet-file`); `None` when neither.
    pub fleet_flag: Option<&'static str>,
    touch: Option<bool>,
    sunk: Option<Sunk>,
    rotate: Option<bool>,
    fleet: Option<Fleet>,
}

impl RuleFlags {
    /// Reads the rule flags: the preset, then each override.
    /// Pre: the command's table has [`RULE_FLAGS`]. Post: `Err(Usage)` for an unknown
    /// preset, a bad value, `--fleet` with `--fleet-file`, or a fleet (file) that does
    /// not parse, naming the flag (and line).
    pub(crate) fn read(p: &Parsed) -> Result<RuleFlags, CliError> {
        let usage = |e: RulesError| CliError::Usage(e.to_string());
        let preset = p.text("--rules").unwrap_or(DEFAULT_PRESET);
        let base = Rules::preset(preset).map_err(usage)?;
        let touch = p.choice("--touch", &["yes", "no"])?.map(|t| t == "yes");
        let sunk = p.choice("--sunk", &["none", "yes", "named"])?.map(|w| Sunk::from_word(w).unwrap_or(Sunk::None));
        let rotate = p.choice("--rotate", &["yes", "no"])?.map(|r| r == "yes");
        let (fleet, fleet_flag) = match (p.text("--fleet"), p.text("--fleet-file")) {
            (Some(_), Some(_)) => return Err(CliError::Usage("give --fleet or --fleet-file, not both".into())),
            (Some(list), None) => {
                (Some(Fleet::parse_sizes(list).map_err(|e| usage(RulesError::Fleet(e)))?), Some("--fleet"))
            }
            (None, Some(path)) => {
                let text = read_fleet_file(path)?;
                let fleet = Fleet::parse_file(&text)
                    .map_err(|error| usage(RulesError::FleetFile { path: path.to_string(), error }))?;
                (Some(fleet), Some("--fleet-file"))
            }
            (None, None) => (None, None),
        };
        let preset_given = p.has("--rules").then(|| preset.to_string());
        let mut flags = RuleFlags { rules: base, preset_given, fleet_flag, touch, sunk, rotate, fleet };
        flags.rules = flags.overridden(flags.rules.clone());
        Ok(flags)
    }

    /// `rules` with each override given.
    fn overridden(&self, mut rules: Rules) -> Rules {
        if let Some(touch) = self.touch {
            rules = rules.with_touch(touch);
        }
        if let Some(sunk) = self.sunk {
            rules = rules.with_sunk(sunk);
        }
        if let Some(rotate) = self.rotate {
            rules = rules.with_rotate(rotate);
        }
        if let Some(fleet) = &self.fleet {
            rules = rules.with_fleet(fleet.clone());
        }
        rules
    }

    /// The rules with the preset `preset` where `--rules` is not given (`serve`'s
    /// `/exec` and `play --url` play the remote-service seed's game by default).
    /// Pre: none. Post: `Err(Usage)` when `preset` is no preset.
    pub(crate) fn rules_or_preset(&self, preset: &str) -> Result<Rules, CliError> {
        if self.preset_given.is_some() {
            return Ok(self.rules.clone());
        }
        let rules = Rules::preset(preset).map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(self.overridden(rules))
    }

    /// True when `--fleet` or `--fleet-file` was given.
    pub(crate) fn fleet_given(&self) -> bool {
        self.fleet_flag.is_some()
    }

    /// Refuses a judge input whose ships are not the fleet `--fleet` or `--fleet-file`
    /// gave (without either flag, the input's ships are the fleet).
    /// Pre: `input` is the fleet of the input's board. Post: `Err(Usage)` naming both.
    pub(crate) fn check_fleet(&self, input: &Fleet) -> Result<(), CliError> {
        match self.fleet_flag {
            Some(flag) if self.rules.fleet().sizes() != input.sizes() => Err(CliError::Usage(format!(
                "the input's ships ({}) are not the fleet given by {flag} ({})",
                input.describe(),
                self.rules.fleet().describe()
            ))),
            _ => Ok(()),
        }
    }
}

/// Reads a fleet file of at most [`FLEET_FILE_BYTES`] bytes.
fn read_fleet_file(path: &str) -> Result<String, CliError> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).map_err(|e| CliError::Usage(format!("--fleet-file: cannot open `{path}`: {e}")))?;
    let mut bytes = Vec::new();
    file.take(FLEET_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Usage(format!("--fleet-file: reading `{path}`: {e}")))?;
    if bytes.len() as u64 > FLEET_FILE_BYTES {
        return Err(CliError::Usage(format!("--fleet-file: `{path}` is larger than {FLEET_FILE_BYTES} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| CliError::Usage(format!("--fleet-file: `{path}` is not UTF-8 text")))
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
        let (rows, cols) = rules.bay();
        let (rows, cols) = (self.rows.unwrap_or(rows), self.cols.unwrap_or(cols));
        crate::game::board::Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
        Ok((rows, cols))
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::Command;
    use super::*;

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
