//! What the grading kit fails with, as typed values: a file the system refused (with
//! the system's error as its source), a test set that is not the kit's to replace. A
//! program that cannot be started is the runner's own [`super::runner::StartError`].

use std::fmt;
use std::io;
use std::path::PathBuf;

/// What was being done to a file when the system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Reading a file or listing a folder.
    Read,
    /// Finding a folder's real path.
    Find,
    /// Creating a folder.
    Create,
    /// Creating the temporary folder a test set is built in.
    CreateTemporary,
    /// Writing a file.
    Write,
    /// Exchanging an old entry of a test set with the new one.
    Replace,
    /// Moving a new entry into a test set.
    MoveIn,
    /// Moving a whole new test set to its place.
    MoveSet,
    /// Moving an old entry out of a test set.
    Remove,
}

impl FileAction {
    /// The words around the file's name: ("cannot move", " into place"), ...
    fn words(self) -> (&'static str, &'static str) {
        match self {
            FileAction::Read => ("cannot read", ""),
            FileAction::Find => ("cannot find", ""),
            FileAction::Create => ("cannot create", ""),
            FileAction::CreateTemporary => ("cannot create the temporary folder", ""),
            FileAction::Write => ("cannot write", ""),
            FileAction::Replace => ("cannot replace", ""),
            FileAction::MoveIn => ("cannot move", " into place"),
            FileAction::MoveSet => ("cannot move the test set to", ""),
            FileAction::Remove => ("cannot remove", ""),
        }
    }
}

/// Everything the grading kit's file and case work can fail with.
#[derive(Debug)]
pub enum GradingError {
    /// The system refused `action` on `path`.
    File {
        /// What was being done.
        action: FileAction,
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// The output folder holds files and `--force` was not given.
    NotEmpty(PathBuf),
    /// The output folder holds `path`, which the manifest does not list.
    NotListed {
        /// The file or folder that is not the kit's.
        path: PathBuf,
        /// The manifest that was asked.
        manifest: PathBuf,
    },
    /// A problem package cannot hold cases of these rules.
    RulesUnknown {
        /// The rules a package knows.
        known: Vec<&'static str>,
        /// The cases' rules it does not.
        unknown: Vec<String>,
    },
    /// The ZIP archive would be too large for the format.
    ArchiveTooLarge,
}

impl GradingError {
    /// The error of `action` on `path`.
    /// Pre: none. Post: displays as "cannot ... `path`: source".
    pub(crate) fn file(action: FileAction, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> GradingError {
        let path = path.into();
        move |source| GradingError::File { action, path, source }
    }
}

impl fmt::Display for GradingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradingError::File { action, path, source } => {
                let (before, after) = action.words();
                write!(f, "{before} `{}`{after}: {source}", path.display())
            }
            GradingError::NotEmpty(dir) => {
                write!(f, "`{}` is not empty; use --force to replace its test set", dir.display())
            }
            GradingError::NotListed { path, manifest } => write!(
                f,
                "`{}` is not in the test set's manifest (`{}`): testset replaces only the files it wrote; \
                 move it away or choose another --out",
                path.display(),
                manifest.display()
            ),
            GradingError::RulesUnknown { known, unknown } => write!(
                f,
                "the problem package knows the rules {} only, not {}: choose them with --strategies",
                known.join(", "),
                unknown.join(", ")
            ),
            GradingError::ArchiveTooLarge => write!(f, "the archive is too large for the ZIP format"),
        }
    }
}

impl std::error::Error for GradingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GradingError::File { source, .. } => Some(source),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn file_errors_name_the_file_and_keep_the_systems_error_as_source() {
        let e = GradingError::file(FileAction::Write, "out/a.in")(io::Error::from(io::ErrorKind::PermissionDenied));
        assert_eq!(e.to_string(), "cannot write `out/a.in`: permission denied");
        assert!(e.source().is_some());
        let e = GradingError::file(FileAction::MoveIn, "set/T1")(io::Error::from(io::ErrorKind::NotFound));
        assert_eq!(e.to_string(), "cannot move `set/T1` into place: entity not found");
        assert!(GradingError::NotEmpty("set".into()).source().is_none());
        assert_eq!(
            GradingError::NotEmpty("set".into()).to_string(),
            "`set` is not empty; use --force to replace its test set"
        );
    }
}
