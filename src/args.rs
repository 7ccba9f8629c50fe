//! The flag parser: a command's line is one table (a [`Command`]), and the same value
//! parses the arguments ([`Command::parse`]) and writes the help ([`Command::help`]),
//! so the two never drift apart. A [`Parsed`] is read once, by the command's config
//! function, into typed fields; nothing reads a flag by its name after that. The
//! tables themselves (each command's flags and help) are the command line's, in `cli`;
//! this is the engine, which knows no command. Its errors are typed ([`ArgsError`]).
//!
//! Flags are written `--name value`, `--name=value`, or alone for switches; `-h` and
//! `--help` work everywhere; `--` ends the flags (what follows is the command's operands,
//! for `check -- PROGRAM ARGS`). An unknown flag lists the command's flags and suggests
//! the nearest; a bad value says what was expected (`--games: expected a whole number,
//! got 1e6`).

use crate::tools::settings::{SettingError, ValueError};
use std::collections::HashMap;
use std::fmt::{self, Write as _};

/// Arguments that do not fit a command's table, or a flag's value that is not what the
/// flag takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgsError {
    /// `--` given to a command that takes no program after it.
    DashesUnused,
    /// A second input file where one is read.
    SecondFile(String),
    /// A word before `--` where the command takes a program after it.
    BeforeDashes(String),
    /// A word where the command takes none.
    Unexpected(String),
    /// A flag the command does not have, and every flag it has.
    UnknownFlag {
        /// The flag as given.
        name: String,
        /// The command's flags, `--help` last.
        flags: Vec<&'static str>,
    },
    /// A flag given without its value.
    NeedsValue {
        /// The flag.
        flag: String,
        /// The name of its value in the help (`N`).
        value: &'static str,
    },
    /// A switch given a value (`--quiet=x`).
    TakesNoValue(String),
    /// A flag given twice that may be given once.
    GivenTwice(String),
    /// A flag that must be given and was not.
    Required(String),
    /// A flag given where a rule of the command forbids it, or out of its range: the
    /// flag and the rule (`--jobs`, `between 1 and 256`).
    Rule {
        /// The flag.
        flag: &'static str,
        /// The rule it breaks, worded.
        rule: &'static str,
    },
    /// A time that is not seconds more than 0, at most a day.
    Seconds {
        /// The flag.
        flag: String,
        /// The value as given.
        got: String,
    },
    /// Two settings given where only one may be: `give A or B, not both`.
    Exclusive(&'static str, &'static str),
    /// A flag's value that is not what was expected.
    Expected(ValueError),
    /// A flag's value refused by the settings' reader (a choice, a number, the rules).
    Setting(SettingError),
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgsError::DashesUnused => write!(f, "`--` is not used by this command (see --help)"),
            ArgsError::SecondFile(arg) => write!(f, "unexpected `{arg}`: only one input file is read (see --help)"),
            ArgsError::BeforeDashes(arg) => {
                write!(f, "unexpected `{arg}`: put the program to run after `--` (see --help)")
            }
            ArgsError::Unexpected(arg) => write!(f, "unexpected argument `{arg}` (see --help)"),
            ArgsError::UnknownFlag { name, flags } => {
                let hint = crate::render::words::did_you_mean(name, flags);
                write!(f, "unknown argument `{name}`; {hint}valid flags: {}", flags.join(", "))
            }
            ArgsError::NeedsValue { flag, value } => write!(f, "{flag} needs a value ({value})"),
            ArgsError::TakesNoValue(flag) => write!(f, "{flag} takes no value"),
            ArgsError::GivenTwice(flag) => write!(f, "{flag} given twice"),
            ArgsError::Required(flag) => write!(f, "{flag} is required (see --help)"),
            ArgsError::Rule { flag, rule } => write!(f, "{flag}: {rule}"),
            ArgsError::Exclusive(a, b) => write!(f, "give {a} or {b}, not both"),
            // Quoted as typed: the parsed float of `1e308` is 309 digits long.
            ArgsError::Seconds { flag, got } => {
                write!(f, "{flag}: expected seconds between 0 and 86400, got `{}`", crate::render::words::escaped(got))
            }
            ArgsError::Expected(e) => write!(f, "{e}"),
            ArgsError::Setting(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ArgsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ArgsError::Setting(e) => Some(e),
            ArgsError::Expected(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SettingError> for ArgsError {
    fn from(e: SettingError) -> ArgsError {
        ArgsError::Setting(e)
    }
}

/// One flag of a command: how it is written, what it takes, and its line of help.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flag {
    /// The flag with its dashes (`--games`).
    pub name: &'static str,
    /// The name of its value in the help (`N`), or `None` for a switch.
    pub value: Option<&'static str>,
    /// What it does; more lines after `\n`.
    pub help: &'static str,
    /// The value used when the flag is absent, shown in the help.
    pub default: Option<&'static str>,
    /// True when the flag may be given more than once (each value is kept).
    pub repeatable: bool,
}

impl Flag {
    /// A flag that takes a value.
    pub const fn value(name: &'static str, value: &'static str, help: &'static str) -> Flag {
        Flag { name, value: Some(value), help, default: None, repeatable: false }
    }

    /// A flag that stands alone.
    pub const fn switch(name: &'static str, help: &'static str) -> Flag {
        Flag { name, value: None, help, default: None, repeatable: false }
    }

    /// The same flag with a default value.
    pub const fn default(self, default: &'static str) -> Flag {
        Flag { default: Some(default), ..self }
    }

    /// The same flag with another line of help: a shared flag (its name, value and
    /// default defined once) says what it does in one command.
    pub const fn with_help(self, help: &'static str) -> Flag {
        Flag { help, ..self }
    }

    /// The same flag without its default (the flag must then be given, or is optional).
    pub const fn without_default(self) -> Flag {
        Flag { default: None, ..self }
    }

    /// The same flag, which may be given more than once ([`Parsed::all`] lists every
    /// value, in the order given).
    pub const fn repeatable(self) -> Flag {
        Flag { repeatable: true, ..self }
    }
}

/// The help flag every command has.
const HELP: Flag = Flag::switch("--help", "print this help (also -h)");

/// What a command takes besides its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operands {
    /// Nothing.
    None,
    /// At most one file to read instead of standard input (`-` is standard input).
    File,
    /// Words after `--` (a program and its arguments).
    AfterDashes,
    /// Any number of files (`simulate merge FILE...`).
    Files,
}

/// A command of the program: its name, help text and flags.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Command {
    /// The command's name (`simulate`); empty for the judge, the default command.
    pub name: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// Usage lines, each after `spot-the-ships `.
    pub usage: &'static [&'static str],
    /// The flags, in groups: a heading and its flags.
    pub groups: &'static [(&'static str, &'static [Flag])],
    /// What it takes besides flags.
    pub operands: Operands,
    /// More help, after the flags (input and output formats, protocols, errors).
    pub after: &'static str,
    /// Help made from tables elsewhere (strategies, rule presets), after `after`.
    pub extra: Option<fn() -> String>,
    /// The document that has the command's details, named at the end of its help.
    pub document: Option<&'static str>,
}

/// The arguments of one command, read against its table.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    values: HashMap<&'static str, Vec<String>>,
    defaults: HashMap<&'static str, &'static str>,
    operands: Vec<String>,
    help: bool,
}

pub(crate) use crate::tools::settings::Expected;

impl Command {
    /// Every flag of the command, `--help` last.
    pub fn flags(&self) -> impl Iterator<Item = &Flag> + '_ {
        self.groups.iter().flat_map(|(_, flags)| flags.iter()).chain(std::iter::once(&HELP))
    }

    /// Reads `args` (without the command's name).
    /// Pre: none. Post: `Err` for an unknown flag (with the nearest one), a
    /// missing value, a repeated flag that is not repeatable, or operands the command
    /// does not take.
    pub fn parse(&self, args: &[String]) -> Result<Parsed, ArgsError> {
        let mut parsed = Parsed::default();
        for f in self.flags() {
            if let Some(d) = f.default {
                parsed.defaults.insert(f.name, d);
            }
        }
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "--" {
                if self.operands != Operands::AfterDashes {
                    return Err(ArgsError::DashesUnused);
                }
                parsed.operands.extend(it.by_ref().cloned());
                break;
            }
            if arg == "-h" || arg == "--help" {
                parsed.help = true;
                continue;
            }
            let is_flag = arg.starts_with('-') && arg != "-";
            if !is_flag {
                match self.operands {
                    Operands::File if parsed.operands.is_empty() => parsed.operands.push(arg.clone()),
                    Operands::Files => parsed.operands.push(arg.clone()),
                    Operands::File => return Err(ArgsError::SecondFile(arg.clone())),
                    Operands::AfterDashes => return Err(ArgsError::BeforeDashes(arg.clone())),
                    Operands::None => return Err(ArgsError::Unexpected(arg.clone())),
                }
                continue;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (arg.as_str(), None),
            };
            let Some(flag) = self.flags().find(|f| f.name == name).copied() else {
                let flags = self.flags().map(|f| f.name).collect();
                return Err(ArgsError::UnknownFlag { name: name.to_string(), flags });
            };
            let value = match (flag.value, inline) {
                (Some(_), Some(v)) => v,
                (Some(what), None) => match it.next() {
                    Some(v) => v.clone(),
                    None => return Err(ArgsError::NeedsValue { flag: name.to_string(), value: what }),
                },
                (None, Some(_)) => return Err(ArgsError::TakesNoValue(name.to_string())),
                (None, None) => String::new(),
            };
            let slot = parsed.values.entry(flag.name).or_default();
            if !slot.is_empty() && !flag.repeatable {
                return Err(ArgsError::GivenTwice(name.to_string()));
            }
            slot.push(value);
        }
        Ok(parsed)
    }

    /// The whole help text of the command.
    /// Pre: none. Post: ends with a newline; lines fit 80 columns where the texts do.
    pub fn help(&self) -> String {
        let mut out = String::new();
        let title =
            if self.name.is_empty() { "spot-the-ships".to_string() } else { format!("spot-the-ships {}", self.name) };
        let _ = writeln!(out, "{title}: {}\n\nUSAGE", self.summary);
        for u in self.usage {
            let _ = writeln!(out, "  spot-the-ships {u}");
        }
        let mut groups: Vec<(&str, Vec<&Flag>)> =
            self.groups.iter().map(|(head, flags)| (*head, flags.iter().collect())).collect();
        match groups.iter_mut().find(|(head, _)| *head == "OPTIONS") {
            Some((_, flags)) => flags.push(&HELP),
            None => groups.push(("OPTIONS", vec![&HELP])),
        }
        let width = self.flags().map(|f| f.name.len() + f.value.map_or(0, |v| v.len() + 1)).max().unwrap_or(0);
        for (head, flags) in groups {
            let _ = writeln!(out, "\n{head}");
            for f in flags {
                let lead = match f.value {
                    Some(v) => format!("{} {v}", f.name),
                    None => f.name.to_string(),
                };
                let mut lines: Vec<String> = f.help.lines().map(str::to_string).collect();
                if let Some(d) = f.default {
                    let tail = format!("[default: {d}]");
                    match lines.last_mut() {
                        Some(last) if width + 4 + last.len() + 1 + tail.len() <= 80 => {
                            last.push(' ');
                            last.push_str(&tail);
                        }
                        _ => lines.push(tail),
                    }
                }
                for (k, line) in lines.iter().enumerate() {
                    let lead = if k == 0 { lead.as_str() } else { "" };
                    let _ = writeln!(out, "  {lead:<width$}  {line}");
                }
            }
        }
        for more in [self.after.to_string(), self.extra.map(|f| f()).unwrap_or_default()] {
            if !more.is_empty() {
                let _ = write!(out, "\n{more}");
                if !more.ends_with('\n') {
                    out.push('\n');
                }
            }
        }
        if let Some(doc) = self.document {
            let _ = writeln!(out, "\nMore: {doc} in the project's repository.");
        }
        out
    }
}

impl Parsed {
    /// True when `-h` or `--help` was given.
    pub fn wants_help(&self) -> bool {
        self.help
    }

    /// True when the flag was given.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The flag's value as written, else its default; `None` when neither exists.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).and_then(|v| v.first()).map(String::as_str).or_else(|| self.defaults.get(name).copied())
    }

    /// Every value the flag was given, in order; empty when it was not given (its
    /// default is not included).
    /// Pre: none. Post: more than one value only for a repeatable flag.
    pub fn all(&self, name: &str) -> &[String] {
        self.values.get(name).map_or(&[], Vec::as_slice)
    }

    /// The operands (file names, or the program after `--`).
    pub fn operands(&self) -> &[String] {
        &self.operands
    }

    /// The flag's value (or default) as `T`; `Ok(None)` when there is neither.
    /// Pre: none. Post: `Err` saying what was expected when it does not parse.
    pub fn get<T: Expected>(&self, name: &str) -> Result<Option<T>, ArgsError> {
        Ok(crate::tools::settings::number(name, self.text(name))?)
    }

    /// As [`Parsed::get`], with `fallback` when the flag has neither value nor default.
    /// Pre: none. Post: as `get`.
    pub fn get_or<T: Expected>(&self, name: &str, fallback: T) -> Result<T, ArgsError> {
        Ok(self.get(name)?.unwrap_or(fallback))
    }

    /// The flag's value as `T`; the flag must be given.
    /// Pre: none. Post: `Err` when absent or unparsable.
    pub fn require<T: Expected>(&self, name: &str) -> Result<T, ArgsError> {
        self.get(name)?.ok_or_else(|| ArgsError::Required(name.to_string()))
    }

    /// The flag's value (or default) as a time in seconds: more than 0, at most a day.
    /// Pre: none. Post: `Err` when absent, unparsable or out of that range.
    pub fn seconds(&self, name: &str) -> Result<f64, ArgsError> {
        let s: f64 = self.require(name)?;
        if !(s.is_finite() && s > 0.0 && s <= 86_400.0) {
            return Err(ArgsError::Seconds { flag: name.to_string(), got: self.text(name).unwrap_or_default().into() });
        }
        Ok(s)
    }

    /// The flag's value (or default), which must be one of `choices`.
    /// Pre: none. Post: `Ok(None)` when absent without default; `Err(Usage)` listing the
    /// choices otherwise.
    pub fn choice(&self, name: &str, choices: &[&'static str]) -> Result<Option<&'static str>, ArgsError> {
        Ok(crate::tools::settings::choice(name, self.text(name), choices)?)
    }
}

#[cfg(test)]
impl Command {
    /// A command named `t` with these flag groups and nothing else (for tests of flags
    /// shared by several commands).
    pub(crate) const fn for_tests(groups: &'static [(&'static str, &'static [Flag])]) -> Command {
        Command {
            name: "t",
            summary: "a test",
            usage: &["t"],
            groups,
            operands: Operands::None,
            after: "",
            extra: None,
            document: None,
        }
    }

    /// The arguments `words` read against this table (for the configs' tests).
    /// Pre: the words parse. Post: panics otherwise.
    pub(crate) fn parse_words(&self, words: &[&str]) -> Parsed {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        self.parse(&args).expect("the words parse")
    }
}

/// The error for a value of `name` that is not what was `wanted`.
pub(crate) fn expected(name: &str, wanted: &str, got: &str) -> ArgsError {
    ArgsError::Expected(ValueError::new(name, wanted, got))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    const FLAGS: &[Flag] = &[
        Flag::value("--rows", "R", "rows").default("10"),
        Flag::value("--cols", "C", "columns"),
        Flag::value("--tag", "T", "a tag").repeatable(),
        Flag::switch("--quiet", "say less"),
    ];
    const CMD: Command = Command {
        name: "t",
        summary: "a test",
        usage: &["t [OPTIONS]"],
        groups: &[("OPTIONS", FLAGS)],
        operands: Operands::File,
        after: "",
        extra: None,
        document: None,
    };

    #[test]
    fn reads_both_forms_defaults_and_operands() {
        let p = CMD.parse(&s(&["--cols=4", "--quiet", "in.txt"])).unwrap();
        assert_eq!(p.get::<usize>("--rows").unwrap(), Some(10));
        assert_eq!(p.require::<usize>("--cols").unwrap(), 4);
        assert!(p.has("--quiet") && !p.has("--rows") && !p.wants_help());
        assert_eq!(p.operands(), &["in.txt".to_string()]);
        assert!(CMD.parse(&s(&["-h"])).unwrap().wants_help());
        assert_eq!(CMD.parse(&s(&["-"])).unwrap().operands(), &["-".to_string()]);
    }

    #[test]
    fn repeatable_flags_keep_every_value() {
        let p = CMD.parse(&s(&["--tag", "a", "--tag=b=c", "--rows", "3"])).unwrap();
        assert_eq!(p.all("--tag"), &["a".to_string(), "b=c".to_string()]);
        assert_eq!(p.text("--tag"), Some("a"));
        assert_eq!(p.all("--rows"), &["3".to_string()]);
        assert!(p.all("--cols").is_empty());
        let files = Command { operands: Operands::Files, ..CMD };
        assert_eq!(files.parse(&s(&["a", "b", "-"])).unwrap().operands().len(), 3);
    }

    #[test]
    fn refuses_bad_flags_and_says_what_was_expected() {
        let e = CMD.parse(&s(&["--rowz", "3"])).unwrap_err().to_string();
        assert!(e.contains("unknown argument `--rowz`") && e.contains("did you mean `--rows`?"), "{e}");
        assert!(e.contains("--help"), "{e}");
        assert!(CMD.parse(&s(&["--cols"])).unwrap_err().to_string().contains("needs a value (C)"));
        assert!(CMD.parse(&s(&["--cols", "1", "--cols", "2"])).unwrap_err().to_string().contains("given twice"));
        assert!(CMD.parse(&s(&["--quiet=x"])).is_err());
        assert!(CMD.parse(&s(&["a", "b"])).is_err());
        assert!(CMD.parse(&s(&["--", "x"])).is_err());
        let p = CMD.parse(&s(&["--cols", "1e6"])).unwrap();
        assert_eq!(p.get::<u64>("--cols").unwrap_err().to_string(), "--cols: expected a whole number, got `1e6`");
        assert!(p.require::<u64>("--nope").is_err());
        assert_eq!(
            p.choice("--cols", &["a", "b", "c"]).unwrap_err().to_string(),
            "--cols: expected a, b or c, got `1e6`"
        );
    }

    #[test]
    fn help_is_made_from_the_table() {
        let h = CMD.help();
        assert!(h.starts_with("spot-the-ships t: a test\n\nUSAGE\n  spot-the-ships t [OPTIONS]\n"), "{h}");
        for f in FLAGS {
            assert!(h.contains(f.name), "{h}");
        }
        assert!(h.contains("[default: 10]") && h.contains("--help"), "{h}");
    }
}
