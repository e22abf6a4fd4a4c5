//! The notebook executor, `bpe_lab_executor/` beside this file: a small Python package
//! (nbclient) that runs a notebook with its real kernel. Its files are embedded in the binary
//! and written out before a run, so it works from any clone and any installed binary. This
//! module is its one launcher ([`argv`]) and the one reader of the summary it prints
//! ([`Run::parse`]); verify, the doctor (through [`super::run_local`]) and `lab grade --execute`
//! (through [`super::run_sandboxed`], inside the sandbox) all go through them.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The package's name: its folder, and what `python FOLDER` runs.
pub(crate) const PACKAGE: &str = "bpe_lab_executor";

/// The package's files, by name.
const FILES: [(&str, &str); 8] = [
    ("__init__.py", include_str!("bpe_lab_executor/__init__.py")),
    ("__main__.py", include_str!("bpe_lab_executor/__main__.py")),
    ("cli.py", include_str!("bpe_lab_executor/cli.py")),
    (
        "evcxr_cache.py",
        include_str!("bpe_lab_executor/evcxr_cache.py"),
    ),
    ("execute.py", include_str!("bpe_lab_executor/execute.py")),
    ("outputs.py", include_str!("bpe_lab_executor/outputs.py")),
    ("summary.py", include_str!("bpe_lab_executor/summary.py")),
    ("watchdog.py", include_str!("bpe_lab_executor/watchdog.py")),
];

/// Writes the package into `dir` (as `dir/bpe_lab_executor/`); returns the package's folder.
pub(crate) fn write_package(dir: &Path) -> std::io::Result<PathBuf> {
    let package = dir.join(PACKAGE);
    std::fs::create_dir_all(&package)?;
    for (name, text) in FILES {
        std::fs::write(package.join(name), text)?;
    }
    Ok(package)
}

/// One run of the executor: the notebook, where the executed copy goes, and the limits.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Invocation {
    pub(crate) input: String,
    pub(crate) output: String,
    /// The kernel spec; `None` takes the notebook's own (`rust` for the labs).
    pub(crate) kernel: Option<String>,
    /// The kernel's working directory.
    pub(crate) cwd: Option<String>,
    pub(crate) cell_timeout: Duration,
    pub(crate) total_timeout: Duration,
    /// Address-space limit of evcxr's user-code process, MiB.
    pub(crate) user_memory_mb: Option<u64>,
    /// The run stops as soon as the cells' outputs pass this many bytes.
    pub(crate) output_limit: Option<u64>,
    /// Extra environment for the kernel.
    pub(crate) env: Vec<(String, String)>,
}

impl Invocation {
    /// A run of `input` into `output` with the default limits (5 minutes a cell, an hour in
    /// all), the notebook's kernel, and no caps.
    pub(crate) fn new(input: &str, output: &str) -> Invocation {
        Invocation {
            input: input.to_owned(),
            output: output.to_owned(),
            kernel: None,
            cwd: None,
            cell_timeout: Duration::from_secs(300),
            total_timeout: Duration::from_secs(3600),
            user_memory_mb: None,
            output_limit: None,
            env: Vec::new(),
        }
    }
}

/// The command line that runs the executor with `python`, the package written at `package`
/// (paths as the process running it sees them).
pub(crate) fn argv(python: &str, package: &str, run: &Invocation) -> Vec<String> {
    let mut argv = vec![
        python.to_owned(),
        package.to_owned(),
        "--input".to_owned(),
        run.input.clone(),
        "--output".to_owned(),
        run.output.clone(),
        "--cell-timeout".to_owned(),
        run.cell_timeout.as_secs().max(1).to_string(),
        "--total-timeout".to_owned(),
        run.total_timeout.as_secs().max(1).to_string(),
    ];
    let optional = [
        ("--kernel", run.kernel.clone()),
        ("--cwd", run.cwd.clone()),
        (
            "--user-memory-mb",
            run.user_memory_mb.map(|m| m.to_string()),
        ),
        ("--output-limit", run.output_limit.map(|b| b.to_string())),
    ];
    for (flag, value) in optional {
        if let Some(value) = value {
            argv.push(flag.to_owned());
            argv.push(value);
        }
    }
    for (key, value) in &run.env {
        argv.push("--env".to_owned());
        argv.push(format!("{key}={value}"));
    }
    argv
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
    pub(crate) fn words(self) -> &'static str {
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
    pub(crate) index: usize,
    pub(crate) id: Option<String>,
    pub status: CellStatus,
    #[serde(default)]
    pub(crate) seconds: f64,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub(crate) reason: Option<String>,
}

/// The executor's summary of a run.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Run {
    pub cells: Vec<CellRun>,
    #[serde(default)]
    pub(crate) seconds: f64,
    /// Why the run stopped early (total time limit, output limit, kernel died), if it did.
    #[serde(default)]
    pub stopped: Option<String>,
}

impl Run {
    /// The summary from the executor's stdout: the one JSON object there (possibly indented),
    /// after anything a library printed before it.
    pub(crate) fn parse(stdout: &str) -> Result<Run, serde_json::Error> {
        let start = stdout
            .find("\n{")
            .map_or_else(|| stdout.find('{').unwrap_or(0), |i| i + 1);
        serde_json::from_str(stdout[start..].trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_read_after_stray_lines() {
        let text = "a warning\n{\n \"cells\": [{\"index\": 3, \"id\": \"c\", \"status\": \"not_run\", \"reason\": \"output limit\"}],\n \"seconds\": 1.5, \"stopped\": \"output limit\", \"kernel\": \"rust\"\n}\n";
        let run = Run::parse(text).unwrap();
        assert_eq!(run.cells[0].status, CellStatus::NotRun);
        assert_eq!(run.cells[0].index, 3);
        assert_eq!(run.stopped.as_deref(), Some("output limit"));
        assert!(Run::parse("no summary").is_err());
    }

    #[test]
    fn the_command_line_carries_every_limit() {
        let mut run = Invocation::new("/in.ipynb", "/out.ipynb");
        run.output_limit = Some(1000);
        run.kernel = Some("rust".into());
        run.env.push(("A".into(), "b=c".into()));
        let argv = argv("python3", "/x/bpe_lab_executor", &run);
        let line = argv.join(" ");
        assert!(
            line.starts_with("python3 /x/bpe_lab_executor --input /in.ipynb --output /out.ipynb")
        );
        assert!(line.contains("--cell-timeout 300 --total-timeout 3600"));
        assert!(line.contains("--kernel rust") && line.contains("--output-limit 1000"));
        assert!(line.ends_with("--env A=b=c"));
        assert!(!line.contains("--user-memory-mb"));
    }

    #[test]
    fn the_package_is_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let package = write_package(dir.path()).unwrap();
        for (name, text) in FILES {
            assert_eq!(std::fs::read_to_string(package.join(name)).unwrap(), text);
        }
        let on_disk = std::fs::read_dir(
            Path::new(env!("BPE_LAB_REPO"))
                .join("crates/cli/src/course")
                .join(PACKAGE),
        )
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".py"))
        .count();
        assert_eq!(
            on_disk,
            FILES.len(),
            "every file of the package is embedded"
        );
    }
}
