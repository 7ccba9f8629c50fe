//! Spot the ships: a bay of non-touching ships of 1 to 5 cells, and strategies that
//! probe cells ("ship or water?") until every ship cell is spotted.
//!
//! The judge path: [`input::parse`] turns the three-line input into a [`board::Board`]
//! of [`ship::Ship`]s and a strategy name; [`strategy::by_name`] picks a
//! [`strategy::ScanStrategy`]; the strategy probes through a [`scan::Scan`] (or, when
//! nobody watches, its quiet lane [`quiet::QuietScan`]), which asks the board only
//! "ship or water?" ([`sonar::Sonar`]) and keeps the [`record::ScanRecord`] that is
//! rendered into the final grid.
//!
//! The grading kit (`check`, `testset`) lives in `grading`: test cases, a process
//! runner with time and output limits, Mooshak's verdicts, shrinking and test-set
//! layouts.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod afloat;
pub mod arena;
pub mod board;
pub mod cellset;
pub mod chart;
pub mod cli;
pub mod fleet;
pub(crate) mod grading;
pub mod input;
pub mod interactive;
pub mod json;
pub mod likelihood;
pub mod memory;
pub mod merge;
pub mod observer;
pub mod placement;
pub mod position;
pub mod posterior;
pub mod protocol;
pub mod quiet;
pub mod ranking;
pub mod record;
pub mod rng;
pub mod rules;
pub mod runs;
pub mod scan;
pub mod serve;
pub mod shape;
pub mod ship;
pub mod simulation;
pub mod sonar;
pub mod state;
pub mod strategy;
pub mod trace;
pub(crate) mod words;
