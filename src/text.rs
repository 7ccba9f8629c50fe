//! Words for people: counts (`1 ship cell`, `2 ship cells`), user text quoted in a
//! message, and the did-you-mean of a mistyped word.

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

/// The candidate closest to `word`, when it is close enough to be a likely typo: a
/// prefix of it, or at most a third of its letters (at least 1, at most 3) away.
/// Pre: none. Post: `None` when nothing is close.
pub(crate) fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let limit = (word.len() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for &c in candidates {
        let d = if c.starts_with(&word) && word.len() >= 3 { 0 } else { edit_distance(&word, c) };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The one did-you-mean hint: "did you mean `NEAREST`? " (a space after it, as it
/// stands before the list of valid names) when a candidate is close to `word`
/// ([`nearest`]), else nothing.
/// Pre: none. Post: empty or one sentence ending in "? ".
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    nearest(word, candidates).map(|n| format!("did you mean `{n}`? ")).unwrap_or_default()
}

/// Edit distance between two words (bytes): insertions, deletions, substitutions and
/// swaps of two neighbouring letters each count 1 (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let width = b.len() + 1;
    // d[i * width + j]: distance between the first i letters of a and the first j of b.
    let mut d: Vec<usize> = (0..(a.len() + 1) * width)
        .map(|k| {
            if k < width {
                k
            } else if k % width == 0 {
                k / width
            } else {
                0
            }
        })
        .collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let (x, y) = (a.get(i - 1), b.get(j - 1));
            let at = |d: &[usize], i: usize, j: usize| d.get(i * width + j).copied().unwrap_or(usize::MAX - 1);
            let mut v =
                (at(&d, i - 1, j - 1) + usize::from(x != y)).min(at(&d, i - 1, j) + 1).min(at(&d, i, j - 1) + 1);
            if i > 1 && j > 1 && x == b.get(j - 2) && a.get(i - 2) == y {
                v = v.min(at(&d, i - 2, j - 2) + 1);
            }
            if let Some(cell) = d.get_mut(i * width + j) {
                *cell = v;
            }
        }
    }
    d.last().copied().unwrap_or(0)
}
/// `part` of `whole` in percent with one decimal, never shown as 100.0 or 0.0 unless
/// it is exactly that (99.96% shows 99.9, 0.04% shows 0.1).
/// Pre: none. Post: `0.0` for an empty whole.
pub(crate) fn percent(part: u64, whole: u64) -> String {
    if whole == 0 || part == 0 {
        return "0.0".into();
    }
    if part >= whole {
        return "100.0".into();
    }
    let tenths = (1000.0 * part as f64 / whole as f64).round().clamp(1.0, 999.0);
    format!("{:.1}", tenths / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_are_exact_at_the_ends_only() {
        assert_eq!(percent(0, 10), "0.0");
        assert_eq!(percent(10, 10), "100.0");
        assert_eq!(percent(9996, 10_000), "99.9");
        assert_eq!(percent(4, 10_000), "0.1");
        assert_eq!(percent(1, 3), "33.3");
        assert_eq!(percent(1, 0), "0.0");
    }

    use super::{count, edit_distance, escaped, nearest, shown};

    #[test]
    fn nearest_finds_typos_only() {
        let names = ["simulate", "generate", "trace", "advise", "play"];
        assert_eq!(nearest("simulat", &names), Some("simulate"));
        assert_eq!(nearest("trcae", &names), Some("trace"));
        assert_eq!(nearest("sim", &names), Some("simulate"));
        assert_eq!(nearest("zzzzzz", &names), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("trcae", "trace"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

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
