//! Playing against the other side of a pipe or a person: the play protocol's lines and
//! the interactive sonar that asks them.

pub mod interactive;
pub mod protocol;
pub(crate) mod referee;
pub(crate) mod referee_process;
pub mod session;
