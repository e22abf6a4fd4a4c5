//! What verifying one notebook found: per exercise what its check said, and the problems.

use super::problem::Problem;
use bpe_lab::lab::check::Status;
use std::path::PathBuf;

/// Which version of a notebook ran, and so what its checks must say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// Instructor source: every check `passed`.
    Source,
    /// Student version: every check `not_implemented`.
    Student,
}

impl Version {
    pub(crate) fn expected(self) -> Status {
        match self {
            Version::Source => Status::Passed,
            Version::Student => Status::NotImplemented,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Version::Source => "source",
            Version::Student => "student",
        }
    }
}

/// One exercise's check in one run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExerciseOutcome {
    pub(crate) exercise: String,
    /// What the check said; `None` when the cell produced no result.
    pub(crate) status: Option<Status>,
    pub(crate) seconds: f64,
    pub(crate) ok: bool,
}

/// One notebook's run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NotebookOutcome {
    pub(crate) notebook: PathBuf,
    pub(crate) version: Version,
    pub(crate) seconds: f64,
    pub(crate) exercises: Vec<ExerciseOutcome>,
    /// Everything that went wrong; empty when the notebook verified.
    pub(crate) problems: Vec<Problem>,
    /// The executed copy.
    pub(crate) executed: PathBuf,
    /// With `html`: whether nbconvert rendered the executed copy (beside it, `.html`).
    pub(crate) html: Option<bool>,
}

impl NotebookOutcome {
    pub(crate) fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}
