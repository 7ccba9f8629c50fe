//! Mooshak's verdicts and its output comparison, as its evaluator decides them
//! (`ProgramAnalyzer.java` and `Compare.java` of Mooshak 2): byte-identical output is
//! accepted; output equal to the expected one once both are *normalized* (every run of
//! whitespace made one space, then lower-cased, then trimmed) is a presentation error;
//! anything else is a wrong answer. The verdicts are ordered as Mooshak's
//! `Classification` orders them, so the worst verdict over many cases is the largest.
//!
//! Pure functions only: no process is run here.

use std::fmt;

/// How one run of a program is judged, from best to worst (Mooshak's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Verdict {
    /// `AC`: the output is byte-identical to the expected one.
    Accepted,
    /// `PE`: the output differs only in whitespace or letter case.
    PresentationError,
    /// `WA`: any other difference.
    WrongAnswer,
    /// `OLE`: the program wrote more than the output limit (and was killed).
    OutputLimit,
    /// `TLE`: the program ran past the time limit (and was killed, with its children).
    TimeLimit,
    /// `RE`: the program exited with a non-zero status, was killed by a signal, or wrote
    /// anything on stderr.
    RuntimeError,
}

impl Verdict {
    /// Every verdict, best first.
    pub(crate) const ALL: [Verdict; 6] = [
        Verdict::Accepted,
        Verdict::PresentationError,
        Verdict::WrongAnswer,
        Verdict::OutputLimit,
        Verdict::TimeLimit,
        Verdict::RuntimeError,
    ];

    /// The short code (`AC`, `PE`, `WA`, `OLE`, `TLE`, `RE`).
    /// Pre: none. Post: 2 or 3 capital letters.
    pub(crate) fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::PresentationError => "PE",
            Verdict::WrongAnswer => "WA",
            Verdict::OutputLimit => "OLE",
            Verdict::TimeLimit => "TLE",
            Verdict::RuntimeError => "RE",
        }
    }

    /// The verdict's name in words (`wrong answer`).
    /// Pre: none. Post: lower case.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::PresentationError => "presentation error",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::RuntimeError => "runtime error",
        }
    }

    /// The verdict's position in [`Verdict::ALL`].
    /// Pre: none. Post: `< 6`.
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// True for the bytes Java's regular expression `\s` matches: space, tab, LF, vertical
/// tab, form feed and CR.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Mooshak's normalization: every run of whitespace becomes one space, then letters are
/// lower-cased, then both ends are trimmed of every character up to the space (as
/// Java's `String.trim` does, control characters included). Bytes that are not UTF-8
/// are read as U+FFFD, as Java's decoder reads them.
/// Pre: none. Post: no whitespace run longer than one space; no leading or trailing
/// character at or below U+0020.
pub(crate) fn normalize(text: &[u8]) -> String {
    let lossy = String::from_utf8_lossy(text);
    let mut spaced = String::with_capacity(lossy.len());
    let mut in_space = false;
    for c in lossy.chars() {
        if c.is_ascii() && is_space(c as u8) {
            if !in_space {
                spaced.push(' ');
            }
            in_space = true;
        } else {
            spaced.push(c);
            in_space = false;
        }
    }
    spaced.to_lowercase().trim_matches(|c: char| c <= ' ').to_string()
}

/// The verdict of an output, once the program ended normally: `Accepted`,
/// `PresentationError` or `WrongAnswer`.
/// Pre: none. Post: `Accepted` exactly when `got == expected`.
pub(crate) fn compare(expected: &[u8], got: &[u8]) -> Verdict {
    if expected == got {
        Verdict::Accepted
    } else if normalize(expected) == normalize(got) {
        Verdict::PresentationError
    } else {
        Verdict::WrongAnswer
    }
}

/// Where two outputs first differ: line and column (from 1, in bytes), and what each
/// has there (`None` past its end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Difference {
    /// Line of the first differing byte, from 1.
    pub line: usize,
    /// Its column, from 1.
    pub column: usize,
    /// The expected byte there, or `None` when the expected output ended.
    pub expected: Option<u8>,
    /// The program's byte there, or `None` when its output ended.
    pub got: Option<u8>,
}

impl Difference {
    /// One line describing the difference: `line 2, column 5: expected `X`, got `.``.
    /// Pre: none. Post: no line break.
    pub(crate) fn describe(&self) -> String {
        format!(
            "line {}, column {}: expected {}, got {}",
            self.line,
            self.column,
            byte_words(self.expected),
            byte_words(self.got)
        )
    }
}

/// A byte as a reader sees it: `` `X` ``, `a line break`, `a CR`, `the end of the output`.
fn byte_words(b: Option<u8>) -> String {
    match b {
        None => "the end of the output".into(),
        Some(b'\n') => "a line break".into(),
        Some(b'\r') => "a CR (\\r)".into(),
        Some(b' ') => "a space".into(),
        Some(b'\t') => "a tab".into(),
        Some(b) if b.is_ascii_graphic() => format!("`{}`", char::from(b)),
        Some(b) => format!("byte 0x{b:02x}"),
    }
}

/// The first place where `got` differs from `expected`.
/// Pre: none. Post: `None` exactly when the two are equal.
pub(crate) fn first_difference(expected: &[u8], got: &[u8]) -> Option<Difference> {
    let at = expected.iter().zip(got).position(|(a, b)| a != b).unwrap_or(expected.len().min(got.len()));
    if at == expected.len() && at == got.len() {
        return None;
    }
    let before = expected.get(..at).unwrap_or_default();
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
    Some(Difference { line, column, expected: expected.get(at).copied(), got: got.get(at).copied() })
}

/// What makes an output a presentation error rather than accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presentation {
    /// The last line has no line break after it.
    MissingFinalNewline,
    /// Blank lines or spaces after the last line.
    ExtraAtEnd,
    /// Lines end with CR LF (or hold a CR).
    CarriageReturn,
    /// Spaces or tabs at the end of lines.
    TrailingSpaces,
    /// Letters in the other case.
    LetterCase,
    /// Whitespace elsewhere: at the start of lines, between characters, lines split or
    /// joined, tabs for spaces.
    OtherSpacing,
}

impl Presentation {
    /// The difference in words, for the report.
    /// Pre: none. Post: lower case, no line break.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Presentation::MissingFinalNewline => "no line break after the last line",
            Presentation::ExtraAtEnd => "extra blank lines or spaces after the last line",
            Presentation::CarriageReturn => "CR characters (\\r\\n line ends)",
            Presentation::TrailingSpaces => "trailing spaces at the end of lines",
            Presentation::LetterCase => "letter case",
            Presentation::OtherSpacing => "spacing inside or between lines",
        }
    }
}

/// Every way `got` differs from `expected` in presentation only, in the order of
/// [`Presentation`].
/// Pre: `compare(expected, got)` is `PresentationError`. Post: not empty when the
/// precondition holds.
pub(crate) fn presentation(expected: &[u8], got: &[u8]) -> Vec<Presentation> {
    let mut found = Vec::new();
    // The lines of a text, CRs dropped.
    let lines = |t: &[u8]| -> Vec<Vec<u8>> {
        t.split(|&b| b == b'\n').map(|l| l.iter().copied().filter(|&b| b != b'\r').collect()).collect()
    };
    // What follows the last character that is not whitespace.
    let tail = |t: &[u8]| -> Vec<u8> {
        let start = t.iter().rposition(|&b| !is_space(b)).map_or(0, |k| k + 1);
        t.get(start..).unwrap_or_default().to_vec()
    };
    let breaks = |t: &[u8]| t.iter().filter(|&&b| b == b'\n').count();
    let (got_tail, expected_tail) = (tail(got), tail(expected));
    if expected.ends_with(b"\n") && !got_tail.contains(&b'\n') {
        found.push(Presentation::MissingFinalNewline);
    }
    let blank_last_line = got_tail
        .iter()
        .rposition(|&b| b == b'\n')
        .is_some_and(|k| got_tail.get(k + 1..).is_some_and(|rest| rest.iter().any(|&b| b == b' ' || b == b'\t')));
    if breaks(&got_tail) > breaks(&expected_tail) || blank_last_line {
        found.push(Presentation::ExtraAtEnd);
    }
    if got.contains(&b'\r') && !expected.contains(&b'\r') {
        found.push(Presentation::CarriageReturn);
    }
    let trailing =
        |t: &[u8]| lines(t).iter().any(|l| matches!(l.last(), Some(b' ' | b'\t')) && l.iter().any(|&b| !is_space(b)));
    if trailing(got) && !trailing(expected) {
        found.push(Presentation::TrailingSpaces);
    }
    let squeeze = |t: &[u8]| -> Vec<u8> { t.iter().copied().filter(|&b| !is_space(b)).collect() };
    if squeeze(expected) != squeeze(got) {
        found.push(Presentation::LetterCase);
    }
    // What is left once line ends, trailing spaces, blank last lines and case are
    // repaired.
    let repaired = |t: &[u8]| -> Vec<Vec<u8>> {
        let mut ls: Vec<Vec<u8>> = lines(&t.to_ascii_lowercase())
            .into_iter()
            .map(|mut l| {
                while matches!(l.last(), Some(b' ' | b'\t')) {
                    l.pop();
                }
                l
            })
            .collect();
        while ls.last().is_some_and(|l| l.is_empty()) {
            ls.pop();
        }
        ls
    };
    if repaired(expected) != repaired(got) {
        found.push(Presentation::OtherSpacing);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use Presentation::*;

    const GRID: &[u8] = b"11\nXXXXXX\nX++++X\n";

    #[test]
    fn verdicts_follow_mooshak_order() {
        assert!(Verdict::Accepted < Verdict::PresentationError);
        assert!(Verdict::PresentationError < Verdict::WrongAnswer);
        assert!(Verdict::WrongAnswer < Verdict::OutputLimit);
        assert!(Verdict::OutputLimit < Verdict::TimeLimit);
        assert!(Verdict::TimeLimit < Verdict::RuntimeError);
        for (k, v) in Verdict::ALL.iter().enumerate() {
            assert_eq!(v.index(), k);
        }
        assert_eq!(Verdict::ALL.iter().map(|v| v.code()).collect::<Vec<_>>(), ["AC", "PE", "WA", "OLE", "TLE", "RE"]);
    }

    #[test]
    fn normalize_is_mooshaks() {
        assert_eq!(normalize(b"  A\t\tB\r\n\nc  "), "a b c");
        assert_eq!(normalize(b"\x00x\x01"), "x");
        assert_eq!(normalize(b"a\x0b\x0cb"), "a b");
        assert_eq!(normalize(b""), "");
        assert_eq!(normalize(&[b'a', 0xff]), "a\u{fffd}");
    }

    #[test]
    fn each_whitespace_or_case_difference_is_a_presentation_error() {
        assert_eq!(compare(GRID, GRID), Verdict::Accepted);
        let cases: [(&[u8], &[Presentation]); 9] = [
            (b"11\nXXXXXX\nX++++X", &[MissingFinalNewline]),
            (b"11\nXXXXXX\nX++++X\n\n", &[ExtraAtEnd]),
            (b"11\nXXXXXX\nX++++X\n  ", &[ExtraAtEnd]),
            (b"11\r\nXXXXXX\r\nX++++X\r\n", &[CarriageReturn]),
            (b"11 \nXXXXXX  \nX++++X\t\n", &[TrailingSpaces]),
            (b"11\nxxxxxx\nx++++x\n", &[LetterCase]),
            (b" 11\nXXXXXX\nX++++X\n", &[OtherSpacing]),
            (b"11 XXXXXX X++++X\n", &[OtherSpacing]),
            (b"11\nxxxxxx \r\nX++++X", &[MissingFinalNewline, CarriageReturn, TrailingSpaces, LetterCase]),
        ];
        for (got, why) in cases {
            assert_eq!(compare(GRID, got), Verdict::PresentationError, "{:?}", String::from_utf8_lossy(got));
            assert_eq!(presentation(GRID, got), why, "{:?}", String::from_utf8_lossy(got));
        }
    }

    #[test]
    fn other_differences_are_wrong_answers() {
        assert_eq!(compare(GRID, b"12\nXXXXXX\nX++++X\n"), Verdict::WrongAnswer);
        assert_eq!(compare(GRID, b"11\nXXXXX\nX++++X\n"), Verdict::WrongAnswer);
        assert_eq!(compare(GRID, b"11\nXXX XXX\nX++++X\n"), Verdict::WrongAnswer);
        assert_eq!(compare(GRID, b""), Verdict::WrongAnswer);
        assert_eq!(compare(b"0\n.\n", b"0\n.\n"), Verdict::Accepted);
    }

    #[test]
    fn first_difference_gives_line_and_column() {
        let d = first_difference(GRID, b"11\nXXXXXX\nX+++.X\n").unwrap();
        assert_eq!((d.line, d.column, d.expected, d.got), (3, 5, Some(b'+'), Some(b'.')));
        assert_eq!(d.describe(), "line 3, column 5: expected `+`, got `.`");
        let d = first_difference(GRID, b"11\nXXXXXX\nX++++X").unwrap();
        assert_eq!((d.line, d.column, d.expected, d.got), (3, 7, Some(b'\n'), None));
        assert_eq!(d.describe(), "line 3, column 7: expected a line break, got the end of the output");
        let d = first_difference(b"1\n", b"1\r\n").unwrap();
        assert_eq!((d.line, d.column), (1, 2));
        assert!(d.describe().contains("a CR"));
        assert_eq!(first_difference(GRID, GRID), None);
        let d = first_difference(b"", b"x").unwrap();
        assert_eq!((d.line, d.column, d.expected, d.got), (1, 1, None, Some(b'x')));
    }
}
