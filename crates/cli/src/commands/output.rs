//! Every command writes through here: the flag's destination ([`bpe_lab::files::Output`]: `-`
//! or no flag is standard output, a regular file is replaced atomically through its links, a
//! device or FIFO is written through), refused before any work when it would replace an input,
//! checked before the long part, every write checked. A failed write is an error naming the
//! flag (or standard output); standard output closed by its reader (`… | head`) ends the command
//! quietly with status 0 ([`CliError::closed_pipe`]), so Rust's ignored SIGPIPE never turns
//! into a panic or a message.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use bpe_lab::files::{Output, describe_io_error};

use crate::commands::error::CliError;

/// One output of a command: the destination and the flag that named it.
#[derive(Debug)]
pub(crate) struct OutputFlag {
    /// `--output`, for messages; empty for standard output without a flag.
    flag: &'static str,
    output: Output,
}

impl OutputFlag {
    /// The output `flag` names (`-` is standard output), or standard output without it.
    pub(crate) fn new(flag: &'static str, path: Option<&Path>) -> OutputFlag {
        OutputFlag {
            flag,
            output: path.map_or(Output::Stdout, Output::new),
        }
    }

    /// Standard output, where a command prints its report.
    pub(crate) fn stdout() -> OutputFlag {
        OutputFlag::new("", None)
    }

    pub(crate) fn is_stdout(&self) -> bool {
        self.output == Output::Stdout
    }

    /// The path, unless the output is standard output.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.output.path()
    }

    /// Refuses, before anything is read or written, an output that would replace the input
    /// `input_flag` names (`what` it is, for the message: "the corpus"): the same regular file
    /// by device and inode, through links too.
    pub(crate) fn not_input(
        &self,
        input_flag: &str,
        what: &str,
        input: Option<&Path>,
    ) -> Result<(), CliError> {
        match input {
            Some(input) if self.output.replaces(input) => Err(CliError::usage(format!(
                "{} {} is {what} ({input_flag} '{}'): writing there would replace it; choose \
                 another output",
                self.flag,
                self.output,
                input.display()
            ))),
            _ => Ok(()),
        }
    }

    /// Checks, before the long part, that the output can be written (its folder exists and
    /// takes a new file; a device or FIFO as it is).
    pub(crate) fn check(&self) -> Result<(), CliError> {
        self.output.check().map_err(CliError::from)
    }

    /// A failed write as the command reports it: standard output closed by its reader ends
    /// quietly; anything else names the output and the reason.
    pub(crate) fn failed(&self, err: &io::Error) -> CliError {
        match (&self.output, self.flag) {
            (Output::Stdout, _) if err.kind() == io::ErrorKind::BrokenPipe => {
                CliError::closed_pipe()
            }
            (Output::Stdout, "") => CliError::runtime(format!(
                "cannot write to standard output: {}",
                describe_io_error(err)
            )),
            (Output::Stdout, flag) => CliError::runtime(format!(
                "cannot write {flag} - (standard output): {}",
                describe_io_error(err)
            )),
            (output, flag) => CliError::runtime(format!(
                "cannot write {flag} {output}: {}",
                describe_io_error(err)
            )),
        }
    }

    /// Writes what `produce` writes; its own errors come back as they are (it reports a failed
    /// write with [`OutputFlag::failed`]). A file output is whole or untouched.
    pub(crate) fn write(
        &self,
        produce: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let mut failure = None;
        let written = self.output.write(|out| {
            produce(out).map_err(|e| {
                let stopped = io::Error::other(e.to_string());
                failure = Some(e);
                stopped
            })
        });
        match (failure, written) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err(self.failed(&e)),
            (None, Ok(())) => Ok(()),
        }
    }

    /// Writes `bytes` whole.
    pub(crate) fn write_bytes(&self, bytes: &[u8]) -> Result<(), CliError> {
        self.write(|out| out.write_all(bytes).map_err(|e| self.failed(&e)))
    }
}

/// The path as written on the command line, or `standard output`, for summaries.
impl fmt::Display for OutputFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.output {
            Output::Stdout => f.write_str("standard output"),
            Output::Path(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Prints `text` on standard output, checked (see [`OutputFlag::failed`]).
pub(crate) fn print(text: &str) -> Result<(), CliError> {
    OutputFlag::stdout().write_bytes(text.as_bytes())
}

/// Prints `text` and a line feed on standard output, checked.
pub(crate) fn print_line(text: &str) -> Result<(), CliError> {
    let stdout = OutputFlag::stdout();
    stdout.write(|out| {
        out.write_all(text.as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .map_err(|e| stdout.failed(&e))
    })
}

/// A path as JSON shows it: its text, bytes that are not UTF-8 as U+FFFD (a path is bytes on
/// Unix; JSON strings are text).
pub(crate) fn path_json(path: &Path) -> serde_json::Value {
    path.to_string_lossy().into_owned().into()
}
