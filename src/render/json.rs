//! The little JSON this program writes (strings escaped as JSON requires), and a strict
//! reader for what `simulate merge` reads back ([`parse`]): RFC 8259 values, bounded in
//! size and depth, each value keeping where its text lies so that parts of a document
//! can be copied byte for byte.
use crate::limits::{JSON_BYTES, JSON_DEPTH};

/// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped.
/// Pre: none. Post: a valid JSON string literal denoting `text`.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A finite number with 4 decimals, or `null`.
/// Pre: none. Post: valid JSON.
pub fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.4}")
    } else {
        "null".into()
    }
}

/// The rules as a JSON object: `{"preset", "touch", "sunk", "rotate", "ships": [{"name",
/// "size"}, ...]}` (ships in placement order).
/// Pre: none. Post: valid JSON.
pub fn rules(rules: &crate::game::rules::Rules) -> String {
    let fleet = rules.fleet();
    let ships: Vec<String> = fleet
        .ship_kinds()
        .filter_map(|k| fleet.kinds().get(k))
        .map(|k| format!("{{\"name\": {}, \"size\": {}}}", string(&k.name), k.shape.size()))
        .collect();
    format!(
        "{{\"preset\": {}, \"touch\": {}, \"sunk\": {}, \"rotate\": {}, \"ships\": [{}]}}",
        string(rules.preset_name()),
        rules.touch(),
        string(rules.sunk().word()),
        rules.rotate(),
        ships.join(", ")
    )
}

/// A JSON value as read by [`parse`].
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as written (valid JSON number syntax).
    Number(String),
    /// A string, its escapes decoded.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object: its members in the order written (keys are unique).
    Object(Vec<Member>),
}

/// A member of an object: its key, its value, and where the value's text lies.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key.
    pub key: String,
    /// The value.
    pub value: Value,
    /// Byte range of the value's text in the parsed document.
    pub span: std::ops::Range<usize>,
}

impl Value {
    /// The number as a whole number, when it is one that fits a `u64` (written without
    /// fraction or exponent).
    /// Pre: none. Post: `None` for any other value.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
            _ => None,
        }
    }

    /// The string's text.
    /// Pre: none. Post: `None` for any other value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array's items.
    /// Pre: none. Post: `None` for any other value.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The object's members.
    /// Pre: none. Post: `None` for any other value.
    pub fn as_object(&self) -> Option<&[Member]> {
        match self {
            Value::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The value of the object's member `key`.
    /// Pre: none. Post: `None` when this is not an object or has no such member.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.iter().find(|m| m.key == key).map(|m| &m.value)
    }
}

/// Why a text is not the JSON [`parse`] accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    /// Line of the problem, from 1.
    pub line: usize,
    /// Column of the problem (in characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.what)
    }
}

impl std::error::Error for JsonError {}

/// Reads `text` as one JSON value (surrounding white space allowed).
/// Pre: none. Post: `Err` at the first byte that breaks RFC 8259, for a text longer than
/// [`JSON_BYTES`], nesting deeper than [`JSON_DEPTH`], or an object with a repeated key.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader { text, at: 0, depth: 0 };
    if text.len() > JSON_BYTES {
        return Err(reader.error(format!("the text is longer than {JSON_BYTES} bytes")));
    }
    reader.space();
    let value = reader.value()?;
    reader.space();
    if reader.at < text.len() {
        return Err(reader.error("more text after the value".into()));
    }
    Ok(value)
}

/// The state of [`parse`]: the text and the position in it.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
}

impl Reader<'_> {
    /// The error `what` at the current position.
    fn error(&self, what: String) -> JsonError {
        let before = self.text.get(..self.at).unwrap_or(self.text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        JsonError { line, column, what }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips white space.
    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `byte` or fails saying `expected`.
    fn expect(&mut self, byte: u8, expected: &str) -> Result<(), JsonError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    /// "expected X, found Y" at the current position.
    fn unexpected(&self, expected: &str) -> JsonError {
        let found = match self.text.get(self.at..).and_then(|rest| rest.chars().next()) {
            None => "the end of the text".to_string(),
            Some(c) => format!("`{}`", c.escape_default()),
        };
        self.error(format!("expected {expected}, found {found}"))
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        match self.peek() {
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            _ => Err(self.unexpected("a value")),
        }
    }

    /// Reads an array or object one level deeper.
    fn nested(&mut self, read: fn(&mut Self) -> Result<Value, JsonError>) -> Result<Value, JsonError> {
        if self.depth >= JSON_DEPTH {
            return Err(self.error(format!("nested deeper than {JSON_DEPTH} levels")));
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value, JsonError> {
        if self.text.get(self.at..).is_some_and(|rest| rest.starts_with(word)) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.unexpected("a value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.unexpected("a digit")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.unexpected("a digit after `.`"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.unexpected("a digit in the exponent"));
            }
        }
        Ok(Value::Number(self.text.get(start..self.at).unwrap_or("").to_string()))
    }

    /// Four hexadecimal digits after `\u`.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.text.get(self.at..self.at + 4).filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(code) = digits.and_then(|d| u32::from_str_radix(d, 16).ok()) else {
            return Err(self.unexpected("four hexadecimal digits after `\\u`"));
        };
        self.at += 4;
        Ok(code)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.expect(b'"', "`\"`")?;
        let mut out = String::new();
        loop {
            let start = self.at;
            while self.peek().is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.at += 1;
            }
            out.push_str(self.text.get(start..self.at).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.at += 1;
                            let c = self.unicode_escape()?;
                            out.push(c);
                            continue;
                        }
                        _ => return Err(self.unexpected("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                None => return Err(self.error("the text ends inside a string".into())),
                Some(_) => return Err(self.error("a control character inside a string (escape it)".into())),
            }
        }
    }

    /// The character of a `\uXXXX` escape (its `\u` read), with the second half of a
    /// surrogate pair.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&first) {
            if self.text.get(self.at..).is_some_and(|rest| rest.starts_with("\\u")) {
                self.at += 2;
            } else {
                return Err(self.error("a lone surrogate in a \\u escape".into()));
            }
            let second = self.hex4()?;
            if !(0xdc00..0xe000).contains(&second) {
                return Err(self.error("a lone surrogate in a \\u escape".into()));
            }
            0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("a lone surrogate in a \\u escape".into()))
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        self.expect(b'[', "`[`")?;
        let mut items = Vec::new();
        self.space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.space();
            items.push(self.value()?);
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.unexpected("`,` or `]`")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        self.expect(b'{', "`{`")?;
        let mut members: Vec<Member> = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.space();
            if self.peek() != Some(b'"') {
                return Err(self.unexpected("a key in quotes"));
            }
            let key_at = self.at;
            let key = self.string()?;
            if members.iter().any(|m| m.key == key) {
                self.at = key_at;
                return Err(self.error(format!("the key `{key}` appears twice in one object")));
            }
            self.space();
            self.expect(b':', "`:`")?;
            self.space();
            let start = self.at;
            let value = self.value()?;
            members.push(Member { key, value, span: start..self.at });
            self.space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => return Err(self.unexpected("`,` or `}`")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_needs() {
        assert_eq!(string("Y wing"), "\"Y wing\"");
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(number(1.0 / 3.0), "0.3333");
        assert_eq!(number(f64::NAN), "null");
        let r = rules(&crate::game::rules::Rules::preset("classic").unwrap());
        assert!(r.starts_with("{\"preset\": \"classic\", \"touch\": true, \"sunk\": \"named\""), "{r}");
        assert!(r.contains("{\"name\": \"carrier\", \"size\": 5}"), "{r}");
    }

    #[test]
    fn reads_every_kind_of_value() {
        let v = parse(" {\"a\": [1, -2.5e3, 0, true, false, null], \"b\": {\"c\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}, \"\": []}\n").unwrap();
        let a = v.get("a").unwrap().as_array().unwrap();
        assert_eq!(a[0].as_u64(), Some(1));
        assert_eq!(a[1], Value::Number("-2.5e3".into()));
        assert_eq!(a[1].as_u64(), None);
        assert_eq!(&a[3..], &[Value::Bool(true), Value::Bool(false), Value::Null]);
        assert_eq!(v.get("b").unwrap().get("c").unwrap().as_str(), Some("x\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1f600}"));
        assert_eq!(v.get("").unwrap().as_array(), Some(&[][..]));
        assert_eq!(v.get("zz"), None);
        assert_eq!(parse("18446744073709551615").unwrap().as_u64(), Some(u64::MAX));
        assert_eq!(parse("18446744073709551616").unwrap().as_u64(), None);
    }

    #[test]
    fn members_know_where_their_text_is() {
        let text = "{\"fleet\": [5,4, 3], \"rules\" :{\"x\": 1} }";
        let v = parse(text).unwrap();
        let spans: Vec<&str> = v.as_object().unwrap().iter().map(|m| &text[m.span.clone()]).collect();
        assert_eq!(spans, ["[5,4, 3]", "{\"x\": 1}"]);
    }

    #[test]
    fn what_we_write_reads_back() {
        let rules = rules(&crate::game::rules::Rules::preset("starwars").unwrap());
        let v = parse(&rules).unwrap();
        assert_eq!(v.get("preset").unwrap().as_str(), Some("starwars"));
        let text = "a\"b\\c\nd\u{1}\u{7f}é";
        assert_eq!(parse(&string(text)).unwrap().as_str(), Some(text));
    }

    #[test]
    fn refuses_what_rfc_8259_refuses() {
        for (bad, part) in [
            ("", "expected a value, found the end"),
            ("[1,]", "expected a value"),
            ("[1 2]", "expected `,` or `]`"),
            ("{\"a\" 1}", "expected `:`"),
            ("{a: 1}", "a key in quotes"),
            ("{\"a\": 1,}", "a key in quotes"),
            ("{\"a\": 1, \"a\": 2}", "appears twice"),
            ("01", "more text after the value"),
            ("1.", "a digit after `.`"),
            ("1e", "a digit in the exponent"),
            ("-", "expected a digit"),
            ("+1", "expected a value"),
            ("\"abc", "ends inside a string"),
            ("\"a\u{1}\"", "control character"),
            ("\"\\x\"", "an escape"),
            ("\"\\u12\"", "four hexadecimal digits"),
            ("\"\\ud800\"", "lone surrogate"),
            ("\"\\ud800\\u0041\"", "lone surrogate"),
            ("\"\\udc00\"", "lone surrogate"),
            ("tru", "expected a value"),
            ("NaN", "expected a value"),
            ("[1] [2]", "more text"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.to_string().contains(part), "{bad:?}: {e}");
        }
        let e = parse("[\n  1,\n  x]").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3), "{e}");
    }

    #[test]
    fn depth_and_size_are_bounded() {
        let deep = format!("{}{}", "[".repeat(JSON_DEPTH), "]".repeat(JSON_DEPTH));
        assert!(parse(&deep).is_ok());
        let deeper = format!("{}{}", "[".repeat(JSON_DEPTH + 1), "]".repeat(JSON_DEPTH + 1));
        assert!(parse(&deeper).unwrap_err().what.contains("nested deeper"));
        // A hostile depth fails early, without exhausting the stack.
        assert!(parse(&"[".repeat(1_000_000)).is_err());
        let big = " ".repeat(JSON_BYTES + 1);
        assert!(parse(&big).unwrap_err().what.contains("longer than"));
    }
}
