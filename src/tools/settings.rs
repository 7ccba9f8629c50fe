//! Typed settings from the words a person gives them: a choice among words, a whole
//! number, and the rules (a preset and its overrides). The command line's flags and the
//! web server's JSON fields both come here, so that one value is read one way and
//! refused with one message (which names the setting as the command line spells it,
//! `--touch`).

use crate::game::fleet::Fleet;
use crate::game::rules::{Rules, RulesError, Sunk};
use crate::limits::FLEET_FILE_BYTES;
use std::fmt;
use std::str::FromStr;

/// The preset of the rules where none is given.
pub(crate) const DEFAULT_PRESET: &str = "problem-g";

/// A setting given a value it does not take, worded for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingError(pub String);

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SettingError {}

/// How a value of type `T` is described when it does not parse.
pub(crate) trait Expected: FromStr {
    /// What was expected, after "expected " (`a whole number`).
    const EXPECTED: &'static str;
}

impl Expected for u64 {
    const EXPECTED: &'static str = "a whole number";
}
impl Expected for u32 {
    const EXPECTED: &'static str = "a whole number";
}
impl Expected for usize {
    const EXPECTED: &'static str = "a whole number";
}
impl Expected for f64 {
    const EXPECTED: &'static str = "a number";
}
impl Expected for String {
    const EXPECTED: &'static str = "a word";
}

/// A setting's value that is not what the setting takes: which setting, what it takes,
/// what was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The setting, as the command line spells it (`--games`).
    pub setting: String,
    /// What it takes, after "expected " (`a whole number`).
    pub wanted: String,
    /// The value as given.
    pub got: String,
}

impl ValueError {
    /// The value `got` of `setting`, which takes `wanted`.
    pub(crate) fn new(setting: &str, wanted: &str, got: &str) -> ValueError {
        ValueError { setting: setting.to_string(), wanted: wanted.to_string(), got: got.to_string() }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ValueError { setting, wanted, got } = self;
        write!(f, "{setting}: expected {wanted}, got `{}`", crate::text::shown(got.as_bytes()))
    }
}

impl std::error::Error for ValueError {}

/// The error for a value of `name` that is not what was `wanted`.
pub(crate) fn expected(name: &str, wanted: &str, got: &str) -> SettingError {
    SettingError(ValueError::new(name, wanted, got).to_string())
}

/// `a, b or c`.
pub(crate) fn one_of(choices: &[&str]) -> String {
    match choices.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// `value` (of the setting `name`) as `T`, spaces around it ignored; `None` when absent.
/// Pre: none. Post: `Err` saying what was expected when it does not parse.
pub(crate) fn number<T: Expected>(name: &str, value: Option<&str>) -> Result<Option<T>, SettingError> {
    match value {
        None => Ok(None),
        Some(v) => v.trim().parse().map(Some).map_err(|_| expected(name, T::EXPECTED, v)),
    }
}

/// `value` (of the setting `name`), which must be one of `choices`; `None` when absent.
/// Pre: none. Post: `Err` listing the choices (and the nearest one) otherwise.
pub(crate) fn choice(
    name: &str,
    value: Option<&str>,
    choices: &[&'static str],
) -> Result<Option<&'static str>, SettingError> {
    let Some(v) = value else { return Ok(None) };
    match choices.iter().find(|c| **c == v) {
        Some(c) => Ok(Some(c)),
        None => {
            let SettingError(message) = expected(name, &one_of(choices), v);
            let hint = crate::text::did_you_mean(v, choices);
            Err(SettingError(if hint.is_empty() { message } else { format!("{message}; {}", hint.trim_end()) }))
        }
    }
}

/// The words that choose the rules, as given (each `None` when absent).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RuleWords<'a> {
    /// The preset (`--rules`).
    pub preset: Option<&'a str>,
    /// `--touch`: yes or no.
    pub touch: Option<&'a str>,
    /// `--sunk`: none, yes or named.
    pub sunk: Option<&'a str>,
    /// `--rotate`: yes or no.
    pub rotate: Option<&'a str>,
    /// `--fleet`: the ship sizes.
    pub fleet: Option<&'a str>,
    /// `--fleet-file`: the path of a fleet file.
    pub fleet_file: Option<&'a str>,
}

/// The rules the rule words give, and what was given.
#[derive(Debug, Clone)]
pub(crate) struct RuleSettings {
    /// The rules: the preset (given or default), then each override.
    pub rules: Rules,
    /// The preset as given; `None` when absent.
    pub preset_given: Option<String>,
    /// The setting that gave the fleet (`--fleet` or `--fleet-file`); `None` when neither.
    pub fleet_flag: Option<&'static str>,
    touch: Option<bool>,
    sunk: Option<Sunk>,
    rotate: Option<bool>,
    fleet: Option<Fleet>,
}

impl RuleSettings {
    /// Reads the rule words: the preset, then each override (a fleet file is read here).
    /// Pre: none. Post: `Err` for an unknown preset, a bad value, a fleet with a fleet
    /// file, or a fleet (file) that does not parse, naming the setting (and line).
    pub(crate) fn from_words(w: RuleWords<'_>) -> Result<RuleSettings, SettingError> {
        let error = |e: RulesError| SettingError(e.to_string());
        let preset = w.preset.unwrap_or(DEFAULT_PRESET);
        let base = Rules::preset(preset).map_err(error)?;
        let touch = choice("--touch", w.touch, &["yes", "no"])?.map(|t| t == "yes");
        let sunk = choice("--sunk", w.sunk, &["none", "yes", "named"])?
            .map(|word| Sunk::from_word(word).unwrap_or(Sunk::None));
        let rotate = choice("--rotate", w.rotate, &["yes", "no"])?.map(|r| r == "yes");
        let (fleet, fleet_flag) = match (w.fleet, w.fleet_file) {
            (Some(_), Some(_)) => return Err(SettingError("give --fleet or --fleet-file, not both".into())),
            (Some(list), None) => {
                (Some(Fleet::parse_sizes(list).map_err(|e| error(RulesError::Fleet(e)))?), Some("--fleet"))
            }
            (None, Some(path)) => {
                let text = read_fleet_file(path)?;
                let fleet = Fleet::parse_file(&text)
                    .map_err(|e| error(RulesError::FleetFile { path: path.to_string(), error: e }))?;
                (Some(fleet), Some("--fleet-file"))
            }
            (None, None) => (None, None),
        };
        let preset_given = w.preset.map(str::to_string);
        let mut settings = RuleSettings { rules: base, preset_given, fleet_flag, touch, sunk, rotate, fleet };
        settings.rules = settings.overridden(settings.rules.clone());
        Ok(settings)
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

    /// The rules with the preset `preset` where none is given (`serve`'s `/exec` and
    /// `play --url` play the remote-service seed's game by default).
    /// Pre: none. Post: `Err` when `preset` is no preset.
    pub(crate) fn rules_or_preset(&self, preset: &str) -> Result<Rules, SettingError> {
        if self.preset_given.is_some() {
            return Ok(self.rules.clone());
        }
        let rules = Rules::preset(preset).map_err(|e| SettingError(e.to_string()))?;
        Ok(self.overridden(rules))
    }

    /// True when a fleet or a fleet file was given.
    pub(crate) fn fleet_given(&self) -> bool {
        self.fleet_flag.is_some()
    }

    /// Refuses a judge input whose ships are not the fleet given (without one, the
    /// input's ships are the fleet).
    /// Pre: `input` is the fleet of the input's board. Post: `Err` naming both.
    pub(crate) fn check_fleet(&self, input: &Fleet) -> Result<(), SettingError> {
        match self.fleet_flag {
            Some(flag) if self.rules.fleet().sizes() != input.sizes() => Err(SettingError(format!(
                "the input's ships ({}) are not the fleet given by {flag} ({})",
                input.describe(),
                self.rules.fleet().describe()
            ))),
            _ => Ok(()),
        }
    }
}

/// Reads a fleet file of at most [`FLEET_FILE_BYTES`] bytes.
fn read_fleet_file(path: &str) -> Result<String, SettingError> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).map_err(|e| SettingError(format!("--fleet-file: cannot open `{path}`: {e}")))?;
    let mut bytes = Vec::new();
    file.take(FLEET_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SettingError(format!("--fleet-file: reading `{path}`: {e}")))?;
    if bytes.len() as u64 > FLEET_FILE_BYTES {
        return Err(SettingError(format!("--fleet-file: `{path}` is larger than {FLEET_FILE_BYTES} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| SettingError(format!("--fleet-file: `{path}` is not UTF-8 text")))
}

/// The bay's size: `rows` and `cols` where given, else the rules' usual bay.
/// Pre: none. Post: `Err` for a size the board refuses.
pub(crate) fn bay_or_rules(
    rows: Option<usize>,
    cols: Option<usize>,
    rules: &Rules,
) -> Result<(usize, usize), SettingError> {
    let (r, c) = rules.bay();
    let (rows, cols) = (rows.unwrap_or(r), cols.unwrap_or(c));
    crate::game::board::Board::check_size(rows, cols).map_err(|e| SettingError(e.to_string()))?;
    Ok((rows, cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_and_numbers_name_the_setting() {
        assert_eq!(choice("--touch", Some("yes"), &["yes", "no"]), Ok(Some("yes")));
        assert_eq!(choice("--touch", None, &["yes", "no"]), Ok(None));
        assert_eq!(
            choice("--touch", Some("maybe"), &["yes", "no"]).unwrap_err().to_string(),
            "--touch: expected yes or no, got `maybe`"
        );
        assert_eq!(number::<u64>("--seed", Some(" 7 ")), Ok(Some(7)));
        assert_eq!(number::<u64>("--seed", Some("x")).unwrap_err().0, "--seed: expected a whole number, got `x`");
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
    }

    #[test]
    fn rule_words_give_the_preset_and_its_overrides() {
        let s = RuleSettings::from_words(RuleWords::default()).unwrap();
        assert_eq!(s.rules, Rules::preset(DEFAULT_PRESET).unwrap());
        assert!(s.preset_given.is_none() && !s.fleet_given());
        let w = RuleWords { preset: Some("classic"), touch: Some("yes"), fleet: Some("3,2"), ..RuleWords::default() };
        let s = RuleSettings::from_words(w).unwrap();
        let want = Rules::preset("classic").unwrap().with_touch(true).with_fleet(Fleet::parse_sizes("3,2").unwrap());
        assert_eq!((s.rules, s.fleet_flag), (want, Some("--fleet")));
        let both = RuleWords { fleet: Some("3"), fleet_file: Some("f"), ..RuleWords::default() };
        assert_eq!(RuleSettings::from_words(both).unwrap_err().0, "give --fleet or --fleet-file, not both");
        assert_eq!(bay_or_rules(Some(3), None, &Rules::preset("classic").unwrap()), Ok((3, 10)));
        assert!(bay_or_rules(Some(0), None, &Rules::preset("classic").unwrap()).is_err());
    }
}
