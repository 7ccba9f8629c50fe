//! `serve`: the page (helper, play, watch), the JSON API and the remote-service seed's
//! `/exec`, over HTTP on this machine.

use super::game::{RuleFlags, RULE_FLAGS};
use super::{CliError, Streams};
use crate::args::{Command, Flag, Operands, Parsed};
use crate::tools::serve::{self, Config};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

const FLAGS: &[Flag] = &[
    Flag::value("--port", "N", "the port (0: any free port, printed)").default("8080"),
    Flag::value(
        "--bind",
        "ADDR",
        "the address to listen on; anything but a loopback\naddress lets other machines in (a warning says so)",
    )
    .default("127.0.0.1"),
    Flag::value("--workers", "N", "worker threads (they answer whole requests)").default("64"),
    Flag::value("--max-connections", "N", "connections held at most (past it: 503)").default("10000"),
    Flag::value("--max-games", "N", "games kept at most (the oldest is evicted)").default("10000"),
    Flag::value("--idle", "SECONDS", "close a connection idle this long").default("5"),
    Flag::value("--request-time", "SECONDS", "the longest a request may take to arrive,\nfrom its first byte (408)")
        .default("10"),
];

/// `serve`'s command line.
pub const COMMAND: Command = Command {
    name: "serve",
    summary: "the game in a browser (play, helper, watch), a JSON API",
    usage: &["serve [--port N] [--bind ADDR] [--rules NAME] [OPTIONS]"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
Prints `serving on http://ADDR:PORT/` and serves until Ctrl-C. Open that address
in a browser: one page (built into the program; it loads nothing from anywhere
else) with three views: Helper, Play and Watch.

ROUTES (anything else: 404; errors are JSON {\"error\": {\"status\", \"message\"}})
  GET  /  (and /page.js, /page.css, /favicon.ico)     the page
  GET  /api/rules                  the presets, strategies, levels
  POST /api/advise                 advise's flags and \"state\" (the grid)
                                   -> `advise --format json`'s object
  POST /api/games                  {\"rules\", \"seed\", ...} -> {\"token\", ...}
  POST /api/games/TOKEN/probe      {\"r\": R, \"c\": C} -> {\"answer\", \"reply\", ...}
  POST /api/matches, /api/placement, GET .../computer, POST .../reveal
                                   the page's games against the computer
  GET  /api/trace?strategy=S&rules=R&seed=N   a trace and what was weighed
  GET  /exec?method=GetToken       the remote-service seed's API (its rules:
                                   --rules, default starwars): a token, then
       /exec?token=T&method=GetRowCount|GetColumnCount|GetCellAt&row=R&col=C

LIMITS
  request line 8 KiB (414), headers 16 KiB and 64 lines (431), body 1 MiB
  (413), --request-time from a request's first byte to its last (408); bays of
  at most 2,500 cells for advise, games and traces (413); past --max-connections
  (or the open-file limit), or with 1,024 requests waiting for a worker: 503.
",
    extra: None,
    document: Some("report/serve.md"),
};

/// Reads `serve`'s arguments into the server's config.
/// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value or one out
/// of its range; the `/exec` rules are the rule flags, with starwars where `--rules` is
/// absent.
fn config(p: &Parsed) -> Result<Config, CliError> {
    let port: usize = p.require("--port")?;
    let port = u16::try_from(port).map_err(|_| CliError::Usage(format!("--port: {port} is past 65535")))?;
    let bind = p.text("--bind").unwrap_or_default();
    let ip: IpAddr =
        bind.parse().map_err(|_| crate::args::expected("--bind", "an IP address such as 127.0.0.1", bind))?;
    let workers: usize = p.require("--workers")?;
    let max_games: usize = p.require("--max-games")?;
    let idle: u64 = p.require("--idle")?;
    let max_connections: usize = p.require("--max-connections")?;
    let request_time: u64 = p.require("--request-time")?;
    if !(1..=1024).contains(&workers)
        || max_games == 0
        || max_connections == 0
        || !(1..=3600).contains(&idle)
        || !(1..=3600).contains(&request_time)
    {
        return Err(CliError::Usage(
            "--workers takes 1 to 1024, --max-games and --max-connections at least 1, --idle and \
             --request-time 1 to 3600 seconds"
                .into(),
        ));
    }
    Ok(Config {
        bind: SocketAddr::new(ip, port),
        workers,
        max_games,
        idle: Duration::from_secs(idle),
        max_connections,
        limits: serve::http::Limits { request_time: Duration::from_secs(request_time), ..Default::default() },
        exec_rules: RuleFlags::read(p)?.rules_or_preset("starwars")?,
        ..Config::default()
    })
}

/// Runs `serve`.
/// Pre: none. Post: serves until the process is stopped; `Err` for bad flags or an
/// address that cannot be bound.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = config(flags)?;
    let (ip, port) = (config.bind.ip(), config.bind.port());
    if !ip.is_loopback() {
        writeln!(
            io.stderr,
            "warning: listening on {ip}: other machines can reach this server (it has no authentication)"
        )?;
    }
    let handle = serve::start(config)
        .map_err(|e| CliError::Io(super::stream_error(&format!("cannot listen on {ip}:{port}"), e)))?;
    let addr = handle.addr();
    let host = if addr.is_ipv6() { format!("[{}]", addr.ip()) } else { addr.ip().to_string() };
    writeln!(io.stdout, "serving on http://{host}:{}/", addr.port())?;
    io.stdout.flush()?;
    handle.wait();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let secs = Duration::from_secs;
        let c = config(&COMMAND.parse_words(&[])).unwrap();
        assert_eq!(
            (c.bind.ip().to_string(), c.bind.port(), c.workers, c.max_games, c.idle),
            ("127.0.0.1".into(), 8080, 64, 10_000, secs(5))
        );
        assert_eq!((c.max_connections, c.limits.request_time), (10_000, secs(10)));
        let c = config(&COMMAND.parse_words(&["--max-connections", "3", "--request-time", "1"])).unwrap();
        assert_eq!((c.max_connections, c.limits.request_time), (3, secs(1)));
        assert_eq!(c.exec_rules.preset_name(), "starwars");
        let c = config(&COMMAND.parse_words(&["--port", "0", "--rules", "classic", "--idle", "9"])).unwrap();
        assert_eq!((c.bind.port(), c.idle, c.exec_rules.preset_name()), (0, secs(9), "classic"));
        let e = |w: &[&str]| config(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--port", "70000"]), "--port: 70000 is past 65535");
        assert!(e(&["--request-time", "0"]).contains("--request-time 1 to 3600"));
        assert!(e(&["--max-connections", "0"]).contains("--max-connections at least 1"));
        assert_eq!(e(&["--bind", "x"]), "--bind: expected an IP address such as 127.0.0.1, got `x`");
    }
}
