//! Regrades keep the class, and the instructor's adjustments are never lost: grading one
//! student (`--student NAME`, or that student's file alone into the class's gradebook) updates
//! that row and keeps every other byte for byte; `--resume` regrades what a change of the
//! points, the tie rule or the check timeout could change; an adjustments file is applied to
//! every gradebook written (a regrade's, a merge's) and shown in the feedback with its reason;
//! a bad one stops the run before anything is written.
//!
//! The grading runs use the real toolchain and sandbox on lab 03 (see
//! tests/suite/grade_judge.rs), one or three students per run (a few worker compilations
//! each); the bad adjustments files need no sandbox, as nothing is graded.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::SystemTime;
use support::cli::{bpe_lab_with_env, path_str, stderr};
use support::lab03::*;
use support::sandbox_available;

/// Where one class's runs write, and its submissions.
struct Class {
    _dir: tempfile::TempDir,
    subs: PathBuf,
    sources: PathBuf,
    csv: PathBuf,
    feedback: PathBuf,
}

impl Class {
    /// Saves `student`'s lab 03 with these answers (`None`: left as released).
    fn hand_in(&self, student: &str, best: Option<&str>, merge: Option<&str>) {
        save(&self.subs, student, &lab03(best, merge));
    }

    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_owned();
        Class {
            _dir: dir,
            subs: root.join("submissions"),
            sources: sources(),
            csv: root.join("grades.csv"),
            feedback: root.join("feedback"),
        }
    }

    fn root(&self) -> &Path {
        self.csv.parent().unwrap()
    }

    /// `lab grade` of `what` (the submissions folder when empty) into the class's gradebook,
    /// with `extra` flags and `env` set.
    fn run(&self, what: &[&Path], extra: &[&str], env: &[(&str, &Path)]) -> Output {
        let mut args = vec!["lab", "grade"];
        if what.is_empty() {
            args.push(path_str(&self.subs));
        }
        args.extend(what.iter().map(|p| path_str(p)));
        args.extend([
            "--lab",
            LAB,
            "--sources",
            path_str(&self.sources),
            "--output",
            path_str(&self.csv),
            "--feedback",
            path_str(&self.feedback),
            "--threads",
            "2",
        ]);
        if !extra.contains(&"--check-timeout") {
            args.extend(["--check-timeout", "10"]);
        }
        args.extend(extra);
        bpe_lab_with_env(&args, env)
    }

    /// As [`Class::run`], which must succeed; its log.
    fn grade(&self, what: &[&Path], extra: &[&str], env: &[(&str, &Path)]) -> String {
        let output = self.run(what, extra, env);
        let log = stderr(&output);
        assert!(output.status.success(), "{log}");
        log
    }

    fn gradebook(&self) -> String {
        fs::read_to_string(&self.csv).unwrap()
    }

    fn feedback_md(&self, student: &str) -> String {
        fs::read_to_string(self.feedback.join(student).join(format!("{LAB}.md"))).unwrap()
    }
}

fn row<'a>(csv: &'a str, student: &str) -> &'a str {
    csv.lines()
        .find(|l| l.starts_with(&format!("{student},")))
        .unwrap_or_else(|| panic!("no row for {student} in\n{csv}"))
}

/// The points of a row: most_frequent_pair, merge_pair_in_word, total, max (lab 03's points:
/// 1 and 2, in instructor/03-merge.ipynb).
fn points(csv: &str, student: &str) -> String {
    let fields: Vec<&str> = row(csv, student).split(',').collect();
    fields[3..7].join(",")
}

/// Bytes and modification time of every file in a student's feedback folder.
fn state(feedback: &Path, student: &str) -> Vec<(PathBuf, Vec<u8>, SystemTime)> {
    let mut out: Vec<_> = fs::read_dir(feedback.join(student))
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let modified = fs::metadata(&path).unwrap().modified().unwrap();
            (path.clone(), fs::read(&path).unwrap(), modified)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "nothing for {student}");
    out
}

#[test]
fn regrading_one_student_keeps_every_other_row_byte_for_byte() {
    if !sandbox_available() {
        return;
    }
    let class = Class::new();
    class.hand_in("alice", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    class.hand_in("bob", Some(BEST_RIGHT), None);
    class.hand_in("carol", Some(BEST_RIGHT), Some(MERGE_WRONG));
    class.grade(&[], &[], &[]);
    let first = class.gradebook();
    assert_eq!(points(&first, "bob"), "1,0,1,3");
    // Each exercise's outcome in words, then the tie rule and the grader's version, then the
    // lateness columns (empty: no time in the name, no --due).
    assert!(
        row(&first, "bob").ends_with(&format!(
            ",passed,not implemented,lexicographic,{},,,",
            bpe_lab::VERSION
        )),
        "{first}"
    );
    assert!(
        row(&first, "carol").contains(",passed,\"wrong, smallest failing input: "),
        "{first}"
    );
    let (alice, carol) = (
        state(&class.feedback, "alice"),
        state(&class.feedback, "carol"),
    );

    // Bob hands in again; only he is regraded, from the class's folder.
    class.hand_in("bob", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    let log = class.grade(&[], &["--student", "bob"], &[]);
    assert!(
        log.contains("regrading 1 of the class's 3 submission(s)"),
        "{log}"
    );
    assert!(log.contains("graded 1 submission(s)"), "{log}");
    let second = class.gradebook();
    assert_eq!(points(&second, "bob"), "1,2,3,3");
    assert!(class.feedback_md("bob").contains("**Score: 3 / 3**"));
    let lines = |csv: &str| csv.lines().map(str::to_owned).collect::<Vec<_>>();
    let (before, after) = (lines(&first), lines(&second));
    assert_eq!(after.len(), before.len());
    for (i, line) in before.iter().enumerate() {
        if !line.starts_with("bob,") {
            assert_eq!(&after[i], line, "row {i} changed");
        }
    }
    assert_eq!(state(&class.feedback, "alice"), alice);
    assert_eq!(state(&class.feedback, "carol"), carol);

    // Carol's file alone, given with the class's gradebook: her row, under her name.
    class.hand_in("carol", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    let carol_file = class.subs.join("carol").join(format!("{LAB}.ipynb"));
    let log = class.grade(&[&carol_file], &[], &[]);
    assert!(
        log.contains("regrading 1 of the class's 3 submission(s)"),
        "{log}"
    );
    let third = class.gradebook();
    assert_eq!(third.lines().count(), 4, "{third}");
    assert!(!third.contains(&format!("\n{LAB},")), "{third}");
    assert_eq!(points(&third, "carol"), "1,2,3,3");
    assert_eq!(row(&third, "alice"), row(&second, "alice"));
    assert_eq!(row(&third, "bob"), row(&second, "bob"));
    assert_eq!(state(&class.feedback, "alice"), alice);

    // A student of no submission is refused by name, and nothing is written.
    let output = class.run(&[], &["--student", "zed"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--student zed: no submission of \"zed\""),
        "{}",
        stderr(&output)
    );
    assert_eq!(class.gradebook(), third);
}

/// One student graded, then graded again with `--resume` under `extra`/`env`: the log of the
/// second run.
fn resume_after(
    class: &Class,
    first: (&[&str], &[(&str, &Path)]),
    then: (&[&str], &[(&str, &Path)]),
) -> String {
    class.hand_in("alice", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    class.grade(&[], first.0, first.1);
    // Unchanged: kept.
    let mut same = first.0.to_vec();
    same.push("--resume");
    let log = class.grade(&[], &same, first.1);
    assert!(log.contains("graded 0 submission(s)"), "{log}");
    let mut changed = then.0.to_vec();
    changed.push("--resume");
    let log = class.grade(&[], &changed, then.1);
    assert!(
        log.contains("resuming: 0 submission(s) already graded, 1 to grade"),
        "{log}"
    );
    assert!(log.contains("1 graded under another setup"), "{log}");
    assert!(log.contains("graded 1 submission(s)"), "{log}");
    log
}

#[test]
fn resume_regrades_after_a_points_change() {
    if !sandbox_available() {
        return;
    }
    let mut class = Class::new();
    // A copy of the lab's source, graded as it is, then with merge_pair_in_word worth 5 points
    // instead of 2.
    let copy = class.root().join("instructor");
    fs::create_dir_all(&copy).unwrap();
    let file = copy.join(format!("{LAB}.ipynb"));
    fs::copy(sources().join(format!("{LAB}.ipynb")), &file).unwrap();
    class.sources = copy;
    class.hand_in("alice", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    class.grade(&[], &[], &[]);
    assert_eq!(points(&class.gradebook(), "alice"), "1,2,3,3");
    let mut nb: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    for cell in nb["cells"].as_array_mut().unwrap() {
        if cell["metadata"]["bpe_lab"]["exercise"] == "merge_pair_in_word" {
            cell["metadata"]["bpe_lab"]["points"] = 5.into();
        }
    }
    fs::write(&file, nb.to_string()).unwrap();
    let log = class.grade(&[], &["--resume"], &[]);
    assert!(log.contains("1 graded under another setup"), "{log}");
    assert!(log.contains("graded 1 submission(s)"), "{log}");
    assert_eq!(points(&class.gradebook(), "alice"), "1,5,6,6");
}

#[test]
fn resume_regrades_after_a_tie_rule_change() {
    if !sandbox_available() {
        return;
    }
    let class = Class::new();
    resume_after(
        &class,
        (&[], &[]),
        (&[], &[("BPE_LAB_TIE_BREAK", Path::new("first-seen"))]),
    );
    assert!(
        class
            .feedback_md("alice")
            .contains("with the tie rule first-seen"),
        "{}",
        class.feedback_md("alice")
    );
}

#[test]
fn resume_regrades_after_a_check_timeout_change() {
    if !sandbox_available() {
        return;
    }
    let class = Class::new();
    resume_after(&class, (&[], &[]), (&["--check-timeout", "12"], &[]));
    let record = fs::read_to_string(
        class
            .feedback
            .join("alice")
            .join(format!(".{LAB}.grade.json")),
    )
    .unwrap();
    assert!(record.contains("\"check_seconds\":12.0"), "{record}");
}

const ADJUSTMENTS: &str = "student,exercise,points,reason\n\
    bob,merge_pair_in_word,1,\"right idea, one case off\"\n\
    alice,total,-0.5,handed in a day late\n";

#[test]
fn adjustments_survive_a_regrade_and_appear_in_feedback() {
    if !sandbox_available() {
        return;
    }
    let class = Class::new();
    class.hand_in("alice", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    class.hand_in("bob", Some(BEST_RIGHT), Some(MERGE_WRONG));
    // Beside the gradebook, under its name: found without a flag.
    let adjustments = class.root().join("grades.adjustments.csv");
    fs::write(&adjustments, ADJUSTMENTS).unwrap();
    class.grade(&[], &[], &[]);
    let check = |csv: &str| {
        assert_eq!(points(csv, "bob"), "1,1,2,3", "{csv}");
        assert_eq!(points(csv, "alice"), "1,2,2.5,3", "{csv}");
        assert!(
            row(csv, "bob").contains("adjusted: merge_pair_in_word +1: right idea, one case off"),
            "{csv}"
        );
        let bob = class.feedback_md("bob");
        assert!(bob.contains("**Score: 2 / 3**"), "{bob}");
        assert!(
            bob.contains("## Adjusted by your instructor\n\n- merge_pair_in_word +1: right idea, one case off"),
            "{bob}"
        );
        assert!(
            class
                .feedback_md("alice")
                .contains("- total -0.5: handed in a day late"),
            "{}",
            class.feedback_md("alice")
        );
    };
    check(&class.gradebook());
    // The saved grade is the judge's: no adjustment in it.
    let record = fs::read_to_string(
        class
            .feedback
            .join("bob")
            .join(format!(".{LAB}.grade.json")),
    )
    .unwrap();
    assert!(!record.contains("right idea"), "{record}");

    // Alice is regraded: both adjustments are still there, in Canvas's import too.
    let canvas = class.root().join("canvas.csv");
    let log = class.grade(
        &[],
        &[
            "--student",
            "alice",
            "--canvas-csv",
            path_str(&canvas),
            "--canvas-assignment",
            "Lab 3 (4821)",
        ],
        &[],
    );
    assert!(log.contains("graded 1 submission(s)"), "{log}");
    check(&class.gradebook());
    // Canvas's gradebook import layout, written out here.
    assert_eq!(
        fs::read_to_string(&canvas).unwrap(),
        "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3 (4821)\n\
         \x20   Points Possible,,,,,3\n\
         alice,,,alice,,2.5\n\
         bob,,,bob,,2\n"
    );

    // A changed adjustments file reaches a kept row's feedback too.
    fs::write(
        &adjustments,
        "student,exercise,points,reason\nbob,merge_pair_in_word,2,fixed in office hours\n",
    )
    .unwrap();
    class.grade(&[], &["--student", "alice"], &[]);
    assert_eq!(points(&class.gradebook(), "bob"), "1,2,3,3");
    assert_eq!(points(&class.gradebook(), "alice"), "1,2,3,3");
    let bob = class.feedback_md("bob");
    assert!(
        bob.contains("merge_pair_in_word +2: fixed in office hours"),
        "{bob}"
    );
    assert!(!bob.contains("one case off"), "{bob}");
}

#[test]
fn adjustments_survive_a_shard_merge() {
    if !sandbox_available() {
        return;
    }
    let class = Class::new();
    // alice is in shard 1 of 2, bob in 2 of 2 (tests/suite/grade_shard.rs's rule).
    class.hand_in("alice", Some(BEST_RIGHT), Some(MERGE_RIGHT));
    class.hand_in("bob", Some(BEST_RIGHT), Some(MERGE_WRONG));
    let adjustments = class.root().join("adjustments.csv");
    fs::write(&adjustments, ADJUSTMENTS).unwrap();
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = class.root().join(format!("shard{k}"));
        let (csv, feedback) = (out.join("grades.csv"), out.join("feedback"));
        let shard = format!("{k}/2");
        let output = bpe_lab_with_env(
            &[
                "lab",
                "grade",
                path_str(&class.subs),
                "--lab",
                LAB,
                "--sources",
                path_str(&class.sources),
                "--output",
                path_str(&csv),
                "--feedback",
                path_str(&feedback),
                "--check-timeout",
                "10",
                "--shard",
                &shard,
            ],
            &[],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        shards.push(feedback);
    }
    let output = bpe_lab_with_env(
        &[
            "lab",
            "grade-merge",
            path_str(&shards[0]),
            path_str(&shards[1]),
            "--sources",
            path_str(&class.sources),
            "--output",
            path_str(&class.csv),
            "--feedback",
            path_str(&class.feedback),
            "--adjustments",
            path_str(&adjustments),
        ],
        &[],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let csv = class.gradebook();
    assert_eq!(points(&csv, "bob"), "1,1,2,3", "{csv}");
    assert_eq!(points(&csv, "alice"), "1,2,2.5,3", "{csv}");
    assert!(
        class
            .feedback_md("bob")
            .contains("- merge_pair_in_word +1: right idea, one case off")
    );
    assert!(
        class
            .feedback_md("alice")
            .contains("- total -0.5: handed in a day late")
    );
}

/// A class graded with no sandbox needed: nothing in a bad run gets as far as grading.
fn bad_adjustments(text: &str) -> (String, Class) {
    let class = Class::new();
    fs::create_dir_all(class.subs.join("alice")).unwrap();
    fs::write(
        class.subs.join("alice").join(format!("{LAB}.ipynb")),
        "not JSON",
    )
    .unwrap();
    let adjustments = class.root().join("adjustments.csv");
    fs::write(&adjustments, text).unwrap();
    let output = class.run(
        &[],
        &["--adjustments", path_str(&adjustments), "--no-sandbox"],
        &[],
    );
    let log = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{log}");
    assert!(!class.csv.exists(), "a gradebook was written");
    assert!(!class.feedback.exists(), "feedback was written");
    assert!(log.contains("nothing was written"), "{log}");
    assert!(
        log.contains(&format!("{}: line ", adjustments.display())),
        "{log}"
    );
    (log, class)
}

#[test]
fn an_adjustment_for_an_unknown_student_stops_the_run() {
    let (log, _) = bad_adjustments("student,exercise,points,reason\nalicia,total,1,bonus\n");
    assert!(
        log.contains("line 2: no student \"alicia\" in this gradebook (students: alice)"),
        "{log}"
    );
}

#[test]
fn an_adjustment_for_an_unknown_exercise_stops_the_run() {
    let (log, _) = bad_adjustments("student,exercise,points,reason\nalice,merge,1,bonus\n");
    assert!(
        log.contains(
            "line 2: no exercise \"merge\" (exercises: most_frequent_pair, merge_pair_in_word"
        ),
        "{log}"
    );
}

#[test]
fn an_adjustment_whose_points_are_not_a_number_stops_the_run() {
    let (log, _) = bad_adjustments(
        "student,exercise,points,reason\n\nalice,total,1,ok\nalice,total,one half,bonus\n",
    );
    assert!(
        log.contains("line 4: points \"one half\" is not a number"),
        "{log}"
    );
}
