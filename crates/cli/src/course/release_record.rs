//! What a release keeps of itself, so that grading compares a protected cell with the version
//! the student received and not only with today's: after an instructor fixes a typo in a
//! protected cell and releases again, the students who hold the first release did not "edit"
//! that cell.
//!
//! Each student version names its release in `metadata.bpe_lab.release`: a digest of its
//! protected cells (their `grade_id`, type and source). `lab release` keeps those cells in
//! `<sources>/releases/<lab>/<digest>.json` the first time it writes that release, beside the
//! instructor sources it came from, so the instructor's repository commits them with the
//! sources and grading finds every release ever handed out.

use super::crate_path::with_relative_crate;
use super::notebook::{Notebook, NotebookError, grade_id, is_locked, source};
use bpe_lab::files::{describe_io_error, write_atomically};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The folder, inside the instructor sources folder, that keeps the releases.
pub(crate) const RELEASES_DIR: &str = "releases";

/// A protected cell as a release wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ProtectedCell {
    pub(crate) grade_id: String,
    pub(crate) cell_type: String,
    /// The source as lines, as Jupyter stores it, so a record diffs line by line.
    pub(crate) source: Vec<String>,
}

impl ProtectedCell {
    pub(crate) fn text(&self) -> String {
        self.source.concat()
    }
}

/// One release of a lab: its digest and its protected cells, in notebook order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReleaseRecord {
    pub(crate) lab: String,
    pub(crate) release: String,
    pub(crate) cells: Vec<ProtectedCell>,
}

impl ReleaseRecord {
    /// The release `student` (a student version of `lab`) is: its protected cells and their
    /// digest.
    pub(crate) fn of(lab: &str, student: &Notebook) -> ReleaseRecord {
        let cells: Vec<ProtectedCell> = student
            .cells()
            .iter()
            .filter(|c| is_locked(c))
            .map(|c| ProtectedCell {
                grade_id: grade_id(c).unwrap_or_default().to_owned(),
                cell_type: c["cell_type"].as_str().unwrap_or_default().to_owned(),
                source: source(c).split_inclusive('\n').map(str::to_owned).collect(),
            })
            .collect();
        ReleaseRecord {
            lab: lab.to_owned(),
            release: digest(&cells),
            cells,
        }
    }

    /// This release's cell `grade_id`, if it had one.
    pub(crate) fn cell(&self, grade_id: &str) -> Option<&ProtectedCell> {
        self.cells.iter().find(|c| c.grade_id == grade_id)
    }

    /// Where the record is kept for the sources in `sources_dir`.
    pub(crate) fn path(&self, sources_dir: &Path) -> PathBuf {
        lab_dir(sources_dir, &self.lab).join(format!("{}.json", self.release))
    }

    /// Keeps the record unless it is kept already; true when it was written now.
    pub(crate) fn keep(&self, sources_dir: &Path) -> Result<bool, NotebookError> {
        let path = self.path(sources_dir);
        if path.is_file() {
            return Ok(false);
        }
        let fail = |e: std::io::Error| NotebookError {
            path: path.clone(),
            problem: describe_io_error(&e),
        };
        std::fs::create_dir_all(path.parent().unwrap_or(sources_dir)).map_err(fail)?;
        let mut text = serde_json::to_string_pretty(self).expect("records serialize");
        text.push('\n');
        write_atomically(&path, |w| w.write_all(text.as_bytes())).map_err(fail)?;
        Ok(true)
    }
}

/// The releases folder of one lab.
fn lab_dir(sources_dir: &Path, lab: &str) -> PathBuf {
    sources_dir.join(RELEASES_DIR).join(lab)
}

/// A digest of protected cells: 16 hex digits of SHA-256 over each cell's `grade_id`, type and
/// source (with the crate's path as released, so an nbgrader-made notebook names the release
/// it was made from).
fn digest(cells: &[ProtectedCell]) -> String {
    let canonical: Vec<(&str, &str, String)> = cells
        .iter()
        .map(|c| {
            let text = c.text();
            (c.grade_id.as_str(), c.cell_type.as_str(), comparable(&text))
        })
        .collect();
    let json = serde_json::to_string(&canonical).expect("strings serialize");
    Sha256::digest(json.as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A protected cell's source as releases are compared: what a release itself varies (the
/// crate's path, by [`with_relative_crate`]) put back.
pub(crate) fn comparable(text: &str) -> String {
    with_relative_crate(text).into_owned()
}

/// Whether two protected sources are the same cell as released.
pub(crate) fn same_source(a: &str, b: &str) -> bool {
    a == b || with_relative_crate(a) == with_relative_crate(b)
}

/// The release a student version names (`metadata.bpe_lab.release`).
pub(crate) fn named_release(nb: &Notebook) -> Option<&str> {
    nb.json["metadata"]["bpe_lab"]["release"].as_str()
}

/// Every release of `lab` kept in `sources_dir`, oldest name first (none: no folder yet).
pub(crate) fn kept(sources_dir: &Path, lab: &str) -> Result<Vec<ReleaseRecord>, NotebookError> {
    let dir = lab_dir(sources_dir, lab);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(NotebookError {
                path: dir,
                problem: describe_io_error(&e),
            });
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths.iter().map(|p| read_record(p, lab)).collect()
}

fn read_record(path: &Path, lab: &str) -> Result<ReleaseRecord, NotebookError> {
    let fail = |problem: String| NotebookError {
        path: path.to_owned(),
        problem,
    };
    let bytes = std::fs::read(path).map_err(|e| fail(describe_io_error(&e)))?;
    let record: ReleaseRecord = serde_json::from_slice(&bytes).map_err(|e| {
        fail(format!(
            "not a release record (line {}, column {}: {e}); `bpe-lab lab release` writes them",
            e.line(),
            e.column()
        ))
    })?;
    if record.lab != lab {
        return Err(fail(format!(
            "a release record of lab {:?} in the folder of lab {lab:?}",
            record.lab
        )));
    }
    Ok(record)
}

/// The releases grading knows of one lab: today's and the ones kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Releases {
    pub(crate) current: ReleaseRecord,
    /// Earlier releases (today's may be among them too).
    pub(crate) kept: Vec<ReleaseRecord>,
}

impl Releases {
    /// Only today's release (no record kept).
    #[cfg(test)]
    pub(crate) fn current_only(current: ReleaseRecord) -> Releases {
        Releases {
            current,
            kept: Vec::new(),
        }
    }

    /// The release called `digest`, when known.
    pub(crate) fn named(&self, digest: &str) -> Option<&ReleaseRecord> {
        std::iter::once(&self.current)
            .chain(&self.kept)
            .find(|r| r.release == digest)
    }

    /// Every known release, today's first.
    pub(crate) fn all(&self) -> impl Iterator<Item = &ReleaseRecord> {
        std::iter::once(&self.current).chain(&self.kept)
    }

    /// Every source the protected cell `grade_id` had in a known release.
    pub(crate) fn versions<'a>(&'a self, grade_id: &'a str) -> impl Iterator<Item = String> + 'a {
        self.all()
            .filter_map(move |r| r.cell(grade_id))
            .map(ProtectedCell::text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn student(title: &str, setup: &str) -> Notebook {
        let locked = json!({"nbgrader": {"locked": true}});
        let mut nb = Notebook {
            json: json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
                {"cell_type": "markdown", "id": "t", "metadata": locked, "source": title},
                {"cell_type": "code", "id": "s", "metadata": locked, "source": setup, "outputs": [], "execution_count": null},
                {"cell_type": "code", "id": "x", "metadata": {"nbgrader": {"locked": false}}, "source": "todo!()", "outputs": [], "execution_count": null}
            ]}),
        };
        for cell in nb.cells_mut() {
            let id = cell["id"].clone();
            cell["metadata"]["nbgrader"]["grade_id"] = id;
        }
        nb
    }

    const SETUP: &str = ":dep bpe-lab = { path = \"..\" }";

    #[test]
    fn a_release_is_its_protected_cells_and_a_typo_fix_is_another_release() {
        let first = ReleaseRecord::of("03-x", &student("# Titel", SETUP));
        assert_eq!(
            first
                .cells
                .iter()
                .map(|c| &c.grade_id[..])
                .collect::<Vec<_>>(),
            ["t", "s"]
        );
        assert_eq!(first.release.len(), 16);
        let fixed = ReleaseRecord::of("03-x", &student("# Title", SETUP));
        assert_ne!(first.release, fixed.release);
        // The crate's path is the release's own variation, not another release.
        let nbgrader = ReleaseRecord::of(
            "03-x",
            &student(
                "# Titel",
                ":dep bpe-lab = { path = \"/opt/course/bpe-lab\" }",
            ),
        );
        assert_eq!(first.release, nbgrader.release);
        assert!(same_source(SETUP, &nbgrader.cells[1].text()));
        assert!(!same_source("# Titel", "# Title"));
    }

    #[test]
    fn records_are_kept_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let first = ReleaseRecord::of("03-x", &student("# Titel", SETUP));
        let fixed = ReleaseRecord::of("03-x", &student("# Title", SETUP));
        assert_eq!(kept(dir.path(), "03-x").unwrap(), []);
        assert!(first.keep(dir.path()).unwrap());
        assert!(!first.keep(dir.path()).unwrap());
        assert!(fixed.keep(dir.path()).unwrap());
        let mut read = kept(dir.path(), "03-x").unwrap();
        read.sort_by(|a, b| a.cells[0].source.cmp(&b.cells[0].source));
        assert_eq!(read, [first.clone(), fixed.clone()]);
        let releases = Releases {
            current: fixed,
            kept: read,
        };
        assert_eq!(
            releases.named(&first.release).map(|r| r.cells[0].text()),
            Some("# Titel".to_owned())
        );
        assert_eq!(
            releases.versions("t").collect::<Vec<_>>(),
            ["# Title", "# Titel", "# Title"]
        );
    }

    #[test]
    fn a_broken_record_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let lab_dir = dir.path().join(RELEASES_DIR).join("03-x");
        std::fs::create_dir_all(&lab_dir).unwrap();
        std::fs::write(lab_dir.join("bad.json"), "{").unwrap();
        let err = kept(dir.path(), "03-x").unwrap_err();
        assert!(err.path.ends_with("bad.json"), "{err}");
        assert!(err.problem.contains("not a release record"), "{err}");
    }
}
