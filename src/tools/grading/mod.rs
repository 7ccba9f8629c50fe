//! The grading kit: check a student's program the way the course's Mooshak judge does,
//! and write test sets in a judge's layout.
//!
//! [`cases`] lists the test cases (the statement's samples, named edge cases, random
//! cases, a user's pairs), each input an [`instance::Instance`] whose expected output
//! the judge computes in process; [`runner`] runs a program on one input under time and
//! output limits; [`verdict`] judges its output by Mooshak's rules; [`check`] runs
//! every case in parallel and [`shrink`]s the first failure of each kind; [`report`]
//! tells what was found; [`testset`] writes the cases for Mooshak, Kattis or DOMjudge
//! (with [`zip`] for the archive Mooshak imports).

pub(crate) mod cases;
pub(crate) mod check;
pub(crate) mod error;
pub(crate) mod instance;
pub(crate) mod package;
pub(crate) mod report;
pub(crate) mod runner;
pub(crate) mod session;
pub(crate) mod shrink;
pub(crate) mod testset;
pub(crate) mod verdict;
pub(crate) mod zip;
