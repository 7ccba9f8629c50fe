//! The flags every command shares to say which game is played: the rules (a preset and
//! its overrides) and the fleet.

use super::args::{Command, Flag, Parsed};
use super::CliError;
use crate::game::fleet::Fleet;
use crate::game::rules::{Rules, RulesError, Sunk};

/// The rules flags, a group of every command's table.
pub(crate) const RULE_FLAGS: &[Flag] = &[
    Flag::value("--rules", "NAME", "problem-g, classic, russian or starwars (see `help rules`)").default("problem-g"),
    Flag::value("--touch", "yes|no", "may ships touch? (overrides the preset)"),
    Flag::value("--sunk", "WHAT", "none, yes or named: what completing a ship answers"),
    Flag::value("--fleet", "LIST", "ship sizes, e.g. 5,4,3,3,2 (ships then named by size)"),
    Flag::value("--fleet-file", "FILE", "ships of any shape, drawn (see `help fleet-file`)"),
    Flag::value("--rotate", "yes|no", "may drawn ships turn? (overrides the preset)"),
];

/// The rules the rule flags give, with the preset `preset` where `--rules` is not given
/// (`serve`'s `/exec` and `play --url` play the remote-service seed's game by default).
/// `command` is the flag table `flags` came from.
/// Pre: `preset` names a preset. Post: as [`rules`].
pub(crate) fn rules_or_preset(flags: &Parsed, command: &Command, preset: &str) -> Result<Rules, CliError> {
    if flags.has("--rules") {
        return rules(flags);
    }
    let mut args = vec!["--rules".to_string(), preset.to_string()];
    for f in ["--touch", "--sunk", "--fleet", "--fleet-file", "--rotate"] {
        if let Some(v) = flags.text(f) {
            args.extend([f.to_string(), v.to_string()]);
        }
    }
    rules(&command.parse(&args)?)
}

/// The rules the flags ask for: the preset, then each override.
/// Pre: none. Post: `Err(Usage)` for an unknown preset, a bad value, `--fleet` with
/// `--fleet-file`, or a fleet (file) that does not parse, naming the flag (and line).
pub(crate) fn rules(p: &Parsed) -> Result<Rules, CliError> {
    let usage = |e: RulesError| CliError::Usage(e.to_string());
    let mut rules = Rules::preset(p.text("--rules").unwrap_or("problem-g")).map_err(usage)?;
    if let Some(touch) = p.choice("--touch", &["yes", "no"])? {
        rules = rules.with_touch(touch == "yes");
    }
    if let Some(word) = p.choice("--sunk", &["none", "yes", "named"])? {
        rules = rules.with_sunk(Sunk::from_word(word).unwrap_or(Sunk::None));
    }
    if let Some(rotate) = p.choice("--rotate", &["yes", "no"])? {
        rules = rules.with_rotate(rotate == "yes");
    }
    match (p.text("--fleet"), p.text("--fleet-file")) {
        (Some(_), Some(_)) => return Err(CliError::Usage("give --fleet or --fleet-file, not both".into())),
        (Some(list), None) => {
            rules = rules.with_fleet(Fleet::parse_sizes(list).map_err(|e| usage(RulesError::Fleet(e)))?)
        }
        (None, Some(path)) => {
            let text = read_fleet_file(path)?;
            let fleet = Fleet::parse_file(&text)
                .map_err(|error| usage(RulesError::FleetFile { path: path.to_string(), error }))?;
            rules = rules.with_fleet(fleet);
        }
        (None, None) => {}
    }
    Ok(rules)
}

/// The most bytes a fleet file may have.
const MAX_FLEET_FILE: u64 = 1 << 20;

/// Reads a fleet file of at most [`MAX_FLEET_FILE`] bytes.
fn read_fleet_file(path: &str) -> Result<String, CliError> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).map_err(|e| CliError::Usage(format!("--fleet-file: cannot open `{path}`: {e}")))?;
    let mut bytes = Vec::new();
    file.take(MAX_FLEET_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Usage(format!("--fleet-file: reading `{path}`: {e}")))?;
    if bytes.len() as u64 > MAX_FLEET_FILE {
        return Err(CliError::Usage(format!("--fleet-file: `{path}` is larger than {MAX_FLEET_FILE} bytes")));
    }
    String::from_utf8(bytes).map_err(|_| CliError::Usage(format!("--fleet-file: `{path}` is not UTF-8 text")))
}

/// Refuses a judge input whose ships are not the fleet `--fleet` or `--fleet-file`
/// gave (without either flag, the input's ships are the fleet).
/// Pre: `input` is the fleet of the input's board. Post: `Err(Usage)` naming both.
pub(crate) fn check_fleet(p: &Parsed, rules: &Rules, input: &Fleet) -> Result<(), CliError> {
    let given = p.has("--fleet") || p.has("--fleet-file");
    if given && rules.fleet().sizes() != input.sizes() {
        return Err(CliError::Usage(format!(
            "the input's ships ({}) are not the fleet given by {} ({})",
            input.describe(),
            if p.has("--fleet") { "--fleet" } else { "--fleet-file" },
            rules.fleet().describe()
        )));
    }
    Ok(())
}

/// The bay's size: `--rows` and `--cols`, each defaulting to the rules' usual bay.
/// Pre: none. Post: `Err(Usage)` for a bad number or a size the board refuses.
pub(crate) fn bay(p: &Parsed, rules: &Rules) -> Result<(usize, usize), CliError> {
    let (rows, cols) = rules.bay();
    let rows = p.get_or("--rows", rows)?;
    let cols = p.get_or("--cols", cols)?;
    crate::game::board::Board::check_size(rows, cols).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((rows, cols))
}
