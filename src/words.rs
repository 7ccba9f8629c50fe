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

/// `text` with every control character escaped (`\n`, `\t`, `\u{1b}`, ...; also the
/// Unicode line and paragraph separators), everything else as it is: the one function
/// through which user text (arguments, file names, ship names, input tokens) reaches an
/// error line or the output, so that it can neither break the line nor drive the
/// terminal. Pre: none. Post: no control character in the result; text without one is
/// returned unchanged (so escaping twice changes nothing more).
pub fn escaped(text: &str) -> String {
    let unsafe_char = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    if !text.chars().any(unsafe_char) {
        return text.to_string();
    }
    text.chars().fold(String::with_capacity(text.len() + 8), |mut out, c| {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::{count, escaped};

    #[test]
    fn control_characters_are_escaped_and_nothing_else() {
        assert_eq!(escaped("x\ny"), "x\\ny");
        assert_eq!(escaped("a\tb\r\u{1b}[31m\u{7f}"), "a\\tb\\r\\u{1b}[31m\\u{7f}");
        assert_eq!(escaped("Y wing, `ü` \\ 'q'"), "Y wing, `ü` \\ 'q'");
        assert_eq!(escaped("\u{2028}"), "\\u{2028}");
        assert_eq!(escaped(&escaped("x\ny")), escaped("x\ny"));
    }

    #[test]
    fn one_is_singular() {
        assert_eq!(count(1, "ship cell"), "1 ship cell");
        assert_eq!(count(0, "ship cell"), "0 ship cells");
        assert_eq!(count(21, "ship cell"), "21 ship cells");
    }
}
