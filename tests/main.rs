//! The integration tests, linked as one binary (one link instead of one per file):
//! each file of `tests/` is a module; `cargo test --release --test all NAME::` runs one
//! file's tests.

mod common;
mod layouts;

mod advise;
mod arena;
mod browser;
mod check;
mod cleanup;
mod cli;
mod errors;
mod floor;
mod golden;
mod hostile;
mod journeys;
mod layers;
mod memory;
mod optimum;
mod package;
mod pipes;
mod play;
mod readme;
mod referee;
mod report;
mod safe_writes;
mod serve;
mod shapes;
mod simulate;
mod strategies;
mod stronger;
mod testset;
mod trace;
mod untrusted;
