//! Files a command writes besides its output (`simulate --svg`): checked before the work
//! starts, written whole or not at all.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

/// A file a command cannot write as asked.
#[derive(Debug)]
pub enum FileError {
    /// A path that is no file to replace.
    Refused {
        /// The flag that named it (`--svg`).
        flag: &'static str,
        /// The path.
        path: String,
        /// Why (`is a directory`).
        why: &'static str,
    },
    /// Writing failed.
    Write {
        /// The flag that named it (`--svg`).
        flag: &'static str,
        /// What was being done (`writing`, `cannot replace`).
        doing: &'static str,
        /// The path.
        path: String,
        /// What the system said.
        error: io::Error,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Refused { flag, path, why } => write!(f, "{flag}: `{path}` {why}"),
            FileError::Write { flag, doing, path, error } => write!(f, "{flag}: {doing} `{path}`: {error}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Refused { .. } => None,
            FileError::Write { error, .. } => Some(error),
        }
    }
}

/// Refuses a file the command could not replace cleanly: `-`, a directory, a FIFO or
/// any other special file, or one in a directory that does not exist.
/// Pre: none. Post: `Err` naming `flag` and the path.
pub(crate) fn check_target(flag: &'static str, path: &str) -> Result<(), FileError> {
    let bad = |why: &'static str| Err(FileError::Refused { flag, path: path.to_string(), why });
    if path == "-" {
        return bad("is not a file name (standard output is the report's)");
    }
    if path.is_empty() {
        return bad("is empty: give a file name");
    }
    let p = Path::new(path);
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => return bad("is a directory"),
        Ok(m) if m.file_type().is_symlink() || m.is_file() => {}
        Ok(_) => return bad("is not a regular file (a FIFO or device): give a file to write"),
        Err(_) => {}
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return bad("is in a directory that does not exist");
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file in the same directory, renamed
/// over `path` once complete: an existing file is replaced only by a whole new one (a
/// symbolic link at `path` is replaced, not followed).
/// Pre: `check_target(flag, path)` passed. Post: `Err` naming the file when anything
/// fails; the temporary file is then removed.
pub(crate) fn write_atomically(flag: &'static str, path: &str, bytes: &[u8]) -> Result<(), FileError> {
    let p = Path::new(path);
    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let fail = |doing: &'static str, error: io::Error| FileError::Write { flag, doing, path: path.to_string(), error };
    let result = (|| {
        // A new file: a link left where the temporary file goes is removed, not followed.
        let _ = std::fs::remove_file(&tmp);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| fail("cannot create a file beside", e))?;
        file.write_all(bytes).map_err(|e| fail("writing", e))?;
        file.sync_all().map_err(|e| fail("writing", e))?;
        std::fs::rename(&tmp, p).map_err(|e| fail("cannot replace", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_cannot_be_replaced_and_replaces_whole() {
        let dir = std::env::temp_dir().join(format!("spot-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let d = dir.to_str().unwrap();
        assert!(check_target("--svg", "-").is_err());
        assert!(check_target("--svg", d).unwrap_err().to_string().contains("is a directory"));
        assert!(check_target("--svg", &format!("{d}/no/such/dir/x.svg"))
            .unwrap_err()
            .to_string()
            .contains("does not exist"));
        let target = format!("{d}/chart.svg");
        std::fs::write(&target, "old").unwrap();
        check_target("--svg", &target).unwrap();
        write_atomically("--svg", &target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // A symbolic link is replaced by the file, and what it pointed to is left alone.
        let other = format!("{d}/other.svg");
        std::fs::write(&other, "keep").unwrap();
        let link = format!("{d}/link.svg");
        std::os::unix::fs::symlink(&other, &link).unwrap();
        write_atomically("--svg", &link, b"chart").unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "chart");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "no temporary file left");
        // Nor through a link where the temporary file goes.
        let tmp = format!("{d}/.link.svg.{}.tmp", std::process::id());
        std::os::unix::fs::symlink(&other, &tmp).unwrap();
        write_atomically("--svg", &link, b"again").unwrap();
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "again");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3, "no temporary file left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
