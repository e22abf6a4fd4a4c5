//! The tie rule end to end in grading: each rule's correct `train_bpe` gets full marks under
//! that rule and none under the other (the checks' cases are full of ties the rules settle
//! differently), the instructor's own solution gets full marks under both, a misspelt rule is
//! refused before anything is written, and every grading run says which rule it went by. Needs
//! rustc and bubblewrap, as `grade_judge` does.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use support::cli::{path_str, stderr};
use support::lab03::{root, solve, student_notebook};
use support::notebooks::{cell_text, read_json};
use support::sandbox_available;

const LAB: &str = "04-learn";

/// Written from the rule's words alone (notebook 04's task, the Python lab's `Counter`): among
/// the pairs with the highest count, the first one met reading the corpus word by word.
const TRAIN_FIRST_SEEN: &str =
    "fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let counts = bpe_lab::lab::reference::get_pair_frequencies(corpus);
        let Some(&top) = counts.values().max() else { break };
        let mut chosen = None;
        'scan: for word in corpus.iter() {
            for i in 1..word.len() {
                let pair = (word[i - 1].clone(), word[i].clone());
                if counts[&pair] == top { chosen = Some(pair); break 'scan; }
            }
        }
        let pair = chosen.unwrap();
        for word in corpus.iter_mut() {
            *word = bpe_lab::lab::reference::merge_pair_in_word(word, &pair);
        }
        merges.push(pair);
    }
    merges
}";

/// Among the pairs with the highest count, the smallest (this series' rule).
const TRAIN_SMALLEST: &str =
    "fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)> {
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        let counts = bpe_lab::lab::reference::get_pair_frequencies(corpus);
        let mut all: Vec<(&(String, String), &usize)> = counts.iter().collect();
        all.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let Some((pair, _)) = all.first() else { break };
        let pair = (*pair).clone();
        for word in corpus.iter_mut() {
            *word = bpe_lab::lab::reference::merge_pair_in_word(word, &pair);
        }
        merges.push(pair);
    }
    merges
}";

/// The instructor's solution to `train_bpe`, markers taken out.
fn instructors_solution() -> String {
    let source = read_json(&root().join("instructor").join(format!("{LAB}.ipynb")));
    let cell = source["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| cell_text(&c["source"]))
        .find(|text| text.contains("fn train_bpe(") && text.contains("BEGIN SOLUTION"))
        .expect("notebook 04's source has a train_bpe solution");
    cell.lines()
        .filter(|l| !l.contains("BEGIN SOLUTION") && !l.contains("END SOLUTION"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn grade(dir: &Path, rule: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command
        .args(["lab", "grade"])
        .arg(dir.join("submissions"))
        .args(["--lab", LAB, "--sources"])
        .arg(root().join("instructor"))
        .arg("--output")
        .arg(dir.join("grades.csv"))
        .arg("--feedback")
        .arg(dir.join("feedback"))
        .stdin(Stdio::null());
    match rule {
        Some(rule) => command.env("BPE_LAB_TIE_BREAK", rule),
        None => command.env_remove("BPE_LAB_TIE_BREAK"),
    };
    command.output().expect("the bpe-lab binary runs")
}

fn write_submissions(dir: &Path) {
    for (student, code) in [
        ("first_seen", TRAIN_FIRST_SEEN.to_owned()),
        ("smallest", TRAIN_SMALLEST.to_owned()),
        ("instructor", instructors_solution()),
    ] {
        let mut nb = student_notebook(LAB);
        solve(&mut nb, "train_bpe", &code);
        let folder = dir.join("submissions").join(student);
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join(format!("{LAB}.ipynb")),
            serde_json::to_string_pretty(&nb).unwrap(),
        )
        .unwrap();
    }
}

/// `(student, total)` of each gradebook row.
fn totals(dir: &Path) -> Vec<(String, String)> {
    let text = fs::read_to_string(dir.join("grades.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let total = header.iter().position(|h| *h == "total").unwrap();
    let mut rows: Vec<(String, String)> = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[0].to_owned(), cells[total].to_owned())
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn each_rule_gives_full_marks_to_its_own_answer_and_the_instructors_under_both() {
    if !sandbox_available() {
        return;
    }
    for (rule, first_seen, smallest) in [
        (Some("first-seen"), "2", "0"),
        (Some("lexicographic"), "0", "2"),
        (None, "0", "2"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        write_submissions(dir.path());
        let out = grade(dir.path(), rule);
        assert!(out.status.success(), "{rule:?}: {}", stderr(&out));
        let said = stderr(&out);
        let expected_line = match rule {
            Some("first-seen") => "Tie rule: the pair seen first wins",
            _ => "Tie rule: the smallest pair wins",
        };
        assert!(said.contains(expected_line), "{rule:?}: {said}");
        assert_eq!(
            totals(dir.path()),
            [
                ("first_seen".to_owned(), first_seen.to_owned()),
                ("instructor".to_owned(), "2".to_owned()),
                ("smallest".to_owned(), smallest.to_owned()),
            ],
            "{rule:?}"
        );
    }
}

#[test]
fn a_misspelt_tie_rule_is_refused_naming_both_rules_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    write_submissions(dir.path());
    let out = grade(dir.path(), Some("firstseen"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    for needle in ["\"firstseen\"", "\"lexicographic\"", "\"first-seen\""] {
        assert!(said.contains(needle), "{needle} missing: {said}");
    }
    assert!(!dir.path().join("grades.csv").exists());
    assert!(!dir.path().join("feedback").exists());
    // verify refuses it too, before starting any kernel.
    let verify = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args([
            "lab",
            "verify",
            "--sources",
            path_str(&root().join("instructor")),
        ])
        .arg("--work-dir")
        .arg(dir.path().join("verify"))
        .env("BPE_LAB_TIE_BREAK", "first seen!")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(verify.status.code(), Some(2), "{}", stderr(&verify));
    assert!(stderr(&verify).contains("\"first-seen\""));
    assert!(!dir.path().join("verify").exists());
}
