//! The ships still afloat: the `--afloat` list read against the fleet, or the fleet
//! less the sunk ships the `#` cells draw; and, when the wrecks cannot be read, the
//! lists of ships afloat to give instead.

use super::AdviceError;
use crate::game::cellset::CellSet;
use crate::game::fleet::Fleet;
use crate::game::rules::Rules;
use crate::scan::record::ScanRecord;
use crate::scan::runs;
use crate::tools::settings::SettingError;

/// The ships still afloat: `--afloat`, else the fleet less the sunk ships the `#` cells
/// draw (readable only when straight ships never touch).
pub(super) fn afloat(
    list: Option<&str>,
    rules: &Rules,
    known: &ScanRecord,
    wrecks: &CellSet,
) -> Result<Fleet, AdviceError> {
    let fleet = rules.fleet();
    if let Some(list) = list {
        return Ok(fleet.subset(&afloat_counts(list, fleet).map_err(AdviceError::Setting)?));
    }
    if wrecks.count() == 0 {
        return Ok(fleet.clone());
    }
    let sunk = (!rules.touch() && fleet.is_straight()).then(|| wreck_sizes(known, wrecks)).flatten();
    let Some(sunk) = sunk else {
        // A grid the rules cannot read (not a bad flag: `/api/advise` answers 422).
        return Err(AdviceError::Grid(unreadable_wrecks(rules, wrecks)));
    };
    let mut left = fleet.sizes();
    for s in sunk {
        match left.iter().position(|&x| x == s) {
            Some(k) => {
                left.remove(k);
            }
            None => {
                return Err(AdviceError::Grid(format!(
                    "the grid has a sunk ship of {s} cells that the fleet does not have"
                )))
            }
        }
    }
    Ok(fleet.naming(&left))
}

/// The sizes of the sunk ships the wrecks draw, when ships are straight and never touch
/// (each group of `#` is then one straight ship).
/// Pre: `wrecks` has `known`'s cells. Post: `None` when a group of wrecks is not a
/// straight line of 1 to 5 cells.
fn wreck_sizes(known: &ScanRecord, wrecks: &CellSet) -> Option<Vec<usize>> {
    let found = runs::find_where(known.rows(), known.cols(), |i| wrecks.contains(i)).ok()?;
    Some(found.iter().map(|r| r.len).collect())
}

/// How many ships of each kind of `fleet` the `--afloat` list names: each item a ship's
/// name (`battleship`, any case) or a size (`4`: the first kind of 4 cells with a ship
/// left).
/// Pre: none. Post: `Err` for an unknown name or size, or more ships of a kind
/// than the fleet has, naming the fleet.
fn afloat_counts(list: &str, fleet: &Fleet) -> Result<Vec<usize>, SettingError> {
    let kinds = fleet.kinds();
    let mut counts = vec![0usize; kinds.len()];
    let the_fleet = format!("the fleet is {}", if fleet.is_empty() { "empty".into() } else { fleet.describe() });
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let by_name = fleet.kind_named(item);
        let by_size = || {
            let size: usize = item.parse().ok()?;
            let fits =
                |k: &usize| kinds.get(*k).is_some_and(|kind| kind.shape.straight_line().map(|l| l.0) == Some(size));
            let mut sized = (0..kinds.len()).filter(fits);
            let first = sized.clone().next();
            sized.find(|&k| counts.get(k) < kinds.get(k).map(|kind| &kind.count)).or(first)
        };
        let Some(k) = by_name.or_else(by_size) else {
            let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
            let hint = crate::render::words::did_you_mean(item, &names);
            return Err(SettingError(format!(
                "--afloat: no ship called `{}` in the fleet; {hint}{the_fleet}",
                crate::render::words::shown(item.as_bytes())
            )));
        };
        let (Some(count), Some(kind)) = (counts.get_mut(k), kinds.get(k)) else { continue };
        *count += 1;
        if *count > kind.count {
            let what = if fleet.is_named() {
                format!("`{}`", kind.name)
            } else {
                format!("ships of {} cells", kind.shape.size())
            };
            return Err(SettingError(format!(
                "--afloat: {what} given {} times, but the fleet has {}: {the_fleet}",
                count,
                crate::render::words::count(kind.count, "such ship")
            )));
        }
    }
    Ok(counts)
}

/// Why the `#` cells cannot be read as ships, and the `--afloat` to write: the lists
/// of ships afloat that leave sunk ships with as many cells as the grid has `#`.
fn unreadable_wrecks(rules: &Rules, wrecks: &CellSet) -> String {
    let fleet = rules.fleet();
    let wrecks = wrecks.count();
    let why = if !fleet.is_straight() {
        "drawn ships' `#` cells are not read as shapes".to_string()
    } else if rules.touch() {
        "ships may touch under these rules (touch=yes), so a block of `#` can be one ship or several".to_string()
    } else {
        "a group of `#` cells is not one straight ship of 1 to 5 cells".to_string()
    };
    let kinds = fleet.kinds();
    // Every way of choosing the sunk ships (per kind, 0 to its count) with `wrecks` cells.
    let mut options: Vec<Vec<usize>> = Vec::new();
    let mut sunk = vec![0usize; kinds.len()];
    let mut tried = 0usize;
    loop {
        let cells: usize = sunk.iter().zip(kinds).map(|(&n, k)| n * k.shape.size()).sum();
        if cells == wrecks {
            options.push(sunk.clone());
        }
        tried += 1;
        // The next choice, like counting with digit k running from 0 to kinds[k].count.
        let mut k = 0;
        while let (Some(n), Some(kind)) = (sunk.get_mut(k), kinds.get(k)) {
            if *n < kind.count {
                *n += 1;
                break;
            }
            *n = 0;
            k += 1;
        }
        if k >= kinds.len() || tried >= 100_000 {
            break;
        }
    }
    let name = |k: usize| kinds.get(k).map_or(String::new(), |kind| kind.name.clone());
    let afloat_of = |sunk: &[usize]| -> String {
        let mut items = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            for _ in 0..kind.count.saturating_sub(sunk.get(k).copied().unwrap_or(0)) {
                items.push(name(k));
            }
        }
        items.join(",")
    };
    let cells = crate::render::words::count(wrecks, "`#` cell");
    match options.as_slice() {
        [] => format!("the grid's {cells} cannot be split into ships: {why}; and no ships of the fleet ({}) have exactly that many cells", fleet.describe()),
        [one] => format!(
            "the grid's {cells} cannot be split into ships: {why}; give the ships still afloat: --afloat '{}'",
            afloat_of(one)
        ),
        [first, second, ..] => format!(
            "the grid's {cells} cannot be split into ships: {why}; give the ships still afloat, e.g. --afloat '{}' or --afloat '{}' ({} ways of sinking {} cells)",
            afloat_of(first),
            afloat_of(second),
            options.len(),
            wrecks
        ),
    }
}
