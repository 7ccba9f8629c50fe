//! The client side, standard library only: HTTP/1.1 requests over one kept-alive
//! connection (`play --url`, the tests, the load bench), and a [`Sonar`] that asks the
//! remote-service seed's API (`/exec?method=GetCellAt...`) "ship or water?".

use crate::game::fleet::Fleet;
use crate::game::position::Position;
use crate::game::rules::Rules;
use crate::limits::HTTP_BODY_BYTES;
use crate::scan::sonar::{Answer, ProbeError, Sonar};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

/// How long a whole response may take by default (connecting, sending the request and
/// reading every byte of the answer), as `curl --max-time 30`.
pub(crate) const RESPONSE_TIME: Duration = Duration::from_secs(30);

/// The most header lines a response may have.
const HEADER_LINES: usize = 100;

/// The longest status or header line, in bytes.
const HEADER_LINE_BYTES: u64 = 8192;

/// An `http://HOST:PORT/PATH?QUERY` address, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Url {
    /// `HOST:PORT` (port 80 when none was written).
    pub(crate) host: String,
    /// The path (from `/`).
    pub(crate) path: String,
    /// What follows `?` (empty when none).
    pub(crate) query: String,
}

impl Url {
    /// Splits `text`.
    /// Pre: none. Post: `Err` saying why for anything but `http://HOST[:PORT][/PATH][?QUERY]`.
    pub(crate) fn parse(text: &str) -> Result<Url, String> {
        let Some(rest) = text.strip_prefix("http://") else {
            return Err(format!("`{text}` is not an http:// address (https is not supported)"));
        };
        let (authority, target) = match rest.find(['/', '?']) {
            Some(k) => (rest.get(..k).unwrap_or(""), rest.get(k..).unwrap_or("")),
            None => (rest, ""),
        };
        if authority.is_empty() || authority.contains('@') || authority.chars().any(char::is_whitespace) {
            return Err(format!("`{text}` has no usable host"));
        }
        let host = if authority.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        // The path and query go into the request line as they are: nothing that could
        // end it or add a header (a space, a control character, a byte over 127).
        if target.bytes().any(|b| b <= b' ' || b >= 0x7f) {
            return Err(format!(
                "`{}` holds a space, a control character or a non-ASCII character (percent-encode them)",
                crate::render::words::shown(text.as_bytes())
            ));
        }
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let path = if path.is_empty() { "/".to_string() } else { path.to_string() };
        Ok(Url { host, path, query: query.to_string() })
    }
}

/// A response as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The body, as text (lossy).
    pub body: String,
}

/// A connection whose every read must end before a deadline: each read waits at most
/// the time left, and none starts once it has passed (`TimedOut`). A server that sends
/// a byte now and then cannot stretch a response past it.
#[derive(Debug)]
struct Timed {
    stream: TcpStream,
    deadline: Instant,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "the response took too long"));
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// One server, one kept-alive connection (reopened when the server closes it).
#[derive(Debug)]
pub struct Client {
    host: String,
    timeout: Duration,
    conn: Option<(BufReader<Timed>, TcpStream)>,
}

impl Client {
    /// A client of `host` (`HOST:PORT`); nothing is connected yet. A response must be
    /// complete within [`RESPONSE_TIME`] (30 s).
    pub fn new(host: &str) -> Client {
        Client { host: host.to_string(), timeout: RESPONSE_TIME, conn: None }
    }

    /// The same client, each response (connecting, sending, reading it all) due
    /// within `timeout`.
    /// Pre: `timeout` is more than zero. Post: none.
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// The time a whole response may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The server's `HOST:PORT`.
    pub fn host(&self) -> &str {
        &self.host
    }

    fn connect(&self, deadline: Instant) -> io::Result<(BufReader<Timed>, TcpStream)> {
        let addrs: Vec<_> = self.host.to_socket_addrs()?.collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, format!("`{}` has no address", self.host));
        for a in addrs {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "connecting took too long"));
            }
            match TcpStream::connect_timeout(&a, left) {
                Ok(s) => {
                    let _ = s.set_nodelay(true);
                    let reader = Timed { stream: s.try_clone()?, deadline };
                    return Ok((BufReader::new(reader), s));
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Sends `method target` with `body` (JSON when given) and reads the response.
    /// A kept-alive connection the server closed before answering is reopened once.
    /// Pre: `target` starts with `/`. Post: `Err` for a failed connection, a response
    /// not complete within the client's timeout (`TimedOut` or `WouldBlock`, reopening
    /// included), or a response that is not HTTP/1.1 with a Content-Length, has more
    /// than 100 header lines or one over 8 KiB, or a body over 16 MiB.
    pub fn send(&mut self, method: &str, target: &str, body: Option<&str>) -> io::Result<Reply> {
        let deadline = Instant::now() + self.timeout;
        let reused = self.conn.is_some();
        match self.try_send(method, target, body, deadline) {
            Err((e, false)) if reused && !is_timeout(&e) => {
                self.conn = None;
                self.try_send(method, target, body, deadline).map_err(|(e, _)| e)
            }
            other => other.map_err(|(e, _)| e),
        }
    }

    /// One attempt, due by `deadline`; the flag tells whether any byte of a response
    /// arrived.
    fn try_send(
        &mut self,
        method: &str,
        target: &str,
        body: Option<&str>,
        deadline: Instant,
    ) -> Result<Reply, (io::Error, bool)> {
        if self.conn.is_none() {
            self.conn = Some(self.connect(deadline).map_err(|e| (e, true))?);
        }
        let Some((reader, writer)) = self.conn.as_mut() else {
            return Err((io::Error::other("no connection"), true));
        };
        reader.get_mut().deadline = deadline;
        let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
        if let Err(e) = writer.set_write_timeout(Some(left)) {
            self.conn = None;
            return Err((e, true));
        }
        let body = body.unwrap_or("");
        let mut text = format!("{method} {target} HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n", self.host);
        if method == "POST" {
            text.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        text.push_str("\r\n");
        text.push_str(body);
        if let Err(e) = writer.write_all(text.as_bytes()).and_then(|()| writer.flush()) {
            self.conn = None;
            return Err((e, false));
        }
        let result = read_reply(reader);
        match result {
            Ok((reply, keep)) => {
                if !keep {
                    self.conn = None;
                }
                Ok(reply)
            }
            Err(e) => {
                self.conn = None;
                Err(e)
            }
        }
    }
}

/// True for the errors a deadline gives: `TimedOut` (ours, or connecting) and
/// `WouldBlock` (a socket's read or write timeout).
pub(crate) fn is_timeout(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock)
}

/// Reads a response: status line, headers, Content-Length body.
fn read_reply(reader: &mut BufReader<Timed>) -> Result<(Reply, bool), (io::Error, bool)> {
    let bad = |what: &str| (io::Error::new(io::ErrorKind::InvalidData, what.to_string()), true);
    let mut line = String::new();
    match reader.by_ref().take(HEADER_LINE_BYTES).read_line(&mut line) {
        Ok(0) => return Err((io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection"), false)),
        Ok(_) => {}
        Err(e) => return Err((e, false)),
    }
    let mut words = line.split_whitespace();
    let status = match (words.next(), words.next().and_then(|s| s.parse::<u16>().ok())) {
        (Some(v), Some(s)) if v.starts_with("HTTP/1.") => s,
        _ => return Err(bad("the answer is not HTTP/1.1")),
    };
    if !line.ends_with('\n') {
        return Err(bad("the answer's status line is over 8 KiB"));
    }
    let mut length = None;
    let mut keep = true;
    let mut ended = false;
    for _ in 0..=HEADER_LINES {
        line.clear();
        reader.by_ref().take(HEADER_LINE_BYTES).read_line(&mut line).map_err(|e| (e, true))?;
        if !line.ends_with('\n') {
            return Err(bad("the answer ended inside its headers, or has a header line over 8 KiB"));
        }
        let h = line.trim_end();
        if h.is_empty() {
            ended = true;
            break;
        }
        if let Some((name, value)) = h.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "content-length" {
                length = value.parse::<usize>().ok();
            } else if name == "connection" && value.eq_ignore_ascii_case("close") {
                keep = false;
            }
        }
    }
    if !ended {
        return Err(bad("the answer has more than 100 header lines"));
    }
    let Some(length) = length.filter(|&n| n <= HTTP_BODY_BYTES) else {
        return Err(bad("the answer has no Content-Length (or a body over 16 MiB)"));
    };
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).map_err(|e| (e, true))?;
    Ok((Reply { status, body: String::from_utf8_lossy(&body).into_owned() }, keep))
}

/// What went wrong with a remote service (`play --url`), each a message of its own.
#[derive(Debug)]
pub enum ServiceError {
    /// No complete answer within the time limit: the service accepted and never
    /// answered, or answered too slowly (`TimedOut` and `WouldBlock` both).
    Silent {
        /// `HOST:PORT`.
        host: String,
        /// The time a response may take.
        limit: Duration,
    },
    /// Connecting, sending or reading failed otherwise (refused, reset, not HTTP).
    Io {
        /// `HOST:PORT`.
        host: String,
        /// What failed.
        error: io::Error,
    },
    /// An answer other than 200.
    Status {
        /// The status code.
        status: u16,
        /// The body, control characters escaped.
        body: String,
    },
    /// A size that is not a number.
    NotNumber {
        /// `GetRowCount` or `GetColumnCount`.
        method: &'static str,
        /// The answer, control characters escaped.
        answer: String,
    },
    /// A token not of the form serve makes (32 characters 0-9 a-f): one in the
    /// address (`from_url`), or one the service gave.
    Token {
        /// The token, control characters escaped.
        token: String,
        /// It came from the address given, not the service.
        from_url: bool,
    },
    /// A query that cannot be read, or a sea a board cannot be.
    Other(String),
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServiceError::Silent { host, limit } => {
                write!(f, "the service at {host} did not answer within {} s", limit.as_secs_f64())
            }
            ServiceError::Io { host, error } => write!(f, "asking the service at {host}: {error}"),
            ServiceError::Status { status, body } => write!(f, "the service answered {status}: {body}"),
            ServiceError::NotNumber { method, answer } => write!(f, "{method} answered `{answer}`, not a number"),
            ServiceError::Token { token, from_url: true } => {
                write!(f, "--url: the token `{token}` is not one serve makes (32 characters 0-9 a-f)")
            }
            ServiceError::Token { token, from_url: false } => {
                write!(f, "the service's token `{token}` is not one serve makes (32 characters 0-9 a-f)")
            }
            ServiceError::Other(text) => write!(f, "{text}"),
        }
    }
}

impl std::error::Error for ServiceError {}

/// The token of `query` (`None` when it has none), refused unless it is one serve
/// makes: it goes into every request line, and nothing else may (an encoded CR LF
/// would add a header).
/// Pre: none. Post: `Err` for a query that cannot be read or a token of another form.
pub(crate) fn token_of(query: &str) -> Result<Option<String>, ServiceError> {
    let pairs = super::http::query_pairs(query).map_err(ServiceError::Other)?;
    match pairs.into_iter().find(|(k, _)| k == "token") {
        None => Ok(None),
        Some((_, t)) if super::games::is_token(&t) => Ok(Some(t)),
        Some((_, t)) => Err(ServiceError::Token { token: crate::render::words::shown(t.as_bytes()), from_url: true }),
    }
}

/// The remote-service seed's API as a sonar: the sea's size from `GetRowCount` and
/// `GetColumnCount`, every probe a `GetCellAt` answering `0` or `1`.
#[derive(Debug)]
pub(crate) struct ExecSonar {
    client: Client,
    path: String,
    token: String,
    rows: usize,
    cols: usize,
    rules: Rules,
}

impl ExecSonar {
    /// Connects to the service at `url` (its `token=T`, or a new token from
    /// `GetToken`), and asks the sea's size, each response due within `timeout`. The
    /// fleet is that of `rules`, whose announcements are dropped (the service answers
    /// 0 or 1).
    /// Pre: `timeout` is more than zero. Post: `Err` saying what failed; a token in
    /// `url` of another form than serve's is refused before any connection, one the
    /// service gives before it is used or shown.
    pub(crate) fn connect(url: &Url, rules: &Rules, timeout: Duration) -> Result<ExecSonar, ServiceError> {
        let given = token_of(&url.query)?;
        let mut client = Client::new(&url.host).with_timeout(timeout);
        let path = url.path.clone();
        let token = match given {
            Some(t) => t,
            None => {
                let t = ask(&mut client, &format!("{path}?method=GetToken"))?;
                if !super::games::is_token(&t) {
                    return Err(ServiceError::Token {
                        token: crate::render::words::shown(t.as_bytes()),
                        from_url: false,
                    });
                }
                t
            }
        };
        let mut sonar = ExecSonar {
            client,
            path,
            token,
            rows: 0,
            cols: 0,
            rules: rules.clone().with_sunk(crate::game::rules::Sunk::None),
        };
        sonar.rows = sonar.number("GetRowCount")?;
        sonar.cols = sonar.number("GetColumnCount")?;
        crate::game::board::Board::check_size(sonar.rows, sonar.cols)
            .map_err(|e| ServiceError::Other(format!("the service's sea: {e}")))?;
        Ok(sonar)
    }

    /// The token played.
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    fn target(&self, method: &str) -> String {
        format!("{}?token={}&method={method}", self.path, self.token)
    }

    fn number(&mut self, method: &'static str) -> Result<usize, ServiceError> {
        let target = self.target(method);
        let text = ask(&mut self.client, &target)?;
        text.trim().parse().map_err(|_| ServiceError::NotNumber { method, answer: super::http::shown(&text) })
    }
}

/// GETs `target` and returns the body of a 200 answer.
/// Pre: none. Post: `Err(Silent)` when the answer was not complete in time.
fn ask(client: &mut Client, target: &str) -> Result<String, ServiceError> {
    let reply = client.send("GET", target, None).map_err(|error| match is_timeout(&error) {
        true => ServiceError::Silent { host: client.host().to_string(), limit: client.timeout() },
        false => ServiceError::Io { host: client.host().to_string(), error },
    })?;
    if reply.status != 200 {
        return Err(ServiceError::Status { status: reply.status, body: super::http::shown(reply.body.trim()) });
    }
    Ok(reply.body.trim().to_string())
}

impl Sonar for ExecSonar {
    fn rows(&self) -> usize {
        self.rows
    }
    fn cols(&self) -> usize {
        self.cols
    }
    fn ship_cells(&self) -> usize {
        self.rules.fleet().ship_cells()
    }
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn fleet(&self) -> Option<&Fleet> {
        Some(self.rules.fleet())
    }
    fn layout_search(&self) -> Option<crate::scan::sonar::LayoutSearch> {
        Some(crate::posterior::agrees)
    }
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        let target = format!("{}&row={}&col={}", self.target("GetCellAt"), pos.row, pos.col);
        let text = ask(&mut self.client, &target).map_err(|e| ProbeError::Io(e.to_string()))?;
        match text.as_str() {
            "1" => Ok(Answer::Hit),
            "0" => Ok(Answer::Miss),
            other => {
                Err(ProbeError::BadAnswer { answer: crate::render::words::shown(other.as_bytes()), allowed: "1, 0" })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Url;

    #[test]
    fn urls_split() {
        let u = Url::parse("http://127.0.0.1:8080/exec?token=ab&x=1").unwrap();
        assert_eq!((u.host.as_str(), u.path.as_str(), u.query.as_str()), ("127.0.0.1:8080", "/exec", "token=ab&x=1"));
        let u = Url::parse("http://localhost?token=1").unwrap();
        assert_eq!((u.host.as_str(), u.path.as_str()), ("localhost:80", "/"));
        assert!(Url::parse("https://x/").is_err());
        assert!(Url::parse("http:///x").is_err());
        assert!(Url::parse("http://h/exec\r\nX: 1").is_err() && Url::parse("http://h/a b").is_err());
    }

    #[test]
    fn only_serves_tokens_are_taken() {
        let hex = "0123456789abcdef0123456789abcdef";
        assert_eq!(super::token_of(&format!("token={hex}&x=1")).unwrap().as_deref(), Some(hex));
        assert_eq!(super::token_of("x=1").unwrap(), None);
        for bad in ["abc", "ABCDEF0123456789ABCDEF0123456789", "abc%0d%0aX:%201", "%1b"] {
            let e = super::token_of(&format!("token={bad}")).unwrap_err().to_string();
            assert!(e.starts_with("--url: the token `") && !e.chars().any(char::is_control), "{e}");
        }
        let silent = super::ServiceError::Silent { host: "h:1".into(), limit: std::time::Duration::from_millis(1500) };
        assert_eq!(silent.to_string(), "the service at h:1 did not answer within 1.5 s");
    }
}
