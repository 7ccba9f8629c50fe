//! What the program prints: cells named in letters, answer words and counted nouns, and
//! JSON (one writer and one reader).

pub mod coords;
pub mod json;
pub(crate) mod places;
pub(crate) mod words;
