//! linear: probe cells in row-major order until every ship cell is spotted.

use super::ScanStrategy;
use crate::observer::Source;
use crate::position::Position;
use crate::scan::{Scan, ScanError};

/// Scans left to right, top to bottom.
#[derive(Debug, Default, Clone, Copy)]
pub struct Linear;

impl ScanStrategy for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let cols = scan.cols();
        let mut next = 0;
        while !scan.is_done() {
            if next >= scan.rows() * cols {
                return Err(scan.exhausted());
            }
            scan.probe(Position::from_index(next, cols), Source::Sweep)?;
            scan.end_step();
            next += 1;
        }
        Ok(())
    }
}
