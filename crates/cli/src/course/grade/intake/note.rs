//! What the intake tells beside a grade: which of several files was graded and why, what else
//! was handed in, what the LMS said about it (late), and whether the roster knows the student.

use super::latest::Decider;
use super::patterns::Lms;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "intake")]
pub(crate) enum IntakeNote {
    /// Several files for this lab: the latest was graded, `others` were not.
    Latest {
        others: Vec<String>,
        decided_by: Decider,
    },
    /// Files handed in beside the notebooks that are none; not graded.
    AlsoHandedIn { files: Vec<String> },
    /// The LMS marked the submission late.
    Late { lms: Lms },
    /// `--roster` does not list the student: graded all the same, and flagged.
    NotOnRoster,
}

impl fmt::Display for IntakeNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntakeNote::Latest { others, decided_by } => write!(
                f,
                "{} files were handed in for this lab and the latest was graded ({decided_by}); \
                 not graded: {}",
                others.len() + 1,
                others.join(", ")
            ),
            IntakeNote::AlsoHandedIn { files } => write!(
                f,
                "also handed in, not a notebook, not graded: {}",
                files.join(", ")
            ),
            IntakeNote::Late { lms } => write!(f, "{lms} marked this submission late"),
            IntakeNote::NotOnRoster => f.write_str("not on the roster"),
        }
    }
}
