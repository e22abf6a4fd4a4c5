//! `bpe-lab lab new NN-name`: a new instructor notebook to fill in — the setup cell the lab's
//! notebooks open with, a task, a solution cell and a test cell of the instructor's own tests
//! (one visible, one hidden) that the solution passes, so the new lab releases, verifies and
//! grades before a line of it is changed.

use crate::course::notebook::{Notebook, NotebookError, set_source};
use crate::course::release::kernel_metadata;
use serde_json::{Value, json};
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the notebook was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NewLabError {
    /// Not `NN-words` (two digits, a dash, lowercase words joined by dashes).
    BadName { name: String },
    /// A notebook of that name is already in the sources.
    Exists { path: PathBuf },
    /// The sources folder could not be made or written.
    Write(NotebookError),
}

impl fmt::Display for NewLabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewLabError::BadName { name } => write!(
                f,
                "{name:?} is not a lab name: two digits, a dash and lowercase words joined by \
                 dashes, like 08-count-tokens"
            ),
            NewLabError::Exists { path } => {
                write!(f, "{} exists already; nothing was written", path.display())
            }
            NewLabError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NewLabError {}

/// The exercise's (and its function's) name from the lab's: `08-count-tokens` gives
/// `count_tokens`; `None` when `name` is not a lab name.
fn exercise_of(name: &str) -> Option<String> {
    let (number, words) = name.split_once('-')?;
    let lab_like = number.len() == 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && !words.is_empty()
        && words.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
        && words.as_bytes()[0].is_ascii_lowercase();
    lab_like.then(|| words.replace('-', "_"))
}

fn cell(kind: &str, id: &str, metadata: Value, text: &str) -> Value {
    let mut cell = json!({"cell_type": kind, "id": id, "metadata": metadata, "source": []});
    if kind == "code" {
        cell["outputs"] = json!([]);
        cell["execution_count"] = Value::Null;
    }
    set_source(&mut cell, text);
    cell
}

/// The new notebook for lab `name` with exercise `exercise`.
fn notebook(name: &str, exercise: &str) -> Value {
    let mut metadata = json!({"bpe_lab": {"lab": name}});
    if let (Some(meta), Value::Object(kernel)) = (metadata.as_object_mut(), kernel_metadata()) {
        meta.extend(kernel);
    }
    let setup = ":cache 2048\n:opt 0\n:dep bpe-lab = { path = \"..\", default-features = false, \
                 features = [\"africa-galore\"] }\nuse bpe_lab::lab::prelude::*;";
    let solution = format!(
        "fn {exercise}(text: &str) -> usize {{\n    // BEGIN SOLUTION\n    \
         text.split_whitespace().count()\n    // END SOLUTION\n}}"
    );
    let tests = format!(
        "own_test!(\"two words\", 1, {{\n    assert_eq!({exercise}(\"low lower\"), 2);\n}});\n\
         // BEGIN HIDDEN TESTS\n\
         own_test!(\"no words\", 1, {{\n    assert_eq!({exercise}(\"\"), 0);\n}});\n\
         // END HIDDEN TESTS"
    );
    json!({
        "nbformat": 4, "nbformat_minor": 5, "metadata": metadata,
        "cells": [
            cell("markdown", &format!("{name}-title"), json!({}), &format!(
                "# {name}\n\nWhat this lab teaches, in a paragraph. Replace the exercise below with \
                 yours: the solution between the markers is removed from the students' copy, \
                 the test cell's tests grade it, and the tests between the hidden markers run \
                 only when grading (docs/instructors.md, \"Your own exercises\")."
            )),
            cell("code", &format!("{name}-setup"), json!({"bpe_lab": {"role": "setup"}}), setup),
            cell("markdown", &format!("{exercise}-task"), json!({}), &format!(
                "## Exercise: `{exercise}`\n\nThe task, for students: what the function takes and \
                 returns."
            )),
            cell("code", &format!("{exercise}-solution"), json!({}), &solution),
            cell("code", &format!("{exercise}-tests"), json!({"bpe_lab": {"own_test": exercise}}), &tests),
        ]
    })
}

/// Writes the instructor notebook `sources`/`name`.ipynb, never over an existing one.
pub(crate) fn new_lab(sources: &Path, name: &str) -> Result<PathBuf, NewLabError> {
    let exercise = exercise_of(name).ok_or_else(|| NewLabError::BadName {
        name: name.to_owned(),
    })?;
    let path = sources.join(format!("{name}.ipynb"));
    if path.exists() {
        return Err(NewLabError::Exists { path });
    }
    std::fs::create_dir_all(sources).map_err(|e| {
        NewLabError::Write(NotebookError {
            path: sources.to_owned(),
            problem: bpe_lab::files::describe_io_error(&e),
        })
    })?;
    let nb = Notebook {
        json: notebook(name, &exercise),
    };
    nb.write(&path).map_err(NewLabError::Write)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_names_give_exercise_names_and_others_are_refused() {
        assert_eq!(
            exercise_of("08-count-tokens").as_deref(),
            Some("count_tokens")
        );
        assert_eq!(exercise_of("12-bytes2").as_deref(), Some("bytes2"));
        for bad in [
            "8-count",
            "08",
            "08-",
            "08-Count",
            "08-count--x",
            "08-2x",
            "ab-count",
        ] {
            assert_eq!(exercise_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_existing_notebook_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = new_lab(dir.path(), "08-count-tokens").unwrap();
        let before = std::fs::read(&path).unwrap();
        assert!(matches!(
            new_lab(dir.path(), "08-count-tokens"),
            Err(NewLabError::Exists { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
}
