//! The class summary an instructor reads after grading: per lab, how many passed each exercise,
//! how the scores spread, which failing cases recur across students, and how many exercise
//! results ended each way. Computed from the grade records only ([`Grade`], the same records
//! the gradebook and `--resume` read), so a grading run and `lab grade-merge` summarize one
//! class the same way. Printed as a compact table ([`ClassSummary::table`]) and written as one
//! HTML page per lab in the feedback folder ([`super::summary_html`]).

use super::error::{GradeError, Output};
use super::gradebook::number;
use super::record::Grade;
use super::summary_html::summary_html;
use super::write::write;
use crate::course::graded_exercise::GradedExercise;
use crate::course::judge::{Details, Verdict};
use bpe_lab::lab::check::Status;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// How one exercise of one submission ended, in the summary's eight kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Outcome {
    Passed,
    /// A wrong result.
    Wrong,
    /// `todo!()` left in, or no function of the exercise's name.
    NotImplemented,
    DidNotCompile,
    /// A panic, or the program running the code died.
    Crashed,
    TimedOut,
    /// The code called the crate's own answer to the exercise.
    UsedReference,
    /// Not graded: the grader's trouble, or a file that could not be graded at all.
    NotGraded,
}

impl Outcome {
    /// Every outcome, in the order tables show them.
    pub(crate) const ALL: [Outcome; 8] = [
        Outcome::Passed,
        Outcome::Wrong,
        Outcome::NotImplemented,
        Outcome::DidNotCompile,
        Outcome::Crashed,
        Outcome::TimedOut,
        Outcome::UsedReference,
        Outcome::NotGraded,
    ];

    /// The judge's verdict, as the summary counts it. Exhaustive on purpose: a new verdict
    /// must be given its place here before the summary compiles.
    pub(crate) fn of(verdict: &Verdict) -> Outcome {
        match verdict {
            Verdict::Checked(status) => match status {
                Status::Passed => Outcome::Passed,
                Status::Failed => Outcome::Wrong,
                Status::NotImplemented => Outcome::NotImplemented,
                Status::Panicked | Status::Crashed => Outcome::Crashed,
                Status::TimedOut => Outcome::TimedOut,
                Status::UsedReference => Outcome::UsedReference,
            },
            Verdict::Missing => Outcome::NotImplemented,
            Verdict::DidNotCompile => Outcome::DidNotCompile,
            Verdict::NotGraded => Outcome::NotGraded,
        }
    }

    /// In an instructor's words.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Wrong => "wrong",
            Outcome::NotImplemented => "not implemented",
            Outcome::DidNotCompile => "did not compile",
            Outcome::Crashed => "crashed",
            Outcome::TimedOut => "timed out",
            Outcome::UsedReference => "used the crate's answer",
            Outcome::NotGraded => "not graded",
        }
    }

    /// What it means, for the page's legend.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Outcome::Passed => "every case gave the expected result",
            Outcome::Wrong => "a case gave a wrong result",
            Outcome::NotImplemented => {
                "the body is still todo!(), or there is no function of the exercise's name"
            }
            Outcome::DidNotCompile => "the student's code for it does not compile",
            Outcome::Crashed => "the code panicked, or the program running it died",
            Outcome::TimedOut => "a case did not return within the time limit",
            Outcome::UsedReference => "the function calls the crate's own answer to the exercise",
            Outcome::NotGraded => {
                "the grader's own trouble, or a submitted file that could not be graded at all; \
                 left out of the pass rate"
            }
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How many exercise results ended each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counts([usize; 8]);

impl Counts {
    pub(crate) fn get(&self, outcome: Outcome) -> usize {
        self.0[outcome.index()]
    }

    fn add(&mut self, outcome: Outcome) {
        self.0[outcome.index()] += 1;
    }

    pub(crate) fn total(&self) -> usize {
        self.0.iter().sum()
    }

    /// The results that were graded (everything but "not graded").
    pub(crate) fn graded(&self) -> usize {
        self.total() - self.get(Outcome::NotGraded)
    }

    /// Passed of graded, as a fraction; `None` when nothing was graded.
    pub(crate) fn pass_rate(&self) -> Option<f64> {
        let graded = self.graded();
        (graded > 0).then(|| self.get(Outcome::Passed) as f64 / graded as f64)
    }
}

/// One exercise across the class.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExerciseSummary {
    pub(crate) exercise: GradedExercise,
    pub(crate) max_points: f64,
    pub(crate) counts: Counts,
}

/// One bar of the score histogram: the submissions whose total is in `from..to` (`..=to` for
/// the last bar; a bar of one score has `from == to`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bin {
    pub(crate) from: f64,
    pub(crate) to: f64,
    pub(crate) count: usize,
}

impl Bin {
    pub(crate) fn label(&self) -> String {
        if self.from == self.to {
            number(self.from)
        } else {
            format!("{}–{}", number(self.from), number(self.to))
        }
    }
}

/// Bars of up to this many single scores; above it, ten equal ranges.
const MOST_SINGLE_SCORES: f64 = 20.0;

/// The spread of the final scores of a lab.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scores {
    pub(crate) max: f64,
    /// The totals whose score is final, lowest first.
    pub(crate) totals: Vec<f64>,
    /// Submissions left out: the grader's own trouble kept part of them from being graded,
    /// so their score is not final yet (`--resume` grades them again).
    pub(crate) not_final: usize,
    pub(crate) bins: Vec<Bin>,
}

impl Scores {
    fn of(totals: Vec<f64>, max: f64, not_final: usize) -> Scores {
        let mut totals = totals;
        totals.sort_by(f64::total_cmp);
        let bins = bins(&totals, max);
        Scores {
            max,
            totals,
            not_final,
            bins,
        }
    }

    pub(crate) fn mean(&self) -> Option<f64> {
        (!self.totals.is_empty())
            .then(|| self.totals.iter().sum::<f64>() / self.totals.len() as f64)
    }

    pub(crate) fn median(&self) -> Option<f64> {
        let n = self.totals.len();
        match n {
            0 => None,
            _ if n % 2 == 1 => Some(self.totals[n / 2]),
            _ => Some((self.totals[n / 2 - 1] + self.totals[n / 2]) / 2.0),
        }
    }
}

/// One bar per score when scores are whole points and few; else ten equal ranges of `0..=max`.
fn bins(totals: &[f64], max: f64) -> Vec<Bin> {
    let whole = |x: f64| x.fract() == 0.0;
    // Also when `max` is NaN.
    if max.is_nan() || max <= 0.0 {
        return vec![Bin {
            from: 0.0,
            to: 0.0,
            count: totals.len(),
        }];
    }
    if whole(max) && max <= MOST_SINGLE_SCORES && totals.iter().all(|&t| whole(t)) {
        let mut bins: Vec<Bin> = (0..=max as usize)
            .map(|k| Bin {
                from: k as f64,
                to: k as f64,
                count: 0,
            })
            .collect();
        for &t in totals {
            let at = (t.max(0.0) as usize).min(bins.len() - 1);
            bins[at].count += 1;
        }
        return bins;
    }
    let width = max / 10.0;
    let mut bins: Vec<Bin> = (0..10)
        .map(|i| Bin {
            from: width * i as f64,
            to: width * (i + 1) as f64,
            count: 0,
        })
        .collect();
    for &t in totals {
        let at = ((t / width).floor().max(0.0) as usize).min(9);
        bins[at].count += 1;
    }
    bins
}

/// A failing case that several students share: the same exercise ending the same way on the
/// same smallest failing input (or, without one, with the same message).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FailingCase {
    pub(crate) exercise: GradedExercise,
    pub(crate) outcome: Outcome,
    /// The smallest failing input, and what the reference returns for it.
    pub(crate) input: Option<String>,
    pub(crate) expected: Option<String>,
    /// The message most of them got (the first seen among equals).
    pub(crate) message: String,
    /// Who, in the order of the grades.
    pub(crate) students: Vec<String>,
}

/// One lab across the class.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LabSummary {
    pub(crate) lab: String,
    pub(crate) submissions: usize,
    /// In the lab's order.
    pub(crate) exercises: Vec<ExerciseSummary>,
    pub(crate) scores: Scores,
    /// Most students first.
    pub(crate) failing: Vec<FailingCase>,
}

impl LabSummary {
    /// Every exercise's outcomes added up.
    pub(crate) fn counts(&self) -> Counts {
        let mut all = Counts::default();
        for e in &self.exercises {
            for (a, b) in all.0.iter_mut().zip(e.counts.0) {
                *a += b;
            }
        }
        all
    }

    /// The page's name in the feedback folder.
    pub(crate) fn file_name(&self) -> String {
        let safe: String = self
            .lab
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("summary-{safe}.html")
    }
}

/// Every lab of a gradebook.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ClassSummary {
    /// By lab name.
    pub(crate) labs: Vec<LabSummary>,
    /// Submissions that matched no lab (counted in no lab's figures).
    pub(crate) unmatched: usize,
    /// Roster students who handed nothing in (no lab, no score: not a zero in any figure).
    pub(crate) no_submission: usize,
    /// The pages written, one per lab.
    pub(crate) pages: Vec<PathBuf>,
}

/// The key failing cases are grouped by.
type CaseKey = (GradedExercise, Outcome, Option<String>, Option<String>);

/// Summarizes `grades`, lab by lab (a grade belongs to the lab it was graded against).
pub(crate) fn summarize<'a>(grades: impl IntoIterator<Item = &'a Grade>) -> ClassSummary {
    let mut by_lab: BTreeMap<&str, Vec<&Grade>> = BTreeMap::new();
    let mut unmatched = 0;
    let mut no_submission = 0;
    for g in grades {
        match &g.lab {
            Some(lab) => by_lab.entry(lab).or_default().push(g),
            None if g.outcome() == super::record::Outcome::NoSubmission => no_submission += 1,
            None => unmatched += 1,
        }
    }
    ClassSummary {
        labs: by_lab
            .into_iter()
            .map(|(lab, grades)| summarize_lab(lab, &grades))
            .collect(),
        unmatched,
        no_submission,
        pages: Vec::new(),
    }
}

/// A group of failed cases: its key, the reference's answer to its input, and each student's
/// (id, message).
type CaseGroup = (CaseKey, Option<String>, Vec<(String, String)>);

fn summarize_lab(lab: &str, grades: &[&Grade]) -> LabSummary {
    let mut exercises: Vec<ExerciseSummary> = Vec::new();
    // Each group: its key, the reference's answer to its input, who and with what message.
    let mut groups: Vec<CaseGroup> = Vec::new();
    for g in grades {
        for e in &g.exercises {
            let at = match exercises.iter().position(|s| s.exercise == e.exercise) {
                Some(at) => at,
                None => {
                    exercises.push(ExerciseSummary {
                        exercise: e.exercise.clone(),
                        max_points: e.max_points,
                        counts: Counts::default(),
                    });
                    exercises.len() - 1
                }
            };
            let outcome = Outcome::of(&e.verdict);
            exercises[at].counts.add(outcome);
            if matches!(outcome, Outcome::Passed | Outcome::NotGraded) {
                continue;
            }
            let (input, expected) = match &e.details {
                Some(Details::Counterexample {
                    input, expected, ..
                }) => (Some(input.clone()), Some(expected.clone())),
                _ => (None, None),
            };
            // Without an input, the message is what is shared (`todo!()`, a borrowed answer);
            // with one, messages differ in what each student's code did, so the input groups.
            let key = (
                e.exercise.clone(),
                outcome,
                input.clone(),
                if input.is_none() {
                    Some(e.message.clone())
                } else {
                    None
                },
            );
            let entry = (g.student.clone(), e.message.clone());
            match groups.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, _, members)) => members.push(entry),
                None => groups.push((key, expected, vec![entry])),
            }
        }
    }
    let max = grades.iter().map(|g| g.max).fold(0.0, f64::max);
    let (not_final, totals): (Vec<&Grade>, Vec<&Grade>) =
        grades.iter().partition(|g| g.has_graders_trouble());
    let scores = Scores::of(
        totals.iter().map(|g| g.total).collect(),
        max,
        not_final.len(),
    );
    let order = |e: &GradedExercise| exercises.iter().position(|s| &s.exercise == e);
    let mut failing: Vec<FailingCase> = groups
        .into_iter()
        .map(
            |((exercise, outcome, input, _), expected, members)| FailingCase {
                exercise,
                outcome,
                input,
                expected,
                message: most_common(members.iter().map(|(_, m)| m.as_str())),
                students: members.into_iter().map(|(s, _)| s).collect(),
            },
        )
        .collect();
    failing.sort_by(|a, b| {
        b.students
            .len()
            .cmp(&a.students.len())
            .then(order(&a.exercise).cmp(&order(&b.exercise)))
            .then(a.outcome.cmp(&b.outcome))
            .then(a.input.cmp(&b.input))
            .then(a.message.cmp(&b.message))
    });
    LabSummary {
        lab: lab.to_owned(),
        submissions: grades.len(),
        exercises,
        scores,
        failing,
    }
}

/// The most frequent of `items`; the first seen among equals.
fn most_common<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for item in items {
        match seen.iter_mut().find(|(s, _)| *s == item) {
            Some((_, n)) => *n += 1,
            None => seen.push((item, 1)),
        }
    }
    let mut best: Option<(&str, usize)> = None;
    for (s, n) in seen {
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((s, n));
        }
    }
    best.map(|(s, _)| s.to_owned()).unwrap_or_default()
}

/// Summarizes `grades` and writes each lab's page, `summary-<lab>.html`, into the feedback
/// folder, each replaced atomically.
pub(crate) fn write_summaries<'a>(
    grades: impl IntoIterator<Item = &'a Grade>,
    feedback_dir: &Path,
) -> Result<ClassSummary, GradeError> {
    let mut class = summarize(grades);
    if class.labs.is_empty() {
        return Ok(class);
    }
    std::fs::create_dir_all(feedback_dir).map_err(|error| GradeError::Write {
        output: Output::Feedback,
        path: feedback_dir.to_owned(),
        error,
    })?;
    for lab in &class.labs {
        let path = feedback_dir.join(lab.file_name());
        write(Output::Feedback, &path, summary_html(lab).as_bytes())?;
        class.pages.push(path);
    }
    Ok(class)
}

/// A percentage as people read it: `67%`.
pub(crate) fn percent(rate: f64) -> String {
    format!("{:.0}%", rate * 100.0)
}

/// A figure with at most one decimal: `4`, `4.3`.
pub(crate) fn decimal(x: f64) -> String {
    number((x * 10.0).round() / 10.0)
}

/// Student-controlled text on one terminal line: control characters shown escaped (no
/// terminal escape sequences get through), long text cut.
fn one_line(text: &str, most: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == most {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Failing cases shown in the terminal, per lab.
const CASES_IN_TABLE: usize = 5;

impl ClassSummary {
    /// The compact table `lab grade` and `lab grade-merge` end with.
    pub(crate) fn table(&self) -> String {
        let mut out = String::new();
        for lab in &self.labs {
            table_of(lab, &mut out);
        }
        if self.no_submission > 0 {
            let _ = writeln!(
                out,
                "{} student(s) on the roster handed nothing in (not counted as scores)",
                self.no_submission
            );
        }
        if self.unmatched > 0 {
            let _ = writeln!(
                out,
                "{} submission(s) matched no lab and are in no summary",
                self.unmatched
            );
        }
        // By name only: the line before names the feedback folder, and a merge's table then
        // reads the same as one run's.
        for page in &self.pages {
            let name = page.file_name().unwrap_or(page.as_os_str());
            let _ = writeln!(
                out,
                "class summary with plots: {} in the feedback folder",
                name.to_string_lossy()
            );
        }
        out
    }
}

fn table_of(lab: &LabSummary, out: &mut String) {
    let s = &lab.scores;
    let _ = write!(
        out,
        "class summary, lab {}: {} submission(s)",
        lab.lab, lab.submissions
    );
    match (s.mean(), s.median(), s.totals.first(), s.totals.last()) {
        (Some(mean), Some(median), Some(low), Some(high)) => {
            let _ = write!(
                out,
                "; score of {}: mean {}, median {}, lowest {}, highest {}",
                number(s.max),
                decimal(mean),
                decimal(median),
                number(*low),
                number(*high)
            );
        }
        _ => out.push_str("; no final scores yet"),
    }
    if s.not_final > 0 {
        let _ = write!(
            out,
            " ({} not final, left out: the grader's own trouble)",
            s.not_final
        );
    }
    out.push('\n');
    let width = lab
        .exercises
        .iter()
        .map(|e| e.exercise.name().len())
        .chain(["exercise".len(), "all exercises".len()])
        .max()
        .unwrap_or(0);
    let _ = write!(out, "  {:width$}  {:>9}", "exercise", "pass rate");
    for o in Outcome::ALL {
        let _ = write!(out, "  {}", o.words());
    }
    out.push('\n');
    let mut row = |name: &str, counts: &Counts| {
        let rate = counts.pass_rate().map_or_else(|| "-".to_owned(), percent);
        let _ = write!(out, "  {name:width$}  {rate:>9}");
        for o in Outcome::ALL {
            let _ = write!(out, "  {:>w$}", counts.get(o), w = o.words().len());
        }
        out.push('\n');
    };
    for e in &lab.exercises {
        row(e.exercise.name(), &e.counts);
    }
    row("all exercises", &lab.counts());
    if lab.failing.is_empty() {
        out.push_str("  no failing cases\n");
        return;
    }
    out.push_str("  most common failing cases:\n");
    for case in lab.failing.iter().take(CASES_IN_TABLE) {
        let what = match &case.input {
            Some(input) => format!("input {}", one_line(input, 60)),
            None => one_line(&case.message, 80),
        };
        let _ = writeln!(
            out,
            "  {:>3} student(s)  {} {}: {}",
            case.students.len(),
            case.exercise.name(),
            case.outcome.words(),
            what
        );
    }
    if lab.failing.len() > CASES_IN_TABLE {
        let _ = writeln!(
            out,
            "  … and {} more in the page",
            lab.failing.len() - CASES_IN_TABLE
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::note::Ungradable;
    use crate::course::grade::record::ExerciseGrade;
    use crate::course::grade::summary_html::summary_html;
    use bpe_lab::lab::check::Exercise;

    const INPUT: &str = "word [\"a\", \"b\"], pair (\"a\", \"b\")";

    fn result(exercise: Exercise, max: f64, verdict: Verdict, message: &str) -> ExerciseGrade {
        ExerciseGrade {
            exercise: exercise.into(),
            points: if verdict.passed() { max } else { 0.0 },
            max_points: max,
            verdict,
            message: message.into(),
            details: None,
            printed: String::new(),
        }
    }

    fn failed_on(mut e: ExerciseGrade, input: &str, got: &str) -> ExerciseGrade {
        e.details = Some(Details::Counterexample {
            input: input.into(),
            expected: "[\"ab\"]".into(),
            got: got.into(),
        });
        e
    }

    /// A grade of lab 03 (most_frequent_pair, 1 point; merge_pair_in_word, 2 points).
    fn lab03(student: &str, best: ExerciseGrade, merge: ExerciseGrade) -> Grade {
        let mut g = Grade::empty(
            student,
            PathBuf::from(format!("subs/{student}/03-merge.ipynb")),
        );
        g.lab = Some("03-merge".into());
        g.max = 3.0;
        g.exercises = vec![best, merge];
        g.total = g.exercises.iter().map(|e| e.points).sum();
        g
    }

    fn best(verdict: Verdict, message: &str) -> ExerciseGrade {
        result(Exercise::MostFrequentPair, 1.0, verdict, message)
    }

    fn merge(verdict: Verdict, message: &str) -> ExerciseGrade {
        result(Exercise::MergePairInWord, 2.0, verdict, message)
    }

    const PASSED: Verdict = Verdict::Checked(Status::Passed);
    const WRONG: Verdict = Verdict::Checked(Status::Failed);

    /// Seven submissions of lab 03, one of no lab, one of lab 04.
    fn class() -> Vec<Grade> {
        let mut fay = lab03(
            "fay",
            best(Verdict::NotGraded, "not graded"),
            merge(Verdict::NotGraded, "not graded"),
        );
        fay.not_graded(Ungradable::NotANotebook {
            problem: "not JSON".into(),
        });
        let mut gus = Grade::empty("gus", PathBuf::from("subs/gus/essay.ipynb"));
        gus.not_graded(Ungradable::NoLab);
        let mut hal = Grade::empty("hal", PathBuf::from("subs/hal/04-train.ipynb"));
        hal.lab = Some("04-train".into());
        hal.max = 3.0;
        hal.exercises = vec![result(
            Exercise::TrainBpe,
            3.0,
            Verdict::Checked(Status::TimedOut),
            "took longer than 10 s",
        )];
        vec![
            lab03("ana", best(PASSED, "ok"), merge(PASSED, "ok")),
            lab03(
                "bo",
                best(PASSED, "ok"),
                failed_on(
                    merge(WRONG, "wrong result (case 3 of 40)"),
                    INPUT,
                    "[\"a\"]",
                ),
            ),
            lab03(
                "cy",
                best(
                    Verdict::Checked(Status::NotImplemented),
                    "not implemented yet",
                ),
                failed_on(merge(WRONG, "wrong result (case 5 of 40)"), INPUT, "[]"),
            ),
            gus,
            lab03(
                "di",
                failed_on(
                    best(
                        Verdict::Checked(Status::Panicked),
                        "your code panicked: boom",
                    ),
                    "{}",
                    "boom",
                ),
                merge(Verdict::DidNotCompile, "does not compile"),
            ),
            lab03(
                "ed",
                best(Verdict::NotGraded, "the worker could not start"),
                merge(PASSED, "ok"),
            ),
            fay,
            hal,
        ]
    }

    fn counts(pairs: &[(Outcome, usize)]) -> Counts {
        let mut c = Counts::default();
        for &(o, n) in pairs {
            for _ in 0..n {
                c.add(o);
            }
        }
        c
    }

    #[test]
    fn a_class_of_records_adds_up_to_the_figures_worked_out_by_hand() {
        let mut grades = class();
        grades.push(Grade::no_submission("hal", None));
        let class = summarize(&grades);
        assert_eq!(class.unmatched, 1, "gus matched no lab");
        assert_eq!(class.no_submission, 1, "hal handed nothing in");
        assert!(
            class
                .table()
                .contains("1 student(s) on the roster handed nothing in")
        );
        let names: Vec<&str> = class.labs.iter().map(|l| l.lab.as_str()).collect();
        assert_eq!(names, ["03-merge", "04-train"]);
        let lab = &class.labs[0];
        assert_eq!(lab.submissions, 6);

        // most_frequent_pair: ana, bo passed; cy todo!(); di panicked; ed (grader) and fay
        // (not a notebook) not graded: 2 of 4 graded passed.
        let best = &lab.exercises[0];
        assert_eq!(best.exercise, Exercise::MostFrequentPair);
        assert_eq!(
            best.counts,
            counts(&[
                (Outcome::Passed, 2),
                (Outcome::NotImplemented, 1),
                (Outcome::Crashed, 1),
                (Outcome::NotGraded, 2)
            ])
        );
        assert_eq!(
            (best.counts.graded(), best.counts.pass_rate()),
            (4, Some(0.5))
        );
        // merge_pair_in_word: ana, ed passed; bo, cy wrong; di did not compile; fay not
        // graded: 2 of 5.
        let merge = &lab.exercises[1];
        assert_eq!(merge.max_points, 2.0);
        assert_eq!(
            merge.counts,
            counts(&[
                (Outcome::Passed, 2),
                (Outcome::Wrong, 2),
                (Outcome::DidNotCompile, 1),
                (Outcome::NotGraded, 1)
            ])
        );
        assert_eq!(merge.counts.pass_rate(), Some(0.4));
        assert_eq!(lab.counts().total(), 12);
        assert_eq!(lab.counts().get(Outcome::Passed), 4);

        // Final scores: ana 3, bo 1, cy 0, di 0, fay 0; ed's is not final (the grader's
        // trouble) and left out.
        let s = &lab.scores;
        assert_eq!(s.totals, [0.0, 0.0, 0.0, 1.0, 3.0]);
        assert_eq!(s.not_final, 1);
        assert_eq!((s.max, s.mean(), s.median()), (3.0, Some(0.8), Some(0.0)));
        let bars: Vec<(String, usize)> = s.bins.iter().map(|b| (b.label(), b.count)).collect();
        assert_eq!(
            bars,
            [
                ("0".into(), 3),
                ("1".into(), 1),
                ("2".into(), 0),
                ("3".into(), 1)
            ]
        );

        // The wrong merge on one input is shared by bo and cy (their messages differ only in
        // the case number); the rest are one student's each, in the lab's exercise order.
        let cases: Vec<(Exercise, Outcome, Vec<&str>)> = lab
            .failing
            .iter()
            .map(|c| {
                (
                    c.exercise.built_in().expect("a built-in exercise"),
                    c.outcome,
                    c.students.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            cases,
            [
                (Exercise::MergePairInWord, Outcome::Wrong, vec!["bo", "cy"]),
                (
                    Exercise::MostFrequentPair,
                    Outcome::NotImplemented,
                    vec!["cy"]
                ),
                (Exercise::MostFrequentPair, Outcome::Crashed, vec!["di"]),
                (
                    Exercise::MergePairInWord,
                    Outcome::DidNotCompile,
                    vec!["di"]
                ),
            ]
        );
        assert_eq!(lab.failing[0].input.as_deref(), Some(INPUT));
        assert_eq!(lab.failing[0].expected.as_deref(), Some("[\"ab\"]"));
        assert_eq!(lab.failing[0].message, "wrong result (case 3 of 40)");
        assert_eq!(lab.failing[1].input, None);
        assert_eq!(lab.failing[1].message, "not implemented yet");

        let train = &class.labs[1];
        assert_eq!(train.exercises[0].counts, counts(&[(Outcome::TimedOut, 1)]));
        assert_eq!(train.exercises[0].counts.pass_rate(), Some(0.0));
        assert_eq!(train.scores.totals, [0.0]);
    }

    #[test]
    fn the_table_gives_each_figure_and_keeps_control_characters_out_of_the_terminal() {
        let mut grades = class();
        grades[1].exercises[1].message = "wrong \u{1b}[2J result".into();
        grades[2].exercises[1].message = "wrong \u{1b}[2J result".into();
        if let Some(Details::Counterexample { input, .. }) = &mut grades[1].exercises[1].details {
            *input = "a\u{1b}[31mb".into();
        }
        if let Some(Details::Counterexample { input, .. }) = &mut grades[2].exercises[1].details {
            *input = "a\u{1b}[31mb".into();
        }
        let table = summarize(&grades).table();
        assert!(!table.contains('\u{1b}'), "{table}");
        assert!(
            table.starts_with(
                "class summary, lab 03-merge: 6 submission(s); score of 3: mean 0.8, median 0, \
                 lowest 0, highest 3 (1 not final, left out: the grader's own trouble)\n"
            ),
            "{table}"
        );
        let row = |name: &str| {
            table
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap_or_else(|| panic!("no row {name} in\n{table}"))
                .split_whitespace()
                .skip(name.split(' ').count())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(row("most_frequent_pair"), "50% 2 0 1 0 1 0 0 2");
        assert_eq!(row("merge_pair_in_word"), "40% 2 2 0 1 0 0 0 1");
        assert_eq!(row("all exercises"), "44% 4 2 1 1 1 0 0 3");
        assert!(
            table.contains("    2 student(s)  merge_pair_in_word wrong: input a\\u{1b}[31mb\n"),
            "{table}"
        );
        assert!(table.contains("1 submission(s) matched no lab"), "{table}");
    }

    #[test]
    fn scores_that_are_not_few_whole_points_fall_into_ten_ranges() {
        let half = Scores::of(vec![0.0, 7.5, 3.0, 0.7], 7.5, 0);
        let counts: Vec<usize> = half.bins.iter().map(|b| b.count).collect();
        assert_eq!(counts, [2, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
        assert_eq!(half.bins[9].label(), "6.75–7.5");
        let many = Scores::of(vec![30.0, 29.0, 3.0, 2.0], 30.0, 0);
        let counts: Vec<usize> = many.bins.iter().map(|b| b.count).collect();
        assert_eq!(counts, [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
        assert_eq!(many.median(), Some(16.0));
        let none = Scores::of(Vec::new(), 3.0, 2);
        assert_eq!((none.mean(), none.median()), (None, None));
        assert_eq!(none.bins.len(), 4);
    }

    #[test]
    fn the_page_escapes_what_students_wrote_and_draws_both_plots() {
        let mut grades = class();
        grades[1].exercises[1].message = "<script>alert('m')</script>".into();
        grades[2].exercises[1].message = "<script>alert('m')</script>".into();
        for g in &mut grades[1..3] {
            if let Some(Details::Counterexample { input, .. }) = &mut g.exercises[1].details {
                *input = "<script>alert(\"i\")</script> & </pre>".into();
            }
        }
        grades[0].student = "<img src=x onerror=alert(1)>".into();
        let class = summarize(&grades);
        let html = summary_html(&class.labs[0]);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(&#39;m&#39;)&lt;/script&gt;"));
        assert!(html.contains(
            "<pre>&lt;script&gt;alert(&quot;i&quot;)&lt;/script&gt; &amp; &lt;/pre&gt;</pre>"
        ));
        assert_eq!(
            html.matches("<svg").count(),
            2,
            "the histogram and the pass rates"
        );
        assert_eq!(html.matches("</svg>").count(), 2);
        // One bar per score 0..=3 with its count, one per exercise with its rate.
        assert_eq!(html.matches("<rect class=\"bin\"").count(), 4);
        assert!(html.contains("<title>score 0: 3 submission(s)</title>"));
        assert!(html.contains("<title>most_frequent_pair: 50%</title>"));
        assert!(html.contains("<title>merge_pair_in_word: 40%</title>"));
        // Nothing to run, nothing to fetch: the only addresses are the SVG namespace's.
        assert!(!html.contains("<link") && !html.contains("<iframe"));
        assert_eq!(html.matches("http").count(), 2, "{html}");
        assert!(html.contains("50% (2 of 4)"));
    }

    #[test]
    fn pages_are_written_one_per_lab_and_replace_the_last() {
        let dir = tempfile::tempdir().unwrap();
        let feedback = dir.path().join("feedback");
        std::fs::create_dir_all(&feedback).unwrap();
        std::fs::write(feedback.join("summary-03-merge.html"), "old").unwrap();
        let class = write_summaries(&class(), &feedback).unwrap();
        assert_eq!(
            class.pages,
            [
                feedback.join("summary-03-merge.html"),
                feedback.join("summary-04-train.html")
            ]
        );
        let page = std::fs::read_to_string(&class.pages[0]).unwrap();
        assert!(page.starts_with("<!DOCTYPE html>") && page.contains("lab 03-merge"));
        assert!(
            class.table().contains(
                "class summary with plots: summary-04-train.html in the feedback folder\n"
            )
        );
        // Nothing graded against a lab: no page, nothing made.
        let empty = dir.path().join("none");
        assert!(write_summaries(&[], &empty).unwrap().pages.is_empty());
        assert!(!empty.exists());
    }
}
