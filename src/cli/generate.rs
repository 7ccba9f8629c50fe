//! `generate`: a valid judge input with ships placed at random.

use super::args::{Command, Flag, Operands, Parsed};
use super::{CliError, Streams};
use crate::board::Board;
use crate::placement::{parse_fleet, Placer, STANDARD_FLEET};
use crate::rng::Rng;
use crate::strategy::{self, DEFAULT_SEED};
use std::fmt::Write as _;

const FLAGS: &[Flag] = &[
    Flag::value("--rows", "R", "board rows (at most 100,000,000 cells in all)"),
    Flag::value("--cols", "C", "board columns"),
    Flag::value("--fleet", "LIST", "ship sizes, largest first or not (default 5,4,3,3,2,2,1,1)"),
    Flag::value("--density", "F", "instead of a fleet: ships of mixed sizes until about F of\nthe cells hold ships (random placement jams near 0.27)"),
    Flag::value("--strategy", "NAME", "first line of the input").default("prob"),
    Flag::value("--seed", "S", "random seed: the same seed gives the same output").default("2021"),
];

/// `generate`'s command line.
pub const COMMAND: Command = Command {
    name: "generate",
    summary: "print a random valid judge input",
    usage: &["generate --rows R --cols C [--fleet LIST | --density F] [...]"],
    groups: &[("OPTIONS", FLAGS)],
    operands: Operands::None,
    after: "\
Ships are placed largest first, each uniformly among the placements still valid
(in the board, not touching any ship); a fleet that gets stuck starts again. A
fleet that cannot fit gives an error.
",
};

/// Prints a random judge input.
/// Pre: none. Post: on `Ok`, stdout holds a valid judge input.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let rows: usize = flags.require("--rows")?;
    let cols: usize = flags.require("--cols")?;
    Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    let name = flags.text("--strategy").unwrap_or("prob");
    if !strategy::NAMES.contains(&name) {
        return Err(CliError::Usage(format!(
            "--strategy: unknown strategy `{name}`; valid names: {}",
            strategy::NAMES.join(", ")
        )));
    }
    let mut rng = Rng::new(flags.get_or("--seed", DEFAULT_SEED)?);
    let mut placer = Placer::new(rows, cols);
    let ships = match (flags.text("--fleet"), flags.text("--density")) {
        (Some(_), Some(_)) => return Err(CliError::Usage("give --fleet or --density, not both".into())),
        (None, Some(_)) => {
            let density: f64 = flags.get_or("--density", 0.0)?;
            if !(0.0..=1.0).contains(&density) {
                return Err(CliError::Usage(format!("--density: {density} is not between 0 and 1")));
            }
            placer.fill_density(density, &mut rng)?
        }
        (fleet, None) => {
            let sizes = match fleet {
                Some(text) => parse_fleet(text).map_err(|e| CliError::Usage(format!("--fleet: {e}")))?,
                None => STANDARD_FLEET.to_vec(),
            };
            placer.place_fleet(&sizes, &mut rng)?
        }
    };
    let mut out = String::with_capacity(32 + ships.len() * 16);
    let _ = writeln!(out, "{name}\n{rows} {cols} {}", ships.len());
    for (k, ship) in ships.iter().enumerate() {
        let sep = if k + 1 == ships.len() || (k + 1) % 8 == 0 { "\n" } else { " " };
        let _ = write!(out, "{ship}{sep}");
    }
    if ships.is_empty() {
        out.push('\n');
    }
    io.stdout.write_all(out.as_bytes())?;
    Ok(())
}
