//! `lab verify` on an instructor's own exercise, with the real kernel: a lab written only as a
//! notebook (`lab new`) verifies — its solution passes its tests, hidden ones included, and the
//! student version says "not implemented" — and a solution that fails one of its own tests
//! (here the hidden one) fails `lab verify`, which names the test. Needs the kernel
//! (./scripts/test sets BPE_LAB_KERNEL_TESTS=1 after scripts/lab setup).

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_success, bpe_lab, path_str};
use support::notebooks::{read_json, root};

const LAB: &str = "08-count-tokens";

/// `lab release` of `sources` into `students`.
fn release(sources: &Path, students: &Path) {
    assert_success(&bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(sources),
        "--output",
        path_str(students),
    ]));
}

/// `lab verify` of the lab in `dir`: its exit code and what it printed.
fn verify(dir: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let python = std::env::var("BPE_LAB_PYTHON")
        .unwrap_or_else(|_| root().join(".venv/bin/python").display().to_string());
    let (sources, students, work) = (
        dir.join("instructor"),
        dir.join("notebooks"),
        dir.join("verify"),
    );
    let mut args = vec![
        "lab",
        "verify",
        "--sources",
        path_str(&sources),
        "--students",
        path_str(&students),
        "--work-dir",
        path_str(&work),
        "--python",
        &python,
        "--threads",
        "2",
    ];
    args.extend_from_slice(extra);
    let run = bpe_lab(&args);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    (run.status.code(), said)
}

/// The notebook with the cell `id`'s source replaced by `edit` of it.
fn edit_cell(path: &Path, id: &str, edit: impl Fn(&str) -> String) {
    let mut nb: Value = read_json(path);
    let cell = nb["cells"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| c["id"] == id)
        .unwrap();
    let text: String = match &cell["source"] {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().map(|l| l.as_str().unwrap()).collect(),
        other => panic!("{other}"),
    };
    cell["source"] = json!(edit(&text));
    fs::write(path, serde_json::to_string_pretty(&nb).unwrap()).unwrap();
}

#[test]
fn an_own_exercise_verifies_and_a_solution_failing_its_hidden_test_is_named() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to start a real kernel"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("instructor");
    assert_success(&bpe_lab(&[
        "lab",
        "new",
        LAB,
        "--sources",
        path_str(&sources),
    ]));
    let source = sources.join(format!("{LAB}.ipynb"));
    // The lab sits outside the repository: its setup cell loads the crate by its absolute
    // path, as an nbgrader course's does (the same crate, so evcxr's cache serves it).
    let crate_path = format!("path = {:?}", root().display().to_string());
    edit_cell(&source, &format!("{LAB}-setup"), |s| {
        s.replace("path = \"..\"", &crate_path)
    });
    release(&sources, &dir.path().join("notebooks"));
    let (code, said) = verify(dir.path(), &[]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains(LAB), "{said}");

    // Right on the visible test ("low lower" has two words), wrong on the hidden one: "" is
    // one piece for split(' ').
    edit_cell(&source, "count_tokens-solution", |s| {
        s.replace("text.split_whitespace().count()", "text.split(' ').count()")
    });
    release(&sources, &dir.path().join("notebooks"));
    let (code, said) = verify(dir.path(), &["--sources-only"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(
        said.contains("no words"),
        "the failing test is named: {said}"
    );
}
