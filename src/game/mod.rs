//! The game: a bay of rows and columns ([`bay::Bay`]), ships and their shapes, the rules, the hidden
//! [`board::Board`] that holds where the ships are, the judge's three-line input that
//! builds it, and the generator that places random fleets.

pub mod bay;
pub mod board;
pub mod cellset;
pub mod fleet;
pub mod input;
pub mod placement;
pub mod position;
pub mod rng;
pub mod rules;
pub mod shape;
pub mod ship;
