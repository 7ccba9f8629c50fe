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
use std::time::Duration;

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

/// One server, one kept-alive connection (reopened when the server closes it).
#[derive(Debug)]
pub struct Client {
    host: String,
    timeout: Duration,
    conn: Option<(BufReader<TcpStream>, TcpStream)>,
}

impl Client {
    /// A client of `host` (`HOST:PORT`); nothing is connected yet.
    pub fn new(host: &str) -> Client {
        Client { host: host.to_string(), timeout: Duration::from_secs(30), conn: None }
    }

    fn connect(&self) -> io::Result<(BufReader<TcpStream>, TcpStream)> {
        let addrs: Vec<_> = self.host.to_socket_addrs()?.collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, format!("`{}` has no address", self.host));
        for a in addrs {
            match TcpStream::connect_timeout(&a, self.timeout) {
                Ok(s) => {
                    s.set_read_timeout(Some(self.timeout))?;
                    s.set_write_timeout(Some(self.timeout))?;
                    let _ = s.set_nodelay(true);
                    return Ok((BufReader::new(s.try_clone()?), s));
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Sends `method target` with `body` (JSON when given) and reads the response.
    /// A kept-alive connection the server closed before answering is reopened once.
    /// Pre: `target` starts with `/`. Post: `Err` for a failed connection, a timeout, or
    /// a response that is not HTTP/1.1 with a Content-Length.
    pub fn send(&mut self, method: &str, target: &str, body: Option<&str>) -> io::Result<Reply> {
        let reused = self.conn.is_some();
        match self.try_send(method, target, body) {
            Err((e, false)) if reused => {
                let _ = e;
                self.conn = None;
                self.try_send(method, target, body).map_err(|(e, _)| e)
            }
            other => other.map_err(|(e, _)| e),
        }
    }

    /// One attempt; the flag tells whether any byte of a response arrived.
    fn try_send(&mut self, method: &str, target: &str, body: Option<&str>) -> Result<Reply, (io::Error, bool)> {
        if self.conn.is_none() {
            self.conn = Some(self.connect().map_err(|e| (e, true))?);
        }
        let Some((reader, writer)) = self.conn.as_mut() else {
            return Err((io::Error::other("no connection"), true));
        };
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

/// Reads a response: status line, headers, Content-Length body.
fn read_reply(reader: &mut BufReader<TcpStream>) -> Result<(Reply, bool), (io::Error, bool)> {
    let bad = |what: &str| (io::Error::new(io::ErrorKind::InvalidData, what.to_string()), true);
    let mut line = String::new();
    match reader.by_ref().take(8192).read_line(&mut line) {
        Ok(0) => return Err((io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection"), false)),
        Ok(_) => {}
        Err(e) => return Err((e, false)),
    }
    let mut words = line.split_whitespace();
    let status = match (words.next(), words.next().and_then(|s| s.parse::<u16>().ok())) {
        (Some(v), Some(s)) if v.starts_with("HTTP/1.") => s,
        _ => return Err(bad("the answer is not HTTP/1.1")),
    };
    let mut length = None;
    let mut keep = true;
    for _ in 0..100 {
        line.clear();
        reader.by_ref().take(8192).read_line(&mut line).map_err(|e| (e, true))?;
        let h = line.trim_end();
        if h.is_empty() {
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
    let Some(length) = length.filter(|&n| n <= HTTP_BODY_BYTES) else {
        return Err(bad("the answer has no Content-Length (or a body over 16 MiB)"));
    };
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).map_err(|e| (e, true))?;
    Ok((Reply { status, body: String::from_utf8_lossy(&body).into_owned() }, keep))
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
    /// `GetToken`), and asks the sea's size. The fleet is that of `rules`, whose
    /// announcements are dropped (the service answers 0 or 1).
    /// Pre: none. Post: `Err` saying what failed.
    pub(crate) fn connect(url: &Url, rules: &Rules) -> Result<ExecSonar, String> {
        let mut client = Client::new(&url.host);
        let pairs = super::http::query_pairs(&url.query)?;
        let mut token = pairs.iter().find(|(k, _)| k == "token").map(|(_, v)| v.clone()).unwrap_or_default();
        let path = url.path.clone();
        if token.is_empty() {
            token = ask(&mut client, &format!("{path}?method=GetToken"))?;
        }
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
        crate::game::board::Board::check_size(sonar.rows, sonar.cols).map_err(|e| format!("the service's sea: {e}"))?;
        Ok(sonar)
    }

    /// The token played.
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    fn target(&self, method: &str) -> String {
        format!("{}?token={}&method={method}", self.path, self.token)
    }

    fn number(&mut self, method: &str) -> Result<usize, String> {
        let target = self.target(method);
        let text = ask(&mut self.client, &target)?;
        text.trim().parse().map_err(|_| format!("{method} answered `{}`, not a number", super::http::shown(&text)))
    }
}

/// GETs `target` and returns the body of a 200 answer.
fn ask(client: &mut Client, target: &str) -> Result<String, String> {
    let reply = client.send("GET", target, None).map_err(|e| format!("asking the service: {e}"))?;
    if reply.status != 200 {
        return Err(format!("the service answered {}: {}", reply.status, super::http::shown(reply.body.trim())));
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
    fn probe(&mut self, pos: Position) -> Result<Answer, ProbeError> {
        let target = format!("{}&row={}&col={}", self.target("GetCellAt"), pos.row, pos.col);
        let text = ask(&mut self.client, &target).map_err(ProbeError::Io)?;
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
    }
}
