//! Assessing an executed notebook against what its version must show. Pure: the kernel has
//! already run; the runner's per-cell summary says how.

use super::outcome::{ExerciseOutcome, Version};
use super::problem::Problem;
use crate::course::executor::{CellStatus, Run};
use crate::course::notebook::{CellRef, Notebook, Role, cell_id, is_code, role};
use crate::course::results::{check_results, errors, panic_text};
use serde_json::Value;

/// The exercises' outcomes and every problem of the run.
pub(crate) fn assess(
    executed: &Notebook,
    run: &Run,
    version: Version,
) -> (Vec<ExerciseOutcome>, Vec<Problem>) {
    let mut exercises = Vec::new();
    let mut problems = run_problems(executed, run);
    for (index, cell) in executed.cells().iter().enumerate() {
        if !is_code(cell) {
            continue;
        }
        let here = CellRef {
            number: index + 1,
            id: cell_id(cell).unwrap_or("no id").to_owned(),
        };
        for error in errors(cell) {
            problems.push(Problem::ErrorOutput {
                cell: here.clone(),
                error,
            });
        }
        if let Some(panic) = panic_text(cell) {
            problems.push(Problem::PanicText {
                cell: here.clone(),
                panic,
            });
        }
        let seconds = run
            .cells
            .iter()
            .find(|c| c.index == index)
            .map_or(0.0, |c| c.seconds);
        let (outcome, problem) = assess_cell(cell, here, version, seconds);
        exercises.extend(outcome);
        problems.extend(problem);
    }
    (exercises, problems)
}

/// A check cell's outcome, and the problem when its result is not the one its version must
/// show; for another cell, a problem when it shows a check result anyway.
fn assess_cell(
    cell: &Value,
    here: CellRef,
    version: Version,
    seconds: f64,
) -> (Option<ExerciseOutcome>, Option<Problem>) {
    let found = check_results(cell);
    let exercise = match role(cell) {
        Role::Check { exercise, .. } => exercise,
        Role::OwnTest { exercise } => {
            return assess_own_tests(found, here, version, seconds, exercise);
        }
        _ if !found.is_empty() => return (None, Some(Problem::StrayResult { cell: here })),
        _ => return (None, None),
    };
    let status = found.last().and_then(|r| r.status);
    let ok = status == Some(version.expected());
    let problem = (!ok).then(|| Problem::WrongResult {
        cell: here,
        exercise: exercise.clone(),
        found: status,
        expected: version.expected(),
        message: found.last().map(|r| r.message.clone()),
    });
    let outcome = ExerciseOutcome {
        exercise,
        status,
        seconds,
        ok,
    };
    (Some(outcome), problem)
}

/// An instructor's test cell: each of its tests shows a result (named `test (N points)`),
/// and each must be the one its version must show; the first that is not is the problem,
/// named by the test.
fn assess_own_tests(
    found: Vec<crate::course::results::FoundResult>,
    here: CellRef,
    version: Version,
    seconds: f64,
    exercise: String,
) -> (Option<ExerciseOutcome>, Option<Problem>) {
    let wrong = found.iter().find(|r| r.status != Some(version.expected()));
    let problem = match (wrong, found.is_empty()) {
        (Some(result), _) => Some(Problem::WrongResult {
            cell: here,
            exercise: format!("{exercise}, test {}", result.exercise),
            found: result.status,
            expected: version.expected(),
            message: Some(result.message.clone()),
        }),
        (None, true) => Some(Problem::WrongResult {
            cell: here,
            exercise: exercise.clone(),
            found: None,
            expected: version.expected(),
            message: None,
        }),
        (None, false) => None,
    };
    let status = match (wrong, found.is_empty()) {
        (Some(result), _) => result.status,
        (None, true) => None,
        (None, false) => Some(version.expected()),
    };
    let outcome = ExerciseOutcome {
        exercise,
        status,
        seconds,
        ok: problem.is_none(),
    };
    (Some(outcome), problem)
}

/// What the runner says went wrong: a run stopped early, cells timed out or never ran.
fn run_problems(executed: &Notebook, run: &Run) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(reason) = &run.stopped {
        problems.push(Problem::Stopped {
            reason: reason.clone(),
        });
    }
    for cell_run in &run.cells {
        if matches!(cell_run.status, CellStatus::Timeout | CellStatus::NotRun) {
            let id = cell_run
                .id
                .as_deref()
                .or_else(|| executed.cells().get(cell_run.index).and_then(cell_id))
                .unwrap_or("no id");
            problems.push(Problem::CellNotRun {
                cell: CellRef {
                    number: cell_run.index + 1,
                    id: id.to_owned(),
                },
                what: cell_run.status.words(),
                reason: cell_run.reason.clone(),
            });
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::executor::CellRun;
    use bpe_lab::lab::check::{RESULT_MIME, Status};
    use serde_json::{Value, json};
    use std::path::Path;

    fn executed(cells: Vec<Value>) -> Notebook {
        let text = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells});
        Notebook::parse(text.to_string().as_bytes(), Path::new("run.ipynb")).unwrap()
    }

    fn check_cell(exercise: &str, status: &str) -> Value {
        json!({"cell_type": "code", "id": format!("{exercise}-check"), "source": "",
               "metadata": {"bpe_lab": {"exercise": exercise, "points": 1}},
               "outputs": [{"output_type": "execute_result", "data": {RESULT_MIME: {"exercise": exercise, "status": status, "message": "m"}}}]})
    }

    fn ok_run(cells: usize) -> Run {
        Run {
            cells: (0..cells)
                .map(|index| CellRun {
                    index,
                    id: None,
                    status: CellStatus::Ok,
                    seconds: 1.5,
                    error: None,
                    reason: None,
                })
                .collect(),
            seconds: 3.0,
            stopped: None,
        }
    }

    #[test]
    fn sources_must_pass_and_students_must_be_not_implemented() {
        let nb = executed(vec![
            check_cell("a", "passed"),
            check_cell("b", "not_implemented"),
        ]);
        let (exercises, problems) = assess(&nb, &ok_run(2), Version::Source);
        assert_eq!(exercises.len(), 2);
        assert!(exercises[0].ok && !exercises[1].ok);
        assert_eq!(exercises[0].seconds, 1.5);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0]
                == Problem::WrongResult {
                    cell: CellRef {
                        number: 2,
                        id: "b-check".into()
                    },
                    exercise: "b".into(),
                    found: Some(Status::NotImplemented),
                    expected: Status::Passed,
                    message: Some("m".into()),
                },
            "{problems:?}"
        );
        let (_, problems) = assess(&nb, &ok_run(2), Version::Student);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0]
                .to_string()
                .contains("check a says passed (expected not_implemented)")
        );
    }

    #[test]
    fn errors_panics_missing_results_and_stray_results_are_problems() {
        let mut silent = check_cell("a", "passed");
        silent["outputs"] = json!([{"output_type": "error", "ename": "Error", "evalue": "cannot find value `x`", "traceback": []}]);
        let panicking = json!({"cell_type": "code", "id": "p", "source": "", "metadata": {},
            "outputs": [{"output_type": "stream", "name": "stderr", "text": "thread '<unnamed>' panicked at src/lib.rs:1:1:\nboom\n"}]});
        let mut stray = check_cell("c", "passed");
        stray["metadata"] = json!({});
        let nb = executed(vec![silent, panicking, stray]);
        let mut run = ok_run(3);
        run.cells[2].status = CellStatus::Timeout;
        run.stopped = Some("total time limit".into());
        let (exercises, problems) = assess(&nb, &run, Version::Source);
        assert_eq!(exercises[0].status, None);
        let all: Vec<String> = problems.iter().map(Problem::to_string).collect();
        let all = all.join("\n");
        for expected in [
            "the run stopped early: total time limit",
            "cell 3 (c-check): timeout",
            "cell 1 (a-check): error output: Error: cannot find value `x`",
            "check a says nothing",
            "cell 2 (p): panic text",
            "a check result outside a check cell",
        ] {
            assert!(all.contains(expected), "missing {expected:?} in:\n{all}");
        }
    }

    /// An instructor's test cell shows a result per test; verify names the test that did not
    /// pass against the solution.
    #[test]
    fn own_tests_must_all_pass_and_the_failing_one_is_named() {
        let result = |name: &str, status: &str| json!({"output_type": "display_data", "data": {RESULT_MIME: {"exercise": name, "status": status, "message": format!("{name} said {status}")}}});
        let cell = |outputs: Vec<Value>| {
            json!({"cell_type": "code", "id": "count-tests", "source": "",
                   "metadata": {"bpe_lab": {"own_test": "count_tokens"}}, "outputs": outputs})
        };
        let nb = executed(vec![cell(vec![
            result("counts two (2 points)", "passed"),
            result("counts none (1 point)", "failed"),
        ])]);
        let (exercises, problems) = assess(&nb, &ok_run(1), Version::Source);
        assert_eq!(exercises.len(), 1);
        assert_eq!(exercises[0].exercise, "count_tokens");
        assert!(!exercises[0].ok);
        assert_eq!(problems.len(), 1);
        let said = problems[0].to_string();
        assert!(
            said.contains("count_tokens, test counts none (1 point)"),
            "{said}"
        );
        assert!(said.contains("failed"), "{said}");
        let passing = executed(vec![cell(vec![result("counts two (2 points)", "passed")])]);
        let (exercises, problems) = assess(&passing, &ok_run(1), Version::Source);
        assert!(exercises[0].ok && problems.is_empty(), "{problems:?}");
        let silent = executed(vec![cell(vec![])]);
        let (_, problems) = assess(&silent, &ok_run(1), Version::Source);
        assert_eq!(problems.len(), 1);
    }
}
