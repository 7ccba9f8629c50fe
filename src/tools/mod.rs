//! The commands built on the core: simulation and the bot arena, the play protocol,
//! the tracer, the grading kit, and the web server (`serve`).

pub mod advise;
pub(crate) mod files;
pub(crate) mod grading;
pub mod opponent;
pub mod play;
pub(crate) mod progress;
pub(crate) mod reaper;
pub mod serve;
pub(crate) mod settings;
pub mod simulate;
pub(crate) mod streams;
pub mod trace;
