//! Grading submissions: each notebook is identified and restored against its released
//! version, then every exercise is judged from outside — the student's code compiled into a
//! worker and called in a sandbox by the notebooks' own check engine ([`super::judge`]). No
//! student code runs in the grader's process, and one broken or hostile submission never
//! stops the others.

use super::execute::{ExecuteOptions, Executed, describe, execute};
use super::judge::{JudgeOptions, Verdict, editable_cells, judge_exercise};
use super::notebook::{Notebook, Role, cell_id, role, to_jupyter_json};
use super::release::{lab_name, sources, student_version};
use super::restore::restore;
use crate::lab::check::Exercise;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A lab as the grader knows it: its released (student) version and its exercises.
#[derive(Debug, Clone)]
pub struct Lab {
    pub name: String,
    pub released: Notebook,
    /// (exercise, points, check cell id) in notebook order.
    pub exercises: Vec<(String, f64, String)>,
}

impl Lab {
    pub fn max_points(&self) -> f64 {
        self.exercises.iter().map(|e| e.1).sum()
    }
}

/// Every lab in the instructor sources directory.
pub fn labs(source_dir: &Path) -> Result<Vec<Lab>, String> {
    let mut labs = Vec::new();
    for path in sources(source_dir).map_err(|e| e.to_string())? {
        let source = Notebook::read(&path).map_err(|e| e.to_string())?;
        let released = student_version(&source, &path).map_err(|e| e.to_string())?;
        let exercises = released
            .cells()
            .iter()
            .filter_map(|c| match role(c) {
                Role::Check { exercise, points } => {
                    Some((exercise, points, cell_id(c).unwrap_or_default().to_owned()))
                }
                _ => None,
            })
            .collect();
        labs.push(Lab {
            name: released
                .lab()
                .map(str::to_owned)
                .unwrap_or_else(|| lab_name(&path)),
            released,
            exercises,
        });
    }
    Ok(labs)
}

/// One exercise's grade.
#[derive(Debug, Clone, PartialEq)]
pub struct ExerciseGrade {
    pub exercise: String,
    pub points: f64,
    pub max_points: f64,
    pub verdict: Verdict,
    pub message: String,
    /// input / expected / got, when the check showed a failing case (or, for code that did
    /// not compile, the compiler's messages as "got").
    pub details: Option<(String, String, String)>,
    /// What the student's code printed while it was checked (kept up to a size).
    pub printed: String,
}

/// One submission's grade.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    pub student: String,
    pub file: PathBuf,
    /// The lab graded against, when the submission could be matched to one.
    pub lab: Option<String>,
    pub exercises: Vec<ExerciseGrade>,
    pub total: f64,
    pub max: f64,
    /// What was restored and anything else the student should know.
    pub notes: Vec<String>,
    pub seconds: f64,
    /// SHA-256 of the submitted file, so a resumed run knows whether it changed.
    pub digest: String,
    /// The restored notebook as executed in the sandbox (`--execute`); not part of the saved
    /// grade, which a resumed run reads back — the notebook is already in the feedback folder.
    pub executed: Option<Vec<u8>>,
}

/// How to grade.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    pub labs: Vec<Lab>,
    /// Grade every submission as this lab (else: by file name, else by content).
    pub expected_lab: Option<String>,
    pub judge: JudgeOptions,
    /// Scratch directories for workers are made here (outside the project).
    pub scratch_root: PathBuf,
    /// Also run each restored notebook with the real kernel, in the sandbox, for the feedback.
    pub execute: Option<ExecuteOptions>,
}

/// A submission found on disk: the file and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub student: String,
    pub file: PathBuf,
}

/// The notebooks to grade: files as given; folders searched for `*.ipynb` (skipping
/// `.ipynb_checkpoints`). The student is the first folder under the given folder, else the
/// file's stem. Returns the submissions and one note per argument that held none.
pub fn find_submissions(args: &[PathBuf]) -> (Vec<Submission>, Vec<String>) {
    let mut found = Vec::new();
    let mut notes = Vec::new();
    for arg in args {
        if arg.is_dir() {
            let mut files = Vec::new();
            walk(arg, &mut files);
            files.sort();
            if files.is_empty() {
                notes.push(format!("{}: no notebooks (*.ipynb) found", arg.display()));
            }
            for file in files {
                let relative = file.strip_prefix(arg).unwrap_or(&file);
                let student = match relative.components().count() {
                    0 | 1 => stem(&file),
                    _ => relative
                        .components()
                        .next()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .unwrap_or_default(),
                };
                found.push(Submission { student, file });
            }
        } else {
            found.push(Submission {
                student: stem(arg),
                file: arg.clone(),
            });
        }
    }
    (found, notes)
}

pub(super) fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with(".ipynb_checkpoints") {
                walk(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "ipynb") {
            out.push(path);
        }
    }
}

/// Which lab a notebook is: the one its metadata names (`Err` with that name when it is not
/// among `labs`), else the lab sharing most cell ids with it (`Err(None)` when none does).
fn identify<'a>(nb: &Notebook, labs: &'a [Lab]) -> Result<&'a Lab, Option<String>> {
    if let Some(name) = nb.lab() {
        return labs
            .iter()
            .find(|l| l.name == name)
            .ok_or_else(|| Some(name.to_owned()));
    }
    let ids: Vec<&str> = nb.cells().iter().filter_map(cell_id).collect();
    labs.iter()
        .map(|lab| {
            let shared = lab
                .released
                .cells()
                .iter()
                .filter_map(cell_id)
                .filter(|id| ids.contains(id))
                .count();
            (shared, lab)
        })
        .filter(|(shared, lab)| *shared * 2 >= lab.released.cells().len() && *shared > 0)
        .max_by_key(|(shared, _)| *shared)
        .map(|(_, lab)| lab)
        .ok_or(None)
}

/// SHA-256 of `bytes`, in hex.
pub fn digest(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Grades one submission in grading slot `slot` (each parallel job has its own, so their
/// sandboxes never share a user or a scratch directory); never fails — what went wrong is in
/// the grade's notes.
pub fn grade_one(submission: &Submission, options: &GradeOptions, slot: usize) -> Grade {
    let started = Instant::now();
    let mut grade = Grade {
        student: submission.student.clone(),
        file: submission.file.clone(),
        lab: None,
        exercises: Vec::new(),
        total: 0.0,
        max: 0.0,
        notes: Vec::new(),
        seconds: 0.0,
        digest: String::new(),
        executed: None,
    };
    let expected = options.expected_lab.clone().or_else(|| {
        let stem = stem(&submission.file);
        options.labs.iter().any(|l| l.name == stem).then_some(stem)
    });
    let expected_lab = expected
        .as_deref()
        .and_then(|name| options.labs.iter().find(|l| l.name == name));
    if let Some(lab) = expected_lab {
        grade.lab = Some(lab.name.clone());
        grade.max = lab.max_points();
        grade.exercises = zero_grades(lab, "not graded");
    }
    let bytes = match std::fs::read(&submission.file) {
        Ok(bytes) => bytes,
        Err(e) => {
            grade.notes.push(format!(
                "could not be graded: {}",
                crate::files::describe_io_error(&e)
            ));
            return grade;
        }
    };
    grade.digest = digest(&bytes);
    let nb = match Notebook::parse(&bytes, &submission.file) {
        Ok(nb) => nb,
        Err(e) => {
            grade
                .notes
                .push(format!("could not be graded: {}", e.problem));
            return grade;
        }
    };
    let lab = match identify(&nb, &options.labs) {
        Ok(lab) => lab,
        Err(named) => {
            let known: Vec<&str> = options.labs.iter().map(|l| l.name.as_str()).collect();
            grade.notes.push(match named {
                Some(name) => format!(
                    "could not be graded: this is the notebook of lab {name}, which is not one of the labs graded here ({})",
                    known.join(", ")
                ),
                None => "could not be graded: this notebook is none of the labs (no lab name in its metadata, too few known cell ids)".to_owned(),
            });
            return grade;
        }
    };
    if let Some(expected) = expected_lab
        && expected.name != lab.name
    {
        grade.notes.push(format!(
            "could not be graded: this is the notebook of lab {}, not {}",
            lab.name, expected.name
        ));
        return grade;
    }
    grade.lab = Some(lab.name.clone());
    grade.max = lab.max_points();
    grade.exercises = zero_grades(lab, "not graded");
    let (restored, restore_notes) = restore(&nb, &lab.released);
    grade.notes.extend(restore_notes);
    let scratch = match tempfile::Builder::new()
        .prefix("bpe-lab-worker-")
        .tempdir_in(&options.scratch_root)
    {
        Ok(dir) => dir,
        Err(e) => {
            grade.notes.push(format!(
                "the grader could not make a scratch directory in {}: {e}",
                options.scratch_root.display()
            ));
            return grade;
        }
    };
    if let Err(e) = options.judge.sandbox.prepare_scratch(scratch.path(), slot) {
        grade.notes.push(format!(
            "the grader could not prepare its scratch directory: {e}"
        ));
        return grade;
    }
    let cells = editable_cells(&restored, &lab.released);
    for slot_grade in grade.exercises.iter_mut() {
        let Ok(exercise) = slot_grade.exercise.parse::<Exercise>() else {
            slot_grade.message = format!("the grader has no check for {}", slot_grade.exercise);
            continue;
        };
        let check_id = lab
            .exercises
            .iter()
            .find(|e| e.0 == slot_grade.exercise)
            .map(|e| e.2.as_str())
            .unwrap_or_default();
        let check_index = restored
            .cells()
            .iter()
            .position(|c| cell_id(c) == Some(check_id))
            .unwrap_or(restored.cells().len());
        let (judged, notes) = judge_exercise(
            exercise,
            &cells,
            check_index,
            scratch.path(),
            slot,
            &options.judge,
        );
        for note in notes {
            if !grade.notes.contains(&note) {
                grade.notes.push(note);
            }
        }
        slot_grade.points = if judged.verdict.passed() {
            slot_grade.max_points
        } else {
            0.0
        };
        slot_grade.verdict = judged.verdict;
        slot_grade.message = judged.message;
        slot_grade.details = judged.details;
        slot_grade.printed = judged.printed;
    }
    grade.total = grade.exercises.iter().map(|e| e.points).sum();
    if let Some(execute_options) = &options.execute {
        let notebook = to_jupyter_json(&restored.json);
        match execute(
            notebook.as_bytes(),
            &lab.name,
            execute_options,
            &options.judge.sandbox,
            &options.scratch_root,
            slot,
        ) {
            Executed::Ran { notebook, run } => {
                grade.notes.push(describe(&run));
                grade.executed = Some(notebook);
            }
            Executed::Failed(why) => grade.notes.push(why),
        }
    }
    grade.seconds = started.elapsed().as_secs_f64();
    grade
}

fn zero_grades(lab: &Lab, message: &str) -> Vec<ExerciseGrade> {
    lab.exercises
        .iter()
        .map(|(exercise, points, _)| ExerciseGrade {
            exercise: exercise.clone(),
            points: 0.0,
            max_points: *points,
            verdict: Verdict::NotGraded,
            message: message.to_owned(),
            details: None,
            printed: String::new(),
        })
        .collect()
}

impl Grade {
    /// The grade as JSON, kept beside the feedback so a resumed run can reuse it.
    pub fn to_json(&self) -> Value {
        json!({
            "student": self.student,
            "file": self.file,
            "lab": self.lab,
            "total": self.total,
            "max": self.max,
            "notes": self.notes,
            "seconds": self.seconds,
            "digest": self.digest,
            "exercises": self.exercises.iter().map(|e| json!({
                "exercise": e.exercise,
                "points": e.points,
                "max_points": e.max_points,
                "verdict": e.verdict.as_str(),
                "message": e.message,
                "details": e.details,
                "printed": e.printed,
            })).collect::<Vec<_>>(),
        })
    }

    /// Reads [`Grade::to_json`] back; `None` when anything is missing or unknown.
    pub fn from_json(value: &Value) -> Option<Grade> {
        let text = |v: &Value, k: &str| v[k].as_str().map(str::to_owned);
        let exercises = value["exercises"]
            .as_array()?
            .iter()
            .map(|e| {
                Some(ExerciseGrade {
                    exercise: text(e, "exercise")?,
                    points: e["points"].as_f64()?,
                    max_points: e["max_points"].as_f64()?,
                    verdict: Verdict::parse(e["verdict"].as_str()?)?,
                    message: text(e, "message")?,
                    details: serde_json::from_value(e["details"].clone()).ok()?,
                    printed: text(e, "printed")?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Grade {
            student: text(value, "student")?,
            file: PathBuf::from(text(value, "file")?),
            lab: text(value, "lab"),
            exercises,
            total: value["total"].as_f64()?,
            max: value["max"].as_f64()?,
            notes: serde_json::from_value(value["notes"].clone()).ok()?,
            seconds: value["seconds"].as_f64()?,
            digest: text(value, "digest")?,
            executed: None,
        })
    }
}

/// Where a submission's grade is kept for `--resume`: by student and file name, so it is
/// known before the notebook is read.
pub fn saved_grade_path(submission: &Submission, feedback_dir: &Path) -> PathBuf {
    feedback_dir
        .join(&submission.student)
        .join(format!(".{}.grade.json", stem(&submission.file)))
}

/// The grade saved for `submission` by an earlier run, if the file has not changed since.
pub fn saved_grade(submission: &Submission, feedback_dir: &Path) -> Option<Grade> {
    let text = std::fs::read(saved_grade_path(submission, feedback_dir)).ok()?;
    let grade = Grade::from_json(&serde_json::from_slice(&text).ok()?)?;
    let bytes = std::fs::read(&submission.file).ok()?;
    (grade.file == submission.file && grade.digest == digest(&bytes)).then_some(grade)
}

/// The gradebook as CSV: one row per submission, a column per exercise (of every lab, in
/// lab order), total and maximum points, and a short note.
pub fn gradebook_csv(grades: &[Grade], labs: &[Lab]) -> String {
    let mut columns: Vec<(String, String)> = Vec::new();
    for lab in labs {
        for (exercise, _, _) in &lab.exercises {
            columns.push((lab.name.clone(), exercise.clone()));
        }
    }
    let multiple = labs.len() > 1;
    let mut out = String::from("student,file,lab");
    for (lab, exercise) in &columns {
        out.push(',');
        out.push_str(&csv(&if multiple {
            format!("{lab}/{exercise}")
        } else {
            exercise.clone()
        }));
    }
    out.push_str(",total,max,notes\n");
    for g in grades {
        let _ = write!(
            out,
            "{},{},{}",
            csv(&g.student),
            csv(&g.file.display().to_string()),
            csv(g.lab.as_deref().unwrap_or(""))
        );
        for (lab, exercise) in &columns {
            let cell = if g.lab.as_deref() == Some(lab) {
                g.exercises
                    .iter()
                    .find(|e| &e.exercise == exercise)
                    .map(|e| number(e.points))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            out.push(',');
            out.push_str(&cell);
        }
        let _ = writeln!(
            out,
            ",{},{},{}",
            number(g.total),
            number(g.max),
            csv(&g.notes.join("; "))
        );
    }
    out
}

/// The columns of `nbgrader export`'s CSV, in its order.
pub const NBGRADER_CSV_COLUMNS: [&str; 11] = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
];

/// The grades in the layout of `nbgrader export` (its CSV plugin): one row per student and
/// lab, the lab as the assignment, the total as raw score and score, no late penalty. Fields
/// bpe-lab does not know (due date, timestamp, names, email) are empty, as nbgrader writes
/// them when unset. Submissions that matched no lab have no row.
pub fn nbgrader_csv(grades: &[Grade]) -> String {
    let mut out = NBGRADER_CSV_COLUMNS.join(",");
    out.push('\n');
    for g in grades {
        let Some(lab) = &g.lab else { continue };
        let total = format!("{:.1}", g.total);
        let _ = writeln!(
            out,
            "{},,,{},,,,{total},0.0,{total},{:.1}",
            csv(lab),
            csv(&g.student),
            g.max
        );
    }
    out
}

pub(super) fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::check::Status;

    #[test]
    fn nbgrader_rows_follow_its_export_layout() {
        let mut g = Grade {
            student: "ana, b".into(),
            file: PathBuf::from("s/ana/03-merge.ipynb"),
            lab: Some("03-merge".into()),
            exercises: Vec::new(),
            total: 2.0,
            max: 3.0,
            notes: Vec::new(),
            seconds: 0.0,
            digest: String::new(),
            executed: None,
        };
        let unmatched = Grade {
            lab: None,
            ..g.clone()
        };
        g.total = 2.5;
        assert_eq!(
            nbgrader_csv(&[g, unmatched]),
            "assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score\n\
             03-merge,,,\"ana, b\",,,,2.5,0.0,2.5,3.0\n"
        );
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(csv("a,b"), "\"a,b\"");
        assert_eq!(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv("plain"), "plain");
    }

    fn lab(name: &str, exercises: &[&str]) -> Lab {
        let nb = Notebook::parse(br#"{"nbformat": 4, "cells": []}"#, Path::new("x")).unwrap();
        Lab {
            name: name.to_owned(),
            released: nb,
            exercises: exercises
                .iter()
                .map(|e| (e.to_string(), 1.0, String::new()))
                .collect(),
        }
    }

    #[test]
    fn gradebooks_name_columns_by_lab_when_there_are_several() {
        let labs = [lab("01-a", &["x"]), lab("02-b", &["y"])];
        let mut g = Grade {
            student: "ana".into(),
            file: PathBuf::from("s/ana/02-b.ipynb"),
            lab: Some("02-b".into()),
            exercises: vec![ExerciseGrade {
                exercise: "y".into(),
                points: 1.0,
                max_points: 1.0,
                verdict: Verdict::Checked(Status::Passed),
                message: String::new(),
                details: None,
                printed: String::new(),
            }],
            total: 1.0,
            max: 1.0,
            notes: vec!["a, \"quoted\" note".into()],
            seconds: 0.0,
            digest: String::new(),
            executed: None,
        };
        let csv = gradebook_csv(std::slice::from_ref(&g), &labs);
        assert_eq!(
            csv,
            "student,file,lab,01-a/x,02-b/y,total,max,notes\nana,s/ana/02-b.ipynb,02-b,,1,1,1,\"a, \"\"quoted\"\" note\"\n"
        );
        g.total = 0.5;
        assert!(gradebook_csv(&[g], &labs[1..]).starts_with("student,file,lab,y,total"));
    }

    #[test]
    fn students_come_from_folders() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ana/.ipynb_checkpoints")).unwrap();
        std::fs::write(dir.path().join("ana/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("ana/.ipynb_checkpoints/01-x.ipynb"), "{}").unwrap();
        std::fs::write(dir.path().join("bo.ipynb"), "{}").unwrap();
        std::fs::create_dir_all(dir.path().join("empty")).unwrap();
        let (found, notes) = find_submissions(&[dir.path().to_owned(), dir.path().join("empty")]);
        let students: Vec<&str> = found.iter().map(|s| s.student.as_str()).collect();
        assert_eq!(students, ["ana", "bo"]);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("no notebooks"));
    }
}
