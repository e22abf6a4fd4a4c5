//! What verifying one notebook found: per exercise what its check said, and the problems.

use super::problem::Problem;
use bpe_lab::lab::check::Status;
use std::path::PathBuf;

/// Which version of a notebook ran, and so what its checks must say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// Instructor source: every check `passed`.
    Source,
    /// Student version: every check `not_implemented`.
    Student,
}

impl Version {
    pub fn expected(self) -> Status {
        match self {
            Version::Source => Status::Passed,
            Version::Student => Status::NotImplemented,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Version::Source => "source",
            Version::Student => "student",
        }
    }
}

/// One exercise's check in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseOutcome {
    pub exercise: String,
    /// What the check said; `None` when the cell produced no result.
    pub status: Option<Status>,
    pub seconds: f64,
    pub ok: bool,
}

/// One notebook's run.
#[derive(Debug, Clone, PartialEq)]
pub struct NotebookOutcome {
    pub notebook: PathBuf,
    pub version: Version,
    pub seconds: f64,
    pub exercises: Vec<ExerciseOutcome>,
    /// Everything that went wrong; empty when the notebook verified.
    pub problems: Vec<Problem>,
    /// The executed copy.
    pub executed: PathBuf,
    /// With `html`: whether nbconvert rendered the executed copy (beside it, `.html`).
    pub html: Option<bool>,
}

impl NotebookOutcome {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}
