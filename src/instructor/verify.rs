//! Verifying a lab before release: every instructor source runs top to bottom with every check
//! passed and no error or panic anywhere, and every student version runs with every check
//! "not implemented" and nothing else failing.

use super::notebook::{Notebook, Role, cell_id, is_code, role};
use super::release::{sources, student_path};
use super::results::{check_results, errors, panic_text};
use super::runner::{Run, RunOptions, run_notebook};
use crate::lab::check::Status;
use std::path::{Path, PathBuf};

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
    let mut problems = Vec::new();
    if let Some(reason) = &run.stopped {
        problems.push(format!("the run stopped early: {reason}"));
    }
    let seconds_of = |index: usize| {
        run.cells
            .iter()
            .find(|c| c.index == index)
            .map_or(0.0, |c| c.seconds)
    };
    for cell_run in &run.cells {
        if cell_run.status == "timeout" || cell_run.status == "not_run" {
            problems.push(format!(
                "cell {} ({}): {}{}",
                cell_run.index + 1,
                cell_run.id.as_deref().unwrap_or("no id"),
                cell_run.status.replace('_', " "),
                cell_run
                    .reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            ));
        }
    }
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
        let found = check_results(cell);
        match role(cell) {
            Role::Check { exercise, .. } => {
                let status = found.last().and_then(|r| r.status);
                let ok = status == Some(version.expected());
                if !ok {
                    problems.push(format!(
                        "{label}: check {exercise} says {} (expected {}){}",
                        status.map_or("nothing", Status::as_str),
                        version.expected().as_str(),
                        found
                            .last()
                            .map(|r| format!(": {}", r.message))
                            .unwrap_or_default()
                    ));
                }
                exercises.push(ExerciseOutcome {
                    exercise,
                    status,
                    seconds: seconds_of(index),
                    ok,
                });
            }
            _ if !found.is_empty() => problems.push(format!(
                "{label}: a check result outside a check cell (mark the cell with metadata.bpe_lab.exercise)"
            )),
            _ => {}
        }
    }
    (exercises, problems)
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
}

/// Runs and judges every notebook, calling `progress` after each.
pub fn verify(
    options: &VerifyOptions,
    mut progress: impl FnMut(&NotebookOutcome),
) -> Result<Vec<NotebookOutcome>, String> {
    let mut outcomes = Vec::new();
    let sources = sources(&options.sources).map_err(|e| e.to_string())?;
    if sources.is_empty() {
        return Err(format!(
            "{}: no notebooks (*.ipynb) to verify",
            options.sources.display()
        ));
    }
    let mut plan: Vec<(PathBuf, Version)> = Vec::new();
    for source in sources {
        let name = source.file_name().unwrap_or_default().to_string_lossy();
        if options.only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        plan.push((source.clone(), Version::Source));
        if options.students_too {
            plan.push((student_path(&source, &options.students), Version::Student));
        }
    }
    for (path, version) in plan {
        let outcome = verify_one(&path, version, options);
        progress(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
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
