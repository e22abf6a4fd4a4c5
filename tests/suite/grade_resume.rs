//! `--resume` grades again exactly what the grader's own trouble left `not_graded`. The trouble
//! is real: the second run finds a `rustc` whose sysroot is an empty folder (a toolchain gone
//! from under the grader), so every worker compile of the two submissions it grades fails in
//! the sandbox ("setpriv: failed to execute /rust/bin/rustc") — the grader's failure, never the
//! students'. The third run, with the real toolchain, must regrade those two and touch nothing
//! of the two graded before. Needs rustc and bubblewrap (see tests/suite/grade_judge.rs); about six
//! worker compilations (~10 s).

use crate::support;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::SystemTime;
use support::cli::{bpe_lab_with_path, path_str, stderr};
use support::lab03::*;
use support::sandbox_available;

/// A `rustc` that answers `--print sysroot` with an empty folder.
fn broken_toolchain(dir: &Path) -> std::path::PathBuf {
    let bin = dir.join("broken-bin");
    let sysroot = dir.join("empty-sysroot");
    fs::create_dir_all(&bin).unwrap();
    fs::create_dir_all(&sysroot).unwrap();
    let rustc = bin.join("rustc");
    fs::write(&rustc, format!("#!/bin/sh\necho {}\n", sysroot.display())).unwrap();
    fs::set_permissions(&rustc, fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// Bytes and modification time of every file in a student's feedback folder.
fn state(feedback: &Path, student: &str) -> Vec<(std::path::PathBuf, Vec<u8>, SystemTime)> {
    let dir = feedback.join(student);
    let mut out: Vec<_> = fs::read_dir(&dir)
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

fn row<'a>(csv: &'a str, student: &str) -> &'a str {
    csv.lines()
        .find(|l| l.starts_with(&format!("{student},")))
        .unwrap_or_else(|| panic!("no row for {student} in\n{csv}"))
}

#[test]
fn resume_regrades_exactly_what_the_graders_trouble_left_not_graded() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    let (csv, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let sources = sources();
    let grade = |resume: bool, path_first: Option<&Path>| {
        let mut args = vec![
            "lab",
            "grade",
            path_str(&subs),
            "--lab",
            LAB,
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&csv),
            "--feedback",
            path_str(&feedback),
            "--check-timeout",
            "10",
            "--threads",
            "2",
        ];
        if resume {
            args.push("--resume");
        }
        let output = bpe_lab_with_path(&args, path_first);
        let text = stderr(&output);
        assert!(output.status.success(), "{text}");
        text
    };

    // Run 1: two students, graded as usual.
    save(&subs, "alice", &lab03(Some(BEST_RIGHT), Some(MERGE_RIGHT)));
    save(&subs, "bob", &lab03(Some(BEST_RIGHT), None));
    grade(false, None);
    let first = fs::read_to_string(&csv).unwrap();
    let (alice, bob) = (state(&feedback, "alice"), state(&feedback, "bob"));

    // Run 2: two more hand in; the toolchain is gone while they are graded.
    save(&subs, "carol", &lab03(Some(BEST_RIGHT), Some(MERGE_RIGHT)));
    save(&subs, "dave", &lab03(Some(BEST_RIGHT), Some(MERGE_PANICS)));
    let log = grade(true, Some(&broken_toolchain(dir.path())));
    assert!(
        log.contains("resuming: 2 submission(s) already graded, 2 to grade (0 of them"),
        "{log}"
    );
    assert!(
        log.contains(
            "not graded because of the grader's own trouble (not the students'): 4 part(s) of 2 \
             submission(s)"
        ),
        "{log}"
    );
    assert!(log.contains("failed to execute /rust/bin/rustc"), "{log}");
    let second = fs::read_to_string(&csv).unwrap();
    for student in ["carol", "dave"] {
        // No points, and the trouble named, but never "did not compile" or "crashed".
        assert!(
            row(&second, student).contains(",03-merge,0,0,0,3,"),
            "{second}"
        );
        let md = fs::read_to_string(feedback.join(student).join(format!("{LAB}.md"))).unwrap();
        assert!(
            md.contains("| `merge_pair_in_word` | ⚠️ not graded (the grader's trouble) |"),
            "{md}"
        );
        assert!(md.contains("not final"), "{md}");
        assert!(
            !md.contains("did not compile") && !md.contains("crashed"),
            "{md}"
        );
        let record =
            fs::read_to_string(feedback.join(student).join(format!(".{LAB}.grade.json"))).unwrap();
        assert!(record.contains("\"verdict\":\"not_graded\""), "{record}");
    }
    assert_eq!(row(&second, "alice"), row(&first, "alice"));
    assert_eq!(state(&feedback, "alice"), alice);

    // Run 3: the toolchain is back; only carol and dave are graded again.
    let log = grade(true, None);
    assert!(
        log.contains(
            "resuming: 2 submission(s) already graded, 2 to grade (2 of them left not graded by \
             the grader's own trouble)"
        ),
        "{log}"
    );
    assert!(log.contains("graded 2 submission(s)"), "{log}");
    assert!(
        log.contains("not graded because of the grader's own trouble: none"),
        "{log}"
    );
    let third = fs::read_to_string(&csv).unwrap();
    for (student, kept) in [("alice", &alice), ("bob", &bob)] {
        assert_eq!(row(&third, student), row(&first, student));
        assert_eq!(&state(&feedback, student), kept, "{student} was touched");
    }
    // Lab 03's points (instructor/03-merge.ipynb): 1 for most_frequent_pair, 2 for
    // merge_pair_in_word.
    let points = |student: &str| {
        let fields: Vec<&str> = row(&third, student).split(',').collect();
        fields[3..7].join(",")
    };
    assert_eq!(points("carol"), "1,2,3,3");
    assert_eq!(points("dave"), "1,0,1,3");
    assert!(!third.contains("not graded (the grader"), "{third}");
}
