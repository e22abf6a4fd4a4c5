//! `lab grade` on what instructors download from their LMS, as it comes: Moodle, Canvas and
//! Blackboard zips (built here with the `zip` crate, in their real file names), nbgrader's
//! layout, zips inside zips, macOS junk, a roster, several files of one student; each mistake
//! of the instructor's refused with exit 2 and nothing written; and files no editor should
//! have made (a byte-order mark, a Latin-1 byte, an empty file, a PDF) kept as the student's.
//!
//! Most submissions here are notebooks of a lab the grader does not know (`99-…`): the
//! gradebook then says which file was taken by naming its lab, and no student code is
//! compiled. Only the tests that need a score run the real judge in the sandbox.

use crate::support;

use serde_json::json;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;
use support::cli::{assert_success, bpe_lab, path_str, stderr};
use support::notebooks::root;
use support::sandbox_available;

/// A notebook the grader reads but knows no lab of: its rows name `lab`.
fn notebook(lab: &str) -> Vec<u8> {
    serde_json::to_vec_pretty(&json!({
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"bpe_lab": {"lab": lab}},
        "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "outputs": [],
                   "execution_count": null, "source": "fn f() {}\n// a comment\n"}]
    }))
    .unwrap()
}

fn zip_of(files: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut w = zip::ZipWriter::new(&mut out);
    for (name, bytes) in files {
        w.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap();
    out.into_inner()
}

/// Runs `lab grade` on `submissions` (plus `extra` flags) with the gradebook and the feedback
/// in `dir`, unconfined (no student code runs for lab 99).
fn grade(dir: &Path, submissions: &[&Path], extra: &[&str]) -> Output {
    let sources = root().join("instructor");
    let out = dir.join("grades.csv");
    let feedback = dir.join("feedback");
    let mut args = vec!["lab", "grade"];
    args.extend(submissions.iter().map(|p| path_str(p)));
    args.extend([
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out),
        "--feedback",
        path_str(&feedback),
        "--threads",
        "2",
    ]);
    if !extra.contains(&"--sandboxed") {
        args.push("--no-sandbox");
    }
    args.extend(extra.iter().filter(|a| **a != "--sandboxed"));
    bpe_lab(&args)
}

/// The gradebook's rows, each as column → value.
fn rows(dir: &Path) -> Vec<BTreeMap<String, String>> {
    let text = fs::read_to_string(dir.join("grades.csv")).unwrap();
    let mut records = Vec::new();
    let (mut row, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    let header = records.remove(0);
    records
        .into_iter()
        .map(|r| header.iter().cloned().zip(r).collect())
        .collect()
}

fn row<'a>(rows: &'a [BTreeMap<String, String>], student: &str) -> &'a BTreeMap<String, String> {
    rows.iter()
        .find(|r| r["student"] == student)
        .unwrap_or_else(|| panic!("no row for {student}: {rows:?}"))
}

fn students(rows: &[BTreeMap<String, String>]) -> Vec<&str> {
    rows.iter().map(|r| r["student"].as_str()).collect()
}

/// Every file under `dir` with its bytes: to see that a refused run wrote nothing.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files.insert(p.clone(), Vec::new());
                stack.push(p);
            } else {
                files.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// A refused run: exit 2, an error naming each of `needles`, and `dir` as it was.
fn assert_refused(dir: &Path, submissions: &[&Path], extra: &[&str], needles: &[&str]) {
    let before = snapshot(dir);
    let output = grade(dir, submissions, extra);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "expected {needle:?} in: {err}");
    }
    assert_eq!(
        snapshot(dir),
        before,
        "a refused run wrote something: {err}"
    );
}

#[test]
fn a_moodle_zip_grades_one_row_per_participant_and_the_re_upload() {
    let dir = tempfile::tempdir().unwrap();
    let download = dir.path().join("lms.zip");
    let ana = "Ana María Núñez_12347_assignsubmission_file_";
    fs::write(
        &download,
        zip_of(&[
            (&format!("{ana}03-merge.ipynb"), notebook("99-first")),
            (&format!("{ana}03-merge (1).ipynb"), notebook("99-second")),
            (
                "Bo Li_12348_assignsubmission_file_/03-merge.ipynb",
                notebook("99-bo"),
            ),
            (
                "__MACOSX/Bo Li_12348_assignsubmission_file_/._03-merge.ipynb",
                b"junk".to_vec(),
            ),
        ]),
    )
    .unwrap();
    let output = grade(dir.path(), &[&download], &[]);
    assert_success(&output);
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["12347", "12348"]);
    let ana = row(&rows, "12347");
    assert!(ana["file"].ends_with("03-merge (1).ipynb"), "{ana:?}");
    assert!(ana["notes"].contains("lab 99-second"), "{ana:?}");
    assert!(ana["notes"].contains("Moodle's"), "{ana:?}");
    assert!(
        ana["notes"].contains("not graded: Ana María Núñez_12347"),
        "{ana:?}"
    );
    let err = stderr(&output);
    assert!(err.contains("12347 (Ana María Núñez)"), "{err}");
    assert!(err.contains("__MACOSX"), "{err}");
    assert!(err.contains("read the file names of: Moodle"), "{err}");
}

#[test]
fn a_canvas_zip_keeps_the_late_mark_and_grades_the_resubmission() {
    let dir = tempfile::tempdir().unwrap();
    let download = dir.path().join("submissions.zip");
    fs::write(
        &download,
        zip_of(&[
            ("anamaria_12345_67880_03-merge.ipynb", notebook("99-first")),
            (
                "anamaria_LATE_12345_67890_03-merge-1.ipynb",
                notebook("99-resubmitted"),
            ),
            ("bo_12346_67881_03-merge.ipynb", notebook("99-bo")),
        ]),
    )
    .unwrap();
    assert_success(&grade(dir.path(), &[&download], &[]));
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["anamaria", "bo"]);
    let ana = row(&rows, "anamaria");
    assert!(ana["notes"].contains("lab 99-resubmitted"), "{ana:?}");
    assert!(
        ana["notes"].contains("Canvas marked this submission late"),
        "{ana:?}"
    );
    assert!(ana["notes"].contains("re-submission numbers"), "{ana:?}");
    assert!(!row(&rows, "bo")["notes"].contains("late"));
}

#[test]
fn a_blackboard_zip_grades_the_latest_attempt_and_skips_the_receipts() {
    let dir = tempfile::tempdir().unwrap();
    let download = dir.path().join("gradebook.zip");
    let early = "Lab 3_ana_attempt_2026-11-19-09-00-00";
    let late = "Lab 3_ana_attempt_2026-11-20-14-03-22";
    fs::write(
        &download,
        zip_of(&[
            (&format!("{late}_03-merge.ipynb"), notebook("99-late")),
            (&format!("{late}.txt"), b"Name: Ana (ana)\n".to_vec()),
            (&format!("{early}_03-merge.ipynb"), notebook("99-early")),
            (&format!("{early}.txt"), b"Name: Ana (ana)\n".to_vec()),
        ]),
    )
    .unwrap();
    let output = grade(dir.path(), &[&download], &[]);
    assert_success(&output);
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["ana"]);
    assert!(rows[0]["notes"].contains("lab 99-late"), "{rows:?}");
    assert!(
        rows[0]["notes"].contains("submission time in the names"),
        "{rows:?}"
    );
    assert!(stderr(&output).contains("Blackboard's submission receipt"));
}

#[test]
fn nbgrader_layout_takes_the_time_from_timestamp_txt_over_modification_times() {
    let dir = tempfile::tempdir().unwrap();
    let submitted = dir.path().join("submitted");
    let put = |folder: &str, lab: &str, stamp: &str, modified: u64| {
        let d = submitted.join("ana").join(folder);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("notebook.ipynb"), notebook(lab)).unwrap();
        fs::write(d.join("timestamp.txt"), stamp).unwrap();
        let file = fs::File::options()
            .write(true)
            .open(d.join("notebook.ipynb"))
            .unwrap();
        file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(modified))
            .unwrap();
    };
    // The later submission has the older file on disk (copied back from a backup, say).
    put(
        "first",
        "99-first",
        "2026-11-20 10:00:00.000000 UTC",
        2_000_000_000,
    );
    put(
        "second",
        "99-second",
        "2026-11-21 10:00:00.000000 UTC",
        1_000_000_000,
    );
    let output = grade(dir.path(), &[&submitted], &[]);
    assert_success(&output);
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["ana"]);
    assert!(rows[0]["notes"].contains("lab 99-second"), "{rows:?}");
    assert!(
        rows[0]["notes"].contains("nbgrader's timestamp.txt"),
        "{rows:?}"
    );
}

#[test]
fn a_students_own_zip_inside_the_download_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    let download = dir.path().join("lms.zip");
    let ana_work = zip_of(&[
        ("work/03-merge.ipynb", notebook("99-nested")),
        ("work/.DS_Store", b"junk".to_vec()),
    ]);
    let bo_work = zip_of(&[("report.pdf", b"%PDF-1.7 a report".to_vec())]);
    fs::write(
        &download,
        zip_of(&[
            ("Ana_1_assignsubmission_file_/work.zip", ana_work),
            ("Bo_2_assignsubmission_file_/work.zip", bo_work),
        ]),
    )
    .unwrap();
    assert_success(&grade(dir.path(), &[&download], &[]));
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["1", "2"]);
    assert!(
        row(&rows, "1")["notes"].contains("lab 99-nested"),
        "{rows:?}"
    );
    assert!(row(&rows, "1")["file"].ends_with("work.zip/work/03-merge.ipynb"));
    assert!(
        row(&rows, "2")["notes"].contains("not a notebook: a PDF document"),
        "{rows:?}"
    );
}

#[test]
fn macos_and_windows_junk_is_skipped_and_listed_never_a_student() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("__MACOSX/ana")).unwrap();
    fs::create_dir_all(subs.join("ana")).unwrap();
    fs::write(subs.join("ana/03-merge.ipynb"), notebook("99-ana")).unwrap();
    fs::write(subs.join("__MACOSX/ana/._03-merge.ipynb"), b"x").unwrap();
    fs::write(subs.join("ana/._03-merge.ipynb"), b"x").unwrap();
    fs::write(subs.join(".DS_Store"), b"x").unwrap();
    fs::write(subs.join("Thumbs.db"), b"x").unwrap();
    let output = grade(dir.path(), &[&subs], &[]);
    assert_success(&output);
    assert_eq!(students(&rows(dir.path())), ["ana"]);
    let err = stderr(&output);
    for junk in ["__MACOSX", "._03-merge.ipynb", ".DS_Store", "Thumbs.db"] {
        assert!(err.contains(junk), "{junk} not listed: {err}");
    }
    assert!(err.contains("skipped 4 file(s)"), "{err}");
}

#[test]
fn a_roster_gives_the_absent_a_row_and_flags_who_is_not_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    for student in ["ana", "bo", "zed"] {
        fs::create_dir_all(subs.join(student)).unwrap();
        fs::write(
            subs.join(student).join("03-merge.ipynb"),
            notebook(&format!("99-{student}")),
        )
        .unwrap();
    }
    let roster = dir.path().join("roster.csv");
    fs::write(
        &roster,
        "Full name,Username,Email address\nAna A,ana,ana@uni.example\nBo B,bo,bo@uni.example\nCy C,cy,cy@uni.example\n",
    )
    .unwrap();
    let output = grade(dir.path(), &[&subs], &["--roster", path_str(&roster)]);
    assert_success(&output);
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["ana", "bo", "cy", "zed"]);
    let cy = row(&rows, "cy");
    assert_eq!(
        (
            cy["file"].as_str(),
            cy["total"].as_str(),
            cy["max"].as_str()
        ),
        ("", "", "")
    );
    assert_eq!(cy["notes"], "no submission");
    assert!(row(&rows, "zed")["notes"].contains("not on the roster"));
    assert!(!row(&rows, "ana")["notes"].contains("roster"));
    let err = stderr(&output);
    assert!(err.contains("keyed by its column \"Username\""), "{err}");
    assert!(err.contains("1 no submission"), "{err}");
    assert!(err.contains("1 not on the roster"), "{err}");
    // Who handed nothing in is told so, in a page of their own (and nothing else is written).
    let page = fs::read_to_string(dir.path().join("feedback/cy/no-submission.md")).unwrap();
    assert!(page.contains("No submission received"), "{page}");
    assert!(!page.contains("Score"), "no score for nothing: {page}");
    let mut written: Vec<String> = fs::read_dir(dir.path().join("feedback/cy"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, ["no-submission.html", "no-submission.md"]);
}

#[test]
fn several_files_of_one_student_grade_the_latest_and_name_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let ana = dir.path().join("subs/ana");
    fs::create_dir_all(&ana).unwrap();
    for (name, lab, secs) in [
        ("notebook.ipynb", "99-old", 1_000_000_000),
        ("notebook-final.ipynb", "99-new", 2_000_000_000),
    ] {
        fs::write(ana.join(name), notebook(lab)).unwrap();
        fs::File::options()
            .write(true)
            .open(ana.join(name))
            .unwrap()
            .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs))
            .unwrap();
    }
    fs::write(ana.join("notes.pdf"), b"%PDF-1.4").unwrap();
    assert_success(&grade(dir.path(), &[&dir.path().join("subs")], &[]));
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["ana"]);
    let notes = &rows[0]["notes"];
    assert!(notes.contains("lab 99-new"), "{notes}");
    assert!(notes.contains("modification times"), "{notes}");
    assert!(notes.contains("not graded: notebook.ipynb"), "{notes}");
    assert!(
        notes.contains("also handed in, not a notebook, not graded: notes.pdf"),
        "{notes}"
    );
}

#[test]
fn a_submission_path_that_does_not_exist_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let nosuch = dir.path().join("nosuch");
    assert_refused(
        dir.path(),
        &[&nosuch],
        &[],
        &["nosuch", "no such file or folder"],
    );
}

#[test]
fn an_empty_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    assert_refused(dir.path(), &[&empty], &[], &["no notebooks (*.ipynb)"]);
}

#[test]
fn a_zip_with_no_notebook_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let download = dir.path().join("lms.zip");
    fs::write(&download, zip_of(&[("a_1_2_report.pdf", b"%PDF".to_vec())])).unwrap();
    assert_refused(dir.path(), &[&download], &[], &["lms.zip", "no notebooks"]);
}

#[test]
fn sources_that_are_not_there_are_refused_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs/ana");
    fs::create_dir_all(&subs).unwrap();
    fs::write(subs.join("03-merge.ipynb"), notebook("99-x")).unwrap();
    let before = snapshot(dir.path());
    let out = dir.path().join("grades.csv");
    let feedback = dir.path().join("feedback");
    let output = bpe_lab(&[
        "lab",
        "grade",
        path_str(&dir.path().join("subs")),
        "--sources",
        path_str(&dir.path().join("instructor")),
        "--output",
        path_str(&out),
        "--feedback",
        path_str(&feedback),
        "--no-sandbox",
    ]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("--sources"), "{err}");
    assert!(err.contains("looked in"), "{err}");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn feedback_equal_to_the_submissions_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("ana")).unwrap();
    fs::write(subs.join("ana/03-merge.ipynb"), notebook("99-x")).unwrap();
    let before = snapshot(dir.path());
    let output = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(&dir.path().join("grades.csv")),
        "--feedback",
        path_str(&subs),
        "--no-sandbox",
    ]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("--feedback"), "{err}");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn feedback_inside_the_submissions_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("ana")).unwrap();
    fs::write(subs.join("ana/03-merge.ipynb"), notebook("99-x")).unwrap();
    let before = snapshot(dir.path());
    let output = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(&dir.path().join("grades.csv")),
        "--feedback",
        path_str(&subs.join("feedback")),
        "--no-sandbox",
    ]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--feedback") && err.contains("inside the submissions"),
        "{err}"
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn a_roster_that_cannot_be_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs/ana");
    fs::create_dir_all(&subs).unwrap();
    fs::write(subs.join("03-merge.ipynb"), notebook("99-x")).unwrap();
    let roster = dir.path().join("roster.csv");
    fs::write(&roster, "Colour,Size\nred,2\n").unwrap();
    let subs = dir.path().join("subs");
    assert_refused(
        dir.path(),
        &[&subs],
        &["--roster", path_str(&roster)],
        &["--roster", "no column for the student"],
    );
    assert_refused(
        dir.path(),
        &[&subs],
        &["--name-pattern", "(?P<who>.*)"],
        &["--name-pattern", "(?P<student>"],
    );
}

/// One submission of `bytes` in `dir/subs/ana/<file>`, graded; its row.
fn one(dir: &Path, file: &str, bytes: &[u8], extra: &[&str]) -> BTreeMap<String, String> {
    let ana = dir.join("subs/ana");
    fs::create_dir_all(&ana).unwrap();
    fs::write(ana.join(file), bytes).unwrap();
    assert_success(&grade(dir, &[&dir.join("subs")], extra));
    rows(dir).remove(0)
}

#[test]
fn a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(notebook("99-bom"));
    let row = one(dir.path(), "03-merge.ipynb", &bytes, &[]);
    assert!(row["notes"].contains("lab 99-bom"), "{row:?}");
}

#[test]
fn a_latin1_byte_in_a_comment_is_read_and_located() {
    let dir = tempfile::tempdir().unwrap();
    let text = String::from_utf8(notebook("99-latin")).unwrap();
    let bytes = text.replace("// a comment", "// caf\u{e9}").into_bytes();
    // é as one Latin-1 byte, not UTF-8's two.
    let at = bytes.windows(2).position(|w| w == "é".as_bytes()).unwrap();
    let mut latin1 = bytes[..at].to_vec();
    latin1.push(0xe9);
    latin1.extend(&bytes[at + 2..]);
    let row = one(dir.path(), "03-merge.ipynb", &latin1, &[]);
    assert!(row["notes"].contains("lab 99-latin"), "{row:?}");
    assert!(row["notes"].contains("not UTF-8"), "{row:?}");
    assert!(row["notes"].contains("cell 1, line 2"), "{row:?}");
}

#[test]
fn an_empty_file_is_the_students_note() {
    let dir = tempfile::tempdir().unwrap();
    let row = one(dir.path(), "03-merge.ipynb", b"", &[]);
    assert!(
        row["notes"].contains("not a notebook: the file is empty"),
        "{row:?}"
    );
}

#[test]
fn a_pdf_is_the_students_note() {
    let dir = tempfile::tempdir().unwrap();
    let row = one(dir.path(), "03-merge.ipynb", b"%PDF-1.7\n%\xe2\xe3", &[]);
    assert!(
        row["notes"].contains("not a notebook: a PDF document"),
        "{row:?}"
    );
}

#[test]
fn a_right_answer_with_a_byte_order_mark_in_a_moodle_zip_scores_full_marks() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let amara = root().join("docs/samples/submissions/amara/03-merge.ipynb");
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(fs::read(amara).unwrap());
    let download = dir.path().join("lms.zip");
    fs::write(
        &download,
        zip_of(&[("Amara Obi_501_assignsubmission_file_03-merge.ipynb", bytes)]),
    )
    .unwrap();
    let output = grade(dir.path(), &[&download], &["--sandboxed"]);
    assert_success(&output);
    let rows = rows(dir.path());
    assert_eq!(students(&rows), ["501"]);
    assert_eq!(
        (rows[0]["total"].as_str(), rows[0]["max"].as_str()),
        ("3", "3"),
        "{rows:?}"
    );
}

#[test]
fn a_canvas_roster_gives_the_canvas_csv_canvas_s_own_ids() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("ana")).unwrap();
    fs::write(subs.join("ana").join("03-merge.ipynb"), notebook("99-ana")).unwrap();
    // Canvas's gradebook export as the roster: its ids, a "Points Possible" row.
    let roster = dir.path().join("canvas-export.csv");
    fs::write(
        &roster,
        "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3 (4821)\n\
         \x20   Points Possible,,,,,3\n\
         \"Núñez, Ana\",4001,S-17,ana,\"BPE 101, section 2\",\n\
         \"Li, Bo\",4002,S-18,bo,\"BPE 101, section 2\",\n",
    )
    .unwrap();
    let canvas = dir.path().join("canvas.csv");
    let output = grade(
        dir.path(),
        &[&subs],
        &[
            "--roster",
            path_str(&roster),
            "--canvas-csv",
            path_str(&canvas),
        ],
    );
    assert_success(&output);
    let text = fs::read_to_string(&canvas).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("Student,ID,SIS User ID,SIS Login ID,Section,"),
        "{text}"
    );
    // ana's folder matched her SIS login; each row carries the ids Canvas matches on (and no
    // grade: her notebook is of no lab graded here, bo handed nothing in).
    assert!(
        lines[2].starts_with("\"Núñez, Ana\",4001,S-17,ana,\"BPE 101, section 2\","),
        "{text}"
    );
    assert_eq!(
        lines[3], "\"Li, Bo\",4002,S-18,bo,\"BPE 101, section 2\",",
        "{text}"
    );
}

#[test]
fn a_moodle_worksheet_without_its_grading_columns_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("ana")).unwrap();
    fs::write(subs.join("ana").join("03-merge.ipynb"), notebook("99-ana")).unwrap();
    let sheet = dir.path().join("worksheet.csv");
    let original = "Identifier,Full name,Grade\nParticipant 1,Ana,\n";
    fs::write(&sheet, original).unwrap();
    let output = grade(
        dir.path(),
        &[&subs],
        &["--moodle-worksheet", path_str(&sheet)],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("--moodle-worksheet") && err.contains("Feedback comments"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&sheet).unwrap(), original);
    assert!(!dir.path().join("grades.csv").exists());
    assert!(!dir.path().join("feedback").exists());
}
