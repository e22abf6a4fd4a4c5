//! The lab as an nbgrader course, with the real nbgrader and the real kernel: `bpe-lab lab
//! nbgrader-course` writes the course, `nbgrader generate_assignment` makes the student
//! version of every lab (compared with `bpe-lab lab release`'s), three submissions of lab 03 (right;
//! partly right; one exercise panicking and the other untouched) are autograded by nbgrader and
//! graded by `bpe-lab lab grade`,
//! the scores agree exercise by exercise, and nbgrader's feedback pages are made. Needs
//! nbgrader's Python in BPE_LAB_NBGRADER_PYTHON (./scripts/test makes .venv-nbgrader and sets
//! it after the kernel is set up); without it the test says so and does nothing.

use crate::support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::cli::{assert_success, bpe_lab, path_str};
use support::notebooks::{cell_text as text, instructor_cell, read_json, root};

const LAB: &str = "03-merge";

/// Runs nbgrader (its command from the venv of `python`) in `course`.
fn nbgrader(python: &Path, course: &Path, args: &[&str]) {
    let bin = python.parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new(bin.join("nbgrader"))
        .args(args)
        .current_dir(course)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "nbgrader {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The released notebook with some solution cells replaced: (cell id, new source).
fn submission(released: &Value, replace: &[(&str, String)]) -> Value {
    let mut nb = released.clone();
    for cell in nb["cells"].as_array_mut().unwrap() {
        if let Some((_, new)) = replace.iter().find(|(id, _)| cell["id"] == *id) {
            cell["source"] = json!(new);
        }
    }
    nb
}

/// nbgrader's student version of `lab`: the same cells, sources and flags as `lab release`'s,
/// but for the crate's path (absolute in a course) and the checksums (MD5 vs SHA-256).
fn student_version_matches_release(python: &Path, course: &Path, lab: &str, ours: &Path) {
    nbgrader(python, course, &["generate_assignment", lab, "--force"]);
    let released = read_json(
        &course
            .join("release")
            .join(lab)
            .join(format!("{lab}.ipynb")),
    );
    let ours = read_json(&ours.join(format!("{lab}.ipynb")));
    let (theirs_cells, our_cells) = (
        released["cells"].as_array().unwrap(),
        ours["cells"].as_array().unwrap(),
    );
    assert_eq!(theirs_cells.len(), our_cells.len(), "{lab}");
    let crate_path = format!("path = {:?}", root().display().to_string());
    for (theirs, ours) in theirs_cells.iter().zip(our_cells) {
        assert_eq!(theirs["id"], ours["id"], "{lab}");
        assert_eq!(
            text(&theirs["source"]),
            text(&ours["source"]).replace("path = \"..\"", &crate_path),
            "{lab}: cell {}",
            ours["id"]
        );
        for flag in ["grade", "locked", "solution", "grade_id"] {
            assert_eq!(
                theirs["metadata"]["nbgrader"][flag], ours["metadata"]["nbgrader"][flag],
                "{lab}: {flag} of cell {}",
                ours["id"]
            );
        }
        assert_eq!(
            theirs["metadata"]["nbgrader"]["points"].as_f64(),
            ours["metadata"]["nbgrader"]["points"].as_f64(),
            "{lab}: points of cell {}",
            ours["id"]
        );
    }
}

/// An instructor's own exercise (`lab new`) in an nbgrader course: nbgrader's
/// `generate_assignment` clears the test cell's `// BEGIN HIDDEN TESTS` part as `lab release`
/// does (the same student version, cell by cell), and keeps it in its gradebook, from which
/// autograde puts the test cells back.
#[test]
fn nbgrader_clears_an_own_exercises_hidden_tests_and_keeps_them_for_autograde() {
    let Some(python) = std::env::var_os("BPE_LAB_NBGRADER_PYTHON").map(PathBuf::from) else {
        eprintln!(
            "skipped: set BPE_LAB_NBGRADER_PYTHON to a Python with nbgrader (./scripts/test does)"
        );
        return;
    };
    let lab = "08-count-tokens";
    let dir = tempfile::tempdir().unwrap();
    let (sources, students, course) = (
        dir.path().join("instructor"),
        dir.path().join("notebooks"),
        dir.path().join("course"),
    );
    let root_dir = root();
    for args in [
        vec!["lab", "new", lab, "--sources", path_str(&sources)],
        vec![
            "lab",
            "release",
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&students),
        ],
        vec![
            "lab",
            "nbgrader-course",
            path_str(&course),
            "--sources",
            path_str(&sources),
            "--crate",
            path_str(&root_dir),
        ],
    ] {
        assert_success(&bpe_lab(&args));
    }
    let hidden = "assert_eq!(count_tokens(\"\"), 0);";
    let source =
        fs::read_to_string(course.join("source").join(lab).join(format!("{lab}.ipynb"))).unwrap();
    assert!(
        source.contains("BEGIN HIDDEN TESTS"),
        "nbgrader's source keeps them"
    );
    student_version_matches_release(&python, &course, lab, &students);
    let released = fs::read_to_string(
        course
            .join("release")
            .join(lab)
            .join(format!("{lab}.ipynb")),
    )
    .unwrap();
    assert!(released.contains("two words"), "the visible test stays");
    for gone in ["no words", "HIDDEN", "count_tokens(\\\"\\\")"] {
        assert!(!released.contains(gone), "{gone} in nbgrader's release");
    }
    let stored = std::process::Command::new(&python)
        .args([
            "-c",
            "import sqlite3, sys\n\
             db = sqlite3.connect(sys.argv[1])\n\
             print('\\n'.join(r[0] or '' for r in db.execute('select source from source_cell')))",
            path_str(&course.join("gradebook.db")),
        ])
        .output()
        .unwrap();
    let stored = String::from_utf8_lossy(&stored.stdout);
    assert!(
        stored.contains(hidden),
        "nbgrader's gradebook keeps the hidden test for autograde: {stored}"
    );
}

#[test]
fn nbgrader_and_bpe_lab_give_the_same_scores() {
    let Some(python) = std::env::var_os("BPE_LAB_NBGRADER_PYTHON").map(PathBuf::from) else {
        eprintln!(
            "skipped: set BPE_LAB_NBGRADER_PYTHON to a Python with nbgrader (./scripts/test does)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let course = dir.path().join("course");
    let run = bpe_lab(&[
        "lab",
        "nbgrader-course",
        path_str(&course),
        "--sources",
        path_str(&root().join("instructor")),
    ]);
    assert_success(&run);
    // Every lab of the course, 07 included, becomes the student version `lab release` makes.
    let labs: Vec<String> = fs::read_dir(course.join("source"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(labs.len(), 8, "the course has every lab: {labs:?}");
    for lab in &labs {
        student_version_matches_release(&python, &course, lab, &root().join("notebooks"));
    }
    let released = read_json(
        &course
            .join("release")
            .join(LAB)
            .join(format!("{LAB}.ipynb")),
    );

    // Three submissions, written into nbgrader's layout: between them every verdict a check
    // cell can give (passed, failed, panicked, not implemented), each autograde a kernel's run.
    let solution = |id: &str| instructor_cell(LAB, id);
    let best_wrong = solution("03-best-solution").replace("pair < best_pair", "pair > best_pair");
    assert_ne!(best_wrong, solution("03-best-solution"));
    let best_panics = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {\n    panic!(\"boom\")\n}".to_owned();
    let students: [(&str, Vec<(&str, String)>); 3] = [
        (
            "right",
            vec![
                ("03-best-solution", solution("03-best-solution")),
                ("03-merge-solution", solution("03-merge-solution")),
            ],
        ),
        (
            "partly",
            vec![
                ("03-best-solution", best_wrong),
                ("03-merge-solution", solution("03-merge-solution")),
            ],
        ),
        // 03-merge-solution left as released: not implemented.
        ("panics", vec![("03-best-solution", best_panics)]),
    ];
    for (student, replace) in &students {
        let folder = course.join("submitted").join(student).join(LAB);
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join(format!("{LAB}.ipynb")),
            serde_json::to_string_pretty(&submission(&released, replace)).unwrap(),
        )
        .unwrap();
    }

    // bpe-lab's judge first: nbgrader's autograde writes into submitted/ (timestamps) later.
    let gradebook = dir.path().join("grades.csv");
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&course.join("submitted")),
        "--lab",
        LAB,
        "--sources",
        path_str(&root().join("instructor")),
        "--output",
        path_str(&gradebook),
        "--feedback",
        path_str(&dir.path().join("feedback")),
    ]);
    assert_success(&run);
    let csv = fs::read_to_string(&gradebook).unwrap();
    let mut ours: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.splitn(8, ',').collect();
        ours.entry(f[0].to_owned()).or_default().extend([
            ("03-best-check".to_owned(), f[3].parse().unwrap()),
            ("03-merge-check".to_owned(), f[4].parse().unwrap()),
        ]);
    }

    nbgrader(&python, &course, &["autograde", LAB]);
    let scores = Command::new(&python)
        .arg(root().join("tests/python/nbgrader_scores.py"))
        .args([LAB, LAB])
        .current_dir(&course)
        .output()
        .unwrap();
    assert!(
        scores.status.success(),
        "{}",
        String::from_utf8_lossy(&scores.stderr)
    );
    let theirs: BTreeMap<String, BTreeMap<String, f64>> =
        serde_json::from_slice(&scores.stdout).unwrap();
    eprintln!("nbgrader: {theirs:?}\nbpe-lab:  {ours:?}");
    assert_eq!(theirs, ours);
    // And they are the grades these submissions must get.
    let expect = |best: f64, merge: f64| {
        BTreeMap::from([
            ("03-best-check".to_owned(), best),
            ("03-merge-check".to_owned(), merge),
        ])
    };
    assert_eq!(ours["right"], expect(1.0, 2.0));
    assert_eq!(ours["partly"], expect(0.0, 2.0));
    assert_eq!(ours["panics"], expect(0.0, 0.0));

    // nbgrader's feedback pages show the checks' own results.
    nbgrader(&python, &course, &["generate_feedback", LAB]);
    let page = |student: &str| {
        fs::read_to_string(
            course
                .join("feedback")
                .join(student)
                .join(LAB)
                .join(format!("{LAB}.html")),
        )
        .unwrap_or_else(|e| panic!("no feedback page for {student}: {e}"))
    };
    assert!(page("right").contains("merge_pair_in_word"));
    assert!(page("partly").contains("most_frequent_pair"));
    let panics = page("panics");
    // Under nbgrader a check that did not pass ends its cell with an error naming the verdict.
    assert!(panics.contains("did not pass (panicked)"), "{panics}");
    assert!(
        panics.contains("did not pass (not_implemented)"),
        "{panics}"
    );
}
