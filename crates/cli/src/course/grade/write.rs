//! What a session writes, each file atomically and the moment it is known: a grade's
//! feedback (Markdown, HTML, the executed notebook) and its saved copy for `--resume`; the
//! gradebook and the nbgrader CSV, rewritten after every grade. The saved copy is the judge's
//! grade; the feedback and the gradebooks show it with the instructor's adjustments applied
//! ([`super::adjustments`]).

use super::adjustments::Adjustments;
use super::error::{GradeError, Output};
use super::export::canvas::canvas_csv;
use super::export::gradescope::gradescope_results;
use super::export::moodle::{Worksheet, feedback_zip};
use super::feedback::{feedback_html, feedback_markdown, feedback_path};
use super::gradebook::gradebook_csv;
use super::graded_notebook::GradedNotebook;
use super::intake::roster::CanvasIds;
use super::nbgrader_csv::nbgrader_csv;
use super::record::Grade;
use super::resume::{saved_grade_path, saved_json};
use super::submission::Submission;
use bpe_lab::files::write_atomically;
use std::path::{Path, PathBuf};

/// Writes one output file atomically, its error naming which output it was.
pub(crate) fn write(output: Output, path: &Path, bytes: &[u8]) -> Result<(), GradeError> {
    write_atomically(path, |w| w.write_all(bytes)).map_err(|error| GradeError::Write {
        output,
        path: path.to_owned(),
        error,
    })
}

/// Writes `bytes` unless the file already holds exactly them (so a feedback file whose
/// content did not change keeps its modification time).
fn write_if_changed(output: Output, path: &Path, bytes: &[u8]) -> Result<(), GradeError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    write(output, path, bytes)
}

/// A grade's feedback pages (Markdown and HTML) with the adjustments applied, each written
/// only when it changed.
pub(crate) fn write_feedback(
    grade: &Grade,
    feedback_dir: &Path,
    adjustments: &Adjustments,
) -> Result<(), GradeError> {
    let path = feedback_path(grade, feedback_dir);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|error| GradeError::Write {
            output: Output::Feedback,
            path: dir.to_owned(),
            error,
        })?;
    }
    let adjusted = adjustments.apply(grade);
    write_if_changed(
        Output::Feedback,
        &path,
        feedback_markdown(&adjusted).as_bytes(),
    )?;
    let html = path.with_extension("html");
    write_if_changed(Output::Feedback, &html, feedback_html(&adjusted).as_bytes())
}

/// A grade's feedback files and its saved copy, in `feedback_dir/<student>/`.
pub(crate) fn write_grade(
    grade: &Grade,
    submission: &Submission,
    feedback_dir: &Path,
    adjustments: &Adjustments,
) -> Result<(), GradeError> {
    write_feedback(grade, feedback_dir, adjustments)?;
    let path = feedback_path(grade, feedback_dir);
    if let Some(notebook) = &grade.executed {
        write(
            Output::Feedback,
            &path.with_extension("executed.ipynb"),
            notebook,
        )?;
    }
    let saved = saved_grade_path(submission, feedback_dir);
    write(Output::Feedback, &saved, saved_json(grade).as_bytes())
}

/// Where the gradebooks go.
#[derive(Debug, Clone)]
pub(crate) struct Gradebooks {
    pub(crate) csv: PathBuf,
    pub(crate) nbgrader_csv: Option<PathBuf>,
    /// Canvas's gradebook import CSV, and the name (and id) of the assignment in Canvas.
    pub(crate) canvas_csv: Option<(PathBuf, Option<String>)>,
    /// Canvas's own ids of the roster's students (when the roster is Canvas's).
    pub(crate) canvas_ids: Vec<(String, CanvasIds)>,
    /// Gradescope's autograder results (`results.json`).
    pub(crate) gradescope_results: Option<PathBuf>,
    /// Moodle's grading worksheet (the one the instructor downloaded, read, or a new one) to
    /// fill, and the feedback-files zip Moodle takes back.
    pub(crate) moodle_worksheet: Option<(PathBuf, Worksheet)>,
    pub(crate) moodle_feedback_zip: Option<PathBuf>,
    /// Columns for this lab only (else for the labs the submissions turned out to be).
    pub(crate) lab: Option<String>,
    /// Applied to every row.
    pub(crate) adjustments: Adjustments,
}

impl Gradebooks {
    /// The gradebooks of the grades known so far, in submission order.
    pub(crate) fn write(
        &self,
        grades: &[Option<Grade>],
        labs: &[GradedNotebook],
    ) -> Result<(), GradeError> {
        let known: Vec<Grade> = grades
            .iter()
            .flatten()
            .map(|g| self.adjustments.apply(g))
            .collect();
        let graded: Vec<GradedNotebook> = labs
            .iter()
            .filter(|l| match &self.lab {
                Some(name) => &l.name == name,
                None => known
                    .iter()
                    .any(|g| g.lab.as_deref() == Some(l.name.as_str())),
            })
            .cloned()
            .collect();
        let columns = if graded.is_empty() { labs } else { &graded };
        write(
            Output::Gradebook,
            &self.csv,
            gradebook_csv(&known, columns).as_bytes(),
        )?;
        if let Some(path) = &self.nbgrader_csv {
            write(Output::NbgraderCsv, path, nbgrader_csv(&known).as_bytes())?;
        }
        if let Some((path, assignment)) = &self.canvas_csv {
            let canvas = canvas_csv(&known, columns, assignment.as_deref(), &self.canvas_ids);
            write(Output::CanvasCsv, path, canvas.as_bytes())?;
        }
        if let Some(path) = &self.gradescope_results {
            let results = gradescope_results(&known);
            write(Output::GradescopeResults, path, results.as_bytes())?;
        }
        if let Some((path, sheet)) = &self.moodle_worksheet {
            write(
                Output::MoodleWorksheet,
                path,
                sheet.filled(&known).as_bytes(),
            )?;
        }
        if let Some(path) = &self.moodle_feedback_zip {
            write(Output::MoodleFeedbackZip, path, &feedback_zip(&known))?;
        }
        Ok(())
    }
}
