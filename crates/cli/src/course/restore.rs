//! Putting a submission back into shape before grading: protected cells (everything but the
//! solution cells) come from the released version by cell id — edited ones are reverted,
//! deleted ones re-inserted — and the student's own added cells stay where they were.

use super::notebook::{Notebook, cell_id, clear_outputs, is_locked, source};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
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
        }
    }
}

/// The submission restored against `released`, outputs dropped, with a note per change.
/// Cells come in the released order; cells the student added follow the cell they followed
/// in the submission.
pub(crate) fn restore(submission: &Notebook, released: &Notebook) -> (Notebook, Vec<Restoration>) {
    let mut notes = Vec::new();
    let released_ids: HashMap<&str, usize> = released
        .cells()
        .iter()
        .enumerate()
        .filter_map(|(i, c)| cell_id(c).map(|id| (id, i)))
        .collect();
    let mut submitted: HashMap<&str, &Value> = HashMap::new();
    // Added cells, keyed by the released cell they follow (None: before any).
    let mut added: HashMap<Option<&str>, Vec<Value>> = HashMap::new();
    let mut anchor: Option<&str> = None;
    for cell in submission.cells() {
        match cell_id(cell) {
            Some(id) if released_ids.contains_key(id) && !submitted.contains_key(id) => {
                submitted.insert(id, cell);
                anchor = Some(id);
            }
            _ => added.entry(anchor).or_default().push(cell.clone()),
        }
    }
    let mut cells: Vec<Value> = added.remove(&None).unwrap_or_default();
    for original in released.cells() {
        let id = cell_id(original).unwrap_or_default();
        let (cell, change) = restored_cell(original, submitted.get(id).copied());
        notes.extend(change);
        cells.push(cell);
        if let Some(extra) = added.remove(&Some(id)) {
            cells.extend(extra);
        }
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

/// One released cell as it goes into the restored notebook: a protected cell as released, a
/// solution cell with the student's source; and what changed, if anything.
fn restored_cell(original: &Value, student: Option<&Value>) -> (Value, Option<Restoration>) {
    let cell = cell_id(original).unwrap_or_default().to_owned();
    if is_locked(original) {
        let change = match student {
            None => Some(Restoration::Reinserted { cell }),
            Some(s) if source(s) != source(original) || s["cell_type"] != original["cell_type"] => {
                Some(Restoration::Reverted { cell })
            }
            Some(_) => None,
        };
        return (original.clone(), change);
    }
    match student {
        Some(s) => {
            let mut restored = original.clone();
            restored["source"] = s["source"].clone();
            (restored, None)
        }
        None => (
            original.clone(),
            Some(Restoration::SolutionPutBack { cell }),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::Path;

    fn cell(id: &str, text: &str, locked: bool) -> Value {
        json!({"cell_type": "code", "id": id, "source": text, "outputs": [{"output_type": "stream", "name": "stdout", "text": "x"}], "execution_count": 3,
               "metadata": {"nbgrader": {"locked": locked}}})
    }

    fn nb(cells: Vec<Value>) -> Notebook {
        let text =
            json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).to_string();
        Notebook::parse(text.as_bytes(), Path::new("t.ipynb")).unwrap()
    }

    #[test]
    fn restores_edits_and_deletions_and_keeps_added_cells() {
        let released = nb(vec![
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
        let (restored, notes) = restore(&submission, &released);
        let ids: Vec<&str> = restored.cells().iter().filter_map(cell_id).collect();
        assert_eq!(ids, ["mine", "setup", "solution", "scratch", "check"]);
        assert_eq!(source(&restored.cells()[2]), "fn f() {}");
        assert_eq!(source(&restored.cells()[4]), "check(f);");
        assert_eq!(notes.len(), 2, "{notes:?}");
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
        let released = nb(vec![
            cell("solution", "todo!()", false),
            cell("check", "c", true),
        ]);
        let submission = nb(vec![cell("check", "c", true)]);
        let (restored, notes) = restore(&submission, &released);
        assert_eq!(source(&restored.cells()[0]), "todo!()");
        assert!(notes[0].to_string().contains("deleted"));
    }
}
