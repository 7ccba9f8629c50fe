//! linear: probe cells in row-major order until every ship cell is spotted.

use super::ScanStrategy;
use crate::scan::observer::Source;
use crate::scan::{Scan, ScanError};

/// Scans left to right, top to bottom.
#[derive(Debug, Default, Clone, Copy)]
pub struct Linear;

impl ScanStrategy for Linear {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn run(&mut self, scan: &mut Scan<'_>) -> Result<(), ScanError> {
        let mut next = 0;
        while !scan.is_done() {
            // One step per probe when watched; a whole run of water per call otherwise.
            let Some((i, _)) = scan.sweep(next, Source::Sweep)? else {
                return Err(scan.exhausted());
            };
            scan.end_step();
            next = i + 1;
        }
        Ok(())
    }
}
