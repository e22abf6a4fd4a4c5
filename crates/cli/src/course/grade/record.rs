//! A submission's grade as it is kept: per exercise the points, the verdict and what backs it;
//! the notes; the file's digest. Saved as JSON beside the feedback ([`super::resume`]).

use super::adjustments::Applied;
use super::lab::Lab;
use super::note::{GradeNote, Ungradable};
use super::setup::GradingSetup;
use crate::course::judge::{Details, Judged, Verdict};
use bpe_lab::lab::check::Exercise;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One exercise's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ExerciseGrade {
    #[serde(with = "crate::course::exercise_name")]
    pub(crate) exercise: Exercise,
    pub(crate) points: f64,
    pub(crate) max_points: f64,
    pub(crate) verdict: Verdict,
    pub(crate) message: String,
    /// The failing case the check showed, or the compiler's messages.
    pub(crate) details: Option<Details>,
    /// What the student's code printed while it was checked (kept up to a size).
    pub(crate) printed: String,
}

impl ExerciseGrade {
    /// Takes the judge's finding: full points for a pass, none otherwise.
    pub(crate) fn record(&mut self, judged: Judged) {
        self.points = if judged.verdict.passed() {
            self.max_points
        } else {
            0.0
        };
        self.verdict = judged.verdict;
        self.message = judged.message;
        self.details = judged.details;
        self.printed = judged.printed;
    }
}

/// One submission's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Grade {
    pub(crate) student: String,
    pub(crate) file: PathBuf,
    /// The lab graded against, when the submission could be matched to one.
    pub(crate) lab: Option<String>,
    pub(crate) exercises: Vec<ExerciseGrade>,
    pub(crate) total: f64,
    pub(crate) max: f64,
    /// What was restored and anything else the student should know.
    pub(crate) notes: Vec<GradeNote>,
    pub(crate) seconds: f64,
    /// SHA-256 of the submitted file, so a resumed run knows whether it changed.
    pub(crate) digest: String,
    /// The restored notebook as executed in the sandbox (`--execute`); not part of the saved
    /// grade, which a resumed run reads back — the notebook is already in the feedback folder.
    #[serde(skip)]
    pub(crate) executed: Option<Vec<u8>>,
    /// The grading setup it was decided under (none in grades saved before it was recorded).
    #[serde(default)]
    pub(crate) setup: Option<GradingSetup>,
    /// The setup's digest: `--resume` keeps the grade only while it is the run's.
    #[serde(default)]
    pub(crate) setup_digest: String,
    /// The instructor's adjustments, applied for the gradebooks and the feedback; never saved
    /// with the judge's grade — they live in their own file ([`super::adjustments`]).
    #[serde(skip)]
    pub(crate) adjustments: Vec<Applied>,
}

impl Grade {
    /// A grade with nothing known yet but whose file it is.
    pub(crate) fn empty(student: &str, file: PathBuf) -> Grade {
        Grade {
            student: student.to_owned(),
            file,
            lab: None,
            exercises: Vec::new(),
            total: 0.0,
            max: 0.0,
            notes: Vec::new(),
            seconds: 0.0,
            digest: String::new(),
            executed: None,
            setup: None,
            setup_digest: String::new(),
            adjustments: Vec::new(),
        }
    }

    /// Graded against `lab`: every exercise at zero, "not graded", until judged.
    pub(crate) fn against(&mut self, lab: &Lab) {
        self.lab = Some(lab.name.clone());
        self.max = lab.max_points();
        self.exercises = lab
            .exercises
            .iter()
            .map(|e| ExerciseGrade {
                exercise: e.exercise,
                points: 0.0,
                max_points: e.points,
                verdict: Verdict::NotGraded,
                message: "not graded".to_owned(),
                details: None,
                printed: String::new(),
            })
            .collect();
        self.total = 0.0;
    }

    pub(crate) fn not_graded(&mut self, why: Ungradable) {
        self.note(GradeNote::NotGraded(why));
    }

    /// Adds a note, once.
    pub(crate) fn note(&mut self, note: GradeNote) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// The notes as one line, for tables and progress lines, followed by each exercise the
    /// grader's own trouble left not graded (so a 0 in the gradebook is never unexplained).
    pub(crate) fn notes_line(&self) -> String {
        let mut notes: Vec<String> = self.notes.iter().map(GradeNote::to_string).collect();
        notes.extend(self.not_graded_parts().into_iter().filter_map(|p| {
            p.exercise
                .map(|exercise| format!("{}: {}", exercise.name(), p.reason))
        }));
        notes.join("; ")
    }
}
