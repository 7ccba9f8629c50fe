//! The commands built on the core: simulation and the bot arena, the play protocol,
//! the tracer, and the grading kit.

pub(crate) mod grading;
pub mod play;
pub(crate) mod reaper;
pub mod simulate;
pub mod trace;
