//! The judge command: input on stdin, scan count and final grid on stdout.

use super::args::{value, Flags};
use super::{read_all, CliError, Streams};
use crate::input;
use crate::strategy::{self, DEFAULT_SEED};

/// Solves the judge input on stdin.
/// Pre: none. Post: on `Ok`, stdout holds the count line and the grid; on `Err`, nothing.
pub fn run(args: &[String], io: &mut Streams<'_>) -> Result<(), CliError> {
    let flags = Flags::parse(args, &[value("--seed")], "spot-the-ships")?;
    let seed = flags.get("--seed", DEFAULT_SEED)?;
    let bytes = read_all(io.stdin)?;
    let input = input::parse(&bytes, &strategy::NAMES)?;
    let mut board = input.board;
    let Some(mut strategy) = strategy::by_name(&input.strategy, seed) else {
        return Err(CliError::Usage(format!("unknown strategy `{}`", input.strategy)));
    };
    let record = strategy::solve(strategy.as_mut(), &mut board)?;
    io.stdout.write_all(record.render_output(Some(&board)).as_bytes())?;
    Ok(())
}
