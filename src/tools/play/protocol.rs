//! The play protocol between a player (`play`, a bot) and a referee (`referee`, a
//! person), one line at a time.
//!
//! 1. The referee announces the game with a header:
//!    ```text
//!    bay ROWS COLS
//!    fleet SIZES                      comma-separated, largest first
//!    names NAMES                      only when the ships have names: same order
//!    rules touch=yes|no sunk=none|yes|named
//!    ```
//!    A fleet of drawn ships replaces the `fleet` and `names` lines by `fleet-file`,
//!    the lines of a fleet file, and `end`; its rules line adds `rotate=yes|no`.
//! 2. The player asks `? r c` (row and column from 0); the referee answers `hit`,
//!    `miss`, `sunk` or `sunk NAME` (what the rules announce).
//! 3. After the answer that finds the last ship cell, the referee writes `done N`, N
//!    the number of probes.
//!
//! `simulate --bot` plays game after game with one bot process, and writes `game K
//! SEED` before each header: K the game's number in the run, SEED the seed of the
//! bot's random choices in that game (the same for any threads or shards).
//!
//! Lines end with `\n` (a `\r` before it is ignored); surrounding spaces are ignored;
//! words are case-insensitive. No line is longer than [`LINE_BYTES`] bytes.

use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::{Rules, Sunk};
use crate::limits::{DROPPED_BYTES, HEADER_FLEET_LINES, LINE_BYTES};
use crate::scan::sonar::Answer;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead};

/// What a referee says about the game before the first probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Rows of the bay.
    pub rows: usize,
    /// Columns of the bay.
    pub cols: usize,
    /// The rules and the fleet.
    pub rules: Rules,
}

/// Why a line of the protocol was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProtocolError {}

impl Header {
    /// The header's lines, each ending with `\n`.
    /// Pre: none. Post: `Header::read` of them gives this header back.
    pub fn lines(&self) -> String {
        let fleet = self.rules.fleet();
        let mut out = format!("bay {} {}\n", self.rows, self.cols);
        // `fleet SIZES` means ships running east (as sizes are read); a ship drawn
        // running south that may not turn needs its drawing.
        let east = fleet.kinds().iter().all(|k| k.shape.rows() == 1);
        if fleet.is_empty() || (fleet.is_straight() && (self.rules.rotate() || east)) {
            out.push_str(&format!("fleet {}\n", fleet.sizes_text()));
            if fleet.is_named() {
                let names: Vec<&str> =
                    fleet.ship_kinds().filter_map(|k| fleet.kinds().get(k)).map(|k| k.name.as_str()).collect();
                out.push_str(&format!("names {}\n", names.join(",")));
            }
            let rotate = if self.rules.rotate() { "" } else { " rotate=no" };
            out.push_str(&format!("rules {}{rotate}\n", self.rules.describe()));
        } else {
            out.push_str("fleet-file\n");
            out.push_str(&fleet.to_file());
            out.push_str("end\n");
            out.push_str(&format!(
                "rules {} rotate={}\n",
                self.rules.describe(),
                if self.rules.rotate() { "yes" } else { "no" }
            ));
        }
        out
    }

    /// Reads a header from `input`, starting from `base` (whose fleet and rules it
    /// replaces); a `game K SEED` line before it (what `simulate --bot` sends) is
    /// skipped.
    /// Pre: none. Post: `Err` names the line (from 1) that is missing or malformed;
    /// `Ok(None)` when the input ended before the first line.
    pub fn read(input: &mut dyn BufRead, base: &Rules) -> Result<Option<Header>, ProtocolError> {
        let n = std::cell::Cell::new(0usize);
        let mut next = |what: &str| -> Result<Option<String>, ProtocolError> {
            n.set(n.get() + 1);
            let n = n.get();
            match read_line(input).map_err(|e| ProtocolError(format!("reading the header: {e}")))? {
                None => Ok(None),
                Some((_, true)) => Err(ProtocolError(format!("header line {n} is longer than {LINE_BYTES} bytes"))),
                Some((bytes, false)) => match String::from_utf8(bytes) {
                    Ok(s) => Ok(Some(s.trim().to_string())),
                    Err(_) => Err(ProtocolError(format!("header line {n} ({what}) is not text"))),
                },
            }
        };
        let Some(mut bay) = next("bay")? else { return Ok(None) };
        if bay.split_whitespace().next() == Some("game") {
            // The arena's `game K SEED` before a game's header: not part of the header.
            n.set(0);
            let Some(line) = next("bay")? else { return Ok(None) };
            bay = line;
        }
        let words: Vec<&str> = bay.split_whitespace().collect();
        let (rows, cols) = match words.as_slice() {
            ["bay", r, c] => match (r.parse::<usize>(), c.parse::<usize>()) {
                (Ok(r), Ok(c)) => (r, c),
                _ => return Err(ProtocolError(format!("header line 1: expected `bay ROWS COLS`, got `{bay}`"))),
            },
            _ => return Err(ProtocolError(format!("header line 1: expected `bay ROWS COLS`, got `{bay}`"))),
        };
        let missing = |what: &str| ProtocolError(format!("the header ended before its `{what}` line"));
        let fleet_line = next("fleet")?.ok_or_else(|| missing("fleet"))?;
        let mut fleet = if let Some(sizes) = fleet_line.strip_prefix("fleet ").or((fleet_line == "fleet").then_some(""))
        {
            Fleet::parse_sizes(sizes).map_err(|e| ProtocolError(format!("header line 2: {e}")))?
        } else if fleet_line == "fleet-file" {
            let mut text = String::new();
            loop {
                let line = next("fleet-file")?.ok_or_else(|| missing("end"))?;
                if line.eq_ignore_ascii_case("end") {
                    break;
                }
                if n.get() > HEADER_FLEET_LINES {
                    return Err(ProtocolError(format!("the fleet file has more than {HEADER_FLEET_LINES} lines")));
                }
                text.push_str(&line);
                text.push('\n');
            }
            Fleet::parse_file(&text).map_err(|e| ProtocolError(format!("header fleet-file: {e}")))?
        } else {
            return Err(ProtocolError(format!("header line 2: expected `fleet SIZES`, got `{fleet_line}`")));
        };
        let mut rules_line = next("rules")?.ok_or_else(|| missing("rules"))?;
        if let Some(names) = rules_line.strip_prefix("names ") {
            let names: Vec<&str> = names.split(',').map(str::trim).collect();
            let sizes = fleet.sizes();
            if names.len() != sizes.len() {
                return Err(ProtocolError(format!(
                    "header: {} names for {} ships in `names {}`",
                    names.len(),
                    sizes.len(),
                    names.join(",")
                )));
            }
            let ships: Vec<(&str, usize)> = names.iter().copied().zip(sizes).collect();
            fleet = Fleet::named(&ships);
            rules_line = next("rules")?.ok_or_else(|| missing("rules"))?;
        }
        let Some(settings) = rules_line.strip_prefix("rules") else {
            return Err(ProtocolError(format!(
                "header: expected `rules touch=yes|no sunk=none|yes|named`, got `{rules_line}`"
            )));
        };
        let mut rules = base.clone().with_fleet(fleet);
        for word in settings.split_whitespace() {
            let bad = || {
                ProtocolError(format!(
                    "header: `{word}` in the rules line is not touch=yes|no, sunk=none|yes|named or rotate=yes|no"
                ))
            };
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            rules = match (key, value) {
                ("touch", "yes") => rules.with_touch(true),
                ("touch", "no") => rules.with_touch(false),
                ("rotate", "yes") => rules.with_rotate(true),
                ("rotate", "no") => rules.with_rotate(false),
                ("sunk", v) => rules.with_sunk(Sunk::from_word(v).ok_or_else(bad)?),
                _ => return Err(bad()),
            };
        }
        Ok(Some(Header { rows, cols, rules }))
    }
}

/// An answer as a referee writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Water.
    Miss,
    /// A ship cell.
    Hit,
    /// The last cell of a ship, maybe with its name.
    Sunk(Option<String>),
}

/// The answers a player may give when the rules announce sunk ships as `sunk`, listed
/// for a person: `hit, miss, h, m, 1, 0`, with `sunk` (and `sunk NAME`) when they
/// announce them ([`parse_reply`] reads them).
/// Pre: none. Post: no change.
pub fn answer_words(sunk: Sunk) -> &'static str {
    match sunk {
        Sunk::None => "hit, miss, h, m, 1, 0",
        Sunk::Yes => "hit, miss, sunk, h, m, 1, 0",
        Sunk::Named => "hit, miss, sunk NAME, sunk, h, m, 1, 0",
    }
}

/// The reply a line means, or `None` when it is not one: `hit`/`h`/`1`, `miss`/`m`/`0`,
/// `sunk`, `sunk NAME` (any case; NAME kept as written, trimmed).
/// Pre: none. Post: no change.
pub(crate) fn parse_reply(line: &[u8]) -> Option<Reply> {
    let text = std::str::from_utf8(line).ok()?.trim();
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "hit" | "h" | "1" => Some(Reply::Hit),
        "miss" | "m" | "0" => Some(Reply::Miss),
        "sunk" | "s" => Some(Reply::Sunk(None)),
        _ => {
            let rest = lower.strip_prefix("sunk ").map(|_| text.get(5..).unwrap_or("").trim())?;
            Some(Reply::Sunk(Some(rest.to_string())))
        }
    }
}

/// The line a referee writes for `answer` (without its `\n`): `hit`, `miss`, `sunk`,
/// or `sunk NAME` with the kind's name in `fleet`.
/// Pre: none. Post: `parse_reply` reads it back.
pub fn reply_line(answer: Answer, fleet: &Fleet) -> Cow<'static, str> {
    match answer {
        Answer::Miss => "miss".into(),
        Answer::Hit => "hit".into(),
        Answer::Sunk(None) => "sunk".into(),
        Answer::Sunk(Some(k)) => match fleet.kinds().get(k) {
            Some(kind) => format!("sunk {}", kind.name).into(),
            None => "sunk".into(),
        },
    }
}

/// Reads a probe line `? r c`.
/// Pre: none. Post: `Err` says what is wrong with the line.
pub fn parse_probe(line: &[u8]) -> Result<Position, String> {
    let text = String::from_utf8_lossy(line);
    // The line as an error shows it, made only for an error (a bot's every probe comes
    // through here).
    let shown = || crate::render::words::shown(text.trim().as_bytes());
    let mut words = text.split_whitespace();
    match (words.next(), words.next(), words.next(), words.next()) {
        (Some("?"), Some(r), Some(c), None) => match (r.parse::<usize>(), c.parse::<usize>()) {
            (Ok(r), Ok(c)) => Ok(Position::new(r, c)),
            _ => Err(format!("`{}`: the row and column must be whole numbers from 0", shown())),
        },
        // `play --coords letters` asks `? B7`.
        (Some("?"), Some(cell), None, None) if cell.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            crate::render::coords::parse_letters(cell).ok_or_else(|| format!("`{}`: expected a cell like B7", shown()))
        }
        _ => Err(format!("`{}` is not a probe: expected `? ROW COL` (or `? B7`)", shown())),
    }
}

/// Reads one line of at most [`LINE_BYTES`] bytes (the rest of a longer line is read and
/// dropped, up to [`DROPPED_BYTES`] bytes). `Ok(None)` at the end of input;
/// `Ok(Some((bytes, too_long)))` otherwise, without the `\n` (nor a `\r` before it).
/// Pre: none. Post: consumes the line and its end, or [`LINE_BYTES`] + [`DROPPED_BYTES`]
/// bytes of a line without an end in reach (then `too_long`).
pub fn read_line(input: &mut dyn BufRead) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    let mut read = 0usize;
    loop {
        if read > LINE_BYTES + DROPPED_BYTES {
            line.truncate(LINE_BYTES);
            return Ok(Some((line, true)));
        }
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(any.then_some((line, too_long)));
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(k) => (k, true),
            None => (chunk.len(), false),
        };
        let room = (LINE_BYTES + 1).saturating_sub(line.len());
        line.extend_from_slice(chunk.get(..take.min(room)).unwrap_or_default());
        too_long |= take > room;
        input.consume(if done { take + 1 } else { take });
        read = read.saturating_add(take);
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            too_long |= line.len() > LINE_BYTES;
            line.truncate(LINE_BYTES);
            return Ok(Some((line, too_long)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip() {
        for name in ["problem-g", "classic", "russian", "starwars"] {
            let rules = Rules::preset(name).unwrap();
            let h = Header { rows: 7, cols: 9, rules: rules.clone() };
            let text = h.lines();
            let back = Header::read(&mut text.as_bytes(), &Rules::problem_g()).unwrap().unwrap();
            assert_eq!(back.rows, 7);
            assert_eq!(back.rules.fleet(), rules.fleet(), "{text}");
            assert_eq!(
                (back.rules.touch(), back.rules.sunk(), back.rules.rotate()),
                (rules.touch(), rules.sunk(), rules.rotate())
            );
        }
        let classic = Header { rows: 10, cols: 10, rules: Rules::preset("classic").unwrap() }.lines();
        assert_eq!(
            classic,
            "bay 10 10\nfleet 5,4,3,3,2\nnames carrier,battleship,cruiser,submarine,destroyer\nrules touch=yes sunk=named\n"
        );
        let g = Header { rows: 10, cols: 10, rules: Rules::problem_g() }.lines();
        assert_eq!(g, "bay 10 10\nfleet 5,4,3,3,2,2,1,1\nrules touch=no sunk=none\n");
    }

    #[test]
    fn ships_that_may_not_turn_are_announced_as_drawn() {
        let read = |h: &Header| Header::read(&mut h.lines().as_bytes(), &Rules::problem_g()).unwrap().unwrap();
        // Straight ships running east that may not turn: sizes, and rotate=no.
        let east = Rules::problem_g().with_rotate(false).with_fleet(Fleet::of_sizes(&[3, 2]));
        let h = Header { rows: 4, cols: 5, rules: east };
        assert_eq!(h.lines(), "bay 4 5\nfleet 3,2\nrules touch=no sunk=none rotate=no\n");
        assert_eq!(read(&h), h);
        // A bar running south that may not turn: its drawing, or a player taking `fleet
        // 4` for a ship running east would contradict the referee.
        let bar = Fleet::parse_file("bar\nX\nX\nX\nX\n").unwrap();
        let h = Header { rows: 6, cols: 6, rules: Rules::problem_g().with_rotate(false).with_fleet(bar) };
        assert_eq!(h.lines(), "bay 6 6\nfleet-file\nbar\nX\nX\nX\nX\nend\nrules touch=no sunk=none rotate=no\n");
        assert_eq!(read(&h), h);
        // The word `end` closes the file whatever its case.
        let h = Header::read(&mut "bay 3 3\nfleet-file\nA\nXX\nEND\nrules touch=yes\n".as_bytes(), &Rules::problem_g());
        assert_eq!(h.unwrap().unwrap().rules.fleet().ship_cells(), 2);
    }

    #[test]
    fn bad_headers_say_what_is_wrong() {
        let read = |t: &str| Header::read(&mut t.as_bytes(), &Rules::problem_g());
        assert_eq!(read(""), Ok(None));
        assert!(read("bay 3\n").unwrap_err().0.contains("bay ROWS COLS"));
        let after_game = read("game 7 12345\nbay 3 4\nfleet 2\nrules touch=no sunk=none\n").unwrap().unwrap();
        assert_eq!((after_game.rows, after_game.cols), (3, 4));
        assert!(read("game 1 2\nbay 3\n").unwrap_err().0.starts_with("header line 1:"));
        assert!(read("bay 3 3\n").unwrap_err().0.contains("`fleet` line"));
        assert!(read("bay 3 3\nfleet 9\nrules touch=no sunk=none\n").unwrap_err().0.contains("`9`"));
        assert!(read("bay 3 3\nfleet 2\nrules touch=maybe\n").unwrap_err().0.contains("touch=maybe"));
        assert!(read("bay 3 3\nfleet 2\nnames a,b\nrules\n").unwrap_err().0.contains("2 names for 1 ships"));
        assert!(read("bay 3 3\nfleet-file\nA\nX\n").unwrap_err().0.contains("`end`"));
        let h = read("bay 3 4\nfleet 2,1\nrules sunk=yes\n").unwrap().unwrap();
        assert_eq!((h.rows, h.cols, h.rules.sunk(), h.rules.touch()), (3, 4, Sunk::Yes, false));
    }

    #[test]
    fn replies_and_probes() {
        for (line, want) in [
            ("hit", Reply::Hit),
            (" H ", Reply::Hit),
            ("1", Reply::Hit),
            ("MISS", Reply::Miss),
            ("0", Reply::Miss),
            ("sunk", Reply::Sunk(None)),
            ("Sunk Y wing", Reply::Sunk(Some("Y wing".into()))),
            ("sunk 3", Reply::Sunk(Some("3".into()))),
        ] {
            assert_eq!(parse_reply(line.as_bytes()), Some(want), "{line}");
        }
        for bad in ["", "yes", "hitt", "1 0", "sunken", "\u{fffd}"] {
            assert_eq!(parse_reply(bad.as_bytes()), None, "{bad}");
        }
        let fleet = Rules::preset("classic").unwrap().fleet().clone();
        assert_eq!(reply_line(Answer::Sunk(Some(2)), &fleet), "sunk cruiser");
        assert_eq!(reply_line(Answer::Sunk(None), &fleet), "sunk");
        assert_eq!(parse_probe(b"? 3 4"), Ok(Position::new(3, 4)));
        assert!(parse_probe(b"? 3").is_err());
        assert!(parse_probe(b"? -1 2").is_err());
        assert!(parse_probe(b"probe 1 2").is_err());
    }

    #[test]
    fn lines_are_bounded() {
        let long = format!("{}\nnext\r\n", "x".repeat(5000));
        let mut input = long.as_bytes();
        let (first, too_long) = read_line(&mut input).unwrap().unwrap();
        assert!(too_long && first.len() == LINE_BYTES);
        assert_eq!(read_line(&mut input).unwrap(), Some((b"next".to_vec(), false)));
        assert_eq!(read_line(&mut input).unwrap(), None);
        let exact = "y".repeat(LINE_BYTES);
        assert_eq!(read_line(&mut exact.as_bytes()).unwrap(), Some((exact.into_bytes(), false)));
    }
}
