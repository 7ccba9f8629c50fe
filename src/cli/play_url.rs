//! `play --url`: a strategy plays the remote-service seed's API (`serve`'s `/exec`, or
//! any service that answers `GetRowCount`, `GetColumnCount` and `GetCellAt` with
//! numbers), then prints where the ships are, as the seed's program did.

use super::game::RuleFlags;
use super::{CliError, Streams};
use crate::game::placement::Placer;
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
    let had_token =
        crate::tools::serve::http::query_pairs(&parsed.query).is_ok_and(|q| q.iter().any(|(k, _)| k == "token"));
    let mut sonar = ExecSonar::connect(&parsed, &rules).map_err(CliError::Invalid)?;
    let rules = crate::scan::sonar::Sonar::rules(&sonar).clone();
    let (rows, cols) = (crate::scan::sonar::Sonar::rows(&sonar), crate::scan::sonar::Sonar::cols(&sonar));
    Placer::with_rules(rows, cols, &rules).check(rules.fleet())?;
    let mut strategy = strategy::for_rules(name, seed, &rules).map_err(|e| CliError::Usage(e.to_string()))?;
    if !had_token {
        writeln!(io.stdout, "token: {}", sonar.token())?;
    }
    let record = strategy::solve(strategy.as_mut(), &mut sonar)?;
    io.stdout.write_all(crate::render::places::lines(&crate::posterior::ship_places(&record, &rules)).as_bytes())?;
    io.stdout.write_all(record.render_output(None).as_bytes())?;
    Ok(())
}
