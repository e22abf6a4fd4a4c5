//! The lab's kernel (evcxr built with the patches in kernel/) behaves as stock evcxr 0.22 does
//! where students notice: an untyped `let`, a closure, a moved variable, a panic, a typed tuple,
//! shadowing. tests/kernel_behaviour/behaviour.ipynb holds those cells; expected.json holds
//! what each cell printed, showed or reported under stock evcxr 0.22.0, recorded once. This test
//! runs the notebook with the installed "rust" kernel and compares cell by cell.
//!
//! Needs Jupyter and the `rust` kernel (./scripts/test sets BPE_LAB_KERNEL_TESTS=1 after
//! installing them); without that variable the test says so and does nothing.
//!
//! Recording (with a stock kernel as "rust", e.g. through JUPYTER_PATH):
//! BPE_LAB_KERNEL_TESTS=1 BPE_LAB_RECORD_BEHAVIOUR=1 cargo test --test kernel kernel_behaviour::

use std::path::PathBuf;
use std::time::Duration;

use bpe_lab_cli::course::run_local::{RunOptions, find_python, run_notebook};
use serde_json::{Value, json};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
        .join("tests")
        .join("kernel_behaviour")
        .join(name)
}

/// Text without terminal colour codes (evcxr colours its error reports).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A panic message names the thread by its id, different at every run: `thread '<unnamed>'
/// (909) panicked at` becomes `thread '<unnamed>' (N) panicked at`.
fn without_thread_ids(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("' (") {
        let (before, after) = rest.split_at(at + 3);
        out.push_str(before);
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && after[digits..].starts_with(") panicked") {
            out.push('N');
            rest = &after[digits..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn joined(value: &Value) -> String {
    match value {
        Value::Array(parts) => parts.iter().filter_map(Value::as_str).collect(),
        Value::String(text) => text.clone(),
        _ => String::new(),
    }
}

/// What a student sees of one cell: its streams, results and errors, in order.
fn seen(cell: &Value) -> Value {
    let outputs = cell["outputs"].as_array().cloned().unwrap_or_default();
    let seen: Vec<Value> = outputs
        .iter()
        .map(|output| match output["output_type"].as_str() {
            Some("stream") => json!({
                "stream": output["name"],
                "text": without_thread_ids(&plain(&joined(&output["text"]))),
            }),
            Some("error") => json!({
                "error": output["ename"],
                "message": plain(output["evalue"].as_str().unwrap_or("")),
            }),
            Some(kind) => {
                let data = output["data"].as_object().cloned().unwrap_or_default();
                json!({
                    kind: plain(&joined(&data.get("text/plain").cloned().unwrap_or(Value::Null))),
                    "types": data.keys().collect::<Vec<_>>(),
                })
            }
            None => json!({"unknown": output}),
        })
        .collect();
    json!({"source": joined(&cell["source"]), "outputs": seen})
}

#[test]
fn cells_behave_as_under_stock_evcxr() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to start a real kernel"
        );
        return;
    }
    let root = PathBuf::from(env!("BPE_LAB_REPO"));
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("behaviour.out.ipynb");
    let mut options = RunOptions::new(find_python(&root), dir.path().to_owned());
    options.cell_timeout = Duration::from_secs(600);
    options.total_timeout = Duration::from_secs(1800);
    run_notebook(&fixture("behaviour.ipynb"), &output, &options)
        .unwrap_or_else(|e| panic!("the behaviour notebook did not run: {e}"));
    let executed: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    let cells: Vec<Value> = executed["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["cell_type"] == "code")
        .map(seen)
        .collect();
    let expected_path = fixture("expected.json");
    if std::env::var_os("BPE_LAB_RECORD_BEHAVIOUR").is_some() {
        let text = serde_json::to_string_pretty(&cells).unwrap() + "\n";
        std::fs::write(&expected_path, text).unwrap();
        eprintln!("recorded {}", expected_path.display());
        return;
    }
    let expected: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
    assert_eq!(
        cells.len(),
        expected.len(),
        "cells in the notebook and in expected.json"
    );
    // Every case is there: the recording is not of a kernel that failed to start.
    let recorded = serde_json::to_string(&expected).unwrap();
    for sign in [
        "borrowed data escapes",
        "panicked",
        "cannot find value `text`",
        "\"43\"",
    ] {
        assert!(recorded.contains(sign), "expected.json lacks {sign:?}");
    }
    for (got, want) in cells.iter().zip(&expected) {
        assert_eq!(
            got,
            want,
            "cell {:?} differs from stock evcxr 0.22",
            want["source"].as_str().unwrap_or("")
        );
    }
}
