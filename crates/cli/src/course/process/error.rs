//! How a supervised program can fail, split by whose doing it is: the grader's own trouble
//! (it could not start the program, the machine ran out of processes, the sandbox could not be
//! made, its own files failed it) is never a student's lost points; the program's behaviour
//! (its exit status, a signal, the time limit, the output cap) is what a grade may rest on.

use std::fmt;
use std::time::Duration;

/// Which output stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        })
    }
}

/// A supervised program that did not end well.
#[derive(Debug)]
pub enum ProcessError {
    // -- the grader's trouble ------------------------------------------------------------
    /// The program could not be started (not found, not executable).
    Spawn {
        program: String,
        source: std::io::Error,
    },
    /// The machine had no room for it: no process or thread slot (EAGAIN), no memory
    /// (ENOMEM), no file descriptor (EMFILE, ENFILE). Worth retrying a little later.
    Exhausted {
        what: String,
        source: std::io::Error,
    },
    /// The sandbox could not be made or could not start the program in it (bubblewrap's or
    /// setpriv's own error, from their status and last message).
    Sandbox { program: String, message: String },
    /// The grader's own files or pipes failed it.
    Io {
        what: String,
        source: std::io::Error,
    },
    // -- the program's behaviour ---------------------------------------------------------
    /// It exited with this status.
    Exit { program: String, code: i32 },
    /// A signal ended it.
    Signal { program: String, signal: i32 },
    /// It ran past its time limit and was killed with everything it started.
    TimedOut { program: String, after: Duration },
    /// Its output passed the cap and it was killed at once.
    OutputCap {
        program: String,
        stream: Stream,
        cap: usize,
    },
}

/// Whether an I/O error says the machine is out of a resource rather than that something is
/// wrong with what was asked.
pub(crate) fn is_exhaustion(error: &std::io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EAGAIN | libc::ENOMEM | libc::EMFILE | libc::ENFILE | libc::ENOSPC)
    )
}

impl ProcessError {
    /// An error from starting `program`: exhaustion when the machine was out of room.
    pub(crate) fn spawn(program: &str, source: std::io::Error) -> ProcessError {
        if is_exhaustion(&source) {
            ProcessError::Exhausted {
                what: format!("starting {program}"),
                source,
            }
        } else {
            ProcessError::Spawn {
                program: program.to_owned(),
                source,
            }
        }
    }

    /// An error of the grader's own I/O (`what` names the file or pipe).
    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> ProcessError {
        let what = what.into();
        if is_exhaustion(&source) {
            ProcessError::Exhausted { what, source }
        } else {
            ProcessError::Io { what, source }
        }
    }

    /// The grader's own trouble, not the program's doing: such a result must never be scored
    /// as a student's failure ("not graded", and regraded by a resumed run).
    pub fn is_infrastructure(&self) -> bool {
        matches!(
            self,
            ProcessError::Spawn { .. }
                | ProcessError::Exhausted { .. }
                | ProcessError::Sandbox { .. }
                | ProcessError::Io { .. }
        )
    }

    /// Trouble that may pass by itself (the machine was busy): worth a retry after a pause.
    pub fn is_transient(&self) -> bool {
        match self {
            ProcessError::Exhausted { .. } => true,
            ProcessError::Sandbox { message, .. } => {
                message.contains("Resource temporarily unavailable")
                    || message.contains("Cannot allocate memory")
            }
            _ => false,
        }
    }
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Spawn { program, source } => {
                write!(f, "{program} could not be started: {source}")
            }
            ProcessError::Exhausted { what, source } => {
                write!(f, "the machine ran out of room {what}: {source}")
            }
            ProcessError::Sandbox { program, message } => {
                write!(f, "the sandbox could not run {program}: {message}")
            }
            ProcessError::Io { what, source } => write!(f, "{what}: {source}"),
            ProcessError::Exit { program, code } => write!(f, "{program} exited with code {code}"),
            ProcessError::Signal { program, signal } => {
                write!(f, "{program} was killed by signal {signal}")
            }
            ProcessError::TimedOut { program, after } => write!(
                f,
                "{program} took longer than {} s and was stopped",
                after.as_secs()
            ),
            ProcessError::OutputCap {
                program,
                stream,
                cap,
            } => write!(
                f,
                "{program} wrote more than {cap} bytes on {stream} and was stopped"
            ),
        }
    }
}

impl std::error::Error for ProcessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProcessError::Spawn { source, .. }
            | ProcessError::Exhausted { source, .. }
            | ProcessError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// For callers that still carry messages as strings (the CLI's errors).
impl From<ProcessError> for String {
    fn from(error: ProcessError) -> String {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graders_trouble_is_told_from_the_programs() {
        let eagain = std::io::Error::from_raw_os_error(libc::EAGAIN);
        let spawn = ProcessError::spawn("/scratch/worker", eagain);
        assert!(matches!(spawn, ProcessError::Exhausted { .. }));
        assert!(spawn.is_infrastructure() && spawn.is_transient());
        let missing = ProcessError::spawn("/nowhere", std::io::Error::from_raw_os_error(2));
        assert!(missing.is_infrastructure() && !missing.is_transient());
        let timed_out = ProcessError::TimedOut {
            program: "w".into(),
            after: Duration::from_secs(3),
        };
        assert!(!timed_out.is_infrastructure());
        let exit = ProcessError::Exit {
            program: "w".into(),
            code: 1,
        };
        assert!(!exit.is_infrastructure());
    }
}
