//! Verifying a lab before release: every instructor source runs top to bottom with every check
//! passed and no error or panic anywhere, and every student version runs with every check
//! "not implemented" and nothing else failing.

use super::notebook::{Notebook, NotebookError, Role, cell_id, is_code, role};
use super::release::{sources, stale, student_path};
use super::results::{check_results, errors, panic_text};
use super::runner::{CellStatus, Run, RunOptions, run_notebook};
use crate::lab::check::Status;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why verification could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The sources (or the student versions) could not be read.
    Notebook(NotebookError),
    /// The sources folder holds no notebook.
    NoNotebooks { sources: PathBuf },
    /// Student versions differ from what `release` would write.
    Stale { students: Vec<PathBuf> },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Notebook(e) => e.fmt(f),
            VerifyError::NoNotebooks { sources } => {
                write!(f, "{}: no notebooks (*.ipynb) to verify", sources.display())
            }
            VerifyError::Stale { students } => {
                let names: Vec<String> = students.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "student versions are stale ({}); run `bpe-lab lab release` first",
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for VerifyError {}

impl From<NotebookError> for VerifyError {
    fn from(e: NotebookError) -> VerifyError {
        VerifyError::Notebook(e)
    }
}

/// Which version of a notebook ran, and so what its checks must say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// Instructor source: every check `passed`.
    Source,
    /// Student version: every check `not_implemented`.
    Student,
}

impl Version {
    pub fn expected(self) -> Status {
        match self {
            Version::Source => Status::Passed,
            Version::Student => Status::NotImplemented,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Version::Source => "source",
            Version::Student => "student",
        }
    }
}

/// One exercise's check in one run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseOutcome {
    pub exercise: String,
    /// What the check said; `None` when the cell produced no result.
    pub status: Option<Status>,
    pub seconds: f64,
    pub ok: bool,
}

/// One notebook's run.
#[derive(Debug, Clone, PartialEq)]
pub struct NotebookOutcome {
    pub notebook: PathBuf,
    pub version: Version,
    pub seconds: f64,
    pub exercises: Vec<ExerciseOutcome>,
    /// Everything that went wrong, one line each; empty when the notebook verified.
    pub problems: Vec<String>,
    /// The executed copy.
    pub executed: PathBuf,
    /// With `html`: whether nbconvert rendered the executed copy (beside it, `.html`).
    pub html: Option<bool>,
}

impl NotebookOutcome {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Judges an executed notebook against what its version must show. Pure: the kernel has
/// already run; `run` is its per-cell summary.
pub fn judge(
    executed: &Notebook,
    run: &Run,
    version: Version,
) -> (Vec<ExerciseOutcome>, Vec<String>) {
    let mut exercises = Vec::new();
    let mut problems = run_problems(executed, run);
    for (index, cell) in executed.cells().iter().enumerate() {
        if !is_code(cell) {
            continue;
        }
        let label = format!("cell {} ({})", index + 1, cell_id(cell).unwrap_or("no id"));
        for error in errors(cell) {
            problems.push(format!("{label}: error output: {error}"));
        }
        if let Some(panic) = panic_text(cell) {
            problems.push(format!("{label}: panic text: {panic}"));
        }
        let seconds = run
            .cells
            .iter()
            .find(|c| c.index == index)
            .map_or(0.0, |c| c.seconds);
        let (outcome, problem) = judge_check(cell, &label, version, seconds);
        exercises.extend(outcome);
        problems.extend(problem);
    }
    (exercises, problems)
}

/// A check cell's outcome, and the problem when its result is not the one its version must
/// show; for another cell, a problem when it shows a check result anyway.
fn judge_check(
    cell: &serde_json::Value,
    label: &str,
    version: Version,
    seconds: f64,
) -> (Option<ExerciseOutcome>, Option<String>) {
    let found = check_results(cell);
    let exercise = match role(cell) {
        Role::Check { exercise, .. } => exercise,
        _ if !found.is_empty() => {
            return (
                None,
                Some(format!(
                    "{label}: a check result outside a check cell (mark the cell with metadata.bpe_lab.exercise)"
                )),
            );
        }
        _ => return (None, None),
    };
    let status = found.last().and_then(|r| r.status);
    let ok = status == Some(version.expected());
    let problem = (!ok).then(|| {
        format!(
            "{label}: check {exercise} says {} (expected {}){}",
            status.map_or("nothing", Status::as_str),
            version.expected().as_str(),
            found
                .last()
                .map(|r| format!(": {}", r.message))
                .unwrap_or_default()
        )
    });
    let outcome = ExerciseOutcome {
        exercise,
        status,
        seconds,
        ok,
    };
    (Some(outcome), problem)
}

/// What the runner says went wrong: a run stopped early, cells timed out or never ran.
fn run_problems(executed: &Notebook, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(reason) = &run.stopped {
        problems.push(format!("the run stopped early: {reason}"));
    }
    for cell_run in &run.cells {
        if matches!(cell_run.status, CellStatus::Timeout | CellStatus::NotRun) {
            let id = cell_run
                .id
                .as_deref()
                .or_else(|| executed.cells().get(cell_run.index).and_then(cell_id))
                .unwrap_or("no id");
            problems.push(format!(
                "cell {} ({id}): {}{}",
                cell_run.index + 1,
                cell_run.status.words(),
                cell_run
                    .reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ));
        }
    }
    problems
}

/// Where verify puts things and how it runs the kernel.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    pub sources: PathBuf,
    pub students: PathBuf,
    /// Executed copies go to `<work_dir>/source/` and `<work_dir>/student/`.
    pub work_dir: PathBuf,
    pub run: RunOptions,
    pub students_too: bool,
    /// Only notebooks whose file name contains this.
    pub only: Option<String>,
    /// Also render each executed notebook to HTML (beside it) with nbconvert.
    pub html: bool,
}

/// Runs and judges every notebook, calling `progress` after each. The student versions must
/// be up to date first (when they are verified too).
pub fn verify(
    options: &VerifyOptions,
    mut progress: impl FnMut(&NotebookOutcome),
) -> Result<Vec<NotebookOutcome>, VerifyError> {
    let sources = sources(&options.sources)?;
    if sources.is_empty() {
        return Err(VerifyError::NoNotebooks {
            sources: options.sources.clone(),
        });
    }
    if options.students_too {
        let stale = stale(&options.sources, &options.students)?;
        if !stale.is_empty() {
            return Err(VerifyError::Stale {
                students: stale.into_iter().map(|(p, _)| p).collect(),
            });
        }
    }
    let mut outcomes = Vec::new();
    for (path, version) in plan(&sources, options) {
        let mut outcome = verify_one(&path, version, options);
        if options.html && outcome.executed.exists() {
            outcome.html = Some(render_html(&options.run.python, &outcome.executed));
        }
        progress(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// The notebooks to run, in order: each source, then its student version.
fn plan(sources: &[PathBuf], options: &VerifyOptions) -> Vec<(PathBuf, Version)> {
    let mut plan = Vec::new();
    for source in sources {
        let name = source.file_name().unwrap_or_default().to_string_lossy();
        if options.only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        plan.push((source.clone(), Version::Source));
        if options.students_too {
            plan.push((student_path(source, &options.students), Version::Student));
        }
    }
    plan
}

/// Renders `executed` to HTML beside it with nbconvert; whether it worked.
fn render_html(python: &Path, executed: &Path) -> bool {
    std::process::Command::new(python)
        .args(["-m", "nbconvert", "--to", "html", "--log-level", "ERROR"])
        .arg(executed)
        .status()
        .is_ok_and(|s| s.success())
}

fn verify_one(path: &Path, version: Version, options: &VerifyOptions) -> NotebookOutcome {
    let executed = options
        .work_dir
        .join(version.name())
        .join(path.file_name().unwrap_or_default());
    let mut outcome = NotebookOutcome {
        notebook: path.to_owned(),
        version,
        seconds: 0.0,
        exercises: Vec::new(),
        problems: Vec::new(),
        executed: executed.clone(),
        html: None,
    };
    if let Err(e) = Notebook::read(path) {
        outcome.problems.push(e.to_string());
        return outcome;
    }
    if let Some(dir) = executed.parent()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        outcome.problems.push(format!("{}: {e}", dir.display()));
        return outcome;
    }
    let mut run = options.run.clone();
    run.cwd = path
        .parent()
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from("."));
    match run_notebook(path, &executed, &run) {
        Err(e) => outcome.problems.push(e.to_string()),
        Ok(summary) => {
            outcome.seconds = summary.seconds;
            match Notebook::read(&executed) {
                Err(e) => outcome.problems.push(e.to_string()),
                Ok(nb) => {
                    let (exercises, problems) = judge(&nb, &summary, version);
                    outcome.exercises = exercises;
                    outcome.problems = problems;
                }
            }
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::super::runner::CellRun;
    use super::*;
    use crate::lab::check::RESULT_MIME;
    use serde_json::{Value, json};

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
        let (exercises, problems) = judge(&nb, &ok_run(2), Version::Source);
        assert_eq!(exercises.len(), 2);
        assert!(exercises[0].ok && !exercises[1].ok);
        assert_eq!(exercises[0].seconds, 1.5);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("check b says not_implemented (expected passed)"),
            "{problems:?}"
        );
        let (_, problems) = judge(&nb, &ok_run(2), Version::Student);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("check a says passed (expected not_implemented)"));
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
        let (exercises, problems) = judge(&nb, &run, Version::Source);
        assert_eq!(exercises[0].status, None);
        let all = problems.join("\n");
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
}
