//! Putting a submission back into shape before grading: protected cells (everything but the
//! solution cells) come from the release the student received — edited ones are reverted,
//! deleted ones re-inserted — and the student's own added cells stay where they were. Which
//! submitted cell is which released one is [`match_cells`]'s answer (what the release wrote
//! into the cell, then its content), never a Jupyter cell id alone.
//!
//! A protected cell is compared with the release the notebook names
//! (`metadata.bpe_lab.release`, [`crate::course::release_record`]): after a re-release, a
//! student holding the first one did not edit the cells it changed. When the release is not
//! known (a Jupyter dropped the notebook's metadata, or the record was never kept), a cell
//! counts as edited only when it matches none of the known releases.

use super::cell_match::{Found, Recognised, match_cells};
use super::notebook::{Notebook, cell_id, clear_outputs, grade_id, is_locked, set_source, source};
use super::release_record::{ReleaseRecord, Releases, named_release, same_source};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// One change restoring made, for the student's feedback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Restoration {
    /// A protected cell the student deleted was put back.
    Reinserted { cell: String },
    /// A protected cell the student edited was reverted.
    Reverted { cell: String },
    /// A solution cell the student deleted was put back as released (not implemented).
    SolutionPutBack { cell: String },
    /// This many released cells had lost the metadata the release wrote into them and were
    /// recognised by their content or place instead.
    RecognisedByContent { cells: usize },
}

impl fmt::Display for Restoration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Restoration::Reinserted { cell } => write!(f, "re-inserted the deleted cell {cell:?}"),
            Restoration::Reverted { cell } => {
                write!(f, "undid the edits to the protected cell {cell:?}")
            }
            Restoration::SolutionPutBack { cell } => write!(
                f,
                "the exercise cell {cell:?} was deleted: put back as given (not implemented)"
            ),
            Restoration::RecognisedByContent { cells } => write!(
                f,
                "{cells} cell(s) had lost the metadata the release wrote into them (their \
                 nbgrader grade_id): they were recognised by their content and place instead"
            ),
        }
    }
}

/// The submission restored against `released` (today's student version; `releases` the
/// lab's known releases), outputs dropped, with a note per change. Cells come in the released
/// order; cells the student added follow the cell they followed in the submission.
pub(crate) fn restore(
    submission: &Notebook,
    released: &Notebook,
    releases: &Releases,
) -> (Notebook, Vec<Restoration>) {
    let found = match_cells(submission.cells(), released.cells(), releases);
    let received = named_release(submission).and_then(|d| releases.named(d));
    let mut notes = Vec::new();
    let by_content = found
        .iter()
        .flatten()
        .filter(|f| f.how != Recognised::ByMetadata)
        .count();
    if by_content > 0 {
        notes.push(Restoration::RecognisedByContent { cells: by_content });
    }
    let is: HashMap<usize, usize> = found
        .iter()
        .enumerate()
        .filter_map(|(r, f)| f.map(|Found { submitted, .. }| (submitted, r)))
        .collect();
    // Added cells, keyed by the released cell they follow (None: before any).
    let mut added: HashMap<Option<usize>, Vec<Value>> = HashMap::new();
    let mut anchor: Option<usize> = None;
    for (s, cell) in submission.cells().iter().enumerate() {
        match is.get(&s) {
            Some(&r) => anchor = Some(r),
            None => added.entry(anchor).or_default().push(cell.clone()),
        }
    }
    let mut ids = AddedIds::new(released);
    let mut cells: Vec<Value> = Vec::new();
    let mut extend = |cells: &mut Vec<Value>, extra: Option<Vec<Value>>| {
        for cell in extra.unwrap_or_default() {
            cells.push(ids.own(cell));
        }
    };
    extend(&mut cells, added.remove(&None));
    for (r, original) in released.cells().iter().enumerate() {
        let student = found[r].map(|f| &submission.cells()[f.submitted]);
        let (cell, change) = restored_cell(original, student, received, releases);
        notes.extend(change);
        cells.push(cell);
        extend(&mut cells, added.remove(&Some(r)));
    }
    for cell in &mut cells {
        clear_outputs(cell);
    }
    let mut restored = submission.clone();
    restored.json["cells"] = Value::Array(cells);
    restored.json["metadata"] = released.json["metadata"].clone();
    restored.json["nbformat_minor"] = released.json["nbformat_minor"].clone();
    (restored, notes)
}

/// Ids for the student's own cells that no other cell of the restored notebook has: their
/// own when it is free and valid (nbformat 4.5), else `added-<n>`. A Notebook 6 save has none,
/// and a cell a student copied may carry a released cell's — which would make it that cell
/// for everything that looks a cell up by id later.
struct AddedIds {
    used: HashSet<String>,
    next: usize,
}

impl AddedIds {
    fn new(released: &Notebook) -> AddedIds {
        AddedIds {
            used: released
                .cells()
                .iter()
                .filter_map(cell_id)
                .map(str::to_owned)
                .collect(),
            next: 1,
        }
    }

    /// The student's cell, with a free id and no release metadata (it protects nothing).
    fn own(&mut self, mut cell: Value) -> Value {
        let valid = |id: &str| {
            (1..=64).contains(&id.len())
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        let id = match cell_id(&cell) {
            Some(id) if valid(id) && !self.used.contains(id) => id.to_owned(),
            _ => loop {
                let id = format!("added-{}", self.next);
                self.next += 1;
                if !self.used.contains(&id) {
                    break id;
                }
            },
        };
        self.used.insert(id.clone());
        cell["id"] = Value::String(id);
        if let Some(meta) = cell["metadata"].as_object_mut() {
            meta.remove("nbgrader");
        }
        cell
    }
}

/// One released cell as it goes into the restored notebook: a protected cell as the student
/// received it, a solution cell with the student's source; and what changed, if anything.
fn restored_cell(
    original: &Value,
    student: Option<&Value>,
    received: Option<&ReleaseRecord>,
    releases: &Releases,
) -> (Value, Option<Restoration>) {
    let name = grade_id(original)
        .or_else(|| cell_id(original))
        .unwrap_or_default()
        .to_owned();
    if is_locked(original) {
        let as_received = received.and_then(|r| r.cell(&name)).map(|c| c.text());
        let mut cell = original.clone();
        if let Some(text) = as_received.as_ref().filter(|t| **t != source(original)) {
            set_source(&mut cell, text);
        }
        let change = match student {
            None if !absent_from_a_release(&name, received, releases) => {
                Some(Restoration::Reinserted { cell: name })
            }
            None => None,
            Some(s) if edited(s, original, as_received.as_deref(), &name, releases) => {
                Some(Restoration::Reverted { cell: name })
            }
            Some(_) => None,
        };
        return (cell, change);
    }
    match student {
        Some(s) => {
            let mut restored = original.clone();
            restored["source"] = s["source"].clone();
            (restored, None)
        }
        None => (
            original.clone(),
            Some(Restoration::SolutionPutBack { cell: name }),
        ),
    }
}

/// Whether a protected cell was missing from the student's release (their release known) or
/// from some known release (not known): then its absence is not the student's deletion.
fn absent_from_a_release(
    name: &str,
    received: Option<&ReleaseRecord>,
    releases: &Releases,
) -> bool {
    match received {
        Some(r) => r.cell(name).is_none(),
        None => releases.all().any(|r| r.cell(name).is_none()),
    }
}

/// Whether the student's copy of a protected cell differs from what they received: that
/// release's source when known, else every known release's (and today's).
fn edited(
    student: &Value,
    original: &Value,
    as_received: Option<&str>,
    name: &str,
    releases: &Releases,
) -> bool {
    if student["cell_type"] != original["cell_type"] {
        return true;
    }
    let text = source(student);
    match as_received {
        Some(received) => !same_source(&text, received),
        None => {
            !same_source(&text, &source(original))
                && releases.versions(name).all(|v| !same_source(&text, &v))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    fn cell(id: &str, text: &str, locked: bool) -> Value {
        json!({"cell_type": "code", "id": id, "source": text, "outputs": [{"output_type": "stream", "name": "stdout", "text": "x"}], "execution_count": 3,
               "metadata": {"nbgrader": {"grade_id": id, "locked": locked}}})
    }

    fn nb(cells: Vec<Value>) -> Notebook {
        let text =
            json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).to_string();
        Notebook::parse(text.as_bytes(), Path::new("t.ipynb")).unwrap()
    }

    /// The lab's release as a student receives it: it names itself.
    fn release(cells: Vec<Value>) -> (Notebook, ReleaseRecord) {
        let mut released = nb(cells);
        let record = ReleaseRecord::of("x", &released);
        released.json["metadata"]["bpe_lab"] = json!({"lab": "x", "release": record.release});
        (released, record)
    }

    fn only(record: &ReleaseRecord) -> Releases {
        Releases::current_only(record.clone())
    }

    fn sources(nb: &Notebook) -> Vec<String> {
        nb.cells().iter().map(source).collect()
    }

    #[test]
    fn restores_edits_and_deletions_and_keeps_added_cells() {
        let (released, record) = release(vec![
            cell("setup", "setup", true),
            cell("solution", "todo!()", false),
            cell("check", "check(f);", true),
        ]);
        let submission = nb(vec![
            cell("mine", "let a = 1;", false),
            cell("solution", "fn f() {}", false),
            cell("scratch", "f();", false),
            cell("check", "print_fake_pass();", true),
        ]);
        let (restored, notes) = restore(&submission, &released, &only(&record));
        let ids: Vec<&str> = restored.cells().iter().filter_map(cell_id).collect();
        assert_eq!(ids, ["mine", "setup", "solution", "scratch", "check"]);
        assert_eq!(source(&restored.cells()[2]), "fn f() {}");
        assert_eq!(source(&restored.cells()[4]), "check(f);");
        assert_eq!(
            notes,
            [
                Restoration::Reinserted {
                    cell: "setup".into()
                },
                Restoration::Reverted {
                    cell: "check".into()
                }
            ]
        );
        assert_eq!(
            notes[0].to_string(),
            "re-inserted the deleted cell \"setup\""
        );
        assert!(restored.cells().iter().all(|c| c["outputs"] == json!([])));
    }

    #[test]
    fn a_deleted_solution_comes_back_as_the_stub() {
        let (released, record) = release(vec![
            cell("solution", "todo!()", false),
            cell("check", "c", true),
        ]);
        let submission = nb(vec![cell("check", "c", true)]);
        let (restored, notes) = restore(&submission, &released, &only(&record));
        assert_eq!(source(&restored.cells()[0]), "todo!()");
        assert!(notes[0].to_string().contains("deleted"));
    }

    /// A typo fixed in a protected cell after a student got the notebook: the fix is no edit of
    /// theirs, whether the notebook names its release or a Jupyter dropped that metadata.
    #[test]
    fn a_cell_changed_by_a_re_release_is_not_the_students_edit() {
        let (first, first_record) = release(vec![
            cell("title", "# Mergeing", true),
            cell("solution", "todo!()", false),
        ]);
        let (fixed, fixed_record) = release(vec![
            cell("title", "# Merging", true),
            cell("solution", "todo!()", false),
        ]);
        let releases = Releases {
            current: fixed_record,
            kept: vec![first_record],
        };
        let (restored, notes) = restore(&first, &fixed, &releases);
        assert_eq!(notes, []);
        assert_eq!(
            sources(&restored)[0],
            "# Mergeing",
            "as the student received it"
        );
        let mut unnamed = first.clone();
        unnamed.json["metadata"] = json!({"colab": {}});
        assert_eq!(restore(&unnamed, &fixed, &releases).1, []);
        // An edit is still one, against the release received or, unnamed, against them all.
        for mut nb in [first, unnamed] {
            nb.cells_mut()[0]["source"] = json!("# Merging, my way");
            assert_eq!(
                restore(&nb, &fixed, &releases).1,
                [Restoration::Reverted {
                    cell: "title".into()
                }]
            );
        }
    }

    #[test]
    fn a_cell_added_by_a_re_release_is_not_a_deletion() {
        let (first, first_record) = release(vec![cell("solution", "todo!()", false)]);
        let (second, second_record) = release(vec![
            cell("hint", "A hint, added later.", true),
            cell("solution", "todo!()", false),
        ]);
        let releases = Releases {
            current: second_record,
            kept: vec![first_record],
        };
        let (restored, notes) = restore(&first, &second, &releases);
        assert_eq!(notes, []);
        assert_eq!(sources(&restored), ["A hint, added later.", "todo!()"]);
        // A student of the second release who deletes it did delete it.
        let mut deleted = second.clone();
        deleted.cells_mut().remove(0);
        assert_eq!(
            restore(&deleted, &second, &releases).1,
            [Restoration::Reinserted {
                cell: "hint".into()
            }]
        );
    }

    #[test]
    fn stripped_metadata_restores_the_same_and_says_so() {
        let (released, record) = release(vec![
            cell("title", "# Merging a pair, step three", true),
            cell("solution", "fn f() -> u8 {\n    todo!()\n}", false),
            cell("check", "let c = check(f);", true),
        ]);
        let mut answered = released.clone();
        answered.cells_mut()[1]["source"] = json!("fn f() -> u8 {\n    7\n}");
        let (want, none) = restore(&answered, &released, &only(&record));
        assert_eq!(none, []);
        let mut stripped = answered.clone();
        stripped.json["metadata"] = json!({});
        stripped.json["nbformat_minor"] = json!(4);
        for c in stripped.cells_mut() {
            c["metadata"] = json!({});
            c.as_object_mut().unwrap().remove("id");
        }
        let (restored, notes) = restore(&stripped, &released, &only(&record));
        assert_eq!(restored.cells(), want.cells());
        assert_eq!(notes, [Restoration::RecognisedByContent { cells: 3 }]);
        assert!(notes[0].to_string().contains("recognised by their content"));
    }

    #[test]
    fn the_students_own_cells_get_ids_no_released_cell_has() {
        let (released, record) = release(vec![cell("check", "c", true)]);
        let mut copy = cell("check", "fn mine() {}", false);
        copy["metadata"] = json!({});
        let no_id = json!({"cell_type": "code", "source": "fn other() {}", "metadata": {}, "outputs": [], "execution_count": null});
        let submission = nb(vec![cell("check", "c", true), copy, no_id]);
        let (restored, notes) = restore(&submission, &released, &only(&record));
        assert_eq!(notes, []);
        let ids: Vec<&str> = restored.cells().iter().filter_map(cell_id).collect();
        assert_eq!(ids, ["check", "added-1", "added-2"]);
    }
}
