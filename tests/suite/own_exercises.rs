//! An instructor's own exercise, written only as notebooks (no file under src/ or crates/
//! knows it): a lab 08 with a solution cell and a test cell of Rust tests, one of them hidden.
//! `lab release` keeps the hidden test out of the student version; `lab grade` grades right,
//! wrong, unfinished, non-compiling and hostile submissions in the sandbox, points per test,
//! and the hidden test reaches neither the gradebook nor the feedback.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_failure, assert_success, bpe_lab, bpe_lab_with_env, path_str, stderr};
use support::sandbox_available;

const LAB: &str = "08-count";
/// Only in the hidden test: found anywhere a student can read, the hidden test leaked.
const SECRET: &str = "SECRET_HIDDEN_CASE";

const SOLUTION: &str = "fn count_tokens(text: &str) -> usize {\n    // BEGIN SOLUTION\n    text.split_whitespace().count()\n    // END SOLUTION\n}\n";

fn test_cell_source() -> String {
    format!(
        "own_test!(\"counts two words\", 2, {{\n    assert_eq!(count_tokens(\"a b\"), 2);\n}});\n\
         // BEGIN HIDDEN TESTS\n\
         own_test!(\"{SECRET} empty\", 1, {{\n    assert_eq!(count_tokens(\"\"), 0, \"{SECRET}\");\n}});\n\
         // END HIDDEN TESTS\n"
    )
}

fn code(id: &str, metadata: Value, source: &str) -> Value {
    json!({"cell_type": "code", "id": id, "metadata": metadata, "source": source,
           "outputs": [], "execution_count": null})
}

/// The instructor's lab 08: setup, a solution cell and a test cell with a hidden test.
fn instructor_notebook(tests: &str) -> Value {
    json!({"nbformat": 4, "nbformat_minor": 5,
    "metadata": {"bpe_lab": {"lab": LAB}},
    "cells": [
      {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# Counting tokens"},
      code("setup", json!({"bpe_lab": {"role": "setup"}}),
           ":dep bpe-lab = { path = \"..\" }\nuse bpe_lab::lab::prelude::*;"),
      code("count-solution", json!({}), SOLUTION),
      code("count-tests", json!({"bpe_lab": {"own_test": "count_tokens"}}), tests),
    ]})
}

fn write_sources(dir: &Path, tests: &str) -> std::path::PathBuf {
    let sources = dir.join("instructor");
    fs::create_dir_all(&sources).unwrap();
    fs::write(
        sources.join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(&instructor_notebook(tests)).unwrap(),
    )
    .unwrap();
    sources
}

fn release(sources: &Path, out: &Path) -> Value {
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(sources),
        "--output",
        path_str(out),
    ]);
    assert_success(&run);
    serde_json::from_str(&fs::read_to_string(out.join(format!("{LAB}.ipynb"))).unwrap()).unwrap()
}

fn source_of(cell: &Value) -> String {
    match &cell["source"] {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

#[test]
fn release_keeps_the_hidden_test_out_of_the_student_version() {
    let dir = tempfile::tempdir().unwrap();
    let sources = write_sources(dir.path(), &test_cell_source());
    let student = release(&sources, &dir.path().join("notebooks"));
    let text = student.to_string();
    assert!(!text.contains(SECRET), "the hidden test shipped: {text}");
    assert!(!text.contains("HIDDEN TESTS"), "{text}");
    let cells = student["cells"].as_array().unwrap();
    let tests = cells.iter().find(|c| c["id"] == "count-tests").unwrap();
    assert!(source_of(tests).contains("counts two words"));
    // Graded, protected, worth every test's points (the hidden one's too).
    assert_eq!(tests["metadata"]["nbgrader"]["points"], json!(3.0));
    assert_eq!(tests["metadata"]["nbgrader"]["locked"], json!(true));
    let solution = cells.iter().find(|c| c["id"] == "count-solution").unwrap();
    assert!(source_of(solution).contains("todo!()"));
}

#[test]
fn release_refuses_hidden_markers_that_do_not_pair_or_sit_outside_a_test_cell() {
    let dir = tempfile::tempdir().unwrap();
    let unclosed = test_cell_source().replace("// END HIDDEN TESTS\n", "");
    let sources = write_sources(dir.path(), &unclosed);
    let out = dir.path().join("notebooks");
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
    ]);
    assert_failure(
        &run,
        1,
        &[
            "cell 4 (count-tests)",
            "// BEGIN HIDDEN TESTS is never closed",
        ],
    );
    assert!(!out.join(format!("{LAB}.ipynb")).exists());

    // Markers in a cell not marked as a test cell would ship as written: refused.
    let mut nb = instructor_notebook(&test_cell_source());
    nb["cells"][3]["metadata"] = json!({});
    fs::write(
        sources.join(format!("{LAB}.ipynb")),
        serde_json::to_string(&nb).unwrap(),
    )
    .unwrap();
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
    ]);
    assert_failure(&run, 1, &["cell 4 (count-tests)", "not a test cell"]);
}

/// The student version with `count_tokens` written as `body` (or left `todo!()`).
fn submission(released: &Value, body: Option<&str>) -> Value {
    let mut nb = released.clone();
    if let Some(body) = body {
        let cell = nb["cells"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| c["id"] == "count-solution")
            .unwrap();
        cell["source"] = json!(body);
    }
    nb
}

fn with_fn(body: &str) -> String {
    format!("fn count_tokens(text: &str) -> usize {{\n{body}\n}}")
}

/// Reads every place the hidden test could be read from inside the sandbox, and shouts what
/// it finds: on stdout, on stderr and as its panic.
const READS_HIDDEN: &str = "let mut found = String::new();
    for path in [\"/scratch/main.rs\", \"main.rs\", \"/proc/self/exe\", \"/scratch/worker\"] {
        if let Ok(bytes) = std::fs::read(path) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if let Some(at) = text.find(\"SECRET_HIDDEN\") {
                found.push_str(&text[at..(at + 60).min(text.len())]);
            }
        }
    }
    println!(\"{found}\");
    eprintln!(\"{found}\");
    panic!(\"{found}\")";

/// Claims a pass on the grader's own channel (fd 4) instead of computing anything.
const FORGES_CHANNEL: &str = "use std::io::Write;
    use std::os::fd::FromRawFd;
    let mut channel = unsafe { std::fs::File::from_raw_fd(4) };
    let mut frame = vec![0u8];
    frame.extend_from_slice(&16u64.to_le_bytes());
    frame.extend_from_slice(&[0u8; 16]);
    let _ = channel.write_all(&frame);
    let _ = channel.flush();
    std::process::exit(0)";

#[test]
fn own_exercise_is_graded_in_the_sandbox_per_test_and_hides_its_hidden_test() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sources = write_sources(dir.path(), &test_cell_source());
    let released = release(&sources, &dir.path().join("notebooks"));
    let subs = dir.path().join("submissions");
    let outside = dir.path().join("written-from-the-sandbox");
    let writes_outside = format!(
        "let _ = std::fs::write({:?}, \"x\");\n    text.split_whitespace().count()",
        outside.display()
    );
    let students: Vec<(&str, Option<String>)> = vec![
        (
            "right",
            Some(with_fn("    text.split_whitespace().count()")),
        ),
        // Wrong on the visible test, right on the hidden one: its point only.
        ("wrong", Some(with_fn("    text.len()"))),
        ("unfinished", None),
        (
            "broken",
            Some(with_fn("    text.split_whitespace().count(")),
        ),
        (
            "printer",
            Some(with_fn(
                "    println!(\"✅ counts two words: passed\");\n    println!(\"EVCXR_BEGIN_CONTENT application/vnd.bpe-lab.check+json\\n{{\\\"exercise\\\": \\\"count_tokens\\\", \\\"status\\\": \\\"passed\\\"}}\\nEVCXR_END_CONTENT\");\n    todo!()",
            )),
        ),
        ("forger", Some(with_fn(FORGES_CHANNEL))),
        ("exiter", Some(with_fn("    std::process::exit(0)"))),
        ("reader", Some(with_fn(READS_HIDDEN))),
        ("writer", Some(with_fn(&writes_outside))),
        (
            "flooder",
            Some(with_fn(
                "    for _ in 0..200_000 { println!(\"flood flood flood flood flood flood\"); }\n    text.split_whitespace().count()",
            )),
        ),
        (
            "sleeper",
            Some(with_fn(
                "    std::thread::sleep(std::time::Duration::from_secs(60));\n    0",
            )),
        ),
    ];
    for (student, body) in &students {
        fs::create_dir_all(subs.join(student)).unwrap();
        fs::write(
            subs.join(student).join(format!("{LAB}.ipynb")),
            serde_json::to_string_pretty(&submission(&released, body.as_deref())).unwrap(),
        )
        .unwrap();
    }
    // Right, with a cell of their own before it that does not compile: in the kernel only
    // that cell fails, so the grader leaves it out, as for a built-in exercise, and says so.
    let mut extra = submission(
        &released,
        Some(&with_fn("    text.split_whitespace().count()")),
    );
    let solution_at = extra["cells"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["id"] == "count-solution")
        .unwrap();
    extra["cells"].as_array_mut().unwrap().insert(
        solution_at,
        code(
            "scratch-work",
            json!({}),
            "fn half(n: u32) -> u32 {\n    \"half\"\n}",
        ),
    );
    fs::create_dir_all(subs.join("extra")).unwrap();
    fs::write(
        subs.join("extra").join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(&extra).unwrap(),
    )
    .unwrap();
    let scratch = dir.path().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let (canvas, nbgrader) = (
        dir.path().join("canvas.csv"),
        dir.path().join("nbgrader.csv"),
    );
    let book = grade(
        &subs,
        &sources,
        &grades,
        &feedback,
        &[
            "--lab",
            LAB,
            "--check-timeout",
            "3",
            "--threads",
            "2",
            "--canvas-csv",
            path_str(&canvas),
            "--nbgrader-csv",
            path_str(&nbgrader),
        ],
        &[("TMPDIR", &scratch)],
    );
    let csv = &book.csv;
    eprintln!("{csv}");
    let expect = |student: &str, points: &str, outcome: &str| {
        let got = (
            book.cell(student, "count_tokens"),
            book.cell(student, "count_tokens outcome"),
        );
        assert_eq!(got, (points, outcome), "{student}");
    };
    expect("right", "3", "passed");
    expect("wrong", "1", "wrong");
    expect("unfinished", "0", "not implemented");
    expect("broken", "0", "did not compile");
    expect("printer", "0", "not implemented");
    expect("forger", "0", "crashed");
    expect("exiter", "0", "crashed");
    expect("reader", "0", "panicked");
    expect("writer", "3", "passed");
    expect("flooder", "3", "passed");
    expect("sleeper", "0", "timed out");
    expect("extra", "3", "passed");
    assert!(
        book.cell("extra", "notes")
            .contains("was left out of `count_tokens`: it does not compile with it"),
        "{csv}"
    );
    assert!(!outside.exists(), "code in the sandbox wrote outside it");
    // Exported with the rest of the class: Canvas's import (a column per assignment, the
    // total in it) and nbgrader's CSV carry the same points.
    let exported = |path: &Path, student_column: &str, score_column: &str| {
        let text = fs::read_to_string(path).unwrap();
        assert!(!text.contains(SECRET), "{text}");
        let mut lines = text.lines().map(fields);
        let header = lines.next().unwrap();
        let (who, what) = (
            header.iter().position(|h| h == student_column).unwrap(),
            header.iter().position(|h| h == score_column).unwrap(),
        );
        let rows: Vec<Vec<String>> = lines.collect();
        move |student: &str| {
            let row = rows.iter().find(|r| r[who] == student).unwrap();
            row[what].parse::<f64>().unwrap()
        }
    };
    let in_canvas = exported(&canvas, "Student", LAB);
    let in_nbgrader = exported(&nbgrader, "student_id", "score");
    for (student, points) in [("right", 3.0), ("wrong", 1.0), ("sleeper", 0.0)] {
        assert_eq!(in_canvas(student), points, "{student} in Canvas's file");
        assert_eq!(in_nbgrader(student), points, "{student} in nbgrader's file");
    }
    assert!(
        feedback.join(format!("summary-{LAB}.html")).is_file(),
        "the class summary covers the lab"
    );
    // The hidden test is nowhere a student can read: not in the gradebook, not in feedback.
    assert!(!csv.contains(SECRET), "{csv}");
    for entry in walk(&feedback) {
        let text = String::from_utf8_lossy(&fs::read(&entry).unwrap()).into_owned();
        assert!(!text.contains(SECRET), "{}: {text}", entry.display());
    }
    // The visible test's failure is explained with its values where nothing is hidden from
    // the student by it: the wrong count's feedback names the test.
    let wrong = walk(&feedback)
        .into_iter()
        .find(|p| p.to_string_lossy().contains("wrong"))
        .unwrap();
    let text = fs::read_to_string(wrong).unwrap();
    assert!(text.contains("counts two words"), "{text}");
}

/// One CSV line's fields (quoted fields may hold commas and doubled quotes, not line breaks).
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

/// A gradebook `lab grade` wrote, read back: its text, header and rows.
struct Gradebook {
    csv: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Gradebook {
    /// The cell of `student`'s row in `column`.
    fn cell(&self, student: &str, column: &str) -> &str {
        let at = self.header.iter().position(|h| h == column).unwrap();
        let row = self.rows.iter().find(|r| r[0] == student).unwrap();
        &row[at]
    }
}

/// `bpe-lab lab grade SUBS --sources SOURCES --output GRADES --feedback FEEDBACK` with `extra`
/// flags after them and `env` set, asserted to succeed; its gradebook.
fn grade(
    subs: &Path,
    sources: &Path,
    grades: &Path,
    feedback: &Path,
    extra: &[&str],
    env: &[(&str, &Path)],
) -> Gradebook {
    let mut args = vec![
        "lab",
        "grade",
        path_str(subs),
        "--sources",
        path_str(sources),
        "--output",
        path_str(grades),
        "--feedback",
        path_str(feedback),
    ];
    args.extend_from_slice(extra);
    let run = bpe_lab_with_env(&args, env);
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    let csv = fs::read_to_string(grades).unwrap();
    let mut lines = csv.lines().map(fields);
    let header = lines.next().unwrap();
    let rows = lines.collect();
    Gradebook { csv, header, rows }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// `lab new` writes a lab that releases (its hidden test gone) and grades as it comes: its own
/// solution earns every point, the untouched student version none.
#[test]
fn a_new_lab_releases_and_grades_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("instructor");
    let run = bpe_lab(&[
        "lab",
        "new",
        "08-count-tokens",
        "--sources",
        path_str(&sources),
    ]);
    assert_success(&run);
    let again = bpe_lab(&[
        "lab",
        "new",
        "08-count-tokens",
        "--sources",
        path_str(&sources),
    ]);
    assert_failure(&again, 1, &["08-count-tokens.ipynb exists already"]);
    let bad = bpe_lab(&["lab", "new", "nine", "--sources", path_str(&sources)]);
    assert_failure(&bad, 2, &["NN-name", "\"nine\" is not a lab name"]);
    let out = dir.path().join("notebooks");
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
    ]);
    assert_success(&run);
    let student: Value =
        serde_json::from_str(&fs::read_to_string(out.join("08-count-tokens.ipynb")).unwrap())
            .unwrap();
    let text = student.to_string();
    assert!(
        !text.contains("no words") && !text.contains("HIDDEN"),
        "{text}"
    );
    if !sandbox_available() {
        return;
    }
    let instructor: Value =
        serde_json::from_str(&fs::read_to_string(sources.join("08-count-tokens.ipynb")).unwrap())
            .unwrap();
    let solution = instructor["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "count_tokens-solution")
        .map(source_of)
        .unwrap();
    let subs = dir.path().join("submissions");
    for (student_name, body) in [("ana", Some(solution.as_str())), ("bo", None)] {
        fs::create_dir_all(subs.join(student_name)).unwrap();
        fs::write(
            subs.join(student_name).join("08-count-tokens.ipynb"),
            serde_json::to_string(&submission_of(&student, "count_tokens-solution", body)).unwrap(),
        )
        .unwrap();
    }
    let grades = dir.path().join("grades.csv");
    let book = grade(
        &subs,
        &sources,
        &grades,
        &dir.path().join("feedback"),
        &[],
        &[],
    );
    let csv = &book.csv;
    assert_eq!(book.cell("ana", "count_tokens"), "2", "{csv}");
    assert_eq!(book.cell("ana", "max"), "2", "{csv}");
    assert_eq!(
        book.cell("bo", "count_tokens outcome"),
        "not implemented",
        "{csv}"
    );
}

/// `released` with the cell `id` holding `body` (or left as released).
fn submission_of(released: &Value, id: &str, body: Option<&str>) -> Value {
    let mut nb = released.clone();
    if let Some(body) = body {
        let cell = nb["cells"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| c["id"] == id)
            .unwrap();
        cell["source"] = json!(body);
    }
    nb
}

/// The guide shows the commands and the cell format these tests use.
#[test]
fn the_guide_shows_what_these_tests_run() {
    let guide =
        fs::read_to_string(Path::new(env!("BPE_LAB_REPO")).join("docs/instructors.md")).unwrap();
    for shown in [
        "## Your own exercises",
        "bpe-lab lab new 08-count-tokens",
        r#"{"bpe_lab": {"own_test": "count_tokens"}}"#,
        "// BEGIN HIDDEN TESTS",
        "bpe-lab lab grade submissions/ --lab 05-apply",
        "own_test!(\"counts two words\", 2, {",
    ] {
        assert!(guide.contains(shown), "the guide no longer shows {shown:?}");
    }
}

/// The guide's first recipe: an exercise added to notebook 05 — a solution cell and a test
/// cell after its last check — is released and graded beside 05's own exercises, which grade
/// as before.
#[test]
fn an_exercise_added_to_notebook_05_is_graded_beside_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("instructor");
    fs::create_dir_all(&sources).unwrap();
    let repo = Path::new(env!("BPE_LAB_REPO"));
    let mut nb: Value =
        serde_json::from_str(&fs::read_to_string(repo.join("instructor/05-apply.ipynb")).unwrap())
            .unwrap();
    let cells = nb["cells"].as_array_mut().unwrap();
    cells.push(code("count-solution", json!({}), SOLUTION));
    cells.push(code(
        "count-tests",
        json!({"bpe_lab": {"own_test": "count_tokens"}}),
        &test_cell_source(),
    ));
    fs::write(
        sources.join("05-apply.ipynb"),
        serde_json::to_string_pretty(&nb).unwrap(),
    )
    .unwrap();
    let out = dir.path().join("notebooks");
    let run = bpe_lab(&[
        "lab",
        "release",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
    ]);
    assert_success(&run);
    let released: Value =
        serde_json::from_str(&fs::read_to_string(out.join("05-apply.ipynb")).unwrap()).unwrap();
    assert!(!released.to_string().contains(SECRET));
    if !sandbox_available() {
        return;
    }
    let subs = dir.path().join("submissions");
    let right = with_fn("    text.split_whitespace().count()");
    for (student, body) in [("ana", Some(right.as_str())), ("bo", None)] {
        fs::create_dir_all(subs.join(student)).unwrap();
        fs::write(
            subs.join(student).join("05-apply.ipynb"),
            serde_json::to_string(&submission(&released, body)).unwrap(),
        )
        .unwrap();
    }
    let grades = dir.path().join("grades.csv");
    let book = grade(
        &subs,
        &sources,
        &grades,
        &dir.path().join("feedback"),
        &["--lab", "05-apply", "--check-timeout", "5"],
        &[],
    );
    let (csv, header) = (&book.csv, &book.header);
    assert_eq!(book.cell("ana", "count_tokens"), "3", "{csv}");
    assert_eq!(book.cell("bo", "count_tokens"), "0", "{csv}");
    // 05's own exercises, left undone by both, are graded as before.
    let own_columns = header
        .iter()
        .filter(|h| h.ends_with(" outcome") && h.as_str() != "count_tokens outcome")
        .count();
    assert!(own_columns >= 1, "{csv}");
    for h in header
        .iter()
        .filter(|h| h.ends_with(" outcome") && h.as_str() != "count_tokens outcome")
    {
        assert_eq!(book.cell("ana", h), "not implemented", "{h}: {csv}");
    }
}

/// The student handout of a repository whose instructor sources hold an own exercise with a
/// hidden test: the handout (what students clone, and what the Docker image, Binder and the
/// dev container are built from) has the lab's student notebook, its visible test, and the
/// hidden test nowhere, in any file.
#[test]
fn the_handout_of_a_course_with_hidden_tests_holds_none_of_them() {
    let dir = tempfile::tempdir().unwrap();
    // A copy of this repository's committed files, then lab 08 beside its labs.
    let repo = Path::new(env!("BPE_LAB_REPO"));
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(repo)
        .output()
        .unwrap();
    assert!(
        listed.status.success(),
        "git ls-files in {}",
        repo.display()
    );
    let copy = dir.path().join("course");
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).unwrap();
        let (from, to) = (repo.join(name), copy.join(name));
        // A file deleted but not yet committed is not there to copy.
        if fs::symlink_metadata(&from).is_ok_and(|m| m.is_file()) {
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            fs::copy(&from, &to).unwrap();
        }
    }
    let sources = copy.join("instructor");
    fs::write(
        sources.join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(&instructor_notebook(&test_cell_source())).unwrap(),
    )
    .unwrap();
    release(&sources, &copy.join("notebooks"));
    let handout = dir.path().join("handout");
    assert_success(&bpe_lab(&[
        "lab",
        "handout",
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&handout),
    ]));
    let student = fs::read_to_string(handout.join("notebooks").join(format!("{LAB}.ipynb")))
        .expect("the handout has lab 08's student notebook");
    assert!(
        student.contains("counts two words"),
        "the visible test stays"
    );
    let files = walk(&handout);
    assert!(files.len() > 50, "the whole handout is searched: {files:?}");
    for file in files {
        let bytes = fs::read(&file).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(SECRET),
            "the hidden test is in {}",
            file.display()
        );
    }
}
