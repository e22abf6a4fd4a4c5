//! Reading the project's notebooks in tests.

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// A cell's source as one string (Jupyter stores a list of lines or one string).
pub fn cell_text(source: &Value) -> String {
    match source {
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// The source of cell `id` in the instructor's version of `lab`, solutions included.
pub fn instructor_cell(lab: &str, id: &str) -> String {
    let nb = read_json(&root().join("instructor").join(format!("{lab}.ipynb")));
    let cell = nb["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no cell {id} in instructor/{lab}.ipynb"));
    cell_text(&cell["source"])
}

/// The released student version of `lab` (from `notebooks/`).
pub fn student_notebook(lab: &str) -> Value {
    read_json(&root().join("notebooks").join(format!("{lab}.ipynb")))
}

/// Replaces the solution cell that defines `function` with `code`.
pub fn solve(nb: &mut Value, function: &str, code: &str) {
    let cell = nb["cells"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|c| {
            c["metadata"]["nbgrader"]["solution"] == true
                && cell_text(&c["source"]).contains(&format!("fn {function}("))
        })
        .unwrap_or_else(|| panic!("no solution cell for {function}"));
    cell["source"] = json!(code);
}
