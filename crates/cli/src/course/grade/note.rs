//! What the grader tells a student beside the points: why a submission could not be graded,
//! what restoring changed, what the judge left out, how executing went. The words live in
//! each variant's `Display`; "could not be graded" is written here once.

use super::intake::note::IntakeNote;
use super::intake::text::Place;
use crate::course::judge::CellNote;
use crate::course::restore::Restoration;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// Why a submission got no points at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Ungradable {
    /// The file could not be read.
    Unreadable { error: String },
    /// The file is not a notebook (not JSON, no cells, …).
    NotANotebook { problem: String },
    /// Its metadata names a lab not graded here.
    UnknownLab { named: String, known: Vec<String> },
    /// No lab name in its metadata and too few known cell ids.
    NoLab,
    /// It is another lab's notebook than the one asked for.
    WrongLab { found: String, expected: String },
    /// The grader could not make or prepare a scratch directory for it.
    Scratch { dir: PathBuf, problem: String },
}

/// Whose doing it was that something could not be graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Whose {
    /// The grader's own trouble (its files, its scratch space, the machine): never a mark
    /// against the student, and a resumed run grades it again.
    Grader,
    /// The submission itself (not a notebook, another lab's): grading it again changes
    /// nothing until the student sends another file.
    Submission,
}

impl Ungradable {
    /// Whose doing it is: reading the file and making scratch space are the grader's work.
    pub(crate) fn whose(&self) -> Whose {
        match self {
            Ungradable::Unreadable { .. } | Ungradable::Scratch { .. } => Whose::Grader,
            Ungradable::NotANotebook { .. }
            | Ungradable::UnknownLab { .. }
            | Ungradable::NoLab
            | Ungradable::WrongLab { .. } => Whose::Submission,
        }
    }
}

impl fmt::Display for Ungradable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ungradable::Unreadable { error } => f.write_str(error),
            Ungradable::NotANotebook { problem } => f.write_str(problem),
            Ungradable::UnknownLab { named, known } => write!(
                f,
                "this is the notebook of lab {named}, which is not one of the labs graded here ({})",
                known.join(", ")
            ),
            Ungradable::NoLab => f.write_str(
                "this notebook is none of the labs (no lab name in its metadata, too few known cell ids)",
            ),
            Ungradable::WrongLab { found, expected } => {
                write!(f, "this is the notebook of lab {found}, not {expected}")
            }
            Ungradable::Scratch { dir, problem } => write!(
                f,
                "the grader could not make its scratch directory in {}: {problem}",
                dir.display()
            ),
        }
    }
}

/// One note on a graded submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum GradeNote {
    NotGraded(Ungradable),
    Restored(Restoration),
    Cell(CellNote),
    /// How running the restored notebook with the real kernel went (`--execute`).
    Executed {
        summary: String,
    },
    /// Why it could not be run (`--execute`).
    NotExecuted {
        problem: String,
    },
    /// It was made from the self-study edition, which shows the solutions: in a graded
    /// course, a sign the wrong edition was handed out (the grade itself is as judged).
    SelfStudyEdition,
    /// What the intake found out: several files, other files, late, not on the roster.
    Intake(IntakeNote),
    /// A roster student who handed nothing in: no file, no points, nothing to grade.
    NoSubmission,
    /// Bytes that are not UTF-8 were read as U+FFFD, at these lines (none: outside the cells).
    NotUtf8 {
        places: Vec<Place>,
    },
}

impl fmt::Display for GradeNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GradeNote::NotGraded(why) => write!(f, "could not be graded: {why}"),
            GradeNote::Restored(change) => change.fmt(f),
            GradeNote::Cell(note) => note.fmt(f),
            GradeNote::Executed { summary } => f.write_str(summary),
            GradeNote::NotExecuted { problem } => f.write_str(problem),
            GradeNote::SelfStudyEdition => f.write_str(
                "this notebook is the self-study edition, which shows the solutions under each \
                 check; a graded course hands out the graded edition",
            ),
            GradeNote::Intake(note) => note.fmt(f),
            GradeNote::NoSubmission => f.write_str("no submission"),
            GradeNote::NotUtf8 { places } => {
                f.write_str(
                    "some bytes are not UTF-8 (an editor saving in Latin-1?) and were read as \u{fffd}",
                )?;
                if places.is_empty() {
                    f.write_str(" outside the cells")
                } else {
                    let at: Vec<String> = places.iter().map(Place::to_string).collect();
                    write!(f, " at {}", at.join("; "))
                }
            }
        }
    }
}
