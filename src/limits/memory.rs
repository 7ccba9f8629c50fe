//! Allocations that may fail: every buffer proportional to the board or the input is
//! made through here, so that running out of memory is an error the program reports
//! (`not enough memory for a R x C board`) rather than an abort.

use std::fmt;

/// An allocation the system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The bytes asked for.
    pub bytes: usize,
}

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not enough memory ({} MB more were needed)", self.bytes.div_ceil(1 << 20))
    }
}

impl std::error::Error for OutOfMemory {}

/// Not enough memory for a board: what the user is told (`not enough memory for a R x C
/// board (needs about N MB)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortage {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// About how many bytes the whole run needs (at least the allocation refused).
    pub bytes: usize,
}

impl Shortage {
    /// The shortage of a `rows` x `cols` board whose allocation `e` failed.
    /// Pre: none. Post: `bytes` is at least `e.bytes`.
    pub fn of(rows: usize, cols: usize, e: OutOfMemory) -> Shortage {
        Shortage { rows, cols, bytes: e.bytes }
    }
}

impl Shortage {
    /// The same shortage, quoting at least `bytes` (an estimate of the whole need).
    /// Pre: none. Post: `bytes` is the larger of the two.
    pub fn at_least(self, bytes: usize) -> Shortage {
        Shortage { bytes: self.bytes.max(bytes), ..self }
    }
}

impl fmt::Display for Shortage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not enough memory for a {} x {} board (needs about {} MB)",
            self.rows,
            self.cols,
            self.bytes.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for Shortage {}

/// A vector of `n` copies of `value`, or the error when the memory cannot be had.
/// Pre: none. Post: `Ok(v)` has `v.len() == n`.
pub fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    resize(&mut v, n, value)?;
    Ok(v)
}

/// Resizes `v` to `n` elements (new ones `value`), reserving fallibly.
/// Pre: none. Post: on `Ok`, `v.len() == n`; on `Err`, `v` is unchanged.
pub fn resize<T: Clone>(v: &mut Vec<T>, n: usize, value: T) -> Result<(), OutOfMemory> {
    if n > v.len() {
        reserve(v, n - v.len())?;
    }
    v.resize(n, value);
    Ok(())
}

/// Makes room for `more` elements past the length of `v`.
/// Pre: none. Post: on `Ok`, pushing `more` elements allocates nothing.
pub fn reserve<T>(v: &mut Vec<T>, more: usize) -> Result<(), OutOfMemory> {
    v.try_reserve(more).map_err(|_| OutOfMemory { bytes: more.saturating_mul(std::mem::size_of::<T>()) })
}

/// Pushes `x` onto `v`, growing it fallibly.
/// Pre: none. Post: on `Ok`, `x` is the last element.
#[inline]
pub fn push<T>(v: &mut Vec<T>, x: T) -> Result<(), OutOfMemory> {
    if v.len() == v.capacity() {
        reserve(v, v.len().max(16))?;
    }
    v.push(x);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_impossible_and_grants_the_rest() {
        let e = filled(usize::MAX / 2, 0u64).unwrap_err();
        assert!(e.bytes > 1 << 60);
        assert!(e.to_string().starts_with("not enough memory"));
        let mut v = filled(3, 7u8).unwrap();
        assert_eq!(v, vec![7, 7, 7]);
        assert!(resize(&mut v, usize::MAX, 0).is_err());
        assert_eq!(v.len(), 3);
        push(&mut v, 1).unwrap();
        assert_eq!(v, vec![7, 7, 7, 1]);
    }
}
