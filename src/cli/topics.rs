//! Help topics that are not commands: `help rules`, `help fleet-file` and `help
//! protocol`. The commands' own help refers to them instead of repeating them.

use crate::game::rules::{Rules, PRESETS};
use crate::limits::LOOKAHEAD_CELLS;
use crate::strategy;
use std::fmt::Write as _;

/// A help topic: its name after `help` and the function that writes it.
pub(crate) struct Topic {
    /// The word after `help`.
    pub name: &'static str,
    /// The topic's text (lines of at most 80 columns, ending with a newline).
    pub text: fn() -> String,
    /// The document of the project's repository that has the topic's details.
    pub document: &'static str,
}

/// Every topic, in the order the top-level help lists them.
pub(crate) const TOPICS: [Topic; 4] = [
    Topic { name: "strategies", text: strategies, document: "report/strategies.md" },
    Topic { name: "rules", text: rules, document: "report/rules.md" },
    Topic { name: "fleet-file", text: fleet_file, document: "report/rules.md" },
    Topic { name: "protocol", text: protocol, document: "report/playing.md" },
];

/// `help rules`: the presets, the overrides, and the strategies each preset allows.
fn rules() -> String {
    let mut out = String::from(
        "spot-the-ships help rules: the games every command can play\n\n\
         Every command plays Problem G unless --rules names another preset; the other\n\
         flags change one part of it:\n\
         \x20 --touch yes|no         may ships touch (side by side or diagonally)?\n\
         \x20 --sunk none|yes|named  does the probe that completes a ship say so (and\n\
         \x20                        name the ship)?\n\
         \x20 --fleet LIST           straight ships of 1 to 5 cells: 5,4,3,3,2 (then\n\
         \x20                        named by size; `--fleet \"\"`: no ships)\n\
         \x20 --fleet-file FILE      ships of any shape, drawn (see `help fleet-file`)\n\
         \x20 --rotate yes|no        may drawn ships turn?\n\nPRESETS\n",
    );
    for p in &PRESETS {
        let rules = Rules::preset(p.name).unwrap_or_default();
        let _ = writeln!(out, "  {:<10} {}", p.name, p.summary);
        let yes = |b: bool| if b { "yes" } else { "no" };
        let _ = writeln!(
            out,
            "  {:<10} touch={} sunk={} rotate={}, bay {}x{}",
            "",
            yes(p.touch),
            p.sunk.word(),
            yes(p.rotate),
            p.bay.0,
            p.bay.1
        );
        let _ = writeln!(out, "  {:<10} fleet: {}", "", rules.fleet().describe());
    }
    out.push_str(&format!(
        "\nSTRATEGIES EACH PRESET ALLOWS (--strategy all and --strategies all play\n\
         these; lookahead, seconds a game, plays bays of at most {LOOKAHEAD_CELLS} cells when named;\n\
         a default strategy is always one the rules allow)\n",
    ));
    for p in &PRESETS {
        let rules = Rules::preset(p.name).unwrap_or_default();
        let names: Vec<&str> = strategy::every(&rules).map(|e| e.name).collect();
        let mut line = format!("  {:<10}", p.name);
        for name in names {
            if line.len() + 1 + name.len() > 78 {
                let _ = writeln!(out, "{line}");
                line = format!("  {:<10}", "");
            }
            line.push(' ');
            line.push_str(name);
        }
        let _ = writeln!(out, "{line}");
    }
    out.push_str(
        "  (smart and prob take a hit's diagonal neighbours for water: ships must never\n\
         \x20 touch; parity and hunt-parity need straight ships)\n",
    );
    out
}

/// `help strategies`: the strategy table, with the presets each strategy can play.
fn strategies() -> String {
    let mut out = String::from(
        "spot-the-ships help strategies: the ways of choosing the next probe\n\n\
         --strategy NAME (the judge, trace, play, generate) and --strategies LIST\n\
         (simulate, check; `all`: every strategy the rules allow but lookahead):\n",
    );
    out.push_str(&strategy::help_list());
    out.push_str("\nPRESETS EACH CAN PLAY (and any rules of the same kind: see `help rules`)\n");
    let width = strategy::NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    for e in &strategy::STRATEGIES {
        let presets: Vec<&str> = PRESETS
            .iter()
            .filter(|p| Rules::preset(p.name).is_ok_and(|r| (e.supports)(&r).is_ok()))
            .map(|p| p.name)
            .collect();
        let _ = writeln!(out, "  {:<width$}  {}", e.name, presets.join(", "));
    }
    out.push_str(&format!(
        "\nsmart and prob take a hit's diagonal neighbours for water: ships must never\n\
         touch; parity and hunt-parity need straight ships. A command's default is\n\
         always one the rules allow: play's prob gives way to the strongest for the\n\
         rules (lookahead under classic on its 10x10 bay, else bayes), simulate's\n\
         four (the statement's) to every strategy the rules allow. lookahead plays\n\
         bays of at most {LOOKAHEAD_CELLS} cells (not starwars's 58x23), at about 4 CPU-seconds a\n\
         classic game, under a second a move (report/results.md); `all` leaves it out.\n",
    ));
    out
}

/// `help fleet-file`: the format of `--fleet-file`.
fn fleet_file() -> String {
    "spot-the-ships help fleet-file: ships of any shape (--fleet-file FILE)\n\n\
     Each ship is a name line followed by its drawing, one line per row: X a ship\n\
     cell, . a gap. Ships are separated by blank lines (one or more); a line\n\
     starting with # is a comment. Names are unique (case does not count), at\n\
     most 40 characters, and not `end`. The cells of a ship need not touch; rows\n\
     and columns of gaps around them are dropped: a ship is the box that bounds\n\
     its cells, at most 64 cells of box. Example:\n\n\
     \x20 # the seed's Y wing and a bar\n\
     \x20 Y wing\n\
     \x20 X.X\n\
     \x20 X.X\n\
     \x20 .X.\n\n\
     \x20 bar\n\
     \x20 X\n\
     \x20 X\n\n\
     A file that draws only lines of 1 to 5 cells is a fleet of straight ships,\n\
     with names. --rotate yes also allows each drawing's three other quarter\n\
     turns; --touch says whether ships may touch, as for straight ships.\n\n\
     In a judge input with a drawn fleet, a ship is `row col K T`: the top-left\n\
     corner of its box, its number K in the file (from 1), and its turn T: N as\n\
     drawn, E, S or W a quarter, half or three-quarter turn clockwise.\n\n\
     Every command that takes --fleet takes --fleet-file instead (never both).\n\
     random, linear, hunt, density, density-random and bayes play any shape.\n"
        .to_string()
}

/// `help protocol`: the lines between a player and a referee.
fn protocol() -> String {
    "spot-the-ships help protocol: how a player and a referee talk\n\n\
     One line each way; each side flushes after every line. `referee` is a\n\
     referee, `play` a player; `play --referee CMD` starts CMD as its referee;\n\
     `simulate --bot NAME=CMD` is a referee for the program CMD, game after game.\n\n\
     1. The referee writes the header:\n\
     \x20    bay ROWS COLS\n\
     \x20    fleet SIZES          comma-separated, largest first\n\
     \x20    names NAMES          when the ships have names, in the same order\n\
     \x20    rules touch=yes|no sunk=none|yes|named\n\
     \x20  A fleet of drawn ships: `fleet-file`, the fleet file's lines and `end`\n\
     \x20  instead of the fleet and names lines; its rules line adds rotate=yes|no.\n\
     2. The player writes `? r c` (row and column from 0), the referee answers\n\
     \x20  hit, miss, sunk or sunk NAME, as the rules say (play also reads h, m,\n\
     \x20  1, 0, and undo from a person).\n\
     3. After the answer that finds the last ship cell, the referee writes\n\
     \x20  `done N` (N probes).\n\n\
     simulate --bot: before each game's header the bot reads `game K SEED`: K is\n\
     the game's number in the run (from 0), SEED a number from 0 to 2^64-1 for\n\
     the bot's random choices in that game (from --seed, K and the bot's name\n\
     only), so that a bot seeded from it gives the same results for any\n\
     --threads and --shard. After the last game the bot's input ends. A bot's\n\
     stdout is for probes only; its stderr is free (the last line is shown if\n\
     it forfeits). It forfeits a game with a line that is not a probe, a probe\n\
     outside the bay or repeated, more than --move-time per probe (10 s for a\n\
     process's first), or the end of its output.\n\n\
     Lines end with LF (a CR before it is ignored), at most 1,000 bytes; spaces\n\
     around words are ignored; words are case-insensitive.\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::TOPICS;

    #[test]
    fn topics_fit_80_columns_and_60_lines() {
        for t in &TOPICS {
            let text = (t.text)();
            assert!(text.ends_with('\n'), "{}", t.name);
            assert!(text.lines().count() <= 60, "{}: {} lines", t.name, text.lines().count());
            for line in text.lines() {
                assert!(line.chars().count() <= 80, "{}: {line:?}", t.name);
            }
        }
    }
}
