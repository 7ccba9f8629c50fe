//! Spot the ships: a bay of ships of 1 to 5 cells that never touch, and strategies that
//! probe cells ("ship or water?") until every ship cell is spotted.
//!
//! # The crate's map
//!
//! The folders follow the judge's pipeline, three-line input -> [`Board`] of [`Ship`]s
//! -> [`ScanStrategy`] -> final grid and count; each layer uses only the layers above it
//! in this list:
//!
//! | folder        | what lives there |
//! |---------------|------------------|
//! | [`limits`]    | resource limits: allocations that may fail |
//! | [`game`]      | positions, shapes, ships, fleets, the rules, the hidden [`Board`], the judge's input ([`game::input`]), the random placement of fleets |
//! | [`render`]    | what is printed: answer words, counted nouns, JSON |
//! | [`scan`]      | one scan: what a scan knows of the bay ([`scan::record`]), the window a strategy has on the bay ([`scan::sonar`]), who watches ([`scan::observer`]), the scan itself ([`Scan`]) and its quiet lane |
//! | [`strategy`]  | the strategies, declared in one table ([`strategy::by_name`]), and the aids only they use |
//! | [`posterior`] | the probability of every cell given the answers (bayes and `advise`) |
//! | [`tools`]     | the commands built on that core: simulate and the bot arena, the play protocol, trace, the grading kit, the reaper that kills every process a command started |
//! | `sys`         | the crate's only `unsafe` code: the few system calls std lacks (`kill`, `prctl`, `wait4`, signals, `renameat2`) |
//! | [`cli`]       | flags, and each command's run: arguments and streams in, output and exit status out |
//!
//! # How one probe flows
//!
//! [`game::input::parse`] reads the input into a [`Board`] and a strategy name;
//! [`strategy::by_name`] picks the [`ScanStrategy`]; the strategy asks a [`Scan`] to
//! probe a cell; the scan asks the board (through [`scan::sonar::Sonar`], "ship or
//! water?", and under rules that announce it "sunk"), records the answer in its
//! [`scan::record::ScanRecord`] and tells its observer; when every ship cell is spotted,
//! the record is rendered as the final grid and count.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod game;
pub mod limits;
pub mod posterior;
pub mod render;
pub mod scan;
pub mod strategy;
#[allow(unsafe_code)]
pub(crate) mod sys;
pub mod tools;

pub use game::board::Board;
pub use game::ship::Ship;
pub use scan::Scan;
pub use strategy::ScanStrategy;
