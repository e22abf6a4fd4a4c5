//! `bpe-lab lab release` and the parts of `lab grade` that need no kernel: student versions
//! made from a source, refusals that name the file and cell, and submissions that cannot be
//! graded (not JSON, not a notebook, the wrong lab, an empty folder) each getting a zero and a
//! note without stopping the run. The kernel-backed tests are in lab_kernel.rs.

use crate::support;

use serde_json::{Value, json};
use std::fs;
use std::path::Path;
use support::cli::{assert_success, bpe_lab, entries, path_str, stderr};

fn code(id: &str, source: &str, bpe_lab_meta: Value) -> Value {
    json!({"cell_type": "code", "id": id, "metadata": {"bpe_lab": bpe_lab_meta}, "source": source,
           "outputs": [{"output_type": "stream", "name": "stdout", "text": "old output"}], "execution_count": 7})
}

fn notebook(lab: &str, cells: Vec<Value>) -> String {
    json!({"nbformat": 4, "nbformat_minor": 5, "cells": cells,
           "metadata": {"kernelspec": {"name": "rust", "display_name": "Rust", "language": "rust"}, "bpe_lab": {"lab": lab}}})
    .to_string()
}

const SOLUTION: &str =
    "fn double(x: u32) -> u32 {\n    // BEGIN SOLUTION\n    x * 2\n    // END SOLUTION\n}";

fn write_source(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    let cells = vec![
        json!({"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# Doubling"}),
        code(
            "setup",
            ":dep bpe-lab = { path = \"..\" }",
            json!({"role": "setup"}),
        ),
        code("double-solution", SOLUTION, json!({})),
        code(
            "double-check",
            "let c = check::double(double);",
            // The grader reads exercise names against its own checks: a real one.
            json!({"exercise": "decode", "points": 2}),
        ),
    ];
    fs::write(dir.join(format!("{name}.ipynb")), notebook(name, cells)).unwrap();
}

/// Runs `bpe-lab lab release` (with `--check` when `check`) from `sources` into `out`.
fn release(sources: &Path, out: &Path, check: bool) -> std::process::Output {
    let mut args = vec![
        "lab",
        "release",
        "--sources",
        path_str(sources),
        "--output",
        path_str(out),
    ];
    if check {
        args.push("--check");
    }
    bpe_lab(&args)
}

/// Runs `bpe-lab lab release --self-study` from `sources` into `out`.
fn release_self_study(sources: &Path, out: &Path) -> std::process::Output {
    bpe_lab(&[
        "lab",
        "release",
        "--self-study",
        "--sources",
        path_str(sources),
        "--output",
        path_str(out),
    ])
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_self_study_edition_ships_folded_solutions_and_is_checked_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("src"), dir.path().join("self-study"));
    write_source(&sources, "01-double");
    let with = |extra: &[&str]| {
        let mut args = vec![
            "lab",
            "release",
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&out),
        ];
        args.extend_from_slice(extra);
        bpe_lab(&args)
    };
    assert_success(&with(&["--self-study"]));
    let student = read_json(&out.join("01-double.ipynb"));
    let cells = student["cells"].as_array().unwrap();
    let ids: Vec<&str> = cells.iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "intro",
            "setup",
            "double-solution",
            "double-check",
            "double-check-solution"
        ]
    );
    let folded: String = cells[4]["source"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(cells[4]["cell_type"], "markdown");
    assert!(
        folded.starts_with("<details>") && folded.contains("    x * 2\n"),
        "{folded}"
    );
    // The exercise cell itself still starts from todo!().
    assert!(cells[2]["source"].to_string().contains("todo!()"));
    // --check knows the edition: up to date as self-study, stale as the graded edition.
    assert_success(&with(&["--check", "--self-study"]));
    let graded_check = with(&["--check"]);
    assert_eq!(
        graded_check.status.code(),
        Some(1),
        "{}",
        stderr(&graded_check)
    );
}

#[test]
fn release_writes_student_versions_with_protected_cells() {
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("src"), dir.path().join("out"));
    write_source(&sources, "01-double");
    let run = release(&sources, &out, false);
    assert_success(&run);
    let student = read_json(&out.join("01-double.ipynb"));
    let cells = student["cells"].as_array().unwrap();
    let source_of = |i: usize| -> String {
        cells[i]["source"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect()
    };
    assert_eq!(source_of(2), "fn double(x: u32) -> u32 {\n    todo!()\n}");
    assert!(
        !student.to_string().contains("x * 2"),
        "the solution leaked"
    );
    for cell in cells.iter().filter(|c| c["cell_type"] == "code") {
        assert_eq!(cell["outputs"], json!([]));
        assert_eq!(cell["execution_count"], Value::Null);
    }
    let check = &cells[3]["metadata"]["nbgrader"];
    assert_eq!(check["grade"], true);
    assert_eq!(check["locked"], true);
    assert_eq!(check["points"], 2.0);
    assert_eq!(check["grade_id"], "double-check");
    assert_eq!(check["checksum"].as_str().unwrap().len(), 64);
    assert_eq!(cells[2]["metadata"]["nbgrader"]["solution"], true);
    assert_eq!(cells[2]["metadata"]["nbgrader"]["locked"], false);
    assert_eq!(cells[0]["metadata"]["nbgrader"]["locked"], true);
    assert_eq!(cells[3]["metadata"]["editable"], false);
    // --check agrees they are up to date; a changed source makes them stale.
    assert_success(&release(&sources, &out, true));
    let text = fs::read_to_string(sources.join("01-double.ipynb")).unwrap();
    fs::write(
        sources.join("01-double.ipynb"),
        text.replace("# Doubling", "# Doubling numbers"),
    )
    .unwrap();
    let stale = release(&sources, &out, true);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        stderr(&stale).contains("01-double.ipynb: differs from its source"),
        "{}",
        stderr(&stale)
    );
}

#[test]
fn release_refuses_a_bad_source_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("src"), dir.path().join("out"));
    write_source(&sources, "01-good");
    let bad = notebook(
        "02-bad",
        vec![code("open", "fn f() {\n// BEGIN SOLUTION\n}", json!({}))],
    );
    fs::write(sources.join("02-bad.ipynb"), bad).unwrap();
    let run = release(&sources, &out, false);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("02-bad.ipynb: cell 1 (open): line 2: // BEGIN SOLUTION is never closed"),
        "{err}"
    );
    assert!(
        !out.exists() || entries(&out).is_empty(),
        "something was written"
    );
    fs::write(sources.join("02-bad.ipynb"), "{\"cells\": 3}").unwrap();
    let err = stderr(&release(&sources, &out, false));
    assert!(
        err.contains("02-bad.ipynb: not a notebook: no \"cells\" list"),
        "{err}"
    );
}

#[test]
fn the_committed_student_notebooks_are_up_to_date() {
    let root = Path::new(env!("BPE_LAB_REPO"));
    let stale = bpe_lab_lib_stale(&root.join("instructor"), &root.join("notebooks"));
    assert!(
        stale.is_empty(),
        "stale student notebooks (run `bpe-lab lab release`): {stale:?}"
    );
    let sources = fs::read_dir(root.join("instructor")).unwrap().count();
    assert!(
        sources >= 7,
        "expected the seven lab notebooks 00–06, found {sources}"
    );
}

fn bpe_lab_lib_stale(sources: &Path, out: &Path) -> Vec<String> {
    bpe_lab_cli::course::release::stale(sources, out)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn ungradable_submissions_get_zero_and_a_note_without_a_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("src");
    write_source(&sources, "01-double");
    write_source(&dir.path().join("other"), "09-other");
    let subs = dir.path().join("subs");
    for student in ["ivan", "judy", "heidi"] {
        fs::create_dir_all(subs.join(student)).unwrap();
    }
    fs::write(subs.join("ivan/01-double.ipynb"), "this is not JSON").unwrap();
    fs::write(subs.join("judy/01-double.ipynb"), "{\"cells\": \"none\"}").unwrap();
    fs::copy(
        dir.path().join("other/09-other.ipynb"),
        subs.join("heidi/01-double.ipynb"),
    )
    .unwrap();
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&grades),
        "--feedback",
        path_str(&feedback),
        // Nothing here runs student code, so no sandbox is needed.
        "--no-sandbox",
    ]);
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "student,file,lab,decode,total,max,notes,decode outcome,tie rule,grader,submitted_at,late_by,late_penalty"
    );
    assert_eq!(rows.len(), 4, "{csv}");
    let row = |student: &str| {
        rows.iter()
            .find(|r| r.starts_with(student))
            .copied()
            .unwrap()
    };
    assert!(
        row("heidi").contains(",0,0,2,") && row("heidi").contains("notebook of lab 09-other"),
        "{csv}"
    );
    assert!(
        row("ivan").contains(",0,0,2,") && row("ivan").contains("not JSON"),
        "{csv}"
    );
    assert!(
        row("judy").contains(",0,0,2,") && row("judy").contains("not a notebook"),
        "{csv}"
    );
    let note = fs::read_to_string(feedback.join("ivan/01-double.md")).unwrap();
    assert!(
        note.contains("**Score: 0 / 2**") && note.contains("not JSON"),
        "{note}"
    );
}

/// `lab grade` of an empty folder against the sources in `dir/src`, the gradebook going to
/// `dir/grades.csv`.
fn grade_empty_folder(dir: &Path) -> std::process::Output {
    let empty = dir.join("empty");
    fs::create_dir_all(&empty).unwrap();
    bpe_lab(&[
        "lab",
        "grade",
        path_str(&empty),
        "--sources",
        path_str(&dir.join("src")),
        "--output",
        path_str(&dir.join("grades.csv")),
        "--feedback",
        path_str(&dir.join("fb")),
    ])
}

#[test]
fn grading_refuses_sources_whose_check_names_no_exercise_of_the_grader() {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("src");
    write_source(&sources, "01-double");
    let path = sources.join("01-double.ipynb");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace("\"decode\"", "\"double\"")).unwrap();
    let run = grade_empty_folder(dir.path());
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("--sources")
            && err.contains(
                "01-double.ipynb: cell 4: the grader has no check for the exercise \"double\""
            ),
        "{err}"
    );
    assert!(!dir.path().join("grades.csv").exists());
}

#[test]
fn grading_an_empty_folder_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&dir.path().join("src"), "01-double");
    let run = grade_empty_folder(dir.path());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("no notebooks (*.ipynb)"));
    assert!(!dir.path().join("grades.csv").exists());
    assert!(!dir.path().join("fb").exists());
}

#[test]
fn verify_refuses_stale_students_and_fails_without_a_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("src"), dir.path().join("out"));
    write_source(&sources, "01-double");
    fs::create_dir_all(&out).unwrap();
    let verify = |out: &Path| {
        bpe_lab(&[
            "lab",
            "verify",
            "--sources",
            path_str(&sources),
            "--students",
            path_str(out),
            "--work-dir",
            path_str(&dir.path().join("work")),
            "--python",
            "/nonexistent/python",
        ])
    };
    let stale = verify(&out);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        stderr(&stale).contains("student versions are stale"),
        "{}",
        stderr(&stale)
    );
    assert_success(&release(&sources, &out, false));
    let run = verify(&out);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("FAIL source") && err.contains("FAIL student"),
        "{err}"
    );
    assert!(err.contains("could not start /nonexistent/python"), "{err}");
    assert!(err.contains("2 notebooks, 2 failed"), "{err}");
}

#[test]
fn doctor_names_what_is_missing_and_the_command_that_fixes_it() {
    let run = bpe_lab(&[
        "lab",
        "doctor",
        "--quick",
        "--python",
        "/nonexistent/python",
    ]);
    assert_eq!(run.status.code(), Some(1));
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(out.contains("✔ Rust toolchain"), "{out}");
    assert!(
        out.contains("✘ Python with Jupyter (nbclient): /nonexistent/python"),
        "{out}"
    );
    assert!(out.contains("run: scripts/lab setup"), "{out}");
    assert!(out.contains("✘ Jupyter kernel spec \"rust\""), "{out}");
    // Without Jupyter's libraries the spec cannot be listed: the fix is Python's, not the
    // kernel spec's.
    assert!(!out.contains("run: evcxr_jupyter --install"), "{out}");
    assert!(
        out.contains("kernel spec is listed through jupyter_client"),
        "{out}"
    );
    assert!(out.contains("tie rule: "), "{out}");
    assert!(out.contains("sandbox for grading (bubblewrap)"), "{out}");
    assert!(stderr(&run).contains("problem(s) found"));
}

/// A misspelt tie rule is a finding of its own, with the fix; a machine without bubblewrap is
/// never "ready" (the grader would refuse to start there).
#[test]
fn doctor_finds_a_misspelt_tie_rule_and_a_missing_sandbox() {
    let bin = tempfile::tempdir().unwrap();
    // A PATH holding the toolchain and a shell but no bwrap.
    for program in ["cargo", "rustc", "bash"] {
        let found = std::process::Command::new("bash")
            .args(["-c", &format!("command -v {program}")])
            .output()
            .unwrap();
        let target = String::from_utf8(found.stdout).unwrap();
        std::os::unix::fs::symlink(target.trim(), bin.path().join(program)).unwrap();
    }
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(["lab", "doctor", "--quick"])
        .env("PATH", bin.path())
        .env("BPE_LAB_TIE_BREAK", "firstseen")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        out.contains("✘ tie rule: BPE_LAB_TIE_BREAK=\"firstseen\""),
        "{out}"
    );
    assert!(
        out.contains("run: export BPE_LAB_TIE_BREAK=first-seen"),
        "{out}"
    );
    assert!(out.contains("✘ sandbox for grading (bubblewrap)"), "{out}");
    assert!(out.contains("run: apt-get install bubblewrap"), "{out}");
    assert!(!out.contains("ready:"), "{out}");
}

#[test]
fn the_self_study_edition_is_never_written_over_the_graded_one() {
    let dir = tempfile::tempdir().unwrap();
    let (sources, out) = (dir.path().join("src"), dir.path().join("notebooks"));
    write_source(&sources, "01-double");
    write_source(&sources, "02-double");
    assert_success(&release(&sources, &out, false));
    let graded: Vec<Vec<u8>> = ["01-double", "02-double"]
        .iter()
        .map(|n| fs::read(out.join(format!("{n}.ipynb"))).unwrap())
        .collect();
    let run = release_self_study(&sources, &out);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let message = stderr(&run);
    assert!(
        message.contains("01-double.ipynb: holds the graded edition")
            && message.contains("--output DIR"),
        "{message}"
    );
    // Nothing was written: both graded files are as they were.
    for (n, before) in ["01-double", "02-double"].iter().zip(&graded) {
        assert_eq!(&fs::read(out.join(format!("{n}.ipynb"))).unwrap(), before);
    }
    // Into a folder of its own it goes; and a self-study folder takes the self-study edition
    // again, and the graded edition over it (which shows nothing it should not).
    let own = dir.path().join("notebooks-self-study");
    assert_success(&release_self_study(&sources, &own));
    assert_success(&release_self_study(&sources, &own));
    assert_success(&release(&sources, &own, false));
}

#[test]
fn a_submission_made_from_the_self_study_edition_is_graded_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("src");
    write_source(&sources, "01-double");
    let own = dir.path().join("self-study");
    assert_success(&release_self_study(&sources, &own));
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("kim")).unwrap();
    fs::copy(
        own.join("01-double.ipynb"),
        subs.join("kim/01-double.ipynb"),
    )
    .unwrap();
    let grades = dir.path().join("grades.csv");
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&grades),
        "--feedback",
        path_str(&dir.path().join("feedback")),
        "--no-sandbox",
    ]);
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    let kim = csv.lines().find(|r| r.starts_with("kim,")).unwrap();
    assert!(
        kim.contains("01-double") && kim.contains("is the self-study edition"),
        "{csv}"
    );
}
