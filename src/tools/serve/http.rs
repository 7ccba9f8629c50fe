//! HTTP/1.1, the small part a local server needs: a request reader with caps on the
//! request line, the headers and the body (and a deadline for the whole request), and a
//! response writer. No chunked bodies, no pipelining guarantees beyond order.

use crate::render::json::Object;
use std::time::Duration;

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

/// What [`RequestReader::next`] made of the bytes so far.
#[derive(Debug)]
pub(crate) enum Parse {
    /// Not a whole request yet (and no cap passed): wait for more bytes.
    Partial,
    /// A whole request, which took this many bytes from the front of the buffer.
    Done(Request, usize),
    /// A request that must be refused with this status and message (the connection is
    /// then closed).
    Refuse(u16, String),
}

/// The most blank lines' bytes before a request line (RFC 9112 section 2.2 allows a
/// few; an endless stream of them is refused with 400).
const BLANK_BYTES: usize = 1024;

/// Reads requests out of a connection's buffer as its bytes arrive, a piece at a time:
/// the bytes already searched for the end of the head are not searched again, and a
/// head is parsed once, however slowly its body arrives.
#[derive(Debug, Default)]
pub(crate) struct RequestReader {
    /// Bytes of the buffer searched for the head's end, without finding it.
    scanned: usize,
    /// The head, once whole: the request without its body, where the body starts, and
    /// its length.
    head: Option<(Request, usize, usize)>,
}

impl RequestReader {
    /// Looks at `buf` (a connection's bytes not yet taken, the front first) for a whole
    /// request.
    /// Pre: `buf` only grew at its end since the last call, unless the last call said
    /// `Done` (then the caller removed that many bytes from the front, and the reader
    /// starts afresh). Post: `Partial` while no cap is passed (memory stays under
    /// `limits.line + limits.headers + limits.body` plus what was read past a request);
    /// `Refuse` past a cap (414 request line, 431 headers, 413 body, refused from
    /// `Content-Length` before the body arrives), for a malformed request (400), a
    /// transfer coding (501) or another version than HTTP/1.x (505).
    pub(crate) fn next(&mut self, buf: &[u8], limits: &Limits) -> Parse {
        if self.head.is_none() {
            match find_head(buf, limits, &mut self.scanned) {
                Err((status, message)) => return Parse::Refuse(status, message),
                Ok(None) => return Parse::Partial,
                Ok(Some((from, to))) => match parse_head(buf.get(from..to).unwrap_or(&[]), limits) {
                    Err((status, message)) => return Parse::Refuse(status, message),
                    Ok((request, length)) => self.head = Some((request, to, length)),
                },
            }
        }
        let Some((request, body_at, length)) = self.head.as_ref() else { return Parse::Partial };
        let end = body_at.saturating_add(*length);
        let Some(body) = buf.get(*body_at..end) else { return Parse::Partial };
        let mut request = request.clone();
        request.body = body.to_vec();
        *self = RequestReader::default();
        Parse::Done(request, end)
    }
}

/// Where the head (request line and headers) of the request at the front of `buf`
/// lies, blank lines before it skipped: `Ok(None)` while it has not ended.
fn find_head(buf: &[u8], limits: &Limits, scanned: &mut usize) -> Result<Option<(usize, usize)>, (u16, String)> {
    let from = buf.iter().position(|&b| b != b'\r' && b != b'\n').unwrap_or(buf.len());
    if from > BLANK_BYTES {
        return Err((400, format!("more than {BLANK_BYTES} bytes of blank lines before the request")));
    }
    if from == buf.len() {
        return Ok(None);
    }
    let rest = buf.get(from..).unwrap_or(&[]);
    // The request line: its end must come within the cap.
    let window = rest.get(..rest.len().min(limits.line + 2)).unwrap_or(rest);
    let Some(line_end) = window.iter().position(|&b| b == b'\n') else {
        return if rest.len() > limits.line + 1 {
            Err((414, format!("the request line is longer than {} bytes", limits.line)))
        } else {
            Ok(None)
        };
    };
    // The end of the head: an empty line (CRLF or LF) after the request line.
    let headers_from = from + line_end + 1;
    let too_long = |end: usize| {
        if end.saturating_sub(headers_from) > limits.headers + 2 {
            Err((431, format!("the header section is longer than {} bytes", limits.headers)))
        } else {
            Ok(())
        }
    };
    let mut k = (*scanned).max(from + line_end);
    while let Some(&b) = buf.get(k) {
        if b == b'\n' {
            let end = match (buf.get(k + 1), buf.get(k + 2)) {
                (Some(b'\n'), _) => Some(k + 2),
                (Some(b'\r'), Some(b'\n')) => Some(k + 3),
                (Some(b'\r'), None) | (None, _) => break,
                _ => None,
            };
            if let Some(end) = end {
                // The same cap whether the end came or not (so a head read in pieces
                // is refused as it is read whole).
                too_long(end)?;
                return Ok(Some((from, end)));
            }
        }
        k += 1;
    }
    *scanned = k;
    too_long(buf.len())?;
    Ok(None)
}

/// True for the characters of a token (RFC 9110 section 5.6.2): header names.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Parses a whole head: the request line and the headers, up to and with the empty
/// line: the request (its body empty) and the body's length (`Content-Length`).
fn parse_head(head: &[u8], limits: &Limits) -> Result<(Request, usize), (u16, String)> {
    let bad = |what: &str| (400, what.to_string());
    let text = std::str::from_utf8(head).map_err(|_| bad("the request head is not UTF-8 text"))?;
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let line = lines.next().unwrap_or("");
    if line.len() > limits.line {
        return Err((414, format!("the request line is longer than {} bytes", limits.line)));
    }
    let mut words = line.split(' ');
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
        _ if version.starts_with("HTTP/") => {
            return Err((505, format!("`{}` is not HTTP/1.1", shown(version))));
        }
        _ => return Err(bad("the request line does not end in HTTP/1.1")),
    };
    if !target.starts_with('/') {
        return Err(bad("the target is not a path starting with `/`"));
    }
    if !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad("the target holds a byte that is not a visible ASCII character"));
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut total = 0usize;
    for line in lines {
        total += line.len() + 2;
        if total > limits.headers + 2 {
            return Err((431, format!("the header section is longer than {} bytes", limits.headers)));
        }
        if line.is_empty() {
            break;
        }
        if headers.len() >= limits.header_count {
            return Err((431, format!("more than {} header lines", limits.header_count)));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line without `:`"));
        };
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(bad("a header name that is not a token (spaces, or a folded line)"));
        }
        if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err(bad("a header value with a control character"));
        }
        headers.push((name.to_ascii_lowercase(), value.trim_matches([' ', '\t']).to_string()));
    }
    fn all<'h>(headers: &'h [(String, String)], n: &'h str) -> impl Iterator<Item = &'h str> {
        headers.iter().filter(move |(k, _)| k == n).map(|(_, v)| v.as_str())
    }
    // RFC 9112 section 6: a transfer coding is not supported (501), even beside a
    // Content-Length, and Content-Length must be one plain decimal number; two that
    // disagree, a sign or a list are refused (400): a request smuggled past another
    // reader's framing is never read as two.
    if all(&headers, "transfer-encoding").next().is_some() {
        return Err((501, "transfer codings (chunked bodies) are not supported: send Content-Length".into()));
    }
    let mut length: Option<&str> = None;
    for v in all(&headers, "content-length") {
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("Content-Length is not a plain decimal number"));
        }
        if length.is_some_and(|l| l != v) {
            return Err(bad("two Content-Length headers that disagree"));
        }
        length = Some(v);
    }
    let length = match length {
        None => 0,
        Some(v) => v.trim_start_matches('0').parse::<u64>().unwrap_or(if v.trim_start_matches('0').is_empty() {
            0
        } else {
            u64::MAX
        }),
    };
    if length > limits.body as u64 {
        return Err((413, format!("the body is longer than {} bytes", limits.body)));
    }
    let find = |n: &str| all(&headers, n).next().map(str::to_string);
    let connection = find("connection").map(|c| c.to_ascii_lowercase());
    let keep_alive = match connection.as_deref() {
        Some(c) if c.contains("close") => false,
        Some(c) if c.contains("keep-alive") => true,
        _ => !http10,
    };
    let length = usize::try_from(length).unwrap_or(usize::MAX);
    Ok((
        Request {
            method: method.into(),
            path: path.into(),
            query: query.into(),
            body: Vec::new(),
            headers,
            keep_alive,
        },
        length,
    ))
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

/// The bytes of `response`: status line, headers, and the body unless `head` (a HEAD
/// request); `keep_alive` false says `Connection: close`.
/// Pre: none. Post: a whole HTTP/1.1 response whose `Content-Length` is the body's.
pub(crate) fn encode(response: &Response, keep_alive: bool, head: bool) -> Vec<u8> {
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
    bytes
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
                // Two hex digits, nothing else (`from_str_radix` alone takes `+f`).
                let hex = bytes.get(i + 1..i + 3)?;
                let digit = |d: u8| char::from(d).to_digit(16);
                let (hi, lo) = (digit(*hex.first()?)?, digit(*hex.get(1)?)?);
                out.push(u8::try_from(hi * 16 + lo).ok()?);
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

    /// Reads `text` whole, or refuses it; `Err(None)` when it is not a whole request.
    fn read(text: &str) -> Result<Request, Option<u16>> {
        match RequestReader::default().next(text.as_bytes(), &Limits::default()) {
            Parse::Done(r, _) => Ok(r),
            Parse::Refuse(s, _) => Err(Some(s)),
            Parse::Partial => Err(None),
        }
    }

    fn refused(text: &str) -> u16 {
        match read(text) {
            Err(Some(s)) => s,
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
        assert!(matches!(read(""), Err(None)));
    }

    #[test]
    fn queries_decode() {
        assert_eq!(decode("a%20b+c").as_deref(), Some("a b c"));
        assert_eq!(decode("%zz"), None);
        assert_eq!(decode("%4"), None);
        assert_eq!(decode("%+f"), None, "two hex digits, no sign");
        assert_eq!(decode("%-1"), None);
        assert_eq!(decode("%2B1").as_deref(), Some("+1"));
        assert_eq!(decode("%c3%a9").as_deref(), Some("\u{e9}"));
        assert_eq!(decode("%e9"), None, "not UTF-8");
        let pairs = query_pairs("method=GetCellAt&row=1&col=2&flag").unwrap();
        assert_eq!(pairs.len(), 4);
        assert_eq!(pairs[3], ("flag".to_string(), String::new()));
    }

    #[test]
    fn framing_is_refused_where_two_readers_could_disagree() {
        let post = |h: &str| refused(&format!("POST / HTTP/1.1\r\n{h}\r\n\r\n{{}}"));
        assert_eq!(post("Content-Length: 2\r\nContent-Length: 3"), 400);
        assert_eq!(post("Content-Length: +2"), 400);
        assert_eq!(post("Content-Length: 2, 2"), 400);
        assert_eq!(post("Content-Length:"), 400);
        assert_eq!(post("Transfer-Encoding: chunked\r\nContent-Length: 2"), 501);
        assert_eq!(post("Transfer-Encoding: identity"), 501);
        assert_eq!(post("Content-Length: 99999999999999999999999"), 413);
        assert_eq!(post(" folded: x"), 400);
        assert_eq!(post("X: a\u{1}b"), 400);
        assert_eq!(refused("GET /a\u{7f} HTTP/1.1\r\n\r\n"), 400);
        assert_eq!(refused("GET / http/1.1\r\n\r\n"), 400);
        let r = read("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 002\r\n\r\n{}").unwrap_err();
        assert_eq!(r, Some(400), "002 and 2 are written differently");
        let r = read("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}").unwrap();
        assert_eq!(r.body, b"{}");
    }

    #[test]
    fn a_request_is_read_a_piece_at_a_time() {
        let limits = Limits::default();
        let text = b"\r\nPOST /api/games HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\n\r\n";
        let mut reader = RequestReader::default();
        let mut done = None;
        for k in 1..=text.len() {
            match reader.next(&text[..k], &limits) {
                Parse::Partial => {}
                Parse::Done(r, used) => {
                    done = Some((r, used, k));
                    break;
                }
                Parse::Refuse(s, m) => panic!("{s} {m}"),
            }
        }
        let (r, used, k) = done.unwrap();
        assert_eq!((r.method.as_str(), r.body.as_slice(), used), ("POST", &b"abc"[..], k));
        // The rest is the next request.
        assert!(matches!(reader.next(&text[used..], &limits), Parse::Done(ref r, _) if r.method == "GET"));
        // Caps are seen before the end comes: a request line that goes on, headers that go on.
        let line = format!("GET /{}", "a".repeat(9000));
        assert!(matches!(RequestReader::default().next(line.as_bytes(), &limits), Parse::Refuse(414, _)));
        let headers = format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(17_000));
        assert!(matches!(RequestReader::default().next(headers.as_bytes(), &limits), Parse::Refuse(431, _)));
        let blank = "\r\n".repeat(600);
        assert!(matches!(RequestReader::default().next(blank.as_bytes(), &limits), Parse::Refuse(400, _)));
        // A body over the cap is refused from its announced length.
        let big = "POST / HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n";
        assert!(matches!(RequestReader::default().next(big.as_bytes(), &limits), Parse::Refuse(413, _)));
    }

    #[test]
    fn fuzzed_bytes_read_in_pieces_read_as_they_do_whole() {
        // A fixed seed (xorshift): the same cases every run.
        let mut x: u64 = 0x2026_1127_0235;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let parts: [&[u8]; 16] = [
            b"GET ",
            b"POST ",
            b"/api/games",
            b"?a=%+f",
            b" HTTP/1.1",
            b" HTTP/1.0",
            b"\r\n",
            b"\n",
            b"\r",
            b"Content-Length: 3\r\n",
            b"Content-Length: +3\r\n",
            b"Transfer-Encoding: chunked\r\n",
            b"X: y\r\n",
            b"abc",
            b"\xff\x00",
            b":",
        ];
        let limits = Limits { line: 64, headers: 128, header_count: 4, body: 16, request_time: Duration::from_secs(1) };
        for _ in 0..20_000 {
            let mut bytes = Vec::new();
            for _ in 0..(next() % 12) {
                bytes.extend_from_slice(parts[(next() % 16) as usize]);
            }
            let whole = RequestReader::default().next(&bytes, &limits);
            let mut reader = RequestReader::default();
            let mut pieces = Parse::Partial;
            let mut k = 0;
            while k < bytes.len() {
                k = (k + 1 + (next() % 8) as usize).min(bytes.len());
                pieces = reader.next(&bytes[..k], &limits);
                if !matches!(pieces, Parse::Partial) {
                    break;
                }
            }
            let shown = String::from_utf8_lossy(&bytes);
            match (&whole, &pieces) {
                (Parse::Partial, Parse::Partial) => {}
                (Parse::Done(a, n), Parse::Done(b, m)) => assert!(a == b && n == m, "{shown:?}"),
                (Parse::Refuse(a, _), Parse::Refuse(b, _)) => {
                    assert!(a == b && [400, 413, 414, 431, 501, 505].contains(a), "{shown:?}")
                }
                // Read whole, a request can be refused for a later cap that pieces
                // found only after a request was done: never the other way.
                _ => panic!("{shown:?}: whole {whole:?}, in pieces {pieces:?}"),
            }
        }
    }
}
