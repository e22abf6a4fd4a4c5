//! Jupyter notebook files (nbformat 4) as the instructor tools need them: read with errors
//! that name the file and the problem, cells with their ids, roles and source text, written
//! atomically.

use bpe_lab::files::{describe_io_error, write_atomically};
use serde_json::{Map, Value, json};
use std::fmt;
use std::path::{Path, PathBuf};

/// The marker lines around a solution (nbgrader's, so nbgrader reads the sources too).
pub(crate) const BEGIN_SOLUTION: &str = "// BEGIN SOLUTION";
pub(crate) const END_SOLUTION: &str = "// END SOLUTION";

/// Why a notebook file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotebookError {
    pub(crate) path: PathBuf,
    pub(crate) problem: String,
}

impl fmt::Display for NotebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for NotebookError {}

fn problem(path: &Path, problem: impl Into<String>) -> NotebookError {
    NotebookError {
        path: path.to_owned(),
        problem: problem.into(),
    }
}

/// What a cell is for, from its metadata and text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Role {
    /// Markdown, setup and demonstration cells: students read them; grading restores them.
    Content,
    /// A code cell with `// BEGIN SOLUTION` … `// END SOLUTION`: the student's to write.
    Solution,
    /// A check cell (`metadata.bpe_lab.exercise`): runs the exercise's check; graded.
    Check { exercise: String, points: f64 },
    /// An instructor's test cell (`metadata.bpe_lab.own_test`, the exercise's name): named
    /// tests with their points, some maybe hidden ([`crate::course::own_tests`]); graded.
    OwnTest { exercise: String },
}

/// A notebook as JSON, with accessors for what the tools use. Unknown fields are kept.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Notebook {
    pub(crate) json: Value,
}

impl Notebook {
    /// Reads and validates `path`: JSON, an object with nbformat 4 and a `cells` list whose
    /// cells each have a `cell_type` and a `source`.
    pub(crate) fn read(path: &Path) -> Result<Notebook, NotebookError> {
        let bytes = std::fs::read(path).map_err(|e| problem(path, describe_io_error(&e)))?;
        Notebook::parse(&bytes, path)
    }

    /// Validates `bytes` as a notebook; `path` only names it in errors.
    pub(crate) fn parse(bytes: &[u8], path: &Path) -> Result<Notebook, NotebookError> {
        let json: Value = serde_json::from_slice(bytes).map_err(|e| {
            problem(
                path,
                format!("not JSON (line {}, column {}: {e})", e.line(), e.column()),
            )
        })?;
        let Some(object) = json.as_object() else {
            return Err(problem(path, "not a notebook: the JSON is not an object"));
        };
        let Some(cells) = object.get("cells").and_then(Value::as_array) else {
            return Err(problem(path, "not a notebook: no \"cells\" list"));
        };
        match object.get("nbformat").and_then(Value::as_u64) {
            Some(4) => {}
            Some(n) => {
                return Err(problem(
                    path,
                    format!("nbformat {n} is not supported (4 is)"),
                ));
            }
            None => return Err(problem(path, "not a notebook: no \"nbformat\" number")),
        }
        for (i, cell) in cells.iter().enumerate() {
            let kind = cell.get("cell_type").and_then(Value::as_str);
            if kind.is_none() || cell.get("source").is_none() {
                return Err(problem(
                    path,
                    format!("cell {}: needs a \"cell_type\" and a \"source\"", i + 1),
                ));
            }
        }
        Ok(Notebook { json })
    }

    /// Writes the notebook (one-space indented, as Jupyter does) atomically.
    pub(crate) fn write(&self, path: &Path) -> Result<(), NotebookError> {
        let mut text = to_jupyter_json(&self.json);
        text.push('\n');
        write_atomically(path, |w| w.write_all(text.as_bytes()))
            .map_err(|e| problem(path, describe_io_error(&e)))
    }

    pub(crate) fn cells(&self) -> &[Value] {
        self.json["cells"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub(crate) fn cells_mut(&mut self) -> &mut Vec<Value> {
        self.json["cells"]
            .as_array_mut()
            .expect("validated notebooks have a cells list")
    }

    /// The lab this notebook belongs to (`metadata.bpe_lab.lab`), when it says.
    pub(crate) fn lab(&self) -> Option<&str> {
        self.json["metadata"]["bpe_lab"]["lab"].as_str()
    }
}

/// A cell as people see it: its number (1-based) and its id.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct CellRef {
    pub(crate) number: usize,
    pub(crate) id: String,
}

impl fmt::Display for CellRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cell {} ({})", self.number, self.id)
    }
}

/// A cell's `id` (nbformat 4.5), if it has one.
pub(crate) fn cell_id(cell: &Value) -> Option<&str> {
    cell.get("id").and_then(Value::as_str)
}

/// The name the release gave a cell (`metadata.nbgrader.grade_id`). Every Jupyter keeps cell
/// metadata where some regenerate or drop cell ids, so this, not the id, says which released
/// cell a submitted one is.
pub(crate) fn grade_id(cell: &Value) -> Option<&str> {
    cell["metadata"]["nbgrader"]["grade_id"].as_str()
}

pub(crate) fn is_code(cell: &Value) -> bool {
    cell.get("cell_type").and_then(Value::as_str) == Some("code")
}

/// A cell's source as one string (nbformat allows a string or a list of lines).
pub(crate) fn source(cell: &Value) -> String {
    match cell.get("source") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(lines)) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Sets a cell's source as a list of lines, the way Jupyter writes it.
pub(crate) fn set_source(cell: &mut Value, text: &str) {
    let lines: Vec<Value> = text
        .split_inclusive('\n')
        .map(|l| Value::String(l.to_owned()))
        .collect();
    cell["source"] = Value::Array(lines);
}

/// The cell's role: a check names its exercise in `metadata.bpe_lab`, a solution has the
/// markers, everything else is content.
pub(crate) fn role(cell: &Value) -> Role {
    let meta = &cell["metadata"]["bpe_lab"];
    if let Some(exercise) = meta["exercise"].as_str() {
        return Role::Check {
            exercise: exercise.to_owned(),
            points: meta["points"].as_f64().unwrap_or(1.0),
        };
    }
    if let Some(exercise) = crate::course::own_tests::cell::own_exercise(cell) {
        return Role::OwnTest {
            exercise: exercise.to_owned(),
        };
    }
    if is_code(cell) && source(cell).contains(BEGIN_SOLUTION) {
        return Role::Solution;
    }
    Role::Content
}

/// Whether a cell is protected: nbgrader's `locked`, which `release` sets on every cell but
/// the solutions. The one test for it — restoring, judging and releasing all ask here.
pub(crate) fn is_locked(cell: &Value) -> bool {
    cell["metadata"]["nbgrader"]["locked"] == Value::Bool(true)
}

/// Removes outputs and execution counts (code cells keep empty ones, as nbformat requires).
pub(crate) fn clear_outputs(cell: &mut Value) {
    if is_code(cell)
        && let Some(object) = cell.as_object_mut()
    {
        object.insert("outputs".to_owned(), json!([]));
        object.insert("execution_count".to_owned(), Value::Null);
    }
}

/// A cell's metadata object, created when missing.
pub(crate) fn metadata_mut(cell: &mut Value) -> &mut Map<String, Value> {
    if !cell["metadata"].is_object() {
        cell["metadata"] = json!({});
    }
    cell["metadata"]
        .as_object_mut()
        .expect("just made an object")
}

/// JSON with one-space indentation and keys in their stored order: what Jupyter writes, so
/// committed notebooks diff cleanly after a save in JupyterLab.
pub(crate) fn to_jupyter_json(value: &Value) -> String {
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    serde::Serialize::serialize(value, &mut serializer).expect("JSON values serialize");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Notebook, NotebookError> {
        Notebook::parse(text.as_bytes(), Path::new("x.ipynb"))
    }

    #[test]
    fn refuses_what_is_not_a_notebook() {
        assert!(parse("{").unwrap_err().problem.starts_with("not JSON"));
        assert!(parse("[]").unwrap_err().problem.contains("not an object"));
        assert!(
            parse("{\"a\":1}")
                .unwrap_err()
                .problem
                .contains("no \"cells\"")
        );
        assert!(
            parse("{\"cells\":[],\"nbformat\":3}")
                .unwrap_err()
                .problem
                .contains("nbformat 3")
        );
        let err = parse("{\"cells\":[{}],\"nbformat\":4}").unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.ipynb: cell 1: needs a \"cell_type\" and a \"source\""
        );
    }

    #[test]
    fn roles_and_sources() {
        let nb = parse(
            r#"{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[
            {"cell_type":"code","id":"a","metadata":{},"source":["fn f() {\n","    // BEGIN SOLUTION\n","}"],"outputs":[],"execution_count":1},
            {"cell_type":"code","id":"b","metadata":{"bpe_lab":{"exercise":"f","points":2}},"source":"check::f(f);","outputs":[],"execution_count":null},
            {"cell_type":"markdown","id":"c","metadata":{},"source":"Hi"}]}"#,
        )
        .unwrap();
        let cells = nb.cells();
        assert_eq!(role(&cells[0]), Role::Solution);
        assert_eq!(
            role(&cells[1]),
            Role::Check {
                exercise: "f".into(),
                points: 2.0
            }
        );
        assert_eq!(role(&cells[2]), Role::Content);
        assert_eq!(source(&cells[0]), "fn f() {\n    // BEGIN SOLUTION\n}");
        let mut cell = cells[0].clone();
        set_source(&mut cell, "a\nb");
        assert_eq!(cell["source"], json!(["a\n", "b"]));
        clear_outputs(&mut cell);
        assert_eq!(cell["execution_count"], Value::Null);
    }
}
