//! The class summary `lab grade` and `lab grade-merge` end with: a table in the terminal and
//! `summary-<lab>.html` in the feedback folder. A merge of hand-written grade records (no
//! sandbox needed) must give the figures worked out by hand below and keep the students' text
//! inert in the page; one real grading run of three lab 03 submissions (three worker
//! compilations, a few seconds; needs rustc and bubblewrap, see tests/suite/grade_judge.rs)
//! must write the page and print the table.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_success, bpe_lab, path_str, stderr};
use support::lab03::{BEST_RIGHT, LAB, MERGE_RIGHT, lab03, save, sources};
use support::sandbox_available;

/// Instructor sources of one lab, `01-x`: `encode` (1 point), then `decode` (2 points).
fn write_sources(dir: &Path) {
    let solution = |id: &str, function: &str| {
        json!({"cell_type": "code", "id": id, "metadata": {}, "outputs": [], "execution_count": null,
               "source": format!("fn {function}() {{\n    // BEGIN SOLUTION\n    // END SOLUTION\n}}")})
    };
    let check = |id: &str, exercise: &str, points: u32| {
        json!({"cell_type": "code", "id": id,
               "metadata": {"bpe_lab": {"exercise": exercise, "points": points}},
               "outputs": [], "execution_count": null, "source": format!("check::{exercise}({exercise})")})
    };
    let nb = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {"bpe_lab": {"lab": "01-x"}},
        "cells": [solution("s1", "encode"), check("c1", "encode", 1),
                  solution("s2", "decode"), check("c2", "decode", 2)]});
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("01-x.ipynb"), nb.to_string()).unwrap();
}

/// One exercise's saved result; a failure on `input` carries it as its smallest failing input.
fn result(exercise: &str, max: u32, verdict: &str, message: &str, input: Option<&str>) -> Value {
    let points = if verdict == "passed" { max } else { 0 };
    json!({"exercise": exercise, "points": points, "max_points": max, "verdict": verdict,
           "message": message, "printed": "",
           "details": input.map(|i| json!({"kind": "counterexample", "input": i,
                                           "expected": "\"ab\"", "got": "\"a\""}))})
}

/// A saved grade record of lab 01-x, as a grading run leaves it, with its feedback files.
fn record(dir: &Path, student: &str, encode: Value, decode: Value, notes: Value) {
    let total = encode["points"].as_u64().unwrap() + decode["points"].as_u64().unwrap();
    let grade = json!({"student": student, "file": format!("subs/{student}/01-x.ipynb"),
        "lab": "01-x", "exercises": [encode, decode], "total": total, "max": 3,
        "notes": notes, "seconds": 0.5, "digest": "0"});
    let folder = dir.join(student);
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join(".01-x.grade.json"), grade.to_string()).unwrap();
    fs::write(folder.join("01-x.md"), "feedback").unwrap();
    fs::write(folder.join("01-x.html"), "feedback").unwrap();
}

const SCRIPT: &str = "<script>alert(1)</script>";

/// A class of five as one shard (1/1) of a run: the figures are worked out in the test.
fn hand_graded_shard(dir: &Path) {
    let panicked = format!("your code panicked: {SCRIPT}");
    record(
        dir,
        "ana",
        result("encode", 1, "passed", "ok", None),
        result("decode", 2, "passed", "ok", None),
        json!([]),
    );
    record(
        dir,
        "bo",
        result("encode", 1, "passed", "ok", None),
        result("decode", 2, "panicked", &panicked, Some(SCRIPT)),
        json!([]),
    );
    record(
        dir,
        "cy",
        result("encode", 1, "not_implemented", "not implemented yet", None),
        result("decode", 2, "panicked", &panicked, Some(SCRIPT)),
        json!([]),
    );
    // The grader's own trouble: left out of the scores and of the pass rate.
    record(
        dir,
        "di",
        result(
            "encode",
            1,
            "not_graded",
            "the worker could not start",
            None,
        ),
        result("decode", 2, "passed", "ok", None),
        json!([]),
    );
    record(
        dir,
        "ed",
        result(
            "encode",
            1,
            "failed",
            "wrong result (case 2 of 9)",
            Some("\"ab\""),
        ),
        result("decode", 2, "did_not_compile", "does not compile", None),
        json!([]),
    );
    let students = ["ana", "bo", "cy", "di", "ed"];
    let manifest = json!({"shard": {"index": 1, "count": 1}, "lab": "01-x", "labs": ["01-x"],
        "submissions": students.iter()
            .map(|s| json!({"student": s, "file": format!("subs/{s}/01-x.ipynb")}))
            .collect::<Vec<_>>()});
    fs::write(dir.join(".bpe-lab-shard.json"), manifest.to_string()).unwrap();
}

/// The cells of a table row of the terminal summary, after its name.
fn row(log: &str, name: &str) -> String {
    log.lines()
        .find(|l| l.trim_start().starts_with(name))
        .unwrap_or_else(|| panic!("no row {name:?} in\n{log}"))
        .trim_start()[name.len()..]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_merge_of_hand_written_records_gives_the_figures_worked_out_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let (shard, sources) = (dir.path().join("shard"), dir.path().join("sources"));
    write_sources(&sources);
    hand_graded_shard(&shard);
    let feedback = dir.path().join("feedback");
    let output = bpe_lab(&[
        "lab",
        "grade-merge",
        path_str(&shard),
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&dir.path().join("grades.csv")),
        "--feedback",
        path_str(&feedback),
    ]);
    assert_success(&output);
    let log = stderr(&output);
    // Final scores: ana 3, bo 1, cy 0, ed 0 (di's is not final): mean 1, median 0.5.
    assert!(
        log.contains(
            "class summary, lab 01-x: 5 submission(s); score of 3: mean 1, median 0.5, lowest 0, \
             highest 3 (1 not final, left out: the grader's own trouble)\n"
        ),
        "{log}"
    );
    // Columns: pass rate, passed, wrong, not implemented, did not compile, crashed, timed
    // out, used the crate's answer, not graded. encode: 2 of the 4 graded passed; decode: 2
    // of 5.
    assert_eq!(row(&log, "encode"), "50% 2 1 1 0 0 0 0 1");
    assert_eq!(row(&log, "decode"), "40% 2 0 0 1 2 0 0 0");
    assert_eq!(row(&log, "all exercises"), "44% 4 1 1 1 2 0 0 1");
    assert!(
        log.contains(&format!("  2 student(s)  decode crashed: input {SCRIPT}\n")),
        "{log}"
    );
    assert!(
        log.contains("class summary with plots: summary-01-x.html in the feedback folder"),
        "{log}"
    );

    let page = fs::read_to_string(feedback.join("summary-01-x.html")).unwrap();
    assert!(
        !page.contains("<script"),
        "student text got through:\n{page}"
    );
    assert!(page.contains("your code panicked: &lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("<pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre>"));
    assert_eq!(page.matches("<svg").count(), 2, "{page}");
    // The histogram: scores 0, 1, 2, 3 held by 2, 1, 0 and 1 submissions.
    for (score, count) in [(0, 2), (1, 1), (2, 0), (3, 1)] {
        assert!(
            page.contains(&format!(
                "<title>score {score}: {count} submission(s)</title>"
            )),
            "score {score}\n{page}"
        );
    }
    assert!(page.contains("<title>encode: 50%</title>"), "{page}");
    assert!(page.contains("<title>decode: 40%</title>"), "{page}");
}

#[test]
fn a_graded_class_gets_its_summary_page_and_table() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    // alice is right; bob and carol panic the same way, with markup in the message; carol left
    // most_frequent_pair as released.
    let panics = MERGE_RIGHT.replacen(
        "{\n",
        "{\n    if word.len() > 1 { panic!(\"<script>alert(1)</script>\") }\n",
        1,
    );
    save(&subs, "alice", &lab03(Some(BEST_RIGHT), Some(MERGE_RIGHT)));
    save(&subs, "bob", &lab03(Some(BEST_RIGHT), Some(&panics)));
    save(&subs, "carol", &lab03(None, Some(&panics)));
    let feedback = dir.path().join("feedback");
    let sources = sources();
    let output = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--lab",
        LAB,
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&dir.path().join("grades.csv")),
        "--feedback",
        path_str(&feedback),
        "--check-timeout",
        "10",
        "--threads",
        "2",
    ]);
    assert_success(&output);
    let log = stderr(&output);
    // alice 3, bob 1, carol 0 (of 1 + 2 points).
    assert!(
        log.contains(
            "class summary, lab 03-merge: 3 submission(s); score of 3: mean 1.3, median 1, \
             lowest 0, highest 3\n"
        ),
        "{log}"
    );
    assert_eq!(row(&log, "most_frequent_pair"), "67% 2 0 1 0 0 0 0 0");
    assert_eq!(row(&log, "merge_pair_in_word"), "33% 1 0 0 0 2 0 0 0");
    assert!(
        log.contains("  2 student(s)  merge_pair_in_word crashed: input "),
        "{log}"
    );
    let page = fs::read_to_string(feedback.join(format!("summary-{LAB}.html"))).unwrap();
    assert!(!page.contains("<script"), "{page}");
    assert!(
        page.contains("your code panicked: &lt;script&gt;"),
        "{page}"
    );
    assert_eq!(page.matches("<svg").count(), 2);
    assert!(
        page.contains("<title>merge_pair_in_word: 33%</title>"),
        "{page}"
    );
}
