//! The executor run the way verify and the doctor run it (`run_local::run_notebook`: the embedded
//! package written out, started under the supervisor, its summary parsed), on a Python kernel
//! so it needs no evcxr: cells that pass, fail and time out, and a flood stopped at the output
//! cap. Skipped when the Python of `BPE_LAB_PYTHON` (else `.venv`) has no nbclient or no
//! `python3` kernel (ipykernel).

use bpe_lab_cli::course::executor::CellStatus;
use bpe_lab_cli::course::run_local::{RunOptions, find_python, run_notebook};
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn python_with_a_kernel() -> Option<std::path::PathBuf> {
    let python = find_python(Path::new(env!("BPE_LAB_REPO")));
    let probe = Command::new(&python)
        .args([
            "-c",
            "import nbclient, nbformat\nfrom jupyter_client.kernelspec import KernelSpecManager\nKernelSpecManager().get_kernel_spec('python3')",
        ])
        .output()
        .ok()?;
    if probe.status.success() {
        Some(python)
    } else {
        eprintln!(
            "skipped: {} has no nbclient or no python3 kernel",
            python.display()
        );
        None
    }
}

fn notebook(dir: &Path, name: &str, cells: &[&str]) -> std::path::PathBuf {
    let cells: Vec<_> = cells
        .iter()
        .enumerate()
        .map(|(i, source)| {
            json!({"cell_type": "code", "id": format!("c{i}"), "metadata": {}, "source": source,
                   "outputs": [], "execution_count": null})
        })
        .collect();
    let nb = json!({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
                    "nbformat": 4, "nbformat_minor": 5});
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(&nb).unwrap()).unwrap();
    path
}

#[test]
fn cells_that_pass_fail_and_time_out_are_reported_cell_by_cell() {
    let Some(python) = python_with_a_kernel() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = notebook(
        dir.path(),
        "basic.ipynb",
        &[
            "print('hello')",
            "raise ValueError('boom')",
            "import time\ntime.sleep(60)",
            "print('after')",
        ],
    );
    let mut options = RunOptions::new(python, dir.path().to_owned());
    options.cell_timeout = Duration::from_secs(3);
    options.total_timeout = Duration::from_secs(120);
    let output = dir.path().join("out.ipynb");
    let run = run_notebook(&input, &output, &options).unwrap();
    let statuses: Vec<CellStatus> = run.cells.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        [
            CellStatus::Ok,
            CellStatus::Error,
            CellStatus::Timeout,
            CellStatus::Ok
        ]
    );
    assert!(
        run.cells[1]
            .error
            .as_deref()
            .unwrap()
            .starts_with("ValueError: boom")
    );
    assert_eq!(run.stopped, None);
    let executed = std::fs::read_to_string(&output).unwrap();
    assert!(executed.contains("hello") && executed.contains("after"));
}

#[test]
fn a_flood_stops_the_run_at_the_output_cap_not_at_the_time_limit() {
    let Some(python) = python_with_a_kernel() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = notebook(
        dir.path(),
        "flood.ipynb",
        &[
            "print('small')",
            "while True:\n    print('x' * 1000)",
            "print('never')",
        ],
    );
    let mut options = RunOptions::new(python, dir.path().to_owned());
    options.cell_timeout = Duration::from_secs(300);
    options.total_timeout = Duration::from_secs(600);
    options.output_limit = Some(200_000);
    let output = dir.path().join("out.ipynb");
    let started = Instant::now();
    let run = run_notebook(&input, &output, &options).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(run.stopped.as_deref(), Some("output limit"));
    let statuses: Vec<CellStatus> = run.cells.iter().map(|c| c.status).collect();
    assert_eq!(
        statuses,
        [CellStatus::Ok, CellStatus::Error, CellStatus::NotRun]
    );
    let size = std::fs::metadata(&output).unwrap().len();
    assert!(
        size > 200_000 && size < 300_000,
        "the outputs kept up to the cap: {size}"
    );
}
