//! `lab grade --execute`'s path through the sandbox — the executor package written to the
//! exchange folder, started by `sh` in bubblewrap, its summary and notebook read back — with a
//! Python kernel standing in for evcxr, so it runs without the Rust kernel: a notebook runs,
//! and a flood is stopped at the output cap instead of at the time limit. Skipped without
//! bubblewrap (required with BPE_LAB_SANDBOX_TESTS) or without a Python that has nbclient and
//! ipykernel (`BPE_LAB_PYTHON`, else `.venv`).

use bpe_lab_cli::course::executor::CellStatus;
use bpe_lab_cli::course::process::Sandbox;
use bpe_lab_cli::course::run_local::find_python;
use bpe_lab_cli::course::run_sandboxed::{ExecuteOptions, Executed, execute};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn setting() -> Option<(Sandbox, ExecuteOptions, tempfile::TempDir)> {
    let required = std::env::var_os("BPE_LAB_SANDBOX_TESTS").is_some();
    let bwrap = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        bwrap || !required,
        "BPE_LAB_SANDBOX_TESTS is set but bwrap is missing"
    );
    let python = find_python(Path::new(env!("BPE_LAB_REPO")));
    let probe = Command::new(&python)
        .args([
            "-c",
            "import nbclient, ipykernel, sys; print(sys.prefix); print(sys.base_prefix)",
        ])
        .output()
        .ok()?;
    if !bwrap || !probe.status.success() {
        eprintln!("skipped: needs bubblewrap and a Python with nbclient and ipykernel");
        return None;
    }
    let python_roots: Vec<PathBuf> = String::from_utf8_lossy(&probe.stdout)
        .lines()
        .map(PathBuf::from)
        .filter(|p| !p.starts_with("/usr"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    // The "rust" kernel spec starts this in place of evcxr: a Python kernel.
    let kernel = dir.path().join("fake-kernel");
    std::fs::write(
        &kernel,
        format!(
            "#!/bin/sh\nexec {} -m ipykernel_launcher -f \"$2\"\n",
            python.display()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&kernel, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let options = ExecuteOptions {
        python,
        python_roots,
        kernel,
        kernel_cache: None,
        cargo_home: PathBuf::from("/nonexistent-cargo-home"),
        project: PathBuf::from(env!("BPE_LAB_REPO")),
        cell_timeout: Duration::from_secs(300),
        total_timeout: Duration::from_secs(600),
        memory_mb: 1024,
        scratch_bytes: 256 << 20,
        output_limit: 2 << 20,
    };
    let sandbox = Sandbox::detect(false).unwrap();
    let scratch_root = tempfile::tempdir().unwrap();
    sandbox.prepare_scratch(scratch_root.path(), 0).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(scratch_root.path(), std::fs::Permissions::from_mode(0o711))
            .unwrap();
    }
    std::mem::forget(dir); // the fake kernel must outlive the runs
    Some((sandbox, options, scratch_root))
}

fn notebook(cells: &[&str]) -> Vec<u8> {
    let cells: Vec<_> = cells
        .iter()
        .enumerate()
        .map(|(i, source)| {
            json!({"cell_type": "code", "id": format!("c{i}"), "metadata": {}, "source": source,
                   "outputs": [], "execution_count": null})
        })
        .collect();
    serde_json::to_vec(&json!({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
        .unwrap()
}

#[test]
fn a_notebook_runs_in_the_sandbox_and_a_flood_is_cut_at_the_cap() {
    let Some((sandbox, options, scratch_root)) = setting() else {
        return;
    };
    let honest = notebook(&["print('hello from the sandbox')", "1/0"]);
    match execute(
        &honest,
        "03-merge",
        &options,
        &sandbox,
        scratch_root.path(),
        0,
    ) {
        Executed::Ran { notebook, run } => {
            let statuses: Vec<CellStatus> = run.cells.iter().map(|c| c.status).collect();
            assert_eq!(statuses, [CellStatus::Ok, CellStatus::Error]);
            assert!(String::from_utf8_lossy(&notebook).contains("hello from the sandbox"));
        }
        Executed::Failed(why) => panic!("{why}"),
    }
    let flood = notebook(&["while True:\n    print('x' * 1000)", "print('never')"]);
    let started = Instant::now();
    match execute(
        &flood,
        "03-merge",
        &options,
        &sandbox,
        scratch_root.path(),
        0,
    ) {
        Executed::Ran { notebook, run } => {
            assert_eq!(run.stopped.as_deref(), Some("output limit"));
            assert_eq!(run.cells[1].status, CellStatus::NotRun);
            assert!(notebook.len() <= options.output_limit, "{}", notebook.len());
        }
        Executed::Failed(why) => panic!("{why}"),
    }
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "cut at the cap, not at the {} s limit: {:?}",
        options.cell_timeout.as_secs(),
        started.elapsed()
    );
}
