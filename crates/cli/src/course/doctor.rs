//! Is this machine ready to run the labs? Each check says what it found and, when something
//! is missing, exactly what to run.

use super::executor::CellStatus;
use super::run_local::{RunOptions, run_notebook};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) what: &'static str,
    pub(crate) ok: bool,
    pub(crate) detail: String,
    /// The command that fixes it, when not ok.
    pub(crate) fix: Option<String>,
}

/// The evcxr version the labs are tested with.
pub(crate) const EVCXR_VERSION: &str = "0.22.0";

/// Why a program the doctor ran gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RunFailed {
    /// It could not be started (not installed, not executable).
    NotStarted { program: PathBuf, error: String },
    /// It ran and failed: the last line it wrote on stderr.
    Failed { last_line: String },
}

impl std::fmt::Display for RunFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunFailed::NotStarted { program, error } => {
                write!(f, "could not start {}: {error}", program.display())
            }
            RunFailed::Failed { last_line } => f.write_str(last_line),
        }
    }
}

/// What `program args` printed on stdout, trimmed.
fn run(program: &Path, args: &[&str]) -> Result<String, RunFailed> {
    match Command::new(program).args(args).output() {
        Err(e) => Err(RunFailed::NotStarted {
            program: program.to_owned(),
            error: e.to_string(),
        }),
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        }
        Ok(out) => Err(RunFailed::Failed {
            last_line: String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("failed")
                .to_owned(),
        }),
    }
}

const SETUP: &str = "scripts/lab setup";

/// Checks Rust, Python with Jupyter's libraries, the `rust` kernel spec and evcxr, and (unless
/// `quick`) that the crate builds inside a real kernel, from `kernel_dir` (where the student
/// notebooks are).
pub(crate) fn diagnose(python: &Path, kernel_dir: &Path, quick: bool) -> Vec<Finding> {
    let mut findings = Vec::new();
    let cargo = run(Path::new("cargo"), &["--version"]);
    findings.push(Finding {
        what: "Rust toolchain",
        ok: cargo.is_ok(),
        detail: cargo.clone().unwrap_or_else(|e| e.to_string()),
        fix: cargo
            .is_err()
            .then(|| "install Rust with rustup: https://rustup.rs".to_owned()),
    });
    let libraries = run(
        python,
        &[
            "-c",
            "import nbclient, nbformat, jupyter_client; print('nbclient', nbclient.__version__, 'jupyter_client', jupyter_client.__version__)",
        ],
    );
    findings.push(Finding {
        what: "Python with Jupyter (nbclient)",
        ok: libraries.is_ok(),
        detail: match &libraries {
            Ok(v) => format!("{} ({v})", python.display()),
            Err(e) => format!("{}: {e}", python.display()),
        },
        fix: libraries
            .is_err()
            .then(|| format!("{SETUP}   (or point BPE_LAB_PYTHON at a Python with nbclient)")),
    });
    let specs = run(
        python,
        &[
            "-c",
            "import json; from jupyter_client.kernelspec import KernelSpecManager; print(json.dumps({k: v['spec']['argv'] for k, v in KernelSpecManager().get_all_specs().items()}))",
        ],
    );
    let argv0: Option<PathBuf> = specs
        .as_ref()
        .ok()
        .and_then(|s| serde_json::from_str::<Value>(s).ok())
        .and_then(|v| v["rust"][0].as_str().map(PathBuf::from));
    let spec_ok = argv0.as_ref().is_some_and(|p| p.exists());
    findings.push(Finding {
        what: "Jupyter kernel spec \"rust\"",
        ok: spec_ok,
        detail: match (&argv0, &specs) {
            (Some(p), _) if spec_ok => format!("runs {}", p.display()),
            (Some(p), _) => format!("points to {}, which does not exist", p.display()),
            (None, Ok(s)) => format!("not installed (kernel specs: {s})"),
            (None, Err(e)) => e.to_string(),
        },
        // Without Jupyter's libraries the spec cannot even be listed: installing the kernel
        // spec would not help, setting up Python would.
        fix: (!spec_ok).then(|| {
            if libraries.is_err() {
                format!(
                    "{SETUP}   (Python first: the kernel spec is listed through jupyter_client)"
                )
            } else {
                "evcxr_jupyter --install".to_owned()
            }
        }),
    });
    let evcxr = argv0
        .clone()
        .unwrap_or_else(|| PathBuf::from("evcxr_jupyter"));
    let installed = Command::new(&evcxr).arg("--help").output().is_ok();
    findings.push(Finding {
        what: "evcxr_jupyter",
        ok: installed,
        detail: if installed {
            evcxr.display().to_string()
        } else {
            format!("{} not found", evcxr.display())
        },
        fix: (!installed).then(|| {
            format!(
                "./scripts/lab setup (it builds the lab's evcxr_jupyter {EVCXR_VERSION}, with the patches in kernel/, and installs the kernel spec)"
            )
        }),
    });
    let repository = kernel_dir.parent().unwrap_or(Path::new("."));
    let repository = if repository.as_os_str().is_empty() {
        Path::new(".")
    } else {
        repository
    };
    findings.push(super::doctor_grading::kernel_kind_finding(repository));
    findings.push(super::doctor_grading::sandbox_finding());
    findings.push(super::doctor_grading::tie_rule_finding());
    if quick || !spec_ok {
        return findings;
    }
    findings.push(kernel_build(python, kernel_dir));
    findings
}

/// The setup cell of the first lab notebook, else the standard one.
fn setup_cell(kernel_dir: &Path) -> String {
    let standard = ":cache 2048\n:opt 0\n:dep bpe-lab = { path = \"..\", default-features = false, features = [\"dataset\"] }".to_owned();
    let Ok(nb) = super::notebook::Notebook::read(&kernel_dir.join("00-welcome.ipynb")) else {
        return standard;
    };
    nb.cells()
        .iter()
        .find(|c| super::notebook::is_code(c))
        .map(super::notebook::source)
        .unwrap_or(standard)
}

fn kernel_build(python: &Path, kernel_dir: &Path) -> Finding {
    let what = "bpe-lab builds in the kernel";
    let fail = |detail: String| Finding {
        what,
        ok: false,
        detail,
        fix: Some(format!("{SETUP}   (then run `bpe-lab lab doctor` again)")),
    };
    let Ok(dir) = tempfile::tempdir() else {
        return fail("could not make a temporary directory".to_owned());
    };
    let cells = serde_json::json!([
        {"cell_type": "code", "id": "setup", "metadata": {}, "source": setup_cell(kernel_dir), "outputs": [], "execution_count": null},
        {"cell_type": "code", "id": "use", "metadata": {}, "source": "use bpe_lab::lab::prelude::*;\nprintln!(\"{}\", bpe_lab::EOW);", "outputs": [], "execution_count": null}
    ]);
    let nb = serde_json::json!({"nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {"kernelspec": {"name": "rust", "display_name": "Rust", "language": "rust"}}});
    let input = dir.path().join("doctor.ipynb");
    let output = dir.path().join("doctor.out.ipynb");
    if std::fs::write(&input, nb.to_string()).is_err() {
        return fail("could not write a test notebook".to_owned());
    }
    let mut options = RunOptions::new(python.to_owned(), kernel_dir.to_owned());
    options.cell_timeout = Duration::from_secs(1200);
    options.total_timeout = Duration::from_secs(1500);
    match run_notebook(&input, &output, &options) {
        Err(e) => fail(e.problem),
        Ok(run) => {
            let bad: Vec<String> = run
                .cells
                .iter()
                .filter(|c| c.status != CellStatus::Ok)
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.status.words(),
                        c.error.clone().unwrap_or_default()
                    )
                })
                .collect();
            if bad.is_empty() {
                Finding {
                    what,
                    ok: true,
                    detail: format!(
                        "a fresh kernel compiled and ran it in {:.0} s (from {})",
                        run.seconds,
                        kernel_dir.display()
                    ),
                    fix: None,
                }
            } else {
                fail(bad.join("; "))
            }
        }
    }
}
