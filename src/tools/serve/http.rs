//! HTTP/1.1, the small part a local server needs: a request reader with caps on the
//! request line, the headers and the body (and a deadline for the whole request), and a
//! response writer. No chunked bodies, no pipelining guarantees beyond order.

use crate::render::json::Object;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// The caps on one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest request line, in bytes (414 past it).
    pub line: usize,
    /// The most bytes of header lines, all together (431 past it).
    pub(crate) headers: usize,
    /// The most header lines (431 past it).
    pub header_count: usize,
    /// The longest body, in bytes (413 past it).
    pub(crate) body: usize,
    /// The longest a whole request may take to arrive once its first byte has (408).
    pub request_time: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            line: 8 * 1024,
            headers: 16 * 1024,
            header_count: 64,
            body: 1 << 20,
            request_time: Duration::from_secs(10),
        }
    }
}

/// A request as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    /// `GET`, `POST`, ...
    pub(crate) method: String,
    /// The path, before any `?`, not decoded.
    pub(crate) path: String,
    /// What follows `?` (empty when none), not decoded.
    pub(crate) query: String,
    /// Header names (lower case) and values (trimmed), in order.
    pub(crate) headers: Vec<(String, String)>,
    /// The body (`Content-Length` bytes).
    pub(crate) body: Vec<u8>,
    /// True when the client keeps the connection open after the response.
    pub(crate) keep_alive: bool,
}

/// Why no request was read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The connection ended, or stayed idle past the timeout, before a request began:
    /// close it without a word.
    Closed,
    /// A request that must be refused with this status and message (the connection is
    /// then closed).
    Refuse(u16, String),
}

impl From<io::Error> for ReadError {
    fn from(_: io::Error) -> ReadError {
        ReadError::Closed
    }
}

/// True for the errors a read timeout gives.
fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
}

/// Reads one line ending in `\n` (the `\r` before it dropped) of at most `cap` bytes.
/// `Ok(None)`: the connection ended before any byte. `Err(Refuse(status))` when longer.
fn read_line(
    input: &mut dyn BufRead,
    cap: usize,
    status: u16,
    what: &str,
    deadline: Option<Instant>,
) -> Result<Option<Vec<u8>>, ReadError> {
    let mut line = Vec::new();
    loop {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(ReadError::Refuse(408, "the request took too long to arrive".into()));
        }
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if is_timeout(&e) && !line.is_empty() => {
                return Err(ReadError::Refuse(408, "the request stopped arriving".into()))
            }
            Err(e) => return Err(e.into()),
        };
        if buf.is_empty() {
            return if line.is_empty() { Ok(None) } else { Err(ReadError::Closed) };
        }
        let (take, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (k + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(buf.get(..take).unwrap_or(&[]));
        input.consume(take);
        if line.len() > cap + 2 {
            return Err(ReadError::Refuse(status, format!("the {what} is longer than {cap} bytes")));
        }
        if end {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > cap {
                return Err(ReadError::Refuse(status, format!("the {what} is longer than {cap} bytes")));
            }
            return Ok(Some(line));
        }
    }
}

/// Reads one request.
/// Pre: `input` has a read timeout (the idle timeout). Post: `Err(Closed)` when the
/// connection ended or idled before a request; `Err(Refuse(..))` past a cap (414 request
/// line, 431 headers, 413 body), for a malformed request (400), a chunked body (501), or
/// a request that took longer than `limits.request_time` (408).
pub(crate) fn read_request(input: &mut dyn BufRead, limits: &Limits) -> Result<Request, ReadError> {
    // Blank lines before a request are allowed (RFC 9112 section 2.2).
    let mut line;
    let mut deadline = None;
    loop {
        line = match read_line(input, limits.line, 414, "request line", deadline)? {
            None => return Err(ReadError::Closed),
            Some(l) => l,
        };
        deadline.get_or_insert_with(|| Instant::now() + limits.request_time);
        if !line.is_empty() {
            break;
        }
    }
    let bad = |what: &str| ReadError::Refuse(400, what.to_string());
    let text = String::from_utf8(line).map_err(|_| bad("the request line is not text"))?;
    let mut words = text.split(' ');
    let (Some(method), Some(target), Some(version), None) = (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(bad("the request line is not `METHOD TARGET HTTP/1.1`"));
    };
    if !method.bytes().all(|b| b.is_ascii_uppercase()) || method.is_empty() {
        return Err(bad("the method is not a word in capitals"));
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(ReadError::Refuse(505, format!("`{}` is not HTTP/1.1", shown(version)))),
    };
    if !target.starts_with('/') {
        return Err(bad("the target is not a path starting with `/`"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers = Vec::new();
    let mut total = 0usize;
    loop {
        let left = limits.headers.saturating_sub(total);
        let Some(line) = read_line(input, left, 431, "header section", deadline)? else {
            return Err(ReadError::Closed);
        };
        total += line.len() + 2;
        if line.is_empty() {
            break;
        }
        if headers.len() >= limits.header_count {
            return Err(ReadError::Refuse(431, format!("more than {} header lines", limits.header_count)));
        }
        let line = String::from_utf8(line).map_err(|_| bad("a header line is not text"))?;
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line without `:`"));
        };
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(bad("a header name with spaces"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let find = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
    if find("transfer-encoding").is_some() {
        return Err(ReadError::Refuse(501, "chunked bodies are not supported: send Content-Length".into()));
    }
    let length = match find("content-length") {
        None => 0,
        Some(v) => v.parse::<u64>().map_err(|_| bad("Content-Length is not a number"))?,
    };
    if length > limits.body as u64 {
        return Err(ReadError::Refuse(413, format!("the body is longer than {} bytes", limits.body)));
    }
    let mut body = vec![0u8; length as usize];
    let mut got = 0;
    while got < body.len() {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Err(ReadError::Refuse(408, "the request took too long to arrive".into()));
        }
        match input.read(body.get_mut(got..).unwrap_or(&mut [])) {
            Ok(0) => return Err(ReadError::Closed),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Err(ReadError::Refuse(408, "the body stopped arriving".into())),
            Err(_) => return Err(ReadError::Closed),
        }
    }
    let connection = find("connection").map(str::to_ascii_lowercase);
    let keep_alive = match connection.as_deref() {
        Some(c) if c.contains("close") => false,
        Some(c) if c.contains("keep-alive") => true,
        _ => !http10,
    };
    Ok(Request { method: method.into(), path: path.into(), query: query.into(), headers, body, keep_alive })
}

/// At most 40 characters of `text`, control characters escaped (for messages).
pub(crate) fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(40).flat_map(char::escape_default).collect();
    if text.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// A response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Response {
    /// The status code.
    pub(crate) status: u16,
    /// The media type of the body.
    pub(crate) content_type: &'static str,
    /// The body.
    pub(crate) body: Vec<u8>,
    /// Extra headers (name, value).
    pub(crate) extra: Vec<(&'static str, String)>,
}

impl Response {
    /// A JSON response.
    pub(crate) fn json(status: u16, body: String) -> Response {
        Response { status, content_type: "application/json", body: body.into_bytes(), extra: Vec::new() }
    }

    /// A JSON error: `{"error": {"status": N, "message": "..."}}`.
    pub(crate) fn error(status: u16, message: &str) -> Response {
        Response::json(
            status,
            Object::new().field("error", Object::new().field("status", status).field("message", message)).line(),
        )
    }

    /// A plain text response.
    pub(crate) fn text(status: u16, body: String) -> Response {
        Response { status, content_type: "text/plain; charset=utf-8", body: body.into_bytes(), extra: Vec::new() }
    }
}

/// The reason phrase of `status`.
pub(crate) fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Writes `response`; `keep_alive` false adds `Connection: close`. `head` writes the
/// headers only.
/// Pre: none. Post: the whole response written and flushed, or the error.
pub(crate) fn write_response(out: &mut dyn Write, response: &Response, keep_alive: bool, head: bool) -> io::Result<()> {
    let mut text = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: {}\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    );
    for (name, value) in &response.extra {
        text.push_str(name);
        text.push_str(": ");
        text.push_str(value);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    let mut bytes = text.into_bytes();
    if !head {
        bytes.extend_from_slice(&response.body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

/// Decodes `%XX` and `+` in a query part.
/// Pre: none. Post: `None` for a bad escape or text that is not UTF-8.
pub(crate) fn decode(part: &str) -> Option<String> {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = part.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// The query's `name=value` pairs, decoded.
/// Pre: none. Post: `Err` naming the first pair that does not decode.
pub(crate) fn query_pairs(query: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match (decode(k), decode(v)) {
            (Some(k), Some(v)) => out.push((k, v)),
            _ => return Err(format!("the query part `{}` has a bad %-escape", shown(pair))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Request, ReadError> {
        read_request(&mut io::BufReader::new(text.as_bytes()), &Limits::default())
    }

    fn refused(text: &str) -> u16 {
        match read(text) {
            Err(ReadError::Refuse(s, _)) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_a_request_with_a_body() {
        let r = read("POST /api/advise?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET").unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str(), r.query.as_str()), ("POST", "/api/advise", "x=1"));
        assert_eq!(r.body, b"abc");
        assert_eq!(r.headers[0], ("host".to_string(), "a".to_string()));
        assert!(r.keep_alive);
        assert!(!read("GET / HTTP/1.0\r\n\r\n").unwrap().keep_alive);
        assert!(!read("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").unwrap().keep_alive);
    }

    #[test]
    fn caps_and_bad_requests_are_refused() {
        assert_eq!(refused(&format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(9000))), 414);
        assert_eq!(refused(&format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(17000))), 431);
        let many: String = (0..65).map(|i| format!("X{i}: 1\r\n")).collect();
        assert_eq!(refused(&format!("GET / HTTP/1.1\r\n{many}\r\n")), 431);
        assert_eq!(refused("POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n"), 413);
        assert_eq!(refused("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), 501);
        assert_eq!(refused("GET / HTTP/2\r\n\r\n"), 505);
        assert_eq!(refused("GET /\r\n\r\n"), 400);
        assert_eq!(refused("get / HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(refused("GET / HTTP/1.1\r\nbad\r\n\r\n"), 400);
        assert!(matches!(read(""), Err(ReadError::Closed)));
    }

    #[test]
    fn queries_decode() {
        assert_eq!(decode("a%20b+c").as_deref(), Some("a b c"));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%4"), None);
        let pairs = query_pairs("method=GetCellAt&row=1&col=2&flag").unwrap();
        assert_eq!(pairs.len(), 4);
        assert_eq!(pairs[3], ("flag".to_string(), String::new()));
    }
}
