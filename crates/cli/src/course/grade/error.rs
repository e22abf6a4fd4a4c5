//! What can stop a grading session (one submission's trouble never does: it is in that
//! submission's grade), each naming the file or the setting at fault.

use super::adjustments::AdjustmentsError;
use super::export::moodle::WorksheetError;
use super::intake::error::IntakeError;
use crate::course::notebook::NotebookError;
use bpe_lab::lab::check::Exercise;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A lab's instructor source cannot be graded against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GradedNotebookError {
    /// The sources folder or a notebook in it cannot be read or released.
    Notebook(NotebookError),
    /// A check cell names an exercise the grader has no check for.
    UnknownExercise {
        path: PathBuf,
        cell: usize,
        name: String,
    },
}

impl fmt::Display for GradedNotebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradedNotebookError::Notebook(e) => e.fmt(f),
            GradedNotebookError::UnknownExercise { path, cell, name } => {
                let known: Vec<&str> = Exercise::ALL.iter().map(|e| e.name()).collect();
                write!(
                    f,
                    "{}: cell {cell}: the grader has no check for the exercise {name:?} (it has: {}); \
                     for an exercise of your own, write a test cell of Rust tests marked \
                     {{\"bpe_lab\": {{\"own_test\": {name:?}}}}} instead (docs/instructors.md, \
                     \"Your own exercises\")",
                    path.display(),
                    known.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for GradedNotebookError {}

impl From<NotebookError> for GradedNotebookError {
    fn from(e: NotebookError) -> GradedNotebookError {
        GradedNotebookError::Notebook(e)
    }
}

/// Which file of the session's output could not be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    Feedback,
    Gradebook,
    NbgraderCsv,
    CanvasCsv,
    GradescopeResults,
    MoodleWorksheet,
    MoodleFeedbackZip,
}

/// Why a grading session stopped.
#[derive(Debug)]
pub(crate) enum GradeError {
    /// The labs could not be read from the sources.
    GradedNotebook(GradedNotebookError),
    /// The sources hold no lab notebook.
    NoLabs { sources: PathBuf },
    /// The sources folder does not exist (`looked_in`: where it was looked for).
    NoSources {
        sources: PathBuf,
        looked_in: PathBuf,
    },
    /// What was given to grade cannot be taken (an instructor's mistake: nothing was written).
    Intake(IntakeError),
    /// The lab asked for is not among the sources' labs.
    UnknownLab { name: String, known: Vec<String> },
    /// No sandbox, and running unconfined was not allowed.
    Sandbox { problem: String },
    /// Executing notebooks was asked for without the sandbox.
    ExecuteUnconfined,
    /// Executing notebooks was asked for and what it needs is missing.
    Execute { problem: String },
    /// The scratch directory for workers could not be made or prepared.
    Scratch { problem: String },
    /// The instructor's adjustments file is wrong (checked before anything is written).
    Adjustments(AdjustmentsError),
    /// The Moodle worksheet given to fill cannot be read (checked before anything is written).
    MoodleWorksheet(WorksheetError),
    /// `--student` names no student of the submissions or the class.
    UnknownStudent { name: String, known: Vec<String> },
    /// An output file could not be written.
    Write {
        output: Output,
        path: PathBuf,
        error: io::Error,
    },
}

impl fmt::Display for GradeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradeError::GradedNotebook(e) => e.fmt(f),
            GradeError::NoLabs { sources } => {
                write!(
                    f,
                    "{}: no lab notebooks to grade against",
                    sources.display()
                )
            }
            GradeError::NoSources { sources, looked_in } => write!(
                f,
                "{}: no such folder (looked in {}); run from the bpe-lab checkout, or name the \
                 instructor sources (the notebooks with solutions) with --sources DIR",
                sources.display(),
                looked_in.display()
            ),
            GradeError::Intake(e) => e.fmt(f),
            GradeError::UnknownLab { name, known } => {
                write!(f, "no lab {name} (known: {})", known.join(", "))
            }
            GradeError::Sandbox { problem } => f.write_str(problem),
            GradeError::ExecuteUnconfined => {
                f.write_str("executing whole notebooks needs the sandbox: it cannot run unconfined")
            }
            GradeError::Execute { problem } => f.write_str(problem),
            GradeError::Scratch { problem } => {
                write!(f, "no scratch directory for grading: {problem}")
            }
            GradeError::Adjustments(e) => e.fmt(f),
            GradeError::MoodleWorksheet(e) => e.fmt(f),
            GradeError::UnknownStudent { name, known } => write!(
                f,
                "no submission of {name:?} among the submissions given or in the class (students: {})",
                known.join(", ")
            ),
            GradeError::Write {
                output,
                path,
                error,
            } => {
                let what = match output {
                    Output::Feedback => "the feedback",
                    Output::Gradebook => "the gradebook",
                    Output::NbgraderCsv => "the nbgrader gradebook",
                    Output::CanvasCsv => "the Canvas gradebook",
                    Output::GradescopeResults => "Gradescope's results",
                    Output::MoodleWorksheet => "the Moodle grading worksheet",
                    Output::MoodleFeedbackZip => "the Moodle feedback zip",
                };
                write!(
                    f,
                    "could not write {what} '{}': {}",
                    path.display(),
                    bpe_lab::files::describe_io_error(error)
                )
            }
        }
    }
}

impl std::error::Error for GradeError {}

impl From<IntakeError> for GradeError {
    fn from(e: IntakeError) -> GradeError {
        GradeError::Intake(e)
    }
}

impl From<GradedNotebookError> for GradeError {
    fn from(e: GradedNotebookError) -> GradeError {
        GradeError::GradedNotebook(e)
    }
}
