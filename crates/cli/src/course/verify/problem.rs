//! What can be wrong with a verified notebook, one variant per kind, worded in one place.

use crate::course::notebook::{CellRef, NotebookError};
use crate::course::run_local::RunError;
use bpe_lab::lab::check::Status;
use std::fmt;
use std::path::PathBuf;

/// One thing wrong with a notebook's run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Problem {
    /// The notebook (or its executed copy) could not be read.
    Notebook(NotebookError),
    /// The folder for the executed copy could not be made.
    WorkDir { dir: PathBuf, error: String },
    /// The kernel could not run it.
    Run(RunError),
    /// The runner stopped before the end.
    Stopped { reason: String },
    /// A cell timed out or never ran.
    CellNotRun {
        cell: CellRef,
        what: &'static str,
        reason: Option<String>,
    },
    /// A cell has an error output.
    ErrorOutput { cell: CellRef, error: String },
    /// A cell printed a panic.
    PanicText { cell: CellRef, panic: String },
    /// A check said something else than its version must show.
    WrongResult {
        cell: CellRef,
        exercise: String,
        found: Option<Status>,
        expected: Status,
        message: Option<String>,
    },
    /// A check result in a cell that is not a check cell.
    StrayResult { cell: CellRef },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Notebook(e) => e.fmt(f),
            Problem::WorkDir { dir, error } => write!(f, "{}: {error}", dir.display()),
            Problem::Run(e) => e.fmt(f),
            Problem::Stopped { reason } => write!(f, "the run stopped early: {reason}"),
            Problem::CellNotRun { cell, what, reason } => {
                write!(f, "{cell}: {what}")?;
                match reason {
                    Some(r) => write!(f, " ({r})"),
                    None => Ok(()),
                }
            }
            Problem::ErrorOutput { cell, error } => write!(f, "{cell}: error output: {error}"),
            Problem::PanicText { cell, panic } => write!(f, "{cell}: panic text: {panic}"),
            Problem::WrongResult {
                cell,
                exercise,
                found,
                expected,
                message,
            } => {
                write!(
                    f,
                    "{cell}: check {exercise} says {} (expected {})",
                    found.map_or("nothing", Status::as_str),
                    expected.as_str()
                )?;
                match message {
                    Some(m) => write!(f, ": {m}"),
                    None => Ok(()),
                }
            }
            Problem::StrayResult { cell } => write!(
                f,
                "{cell}: a check result outside a check cell (mark the cell with metadata.bpe_lab.exercise)"
            ),
        }
    }
}
