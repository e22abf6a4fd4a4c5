//! The instructor's adjustments: partial credit, a bonus, a penalty, kept in a CSV file of
//! their own (`student,exercise,points,reason`, and optionally `lab`) rather than typed into the
//! gradebook, which every run rewrites. They are never saved into a grade: each gradebook and
//! feedback file is written from the judge's grade with the adjustments applied, so a regrade,
//! a resumed run or a merge of shards can never lose them, and editing the file changes every
//! gradebook written after.
//!
//! `points` is added (negative to take off). On an exercise the result stays between 0 and the
//! exercise's points; on `total` it stays at 0 or more (a bonus may pass the maximum). The
//! whole file is checked against the class before anything is written: an unknown student,
//! lab or exercise, a number that is not one, or a missing reason stops the run, naming the
//! line and the fix.

use super::csv_records::{CsvProblem, records};
use super::gradebook::number;
use super::graded_notebook::GradedNotebook;
use super::record::Grade;
use bpe_lab::lab::check::Exercise;
use std::fmt;
use std::path::{Path, PathBuf};

/// What an adjustment changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Target {
    Exercise(Exercise),
    /// The submission's total, beside its exercises.
    Total,
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Exercise(e) => f.write_str(e.name()),
            Target::Total => f.write_str("total"),
        }
    }
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Adjustment {
    pub(crate) line: usize,
    pub(crate) student: String,
    /// Only this lab's grade of the student (else every grade that has the exercise).
    pub(crate) lab: Option<String>,
    pub(crate) target: Target,
    pub(crate) points: f64,
    pub(crate) reason: String,
}

/// An adjustment as it applied to one grade, for the feedback and the notes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Applied {
    pub(crate) target: Target,
    /// The points the file gives.
    pub(crate) points: f64,
    /// The points it changed, once kept between 0 and the maximum (may differ from `points`).
    pub(crate) effect: f64,
    pub(crate) reason: String,
}

impl fmt::Display for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.target, signed(self.points))?;
        if self.effect != self.points {
            write!(
                f,
                " (counted {}: the points stay within 0 and the maximum)",
                signed(self.effect)
            )?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// Points with their sign: `+1`, `-0.5`.
pub(crate) fn signed(x: f64) -> String {
    if x < 0.0 {
        number(x)
    } else {
        format!("+{}", number(x))
    }
}

/// The adjustments of one run (none when there is no file).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Adjustments {
    pub(crate) path: Option<PathBuf>,
    pub(crate) items: Vec<Adjustment>,
}

/// What is wrong with an adjustments file; nothing is written when there is one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AdjustmentsError {
    pub(crate) path: PathBuf,
    /// The line at fault, when it is one line's.
    pub(crate) line: Option<usize>,
    pub(crate) problem: Problem,
}

/// The problems, each with its fix in its message.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Problem {
    Unreadable {
        error: String,
    },
    Csv {
        problem: &'static str,
    },
    /// The first line is not a header with the columns needed.
    MissingColumn {
        column: &'static str,
    },
    UnknownColumn {
        column: String,
    },
    /// A line has more fields than the header.
    TooManyFields {
        got: usize,
        header: usize,
    },
    UnknownStudent {
        student: String,
        known: Vec<String>,
    },
    UnknownLab {
        lab: String,
        known: Vec<String>,
    },
    UnknownExercise {
        exercise: String,
        known: Vec<String>,
    },
    NotANumber {
        points: String,
    },
    NoReason,
    /// `total` for a student with several submissions, without saying which lab's.
    WhichLab {
        student: String,
        count: usize,
    },
}

/// Up to five names, then how many more.
fn some(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
    match names.len().saturating_sub(shown.len()) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable { error } => write!(f, "cannot be read: {error}"),
            Problem::Csv { problem } => write!(f, "not CSV: {problem}"),
            Problem::MissingColumn { column } => write!(
                f,
                "no column {column:?}: the first line must name the columns, \
                 e.g. `student,exercise,points,reason` (and `lab` if you grade several labs)"
            ),
            Problem::UnknownColumn { column } => write!(
                f,
                "unknown column {column:?}: the columns are student, exercise, points, reason \
                 and optionally lab"
            ),
            Problem::TooManyFields { got, header } => write!(
                f,
                "{got} fields where the header has {header}: quote a field that holds a comma \
                 (\"like, this\")"
            ),
            Problem::UnknownStudent { student, known } => write!(
                f,
                "no student {student:?} in this gradebook (students: {}); write the name as \
                 the gradebook's student column has it, or remove the line",
                some(known)
            ),
            Problem::UnknownLab { lab, known } => write!(
                f,
                "no lab {lab:?} is graded here (labs: {}); fix the lab column",
                some(known)
            ),
            Problem::UnknownExercise { exercise, known } => write!(
                f,
                "no exercise {exercise:?} (exercises: {}, or `total` for the whole \
                 submission); fix the exercise column",
                some(known)
            ),
            Problem::NotANumber { points } => write!(
                f,
                "points {points:?} is not a number; write the points to add, e.g. 1, -0.5 or +2"
            ),
            Problem::NoReason => f.write_str(
                "no reason: the student reads it in the feedback; write one in the reason column",
            ),
            Problem::WhichLab { student, count } => write!(
                f,
                "{student} has {count} submissions in this gradebook: say which one `total` \
                 adjusts in a `lab` column"
            ),
        }
    }
}

impl fmt::Display for AdjustmentsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}: line {line}: {}", self.path.display(), self.problem),
            None => write!(f, "{}: {}", self.path.display(), self.problem),
        }
    }
}

impl std::error::Error for AdjustmentsError {}

/// The adjustments file of a gradebook when none is named: `<gradebook stem>.adjustments.csv`
/// beside it (its own per gradebook, so gradebooks of different labs in one folder do not
/// share one).
pub(crate) fn default_path(gradebook: &Path) -> PathBuf {
    let stem = gradebook
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "grades".to_owned());
    gradebook.with_file_name(format!("{stem}.adjustments.csv"))
}

/// The exercises of `labs`, each once, in lab order.
fn exercise_names<'a>(labs: impl Iterator<Item = &'a GradedNotebook>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for e in labs.flat_map(|l| &l.exercises) {
        let name = e.exercise.name().to_owned();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Where the class is checked against: each row's student and (when known) its lab.
pub(crate) struct ClassView<'a> {
    pub(crate) students: Vec<&'a str>,
    pub(crate) labs: &'a [GradedNotebook],
}

impl Adjustments {
    /// Reads the adjustments at `given`, else at the gradebook's default place if a file is
    /// there; none otherwise. The file's own form is checked here (exercise names against
    /// `labs`' for the message); the class, by [`Adjustments::check`].
    pub(crate) fn read(
        given: Option<&Path>,
        gradebook: &Path,
        labs: &[GradedNotebook],
    ) -> Result<Adjustments, AdjustmentsError> {
        let path = match given {
            Some(path) => path.to_owned(),
            None => {
                let path = default_path(gradebook);
                if !path.is_file() {
                    return Ok(Adjustments::default());
                }
                path
            }
        };
        let error = |line, problem| AdjustmentsError {
            path: path.clone(),
            line,
            problem,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            error(
                None,
                Problem::Unreadable {
                    error: bpe_lab::files::describe_io_error(&e),
                },
            )
        })?;
        let mut rows = records(&text)
            .map_err(|CsvProblem { line, problem }| error(Some(line), Problem::Csv { problem }))?
            .into_iter()
            .filter(|r| !r.is_blank());
        let Some(header) = rows.next() else {
            return Ok(Adjustments {
                path: Some(path),
                items: Vec::new(),
            });
        };
        let names: Vec<String> = header
            .fields
            .iter()
            .map(|f| f.trim().to_lowercase())
            .collect();
        for name in &names {
            if !["student", "lab", "exercise", "points", "reason"].contains(&name.as_str()) {
                return Err(error(
                    Some(header.line),
                    Problem::UnknownColumn {
                        column: name.clone(),
                    },
                ));
            }
        }
        let column = |column: &'static str| names.iter().position(|n| n == column);
        let required = |name: &'static str| {
            column(name)
                .ok_or_else(|| error(Some(header.line), Problem::MissingColumn { column: name }))
        };
        let (student, exercise, points, reason) = (
            required("student")?,
            required("exercise")?,
            required("points")?,
            required("reason")?,
        );
        let lab = column("lab");
        let mut items = Vec::new();
        for row in rows {
            if row.fields.len() > names.len() {
                return Err(error(
                    Some(row.line),
                    Problem::TooManyFields {
                        got: row.fields.len(),
                        header: names.len(),
                    },
                ));
            }
            let field = |i: usize| row.fields.get(i).map(|f| f.trim()).unwrap_or("");
            let given_points = field(points);
            let value = given_points
                .parse::<f64>()
                .ok()
                .filter(|p| p.is_finite())
                .ok_or_else(|| {
                    error(
                        Some(row.line),
                        Problem::NotANumber {
                            points: given_points.to_owned(),
                        },
                    )
                })?;
            if field(reason).is_empty() {
                return Err(error(Some(row.line), Problem::NoReason));
            }
            let target = match field(exercise) {
                "total" => Target::Total,
                name => match name.parse::<Exercise>() {
                    Ok(e) => Target::Exercise(e),
                    Err(_) => {
                        return Err(error(
                            Some(row.line),
                            Problem::UnknownExercise {
                                exercise: name.to_owned(),
                                known: exercise_names(labs.iter()),
                            },
                        ));
                    }
                },
            };
            items.push(Adjustment {
                line: row.line,
                student: field(student).to_owned(),
                lab: lab.map(field).filter(|l| !l.is_empty()).map(str::to_owned),
                target,
                points: value,
                reason: field(reason).to_owned(),
            });
        }
        Ok(Adjustments {
            path: Some(path),
            items,
        })
    }

    /// Checks every line against the class: its student, its lab, its exercise (one of the
    /// lab's, or of the labs graded), and which lab a `total` means.
    pub(crate) fn check(&self, class: &ClassView) -> Result<(), AdjustmentsError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut students: Vec<String> = class.students.iter().map(|s| s.to_string()).collect();
        students.dedup();
        let lab_names: Vec<String> = class.labs.iter().map(|l| l.name.clone()).collect();
        for a in &self.items {
            let error = |problem| AdjustmentsError {
                path: path.clone(),
                line: Some(a.line),
                problem,
            };
            if !class.students.contains(&a.student.as_str()) {
                return Err(error(Problem::UnknownStudent {
                    student: a.student.clone(),
                    known: students.clone(),
                }));
            }
            let labs: Vec<&GradedNotebook> = match &a.lab {
                Some(name) => match class.labs.iter().find(|l| &l.name == name) {
                    Some(lab) => vec![lab],
                    None => {
                        return Err(error(Problem::UnknownLab {
                            lab: name.clone(),
                            known: lab_names.clone(),
                        }));
                    }
                },
                None => class.labs.iter().collect(),
            };
            match a.target {
                Target::Exercise(exercise) => {
                    if !labs
                        .iter()
                        .any(|l| l.exercises.iter().any(|e| e.exercise == exercise))
                    {
                        return Err(error(Problem::UnknownExercise {
                            exercise: exercise.name().to_owned(),
                            known: exercise_names(labs.iter().copied()),
                        }));
                    }
                }
                Target::Total => {
                    let count = class.students.iter().filter(|s| **s == a.student).count();
                    if a.lab.is_none() && count > 1 {
                        return Err(error(Problem::WhichLab {
                            student: a.student.clone(),
                            count,
                        }));
                    }
                }
            }
        }
        Ok(())
    }

    /// `grade` with the adjustments that are its applied: its exercises' points, its total and
    /// the list the feedback shows.
    pub(crate) fn apply(&self, grade: &Grade) -> Grade {
        let mut g = grade.clone();
        g.adjustments.clear();
        // A grade applied before gets its penalty back first, so it is never taken twice.
        g.total += g.late_penalty;
        g.late_penalty = 0.0;
        let mine = self.items.iter().filter(|a| {
            a.student == g.student && a.lab.as_ref().is_none_or(|l| g.lab.as_ref() == Some(l))
        });
        let mut bonus = 0.0;
        for a in mine {
            let effect = match a.target {
                Target::Exercise(exercise) => {
                    let Some(e) = g.exercises.iter_mut().find(|e| e.exercise == exercise) else {
                        continue;
                    };
                    let before = e.points;
                    e.points = (e.points + a.points).clamp(0.0, e.max_points);
                    e.points - before
                }
                Target::Total => {
                    bonus += a.points;
                    a.points
                }
            };
            g.adjustments.push(Applied {
                target: a.target,
                points: a.points,
                effect,
                reason: a.reason.clone(),
            });
        }
        if !g.adjustments.is_empty() {
            let exercises: f64 = g.exercises.iter().map(|e| e.points).sum();
            let total = (exercises + bonus).max(0.0);
            // A total taken below 0 counts what it could.
            if let Some(last) = g
                .adjustments
                .iter_mut()
                .rev()
                .find(|a| a.target == Target::Total)
                && exercises + bonus < 0.0
            {
                last.effect -= exercises + bonus;
            }
            g.total = total;
        }
        // The late policy takes its points from what the adjustments left.
        g.late_penalty = g
            .lateness
            .as_ref()
            .map_or(0.0, |l| l.penalty(g.total, g.max));
        g.total -= g.late_penalty;
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::graded_notebook::NotebookExercise;
    use crate::course::grade::record::ExerciseGrade;
    use crate::course::judge::Verdict;
    use bpe_lab::lab::check::Status;

    fn lab(name: &str, exercises: &[(Exercise, f64)]) -> GradedNotebook {
        GradedNotebook::bare(
            name,
            exercises
                .iter()
                .map(|&(exercise, points)| NotebookExercise {
                    exercise: exercise.into(),
                    points,
                    check_id: String::new(),
                })
                .collect(),
        )
    }

    fn graded_notebooks() -> Vec<GradedNotebook> {
        vec![
            lab(
                "03-merge",
                &[
                    (Exercise::MostFrequentPair, 1.0),
                    (Exercise::MergePairInWord, 2.0),
                ],
            ),
            lab("05-decode", &[(Exercise::Decode, 2.0)]),
        ]
    }

    fn read(text: &str) -> Result<Adjustments, AdjustmentsError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("adj.csv");
        std::fs::write(&path, text).unwrap();
        let labs = graded_notebooks();
        let read = Adjustments::read(Some(&path), Path::new("unused.csv"), &labs)?;
        read.check(&ClassView {
            students: vec!["ana", "bo", "bo"],
            labs: &labs,
        })?;
        Ok(Adjustments {
            path: Some(PathBuf::from("adj.csv")),
            ..read
        })
    }

    fn problem(text: &str) -> (Option<usize>, Problem) {
        let e = read(text).unwrap_err();
        assert!(e.to_string().contains("adj.csv"), "{e}");
        (e.line, e.problem)
    }

    #[test]
    fn a_good_file_reads_with_its_lines() {
        let adj = read(
            "Student, Exercise ,points,reason,lab\n\n\
             ana,merge_pair_in_word,+1,\"right idea, off by one\",\n\
             bo,total,-0.5,late,05-decode\n",
        )
        .unwrap();
        assert_eq!(
            adj.items,
            [
                Adjustment {
                    line: 3,
                    student: "ana".into(),
                    lab: None,
                    target: Target::Exercise(Exercise::MergePairInWord),
                    points: 1.0,
                    reason: "right idea, off by one".into(),
                },
                Adjustment {
                    line: 4,
                    student: "bo".into(),
                    lab: Some("05-decode".into()),
                    target: Target::Total,
                    points: -0.5,
                    reason: "late".into(),
                }
            ]
        );
    }

    #[test]
    fn each_bad_line_is_named_with_its_fix() {
        let head = "student,exercise,points,reason\n";
        assert!(matches!(
            problem(&format!("{head}carol,total,1,x\n")),
            (Some(2), Problem::UnknownStudent { student, .. }) if student == "carol"
        ));
        assert!(matches!(
            problem(&format!("{head}ana,total,1,x\nana,merge,1,x\n")),
            (Some(3), Problem::UnknownExercise { exercise, .. }) if exercise == "merge"
        ));
        // A real exercise, but of no lab graded here.
        assert!(matches!(
            problem(&format!("{head}ana,train_bpe,1,x\n")),
            (Some(2), Problem::UnknownExercise { exercise, .. }) if exercise == "train_bpe"
        ));
        assert!(matches!(
            problem(&format!("{head}ana,total,one,x\n")),
            (Some(2), Problem::NotANumber { points }) if points == "one"
        ));
        assert!(matches!(
            problem(&format!("{head}ana,total,NaN,x\n")),
            (Some(2), Problem::NotANumber { .. })
        ));
        assert_eq!(
            problem(&format!("{head}ana,total,1,\n")),
            (Some(2), Problem::NoReason)
        );
        assert_eq!(
            problem(&format!("{head}ana,total,1,a,b\n")),
            (Some(2), Problem::TooManyFields { got: 5, header: 4 })
        );
        assert_eq!(
            problem(&format!("{head}bo,total,1,x\n")),
            (
                Some(2),
                Problem::WhichLab {
                    student: "bo".into(),
                    count: 2
                }
            )
        );
        assert!(matches!(
            problem("student,lab,exercise,points,reason\nbo,04-x,total,1,x\n"),
            (Some(2), Problem::UnknownLab { lab, .. }) if lab == "04-x"
        ));
        assert_eq!(
            problem("student,points,reason\n"),
            (Some(1), Problem::MissingColumn { column: "exercise" })
        );
        assert!(matches!(
            problem("student,exercise,score,reason\n"),
            (Some(1), Problem::UnknownColumn { column }) if column == "score"
        ));
        let e = read(&format!("{head}ana,total,one,x\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: line 2: points \"one\" is not a number; write the points to add, e.g. 1, -0.5 or +2",
                e.path.display()
            )
        );
    }

    #[test]
    fn the_default_file_sits_beside_its_gradebook_and_is_optional() {
        assert_eq!(
            default_path(Path::new("out/grades-03.csv")),
            Path::new("out/grades-03.adjustments.csv")
        );
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("grades.csv");
        assert_eq!(
            Adjustments::read(None, &book, &graded_notebooks()),
            Ok(Adjustments::default())
        );
        std::fs::write(
            default_path(&book),
            "student,exercise,points,reason\nana,total,1,x\n",
        )
        .unwrap();
        assert_eq!(
            Adjustments::read(None, &book, &graded_notebooks())
                .unwrap()
                .items
                .len(),
            1
        );
    }

    fn grade(student: &str, lab: &str) -> Grade {
        let mut g = Grade::empty(student, PathBuf::from(format!("s/{student}/{lab}.ipynb")));
        g.lab = Some(lab.into());
        let e = |exercise, points, max_points| ExerciseGrade {
            exercise,
            points,
            max_points,
            verdict: Verdict::Checked(if points == max_points {
                Status::Passed
            } else {
                Status::Failed
            }),
            message: String::new(),
            details: None,
            printed: String::new(),
        };
        g.exercises = vec![
            e(Exercise::MostFrequentPair.into(), 1.0, 1.0),
            e(Exercise::MergePairInWord.into(), 0.0, 2.0),
        ];
        g.total = 1.0;
        g.max = 3.0;
        g
    }

    #[test]
    fn points_are_added_and_kept_within_bounds() {
        let adj = read(
            "student,exercise,points,reason\n\
             ana,merge_pair_in_word,1,partial credit\n\
             ana,most_frequent_pair,5,generous\n\
             ana,total,0.5,bonus\n\
             bo,merge_pair_in_word,-1,nothing to take\n",
        );
        // bo has two submissions: an exercise's adjustment needs no lab (each grade that has
        // the exercise takes it), only `total` would.
        let adj = adj.unwrap();
        let ana = adj.apply(&grade("ana", "03-merge"));
        assert_eq!(ana.exercises[1].points, 1.0);
        assert_eq!(ana.exercises[0].points, 1.0);
        assert_eq!(ana.total, 2.5);
        assert_eq!(ana.adjustments.len(), 3);
        assert_eq!(ana.adjustments[1].effect, 0.0);
        assert_eq!(
            ana.adjustments[1].to_string(),
            "most_frequent_pair +5 (counted +0: the points stay within 0 and the maximum): generous"
        );
        assert_eq!(
            ana.adjustments[0].to_string(),
            "merge_pair_in_word +1: partial credit"
        );
        let bo = adj.apply(&grade("bo", "03-merge"));
        assert_eq!((bo.exercises[1].points, bo.total), (0.0, 1.0));
        // Someone else's grade, and a grade of another lab, are untouched.
        assert_eq!(adj.apply(&grade("cy", "03-merge")), grade("cy", "03-merge"));
        let lab_only =
            read("student,lab,exercise,points,reason\nana,05-decode,total,1,x\n").unwrap();
        assert_eq!(
            lab_only.apply(&grade("ana", "03-merge")),
            grade("ana", "03-merge")
        );
    }
}
