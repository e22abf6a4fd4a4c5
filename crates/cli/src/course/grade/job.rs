//! Grading one submission, as a list of small steps run in order (nbgrader's preprocessors,
//! in spirit): read, identify the lab, restore the protected cells, make a scratch directory,
//! judge each exercise, and (`--execute`) run the notebook for the feedback. The first step
//! that cannot go on says why in the grade; one submission's trouble never stops the others.

use super::digest::digest;
use super::graded_notebook::GradedNotebook;
use super::identify::identify;
use super::intake::{sniff::what_it_is, text};
use super::lateness::{LateRule, Lateness};
use super::note::{GradeNote, Ungradable};
use super::record::Grade;
use super::scratch::job_scratch;
use super::submission::{Submission, stem};
use crate::course::judge::{JudgeOptions, editable_cells};
use crate::course::notebook::{Notebook, cell_id, to_jupyter_json};
use crate::course::own_tests::judge::judge_graded;
use crate::course::release::{Edition, edition_in};
use crate::course::restore::restore;
use crate::course::run_sandboxed::{ExecuteOptions, Executed, describe, execute};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How to grade one submission.
#[derive(Debug, Clone)]
pub(crate) struct GradeOptions {
    pub(crate) labs: Vec<GradedNotebook>,
    /// Grade every submission as this lab (else: by file name, else by content).
    pub(crate) expected_lab: Option<String>,
    pub(crate) judge: JudgeOptions,
    /// Scratch directories for workers are made here (outside the project).
    pub(crate) scratch_root: PathBuf,
    /// Also run each restored notebook with the real kernel, in the sandbox, for the feedback.
    pub(crate) execute: Option<ExecuteOptions>,
    /// `--due` and `--late-policy`.
    pub(crate) late: LateRule,
}

/// Grades one submission in grading slot `slot` (each parallel job has its own, so their
/// sandboxes never share a user or a scratch directory); never fails — what went wrong is in
/// the grade's notes.
pub(crate) fn grade_one(submission: &Submission, options: &GradeOptions, slot: usize) -> Grade {
    let started = Instant::now();
    let mut grade = Grade::empty(&submission.student, submission.file.clone());
    grade.name = submission.name.clone();
    for note in &submission.notes {
        grade.note(GradeNote::Intake(note.clone()));
    }
    let lateness = Lateness::of(submission.submitted, &options.late);
    if lateness != Lateness::default() {
        grade.lateness = Some(lateness);
    }
    if let Err(why) = steps(submission, options, slot, &mut grade) {
        grade.not_graded(why);
    }
    grade.seconds = started.elapsed().as_secs_f64();
    grade
}

/// The steps, in order.
fn steps(
    submission: &Submission,
    options: &GradeOptions,
    slot: usize,
    grade: &mut Grade,
) -> Result<(), Ungradable> {
    let expected = expected_lab(submission, options);
    if let Some(lab) = expected {
        grade.against(lab);
    }
    let bytes = submission.read()?;
    grade.digest = digest(&bytes);
    // Bytes to text before the notebook is parsed: a byte-order mark, UTF-16 or a stray
    // Latin-1 byte does not lose the submission.
    let decoded = text::decode(&bytes);
    let nb = Notebook::parse(decoded.text.as_bytes(), &submission.file).map_err(|e| {
        Ungradable::NotANotebook {
            problem: what_it_is(&bytes).map_or(e.problem, |kind| format!("not a notebook: {kind}")),
        }
    })?;
    if decoded.replaced {
        grade.note(GradeNote::NotUtf8 {
            places: text::replaced_places(&nb.json),
        });
    }
    let lab = identified(&nb, options, expected)?;
    grade.against(lab);
    if edition_in(&nb) == Some(Edition::SelfStudy) {
        grade.note(GradeNote::SelfStudyEdition);
    }
    let (restored, changes) = restore(&nb, &lab.released, &lab.releases);
    changes
        .into_iter()
        .for_each(|c| grade.note(GradeNote::Restored(c)));
    let scratch = job_scratch(&options.scratch_root, &options.judge.sandbox, slot)?;
    judge_all(grade, &restored, lab, scratch.path(), slot, &options.judge);
    if let Some(execute_options) = &options.execute {
        execute_for_feedback(grade, &restored, lab, slot, options, execute_options);
    }
    Ok(())
}

/// The lab asked for, else the lab named like the file.
fn expected_lab<'a>(
    submission: &Submission,
    options: &'a GradeOptions,
) -> Option<&'a GradedNotebook> {
    let name = options
        .expected_lab
        .clone()
        .unwrap_or_else(|| stem(&submission.file));
    options.labs.iter().find(|l| l.name == name)
}

/// The lab the notebook is (`--lab` when the notebook does not say), which must be the one
/// expected when one is.
fn identified<'a>(
    nb: &Notebook,
    options: &'a GradeOptions,
    expected: Option<&GradedNotebook>,
) -> Result<&'a GradedNotebook, Ungradable> {
    let lab = identify(nb, &options.labs, options.expected_lab.as_deref())?;
    match expected {
        Some(expected) if expected.name != lab.name => Err(Ungradable::WrongLab {
            found: lab.name.clone(),
            expected: expected.name.clone(),
        }),
        _ => Ok(lab),
    }
}

/// Judges every exercise from the student's cells before its check cell.
fn judge_all(
    grade: &mut Grade,
    restored: &Notebook,
    lab: &GradedNotebook,
    scratch: &Path,
    slot: usize,
    options: &JudgeOptions,
) {
    let cells = editable_cells(restored, &lab.released);
    let mut cell_notes = Vec::new();
    for (slot_grade, exercise) in grade.exercises.iter_mut().zip(&lab.exercises) {
        let check_index = restored
            .cells()
            .iter()
            .position(|c| cell_id(c) == Some(exercise.check_id.as_str()))
            .unwrap_or(restored.cells().len());
        let (judged, notes, earned) =
            judge_graded(lab, exercise, &cells, check_index, scratch, slot, options);
        slot_grade.record(judged);
        if let Some(earned) = earned {
            slot_grade.points = earned;
        }
        cell_notes.extend(notes);
    }
    cell_notes
        .into_iter()
        .for_each(|n| grade.note(GradeNote::Cell(n)));
    grade.total = grade.exercises.iter().map(|e| e.points).sum();
}

/// Runs the restored notebook with the real kernel in the sandbox, for the feedback folder.
fn execute_for_feedback(
    grade: &mut Grade,
    restored: &Notebook,
    lab: &GradedNotebook,
    slot: usize,
    options: &GradeOptions,
    execute_options: &ExecuteOptions,
) {
    let notebook = to_jupyter_json(&restored.json);
    let executed = execute(
        notebook.as_bytes(),
        &lab.name,
        execute_options,
        &options.judge.sandbox,
        &options.scratch_root,
        slot,
    );
    match executed {
        Executed::Ran { notebook, run } => {
            grade.note(GradeNote::Executed {
                summary: describe(&run),
            });
            grade.executed = Some(notebook);
        }
        Executed::Failed(problem) => grade.note(GradeNote::NotExecuted { problem }),
    }
}
