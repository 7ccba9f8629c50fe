//! The one home of JSON in this program: the writer every command's JSON goes through
//! ([`Object`], [`Array`], [`ToJson`], [`LineStrings`]: members separated by `, `, keys from
//! values by `: `, on one line), and a strict reader for what `simulate merge` and
//! `serve` read ([`parse`]): RFC 8259 values, bounded in size and depth, each value
//! keeping where its text lies so that parts of a document can be copied byte for byte.
use crate::limits::{JSON_BYTES, JSON_DEPTH};
use std::io::{self, Write};

/// A value that can be written as JSON.
pub trait ToJson {
    /// Appends the value's JSON text to `out`.
    /// Pre: none. Post: `out` grew by one valid JSON value.
    fn write_json(&self, out: &mut String);

    /// The value's JSON text.
    /// Pre: none. Post: one valid JSON value.
    fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }
}

impl ToJson for str {
    fn write_json(&self, out: &mut String) {
        push_string(out, self);
    }
}

impl ToJson for String {
    fn write_json(&self, out: &mut String) {
        push_string(out, self);
    }
}

impl ToJson for std::borrow::Cow<'_, str> {
    fn write_json(&self, out: &mut String) {
        push_string(out, self);
    }
}

impl ToJson for bool {
    fn write_json(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
}

/// Whole numbers, written in decimal.
macro_rules! whole_numbers {
    ($($t:ty),*) => {$(
        impl ToJson for $t {
            fn write_json(&self, out: &mut String) {
                use std::fmt::Write as _;
                let _ = write!(out, "{self}"); // a String takes every write
            }
        }
    )*};
}
whole_numbers!(u8, u16, u32, u64, usize, i32, i64);

/// A finite number with 4 decimals, or `null` (as [`number`]).
impl ToJson for f64 {
    fn write_json(&self, out: &mut String) {
        out.push_str(&number(*self));
    }
}

/// `null` for `None`.
impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut String) {
        match self {
            Some(v) => v.write_json(out),
            None => out.push_str("null"),
        }
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, out: &mut String) {
        (**self).write_json(out);
    }
}

/// An array of the items.
impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut String) {
        Array::of(self).write_json(out);
    }
}

/// An array of the items.
impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut String) {
        self.as_slice().write_json(out);
    }
}

/// A pair as an array of two: `[a, b]` (a cell `[r, c]`, a histogram's `[scans, games]`).
impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn write_json(&self, out: &mut String) {
        Array::new().item(&self.0).item(&self.1).write_json(out);
    }
}

/// JSON text written before, copied as it is.
/// Pre (of its use): the text is one valid JSON value.
#[derive(Debug, Clone, Copy)]
pub struct Raw<'a>(pub &'a str);

impl ToJson for Raw<'_> {
    fn write_json(&self, out: &mut String) {
        out.push_str(self.0);
    }
}

/// A JSON object being written: `{"key": value, ...}`, members in the order given.
#[derive(Debug, Clone)]
pub struct Object {
    /// The text so far, from `{` to the last member (no closing brace).
    text: String,
    /// No member yet.
    empty: bool,
}

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

impl Object {
    /// An object with no member yet.
    /// Pre: none. Post: [`Object::finish`] would give `{}`.
    pub fn new() -> Object {
        Object { text: String::from("{"), empty: true }
    }

    /// The object with the member `key: value` added last.
    /// Pre: `key` is not already a member. Post: the member follows the earlier ones.
    pub fn field(mut self, key: &str, value: impl ToJson) -> Object {
        self.open_member(key);
        value.write_json(&mut self.text);
        self
    }

    /// Writes `, "key": ` (or `"key": ` for the first member).
    fn open_member(&mut self, key: &str) {
        if !self.empty {
            self.text.push_str(", ");
        }
        self.empty = false;
        push_string(&mut self.text, key);
        self.text.push_str(": ");
    }

    /// The object's text.
    /// Pre: none. Post: one valid JSON object.
    pub fn finish(self) -> String {
        let mut text = self.text;
        text.push('}');
        text
    }

    /// The object's text and a line end: one line of JSON Lines.
    /// Pre: none. Post: one valid JSON object, then `\n`.
    pub fn line(self) -> String {
        let mut text = self.finish();
        text.push('\n');
        text
    }

    /// The object's text up to the value of a last member `key`, for a value written
    /// afterwards, piece by piece (a grid a row at a time: see [`LineStrings`]); the object is
    /// then closed with [`Object::CLOSE`].
    /// Pre: `key` is not already a member. Post: `{..., "key": ` (no value).
    pub fn open_last(mut self, key: &str) -> String {
        self.open_member(key);
        self.text
    }

    /// What closes an object opened with [`Object::open_last`] once its last value is
    /// written.
    pub const CLOSE: &'static str = "}";

    /// An object written before (`text`, one line of JSON Lines without its line end),
    /// reopened to add members after its own.
    /// Pre: none. Post: `None` when `text` does not start with `{` and end with `}`;
    /// otherwise the object, its members as written (not checked).
    pub fn reopen(text: &str) -> Option<Object> {
        let inner = text.strip_prefix('{')?.strip_suffix('}')?;
        let empty = inner.trim().is_empty();
        Some(Object { text: if empty { String::from("{") } else { format!("{{{inner}") }, empty })
    }
}

impl ToJson for Object {
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.text);
        out.push('}');
    }
}

/// A JSON array being written: `[value, ...]`.
#[derive(Debug, Clone)]
pub struct Array {
    /// The text so far, from `[` to the last item (no closing bracket).
    text: String,
    /// No item yet.
    empty: bool,
    /// Between items: `, `, or `,\n` for [`Array::one_per_line`].
    separator: &'static str,
}

impl Default for Array {
    fn default() -> Self {
        Array::new()
    }
}

impl Array {
    /// An array with no item yet.
    /// Pre: none. Post: [`Array::finish`] would give `[]`.
    pub fn new() -> Array {
        Array { text: String::from("["), empty: true, separator: ", " }
    }

    /// An array with no item yet whose items will be separated by `,\n` (serve's
    /// trace: one step a line).
    /// Pre: none. Post: as [`Array::new`], but for the separator.
    pub fn one_per_line() -> Array {
        Array { separator: ",\n", ..Array::new() }
    }

    /// An array of `items`, in order.
    /// Pre: none. Post: one item per item.
    pub fn of<T: ToJson>(items: impl IntoIterator<Item = T>) -> Array {
        items.into_iter().fold(Array::new(), Array::item)
    }

    /// The array with `value` added last.
    /// Pre: none. Post: the item follows the earlier ones.
    pub fn item(mut self, value: impl ToJson) -> Array {
        if !self.empty {
            self.text.push_str(self.separator);
        }
        self.empty = false;
        value.write_json(&mut self.text);
        self
    }

    /// The array's text.
    /// Pre: none. Post: one valid JSON array.
    pub fn finish(self) -> String {
        let mut text = self.text;
        text.push(']');
        text
    }
}

impl ToJson for Array {
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.text);
        out.push(']');
    }
}

/// A writer that turns the lines written to it into a JSON array of strings, written to
/// `out` as they come (a grid of any size a row at a time): `["line", "line", ...]`.
/// Each line is escaped as [`string`] does; a last line without `\n` is closed by
/// [`LineStrings::finish`].
pub struct LineStrings<'a> {
    out: &'a mut dyn Write,
    /// `[` is written.
    started: bool,
    /// A string is open (its line not yet ended).
    open: bool,
    /// What is not yet written to `out`: written a line at a time (or when it reaches
    /// [`LineStrings::BUFFER`] bytes), as few writes as before the writer existed.
    pending: Vec<u8>,
}

impl<'a> LineStrings<'a> {
    /// Bytes kept at most before they are written to `out`.
    const BUFFER: usize = 1 << 16;

    /// An array of lines to be written to `out`.
    /// Pre: none. Post: nothing written yet.
    pub fn new(out: &'a mut dyn Write) -> LineStrings<'a> {
        LineStrings { out, started: false, open: false, pending: Vec::new() }
    }

    /// Closes the array (and a last line without a line end).
    /// Pre: none. Post: `Err` is the first failed write; on `Ok` the array is complete.
    pub fn finish(mut self) -> io::Result<()> {
        if !self.started {
            self.started = true;
            self.pending.push(b'[');
        }
        if self.open {
            self.pending.push(b'"');
        }
        self.pending.push(b']');
        self.out.write_all(&self.pending)
    }

    /// Writes `line` (no line end in it) as the array's next string: as writing `line`
    /// and `\n`, without looking for line ends.
    /// Pre: the last line written ended (no string is open). Post: `Err` is the first
    /// failed write.
    pub fn line(&mut self, line: &[u8]) -> io::Result<()> {
        self.pending.extend_from_slice(if self.started { b", \"" } else { b"[\"" });
        self.started = true;
        self.escaped(line);
        self.pending.push(b'"');
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        Ok(())
    }

    /// Adds `part` of a line, escaped, to what is pending.
    fn escaped(&mut self, part: &[u8]) {
        let plain = |b: &u8| *b >= 0x20 && *b != b'"' && *b != b'\\';
        // Without a short cut, so that the compiler checks many bytes at once.
        let any_escape = part.iter().fold(false, |seen, b| seen | !plain(b));
        if !any_escape {
            self.pending.extend_from_slice(part);
            return;
        }
        for b in part {
            if plain(b) {
                self.pending.push(*b);
            } else {
                let quoted = string(&char::from(*b).to_string());
                self.pending.extend_from_slice(quoted.get(1..quoted.len() - 1).unwrap_or("").as_bytes());
            }
        }
    }
}

impl Write for LineStrings<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for part in buf.split_inclusive(|&b| b == b'\n') {
            if !self.open {
                let start: &[u8] = if self.started { b", \"" } else { b"[\"" };
                self.pending.extend_from_slice(start);
                self.started = true;
                self.open = true;
            }
            match part.strip_suffix(b"\n") {
                Some(line) => {
                    self.escaped(line);
                    self.pending.push(b'"');
                    self.open = false;
                    self.out.write_all(&self.pending)?;
                    self.pending.clear();
                }
                None => self.escaped(part),
            }
            if self.pending.len() >= Self::BUFFER {
                self.out.write_all(&self.pending)?;
                self.pending.clear();
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        self.out.flush()
    }
}

/// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped.
/// Pre: none. Post: a valid JSON string literal denoting `text`.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_string(&mut out, text);
    out
}

/// Appends [`string`]`(text)` to `out`.
fn push_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{:04x}", c as u32); // a String takes every write
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A finite number with 4 decimals, or `null`.
/// Pre: none. Post: valid JSON.
pub fn number(v: f64) -> String {
    fixed(v, 4)
}

/// A finite number with `decimals` decimals, or `null` for infinities and NaN (JSON has
/// no way to write them: `inf` or `NaN` would make the whole document unreadable).
/// Pre: none. Post: valid JSON.
pub fn fixed(v: f64, decimals: usize) -> String {
    if v.is_finite() {
        format!("{v:.decimals$}")
    } else {
        "null".into()
    }
}

/// A count held as a float (the number of layouts of a fleet), written as Rust prints
/// it (all its digits, no exponent) when finite, and `null` when it overflowed (over
/// about 1.8e308): JSON has no infinity. Writers that can overflow say so in a field of
/// their own.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Count(pub f64);

impl ToJson for Count {
    fn write_json(&self, out: &mut String) {
        use std::fmt::Write as _;
        if self.0.is_finite() {
            let _ = write!(out, "{}", self.0); // a String takes every write
        } else {
            out.push_str("null");
        }
    }
}

/// The rules as a JSON object: `{"preset", "touch", "sunk", "rotate", "ships": [{"name",
/// "size"}, ...]}` (ships in placement order).
/// Pre: none. Post: valid JSON.
pub fn rules(rules: &crate::game::rules::Rules) -> String {
    let fleet = rules.fleet();
    let ships = Array::of(
        fleet
            .ship_kinds()
            .filter_map(|k| fleet.kinds().get(k))
            .map(|k| Object::new().field("name", &k.name).field("size", k.shape.size())),
    );
    Object::new()
        .field("preset", rules.preset_name())
        .field("touch", rules.touch())
        .field("sunk", rules.sunk().word())
        .field("rotate", rules.rotate())
        .field("ships", ships)
        .finish()
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
        assert_eq!(fixed(f64::INFINITY, 6), "null");
        assert_eq!(fixed(0.5, 6), "0.500000");
        assert_eq!(Count(f64::INFINITY).to_json(), "null");
        assert_eq!(Count(f64::NAN).to_json(), "null");
        assert_eq!(Count(1e20).to_json(), "100000000000000000000");
        assert_eq!(Count(12.0).to_json(), "12");
        for v in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            let text = Object::new().field("n", Count(v)).field("x", v).finish();
            assert!(parse(&text).is_ok(), "{text}");
        }
        let r = rules(&crate::game::rules::Rules::preset("classic").unwrap());
        assert!(r.starts_with("{\"preset\": \"classic\", \"touch\": true, \"sunk\": \"named\""), "{r}");
        assert!(r.contains("{\"name\": \"carrier\", \"size\": 5}"), "{r}");
    }

    #[test]
    fn writes_objects_and_arrays_as_before() {
        assert_eq!(Object::new().finish(), "{}");
        assert_eq!(Array::new().finish(), "[]");
        assert_eq!(Array::of(Vec::<u64>::new()).finish(), "[]");
        let o = Object::new()
            .field("scans", 3u64)
            .field("name", "a\"b")
            .field("done", false)
            .field("ship", None::<&str>)
            .field("mean", 2.0 / 3.0)
            .field("cell", (1usize, 2usize))
            .field("empty", Object::new())
            .field("list", vec![Array::new().item(1u64), Array::new()])
            .field("rules", Raw("{\"x\": 1}"));
        assert_eq!(
            o.clone().finish(),
            "{\"scans\": 3, \"name\": \"a\\\"b\", \"done\": false, \"ship\": null, \"mean\": 0.6667, \
             \"cell\": [1, 2], \"empty\": {}, \"list\": [[1], []], \"rules\": {\"x\": 1}}"
        );
        assert_eq!(o.clone().line(), format!("{}\n", o.clone().finish()));
        assert_eq!(o.to_json(), o.clone().finish());
        assert_eq!(Object::new().field("a", 1u8).open_last("grid"), "{\"a\": 1, \"grid\": ");
        assert_eq!(Object::new().open_last("grid") + "[]" + Object::CLOSE, "{\"grid\": []}");
        assert_eq!(Object::reopen("{\"a\": 1}").unwrap().field("b", 2u8).finish(), "{\"a\": 1, \"b\": 2}");
        assert_eq!(Object::reopen("{ }").unwrap().field("b", 2u8).finish(), "{\"b\": 2}");
        assert!(Object::reopen("[1]").is_none());
        assert_eq!(Array::one_per_line().item(1u8).item(2u8).finish(), "[1,\n2]");
        assert_eq!(f64::INFINITY.to_json(), "null");
        assert_eq!((-7i64).to_json(), "-7");
    }

    #[test]
    fn lines_become_an_array_of_strings() {
        let lines = |text: &[&[u8]]| {
            let mut out = Vec::new();
            let mut w = LineStrings::new(&mut out);
            for part in text {
                w.write_all(part).unwrap();
            }
            w.finish().unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(lines(&[]), "[]");
        assert_eq!(lines(&[b"++.\nX", b"X.\n"]), "[\"++.\", \"XX.\"]");
        let mut out = Vec::new();
        let mut w = LineStrings::new(&mut out);
        w.line(b"++.").unwrap();
        w.write_all(b"a\"\n").unwrap();
        w.line(b"").unwrap();
        w.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "[\"++.\", \"a\\\"\", \"\"]");
        assert_eq!(lines(&[b"a\"\\\tb\n", b"no end"]), "[\"a\\\"\\\\\\tb\", \"no end\"]");
        let text = lines(&[b"\x01\xc3\xa9\n\n"]);
        let v = parse(&text).unwrap();
        assert_eq!(v, Value::Array(vec![Value::String("\u{1}é".into()), Value::String(String::new())]));
    }

    #[test]
    fn what_the_writer_writes_the_reader_reads() {
        let text = Object::new()
            .field("k\n", Array::of(["x", "\u{1}\"\\"]))
            .field("n", Array::new().item(Object::new().field("deep", Array::new().item(Array::new()))))
            .field("u", u64::MAX)
            .finish();
        let v = parse(&text).unwrap();
        let k = v.get("k\n").unwrap().as_array().unwrap();
        assert_eq!(k[1].as_str(), Some("\u{1}\"\\"));
        assert_eq!(v.get("u").unwrap().as_u64(), Some(u64::MAX));
        let deep = v.get("n").unwrap().as_array().unwrap()[0].get("deep").unwrap();
        assert_eq!(deep, &Value::Array(vec![Value::Array(vec![])]));
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
