//! `play --url`: a strategy plays the remote-service seed's API (`serve`'s `/exec`, or
//! any service that answers `GetRowCount`, `GetColumnCount` and `GetCellAt` with
//! numbers), then prints where the ships are, as the seed's program did.

use super::game::RuleFlags;
use super::{CliError, Streams};
use crate::strategy;
use crate::tools::serve::client::{token_of, ExecSonar, Url};
use std::time::Duration;

/// Plays the service at `url` (`http://HOST:PORT/PATH[?token=T]`; without a token, one is
/// asked for with `method=GetToken` and printed first as `token: T`), each response
/// due within `timeout` (connecting, sending, the whole answer read).
/// Pre: none. Post: on `Ok`, stdout holds the token line (when asked), one line per
/// ship (`NAME at (r,c)`), the number of probes and the grid; `Err` for a bad address, a
/// service that fails, answers other than 0 and 1 or too late, a token not of serve's
/// form (32 characters 0-9 a-f), or a fleet that does not fit.
/// `rules`, `strategy` and `seed` are play's flags (the rules' preset is starwars
/// unless `--rules` is given; the strategy density unless `--strategy` is).
pub(crate) fn run(
    (rules, strategy, seed): (&RuleFlags, Option<&str>, u64),
    url: &str,
    timeout: Duration,
    io: &mut Streams<'_>,
) -> Result<(), CliError> {
    let rules = rules.rules_or_preset("starwars")?;
    let name = strategy.unwrap_or("density");
    let parsed = Url::parse(url).map_err(|e| CliError::Usage(format!("--url: {e}")))?;
    // A token goes into every request line as it is: only one of serve's form, checked
    // before any connection.
    let had_token = token_of(&parsed.query).map_err(|e| CliError::Usage(e.to_string()))?.is_some();
    let mut sonar = ExecSonar::connect(&parsed, &rules, timeout).map_err(|e| CliError::Invalid(e.to_string()))?;
    let rules = crate::scan::sonar::Sonar::rules(&sonar).clone();
    let (rows, cols) = (crate::scan::sonar::Sonar::rows(&sonar), crate::scan::sonar::Sonar::cols(&sonar));
    crate::posterior::fleet_fits(rows, cols, &rules)?;
    let mut strategy = strategy::for_rules(name, seed, &rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if !had_token {
        // The service's token, checked to be of serve's form (never raw escapes).
        writeln!(io.stdout, "token: {}", sonar.token())?;
    }
    let record = strategy::solve(strategy.as_mut(), &mut sonar)?;
    io.stdout.write_all(crate::render::places::lines(&crate::posterior::ship_places(&record, &rules)).as_bytes())?;
    io.stdout.write_all(record.render_output(None).as_bytes())?;
    Ok(())
}
