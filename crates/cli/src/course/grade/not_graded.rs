//! What was not graded, and whose doing it was: a whole submission the grader could not take
//! (a [`GradeNote::NotGraded`]), or single exercises the judge left `not_graded` because of its own
//! trouble (a worker or compiler it could not start, a sandbox it could not make). The grader's
//! trouble is never a mark against the student: the feedback says so, the run's summary counts
//! it, and `--resume` grades exactly those submissions again.

use super::note::{GradeNote, Whose};
use super::record::Grade;
use crate::course::judge::Verdict;
use bpe_lab::lab::check::Exercise;
use std::path::PathBuf;

/// One part of a submission that was not graded.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NotGraded {
    pub(crate) student: String,
    pub(crate) file: PathBuf,
    /// The exercise, or `None` when the whole submission was not graded.
    pub(crate) exercise: Option<Exercise>,
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
            .map(|e| part(Some(e.exercise), Whose::Grader, e.message.clone()))
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

/// The not-graded parts of a whole run, for its summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tally {
    pub(crate) not_graded: Vec<NotGraded>,
}

impl Tally {
    /// The tally of `grades`, in their order.
    pub(crate) fn of<'a>(grades: impl IntoIterator<Item = &'a Grade>) -> Tally {
        Tally {
            not_graded: grades
                .into_iter()
                .flat_map(Grade::not_graded_parts)
                .collect(),
        }
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
    use bpe_lab::lab::check::Status;

    fn exercise(exercise: Exercise, verdict: Verdict, message: &str) -> ExerciseGrade {
        ExerciseGrade {
            exercise,
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
                exercise: Some(Exercise::MergePairInWord),
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
            (parts[0].exercise, parts[0].whose),
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
        assert_eq!(tally.submissions(Whose::Grader), 2);
        assert_eq!(tally.submissions(Whose::Submission), 1);
    }
}
