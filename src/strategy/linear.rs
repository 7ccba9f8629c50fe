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
        let (rows, cols) = (scan.rows(), scan.cols());
        let mut next = Position::new(0, 0);
        while !scan.is_done() {
            if next.row >= rows {
                return Err(scan.exhausted());
            }
            scan.probe(next, Source::Sweep)?;
            scan.end_step();
            next.col += 1;
            if next.col == cols {
                next = Position::new(next.row + 1, 0);
            }
        }
        Ok(())
    }
}
