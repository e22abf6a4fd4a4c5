//! A submission's grade as it is kept: per exercise the points, the verdict and what backs it;
//! the notes; the file's digest. Saved as JSON beside the feedback ([`super::resume`]).

use super::adjustments::Applied;
use super::graded_notebook::GradedNotebook;
use super::lateness::Lateness;
use super::note::{GradeNote, Ungradable};
use super::setup::GradingSetup;
use crate::course::graded_exercise::GradedExercise;
use crate::course::judge::{Details, Judged, Verdict};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One exercise's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ExerciseGrade {
    pub(crate) exercise: GradedExercise,
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

/// What became of one gradebook row, in the words of the run's summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Outcome {
    /// Judged (whatever the points).
    Graded,
    /// A roster student who handed nothing in.
    NoSubmission,
    /// The file is no notebook (empty, a PDF, a zip without one, not JSON).
    NotANotebook,
    /// A notebook, but of no lab graded here, or of another lab than the one asked for.
    NotThisLab,
    /// The grader's own trouble kept it, or part of it, from being graded (`--resume`).
    NotGraded,
}

impl Outcome {
    pub(crate) const ALL: [Outcome; 5] = [
        Outcome::Graded,
        Outcome::NoSubmission,
        Outcome::NotANotebook,
        Outcome::NotThisLab,
        Outcome::NotGraded,
    ];

    pub(crate) fn describe(self) -> &'static str {
        match self {
            Outcome::Graded => "graded",
            Outcome::NoSubmission => "no submission",
            Outcome::NotANotebook => "not a notebook",
            Outcome::NotThisLab => "not this lab's notebook",
            Outcome::NotGraded => "not graded (the grader's trouble)",
        }
    }
}

/// One submission's grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Grade {
    pub(crate) student: String,
    /// The student's name, when the LMS's file names or the roster give it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
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
    /// When it was handed in, the due date and the late policy, when any is known
    /// ([`super::lateness`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lateness: Option<Lateness>,
    /// The points the late policy took from the total (after the adjustments); worked out
    /// with them, never saved.
    #[serde(skip)]
    pub(crate) late_penalty: f64,
}

impl Grade {
    /// A grade with nothing known yet but whose file it is.
    pub(crate) fn empty(student: &str, file: PathBuf) -> Grade {
        Grade {
            student: student.to_owned(),
            name: None,
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
            lateness: None,
            late_penalty: 0.0,
        }
    }

    /// Graded against `lab`: every exercise at zero, "not graded", until judged.
    pub(crate) fn against(&mut self, lab: &GradedNotebook) {
        self.lab = Some(lab.name.clone());
        self.max = lab.max_points();
        self.exercises = lab
            .exercises
            .iter()
            .map(|e| ExerciseGrade {
                exercise: e.exercise.clone(),
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

    /// The row of a roster student who handed nothing in.
    pub(crate) fn no_submission(student: &str, name: Option<String>) -> Grade {
        let mut grade = Grade::empty(student, PathBuf::new());
        grade.name = name;
        grade.note(GradeNote::NoSubmission);
        grade
    }

    /// What became of the submission, for the run's count.
    pub(crate) fn outcome(&self) -> Outcome {
        if self.notes.contains(&GradeNote::NoSubmission) {
            return Outcome::NoSubmission;
        }
        let why = self.notes.iter().find_map(|n| match n {
            GradeNote::NotGraded(why) => Some(why),
            _ => None,
        });
        match why {
            Some(Ungradable::NotANotebook { .. }) => Outcome::NotANotebook,
            Some(
                Ungradable::UnknownLab { .. } | Ungradable::NoLab | Ungradable::WrongLab { .. },
            ) => Outcome::NotThisLab,
            Some(Ungradable::Unreadable { .. } | Ungradable::Scratch { .. }) => Outcome::NotGraded,
            None if self.has_graders_trouble() => Outcome::NotGraded,
            None => Outcome::Graded,
        }
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
