//! Executing a notebook with the real kernel on this machine (verify, the doctor): the
//! executor ([`super::executor`]) does the Jupyter side; this module finds Python, passes the
//! limits, and runs it under the process supervisor — its output captured and joined, a
//! deadline past the executor's own limit, the whole group killed and reaped.

use super::executor::Run;
use super::executor::{Invocation, PACKAGE, argv, write_package};
use super::process::capture::Sink;
use super::process::error::ProcessError;
use super::process::supervisor::{Supervised, Tree};
use std::fmt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Overrides which Python runs notebooks (it needs nbclient and a Rust kernel spec).
pub(crate) const PYTHON_ENV: &str = "BPE_LAB_PYTHON";
/// Bytes of the executor's stdout (its summary) and stderr (its progress) kept.
const SUMMARY_KEPT: usize = 16 << 20;
const PROGRESS_KEPT: usize = 1 << 20;
/// Time the executor has past its total limit to shut its kernel down before it is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(110);

/// How to execute a notebook.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub(crate) python: PathBuf,
    /// The kernel spec; `None` takes the notebook's own (`rust` for the labs).
    pub(crate) kernel: Option<String>,
    /// The kernel's working directory (where `:dep bpe-lab = { path = ".." }` resolves).
    pub(crate) cwd: PathBuf,
    pub cell_timeout: Duration,
    pub total_timeout: Duration,
    /// Address-space limit, in MiB, for evcxr's user-code process (where the notebook's code
    /// runs; re-applied when evcxr restarts it). The kernel and the compiler are not limited:
    /// they need several GiB of address space to compile the crate.
    pub(crate) memory_mb: Option<u64>,
    /// The run stops as soon as the cells' outputs pass this many bytes.
    pub output_limit: Option<u64>,
    /// Extra environment for the kernel.
    pub(crate) env: Vec<(String, String)>,
}

impl RunOptions {
    pub fn new(python: PathBuf, cwd: PathBuf) -> RunOptions {
        RunOptions {
            python,
            kernel: None,
            cwd,
            cell_timeout: Duration::from_secs(300),
            total_timeout: Duration::from_secs(3600),
            memory_mb: None,
            output_limit: None,
            env: Vec::new(),
        }
    }
}

/// Why a notebook could not be executed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    pub(crate) notebook: PathBuf,
    pub(crate) problem: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.notebook.display(), self.problem)
    }
}

impl std::error::Error for RunError {}

/// The Python to run notebooks with: `BPE_LAB_PYTHON`, else the project's `.venv` (looked for
/// in `start` and its parents), else `python3`.
pub fn find_python(start: &Path) -> PathBuf {
    if let Some(p) = std::env::var_os(PYTHON_ENV) {
        return PathBuf::from(p);
    }
    for dir in start.ancestors() {
        let candidate = dir.join(".venv/bin/python");
        if candidate.exists() {
            return candidate;
        }
    }
    PathBuf::from("python3")
}

/// Executes `input` into `output` (outputs included, written even when the run stops early).
pub fn run_notebook(input: &Path, output: &Path, options: &RunOptions) -> Result<Run, RunError> {
    let fail = |problem: String| RunError {
        notebook: input.to_owned(),
        problem,
    };
    let dir = tempfile::Builder::new()
        .prefix("bpe-lab-executor-")
        .tempdir()
        .map_err(|e| fail(format!("could not write the executor: {e}")))?;
    let package = write_package(dir.path())
        .map_err(|e| fail(format!("could not write the executor: {e}")))?;
    let mut run = Invocation::new(&input.display().to_string(), &output.display().to_string());
    run.kernel = options.kernel.clone();
    run.cwd = Some(options.cwd.display().to_string());
    run.cell_timeout = options.cell_timeout;
    run.total_timeout = options.total_timeout;
    run.user_memory_mb = options.memory_mb;
    run.output_limit = options.output_limit;
    run.env = options.env.clone();
    let line = argv(
        &options.python.display().to_string(),
        &package.display().to_string(),
        &run,
    );
    let mut command = Command::new(&line[0]);
    command
        .args(&line[1..])
        .stdin(Stdio::null())
        .process_group(0);
    let child = Supervised::spawn(
        command,
        PACKAGE,
        Tree::Group,
        Sink::keep(SUMMARY_KEPT),
        Sink::keep(PROGRESS_KEPT),
    )
    .map_err(|e| {
        fail(format!(
            "could not start {}: {e} (set {PYTHON_ENV} or run scripts/lab setup)",
            options.python.display()
        ))
    })?;
    // The executor enforces the limits itself; this deadline only catches one that hangs.
    let limit = options.total_timeout + SHUTDOWN_GRACE;
    let finished = child.finish(Some(Instant::now() + limit), Some(limit));
    let stdout = String::from_utf8_lossy(&finished.stdout.kept);
    match finished.result() {
        Ok(()) => Run::parse(&stdout)
            .map_err(|e| fail(format!("could not read the executor's summary: {e}"))),
        Err(ProcessError::TimedOut { .. }) => Err(fail(format!(
            "the executor did not finish within the total time limit of {} s and was stopped",
            options.total_timeout.as_secs()
        ))),
        Err(e) => {
            let stderr = finished.stderr.text();
            let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            Err(fail(format!(
                "the executor failed ({e}): {}",
                tail.join(" | ").trim()
            )))
        }
    }
}
