//! Grading submissions: each notebook is identified, restored against its released version,
//! executed with the real kernel under time and memory limits and a fresh nonce, and scored
//! from the check results of the protected check cells only. One broken or hostile
//! submission never stops the others.

use super::notebook::{Notebook, Role, cell_id, role};
use super::release::{lab_name, sources, student_version};
use super::restore::restore;
use super::results::{check_results, errors};
use super::runner::{Run, RunOptions, run_notebook};
use crate::lab::check::{NONCE_ENV, Status};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};

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
    /// `passed`, `failed`, `not_implemented`, `panicked`, or `no result`.
    pub status: String,
    pub message: String,
    /// input / expected / got, when the check showed a failing case.
    pub details: Option<(String, String, String)>,
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
    /// The executed, restored notebook (kept for the instructor), when it ran.
    pub executed: Option<PathBuf>,
    pub seconds: f64,
}

/// How to grade.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    pub labs: Vec<Lab>,
    /// Grade every submission as this lab (else: by file name, else by content).
    pub expected_lab: Option<String>,
    pub run: RunOptions,
    /// Feedback files (and the executed notebooks) go here.
    pub feedback_dir: PathBuf,
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

fn stem(path: &Path) -> String {
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

/// A fresh unpredictable token per run (std's hasher keys are random per process).
pub fn new_nonce() -> String {
    let mut out = String::new();
    for i in 0..2u64 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(i);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.write_u32(std::process::id());
        let _ = write!(out, "{:016x}", h.finish());
    }
    out
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

/// Grades one submission; never fails — what went wrong is in the grade's notes.
pub fn grade_one(submission: &Submission, options: &GradeOptions) -> Grade {
    let mut grade = Grade {
        student: submission.student.clone(),
        file: submission.file.clone(),
        lab: None,
        exercises: Vec::new(),
        total: 0.0,
        max: 0.0,
        notes: Vec::new(),
        executed: None,
        seconds: 0.0,
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
        grade.exercises = zero_grades(lab, "no result", "not graded");
    }
    let nb = match Notebook::read(&submission.file) {
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
    grade.exercises = zero_grades(lab, "no result", "the notebook did not run");
    let (restored, restore_notes) = restore(&nb, &lab.released);
    grade.notes.extend(restore_notes);
    let dir = options.feedback_dir.join(&grade.student);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        grade
            .notes
            .push(format!("could not be graded: {}: {e}", dir.display()));
        return grade;
    }
    let input = dir.join(format!("{}.restored.ipynb", lab.name));
    let executed = dir.join(format!("{}.executed.ipynb", lab.name));
    if let Err(e) = restored.write(&input) {
        grade.notes.push(format!("could not be graded: {e}"));
        return grade;
    }
    let nonce = new_nonce();
    let mut run = options.run.clone();
    run.env.push((NONCE_ENV.to_owned(), nonce.clone()));
    match run_notebook(&input, &executed, &run) {
        Err(e) => grade
            .notes
            .push(format!("the grader could not run it: {}", e.problem)),
        Ok(summary) => {
            grade.seconds = summary.seconds;
            grade.executed = Some(executed.clone());
            match Notebook::read(&executed) {
                Err(e) => grade
                    .notes
                    .push(format!("the grader could not read its run: {e}")),
                Ok(ran) => score(&ran, &summary, lab, &nonce, &mut grade),
            }
        }
    }
    let _ = std::fs::remove_file(&input);
    grade.total = grade.exercises.iter().map(|e| e.points).sum();
    grade
}

fn zero_grades(lab: &Lab, status: &str, message: &str) -> Vec<ExerciseGrade> {
    lab.exercises
        .iter()
        .map(|(exercise, points, _)| ExerciseGrade {
            exercise: exercise.clone(),
            points: 0.0,
            max_points: *points,
            status: status.to_owned(),
            message: message.to_owned(),
            details: None,
        })
        .collect()
}

/// Scores from the protected check cells only: the last result there that carries this run's
/// nonce and names the cell's exercise.
fn score(ran: &Notebook, run: &Run, lab: &Lab, nonce: &str, grade: &mut Grade) {
    let by_index: HashMap<usize, &super::runner::CellRun> =
        run.cells.iter().map(|c| (c.index, c)).collect();
    if let Some(reason) = &run.stopped {
        grade.notes.push(format!("the run was stopped: {reason}"));
    }
    let check_ids: HashMap<&str, &str> = lab
        .exercises
        .iter()
        .map(|(exercise, _, id)| (id.as_str(), exercise.as_str()))
        .collect();
    for (index, cell) in ran.cells().iter().enumerate() {
        let id = cell_id(cell).unwrap_or_default();
        let found = check_results(cell);
        let cell_run = by_index.get(&index);
        if let Some(r) = cell_run
            && r.status == "timeout"
        {
            grade.notes.push(format!(
                "cell {} ({id}) ran past the time limit and was stopped",
                index + 1
            ));
        }
        let Some(&exercise) = check_ids.get(id) else {
            if !found.is_empty() {
                grade.notes.push(format!(
                    "ignored {} check-like result(s) printed by cell {} ({id}): only the protected check cells count",
                    found.len(),
                    index + 1
                ));
            }
            continue;
        };
        let genuine: Vec<_> = found
            .iter()
            .filter(|r| r.nonce.as_deref() == Some(nonce) && r.exercise == exercise)
            .collect();
        if genuine.len() < found.len() {
            grade.notes.push(format!(
                "ignored {} result(s) in the check cell of {exercise} that did not come from the check (no grader nonce)",
                found.len() - genuine.len()
            ));
        }
        let Some(slot) = grade.exercises.iter_mut().find(|e| e.exercise == exercise) else {
            continue;
        };
        match genuine.last() {
            Some(result) => {
                let status = result.status.unwrap_or(Status::Failed);
                slot.status = status.as_str().to_owned();
                slot.message = result.message.clone();
                slot.points = if status == Status::Passed {
                    slot.max_points
                } else {
                    0.0
                };
                let field = |k: &str| result.json[k].as_str().map(str::to_owned);
                if let (Some(i), Some(e), Some(g)) =
                    (field("input"), field("expected"), field("got"))
                {
                    slot.details = Some((i, e, g));
                }
            }
            None => {
                slot.status = "no result".to_owned();
                slot.message = match cell_run.map(|r| r.status.as_str()) {
                    Some("timeout") => "the check cell ran past the time limit".to_owned(),
                    Some("not_run") => format!(
                        "the check cell did not run ({})",
                        cell_run
                            .and_then(|r| r.reason.clone())
                            .unwrap_or_else(|| "the run had stopped".to_owned())
                    ),
                    _ => match errors(cell).first() {
                        Some(error) => format!("the check cell failed: {error}"),
                        None => "the check cell produced no result".to_owned(),
                    },
                };
            }
        }
    }
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

fn number(x: f64) -> String {
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

/// The student's feedback as Markdown: score, a line per exercise, the failing cases, and
/// what the grader changed or noticed.
pub fn feedback_markdown(g: &Grade) -> String {
    let mut md = format!(
        "# Feedback: {} — {}\n\n**Score: {} / {}**\n\n",
        g.lab.as_deref().unwrap_or("unknown lab"),
        g.student,
        number(g.total),
        number(g.max)
    );
    if !g.exercises.is_empty() {
        md.push_str("| exercise | result | points |\n|---|---|---|\n");
        for e in &g.exercises {
            let icon = if e.status == "passed" { "✅" } else { "❌" };
            let _ = writeln!(
                md,
                "| `{}` | {icon} {} | {} / {} |",
                e.exercise,
                e.status.replace('_', " "),
                number(e.points),
                number(e.max_points)
            );
        }
        for e in g.exercises.iter().filter(|e| e.status != "passed") {
            let _ = write!(
                md,
                "\n## `{}`: {}\n\n{}\n",
                e.exercise,
                e.status.replace('_', " "),
                e.message
            );
            if let Some((input, expected, got)) = &e.details {
                let _ = write!(
                    md,
                    "\nSmallest failing input:\n\n```text\n{input}\n```\n\nExpected:\n\n```text\n{expected}\n```\n\nGot:\n\n```text\n{got}\n```\n"
                );
            }
        }
    }
    if !g.notes.is_empty() {
        md.push_str("\n## Notes from the grader\n\n");
        for note in &g.notes {
            let _ = writeln!(md, "- {note}");
        }
    }
    md
}

/// Where a grade's feedback file goes.
pub fn feedback_path(g: &Grade, feedback_dir: &Path) -> PathBuf {
    let lab = g.lab.clone().unwrap_or_else(|| stem(&g.file));
    feedback_dir.join(&g.student).join(format!("{lab}.md"))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                status: "passed".into(),
                message: String::new(),
                details: None,
            }],
            total: 1.0,
            max: 1.0,
            notes: vec!["a, \"quoted\" note".into()],
            executed: None,
            seconds: 0.0,
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
    fn nonces_differ() {
        let a = new_nonce();
        assert_eq!(a.len(), 32);
        assert_ne!(a, new_nonce());
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
