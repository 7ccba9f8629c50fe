//! A small command-line flag reader: `--name value`, `--name=value` and bare switches.

use super::CliError;
use std::collections::HashMap;
use std::str::FromStr;

/// How a command's flag is written.
#[derive(Debug, Clone, Copy)]
pub struct FlagSpec {
    /// The flag, with its dashes (`--rows`).
    pub name: &'static str,
    /// True when the flag takes a value.
    pub takes_value: bool,
}

/// A flag that takes a value.
pub const fn value(name: &'static str) -> FlagSpec {
    FlagSpec { name, takes_value: true }
}

/// A flag that stands alone.
pub const fn switch(name: &'static str) -> FlagSpec {
    FlagSpec { name, takes_value: false }
}

/// The flags given to one command.
#[derive(Debug, Default)]
pub struct Flags {
    values: HashMap<&'static str, String>,
}

impl Flags {
    /// Reads `args` against `spec`.
    /// Pre: none. Post: `Err(Usage)` for an unknown flag, a missing value, a repeated
    /// flag or a stray argument; `command` names the command in messages.
    pub fn parse(args: &[String], spec: &[FlagSpec], command: &str) -> Result<Flags, CliError> {
        let mut flags = Flags::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let Some(found) = spec.iter().find(|s| s.name == name) else {
                let known: Vec<_> = spec.iter().map(|s| s.name).collect();
                return Err(CliError::Usage(format!(
                    "{command}: unknown argument `{arg}`; it accepts {} (see --help)",
                    if known.is_empty() { "no flags".to_string() } else { known.join(", ") }
                )));
            };
            let v = if found.takes_value {
                match inline.or_else(|| it.next().cloned()) {
                    Some(v) => v,
                    None => return Err(CliError::Usage(format!("{command}: {name} needs a value"))),
                }
            } else if inline.is_some() {
                return Err(CliError::Usage(format!("{command}: {name} takes no value")));
            } else {
                String::new()
            };
            if flags.values.insert(found.name, v).is_some() {
                return Err(CliError::Usage(format!("{command}: {name} given twice")));
            }
        }
        Ok(flags)
    }

    /// True when the flag was given.
    /// Pre: none. Post: no change.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The flag's raw value.
    /// Pre: none. Post: `None` when absent.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The flag's value parsed as `T`, or `default` when absent.
    /// Pre: none. Post: `Err(Usage)` naming the flag when the value does not parse.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T, CliError> {
        match self.values.get(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| CliError::Usage(format!("{name}: `{v}` is not a valid value"))),
        }
    }

    /// The flag's value parsed as `T`; the flag must be given.
    /// Pre: none. Post: `Err(Usage)` when absent or unparsable.
    pub fn require<T: FromStr>(&self, name: &str, command: &str) -> Result<T, CliError> {
        match self.values.get(name) {
            None => Err(CliError::Usage(format!("{command}: {name} is required (see --help)"))),
            Some(v) => v.parse().map_err(|_| CliError::Usage(format!("{name}: `{v}` is not a valid value"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    const SPEC: [FlagSpec; 3] = [value("--rows"), value("--cols"), switch("--help")];

    #[test]
    fn reads_both_forms() {
        let f = Flags::parse(&s(&["--rows", "3", "--cols=4", "--help"]), &SPEC, "t").unwrap();
        assert_eq!(f.get("--rows", 0usize).unwrap(), 3);
        assert_eq!(f.require::<usize>("--cols", "t").unwrap(), 4);
        assert!(f.has("--help"));
        assert_eq!(f.get("--missing", 7u8).unwrap(), 7);
        assert_eq!(f.text("--rows"), Some("3"));
    }

    #[test]
    fn refuses_bad_flags() {
        assert!(Flags::parse(&s(&["--nope"]), &SPEC, "t").is_err());
        assert!(Flags::parse(&s(&["--rows"]), &SPEC, "t").is_err());
        assert!(Flags::parse(&s(&["--rows", "1", "--rows", "2"]), &SPEC, "t").is_err());
        assert!(Flags::parse(&s(&["--help=x"]), &SPEC, "t").is_err());
        let f = Flags::parse(&s(&["--rows", "x"]), &SPEC, "t").unwrap();
        assert!(f.get("--rows", 0usize).is_err());
        assert!(f.require::<usize>("--cols", "t").is_err());
    }
}
