//! Verifying a lab before release: every instructor source runs top to bottom with every check
//! passed and no error or panic anywhere, and every student version runs with every check
//! "not implemented" and nothing else failing.

//!
//! [`verify`] runs each notebook ([`run_notebook`]) and [`assess`]es the executed copy;
//! [`outcome`] and [`problem`] are what it reports.

pub(crate) mod assess;
pub(crate) mod outcome;
pub(crate) mod problem;

pub(crate) use assess::assess;
pub(crate) use outcome::{NotebookOutcome, Version};
pub(crate) use problem::Problem;

use super::notebook::{Notebook, NotebookError, is_code};
use super::release::{Edition, sources, stale_edition, student_path};
use super::run_local::{RunOptions, run_notebook};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Why verification could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum VerifyError {
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

/// Where verify puts things and how it runs the kernel.
#[derive(Debug, Clone)]
pub(crate) struct VerifyOptions {
    pub(crate) sources: PathBuf,
    pub(crate) students: PathBuf,
    /// Executed copies go to `<work_dir>/source/` and `<work_dir>/student/`.
    pub(crate) work_dir: PathBuf,
    pub(crate) run: RunOptions,
    pub(crate) students_too: bool,
    /// Which edition the student versions in `students` are (the self-study one has the
    /// folded solutions).
    pub(crate) edition: Edition,
    /// Only notebooks whose file name contains this.
    pub(crate) only: Option<String>,
    /// Also render each executed notebook to HTML (beside it) with nbconvert.
    pub(crate) html: bool,
    /// How many notebooks run at once, each in its own kernel (at least 1). A kernel spends
    /// most of a notebook in one compiler or analyser thread, so two on two cores finish
    /// the lab in little more than half the time.
    pub(crate) jobs: usize,
}

/// Runs and assesses every notebook, calling `progress` after each. The student versions must
/// be up to date first (when they are verified too).
pub(crate) fn verify(
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
        let stale = stale_edition(&options.sources, &options.students, options.edition)?;
        if !stale.is_empty() {
            return Err(VerifyError::Stale {
                students: stale.into_iter().map(|s| s.student).collect(),
            });
        }
    }
    let plan = plan(&sources, options);
    let order = longest_first(&plan);
    let mut outcomes: Vec<Option<NotebookOutcome>> = plan.iter().map(|_| None).collect();
    let next = AtomicUsize::new(0);
    let (done, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, plan.len().max(1)) {
            let (done, next, plan, order) = (done.clone(), &next, &plan, &order);
            scope.spawn(move || {
                while let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (path, version) = &plan[index];
                    let outcome = verify_one(path, *version, options);
                    if done.send((index, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Reported as each finishes; returned in the plan's order.
        for (index, outcome) in finished {
            progress(&outcome);
            outcomes[index] = Some(outcome);
        }
    });
    let mut outcomes: Vec<NotebookOutcome> = outcomes.into_iter().flatten().collect();
    if options.html {
        render_html(&options.run.python, &mut outcomes);
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

/// The plan's indices in the order to run them: the notebooks with the most code cells first
/// (each cell costs a compile), so that the last ones to finish are short. Run in name order,
/// notebook 07 (twice the cells of most others) ran alone at the end while the other kernel
/// had nothing left to do.
fn longest_first(plan: &[(PathBuf, Version)]) -> Vec<usize> {
    let cells: Vec<usize> = plan.iter().map(|(path, _)| code_cells(path)).collect();
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(cells[i]));
    order
}

/// The number of code cells of the notebook at `path` (0 when it cannot be read: verifying it
/// says why).
fn code_cells(path: &Path) -> usize {
    Notebook::read(path).map_or(0, |nb| nb.cells().iter().filter(|c| is_code(c)).count())
}

/// Renders every executed copy to HTML beside it in one nbconvert run (Python's start and
/// nbconvert's imports are most of a small notebook's rendering, ~2 s each time), and records
/// for each whether its HTML was written.
fn render_html(python: &Path, outcomes: &mut [NotebookOutcome]) {
    let executed: Vec<&Path> = outcomes
        .iter()
        .filter(|o| o.executed.exists())
        .map(|o| o.executed.as_path())
        .collect();
    if executed.is_empty() {
        return;
    }
    let started = std::time::SystemTime::now();
    // One notebook nbconvert cannot render shows below as an HTML file missing or older than
    // this run; the exit status would not say which.
    let _ = std::process::Command::new(python)
        .args(["-m", "nbconvert", "--to", "html", "--log-level", "ERROR"])
        .args(&executed)
        .status();
    for outcome in outcomes.iter_mut().filter(|o| o.executed.exists()) {
        let written = std::fs::metadata(outcome.executed.with_extension("html"))
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= started);
        outcome.html = Some(written);
    }
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
        outcome.problems.push(Problem::Notebook(e));
        return outcome;
    }
    if let Some(dir) = executed.parent()
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        outcome.problems.push(Problem::WorkDir {
            dir: dir.to_owned(),
            error: bpe_lab::files::describe_io_error(&e),
        });
        return outcome;
    }
    let mut run = options.run.clone();
    run.cwd = path
        .parent()
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from("."));
    match run_notebook(path, &executed, &run) {
        Err(e) => outcome.problems.push(Problem::Run(e)),
        Ok(summary) => {
            outcome.seconds = summary.seconds;
            match Notebook::read(&executed) {
                Err(e) => outcome.problems.push(Problem::Notebook(e)),
                Ok(nb) => {
                    let (exercises, problems) = assess(&nb, &summary, version);
                    outcome.exercises = exercises;
                    outcome.problems = problems;
                }
            }
        }
    }
    outcome
}
