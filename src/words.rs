//! Counts in words: `1 ship cell`, `2 ship cells`.

/// `n` and `noun`, the noun in the plural (an `s` added) unless `n` is 1.
/// Pre: `noun` makes its plural with `s`. Post: `count(1, "ship") == "1 ship"`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "ship cell"), "1 ship cell");
        assert_eq!(count(0, "ship cell"), "0 ship cells");
        assert_eq!(count(21, "ship cell"), "21 ship cells");
    }
}
