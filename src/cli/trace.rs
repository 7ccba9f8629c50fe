//! `trace`: not built yet.

use super::{CliError, Streams};

/// Runs `trace`.
/// Pre: none. Post: not implemented yet: always a usage error.
pub fn run(_args: &[String], _io: &mut Streams<'_>) -> Result<(), CliError> {
    Err(CliError::Usage("trace is not implemented yet".into()))
}
