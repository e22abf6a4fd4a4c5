//! An exercise's outcome in a few words, for a gradebook column of its own: the points alone
//! do not say whether a 0 was a wrong answer (and on which input), code that never compiled,
//! a crash, a time-out, or an exercise the grader could not grade.

use super::record::ExerciseGrade;
use crate::course::judge::{Details, Verdict};
use bpe_lab::lab::check::Status;

/// The longest failing input a gradebook cell shows (the feedback has it whole).
const INPUT_CHARS: usize = 120;

/// The outcome of `e`: `passed`; `wrong, smallest failing input: …`; `not implemented`; `did
/// not compile`; `crashed`; `panicked`; `timed out`; `used the crate's answer`; `missing`;
/// `not graded`.
pub(crate) fn outcome(e: &ExerciseGrade) -> String {
    match &e.verdict {
        Verdict::Checked(Status::Failed) => match &e.details {
            Some(Details::Counterexample { input, .. }) => {
                let mut shown: String = input.chars().take(INPUT_CHARS).collect();
                if shown.len() < input.len() {
                    shown.push('…');
                }
                format!("wrong, smallest failing input: {shown}")
            }
            _ => "wrong".to_owned(),
        },
        Verdict::Checked(Status::UsedReference) => "used the crate's answer".to_owned(),
        verdict => verdict.as_str().replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpe_lab::lab::check::Exercise;

    fn with(verdict: Verdict, details: Option<Details>) -> String {
        outcome(&ExerciseGrade {
            exercise: Exercise::Decode.into(),
            points: 0.0,
            max_points: 1.0,
            verdict,
            message: String::new(),
            details,
            printed: String::new(),
        })
    }

    #[test]
    fn each_outcome_says_what_the_points_do_not() {
        assert_eq!(with(Verdict::Checked(Status::Passed), None), "passed");
        assert_eq!(
            with(
                Verdict::Checked(Status::Failed),
                Some(Details::Counterexample {
                    input: "[\"a\", \"b\"]".into(),
                    expected: String::new(),
                    got: String::new(),
                })
            ),
            "wrong, smallest failing input: [\"a\", \"b\"]"
        );
        let long = "x".repeat(500);
        let cut = with(
            Verdict::Checked(Status::Failed),
            Some(Details::Counterexample {
                input: long,
                expected: String::new(),
                got: String::new(),
            }),
        );
        assert!(cut.ends_with("x…") && cut.chars().count() < 200, "{cut}");
        assert_eq!(
            with(Verdict::Checked(Status::NotImplemented), None),
            "not implemented"
        );
        assert_eq!(with(Verdict::DidNotCompile, None), "did not compile");
        assert_eq!(with(Verdict::Checked(Status::Crashed), None), "crashed");
        assert_eq!(with(Verdict::Checked(Status::TimedOut), None), "timed out");
        assert_eq!(with(Verdict::NotGraded, None), "not graded");
        assert_eq!(with(Verdict::Missing, None), "missing");
    }
}
