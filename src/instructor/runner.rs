//! Executing a notebook with the real kernel: the embedded `run_notebook.py` (nbclient) does
//! the Jupyter side; this module finds Python, passes the limits, keeps a watchdog on the
//! whole run and reads the per-cell summary it prints.

use serde::Deserialize;
use std::fmt;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The executor, run as `python <file> ARGS`.
pub const RUNNER_SOURCE: &str = include_str!("run_notebook.py");
/// Overrides which Python runs notebooks (it needs nbclient and a Rust kernel spec).
pub const PYTHON_ENV: &str = "BPE_LAB_PYTHON";

/// How to execute a notebook.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub python: PathBuf,
    /// The kernel spec; `None` takes the notebook's own (`rust` for the labs).
    pub kernel: Option<String>,
    /// The kernel's working directory (where `:dep bpe-lab = { path = ".." }` resolves).
    pub cwd: PathBuf,
    pub cell_timeout: Duration,
    pub total_timeout: Duration,
    /// Address-space limit, in MiB, for evcxr's user-code process (where the notebook's code
    /// runs; re-applied when evcxr restarts it). The kernel and the compiler are not limited:
    /// they need several GiB of address space to compile the crate.
    pub memory_mb: Option<u64>,
    /// Extra environment for the kernel.
    pub env: Vec<(String, String)>,
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
            env: Vec::new(),
        }
    }
}

/// How one code cell's run ended, as the executor reports it.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CellStatus {
    Ok,
    Error,
    /// Interrupted at the cell time limit.
    Timeout,
    /// Not reached: the run stopped before it (total time limit, dead kernel).
    NotRun,
}

impl CellStatus {
    /// The executor's name for it, in words.
    pub fn words(self) -> &'static str {
        match self {
            CellStatus::Ok => "ok",
            CellStatus::Error => "error",
            CellStatus::Timeout => "timeout",
            CellStatus::NotRun => "not run",
        }
    }
}

/// What happened to one code cell.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct CellRun {
    /// Position in the notebook's cell list (0-based).
    pub index: usize,
    pub id: Option<String>,
    pub status: CellStatus,
    #[serde(default)]
    pub seconds: f64,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
}

/// The executor's summary of a run.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Run {
    pub cells: Vec<CellRun>,
    #[serde(default)]
    pub seconds: f64,
    /// Why the run stopped early (total time limit, kernel died), if it did.
    #[serde(default)]
    pub stopped: Option<String>,
}

/// Why a notebook could not be executed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    pub notebook: PathBuf,
    pub problem: String,
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
    let script = tempfile::Builder::new()
        .prefix("bpe-lab-run-")
        .suffix(".py")
        .tempfile()
        .map_err(|e| fail(format!("could not write the executor script: {e}")))?;
    std::fs::write(script.path(), RUNNER_SOURCE)
        .map_err(|e| fail(format!("could not write the executor script: {e}")))?;
    let mut command = Command::new(&options.python);
    command
        .arg(script.path())
        .arg("--input")
        .arg(input)
        .arg("--output")
        .arg(output)
        .arg("--cwd")
        .arg(&options.cwd)
        .arg("--cell-timeout")
        .arg(options.cell_timeout.as_secs().to_string())
        .arg("--total-timeout")
        .arg(options.total_timeout.as_secs().to_string());
    if let Some(kernel) = &options.kernel {
        command.arg("--kernel").arg(kernel);
    }
    if let Some(mb) = options.memory_mb {
        command.arg("--user-memory-mb").arg(mb.to_string());
    }
    for (key, value) in &options.env {
        command.arg("--env").arg(format!("{key}={value}"));
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| {
        fail(format!(
            "could not start {}: {e} (set {PYTHON_ENV} or run scripts/lab setup)",
            options.python.display()
        ))
    })?;
    // Drain both pipes on threads so a chatty kernel cannot block the executor.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    // The executor enforces the limits itself; this watchdog only catches an executor that
    // hangs, and gives it time to shut its kernel down before it is killed.
    let deadline = Instant::now() + options.total_timeout + Duration::from_secs(90);
    let mut terminated = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(fail(format!("waiting for the executor: {e}"))),
        }
        if Instant::now() > deadline && !terminated {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(child.id().to_string())
                .status();
            terminated = true;
        } else if Instant::now() > deadline + Duration::from_secs(20) {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    if terminated {
        return Err(fail(format!(
            "the executor did not finish within the total time limit of {} s and was stopped",
            options.total_timeout.as_secs()
        )));
    }
    // The summary is the one JSON object the executor prints on stdout (possibly indented).
    let summary = stdout.find('{').map(|start| &stdout[start..]);
    match (status.code(), summary) {
        (Some(0), Some(text)) => serde_json::from_str(text.trim_end())
            .map_err(|e| fail(format!("could not read the executor's summary: {e}"))),
        _ => {
            let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            Err(fail(format!(
                "the executor failed ({}): {}",
                status,
                tail.join(" | ").trim()
            )))
        }
    }
}
