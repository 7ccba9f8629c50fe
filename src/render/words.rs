//! Words for people: counts (`1 ship cell`, `2 ship cells`) and user text quoted in a
//! message.

/// `n` and `noun`, the noun in the plural (an `s` added) unless `n` is 1.
/// Pre: `noun` makes its plural with `s`. Post: `count(1, "ship") == "1 ship"`.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A token as it may be shown in a message: lossy UTF-8, control characters escaped,
/// at most 40 characters.
pub(crate) fn shown(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let mut out: String = lossy.chars().take(40).flat_map(char::escape_debug).collect();
    if lossy.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{count, shown};

    #[test]
    fn shown_escapes_and_truncates() {
        assert_eq!(shown(b"a\x01b"), "a\\u{1}b");
        assert_eq!(shown(&[b'x'; 50]), format!("{}...", "x".repeat(40)));
        assert_eq!(shown(&[0xff]), "\u{fffd}");
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "ship cell"), "1 ship cell");
        assert_eq!(count(0, "ship cell"), "0 ship cells");
        assert_eq!(count(21, "ship cell"), "21 ship cells");
    }
}
