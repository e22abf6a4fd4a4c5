//! The one error type of the command: a message for the user and the exit status it maps to.

use std::fmt;
use std::io;
use std::path::Path;
use std::process::ExitCode;

use bpe_lab::files::{NotWritable, Unwritable, describe_io_error};

/// A failure reported to the user as `error: <message>`; or the reader of standard output
/// gone, which ends the command quietly with status 0 ([`CliError::is_closed_pipe`]).
#[derive(Debug)]
pub struct CliError {
    message: String,
    kind: Kind,
}

/// What a [`CliError`] is, which decides its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The work failed (exit 1).
    Runtime,
    /// The command line is wrong (exit 2).
    Usage,
    /// Standard output was closed by its reader (`bpe-lab … | head`): stop, say nothing,
    /// exit 0, as Unix tools do.
    ClosedPipe,
}

impl CliError {
    /// The work failed: bad input data, a file that cannot be read or written (exit 1).
    pub(crate) fn runtime(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            kind: Kind::Runtime,
        }
    }

    /// The command line asks for something that cannot be done (exit 2, like clap's errors).
    pub(crate) fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            kind: Kind::Usage,
        }
    }

    /// Standard output's reader went away: the work stops here, quietly.
    pub(crate) fn closed_pipe() -> Self {
        CliError {
            message: "standard output was closed".to_owned(),
            kind: Kind::ClosedPipe,
        }
    }

    /// Whether this is [`CliError::closed_pipe`], which ends the command with success.
    pub fn is_closed_pipe(&self) -> bool {
        self.kind == Kind::ClosedPipe
    }

    /// `what 'path': reason`, with the reason worded for people rather than as an OS code.
    pub(crate) fn io(what: &str, path: &Path, err: &io::Error) -> Self {
        CliError::runtime(format!(
            "{what} '{}': {}",
            path.display(),
            describe_io_error(err)
        ))
    }

    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(match self.kind {
            Kind::ClosedPipe => 0,
            Kind::Runtime => 1,
            Kind::Usage => 2,
        })
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// An output that cannot be written: an empty path is a usage error, the rest fail the work.
impl From<NotWritable> for CliError {
    fn from(e: NotWritable) -> Self {
        match e.why {
            Unwritable::EmptyPath => CliError::usage(e.to_string()),
            _ => CliError::runtime(e.to_string()),
        }
    }
}
