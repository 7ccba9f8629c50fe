//! Fleets placed "as an opponent would": a placement hard for density to find.
//!
//! [`place`] as an opponent draws [`CANDIDATES`] fleets uniformly at random (the
//! placer's model), lets density (deterministic, ties broken in cell order) solve each
//! one, and keeps the fleet density needed the most scans for. The placement stays
//! within the rules (every candidate is the placer's), and is reproducible from the
//! random stream alone. Against density itself the figure is the maximum of the
//! candidates' scans by construction; strategies that were not asked (bayes,
//! density-random) measure how much harder the fleet really is.

use crate::game::board::{Board, BoardError};
use crate::game::placement::{PlacementError, Placer};
use crate::game::rng::Rng;
use crate::game::rules::Rules;
use crate::game::ship::Ship;
use crate::scan::referee::Referee;
use crate::strategy::{self, Density};

/// How many uniform fleets an opponent's placement chooses among.
pub const CANDIDATES: usize = 16;

/// The names of the two placements: `uniform` (each ship uniformly among the valid
/// places, [`Placer::place`]) and `opponent` (as an opponent would).
pub const NAMES: [&str; 2] = ["uniform", "opponent"];

/// Whether the placement called `name` is an opponent's: `Some(false)` for `uniform`
/// (or `random`), `Some(true)` for `opponent`.
/// Pre: none. Post: `None` for any other name.
pub fn is_opponent(name: &str) -> Option<bool> {
    match name {
        "uniform" | "random" => Some(false),
        "opponent" => Some(true),
        _ => None,
    }
}

/// Places `rules`' fleet on `placer`'s board into `ships` (emptied first), drawing from
/// `rng`: uniformly, or as an opponent would when `opponent` (of [`CANDIDATES`] uniform
/// fleets, the one density needs the most scans for).
/// Pre: `placer` was made for `rules` on a `rows` x `cols` board. Post: `Ok` means
/// `ships` is a fleet the rules accept; the same stream gives the same fleet.
pub fn place(
    opponent: bool,
    placer: &mut Placer,
    rules: &Rules,
    rows: usize,
    cols: usize,
    rng: &mut Rng,
    ships: &mut Vec<Ship>,
) -> Result<(), PlacementError> {
    if !opponent {
        return placer.place(rules.fleet(), rng, ships);
    }
    let mut density = Density::default();
    let mut best: Option<(usize, Vec<Ship>)> = None;
    for _ in 0..CANDIDATES {
        placer.place(rules.fleet(), rng, ships)?;
        let scans = scans_of(&mut density, rows, cols, ships, rules);
        if best.as_ref().is_none_or(|(most, _)| scans > *most) {
            best = Some((scans, ships.clone()));
        }
    }
    if let Some((_, fleet)) = best {
        *ships = fleet;
    }
    Ok(())
}

/// Why no board was drawn.
#[derive(Debug)]
pub enum DrawError {
    /// The fleet could not be placed.
    Placement(PlacementError),
    /// The board refused the ships placed.
    Board(BoardError),
}

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DrawError::Placement(e) => write!(f, "{e}"),
            DrawError::Board(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DrawError {}

/// The one random hidden board: `rules`' fleet placed on a `rows` x `cols` bay from
/// `seed`, uniformly or as an opponent would when `opponent` ([`place`]). What
/// `referee`, `serve`'s games and `/exec` hide.
/// Pre: none. Post: the same arguments give the same board.
pub fn random_board(
    rules: &Rules,
    (rows, cols): (usize, usize),
    seed: u64,
    opponent: bool,
) -> Result<Board, DrawError> {
    let mut rng = Rng::new(seed);
    let mut ships = Vec::new();
    let mut placer = Placer::with_rules(rows, cols, rules);
    place(opponent, &mut placer, rules, rows, cols, &mut rng, &mut ships).map_err(DrawError::Placement)?;
    Board::with_rules(rows, cols, ships, rules).map_err(DrawError::Board)
}

/// The scans density needs to find `ships` (0 when the board is refused or density
/// cannot play it: such a candidate is never preferred).
fn scans_of(density: &mut Density, rows: usize, cols: usize, ships: &[Ship], rules: &Rules) -> usize {
    let Ok(board) = Board::with_rules(rows, cols, ships.to_vec(), rules) else { return 0 };
    let mut referee = Referee::new(&board);
    strategy::solve(density, &mut referee).map_or(0, |record| record.scans())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_board_is_the_placers_from_the_seed() {
        let rules = Rules::preset("classic").unwrap();
        let board = random_board(&rules, (10, 10), 5, false).unwrap();
        let mut ships = Vec::new();
        Placer::with_rules(10, 10, &rules).place(rules.fleet(), &mut Rng::new(5), &mut ships).unwrap();
        let cells = |b: &Board| b.ships().flat_map(|s| s.cells().collect::<Vec<_>>()).collect::<Vec<_>>();
        assert_eq!(cells(&board), cells(&Board::with_rules(10, 10, ships, &rules).unwrap()));
        let opponent = |seed| cells(&random_board(&rules, (10, 10), seed, true).unwrap());
        assert_eq!(opponent(5), opponent(5));
        let e = random_board(&rules, (2, 2), 5, false).unwrap_err();
        assert!(matches!(e, DrawError::Placement(_)), "{e}");
    }

    fn fleet(opponent: bool, seed: u64) -> Vec<Ship> {
        let rules = Rules::preset("classic").unwrap();
        let mut placer = Placer::with_rules(10, 10, &rules);
        let mut ships = Vec::new();
        place(opponent, &mut placer, &rules, 10, 10, &mut Rng::new(seed), &mut ships).unwrap();
        ships
    }

    #[test]
    fn an_opponents_fleet_is_valid_reproducible_and_harder_for_density() {
        let rules = Rules::preset("classic").unwrap();
        let (mut uniform, mut opponent) = (0, 0);
        for seed in 0..40 {
            let a = fleet(true, seed);
            assert_eq!(a, fleet(true, seed));
            let mut density = Density::default();
            assert!(Board::with_rules(10, 10, a.clone(), &rules).is_ok());
            opponent += scans_of(&mut density, 10, 10, &a, &rules);
            uniform += scans_of(&mut density, 10, 10, &fleet(false, seed), &rules);
        }
        assert!(opponent > uniform + 40 * 5, "opponent {opponent}, uniform {uniform}");
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(NAMES.map(is_opponent), [Some(false), Some(true)]);
        assert_eq!(is_opponent("random"), Some(false));
        assert_eq!(is_opponent("hard"), None);
    }
}
