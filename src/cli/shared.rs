//! The flags several commands share, each defined once: its name, the name of its value,
//! its default, and how it is read into a typed value. A command whose help says more
//! about a shared flag gives its own line of help ([`Flag::with_help`]); the name, value
//! and default stay these. The rule and bay flags are in [`super::game`].

use super::CliError;
use crate::args::{Flag, Parsed};

/// `--seed S`: the seed of a command's random choices (the strategies', the boards').
/// Its default is [`crate::strategy::DEFAULT_SEED`] (a test checks that they agree).
pub(crate) const SEED: Flag =
    Flag::value("--seed", "S", "seed of the random choices of random and bayes").default("2021");

/// `--strategy NAME`: the strategy that plays (each command says more in its help).
pub(crate) const STRATEGY: Flag = Flag::value("--strategy", "NAME", "the strategy that plays");

/// `--format F`: how the output is written (each command lists its formats).
pub(crate) const FORMAT: Flag = Flag::value("--format", "F", "text or json").default("text");

/// `--coords HOW`: how cells are named, numbers from 0 or a row letter and a column number.
pub(crate) const COORDS: Flag = Flag::value(
    "--coords",
    "HOW",
    "numbers: ask `? r c` (from 0); letters: ask `? B7` (rows\nA, B, ..., Z, AA, ...; columns from 1)",
)
.default("numbers");

/// `--color WHEN`: the flag of every command that colours its output.
pub(crate) const COLOR: Flag = Flag::value(
    "--color",
    "WHEN",
    "auto (colour when stdout is a terminal, NO_COLOR is unset\nor empty and TERM is not dumb), always or never",
)
.default("auto");

/// `--seed`'s value (its default when absent).
/// Pre: the command's table has [`SEED`]. Post: `Err(Usage)` when it is not a whole number.
pub(crate) fn seed(p: &Parsed) -> Result<u64, CliError> {
    Ok(p.require(SEED.name)?)
}

/// `--strategy`'s value as given; `None` when absent.
/// Pre: none. Post: no check of the name (the rules and the board decide).
pub(crate) fn strategy(p: &Parsed) -> Option<String> {
    p.text(STRATEGY.name).map(str::to_string)
}

/// `--coords letters`.
/// Pre: none. Post: `Err(Usage)` for a value other than numbers or letters.
pub(crate) fn letters(p: &Parsed) -> Result<bool, CliError> {
    Ok(p.choice(COORDS.name, &["numbers", "letters"])? == Some("letters"))
}

/// An output format of `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// Text for people.
    Text,
    /// Comma-separated values.
    Csv,
    /// JSON.
    Json,
}

impl Format {
    /// `--format`'s value, one of `choices` (the command's formats, in the order its
    /// errors list them); `Text` when absent without default.
    /// Pre: `choices` are among text, csv and json. Post: `Err(Usage)` listing `choices`.
    pub(crate) fn read(p: &Parsed, choices: &[&'static str]) -> Result<Format, CliError> {
        Ok(match p.choice(FORMAT.name, choices)? {
            Some("csv") => Format::Csv,
            Some("json") => Format::Json,
            _ => Format::Text,
        })
    }
}

/// When to colour, as `--color` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColorWhen {
    /// At a terminal, unless the environment says no.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// `--color`'s value (its default when absent).
    /// Pre: none. Post: `Err(Usage)` for a value other than auto, always or never.
    pub(crate) fn read(p: &Parsed) -> Result<ColorWhen, CliError> {
        Ok(match p.choice(COLOR.name, &["auto", "always", "never"])? {
            Some("always") => ColorWhen::Always,
            Some("never") => ColorWhen::Never,
            _ => ColorWhen::Auto,
        })
    }

    /// Whether to colour a stream (`tty`: it is a terminal), `auto` asking the
    /// environment ([`crate::tools::streams::color_wanted`]).
    /// Pre: none. Post: no change.
    pub(crate) fn wanted(self, tty: bool) -> bool {
        let word = match self {
            ColorWhen::Auto => "auto",
            ColorWhen::Always => "always",
            ColorWhen::Never => "never",
        };
        crate::tools::streams::color_wanted(word, tty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Command;

    const FLAGS: &[Flag] = &[SEED, STRATEGY, FORMAT, COORDS, COLOR];
    const CMD: Command = Command::for_tests(&[("OPTIONS", FLAGS)]);

    fn parse(args: &[&str]) -> Parsed {
        CMD.parse_words(args)
    }

    #[test]
    fn the_seed_default_is_the_strategies_default() {
        assert_eq!(SEED.default, Some(crate::strategy::DEFAULT_SEED.to_string().as_str()));
        assert_eq!(seed(&parse(&[])).unwrap(), crate::strategy::DEFAULT_SEED);
    }

    #[test]
    fn defaults_when_absent() {
        let p = parse(&[]);
        assert_eq!(strategy(&p), None);
        assert!(!letters(&p).unwrap());
        assert_eq!(Format::read(&p, &["text", "json"]).unwrap(), Format::Text);
        assert_eq!(ColorWhen::read(&p).unwrap(), ColorWhen::Auto);
    }

    #[test]
    fn each_flag_is_read_into_its_type() {
        let p = parse(&["--seed", "7", "--strategy", "prob", "--format=json", "--coords", "letters", "--color=never"]);
        assert_eq!(seed(&p).unwrap(), 7);
        assert_eq!(strategy(&p).as_deref(), Some("prob"));
        assert!(letters(&p).unwrap());
        assert_eq!(Format::read(&p, &["text", "json"]).unwrap(), Format::Json);
        assert_eq!(ColorWhen::read(&p).unwrap(), ColorWhen::Never);
        assert!(!ColorWhen::Never.wanted(true) && ColorWhen::Always.wanted(false));
        assert_eq!(Format::read(&parse(&["--format", "csv"]), &["text", "csv"]).unwrap(), Format::Csv);
    }

    #[test]
    fn bad_values_say_what_was_expected() {
        let e = |r: Result<(), CliError>| r.unwrap_err().to_string();
        assert_eq!(e(seed(&parse(&["--seed", "x"])).map(drop)), "--seed: expected a whole number, got `x`");
        assert_eq!(
            e(Format::read(&parse(&["--format", "csv"]), &["text", "json"]).map(drop)),
            "--format: expected text or json, got `csv`"
        );
        assert_eq!(
            e(letters(&parse(&["--coords", "leters"])).map(drop)),
            "--coords: expected numbers or letters, got `leters`; did you mean `letters`?"
        );
        assert!(e(ColorWhen::read(&parse(&["--color", "yes"])).map(drop)).starts_with("--color: expected auto"));
    }
}
