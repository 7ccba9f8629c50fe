//! `generate`: a valid judge input with ships placed at random.

use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, SEED, STRATEGY};
use super::{CliError, Streams};
use crate::args::{ArgsError, Command, Flag, Operands, Parsed};
use crate::game::input;
use crate::game::placement::Placer;
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::strategy;

const FLAGS: &[Flag] = &[
    ROWS.with_help("board rows (default: the rules' bay; at most 100,000,000\ncells in all)"),
    COLS.with_help("board columns (default: the rules' bay)"),
    Flag::value(
        "--density",
        "F",
        "instead of the fleet: straight ships of mixed sizes until\nabout F of the cells hold ships (random placement jams\nnear 0.27 when ships may not touch)",
    ),
    STRATEGY.with_help("first line of the input [default: prob, or density under\nrules prob cannot play]"),
    SEED.with_help("random seed: the same seed gives the same output"),
];

/// `generate`'s flags, read and checked.
#[derive(Debug)]
pub(crate) struct GenerateConfig {
    /// The rules.
    pub rules: Rules,
    /// The bay's rows and columns.
    pub bay: (usize, usize),
    /// The strategy named on the first line (one that can play the rules).
    pub strategy: String,
    /// `--seed`.
    pub seed: u64,
    /// `--density`: straight ships until about this share of the cells (0 to 1).
    pub density: Option<f64>,
}

impl GenerateConfig {
    /// Reads `generate`'s arguments.
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, a strategy
    /// the rules rule out, or `--density` with a fleet, drawn ships or out of 0 to 1.
    pub(crate) fn read(p: &Parsed) -> Result<GenerateConfig, CliError> {
        let rule_flags = RuleFlags::read(p)?;
        let rules = rule_flags.rules.clone();
        let bay = BayFlags::read(p)?.or_rules(&rules)?;
        // prob is the statement's; rules it cannot play (ships that touch, drawn ships) get
        // density, which plays any.
        let fallback = if strategy::for_rules("prob", 0, &rules).is_ok() { "prob" } else { "density" };
        let strategy = shared::strategy(p).unwrap_or_else(|| fallback.to_string());
        strategy::for_rules(&strategy, 0, &rules).map_err(|e| CliError::Flag("--strategy", Box::new(e.into())))?;
        let seed = shared::seed(p)?;
        let density = match p.has("--density") {
            false => None,
            true => {
                if rule_flags.fleet_given() {
                    return Err(ArgsError::Exclusive("a fleet", "--density").into());
                }
                if !rules.fleet().is_straight() {
                    return Err(CliError::Usage("--density places straight ships; these rules have drawn ones".into()));
                }
                let density: f64 = p.require("--density")?;
                if !(0.0..=1.0).contains(&density) {
                    return Err(CliError::Usage(format!("--density: {density} is not between 0 and 1")));
                }
                Some(density)
            }
        };
        Ok(GenerateConfig { rules, bay, strategy, seed, density })
    }
}

/// `generate`'s command line.
pub const COMMAND: Command = Command {
    name: "generate",
    summary: "print a random valid judge input",
    usage: &["generate [--rows R --cols C] [--rules NAME] [--density F] [...]"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
Ships are placed largest first, each uniformly among the positions still valid
(inside the board, not on another ship, nor next to one when the rules forbid
touching); a fleet that gets stuck starts again. A fleet that cannot fit gives
an error.
",
    extra: None,
    document: Some("report/rules.md"),
};

/// Prints a random judge input.
/// Pre: none. Post: on `Ok`, stdout holds a valid judge input.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let GenerateConfig { rules, bay: (rows, cols), strategy: name, seed, density } = GenerateConfig::read(flags)?;
    let mut rng = Rng::new(seed);
    let mut placer = Placer::with_rules(rows, cols, &rules);
    let ships = match density {
        Some(density) => placer.fill_density(density, &mut rng)?,
        None => {
            let mut ships = Vec::new();
            placer.place(rules.fleet(), &mut rng, &mut ships)?;
            ships
        }
    };
    io.stdout.write_all(input::text(&name, rows, cols, &ships, &rules, 8).as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = GenerateConfig::read(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!((c.bay, c.strategy.as_str(), c.seed, c.density), ((10, 10), "prob", 2021, None));
        let c =
            GenerateConfig::read(&COMMAND.parse_words(&["--rules", "classic", "--rows", "12", "--seed", "4"])).unwrap();
        assert_eq!((c.bay, c.strategy.as_str(), c.seed), ((12, 10), "density", 4));
        let c = GenerateConfig::read(&COMMAND.parse_words(&["--density", "0.25"])).unwrap();
        assert_eq!(c.density, Some(0.25));
        let e = |w: &[&str]| GenerateConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--density", "2"]), "--density: 2 is not between 0 and 1");
        assert_eq!(e(&["--density", "0.2", "--fleet", "3"]), "give a fleet or --density, not both");
        assert!(e(&["--rules", "classic", "--strategy", "prob"]).starts_with("--strategy: "));
    }
}
