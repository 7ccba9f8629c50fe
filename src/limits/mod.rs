//! Resource limits: allocations that may fail (so that a huge board is an error, not an
//! abort).

pub mod memory;
