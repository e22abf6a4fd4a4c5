//! Gradescope's autograder results (`/autograder/results/results.json`, from Gradescope's
//! autograder specification): the submission's `score`, an `output` for the whole submission,
//! and `tests`, one per exercise with its `name`, `score`, `max_score`, `status` (`passed` or
//! `failed`), `output` (what the feedback says: the verdict, the message, the smallest failing
//! input) and `visibility` (`visible`). An autograder's `run_autograder` runs `bpe-lab lab
//! grade /autograder/submission … --gradescope-results /autograder/results/results.json`.

use super::super::outcome::outcome;
use super::super::record::Grade;
use crate::course::judge::Details;
use serde_json::{Value, json};

/// The results of `grades` (the one submission Gradescope grades; several are joined, their
/// tests named by lab) as Gradescope reads them.
pub(crate) fn gradescope_results(grades: &[Grade]) -> String {
    let several = grades.len() > 1;
    let mut tests = Vec::new();
    let mut output = Vec::new();
    for g in grades {
        let notes = g.notes_line();
        if !notes.is_empty() {
            output.push(notes);
        }
        for a in &g.adjustments {
            output.push(format!("adjusted by your instructor: {a}"));
        }
        for e in &g.exercises {
            let mut text = format!("{}: {}", outcome(e), e.message);
            if let Some(Details::Counterexample {
                input,
                expected,
                got,
            }) = &e.details
            {
                text.push_str(&format!(
                    "\nsmallest failing input: {input}\nexpected: {expected}\ngot: {got}"
                ));
            }
            if let Some(Details::CompilerMessages { messages }) = &e.details {
                text.push('\n');
                text.push_str(messages);
            }
            let name = match (&g.lab, several) {
                (Some(lab), true) => format!("{lab}/{}", e.exercise.name()),
                _ => e.exercise.name().to_owned(),
            };
            tests.push(json!({
                "name": name,
                "score": e.points,
                "max_score": e.max_points,
                "status": if e.verdict.passed() { "passed" } else { "failed" },
                "output": text,
                "visibility": "visible",
            }));
        }
    }
    let score: f64 = grades.iter().map(|g| g.total).sum();
    let results: Value = json!({
        "score": score,
        "output": output.join("\n"),
        "visibility": "visible",
        "tests": tests,
    });
    serde_json::to_string_pretty(&results).expect("results serialize")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::record::ExerciseGrade;
    use crate::course::judge::Verdict;
    use bpe_lab::lab::check::{Exercise, Status};
    use std::path::PathBuf;

    #[test]
    fn results_follow_the_autograder_specification() {
        let mut g = Grade::empty("ana", PathBuf::from("submission/03-merge.ipynb"));
        g.lab = Some("03-merge".into());
        let e = |exercise: Exercise, points, verdict, details| ExerciseGrade {
            exercise: exercise.into(),
            points,
            max_points: 2.0,
            verdict,
            message: "m".into(),
            details,
            printed: String::new(),
        };
        g.exercises = vec![
            e(
                Exercise::MostFrequentPair,
                2.0,
                Verdict::Checked(Status::Passed),
                None,
            ),
            e(
                Exercise::MergePairInWord,
                0.0,
                Verdict::Checked(Status::Failed),
                Some(Details::Counterexample {
                    input: "[\"a\"]".into(),
                    expected: "[]".into(),
                    got: "[\"a\"]".into(),
                }),
            ),
        ];
        g.total = 2.0;
        let results: Value = serde_json::from_str(&gradescope_results(&[g])).unwrap();
        // The specification's fields and types, written out here.
        assert_eq!(results["score"], 2.0);
        assert!(results["output"].is_string());
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 2);
        for test in tests {
            let mut keys: Vec<&str> = test
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.as_str())
                .collect();
            keys.sort();
            assert_eq!(
                keys,
                [
                    "max_score",
                    "name",
                    "output",
                    "score",
                    "status",
                    "visibility"
                ]
            );
            assert!(test["score"].is_number() && test["max_score"].is_number());
            assert!(["passed", "failed"].contains(&test["status"].as_str().unwrap()));
            assert!(
                ["hidden", "after_due_date", "after_published", "visible"]
                    .contains(&test["visibility"].as_str().unwrap())
            );
        }
        assert_eq!(tests[0]["name"], "most_frequent_pair");
        assert_eq!(tests[1]["status"], "failed");
        assert_eq!(
            tests[1]["output"],
            "wrong, smallest failing input: [\"a\"]: m\nsmallest failing input: [\"a\"]\n\
             expected: []\ngot: [\"a\"]"
        );
    }
}
