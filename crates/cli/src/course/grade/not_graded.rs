//! What was not graded, and whose doing it was: a whole submission the grader could not take
//! (a [`GradeNote::NotGraded`]), or single exercises the judge left `not_graded` because of its own
//! trouble (a worker or compiler it could not start, a sandbox it could not make). The grader's
//! trouble is never a mark against the student: the feedback says so, the run's summary counts
//! it, and `--resume` grades exactly those submissions again.

use super::intake::note::IntakeNote;
use super::note::{GradeNote, Whose};
use super::record::{Grade, Outcome};
use crate::course::graded_exercise::GradedExercise;
use crate::course::judge::Verdict;
use std::path::PathBuf;

/// One part of a submission that was not graded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NotGraded {
    pub(crate) student: String,
    pub(crate) file: PathBuf,
    /// The exercise, or `None` when the whole submission was not graded.
    pub(crate) exercise: Option<GradedExercise>,
    pub(crate) whose: Whose,
    /// In the words the feedback uses.
    pub(crate) reason: String,
}

impl Grade {
    /// What of this grade was not graded, and why. A submission that could not be taken at
    /// all is one part (its exercises are "not graded" only because of it); otherwise each
    /// exercise the judge left `not_graded` is one part, the grader's trouble — the judge
    /// gives that verdict for nothing else.
    pub(crate) fn not_graded_parts(&self) -> Vec<NotGraded> {
        let part = |exercise, whose, reason| NotGraded {
            student: self.student.clone(),
            file: self.file.clone(),
            exercise,
            whose,
            reason,
        };
        if let Some(why) = self.notes.iter().find_map(|n| match n {
            GradeNote::NotGraded(why) => Some(why),
            _ => None,
        }) {
            return vec![part(
                None,
                why.whose(),
                GradeNote::NotGraded(why.clone()).to_string(),
            )];
        }
        self.exercises
            .iter()
            .filter(|e| e.verdict == Verdict::NotGraded)
            .map(|e| part(Some(e.exercise.clone()), Whose::Grader, e.message.clone()))
            .collect()
    }

    /// Whether the grader's own trouble kept any of it from being graded (then `--resume`
    /// grades it again).
    pub(crate) fn has_graders_trouble(&self) -> bool {
        self.not_graded_parts()
            .iter()
            .any(|p| p.whose == Whose::Grader)
    }
}

/// The not-graded parts of a whole run, and how many rows came to each outcome, for its
/// summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tally {
    pub(crate) not_graded: Vec<NotGraded>,
    /// Rows by outcome, in [`Outcome::ALL`]'s order, those with none left out.
    pub(crate) outcomes: Vec<(Outcome, usize)>,
    /// Rows of students `--roster` does not list (graded all the same).
    pub(crate) not_on_roster: usize,
}

impl Tally {
    /// The tally of `grades`, in their order.
    pub(crate) fn of<'a>(grades: impl IntoIterator<Item = &'a Grade>) -> Tally {
        let grades: Vec<&Grade> = grades.into_iter().collect();
        let outcomes = Outcome::ALL
            .into_iter()
            .map(|o| (o, grades.iter().filter(|g| g.outcome() == o).count()))
            .filter(|(_, n)| *n > 0)
            .collect();
        let flagged = GradeNote::Intake(IntakeNote::NotOnRoster);
        Tally {
            not_graded: grades.iter().flat_map(|g| g.not_graded_parts()).collect(),
            outcomes,
            not_on_roster: grades.iter().filter(|g| g.notes.contains(&flagged)).count(),
        }
    }

    /// The outcomes as the summary says them: "3 graded, 1 no submission".
    pub(crate) fn outcomes_line(&self) -> String {
        let mut parts: Vec<String> = self
            .outcomes
            .iter()
            .map(|(o, n)| format!("{n} {}", o.describe()))
            .collect();
        if parts.is_empty() {
            parts.push("no rows".to_owned());
        }
        if self.not_on_roster > 0 {
            parts.push(format!(
                "{} not on the roster (graded, flagged)",
                self.not_on_roster
            ));
        }
        parts.join(", ")
    }

    /// The parts that were `whose` doing.
    pub(crate) fn parts(&self, whose: Whose) -> impl Iterator<Item = &NotGraded> {
        self.not_graded.iter().filter(move |p| p.whose == whose)
    }

    /// How many submissions have a part that was `whose` doing.
    pub(crate) fn submissions(&self, whose: Whose) -> usize {
        let mut seen: Vec<(&str, &PathBuf)> = self
            .parts(whose)
            .map(|p| (p.student.as_str(), &p.file))
            .collect();
        seen.dedup();
        seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::{note::Ungradable, record::ExerciseGrade};
    use bpe_lab::lab::check::{Exercise, Status};

    fn exercise(exercise: Exercise, verdict: Verdict, message: &str) -> ExerciseGrade {
        ExerciseGrade {
            exercise: exercise.into(),
            points: 0.0,
            max_points: 1.0,
            verdict,
            message: message.into(),
            details: None,
            printed: String::new(),
        }
    }

    #[test]
    fn parts_say_whose_trouble_kept_them_from_being_graded() {
        let mut judged = Grade::empty("ana", PathBuf::from("s/ana/03.ipynb"));
        judged.exercises = vec![
            exercise(
                Exercise::MostFrequentPair,
                Verdict::Checked(Status::Passed),
                "ok",
            ),
            exercise(Exercise::MergePairInWord, Verdict::NotGraded, "no worker"),
        ];
        assert_eq!(
            judged.not_graded_parts(),
            [NotGraded {
                student: "ana".into(),
                file: PathBuf::from("s/ana/03.ipynb"),
                exercise: Some(Exercise::MergePairInWord.into()),
                whose: Whose::Grader,
                reason: "no worker".into(),
            }]
        );
        assert!(judged.has_graders_trouble());
        assert_eq!(judged.notes_line(), "merge_pair_in_word: no worker");

        // A file that is not a notebook: one part, the submission's, whatever its exercises say.
        let mut broken = Grade::empty("bo", PathBuf::from("s/bo/03.ipynb"));
        broken.exercises = vec![exercise(
            Exercise::MergePairInWord,
            Verdict::NotGraded,
            "not graded",
        )];
        broken.not_graded(Ungradable::NotANotebook {
            problem: "not JSON".into(),
        });
        let parts = broken.not_graded_parts();
        assert_eq!(parts.len(), 1);
        assert_eq!(
            (parts[0].exercise.clone(), parts[0].whose),
            (None, Whose::Submission)
        );
        assert_eq!(parts[0].reason, "could not be graded: not JSON");
        assert!(!broken.has_graders_trouble());

        let mut unreadable = Grade::empty("cy", PathBuf::from("s/cy/03.ipynb"));
        unreadable.not_graded(Ungradable::Unreadable {
            error: "permission denied".into(),
        });
        assert!(unreadable.has_graders_trouble());

        let mut fine = Grade::empty("di", PathBuf::from("s/di/03.ipynb"));
        fine.exercises = vec![exercise(
            Exercise::MergePairInWord,
            Verdict::Checked(Status::Failed),
            "wrong",
        )];
        assert!(fine.not_graded_parts().is_empty());

        let tally = Tally::of([&judged, &broken, &unreadable, &fine]);
        assert_eq!(tally.not_graded.len(), 3);
        assert_eq!(
            tally.outcomes,
            [
                (Outcome::Graded, 1),
                (Outcome::NotANotebook, 1),
                (Outcome::NotGraded, 2)
            ]
        );
        let absent = Grade::no_submission("eve", None);
        assert!(absent.not_graded_parts().is_empty());
        let mut stranger = fine.clone();
        stranger.note(GradeNote::Intake(IntakeNote::NotOnRoster));
        assert_eq!(
            Tally::of([&absent, &stranger]).outcomes_line(),
            "1 graded, 1 no submission, 1 not on the roster (graded, flagged)"
        );
        assert_eq!(tally.submissions(Whose::Grader), 2);
        assert_eq!(tally.submissions(Whose::Submission), 1);
    }
}
