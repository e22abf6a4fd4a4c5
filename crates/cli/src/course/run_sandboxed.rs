//! `lab grade --execute`: the restored submission run top to bottom with the real kernel, for
//! the feedback folder only — the grade never comes from it (that is the judge's). The run
//! happens in the same sandbox as the judge's workers, with a view built for a kernel:
//!
//! - an in-memory scratch of bounded size holds everything writable — the kernel's build
//!   directory, a private copy of evcxr's compile cache (so one submission cannot poison the
//!   cache that the next ones, or the instructor's own kernels, use), `CARGO_HOME`'s locks,
//!   the notebook's working directory;
//! - the toolchain, cargo's registry, Python and the evcxr binary are read-only at their own
//!   paths (evcxr's cache keys hold those paths, so the copied cache is hit);
//! - of the project, only what building the crate needs (manifest, lock file, `build.rs`,
//!   `src`, `data`, `benches`) is visible, read-only: never `instructor/` with the solutions,
//!   `.git`, `target/`, nor other students' submissions or the gradebook;
//! - the time limit is enforced from outside by killing the sandbox, and the executed
//!   notebook comes back on stdout, read up to a size: the executor stops the run as soon as
//!   the cells' outputs pass the cap, and the sandbox is killed as soon as its stdout does.

use super::executor::{Invocation, PACKAGE, Run, argv, write_package};
use super::process::capture::Sink;
use super::process::error::ProcessError;
use super::process::sandbox::{Limits, Mount, Sandbox, View};
use super::process::supervisor::Supervised;
use super::run_local::find_python;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where the run's writable, in-memory scratch appears.
const SCRATCH: &str = "/scratch";
/// The read-only folder with the notebook, the executor and the kernel spec.
const EXCHANGE: &str = "/exchange";
/// Where the evcxr binary appears.
const KERNEL: &str = "/tools/evcxr_jupyter";
/// evcxr's cache as found on the host, read-only; copied into the scratch before the run.
const CACHE_SOURCE: &str = "/kernel-cache";
/// The project pieces a kernel needs to build `bpe-lab` from `path = ".."`.
const CRATE_PIECES: [&str; 6] = [
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "src",
    "data",
    "benches",
];

/// How to execute submissions.
#[derive(Debug, Clone)]
pub struct ExecuteOptions {
    /// The Python with nbclient that runs the executor.
    pub python: PathBuf,
    /// Folders Python needs, mounted read-only at their own paths (its prefix, its base).
    pub python_roots: Vec<PathBuf>,
    /// The `evcxr_jupyter` binary.
    pub kernel: PathBuf,
    /// evcxr's compile cache on the host, when there is one.
    pub kernel_cache: Option<PathBuf>,
    /// cargo's home, for its registry of downloaded crates.
    pub cargo_home: PathBuf,
    /// The project whose crate the notebooks depend on.
    pub project: PathBuf,
    pub cell_timeout: Duration,
    pub total_timeout: Duration,
    /// Address-space limit of the process running the notebook's code, MiB.
    pub memory_mb: u64,
    /// Size of the in-memory scratch, bytes.
    pub scratch_bytes: u64,
    /// Largest executed notebook kept, bytes.
    pub output_limit: usize,
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

impl ExecuteOptions {
    /// Finds what a kernel needs on this machine (the same Python, evcxr and caches that
    /// `scripts/lab setup` installs), or says what is missing and how to get it.
    pub(crate) fn detect(project: &Path) -> Result<ExecuteOptions, String> {
        let python = find_python(project);
        let probe = Command::new(&python)
            .args([
                "-c",
                "import sys, nbclient; print(sys.prefix); print(sys.base_prefix)",
            ])
            .output()
            .map_err(|e| format!("could not start {}: {e}", python.display()))?;
        if !probe.status.success() {
            return Err(format!(
                "{} cannot import nbclient; run scripts/lab setup",
                python.display()
            ));
        }
        let python_roots: Vec<PathBuf> = String::from_utf8_lossy(&probe.stdout)
            .lines()
            .map(PathBuf::from)
            .filter(|p| !p.starts_with("/usr"))
            .collect();
        let cargo_home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".cargo")))
            .ok_or("neither CARGO_HOME nor HOME is set")?;
        let kernel = on_path("evcxr_jupyter")
            .or_else(|| Some(cargo_home.join("bin/evcxr_jupyter")).filter(|p| p.is_file()))
            .ok_or("evcxr_jupyter was not found; run scripts/lab setup")?;
        let kernel_cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| home().map(|h| h.join(".cache")))
            .map(|c| c.join("evcxr"))
            .filter(|c| c.is_dir());
        Ok(ExecuteOptions {
            python,
            python_roots,
            kernel,
            kernel_cache,
            cargo_home,
            project: project.to_owned(),
            cell_timeout: Duration::from_secs(120),
            total_timeout: Duration::from_secs(600),
            memory_mb: 1024,
            scratch_bytes: 4 << 30,
            output_limit: 32 << 20,
        })
    }
}

/// What executing a submission gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Executed {
    /// The executed notebook and the executor's summary of its cells.
    Ran { notebook: Vec<u8>, run: Run },
    /// Why there is no executed notebook.
    Failed(String),
}

/// The kernel spec, pointing at evcxr where the sandbox shows it.
fn kernel_spec() -> String {
    format!(
        "{{\"argv\": [\"{KERNEL}\", \"--control_file\", \"{{connection_file}}\"], \
         \"display_name\": \"Rust\", \"interrupt_mode\": \"message\", \"language\": \"rust\"}}\n"
    )
}

/// Room on stdout for the summary beside the executed notebook.
const SUMMARY_ROOM: usize = 1 << 20;

/// Quotes `word` for the shell.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// The script run inside: fill the scratch, run the executor, then send its summary and the
/// executed notebook on stdout, separated by a marker line.
fn script(lab: &str, options: &ExecuteOptions) -> String {
    let notebook = format!("{SCRATCH}/lab/notebooks/{lab}.ipynb");
    let mut run = Invocation::new(&notebook, &format!("{SCRATCH}/executed.ipynb"));
    run.kernel = Some("rust".to_owned());
    run.cwd = Some(format!("{SCRATCH}/lab/notebooks"));
    run.cell_timeout = options.cell_timeout;
    run.total_timeout = options.total_timeout;
    run.user_memory_mb = Some(options.memory_mb);
    // The cells' outputs stop the run before the notebook outgrows what is kept of it.
    run.output_limit = Some(options.output_limit.saturating_sub(SUMMARY_ROOM).max(1) as u64);
    let executor: Vec<String> = argv("$BPE_LAB_PYTHON", &format!("{EXCHANGE}/{PACKAGE}"), &run)
        .iter()
        .map(|word| match word.as_str() {
            "$BPE_LAB_PYTHON" => "\"$BPE_LAB_PYTHON\"".to_owned(),
            _ => quoted(word),
        })
        .collect();
    format!(
        "set -u\n\
         mkdir -p {SCRATCH}/tmp {SCRATCH}/home {SCRATCH}/cache {SCRATCH}/runtime\n\
         if [ -d {CACHE_SOURCE} ]; then cp -R {CACHE_SOURCE} {SCRATCH}/cache/evcxr; fi\n\
         cp {EXCHANGE}/submission.ipynb {notebook}\n\
         {} > {SCRATCH}/summary.json\n\
         code=$?\n\
         cat {SCRATCH}/summary.json\n\
         printf '\\n%s\\n' \"$BPE_LAB_MARKER\"\n\
         cat {SCRATCH}/executed.ipynb\n\
         exit $code\n",
        executor.join(" "),
    )
}

/// The sandbox's view for a kernel run; `exchange` is the host folder of [`EXCHANGE`].
fn view(options: &ExecuteOptions, sandbox: &Sandbox, exchange: &Path, marker: &str) -> View {
    let lab = format!("{SCRATCH}/lab");
    let mut view = View::new(SCRATCH)
        .mount(Mount::Empty(PathBuf::from(SCRATCH), options.scratch_bytes))
        .mount(Mount::ReadOnly(
            exchange.to_owned(),
            PathBuf::from(EXCHANGE),
        ))
        .mount(Mount::ReadOnly(
            options.kernel.clone(),
            PathBuf::from(KERNEL),
        ))
        .mount(Mount::ReadOnly(
            sandbox.sysroot.clone(),
            sandbox.sysroot.clone(),
        ))
        // cargo takes its locks in its home: a private one, with the registry read-only.
        .mount(Mount::Empty(options.cargo_home.clone(), 16 << 20));
    for shared in ["registry", "git"] {
        let dir = options.cargo_home.join(shared);
        if dir.is_dir() {
            view = view.mount(Mount::ReadOnly(dir.clone(), dir));
        }
    }
    for root in &options.python_roots {
        view = view.mount(Mount::ReadOnly(root.clone(), root.clone()));
    }
    if let Some(cache) = &options.kernel_cache {
        view = view.mount(Mount::ReadOnly(cache.clone(), PathBuf::from(CACHE_SOURCE)));
    }
    for piece in CRATE_PIECES {
        let host = options.project.join(piece);
        if host.exists() {
            view = view.mount(Mount::ReadOnly(host, Path::new(&lab).join(piece)));
        }
    }
    let path = format!("{}:/usr/bin:/bin", sandbox.sysroot.join("bin").display());
    view.mount(Mount::Directory(PathBuf::from(format!("{lab}/notebooks"))))
        .env("PATH", &path)
        .env("HOME", &format!("{SCRATCH}/home"))
        .env("TMPDIR", &format!("{SCRATCH}/tmp"))
        .env("XDG_CACHE_HOME", &format!("{SCRATCH}/cache"))
        .env("CARGO_HOME", &options.cargo_home.display().to_string())
        .env("CARGO_NET_OFFLINE", "true")
        .env("JUPYTER_PATH", &format!("{EXCHANGE}/jupyter"))
        .env("JUPYTER_DATA_DIR", &format!("{SCRATCH}/home/jupyter"))
        .env(
            "JUPYTER_CONFIG_DIR",
            &format!("{SCRATCH}/home/jupyter-config"),
        )
        .env("JUPYTER_RUNTIME_DIR", &format!("{SCRATCH}/runtime"))
        .env("BPE_LAB_PYTHON", &options.python.display().to_string())
        .env("BPE_LAB_MARKER", marker)
}

/// Limits for the whole kernel: rustc needs gigabytes of address space to build the crate,
/// so the student's code gets its own, smaller limit from the executor.
fn limits(options: &ExecuteOptions) -> Limits {
    Limits {
        memory: options.memory_mb.max(8192) << 20,
        cpu_seconds: options.total_timeout.as_secs() + 120,
        processes: 512,
        file_size: 1 << 30,
        open_files: 4096,
    }
}

/// Writes the folder the sandbox sees as [`EXCHANGE`].
fn prepare(exchange: &Path, notebook: &[u8]) -> std::io::Result<()> {
    std::fs::write(exchange.join("submission.ipynb"), notebook)?;
    write_package(exchange)?;
    let spec = exchange.join("jupyter/kernels/rust");
    std::fs::create_dir_all(&spec)?;
    std::fs::write(spec.join("kernel.json"), kernel_spec())
}

/// Executes the restored `notebook` of `lab` in the sandbox of grading slot `slot`.
pub fn execute(
    notebook: &[u8],
    lab: &str,
    options: &ExecuteOptions,
    sandbox: &Sandbox,
    scratch_root: &Path,
    slot: usize,
) -> Executed {
    if !sandbox.confined() {
        return Executed::Failed(
            "not executed: running a notebook needs the sandbox (--execute is refused with --no-sandbox)"
                .to_owned(),
        );
    }
    let exchange = match tempfile::Builder::new()
        .prefix("bpe-lab-execute-")
        .tempdir_in(scratch_root)
    {
        Ok(dir) => dir,
        Err(e) => return Executed::Failed(format!("not executed: no scratch directory: {e}")),
    };
    if let Err(e) = prepare(exchange.path(), notebook)
        .map_err(|e| ProcessError::io(exchange.path().display().to_string(), e))
        .and_then(|_| sandbox.prepare_scratch(exchange.path(), slot))
    {
        return Executed::Failed(format!("not executed: {e}"));
    }
    let marker = marker();
    let view = view(options, sandbox, exchange.path(), &marker);
    let script = script(lab, options);
    let mut command = sandbox.command_in(&view, slot, limits(options), "/bin/sh", &["-c", &script]);
    command.stdin(Stdio::null());
    // A notebook that outgrows what is kept is not waited for: the sandbox dies at once.
    let stdout = Sink::cut_at(options.output_limit + SUMMARY_ROOM);
    let child = match Supervised::spawn(
        command,
        "the notebook run",
        sandbox.tree(),
        stdout,
        Sink::keep(64 << 10),
    ) {
        Ok(child) => child,
        Err(e) => return Executed::Failed(format!("not executed: {e}")),
    };
    // The executor stops itself at the total limit; this is the backstop from outside.
    let limit = options.total_timeout + Duration::from_secs(180);
    let finished = child.finish(Some(Instant::now() + limit), Some(limit));
    let code = match finished.result() {
        Ok(()) => Some(0),
        Err(ProcessError::Exit { code, .. }) => Some(code),
        Err(ProcessError::Signal { .. }) => None,
        Err(ProcessError::OutputCap { .. }) => {
            return Executed::Failed(format!(
                "the executed notebook was larger than {} MiB and was not kept (the run was stopped as soon as it was)",
                options.output_limit >> 20
            ));
        }
        Err(e) => return Executed::Failed(format!("not executed: {e}")),
    };
    split(
        &finished.stdout.kept,
        finished.stdout.total,
        &marker,
        options.output_limit,
        code,
        &finished.stderr.text(),
    )
}

/// A marker line no notebook contains: 128 random bits (from the system's generator; the
/// clock and the process id if it cannot be read).
fn marker() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        bytes = (now ^ (u128::from(std::process::id()) << 96)).to_le_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("--- bpe-lab {hex} ---")
}

/// The summary and the notebook from the sandbox's stdout.
fn split(
    out: &[u8],
    total: u64,
    marker: &str,
    output_limit: usize,
    code: Option<i32>,
    stderr: &str,
) -> Executed {
    let needle = format!("\n{marker}\n");
    let Some(at) = out
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
    else {
        let tail: Vec<&str> = stderr.lines().rev().take(4).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Executed::Failed(format!(
            "not executed: the executor failed (exit {}): {}",
            code.map_or("by a signal".to_owned(), |c| c.to_string()),
            tail.join(" | ")
        ));
    };
    let notebook = &out[at + needle.len()..];
    if total > out.len() as u64 || notebook.len() > output_limit {
        return Executed::Failed(format!(
            "the executed notebook was larger than {} MiB and was not kept",
            output_limit >> 20
        ));
    }
    let summary = String::from_utf8_lossy(&out[..at]);
    match Run::parse(&summary) {
        Ok(run) if !notebook.is_empty() => Executed::Ran {
            notebook: notebook.to_vec(),
            run,
        },
        Ok(_) => Executed::Failed("not executed: the executor wrote no notebook".to_owned()),
        Err(e) => Executed::Failed(format!(
            "not executed: the executor's summary could not be read ({e})"
        )),
    }
}

/// A line for the feedback: how the run went, cell by cell.
pub(crate) fn describe(run: &Run) -> String {
    use super::executor::CellStatus;
    let count = |s: CellStatus| run.cells.iter().filter(|c| c.status == s).count();
    let mut line = format!(
        "executed notebook: {} code cells ran in {:.0} s, {} with an error, {} past the cell time limit, {} not run",
        count(CellStatus::Ok) + count(CellStatus::Error) + count(CellStatus::Timeout),
        run.seconds,
        count(CellStatus::Error),
        count(CellStatus::Timeout),
        count(CellStatus::NotRun),
    );
    if let Some(why) = &run.stopped {
        line.push_str(&format!(" (stopped: {why})"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    const MARK: &str = "--- m ---";

    #[test]
    fn the_notebook_follows_the_summary() {
        let out = format!(
            "{{\"cells\": [{{\"index\": 1, \"status\": \"ok\"}}], \"seconds\": 2.0}}\n{MARK}\n{{\"cells\": []}}"
        );
        match split(out.as_bytes(), out.len() as u64, MARK, 1 << 20, Some(0), "") {
            Executed::Ran { notebook, run } => {
                assert_eq!(notebook, b"{\"cells\": []}");
                assert_eq!(run.cells.len(), 1);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_marker_or_a_cut_output_keeps_nothing() {
        let failed = split(b"{}", 2, MARK, 1 << 20, Some(3), "a\nkernel died");
        assert!(
            matches!(&failed, Executed::Failed(m) if m.contains("exit 3") && m.contains("kernel died"))
        );
        let out = format!("{{\"cells\": []}}\n{MARK}\n{{}}");
        let cut = split(out.as_bytes(), 10 << 20, MARK, 1 << 20, Some(0), "");
        assert!(matches!(&cut, Executed::Failed(m) if m.contains("larger than 1 MiB")));
    }

    #[test]
    fn the_view_shows_the_crate_but_not_the_solutions() {
        let options = ExecuteOptions {
            python: PathBuf::from("/usr/bin/python3"),
            python_roots: Vec::new(),
            kernel: PathBuf::from("/k/evcxr_jupyter"),
            kernel_cache: None,
            cargo_home: PathBuf::from("/nonexistent-cargo"),
            project: PathBuf::from(env!("BPE_LAB_REPO")),
            cell_timeout: Duration::from_secs(1),
            total_timeout: Duration::from_secs(1),
            memory_mb: 1,
            scratch_bytes: 1,
            output_limit: 1,
        };
        let sandbox = Sandbox {
            confinement: super::super::process::sandbox::Confinement::Unconfined,
            sysroot: PathBuf::from("/sysroot"),
            uids: None,
        };
        let v = view(&options, &sandbox, Path::new("/x"), MARK);
        let shown: Vec<String> = v
            .mounts
            .iter()
            .filter_map(|m| match m {
                Mount::ReadOnly(host, _) => host.strip_prefix(&options.project).ok(),
                _ => None,
            })
            .map(|p| p.display().to_string())
            .collect();
        assert!(shown.contains(&"src".to_owned()) && shown.contains(&"Cargo.toml".to_owned()));
        assert!(
            !shown
                .iter()
                .any(|p| p.starts_with("instructor") || p.starts_with("target") || p.is_empty())
        );
        assert!(!v.mounts.iter().any(|m| matches!(m, Mount::Writable(..))));
    }
}
