//! The one error type of the command: a message for the user and the exit status it maps to.

use std::fmt;
use std::io;
use std::path::Path;
use std::process::ExitCode;

/// A failure reported to the user as `error: <message>`.
#[derive(Debug)]
pub struct CliError {
    message: String,
    usage: bool,
}

impl CliError {
    /// The work failed: bad input data, a file that cannot be read or written (exit 1).
    pub fn runtime(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            usage: false,
        }
    }

    /// The command line asks for something that cannot be done (exit 2, like clap's errors).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            usage: true,
        }
    }

    /// `what 'path': reason`, with the reason worded for people rather than as an OS code.
    pub fn io(what: &str, path: &Path, err: &io::Error) -> Self {
        CliError::runtime(format!("{what} '{}': {}", path.display(), describe(err)))
    }

    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.usage { 2 } else { 1 })
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The reason behind an I/O error in plain words; the OS text for the rarer kinds.
pub fn describe(err: &io::Error) -> String {
    bpe_lab::files::describe_io_error(err)
}
