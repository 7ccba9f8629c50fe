//! Spot the ships: a bay of ships of 1 to 5 cells that never touch, and strategies that
//! probe cells ("ship or water?") until every ship cell is spotted.
//!
//! # The crate's map
//!
//! The folders follow the judge's pipeline, three-line input -> [`Board`] of [`Ship`]s
//! -> [`ScanStrategy`] -> final grid and count. A folder uses only the folders above it
//! in this list; the `layers` test (`cargo test --release --test all layers`) reads
//! `src/` and fails when one uses a folder below it, or when two use each other. (A
//! layer above may hand one below a function to call, as the consistency check of
//! [`scan::check`] is handed the posterior's layout search.)
//!
//! | folder        | what lives there |
//! |---------------|------------------|
//! | `sys`         | the crate's only `unsafe` code: the few system calls std lacks (`kill`, `prctl`, `wait4`, signals, `renameat2`) |
//! | [`limits`]    | every limit (what is read, the boards each part plays, work and time), each with its reason; allocations that may fail |
//! | `text`        | words for people: counted nouns, quoted user text, did-you-mean, percentages |
//! | [`game`]      | positions, shapes, ships, fleets, the rules, the hidden [`Board`], the judge's input ([`game::input`]), the random placement of fleets |
//! | [`render`]    | what is printed: cells in letters, counted nouns, quoted user text, did-you-mean, JSON (the one writer and reader every command's JSON goes through) |
//! | [`scan`]      | one scan: what a scan knows of the bay ([`scan::record`]), the window a strategy has on the bay ([`scan::sonar`]), the referee where a board answers a probe ([`scan::referee`]), the consistency check of every other answer ([`scan::check`]), `advise`'s state file read into a record ([`scan::state`]) and what the rules settle from what is known ([`scan::deduce`]), who watches ([`scan::observer`]), the scan itself ([`Scan`], whose lane is chosen once: quiet when a board answers and nobody watches) |
//! | [`posterior`] | the probability of every cell given the answers (bayes, `advise`) |
//! | [`strategy`]  | the strategies, declared in one table ([`strategy::STRATEGIES`]), and the aids only they use |
//! | [`tools`]     | the commands built on that core: advice on a game in progress, the settings read from words (flags or JSON fields), simulate and the bot arena, the play protocol and a game of `play`, the referee's side, trace, the grading kit and a whole `check`, the web server, the reaper that kills every process a command started; streams that name themselves in errors, the progress line, files written whole. Each command's work takes typed values and returns its own typed error |
//! | [`args`]      | the flag parser: one table per command parses its arguments and writes its help; typed errors ([`args::ArgsError`]) |
//! | [`cli`]       | each command's flag table and help, its flags read into a typed request, the call, and what it prints: arguments and streams in, output and exit status out; every error one `error: ` line |
//!
//! # How one probe flows
//!
//! [`game::input::parse`] reads the input into a [`Board`] and a strategy name;
//! [`strategy::by_name`] picks the [`ScanStrategy`]; the strategy asks a [`Scan`] to
//! probe a cell; the scan asks the hidden board through the referee, whose one probe
//! step ([`scan::referee::probe`]) answers "ship or water?" (and, under rules that
//! announce it, "sunk") and records the answer in the scan's
//! [`scan::record::ScanRecord`]. In `play` the other side answers through a
//! [`scan::sonar::Sonar`] instead, and every such answer is first asked of the
//! consistency check ([`scan::check`]). The scan tells its observer; when every ship
//! cell is spotted, the record is rendered as the final grid and count.
#![deny(unsafe_code)]
#![warn(missing_docs)]
// The docs are the developers' map (`cargo doc --document-private-items`): a public
// item's doc may point at the private helper that does the work.
#![allow(rustdoc::private_intra_doc_links)]

pub mod args;
pub mod cli;
pub mod game;
pub mod limits;
pub mod posterior;
pub mod render;
pub mod scan;
pub mod strategy;
#[allow(unsafe_code)]
pub(crate) mod sys;
pub(crate) mod text;
pub mod tools;

pub use game::board::Board;
pub use game::ship::Ship;
pub use scan::Scan;
pub use strategy::ScanStrategy;
