//! What the program prints: cells named in letters, answer words and counted nouns, and
//! JSON (one writer and one reader).

pub mod coords;
pub mod json;
pub(crate) mod places;
/// The words of messages live below `game`, which quotes user text with them; render
/// keeps its old name for them.
pub(crate) use crate::text as words;
