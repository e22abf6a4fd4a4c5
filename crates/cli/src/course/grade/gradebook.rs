//! The gradebook as CSV: one row per submission, a column per exercise (of every lab, in lab
//! order), total and maximum points, and the notes; then each exercise's outcome in words
//! ([`super::outcome`]), the tie rule and the grader's version the grade was decided under.
//! The new columns come after the notes, so tools reading the first ones by position still
//! read them. Last come the lateness columns ([`super::lateness`]): `submitted_at` (RFC 3339,
//! UTC; empty when the download does not say), `late_by` (`1d 2h 5m`; `late` when only the
//! LMS's marker says so; empty when on time) and `late_penalty` (points taken off the total,
//! which is after it; empty without `--due`).

use super::graded_notebook::GradedNotebook;
use super::outcome::outcome;
use super::record::{ExerciseGrade, Grade, Outcome};
use std::fmt::Write as _;

/// The gradebook of `grades`, with columns for `labs`' exercises.
pub(crate) fn gradebook_csv(grades: &[Grade], labs: &[GradedNotebook]) -> String {
    let columns: Vec<(&str, &str)> = labs
        .iter()
        .flat_map(|lab| {
            lab.exercises
                .iter()
                .map(|e| (lab.name.as_str(), e.exercise.name()))
        })
        .collect();
    let multiple = labs.len() > 1;
    let name = |lab: &str, exercise: &str| {
        if multiple {
            format!("{lab}/{exercise}")
        } else {
            exercise.to_string()
        }
    };
    let mut out = String::from("student,file,lab");
    for (lab, exercise) in &columns {
        out.push(',');
        out.push_str(&csv(&name(lab, exercise)));
    }
    out.push_str(",total,max,notes");
    for (lab, exercise) in &columns {
        out.push(',');
        out.push_str(&csv(&format!("{} outcome", name(lab, exercise))));
    }
    out.push_str(",tie rule,grader,submitted_at,late_by,late_penalty\n");
    for g in grades {
        row(&mut out, g, &columns);
    }
    out
}

fn row(out: &mut String, g: &Grade, columns: &[(&str, &str)]) {
    let _ = write!(
        out,
        "{},{},{}",
        csv(&g.student),
        csv(&g.file.display().to_string()),
        csv(g.lab.as_deref().unwrap_or(""))
    );
    let cells = |show: &dyn Fn(&ExerciseGrade) -> String| -> String {
        columns
            .iter()
            .map(|(lab, exercise)| {
                let cell = g
                    .exercises
                    .iter()
                    .filter(|_| g.lab.as_deref() == Some(lab))
                    .find(|e| e.exercise.name() == *exercise)
                    .map(show)
                    .unwrap_or_default();
                format!(",{}", csv(&cell))
            })
            .collect()
    };
    out.push_str(&cells(&|e| number(e.points)));
    let mut notes = g.notes_line();
    for a in &g.adjustments {
        if !notes.is_empty() {
            notes.push_str("; ");
        }
        let _ = write!(notes, "adjusted: {a}");
    }
    if let Some(line) = g.lateness.as_ref().and_then(|l| l.line(g.late_penalty)) {
        if !notes.is_empty() {
            notes.push_str("; ");
        }
        notes.push_str(&line);
    }
    // Who handed nothing in has no total: "no submission" is not a zero.
    let (total, max) = match g.outcome() {
        Outcome::NoSubmission => (String::new(), String::new()),
        _ => (number(g.total), number(g.max)),
    };
    let _ = write!(out, ",{total},{max},{}", csv(&notes));
    out.push_str(&cells(&outcome));
    let (tie_rule, grader) = g
        .setup
        .as_ref()
        .map(|s| (s.tie_rule.as_str(), s.grader.as_str()))
        .unwrap_or_default();
    let _ = write!(out, ",{},{}", csv(tie_rule), csv(grader));
    let (submitted_at, late_by) = g
        .lateness
        .as_ref()
        .map(|l| (l.submitted_at(), l.late_by_text()))
        .unwrap_or_default();
    // The penalty is a number whenever a due date was given, so 0 says "on time or not
    // penalised" and an empty cell "no due date".
    let penalty = match g.lateness.as_ref().and_then(|l| l.due.as_ref()) {
        Some(_) => number(g.late_penalty),
        None => String::new(),
    };
    let _ = writeln!(out, ",{submitted_at},{},{penalty}", csv(&late_by));
}

/// Points as people write them: `2`, `0.5`.
pub(crate) fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub(crate) fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::{
        graded_notebook::NotebookExercise, note::GradeNote, record::ExerciseGrade,
    };
    use crate::course::judge::{CellNote, Verdict};
    use crate::course::notebook::Notebook;
    use bpe_lab::lab::check::{Exercise, Status};
    use std::path::{Path, PathBuf};

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(csv("a,b"), "\"a,b\"");
        assert_eq!(csv("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv("plain"), "plain");
    }

    fn lab(name: &str, exercises: &[Exercise]) -> GradedNotebook {
        let nb = Notebook::parse(br#"{"nbformat": 4, "cells": []}"#, Path::new("x")).unwrap();
        let releases = crate::course::release_record::Releases::current_only(
            crate::course::release_record::ReleaseRecord::of(name, &nb),
        );
        GradedNotebook {
            name: name.to_owned(),
            released: nb,
            releases,
            own_tests: Vec::new(),
            exercises: exercises
                .iter()
                .map(|&exercise| NotebookExercise {
                    exercise: exercise.into(),
                    points: 1.0,
                    check_id: String::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn gradebooks_name_columns_by_lab_when_there_are_several() {
        let labs = [
            lab("01-a", &[Exercise::BpeInitialize]),
            lab("02-b", &[Exercise::Decode]),
        ];
        let mut g = Grade::empty("ana", PathBuf::from("s/ana/02-b.ipynb"));
        g.lab = Some("02-b".into());
        g.exercises = vec![ExerciseGrade {
            exercise: Exercise::Decode.into(),
            points: 1.0,
            max_points: 1.0,
            verdict: Verdict::Checked(Status::Passed),
            message: String::new(),
            details: None,
            printed: String::new(),
        }];
        g.total = 1.0;
        g.max = 1.0;
        g.notes = vec![GradeNote::Cell(CellNote::BreaksBuild {
            number: 3,
            exercise: Exercise::Decode,
        })];
        let csv = gradebook_csv(std::slice::from_ref(&g), &labs);
        assert_eq!(
            csv,
            "student,file,lab,01-a/bpe_initialize,02-b/decode,total,max,notes,\
             01-a/bpe_initialize outcome,02-b/decode outcome,tie rule,grader,\
             submitted_at,late_by,late_penalty\n\
             ana,s/ana/02-b.ipynb,02-b,,1,1,1,cell 3 was left out of `decode`: it does not compile with it,,passed,,,,,\n"
        );
        g.total = 0.5;
        assert!(gradebook_csv(&[g], &labs[1..]).starts_with("student,file,lab,decode,total"));
    }
}
