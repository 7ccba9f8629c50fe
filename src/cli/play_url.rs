//! `play --url`: a strategy plays the remote-service seed's API (`serve`'s `/exec`, or
//! any service that answers `GetRowCount`, `GetColumnCount` and `GetCellAt` with
//! numbers), then prints where the ships are, as the seed's program did.

use super::game::RuleFlags;
use super::{CliError, Streams};
use crate::strategy;
use crate::tools::serve::client::{ExecSonar, Url};

/// Plays the service at `url` (`http://HOST:PORT/PATH[?token=T]`; without a token, one is
/// asked for with `method=GetToken` and printed first as `token: T`).
/// Pre: none. Post: on `Ok`, stdout holds the token line (when asked), one line per
/// ship (`NAME at (r,c)`), the number of probes and the grid; `Err` for a bad address, a
/// service that fails or answers other than 0 and 1, or a fleet that does not fit.
/// `rules`, `strategy` and `seed` are play's flags (the rules' preset is starwars
/// unless `--rules` is given; the strategy density unless `--strategy` is).
pub(crate) fn run(
    (rules, strategy, seed): (&RuleFlags, Option<&str>, u64),
    url: &str,
    io: &mut Streams<'_>,
) -> Result<(), CliError> {
    let rules = rules.rules_or_preset("starwars")?;
    let name = strategy.unwrap_or("density");
    let parsed = Url::parse(url).map_err(|e| CliError::Usage(format!("--url: {e}")))?;
    let pairs = crate::tools::serve::http::query_pairs(&parsed.query).unwrap_or_default();
    let had_token = pairs.iter().any(|(k, _)| k == "token");
    // A token goes into every request line as it is: refuse one that could change the
    // request (control characters such as an encoded CR LF, spaces, `&`, `#`, `%`).
    if let Some((_, token)) = pairs.iter().find(|(k, t)| k == "token" && !token_ok(t)) {
        return Err(CliError::Usage(format!(
            "--url: the token `{}` may hold only letters, digits and - _ . ~ (at most 200)",
            crate::render::words::shown(token.as_bytes())
        )));
    }
    let mut sonar = ExecSonar::connect(&parsed, &rules).map_err(CliError::Invalid)?;
    let rules = crate::scan::sonar::Sonar::rules(&sonar).clone();
    let (rows, cols) = (crate::scan::sonar::Sonar::rows(&sonar), crate::scan::sonar::Sonar::cols(&sonar));
    crate::posterior::fleet_fits(rows, cols, &rules)?;
    let mut strategy = strategy::for_rules(name, seed, &rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if !had_token {
        // The service's token, its control characters escaped: never raw to a terminal.
        writeln!(io.stdout, "token: {}", crate::render::words::shown(sonar.token().as_bytes()))?;
    }
    let record = strategy::solve(strategy.as_mut(), &mut sonar)?;
    io.stdout.write_all(crate::render::places::lines(&crate::posterior::ship_places(&record, &rules)).as_bytes())?;
    io.stdout.write_all(record.render_output(None).as_bytes())?;
    Ok(())
}

/// True for a token a request line carries unchanged: 1 to 200 letters, digits and
/// `-`, `_`, `.`, `~` (the characters a URL never needs to encode).
fn token_ok(token: &str) -> bool {
    (1..=200).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b))
}
