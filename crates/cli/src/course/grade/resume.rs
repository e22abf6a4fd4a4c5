//! `--resume`: each grade is saved as JSON beside the feedback, by student and file name (so
//! it is found before the notebook is read), and reused while the file's digest is the same
//! and it was decided under the grading setup the run grades under ([`super::setup`]: the
//! grader's version, the points, the tie rule, the limits). A saved grade that no longer reads
//! (an older layout) is not reused: that file is graded again, and so is one that the grader's
//! own trouble kept from being graded in full, or one graded under another setup
//! ([`kept_grade`]).

use super::class::same_file;
use super::digest::digest;
use super::graded_notebook::GradedNotebook;
use super::record::Grade;
use super::setup::RunSetup;
use super::submission::{Submission, stem};
use std::path::{Path, PathBuf};

/// Where a submission's grade is kept.
pub(crate) fn saved_grade_path(submission: &Submission, feedback_dir: &Path) -> PathBuf {
    feedback_dir
        .join(&submission.student)
        .join(format!(".{}.grade.json", stem(&submission.file)))
}

/// The grade saved for `submission` by an earlier run, whatever happened to the file since
/// (a regrade of another student keeps this row as it was).
pub(crate) fn read_saved(submission: &Submission, feedback_dir: &Path) -> Option<Grade> {
    let text = std::fs::read(saved_grade_path(submission, feedback_dir)).ok()?;
    let grade: Grade = serde_json::from_slice(&text).ok()?;
    (grade.student == submission.student && same_file(&grade.file, &submission.file))
        .then_some(grade)
}

/// The grade saved for `submission` by an earlier run, if the file has not changed since.
pub(crate) fn saved_grade(submission: &Submission, feedback_dir: &Path) -> Option<Grade> {
    let grade = read_saved(submission, feedback_dir)?;
    let bytes = submission.read().ok()?;
    (grade.file == submission.file && grade.digest == digest(&bytes)).then_some(grade)
}

/// Whether `grade` was decided under another setup than `run`'s (or under one not recorded).
pub(crate) fn setup_changed(grade: &Grade, run: &RunSetup, labs: &[GradedNotebook]) -> bool {
    grade.setup_digest != run.for_named(grade.lab.as_deref(), labs).digest()
}

/// What a resumed run keeps of a saved grade: all of it, or nothing when the grader's own
/// trouble left any of it not graded — then the whole submission is graded again (its other
/// exercises too: a worker is built per submission's scratch, and one fresh grade is simpler
/// to trust than a patched one) — or when it was decided under another grading setup.
pub(crate) fn kept_grade(
    saved: Option<Grade>,
    run: &RunSetup,
    labs: &[GradedNotebook],
) -> Option<Grade> {
    saved.filter(|g| !g.has_graders_trouble() && !setup_changed(g, run, labs))
}

/// The grade as it is saved.
pub(crate) fn saved_json(grade: &Grade) -> String {
    serde_json::to_string(grade).expect("grades serialize")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::{
        note::{GradeNote, Ungradable},
        record::ExerciseGrade,
    };
    use crate::course::judge::{CellNote, Details, Verdict};
    use crate::course::notebook::CellRef;
    use crate::course::restore::Restoration;
    use bpe_lab::lab::check::{Exercise, Status};

    fn exercise(exercise: Exercise, verdict: Verdict, details: Option<Details>) -> ExerciseGrade {
        ExerciseGrade {
            exercise: exercise.into(),
            points: 0.0,
            max_points: 1.5,
            verdict,
            message: "m".into(),
            details,
            printed: "--- stdout ---\nhi\n".into(),
        }
    }

    #[test]
    fn saved_grades_read_back_as_they_were_and_find_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("ana").join("03-merge.ipynb");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "{}").unwrap();
        let mut grade = Grade::empty("ana", file.clone());
        grade.lab = Some("03-merge".into());
        grade.digest = digest(b"{}");
        grade.exercises = vec![
            exercise(
                Exercise::MergePairInWord,
                Verdict::Checked(Status::Failed),
                Some(Details::Counterexample {
                    input: "[\"a\"]".into(),
                    expected: "[]".into(),
                    got: "[\"a\"]".into(),
                }),
            ),
            exercise(
                Exercise::MostFrequentPair,
                Verdict::DidNotCompile,
                Some(Details::CompilerMessages {
                    messages: "error[E0425]".into(),
                }),
            ),
        ];
        grade.notes = vec![
            GradeNote::Restored(Restoration::Reinserted { cell: "c".into() }),
            GradeNote::Cell(CellNote::Statements {
                cell: CellRef {
                    number: 2,
                    id: "x".into(),
                },
                count: 1,
            }),
            GradeNote::NotGraded(Ungradable::NoLab),
            GradeNote::Executed {
                summary: "ran".into(),
            },
        ];
        grade.executed = Some(b"not saved".to_vec());
        let feedback = dir.path().join("feedback");
        let submission = Submission {
            student: "ana".into(),
            file: file.clone(),
            ..Submission::default()
        };
        let path = saved_grade_path(&submission, &feedback);
        assert_eq!(path, feedback.join("ana/.03-merge.grade.json"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, saved_json(&grade)).unwrap();
        let json: serde_json::Value = serde_json::from_str(&saved_json(&grade)).unwrap();
        assert_eq!(json["exercises"][0]["exercise"], "merge_pair_in_word");
        assert_eq!(json["exercises"][1]["verdict"], "did_not_compile");
        assert_eq!(json["exercises"][1]["details"]["kind"], "compiler_messages");
        let back = saved_grade(&submission, &feedback).expect("the saved grade");
        assert_eq!(
            back,
            Grade {
                executed: None,
                ..grade
            }
        );
        // A changed file is graded again.
        std::fs::write(&file, "{ }").unwrap();
        assert_eq!(saved_grade(&submission, &feedback), None);
    }
}
