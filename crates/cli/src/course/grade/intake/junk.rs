//! What is in a download but is no one's submission: the files an operating system, Jupyter or
//! the LMS itself leaves beside the students' files. They are skipped and listed in the run's
//! output, never taken for a student.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a file or folder of the download was not taken as anyone's submission.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Skip {
    /// `__MACOSX/`: the resource forks macOS's Archive Utility puts in every zip it makes.
    MacArchiveFolder,
    /// `._name`: an AppleDouble file (macOS metadata of `name`).
    AppleDouble,
    /// `.DS_Store`: Finder's folder settings.
    DsStore,
    /// `Thumbs.db`, `desktop.ini`: Windows Explorer's caches.
    WindowsCache,
    /// `.ipynb_checkpoints/`: Jupyter's autosaves, older than the notebook beside them.
    Checkpoints,
    /// The LMS's receipt of a submission (Blackboard's `…_attempt_….txt`).
    Receipt { lms: String },
    /// nbgrader's `timestamp.txt`: read for the submission time, not graded.
    NbgraderTimestamp,
    /// A file at the top of a download, in no student's folder, that is no notebook.
    Loose,
    /// `--name-pattern` does not match its path.
    NoMatch,
    /// The student the name gives could not be a folder name (empty, `.`, `..`).
    NoStudent { given: String },
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::MacArchiveFolder => f.write_str("macOS archive metadata (__MACOSX)"),
            Skip::AppleDouble => f.write_str("macOS metadata of another file (._*)"),
            Skip::DsStore => f.write_str("macOS Finder settings (.DS_Store)"),
            Skip::WindowsCache => f.write_str("Windows Explorer cache"),
            Skip::Checkpoints => f.write_str("Jupyter autosaves (.ipynb_checkpoints)"),
            Skip::Receipt { lms } => write!(f, "{lms}'s submission receipt"),
            Skip::NbgraderTimestamp => f.write_str("nbgrader's submission time (read, not graded)"),
            Skip::Loose => f.write_str("not a notebook, and in no student's folder"),
            Skip::NoMatch => f.write_str("its path does not match --name-pattern"),
            Skip::NoStudent { given } => {
                write!(
                    f,
                    "the student its name gives ({given:?}) cannot be a folder name"
                )
            }
        }
    }
}

impl Skip {
    /// Whether the whole folder named `name` is junk (then nothing under it is looked at).
    pub(crate) fn folder(name: &str) -> Option<Skip> {
        match name {
            "__MACOSX" => Some(Skip::MacArchiveFolder),
            ".ipynb_checkpoints" => Some(Skip::Checkpoints),
            _ => None,
        }
    }

    /// Whether the file named `name` is junk, whatever folder it is in.
    pub(crate) fn file(name: &str) -> Option<Skip> {
        let lower = name.to_ascii_lowercase();
        if name.starts_with("._") {
            Some(Skip::AppleDouble)
        } else if name == ".DS_Store" {
            Some(Skip::DsStore)
        } else if lower == "thumbs.db" || lower == "desktop.ini" || lower == "ehthumbs.db" {
            Some(Skip::WindowsCache)
        } else if name == "timestamp.txt" {
            Some(Skip::NbgraderTimestamp)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junk_is_known_by_name_and_notebooks_are_not_junk() {
        assert_eq!(Skip::folder("__MACOSX"), Some(Skip::MacArchiveFolder));
        assert_eq!(Skip::folder(".ipynb_checkpoints"), Some(Skip::Checkpoints));
        assert_eq!(Skip::folder("ana"), None);
        assert_eq!(Skip::file("._03-merge.ipynb"), Some(Skip::AppleDouble));
        assert_eq!(Skip::file(".DS_Store"), Some(Skip::DsStore));
        assert_eq!(Skip::file("Thumbs.db"), Some(Skip::WindowsCache));
        assert_eq!(Skip::file("03-merge.ipynb"), None);
        assert_eq!(Skip::file("_03-merge.ipynb"), None);
    }
}
