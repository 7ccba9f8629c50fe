//! `generate`: a valid judge input with ships placed at random.

use super::args::{Command, Flag, Operands, Parsed};
use super::game::{self, RULE_FLAGS};
use super::{CliError, Streams};
use crate::game::input;
use crate::game::placement::Placer;
use crate::game::rng::Rng;
use crate::strategy::{self, DEFAULT_SEED};
use std::fmt::Write as _;

const FLAGS: &[Flag] = &[
    Flag::value("--rows", "R", "board rows (default: the rules' bay; at most 100,000,000\ncells in all)"),
    Flag::value("--cols", "C", "board columns (default: the rules' bay)"),
    Flag::value(
        "--density",
        "F",
        "instead of the fleet: straight ships of mixed sizes until\nabout F of the cells hold ships (random placement jams\nnear 0.27 when ships may not touch)",
    ),
    Flag::value(
        "--strategy",
        "NAME",
        "first line of the input [default: prob, or density under\nrules prob cannot play]",
    ),
    Flag::value("--seed", "S", "random seed: the same seed gives the same output").default("2021"),
];

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
};

/// Prints a random judge input.
/// Pre: none. Post: on `Ok`, stdout holds a valid judge input.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let rules = game::rules(flags)?;
    let (rows, cols) = game::bay(flags, &rules)?;
    // prob is the statement's; rules it cannot play (ships that touch, drawn ships) get
    // density, which plays any.
    let fallback = if strategy::for_rules("prob", 0, &rules).is_ok() { "prob" } else { "density" };
    let name = flags.text("--strategy").unwrap_or(fallback);
    strategy::for_rules(name, 0, &rules).map_err(|e| CliError::Usage(format!("--strategy: {e}")))?;
    let mut rng = Rng::new(flags.get_or("--seed", DEFAULT_SEED)?);
    let mut placer = Placer::with_rules(rows, cols, &rules);
    let ships = if flags.has("--density") {
        if flags.has("--fleet") || flags.has("--fleet-file") {
            return Err(CliError::Usage("give a fleet or --density, not both".into()));
        }
        if !rules.fleet().is_straight() {
            return Err(CliError::Usage("--density places straight ships; these rules have drawn ones".into()));
        }
        let density: f64 = flags.get_or("--density", 0.0)?;
        if !(0.0..=1.0).contains(&density) {
            return Err(CliError::Usage(format!("--density: {density} is not between 0 and 1")));
        }
        placer.fill_density(density, &mut rng)?
    } else {
        let mut ships = Vec::new();
        placer.place(rules.fleet(), &mut rng, &mut ships)?;
        ships
    };
    let mut out = String::with_capacity(32 + ships.len() * 16);
    let _ = writeln!(out, "{name}\n{rows} {cols} {}", ships.len());
    for (k, ship) in ships.iter().enumerate() {
        let sep = if k + 1 == ships.len() || (k + 1) % 8 == 0 { "\n" } else { " " };
        let _ = write!(out, "{}{sep}", input::ship_text(ship, &rules));
    }
    if ships.is_empty() {
        out.push('\n');
    }
    io.stdout.write_all(out.as_bytes())?;
    Ok(())
}
