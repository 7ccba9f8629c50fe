//! Streams whose errors say which stream failed (`reading standard input: ...`), a
//! command's input opened from its operand or standard input, and reading within a
//! limit; whether to colour a stream.

use std::fmt;
use std::io::{self, BufRead, Read, Write};

/// `e` as an error of the stream `what` (`reading standard input`, `writing standard
/// output`, ``reading `FILE` ``): its kind kept, its message prefixed, without the
/// `(os error N)` tail. Pre: none. Post: displays as `what: message`.
pub fn stream_error(what: &str, e: io::Error) -> io::Error {
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(k) if text.ends_with(')') => text.get(..k).unwrap_or(&text).to_string(),
        _ => text,
    };
    io::Error::new(e.kind(), format!("{what}: {text}"))
}

/// A writer whose errors name it ([`stream_error`]).
pub(crate) struct NamedWriter<'a> {
    /// The stream.
    pub inner: &'a mut dyn Write,
    /// Its name in errors (`writing standard output`).
    pub what: &'static str,
}

impl Write for NamedWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(|e| stream_error(self.what, e))
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(|e| stream_error(self.what, e))
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|e| stream_error(self.what, e))
    }
}

/// A reader whose errors name it ([`stream_error`]).
pub(crate) struct NamedReader<'a> {
    /// The stream.
    pub inner: Box<dyn BufRead + 'a>,
    /// Its name in errors (`reading standard input`).
    pub what: String,
}

impl Read for NamedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                e
            } else {
                stream_error(&self.what, e)
            }
        })
    }
}

impl BufRead for NamedReader<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let what = &self.what;
        self.inner
            .fill_buf()
            .map_err(|e| if e.kind() == io::ErrorKind::Interrupted { e } else { stream_error(what, e) })
    }
    fn consume(&mut self, n: usize) {
        self.inner.consume(n)
    }
}

/// Opens the command's input as a stream: the file `path` (its operand), or standard
/// input when there is none or it is `-`. At a terminal with nothing piped in, says on
/// stderr that it is waiting (`hint`: how to get help).
/// Pre: none. Post: `Err` naming the file when it cannot be opened or is a directory.
pub(crate) fn open_input<'a>(
    path: Option<&str>,
    stdin: &'a mut dyn BufRead,
    stderr: &mut dyn Write,
    stdin_tty: bool,
    hint: &str,
) -> io::Result<Box<dyn BufRead + 'a>> {
    match path {
        Some(path) if path != "-" => {
            let file = std::fs::File::open(path).map_err(|e| stream_error(&format!("cannot open `{path}`"), e))?;
            if file.metadata().is_ok_and(|m| m.is_dir()) {
                let message = format!("cannot read `{path}`: it is a directory");
                return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
            }
            let inner = Box::new(io::BufReader::with_capacity(1 << 16, file));
            Ok(Box::new(NamedReader { inner, what: format!("reading `{path}`") }))
        }
        _ => {
            if stdin_tty {
                writeln!(stderr, "reading the input from the terminal (end it with Ctrl-D; {hint})")?;
                stderr.flush()?;
            }
            Ok(Box::new(stdin))
        }
    }
}

/// Reads all of `from` (named `what` in errors, e.g. ``reading `FILE` ``), up to `limit`
/// bytes (memory grows with what is read, never past the limit).
/// Pre: none. Post: `Err` when reading fails or there is more than `limit` bytes.
pub(crate) fn read_limited(from: &mut dyn Read, what: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    io::Read::take(from, limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(stream_error(&format!("reading {what}"), e)))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { what: what.to_string(), limit });
    }
    Ok(bytes)
}

/// What [`read_limited`] fails with.
#[derive(Debug)]
pub enum ReadError {
    /// Reading failed (the stream named).
    Io(io::Error),
    /// More bytes than the limit.
    TooLarge {
        /// What was read (`standard input`, a quoted file name).
        what: String,
        /// The limit, in bytes.
        limit: u64,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge { what, limit } => write!(f, "{what} is larger than the limit of {limit} bytes"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::TooLarge { .. } => None,
        }
    }
}

/// Whether to colour a stream (`tty`: it is a terminal) when `when` is `always`,
/// `never` or `auto`: [`color_rule`] with the environment's `NO_COLOR` and `TERM`.
/// Pre: none. Post: no change.
pub(crate) fn color_wanted(when: &str, tty: bool) -> bool {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    color_rule(when, tty, env("NO_COLOR").is_some(), env("TERM").is_some_and(|t| t == "dumb"))
}

/// The colour rule: `always` and `never` win; `auto` colours a terminal unless
/// `NO_COLOR` is set (to anything but the empty string) or `TERM` is `dumb`.
fn color_rule(when: &str, tty: bool, no_color: bool, dumb: bool) -> bool {
    match when {
        "always" => true,
        "never" => false,
        _ => tty && !no_color && !dumb,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_stops_past_the_limit_and_errors_name_the_stream() {
        assert_eq!(read_limited(&mut "abc".as_bytes(), "`f`", 3).unwrap(), b"abc");
        let e = read_limited(&mut "abcd".as_bytes(), "`f`", 3).unwrap_err().to_string();
        assert_eq!(e, "`f` is larger than the limit of 3 bytes");
        let e = stream_error("reading `f`", io::Error::from_raw_os_error(21));
        assert_eq!((e.kind(), e.to_string()), (io::ErrorKind::IsADirectory, "reading `f`: Is a directory".into()));
        let mut sink: &mut dyn Write = &mut Vec::new();
        let mut input = "x".as_bytes();
        let e = open_input(Some("/no/such/file"), &mut input, &mut sink, false, "").err().unwrap().to_string();
        assert!(e.starts_with("cannot open `/no/such/file`: ") && !e.contains("os error"), "{e}");
    }

    #[test]
    fn colour_follows_the_flag_then_the_terminal_and_environment() {
        assert!(color_rule("always", false, true, true));
        assert!(!color_rule("never", true, false, false));
        assert!(color_rule("auto", true, false, false));
        assert!(!color_rule("auto", false, false, false));
        assert!(!color_rule("auto", true, true, false), "NO_COLOR");
        assert!(!color_rule("auto", true, false, true), "TERM=dumb");
    }
}
