//! The reports must keep up with the code: every fully public struct, enum and trait
//! declared under `src/` (outside `#[cfg(test)]` items) is named in the toolkit's class
//! tables (`report/toolkit.md`) and in its class diagram source `report/classes.dot`;
//! the judge's classes are named in the course report (`report/report.md`) and its
//! diagram (`report/judge.dot`), which prints with no text under 8 pt; and the built
//! `report/report.pdf` (and the rendered diagrams) are present.
//!
//! The source is read with a small lexer that blanks comments, string literals and
//! character literals (keeping line breaks), so a `pub struct` inside a doc comment or
//! a string is not taken for a declaration, and braces inside them do not upset the
//! matching used to skip `#[cfg(test)]` items.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, sorted.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The source with comments and the contents of string and character literals replaced
/// by spaces (line breaks kept, so line structure survives).
pub(crate) fn blank_literals(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (i == 0 || !is_ident(chars[i - 1]) || (chars[i - 1] == 'b' && (i < 2 || !is_ident(chars[i - 2]))))
            && matches!(next, Some('"') | Some('#'))
            && {
                let mut j = i + 1;
                while chars.get(j) == Some(&'#') {
                    j += 1;
                }
                chars.get(j) == Some(&'"')
            }
        {
            // Raw string r#"..."#: ends at a quote followed by as many hashes.
            let mut hashes = 0;
            out.push('r');
            i += 1;
            while chars.get(i) == Some(&'#') {
                hashes += 1;
                out.push(' ');
                i += 1;
            }
            out.push('"');
            i += 1;
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    out.push('"');
                    out.push_str(&" ".repeat(hashes));
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() {
                match chars[i] {
                    '\\' => {
                        out.push(' ');
                        if let Some(&e) = chars.get(i + 1) {
                            out.push(blank(e));
                        }
                        i += 2;
                    }
                    '"' => {
                        out.push('"');
                        i += 1;
                        break;
                    }
                    other => {
                        out.push(blank(other));
                        i += 1;
                    }
                }
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\'', '\u{..}'); a lifetime has no closing quote.
            out.push('\'');
            i += 1;
            if chars.get(i) == Some(&'\\') {
                out.push_str("  ");
                i += 2;
            }
            while i < chars.len() && chars[i] != '\'' {
                out.push(' ');
                i += 1;
            }
            if i < chars.len() {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The blanked source with every item that follows a `#[cfg(test)]` attribute removed
/// (up to its matching closing brace, or its `;` when it has no body).
pub(crate) fn without_test_items(code: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(ATTR) {
        out.push_str(&rest[..at]);
        let after = &rest[at + ATTR.len()..];
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        // Keep the line breaks of the removed text so line counts stay meaningful.
        out.extend(after[..end].chars().filter(|&c| c == '\n'));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Names declared `pub struct X`, `pub enum X` or `pub trait X` (also `pub unsafe
/// trait X`), but not `pub(crate)` and the like, in blanked, test-free code.
fn pub_type_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (k, _) in words.iter().enumerate().filter(|(_, w)| **w == "pub") {
            let mut j = k + 1;
            if words.get(j) == Some(&"unsafe") {
                j += 1;
            }
            if !matches!(words.get(j), Some(&"struct") | Some(&"enum") | Some(&"trait")) {
                continue;
            }
            let ident: String = words.get(j + 1).unwrap_or(&"").chars().take_while(|&c| is_ident(c)).collect();
            if !ident.is_empty() {
                names.push(ident);
            }
        }
    }
    names
}

/// Every fully public type name declared in `src/`, with the file that declares it.
fn declared_types() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut found = Vec::new();
    for path in files {
        let src = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let code = without_test_items(&blank_literals(&src));
        let shown = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        for name in pub_type_names(&code) {
            found.push((name, shown.clone()));
        }
    }
    found
}

/// True when `word` occurs in `text` with no identifier character on either side.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn the_scanner_finds_declarations_and_skips_comments_strings_and_tests() {
    let src = r####"
/// A doc line that says pub struct NotReal.
pub struct Real { a: usize }
pub(crate) struct Crate;
pub(super) enum Super { A }
const S: &str = "pub enum InString { }";
const R: &str = r#"pub trait InRaw { "# ;
const C: char = '{';
fn f<'a>(x: &'a str) -> &'a str { x }
#[derive(Debug)] pub enum Inline { A }
pub trait Shape<'a> {}
/* pub struct InBlock /* nested */ still comment */
#[cfg(test)]
mod tests {
    pub struct OnlyInTests;
    fn g() { let _ = "}"; let _ = '}'; }
}
#[cfg(test)]
use std::fmt;
pub struct After;
"####;
    let names = pub_type_names(&without_test_items(&blank_literals(src)));
    assert_eq!(names, ["Real", "Inline", "Shape", "After"]);
    assert!(has_word("a Board here", "Board"));
    assert!(!has_word("BoardError only", "Board"));
    assert!(has_word("(Scan)", "Scan"));
    assert!(!has_word("Scanner", "Scan"));
}

#[test]
fn every_pub_type_is_in_the_report_and_the_diagram() {
    let types = declared_types();
    let names: Vec<&str> = types.iter().map(|(n, _)| n.as_str()).collect();
    for core in ["Board", "ScanStrategy", "Sonar", "ScanObserver", "Scan"] {
        assert!(names.contains(&core), "the scanner did not find `{core}` in src/: found {names:?}");
    }
    let tables = read("report/toolkit.md");
    let diagram = read("report/classes.dot");
    let mut missing = Vec::new();
    for (name, file) in &types {
        if !has_word(&tables, name) {
            missing.push(format!("{name} ({file}) is not named in report/toolkit.md"));
        }
        if !has_word(&diagram, name) {
            missing.push(format!("{name} ({file}) is not named in report/classes.dot"));
        }
    }
    assert!(missing.is_empty(), "the report is behind the code:\n  {}", missing.join("\n  "));
}

/// The judge's classes: what the course report and its Figure 1 must show.
const JUDGE_CLASSES: [&str; 17] = [
    "JudgeInput",
    "InputError",
    "Board",
    "BoardError",
    "Ship",
    "Position",
    "ScanStrategy",
    "Linear",
    "Smart",
    "Probabilistic",
    "Likelihood",
    "Scan",
    "ScanError",
    "Sonar",
    "Referee",
    "ScanRecord",
    "ScanObserver",
];

#[test]
fn the_course_report_shows_the_judges_classes() {
    let types = declared_types();
    let (report, diagram) = (read("report/report.md"), read("report/judge.dot"));
    for name in JUDGE_CLASSES {
        assert!(types.iter().any(|(n, _)| n == name), "`{name}` is no longer a pub type of src/");
        assert!(has_word(&report, name), "{name} is not named in report/report.md");
        assert!(has_word(&diagram, name), "{name} is not in report/judge.dot");
    }
}

/// The printable width of the report's landscape page in points: A4's 297 mm less the
/// two 6 mm margins of `@page wide` in report.css (checked below).
const WIDE_PAGE_PT: f64 = 285.0 / 25.4 * 72.0;

/// A number attribute of an SVG tag (`width="977pt"` -> 977).
fn svg_number(text: &str, attribute: &str) -> Option<f64> {
    let at = text.find(&format!("{attribute}=\""))? + attribute.len() + 2;
    let digits: String = text[at..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    digits.parse().ok()
}

#[test]
fn the_judges_diagram_prints_with_no_text_under_8_points() {
    let css = read("report/report.css");
    assert!(
        css.contains("@page wide {\n  size: A4 landscape;\n  margin: 6mm 6mm 9mm 6mm;"),
        "report.css's wide page changed"
    );
    for (svg_file, page_pt) in [("report/judge.svg", WIDE_PAGE_PT), ("report/modules.svg", 176.0 / 25.4 * 72.0)] {
        let svg = read(svg_file);
        let width = svg_number(&svg, "width").unwrap_or_else(|| panic!("{svg_file}: no width (run report/build)"));
        let scale = (page_pt / width).min(1.0);
        let smallest = svg
            .match_indices("font-size=\"")
            .filter_map(|(k, _)| svg_number(&svg[k..], "font-size"))
            .fold(f64::INFINITY, f64::min);
        assert!(smallest.is_finite(), "{svg_file}: no text found");
        assert!(
            smallest * scale >= 8.0,
            "{svg_file}: its smallest text ({smallest} pt in a drawing {width} pt wide) prints at {:.1} pt",
            smallest * scale
        );
    }
}

#[test]
fn report_pdf_and_diagram_are_built() {
    let pdf_path = root().join("report/report.pdf");
    let pdf =
        fs::read(&pdf_path).unwrap_or_else(|e| panic!("cannot read {}: {e} (run report/build)", pdf_path.display()));
    assert!(pdf.starts_with(b"%PDF"), "report/report.pdf is not a PDF");
    for svg in ["report/classes.svg", "report/judge.svg", "report/modules.svg"] {
        assert!(read(svg).contains("<svg"), "{svg} is not an SVG (run report/build)");
    }
}
