//! `play`: a strategy hunts ships it cannot see; someone else (a person at a terminal,
//! or a referee program over pipes) answers each probe.

use super::game::{BayFlags, RuleFlags, COLS, ROWS, RULE_FLAGS};
use super::shared::{self, ColorWhen, COLOR, COORDS, SEED, STRATEGY};
use super::{CliError, Streams};
use crate::args::{ArgsError, Command, Flag, Operands, Parsed};
use crate::game::board::Board;
use crate::tools::play::session::{self, PlayRequest, PlayStreams};

const FLAGS: &[Flag] = &[
    ROWS.with_help("rows of the bay (with --cols; without both, the bay\nand the rules come from a referee's header on stdin)"),
    COLS.with_help("columns of the bay"),
    Flag::value(
        "--cells",
        "N",
        "instead of a fleet: only the number of ship cells (bayes\nthen plays its fallback, parity, which needs no fleet)",
    ),
    STRATEGY.with_help(
        "the strategy that probes (default: prob; when the rules\nrule prob out, the strongest for them: classic's lookahead)",
    ),
    Flag::value(
        "--referee",
        "CMD",
        "start the program CMD as the other side: play reads its\nheader and answers, and sends it the probes; play's result\nstays on stdout (CMD split into words as --bot's, no shell)",
    ),
    SEED,
    COORDS,
    COLOR,
    Flag::value("--url", "URL", "play serve's /exec (the seed's API): http://HOST:PORT/exec\n[?token=T]; starwars and density unless --rules, --strategy"),
    Flag::value("--timeout", "SECONDS", "with --url: seconds an answer may take in all (default 30)"),
];

/// `play`'s command line.
pub const COMMAND: Command = Command {
    name: "play",
    summary: "a strategy probes a hidden bay; you or a program answer",
    usage: &["play --rows R --cols C [--rules NAME] [--cells N] [OPTIONS]", "play [OPTIONS] < header-and-answers"],
    groups: &[("OPTIONS", FLAGS), ("RULES", RULE_FLAGS)],
    operands: Operands::None,
    after: "\
PROTOCOL (all of it: `help protocol`)
  Without --rows and --cols, play first reads a referee's header (bay, fleet,
  names and rules lines, as `referee` writes it) from stdin, or from the
  --referee program. For each probe it writes `? r c` (row and column from 0)
  and reads one answer line (any case):
    hit, h or 1        a ship cell
    miss, m or 0       water
    sunk, sunk NAME    the last cell of a ship (rules with sunk=yes or named)
    undo               take back the last answer (the strategy starts again
                       and replays the answers before it)
  No cell is asked twice; when ships may not touch, cells may be marked water
  without asking. At a terminal the board so far is drawn on stderr after each
  answer (bays of up to 10,000 cells), and an impossible answer is asked again.
  At the end stdout gets what the judge prints: the number of probes and the
  grid (placement lines first for named or drawn fleets); after a header, the
  referee's `done N` is read and checked.

ERRORS (one `error: ` line, exit status 2): a bad or impossible answer over
  pipes, input ending too soon, --cells too large, lines over 1,000 bytes, a
  --referee program that fails (its last stderr line is shown).
",
    extra: None,
    document: Some("report/playing.md"),
};

/// Runs `play`.
/// Pre: none. Post: on `Ok`, stdout holds the questions (none with `--referee`: they
/// go to the referee), then the count and the final grid; on `Err` (bad flags, bad or
/// missing answers, contradictions) nothing more is written after the last question.
/// A referee started by `--referee` has ended (waited for, or killed) when it returns.
pub fn run(flags: &Parsed, io: &mut Streams<'_>) -> Result<(), CliError> {
    let config = PlayConfig::read(flags)?;
    let request = PlayRequest { color: config.color.wanted(io.stderr_tty), ..config.request };
    let played = match &config.mode {
        Mode::Url(url) => {
            let flags = (&config.rules, request.strategy.as_deref(), request.seed);
            session::play_url(flags, url, config.timeout, io.stdout)
        }
        Mode::Referee(argv) => session::against_referee(&request, argv, io.stderr, io.stdout),
        Mode::Local => {
            let Streams { stdin, stdout, stderr, stdin_tty, .. } = io;
            let mut streams =
                PlayStreams { input: &mut **stdin, output: &mut **stdout, notes: &mut **stderr, input_tty: *stdin_tty };
            session::play(&request, &mut streams, None)
        }
    };
    Ok(played?)
}

/// Who answers `play`'s probes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--url URL`: the remote-service seed's API.
    Url(String),
    /// `--referee CMD`: a program, CMD split into words.
    Referee(Vec<String>),
    /// Standard input: a person, or a referee's header and answers.
    Local,
}

/// `play`'s flags, read.
#[derive(Debug)]
pub(crate) struct PlayConfig {
    /// Who answers.
    pub mode: Mode,
    /// The game: `--seed`, `--coords letters`, the rules, `--rows` and `--cols` (both
    /// given and a size a board takes; `None` when neither is: the bay then comes from
    /// a referee's header), `--cells`, `--strategy`. Its colour is set when it runs.
    pub request: PlayRequest,
    /// `--color` (of the board drawn on stderr).
    pub color: ColorWhen,
    /// The rule flags (`--url` plays starwars unless `--rules` is given).
    pub rules: RuleFlags,
    /// `--timeout` (with `--url`): the time a whole response may take.
    pub timeout: std::time::Duration,
}

impl PlayConfig {
    /// Reads `play`'s arguments (with `--url`, only the flags it uses).
    /// Pre: `p` was parsed by [`COMMAND`]. Post: `Err(Usage)` for a bad value, a bay
    /// with `--url` or `--referee`, `--cells` with `--url` or a fleet, `--timeout`
    /// without `--url` or not seconds in (0, 86400], or an empty `--referee` command.
    pub(crate) fn read(p: &Parsed) -> Result<PlayConfig, CliError> {
        let strategy = shared::strategy(p);
        let timeout = match p.has("--timeout") {
            true if !p.has("--url") => {
                return Err(ArgsError::Rule { flag: "--timeout", rule: "only with --url" }.into())
            }
            true => std::time::Duration::from_secs_f64(p.seconds("--timeout")?),
            false => crate::tools::serve::client::RESPONSE_TIME,
        };
        if let Some(url) = p.text("--url") {
            if p.has(ROWS.name) || p.has(COLS.name) || p.has("--cells") {
                let rule = "the service tells the sea's size; no --rows, --cols or --cells";
                return Err(ArgsError::Rule { flag: "--url", rule }.into());
            }
            let rules = RuleFlags::read(p)?;
            let seed = shared::seed(p)?;
            let (letters, color, bay, cells) = (false, false, None, None);
            let request = PlayRequest { seed, letters, color, rules: rules.rules.clone(), bay, cells, strategy };
            let mode = Mode::Url(url.to_string());
            return Ok(PlayConfig { mode, request, color: ColorWhen::Auto, rules, timeout });
        }
        let mode = match p.text("--referee") {
            Some(command) => {
                if p.has(ROWS.name) || p.has(COLS.name) {
                    let rule = "the referee's header gives the bay; leave out --rows and --cols";
                    return Err(ArgsError::Rule { flag: "--referee", rule }.into());
                }
                let argv = crate::tools::simulate::arena::split_command(command)
                    .map_err(|e| CliError::Flag("--referee", Box::new(CliError::Usage(e))))?;
                Mode::Referee(argv)
            }
            None => Mode::Local,
        };
        let seed = shared::seed(p)?;
        let letters = shared::letters(p)?;
        let color = ColorWhen::read(p)?;
        let rules = RuleFlags::read(p)?;
        let flags = BayFlags::read(p)?;
        let bay = match flags.given() {
            false => None,
            true => {
                let required = |flag: &str| ArgsError::Required(flag.to_string());
                let rows = flags.rows.ok_or_else(|| required(ROWS.name))?;
                let cols = flags.cols.ok_or_else(|| required(COLS.name))?;
                Board::check_size(rows, cols)?;
                Some((rows, cols))
            }
        };
        let cells = match p.has("--cells") {
            true if rules.fleet_given() => return Err(ArgsError::Exclusive("a fleet", "--cells").into()),
            true => Some(p.require("--cells")?),
            false => None,
        };
        let request = PlayRequest { seed, letters, color: false, rules: rules.rules.clone(), bay, cells, strategy };
        Ok(PlayConfig { mode, request, color, rules, timeout })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_defaults_flags_and_bad_values() {
        let c = PlayConfig::read(&COMMAND.parse_words(&[])).unwrap();
        let r = &c.request;
        assert_eq!((&c.mode, r.seed, r.letters, c.color, r.cells), (&Mode::Local, 2021, false, ColorWhen::Auto, None));
        assert!(r.bay.is_none() && r.strategy.is_none());
        let words = ["--rows", "3", "--cols", "4", "--cells", "2", "--coords", "letters", "--strategy", "hunt"];
        let c = PlayConfig::read(&COMMAND.parse_words(&words)).unwrap();
        assert_eq!((c.request.bay, c.request.cells, c.request.letters), (Some((3, 4)), Some(2), true));
        let c = PlayConfig::read(&COMMAND.parse_words(&["--referee", "spot-the-ships referee"])).unwrap();
        assert_eq!(c.mode, Mode::Referee(vec!["spot-the-ships".into(), "referee".into()]));
        let c = PlayConfig::read(&COMMAND.parse_words(&["--url", "http://h/exec", "--coords", "x"])).unwrap();
        assert_eq!(c.mode, Mode::Url("http://h/exec".into()), "--url reads only the flags it uses");
        let e = |w: &[&str]| PlayConfig::read(&COMMAND.parse_words(w)).unwrap_err().to_string();
        assert_eq!(e(&["--cells", "2", "--fleet", "2"]), "give a fleet or --cells, not both");
        assert_eq!(
            e(&["--url", "u", "--rows", "3"]),
            "--url: the service tells the sea's size; no --rows, --cols or --cells"
        );
        assert_eq!(e(&["--rows", "x"]), "--rows: expected a whole number, got `x`");
        assert_eq!(e(&["--rows", "3"]), "--cols is required (see --help)");
        assert_eq!(e(&["--rows", "0", "--cols", "3"]), "the board is 0x3: rows and columns must be at least 1");
    }
}
