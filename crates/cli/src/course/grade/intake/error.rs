//! The instructor's mistakes that stop a run before anything is written, each saying what to
//! fix. (A student's file that is no notebook is never one of these: it is that student's note.)

use super::patterns::NamePatternError;
use super::roster::RosterError;
use super::zip::ZipProblem;
use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IntakeError {
    /// A path given does not exist.
    NoSuchPath {
        path: PathBuf,
    },
    /// A path given, or a folder under it, cannot be read.
    Unreadable {
        path: PathBuf,
        problem: String,
    },
    /// A zip given cannot be read as one, or is past the limits.
    Archive {
        path: PathBuf,
        problem: ZipProblem,
    },
    /// A folder or zip given holds no notebook at all.
    NoNotebooks {
        path: PathBuf,
        /// Files it holds that are no notebook, and files set aside as junk.
        other_files: usize,
        skipped: usize,
    },
    NamePattern(NamePatternError),
    Roster(RosterError),
    /// The feedback folder is, or is inside, a submissions folder: the next run would grade
    /// the feedback.
    FeedbackInSubmissions {
        feedback: PathBuf,
        submissions: PathBuf,
    },
}

impl IntakeError {
    /// Whether the machine, not the command, is at fault (a file that cannot be read).
    pub(crate) fn is_io(&self) -> bool {
        match self {
            IntakeError::Unreadable { .. } => true,
            IntakeError::Archive { problem, .. } => !problem.is_content(),
            _ => false,
        }
    }
}

impl fmt::Display for IntakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntakeError::NoSuchPath { path } => write!(
                f,
                "{}: no such file or folder; give the submissions folder, the LMS's zip \
                 download, or notebooks",
                path.display()
            ),
            IntakeError::Unreadable { path, problem } => {
                write!(f, "{}: cannot be read: {problem}", path.display())
            }
            IntakeError::Archive { path, problem } => write!(
                f,
                "{}: {problem}; download it again, or unzip it and give the folder",
                path.display()
            ),
            IntakeError::NoNotebooks {
                path,
                other_files,
                skipped,
            } => {
                write!(f, "{}: no notebooks (*.ipynb) in it", path.display())?;
                if *other_files + *skipped > 0 {
                    write!(
                        f,
                        " ({other_files} other file(s), {skipped} set aside as junk)"
                    )?;
                }
                f.write_str("; is this the folder or zip of the submissions?")
            }
            IntakeError::NamePattern(e) => e.fmt(f),
            IntakeError::Roster(e) => e.fmt(f),
            IntakeError::FeedbackInSubmissions {
                feedback,
                submissions,
            } => write!(
                f,
                "{} is inside the submissions {}: the next run would grade the feedback; \
                 choose a feedback folder outside it",
                feedback.display(),
                submissions.display()
            ),
        }
    }
}

impl std::error::Error for IntakeError {}
