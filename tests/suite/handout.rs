//! `bpe-lab lab handout`: the folder students receive holds none of the solutions, builds as a
//! workspace of its own, has what scripts/lab runs, and is written whole or not at all.
//!
//! The search for solution code is written here, apart from the command: it reads the
//! solutions out of the instructor sources itself, so a command that copied the wrong folder
//! cannot also hide it.

use crate::support::cli::{assert_failure, assert_success, bpe_lab, entries, path_str};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn repo() -> &'static Path {
    Path::new(env!("BPE_LAB_REPO"))
}

/// Writes the handout of this repository into a new folder under `dir`.
fn write_handout(dir: &Path) -> PathBuf {
    let out = dir.join("handout");
    let sources = repo().join("instructor");
    let output = bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
    ]);
    assert_success(&output);
    out
}

/// The repository's handout, written once for the tests that only read it.
fn handout() -> &'static Path {
    static HANDOUT: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &HANDOUT
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let out = write_handout(dir.path());
            (dir, out)
        })
        .1
}

/// `text` without any whitespace: solutions are compared whatever their indentation and line
/// breaks.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// One solution region of an instructor source: the code between the markers.
struct Solution {
    notebook: String,
    cell: usize,
    squeezed: String,
}

/// Every solution region of `instructor/*.ipynb`, markers left out.
fn solutions() -> Vec<Solution> {
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = fs::read_dir(repo().join("instructor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    paths.sort();
    for path in paths {
        let nb: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        for (cell, c) in nb["cells"].as_array().unwrap().iter().enumerate() {
            let text = joined(&c["source"]);
            let mut body: Option<String> = None;
            for line in text.lines() {
                match (line.trim(), &mut body) {
                    ("// BEGIN SOLUTION", None) => body = Some(String::new()),
                    ("// END SOLUTION", Some(code)) => {
                        out.push(Solution {
                            notebook: path.file_name().unwrap().to_string_lossy().into_owned(),
                            cell: cell + 1,
                            squeezed: squeeze(code),
                        });
                        body = None;
                    }
                    (_, Some(code)) => {
                        code.push_str(line);
                        code.push('\n');
                    }
                    (_, None) => {}
                }
            }
        }
    }
    out
}

/// A notebook cell's source: a string, or a list of lines.
fn joined(source: &Value) -> String {
    match source {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Solution bodies shorter than this (without whitespace) are allowed in the crate's own
/// source, `src/`, and nowhere else. The one such body today is notebook 07's `byte_initialize`
/// (`chunks.iter().map(|chunk| chunk.bytes().map(u32::from).collect()).collect()`, 74
/// characters): a single expression, the only natural way to write the step, and the engine,
/// which must ship, writes it the same way (src/bpe/steps.rs). Every other body has at least
/// 150 characters — several statements — whose exact text cannot turn up by chance, and no
/// body of any length may appear in the notebooks, the pages or the scripts.
const SHORT: usize = 100;

/// Where a solution's code was found.
#[derive(Debug, PartialEq, Eq)]
struct Hit {
    /// The file, relative to the folder searched.
    file: PathBuf,
    notebook: String,
    cell: usize,
}

/// Every file of `dir` (recursively) that holds the code of one of `solutions`: in its text as
/// it is, and, for JSON (notebooks above all), in each string value and each list of strings
/// joined (a notebook cell's lines), since JSON escapes and splits the code it holds.
fn search(dir: &Path, solutions: &[Solution]) -> Vec<Hit> {
    let mut hits = Vec::new();
    for file in files(dir) {
        let Ok(text) = fs::read_to_string(&file) else {
            continue; // not text (a picture)
        };
        let mut texts = vec![squeeze(&text)];
        if let Ok(json) = serde_json::from_str::<Value>(&text) {
            json_texts(&json, &mut texts);
        }
        let relative = file.strip_prefix(dir).unwrap().to_owned();
        for s in solutions {
            let exempt = s.squeezed.len() < SHORT && relative.starts_with("src");
            if !exempt && texts.iter().any(|t| t.contains(&s.squeezed)) {
                hits.push(Hit {
                    file: relative.clone(),
                    notebook: s.notebook.clone(),
                    cell: s.cell,
                });
            }
        }
    }
    hits
}

fn json_texts(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(squeeze(s)),
        Value::Array(items) => {
            if items.iter().all(Value::is_string) {
                out.push(squeeze(&joined(value)));
            }
            items.iter().for_each(|v| json_texts(v, out));
        }
        Value::Object(map) => map.values().for_each(|v| json_texts(v, out)),
        _ => {}
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            out.extend(files(&entry.path()));
        } else {
            out.push(entry.path());
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_handout_holds_no_solutions_code() {
    let solutions = solutions();
    // One region per exercise: the search cannot pass by finding no solutions to look for.
    let checks = fs::read_dir(repo().join("instructor"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .map(|p| {
            let nb: Value = serde_json::from_str(&fs::read_to_string(p).unwrap()).unwrap();
            nb["cells"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["metadata"]["bpe_lab"]["exercise"].is_string())
                .count()
        })
        .sum::<usize>();
    assert!(checks > 0);
    assert_eq!(solutions.len(), checks, "a solution region per exercise");
    let hits = search(handout(), &solutions);
    assert!(hits.is_empty(), "solution code in the handout: {hits:#?}");
}

/// The search above can fail: solution code planted in a copy of the handout, re-indented in
/// a source file, split into a notebook cell's lines (as the self-study edition folds it), and
/// the short body outside `src/`, is reported, each where it was put.
#[test]
fn the_search_reports_a_planted_solution() {
    let solutions = solutions();
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy");
    copy_tree(handout(), &copy);
    assert!(search(&copy, &solutions).is_empty());

    let original = |notebook: &str, cell: usize| -> String {
        let path = repo().join("instructor").join(notebook);
        let nb: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        joined(&nb["cells"][cell - 1]["source"])
    };
    let longest = solutions.iter().max_by_key(|s| s.squeezed.len()).unwrap();
    let shortest = solutions.iter().min_by_key(|s| s.squeezed.len()).unwrap();
    assert!(shortest.squeezed.len() < SHORT && longest.squeezed.len() >= SHORT);

    // 1. Re-indented with tabs, at the end of a source file of the crate.
    let code = original(&longest.notebook, longest.cell).replace("    ", "\t");
    let display = copy.join("src/lab/display.rs");
    let mut text = fs::read_to_string(&display).unwrap();
    text.push_str("\n/*\n");
    text.push_str(&code);
    text.push_str("\n*/\n");
    fs::write(&display, text).unwrap();
    // 2. A Markdown cell of a notebook, one JSON string per line.
    let merge = solutions
        .iter()
        .find(|s| s.notebook == "03-merge.ipynb")
        .unwrap();
    let notebook = copy.join("notebooks/03-merge.ipynb");
    let mut nb: Value = serde_json::from_str(&fs::read_to_string(&notebook).unwrap()).unwrap();
    let lines: Vec<Value> = original(&merge.notebook, merge.cell)
        .split_inclusive('\n')
        .map(|l| Value::String(l.to_owned()))
        .collect();
    nb["cells"].as_array_mut().unwrap().push(serde_json::json!({
        "cell_type": "markdown", "id": "planted", "metadata": {}, "source": lines
    }));
    fs::write(&notebook, serde_json::to_string_pretty(&nb).unwrap()).unwrap();
    // 3. The short body, in the students' guide (exempt only in src/).
    let guide = copy.join("docs/students.md");
    let mut text = fs::read_to_string(&guide).unwrap();
    text.push_str(&original(&shortest.notebook, shortest.cell));
    fs::write(&guide, text).unwrap();

    let hits = search(&copy, &solutions);
    let found = |file: &str, s: &Solution| {
        hits.iter()
            .any(|h| h.file == Path::new(file) && h.notebook == s.notebook && h.cell == s.cell)
    };
    assert!(found("src/lab/display.rs", longest), "{hits:#?}");
    assert!(found("notebooks/03-merge.ipynb", merge), "{hits:#?}");
    assert!(found("docs/students.md", shortest), "{hits:#?}");
    assert_eq!(hits.len(), 3, "{hits:#?}");
}

#[test]
fn the_handout_has_the_graded_notebooks_and_none_of_the_instructors_files() {
    let out = handout();
    for absent in [
        "instructor",
        "docs/samples",
        "docs/instructors.md",
        "notebooks-self-study",
        "tests",
        "benches",
        "examples",
        "target",
        ".ci",
        "CHANGELOG.md",
        "crates/cli/Cargo.toml",
        "crates/cli/src/course/judge",
        "scripts/test",
        "scripts/image",
    ] {
        assert!(!out.join(absent).exists(), "{absent} is in the handout");
    }
    for present in [
        "Cargo.toml",
        "Cargo.lock",
        "src/lib.rs",
        "src/lab/reference.rs",
        "data/africa_galore_stand_in.json",
        "scripts/lab",
        "kernel/README.md",
        "Dockerfile",
        ".dockerignore",
        "binder/postBuild",
        ".devcontainer/devcontainer.json",
        "docs/students.md",
        ".bpe-lab-handout",
    ] {
        assert!(out.join(present).exists(), "{present} is missing");
    }
    // Every source's graded student version, and nothing else.
    let mut sources = entries(&repo().join("instructor"));
    sources.retain(|n| n.ends_with(".ipynb"));
    let mut notebooks = entries(&out.join("notebooks"));
    notebooks.retain(|n| n.ends_with(".ipynb"));
    assert_eq!(notebooks, sources);
    for name in &notebooks {
        let nb: Value =
            serde_json::from_str(&fs::read_to_string(out.join("notebooks").join(name)).unwrap())
                .unwrap();
        assert_eq!(nb["metadata"]["bpe_lab"]["version"], "student", "{name}");
        assert!(
            nb["metadata"]["bpe_lab"].get("solutions").is_none(),
            "{name} is the self-study edition"
        );
        // What students get is what was committed (and verified).
        assert_eq!(
            fs::read(out.join("notebooks").join(name)).unwrap(),
            fs::read(repo().join("notebooks").join(name)).unwrap(),
            "{name}"
        );
    }
    // Scripts stay runnable.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(out.join("scripts/lab"))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "scripts/lab lost its executable bit");
    }
}

/// The handout is a workspace of its own: cargo loads it (and resolves every dependency from
/// its Cargo.lock, offline), with the library as its one member.
#[test]
fn the_handouts_manifest_loads_with_the_library_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = write_handout(dir.path());
    // This machine's platform only: the registry holds the dependencies built here, not those
    // of other systems (Windows, Android), which a full resolution would want downloaded.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc).arg("-vV").output().unwrap();
    let version = String::from_utf8(version.stdout).unwrap();
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--offline", "--format-version", "1"])
        .args(["--filter-platform", host])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo metadata in the handout: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    let members = metadata["workspace_members"].as_array().unwrap();
    assert_eq!(members.len(), 1, "{members:?}");
    assert!(
        members[0].as_str().unwrap().contains("bpe-lab"),
        "{members:?}"
    );
    assert!(
        metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["name"] != "bpe-lab-cli")
    );
}

/// What scripts/lab, the scripts it sources, binder/ and the Dockerfile run from the
/// repository (`scripts/…`, `crates/…` outside comments) is in the handout.
#[test]
fn what_the_students_scripts_run_is_in_the_handout() {
    let out = handout();
    let mut scripts = vec![
        out.join("scripts/lab"),
        out.join("Dockerfile"),
        out.join(".devcontainer/devcontainer.json"),
    ];
    for dir in ["scripts/lib", "binder"] {
        scripts.extend(files(&out.join(dir)));
    }
    let mut named = 0;
    for script in scripts {
        let text = fs::read_to_string(&script).unwrap();
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with('#') || code.starts_with("//") {
                continue;
            }
            for prefix in ["scripts/", "crates/"] {
                for (at, _) in code.match_indices(prefix) {
                    let before = code[..at].chars().last();
                    if before.is_some_and(|c| c.is_alphanumeric() || "_.-".contains(c)) {
                        continue;
                    }
                    let path: String = code[at..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || "_./-".contains(*c))
                        .collect();
                    let path = path.trim_end_matches('.');
                    named += 1;
                    assert!(
                        out.join(path).exists(),
                        "{} runs {path}, which the handout lacks",
                        script.display()
                    );
                }
            }
        }
    }
    assert!(named >= 3, "the scan found only {named} paths");
}

#[test]
fn an_output_inside_the_sources_or_not_empty_is_refused() {
    let sources = repo().join("instructor");
    let inside = repo().join("src/handout-test-never-written");
    let output = bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&inside),
    ]);
    assert_failure(&output, 2, &["--output", "inside", "src"]);
    assert!(!inside.exists());
    // The repository itself, by another spelling.
    let root = repo().join("src/..");
    let output = bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&root),
    ]);
    assert_failure(&output, 2, &["--output", "inside"]);

    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("kept.txt"), "mine").unwrap();
    let output = bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(dir.path()),
    ]);
    assert_failure(&output, 2, &["--output", "not empty"]);
    assert_eq!(entries(dir.path()), ["kept.txt"]);
}

/// A repository of one notebook, released or not.
fn tiny_repository(dir: &Path) -> PathBuf {
    let repo = dir.join("repo");
    fs::create_dir_all(repo.join("instructor")).unwrap();
    fs::write(repo.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
    let nb = serde_json::json!({
        "cells": [{ "cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["Hello."] }],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5
    });
    fs::write(repo.join("instructor/00-hello.ipynb"), nb.to_string()).unwrap();
    repo
}

#[test]
fn stale_notebooks_are_refused_and_a_failure_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let repo = tiny_repository(dir.path());
    let sources = repo.join("instructor");
    let out = dir.path().join("out/handout");
    let handout = || {
        bpe_lab(&[
            "lab",
            "handout",
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&out),
        ])
    };
    // No such sources: the instructor's mistake too.
    let output = bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&repo.join("no-such-folder")),
        "--output",
        path_str(&out),
    ]);
    assert_failure(&output, 2, &["--sources", "no-such-folder"]);
    // Never released: students would get notebooks nobody verified.
    assert_failure(
        &handout(),
        2,
        &["--sources", "lab release", "00-hello.ipynb"],
    );
    assert!(!out.exists());

    // Released, but the repository lacks what the handout copies: the work stops midway and
    // nothing of it is left, not even the folder it was built in.
    let notebooks = repo.join("notebooks");
    assert_success(&bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&notebooks),
    ]));
    assert_failure(&handout(), 1, &["Cargo.lock", "missing"]);
    assert!(!out.exists());
    assert_eq!(entries(&dir.path().join("out")), Vec::<String>::new());
}
