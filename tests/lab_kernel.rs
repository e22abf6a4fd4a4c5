//! Grading with the real evcxr kernel: a set of submissions of lab 03 — right, untouched,
//! hostile and broken — graded in one run, checked row by row against the grades they must
//! get. Needs Jupyter and the `rust` kernel (./scripts/test sets BPE_LAB_KERNEL_TESTS=1 after
//! installing them); without that variable the test says so and does nothing.
#![cfg(feature = "cli")]

mod support;

use serde_json::{Value, json};
use std::fs;
use std::path::{Path, PathBuf};
use support::cli::{assert_success, bpe_lab, path_str, stderr};

const LAB: &str = "03-merge";

const BEST_RIGHT: &str = "fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut entries: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    entries.first().map(|(p, c)| ((*p).clone(), **c))
}";

const BEST_EXITS: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    std::process::exit(3)
}";

const BEST_FAKES: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    println!(\"EVCXR_BEGIN_CONTENT application/vnd.bpe-lab.check+json\\n{{\\\"exercise\\\": \\\"most_frequent_pair\\\", \\\"status\\\": \\\"passed\\\", \\\"message\\\": \\\"ok\\\", \\\"nonce\\\": \\\"guessed\\\"}}\\nEVCXR_END_CONTENT\");
    todo!()
}";

const MERGE_RIGHT: &str =
    "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!(\"{}{}\", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}";

const MERGE_LOOPS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    let mut i = 0;
    while i < word.len() + 1 { i = i * 1; }
    word.to_vec()
}";

const MERGE_PANICS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    panic!(\"boom in {} symbols\", word.len())
}";

const FAKE_RESULTS: &str = "println!(\"EVCXR_BEGIN_CONTENT application/vnd.bpe-lab.check+json\\n{{\\\"exercise\\\": \\\"merge_pair_in_word\\\", \\\"status\\\": \\\"passed\\\", \\\"message\\\": \\\"all passed\\\"}}\\nEVCXR_END_CONTENT\");";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn student_notebook(lab: &str) -> Value {
    let text = fs::read_to_string(root().join("notebooks").join(format!("{lab}.ipynb"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn cells(nb: &mut Value) -> &mut Vec<Value> {
    nb["cells"].as_array_mut().unwrap()
}

fn source(cell: &Value) -> String {
    match &cell["source"] {
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// Replaces the solution cell that defines `function` with `code`.
fn solve(nb: &mut Value, function: &str, code: &str) {
    let cell = cells(nb)
        .iter_mut()
        .find(|c| {
            c["metadata"]["nbgrader"]["solution"] == true
                && source(c).contains(&format!("fn {function}("))
        })
        .unwrap_or_else(|| panic!("no solution cell for {function}"));
    cell["source"] = json!(code);
}

fn check_cell_index(nb: &mut Value, exercise: &str) -> usize {
    cells(nb)
        .iter()
        .position(|c| c["metadata"]["bpe_lab"]["exercise"] == exercise)
        .unwrap()
}

fn add_cell_after_setup(nb: &mut Value, id: &str, code: &str) {
    let at = cells(nb)
        .iter()
        .position(|c| c["metadata"]["bpe_lab"]["role"] == "setup")
        .unwrap()
        + 2;
    cells(nb).insert(at, json!({"cell_type": "code", "id": id, "metadata": {}, "source": code, "outputs": [], "execution_count": null}));
}

fn save(dir: &Path, student: &str, file: &str, nb: &Value) {
    fs::create_dir_all(dir.join(student)).unwrap();
    fs::write(
        dir.join(student).join(file),
        serde_json::to_string_pretty(nb).unwrap(),
    )
    .unwrap();
}

fn build_submissions(dir: &Path) {
    let file = format!("{LAB}.ipynb");
    let base = student_notebook(LAB);
    let with = |best: Option<&str>, merge: Option<&str>| {
        let mut nb = base.clone();
        if let Some(code) = best {
            solve(&mut nb, "most_frequent_pair", code);
        }
        if let Some(code) = merge {
            solve(&mut nb, "merge_pair_in_word", code);
        }
        nb
    };
    save(
        dir,
        "alice",
        &file,
        &with(Some(BEST_RIGHT), Some(MERGE_RIGHT)),
    );
    save(dir, "bob", &file, &base);
    // A check that never returns, and a cell of her own that never ends.
    let mut carol = with(Some(BEST_RIGHT), Some(MERGE_LOOPS));
    add_cell_after_setup(&mut carol, "carol-spin", "loop { std::hint::spin_loop(); }");
    save(dir, "carol", &file, &carol);
    save(
        dir,
        "dave",
        &file,
        &with(Some(BEST_RIGHT), Some(MERGE_PANICS)),
    );
    save(
        dir,
        "erin",
        &file,
        &with(Some(BEST_EXITS), Some(MERGE_RIGHT)),
    );
    // Deletes one check cell and rewrites the other to print a pass.
    let mut frank = with(Some(BEST_RIGHT), Some(MERGE_RIGHT));
    let best = check_cell_index(&mut frank, "most_frequent_pair");
    cells(&mut frank).remove(best);
    let merge = check_cell_index(&mut frank, "merge_pair_in_word");
    cells(&mut frank)[merge]["source"] = json!(FAKE_RESULTS);
    save(dir, "frank", &file, &frank);
    // Leaves the exercises undone but prints imitations of passing results.
    let mut grace = with(Some(BEST_FAKES), None);
    add_cell_after_setup(&mut grace, "grace-fake", FAKE_RESULTS);
    save(dir, "grace", &file, &grace);
    save(dir, "heidi", &file, &student_notebook("02-count-pairs"));
    fs::create_dir_all(dir.join("ivan")).unwrap();
    fs::write(dir.join("ivan").join(&file), "{ this is not JSON").unwrap();
    fs::create_dir_all(dir.join("judy")).unwrap();
    fs::write(
        dir.join("judy").join(&file),
        "{\"nbformat\": 4, \"metadata\": {}}",
    )
    .unwrap();
}

#[test]
fn grading_fixture_submissions_gives_the_expected_gradebook() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to grade with the real kernel"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    build_submissions(&subs);
    let empty = dir.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let (grades, feedback) = (dir.path().join("grades.csv"), dir.path().join("feedback"));
    let run = bpe_lab(&[
        "lab",
        "grade",
        path_str(&subs),
        path_str(&empty),
        "--lab",
        LAB,
        "--sources",
        path_str(&root().join("instructor")),
        "--kernel-dir",
        path_str(&root().join("notebooks")),
        "--out",
        path_str(&grades),
        "--feedback",
        path_str(&feedback),
        "--cell-timeout",
        "90",
        "--timeout",
        "600",
    ]);
    eprintln!("{}", stderr(&run));
    assert_success(&run);
    let csv = fs::read_to_string(&grades).unwrap();
    eprintln!("{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "student,file,lab,most_frequent_pair,merge_pair_in_word,total,max,notes"
    );
    let row = |student: &str| -> Vec<String> {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("{student},")))
            .unwrap_or_else(|| panic!("no row for {student}"));
        // The first seven fields never hold commas here; the notes may.
        line.splitn(8, ',').map(str::to_owned).collect()
    };
    let scores = |student: &str| -> (String, String, String) {
        let r = row(student);
        (r[3].clone(), r[4].clone(), r[5].clone())
    };
    let s = |a: &str, b: &str, t: &str| (a.to_owned(), b.to_owned(), t.to_owned());
    assert_eq!(lines.len(), 11, "one row per submission:\n{csv}");
    assert_eq!(scores("alice"), s("1", "2", "3"));
    assert_eq!(scores("bob"), s("0", "0", "0"));
    assert_eq!(scores("carol"), s("1", "0", "1"));
    assert_eq!(scores("dave"), s("1", "0", "1"));
    assert_eq!(scores("erin"), s("0", "2", "2"));
    assert_eq!(scores("frank"), s("1", "2", "3"));
    assert_eq!(scores("grace"), s("0", "0", "0"));
    for student in ["heidi", "ivan", "judy"] {
        assert_eq!(scores(student), s("0", "0", "0"), "{student}");
    }
    assert!(
        row("carol")[7].contains("ran past the time limit"),
        "{:?}",
        row("carol")
    );
    assert!(
        row("frank")[7].contains("re-inserted the deleted cell")
            && row("frank")[7].contains("undid the edits"),
        "{:?}",
        row("frank")
    );
    assert!(row("grace")[7].contains("ignored"), "{:?}", row("grace"));
    assert!(
        row("heidi")[7].contains("notebook of lab 02-count-pairs, not 03-merge"),
        "{:?}",
        row("heidi")
    );
    assert!(row("ivan")[7].contains("not JSON"));
    assert!(row("judy")[7].contains("not a notebook"));
    let read = |student: &str| {
        fs::read_to_string(feedback.join(student).join(format!("{LAB}.md"))).unwrap()
    };
    let carol = read("carol");
    assert!(carol.contains("did not return within"), "{carol}");
    let dave = read("dave");
    assert!(
        dave.contains("panicked") && dave.contains("boom in"),
        "{dave}"
    );
    assert!(read("bob").contains("not implemented"));
    assert!(read("alice").contains("**Score: 3 / 3**"));
    assert!(stderr(&run).contains("no notebooks (*.ipynb) found"));
}

#[test]
fn doctor_finds_everything_and_builds_the_crate_in_a_kernel() {
    if std::env::var_os("BPE_LAB_KERNEL_TESTS").is_none() {
        eprintln!(
            "skipped: set BPE_LAB_KERNEL_TESTS=1 (./scripts/test does) to start a real kernel"
        );
        return;
    }
    let run = bpe_lab(&[
        "lab",
        "doctor",
        "--kernel-dir",
        path_str(&root().join("notebooks")),
    ]);
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert_success(&run);
    for line in [
        "✔ Rust toolchain",
        "✔ Python with Jupyter",
        "✔ Jupyter kernel spec \"rust\"",
        "✔ evcxr_jupyter",
        "✔ bpe-lab builds in the kernel",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
    assert!(!out.contains('✘'), "{out}");
}
