//! A submission to grade: whose it is, the file as the instructor knows it, and where its bytes
//! are — a file on disk, an entry of a zip (through zips inside it), or nothing at all (a roster
//! student who handed nothing in). [`super::intake`] finds them.

use super::intake::note::IntakeNote;
use super::intake::zip::{MAX_ENTRY_BYTES, read_chain};
use super::lateness::Submitted;
use super::note::Ungradable;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where a submission's bytes are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Source {
    /// The file at the submission's `file`.
    #[default]
    Disk,
    /// An entry of the zip `archive` on disk: `entries` names it, each name but the last a zip
    /// inside the one before.
    Archive {
        archive: PathBuf,
        entries: Vec<String>,
    },
    /// Nothing was handed in.
    Absent,
}

impl Source {
    fn is_disk(&self) -> bool {
        *self == Source::Disk
    }
}

/// A submission found: whose it is, its file, and what the intake has to say about it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Submission {
    pub(crate) student: String,
    /// As shown in the gradebook: a path, or a zip's path followed by the path inside it.
    pub(crate) file: PathBuf,
    /// The student's name when the download or the roster gives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// Other ids of the student the file name gave (for the roster).
    #[serde(skip)]
    pub(crate) aliases: Vec<String>,
    #[serde(default, skip_serializing_if = "Source::is_disk")]
    pub(crate) source: Source,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<IntakeNote>,
    /// When it was handed in, as far as the download says ([`super::lateness`]).
    #[serde(default)]
    pub(crate) submitted: Submitted,
}

impl Submission {
    /// Whether nothing was handed in.
    pub(crate) fn is_absent(&self) -> bool {
        self.source == Source::Absent
    }

    /// The submitted bytes. A file past the size any notebook has, or a zip entry that cannot
    /// be unpacked, is the submission's trouble; a file that cannot be read, the grader's.
    pub(crate) fn read(&self) -> Result<Vec<u8>, Ungradable> {
        let too_large = || Ungradable::NotANotebook {
            problem: format!(
                "not a notebook: larger than the {} MiB a notebook may be",
                MAX_ENTRY_BYTES >> 20
            ),
        };
        match &self.source {
            Source::Disk => {
                let unreadable = |e: std::io::Error| Ungradable::Unreadable {
                    error: bpe_lab::files::describe_io_error(&e),
                };
                if std::fs::metadata(&self.file).map_err(unreadable)?.len() > MAX_ENTRY_BYTES {
                    return Err(too_large());
                }
                std::fs::read(&self.file).map_err(unreadable)
            }
            Source::Archive { archive, entries } => {
                read_chain(archive, entries).map_err(|problem| {
                    if problem.is_content() {
                        Ungradable::NotANotebook {
                            problem: format!("not a notebook: {problem}"),
                        }
                    } else {
                        Ungradable::Unreadable {
                            error: format!("{}: {problem}", archive.display()),
                        }
                    }
                })
            }
            Source::Absent => Err(Ungradable::Unreadable {
                error: "nothing was handed in".to_owned(),
            }),
        }
    }
}

/// A file's name without its extension.
pub(crate) fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}
