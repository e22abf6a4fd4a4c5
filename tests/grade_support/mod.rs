//! Submissions of lab 03 for the grading tests that run the real grader: the released student
//! notebook with its solution cells replaced, saved one folder per student; and a way to run
//! `bpe-lab` with a changed PATH and compare what two runs wrote.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const LAB: &str = "03-merge";

pub const BEST_RIGHT: &str = "fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut entries: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    entries.first().map(|(p, c)| ((*p).clone(), **c))
}";

pub const MERGE_RIGHT: &str =
    "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!(\"{}{}\", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}";

/// Merges every occurrence but the last one of a word: wrong on some cases.
pub const MERGE_WRONG: &str =
    "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 2 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!(\"{}{}\", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}";

pub const MERGE_PANICS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    panic!(\"boom in {} symbols\", word.len())
}";

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sources() -> PathBuf {
    root().join("instructor")
}

pub fn student_notebook(lab: &str) -> Value {
    let text = fs::read_to_string(root().join("notebooks").join(format!("{lab}.ipynb"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn source(cell: &Value) -> String {
    match &cell["source"] {
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// Lab 03's student notebook with the solution cells of the functions named replaced.
pub fn lab03(best: Option<&str>, merge: Option<&str>) -> Value {
    let mut nb = student_notebook(LAB);
    for (function, code) in [("most_frequent_pair", best), ("merge_pair_in_word", merge)] {
        let Some(code) = code else { continue };
        let cell = nb["cells"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| {
                c["metadata"]["nbgrader"]["solution"] == true
                    && source(c).contains(&format!("fn {function}("))
            })
            .unwrap_or_else(|| panic!("no solution cell for {function}"));
        cell["source"] = json!(code);
    }
    nb
}

/// Saves `nb` as `dir/<student>/03-merge.ipynb`.
pub fn save(dir: &Path, student: &str, nb: &Value) {
    fs::create_dir_all(dir.join(student)).unwrap();
    fs::write(
        dir.join(student).join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(nb).unwrap(),
    )
    .unwrap();
}

/// Runs `bpe-lab` with `args`, with `path_first` (if any) put before the PATH.
pub fn bpe_lab_with_path(args: &[&str], path_first: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command.args(args).stdin(Stdio::null());
    if let Some(dir) = path_first {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![dir.to_owned()];
        dirs.extend(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    command.output().expect("the bpe-lab binary runs")
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                out.push((path.strip_prefix(dir).unwrap().to_owned(), bytes));
            }
        }
    }
    out.sort();
    out
}

/// The gradebook's rows by student (the header is row "student").
pub fn rows_by_student(csv: &str) -> Vec<(String, String)> {
    csv.lines()
        .map(|l| (l.split(',').next().unwrap().to_owned(), l.to_owned()))
        .collect()
}
