//! The notebooks grading knows: each instructor source's released (student) version, its
//! exercises, and every release of it kept beside the sources (`releases/<name>/`), read once,
//! with every exercise name checked against the grader's checks.

use super::error::GradedNotebookError;
use crate::course::graded_exercise::GradedExercise;
use crate::course::notebook::{Notebook, Role, cell_id, role};
use crate::course::own_tests::OwnTestCell;
use crate::course::release::{lab_name, sources, student_version};
use crate::course::release_record::{ReleaseRecord, Releases, kept};
use bpe_lab::lab::check::Exercise;
use std::path::Path;

/// One graded exercise of a graded notebook.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NotebookExercise {
    pub(crate) exercise: GradedExercise,
    pub(crate) points: f64,
    /// The id of its check cell, where the student's code before it ends.
    pub(crate) check_id: String,
}

/// A notebook as the grader knows it: its released (student) version and its exercises.
#[derive(Debug, Clone)]
pub(crate) struct GradedNotebook {
    pub(crate) name: String,
    pub(crate) released: Notebook,
    /// In notebook order.
    pub(crate) exercises: Vec<NotebookExercise>,
    /// Today's release and the ones kept: what a student may have received.
    pub(crate) releases: Releases,
    /// The test cells of the instructor's own exercises, as the instructor's source has them
    /// (hidden tests included: the released notebook has only the visible ones).
    pub(crate) own_tests: Vec<OwnTestCell>,
}

impl GradedNotebook {
    /// A graded notebook with no cells and these exercises, for tests of what is built on them.
    #[cfg(test)]
    pub(crate) fn bare(name: &str, exercises: Vec<NotebookExercise>) -> GradedNotebook {
        let released = Notebook::parse(
            br#"{"nbformat": 4, "cells": []}"#,
            std::path::Path::new("x"),
        )
        .expect("an empty notebook parses");
        let releases = crate::course::release_record::Releases::current_only(
            crate::course::release_record::ReleaseRecord::of(name, &released),
        );
        GradedNotebook {
            name: name.to_owned(),
            released,
            exercises,
            releases,
            own_tests: Vec::new(),
        }
    }

    /// The tests of the own exercise `exercise`, when it is one of this notebook's.
    pub(crate) fn own_test(&self, exercise: &GradedExercise) -> Option<&OwnTestCell> {
        match exercise {
            GradedExercise::Own(name) => self.own_tests.iter().find(|t| &t.exercise == name),
            GradedExercise::BuiltIn(_) => None,
        }
    }

    pub(crate) fn max_points(&self) -> f64 {
        self.exercises.iter().map(|e| e.points).sum()
    }

    /// Reads the notebook from its instructor source at `path`.
    pub(crate) fn read(path: &Path) -> Result<GradedNotebook, GradedNotebookError> {
        let source = Notebook::read(path)?;
        let released = student_version(&source, path)?;
        let mut exercises = Vec::new();
        let mut own_tests = Vec::new();
        for (index, cell) in released.cells().iter().enumerate() {
            let check_id = cell_id(cell).unwrap_or_default().to_owned();
            let (exercise, points) = match role(cell) {
                Role::Check { exercise, points } => {
                    let exercise: Exercise =
                        exercise
                            .parse()
                            .map_err(|_| GradedNotebookError::UnknownExercise {
                                path: path.to_owned(),
                                cell: index + 1,
                                name: exercise,
                            })?;
                    (GradedExercise::BuiltIn(exercise), points)
                }
                Role::OwnTest { exercise } => {
                    let tests = own_tests_of(&source, &check_id, &exercise, path, index)?;
                    let points = tests.points();
                    own_tests.push(tests);
                    (GradedExercise::Own(exercise), points)
                }
                _ => continue,
            };
            exercises.push(NotebookExercise {
                exercise,
                points,
                check_id,
            });
        }
        let name = released
            .lab()
            .map(str::to_owned)
            .unwrap_or_else(|| lab_name(path));
        let releases = Releases {
            current: ReleaseRecord::of(&name, &released),
            kept: kept(path.parent().unwrap_or(Path::new(".")), &name)?,
        };
        Ok(GradedNotebook {
            name,
            released,
            exercises,
            releases,
            own_tests,
        })
    }
}

/// The test cell `id` of the instructor's `source` (at `path`), read whole: the grader runs
/// the hidden tests too, and takes them from here, never from a student's file.
fn own_tests_of(
    source: &Notebook,
    id: &str,
    exercise: &str,
    path: &Path,
    index: usize,
) -> Result<OwnTestCell, GradedNotebookError> {
    let cell = source
        .cells()
        .iter()
        .find(|c| cell_id(c) == Some(id))
        .map(crate::course::notebook::source)
        .unwrap_or_default();
    OwnTestCell::parse(exercise, &cell).map_err(|e| {
        GradedNotebookError::Notebook(crate::course::notebook::NotebookError {
            path: path.to_owned(),
            problem: format!("cell {} ({id}): test cell: {e}", index + 1),
        })
    })
}

/// Every notebook in the instructor sources directory.
pub(crate) fn graded_notebooks(
    source_dir: &Path,
) -> Result<Vec<GradedNotebook>, GradedNotebookError> {
    sources(source_dir)?
        .iter()
        .map(|p| GradedNotebook::read(p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn source(exercise: &str) -> String {
        json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {"bpe_lab": {"lab": "01-x"}},
               "cells": [
                 {"cell_type": "code", "id": "sol", "metadata": {}, "outputs": [], "execution_count": null,
                  "source": "fn decode() {\n    // BEGIN SOLUTION\n    // END SOLUTION\n}"},
                 {"cell_type": "code", "id": "chk", "metadata": {"bpe_lab": {"exercise": exercise, "points": 2}},
                  "outputs": [], "execution_count": null, "source": "check::decode(decode)"}]})
        .to_string()
    }

    #[test]
    fn exercises_are_read_once_by_name_and_unknown_ones_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("01-x.ipynb");
        std::fs::write(&path, source("decode")).unwrap();
        let lab = GradedNotebook::read(&path).unwrap();
        assert_eq!(lab.name, "01-x");
        assert_eq!(
            lab.exercises,
            [NotebookExercise {
                exercise: Exercise::Decode.into(),
                points: 2.0,
                check_id: "chk".into()
            }]
        );
        std::fs::write(&path, source("double")).unwrap();
        let err = GradedNotebook::read(&path).unwrap_err();
        assert_eq!(
            err,
            GradedNotebookError::UnknownExercise {
                path: path.clone(),
                cell: 2,
                name: "double".into()
            }
        );
        assert!(
            err.to_string()
                .contains("cell 2: the grader has no check for the exercise \"double\"")
        );
    }
}
