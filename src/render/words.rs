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

/// A token as it may be shown in a message: lossy UTF-8, control characters escaped,
/// at most 40 characters.
pub(crate) fn shown(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let head: String = lossy.chars().take(40).collect();
    let mut out = escaped(&head);
    if lossy.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{count, escaped, shown};

    #[test]
    fn shown_escapes_and_truncates() {
        assert_eq!(shown(b"a\x01b"), "a\\u{1}b");
        assert_eq!(shown(&[b'x'; 50]), format!("{}...", "x".repeat(40)));
        assert_eq!(shown(&[0xff]), "\u{fffd}");
    }

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
