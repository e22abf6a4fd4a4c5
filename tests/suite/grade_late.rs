//! `--due` and `--late-policy` on a small class graded for real: on time, 1 h late, 3 days
//! (and an hour) late, and a file whose name gives no time. Each policy's expected points are
//! worked out here from the policy's rule in the guide, not read from the grader. Needs rustc
//! and bubblewrap (skipped without the sandbox, as grade_judge).

use crate::support;

use std::fs;
use support::cli::{assert_success, bpe_lab_with_env, path_str, stderr};
use support::lab03::{BEST_RIGHT, LAB, MERGE_RIGHT, root, solve, student_notebook};
use support::sandbox_available;

const DUE: &str = "2026-11-20T23:00:00Z";

#[test]
fn each_late_policy_takes_what_its_rule_says_and_an_unknown_time_nothing() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    fs::create_dir_all(&subs).unwrap();
    let mut nb = student_notebook(LAB);
    solve(&mut nb, "most_frequent_pair", BEST_RIGHT);
    solve(&mut nb, "merge_pair_in_word", MERGE_RIGHT);
    let text = serde_json::to_string_pretty(&nb).unwrap();
    // Times in the names (UTC): due 23:00.
    for name in [
        "ana_t2026-11-20-22-59-00_03-merge.ipynb", // a minute early
        "bo_t2026-11-21-00-00-00_03-merge.ipynb",  // 1 h late: one started day
        "cy_t2026-11-24-00-00-00_03-merge.ipynb",  // 3 d 1 h late: four started days
        "dan_03-merge.ipynb",                      // no time
    ] {
        fs::write(subs.join(name), &text).unwrap();
    }
    let scratch = dir.path().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let grades = dir.path().join("grades.csv");
    let nbgrader = dir.path().join("nbgrader.csv");
    let grade = |policy: &str| {
        let run = bpe_lab_with_env(
            &[
                "lab",
                "grade",
                path_str(&subs),
                "--lab",
                LAB,
                "--sources",
                path_str(&root().join("instructor")),
                "--output",
                path_str(&grades),
                "--feedback",
                path_str(&dir.path().join("feedback")),
                "--nbgrader-csv",
                path_str(&nbgrader),
                "--name-pattern",
                r"^(?P<student>[a-z]+)(_t(?P<timestamp>[0-9-]+))?_",
                "--due",
                DUE,
                "--late-policy",
                policy,
                "--resume",
                "--threads",
                "2",
            ],
            &[("TMPDIR", &scratch)],
        );
        eprintln!("{}", stderr(&run));
        assert_success(&run);
        let csv = fs::read_to_string(&grades).unwrap();
        eprintln!("{csv}");
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let (total, max, late_by, penalty, at) = (
            col("total"),
            col("max"),
            col("late_by"),
            col("late_penalty"),
            col("submitted_at"),
        );
        // The notes hold no commas here (one file each, nothing restored).
        let rows: Vec<Vec<String>> = lines
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect();
        let row = |s: &str| rows.iter().find(|r| r[0] == s).unwrap().clone();
        let max_points: f64 = row("ana")[max].parse().unwrap();
        assert!(max_points > 0.0);
        let got = |s: &str| -> (f64, f64) {
            let r = row(s);
            (r[total].parse().unwrap(), r[penalty].parse().unwrap())
        };
        assert_eq!(row("bo")[late_by], "1h 0m");
        assert_eq!(row("cy")[late_by], "3d 1h 0m");
        assert_eq!(row("ana")[late_by], "");
        assert_eq!(row("bo")[at], "2026-11-21T00:00:00Z");
        assert_eq!(row("dan")[at], "");
        let nb = fs::read_to_string(&nbgrader).unwrap();
        assert!(
            nb.lines()
                .any(|l| l.starts_with("03-merge,2026-11-20 23:00:00,2026-11-21 00:00:00,bo,")),
            "{nb}"
        );
        let page = |s: &str| {
            fs::read_to_string(dir.path().join(format!("feedback/{s}/03-merge.md"))).unwrap()
        };
        let feedback = (page("dan"), page("cy"));
        (
            max_points,
            got("ana"),
            got("bo"),
            got("cy"),
            got("dan"),
            feedback,
        )
    };
    // Every submission is right: full marks before any penalty.
    for (policy, bo_left, cy_left) in [
        // none: nothing taken.
        ("none", 1.0, 1.0),
        // zero: a late submission scores 0.
        ("zero", 0.0, 0.0),
        // 10 % of the maximum per started day: one day, four days.
        ("penalty:10%/day", 0.9, 0.6),
        // at most half the maximum.
        ("cap:50%", 0.5, 0.5),
    ] {
        let (m, ana, bo, cy, dan, feedback) = grade(policy);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(
            close(ana.0, m) && close(ana.1, 0.0),
            "{policy}: ana {ana:?}"
        );
        assert!(
            close(bo.0, bo_left * m) && close(bo.1, m - bo_left * m),
            "{policy}: bo {bo:?}"
        );
        assert!(
            close(cy.0, cy_left * m) && close(cy.1, m - cy_left * m),
            "{policy}: cy {cy:?}"
        );
        // No time known: never penalised, whatever the policy.
        assert!(
            close(dan.0, m) && close(dan.1, 0.0),
            "{policy}: dan {dan:?}"
        );
        assert!(feedback.0.contains("unknown time"), "{}", feedback.0);
        let cy_line = format!("Late: submitted 3d 1h 0m after the due date {DUE}");
        assert!(feedback.1.contains(&cy_line), "{}", feedback.1);
    }
}

/// A time written without a zone is read in the due date's offset, or `--time-zone`'s; one
/// written with its zone in that zone; and changing `--time-zone` regrades on `--resume`.
#[test]
fn times_without_a_zone_are_read_in_the_due_dates_offset_or_the_one_given() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    fs::create_dir_all(&subs).unwrap();
    let mut nb = student_notebook(LAB);
    solve(&mut nb, "most_frequent_pair", BEST_RIGHT);
    let text = serde_json::to_string_pretty(&nb).unwrap();
    for name in [
        // 23:30 in the course's zone (+01:00): on time; 00:30 at +01:00 if read as UTC.
        "ana_t2026-11-20-23-30-00_03-merge.ipynb",
        // Written with its zone: 04:30 UTC on the 21st, 5 h 31 m late whatever is assumed.
        "bo_t2026-11-20T23:30:00-05:00_03-merge.ipynb",
    ] {
        fs::write(subs.join(name), &text).unwrap();
    }
    let scratch = dir.path().join("scratch");
    fs::create_dir_all(&scratch).unwrap();
    let grades = dir.path().join("grades.csv");
    let (sources, feedback) = (root().join("instructor"), dir.path().join("feedback"));
    let grade = |zone: &[&str]| {
        let mut args = vec![
            "lab",
            "grade",
            path_str(&subs),
            "--lab",
            LAB,
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&grades),
            "--feedback",
            path_str(&feedback),
            "--name-pattern",
            r"^(?P<student>[a-z]+)_t(?P<timestamp>[^_]+)_",
            "--due",
            "2026-11-20T23:59:00+01:00",
            "--resume",
        ];
        args.extend_from_slice(zone);
        let run = bpe_lab_with_env(&args, &[("TMPDIR", &scratch)]);
        assert_success(&run);
        let csv = fs::read_to_string(&grades).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
        let rows: Vec<Vec<String>> = lines
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect();
        let late = |s: &str| {
            let r = rows.iter().find(|r| r[0] == s).unwrap();
            (r[col("submitted_at")].clone(), r[col("late_by")].clone())
        };
        (late("ana"), late("bo"))
    };
    let bo = ("2026-11-21T04:30:00Z".to_owned(), "5h 31m".to_owned());
    let (ana, bo_default) = grade(&[]);
    assert_eq!(ana, ("2026-11-20T22:30:00Z".to_owned(), String::new()));
    assert_eq!(bo_default, bo);
    let (ana, bo_utc) = grade(&["--time-zone", "UTC"]);
    assert_eq!(ana, ("2026-11-20T23:30:00Z".to_owned(), "31m".to_owned()));
    assert_eq!(bo_utc, bo);
}

#[test]
fn a_bad_due_date_or_policy_names_its_flag_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let grades = dir.path().join("grades.csv");
    for (flag, value) in [
        ("--due", "tomorrow"),
        ("--late-policy", "penalty:10%"),
        ("--time-zone", "CET"),
    ] {
        let run = support::cli::bpe_lab(&[
            "lab",
            "grade",
            path_str(dir.path()),
            "--output",
            path_str(&grades),
            flag,
            value,
        ]);
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(stderr(&run).contains(flag), "{}", stderr(&run));
        assert!(!grades.exists());
    }
}
