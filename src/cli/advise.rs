//! `advise`: not built yet.

use super::{CliError, Streams};

/// Runs `advise`.
/// Pre: none. Post: not implemented yet: always a usage error.
pub fn run(_args: &[String], _io: &mut Streams<'_>) -> Result<(), CliError> {
    Err(CliError::Usage("advise is not implemented yet".into()))
}
