//! Submissions of lab 03 for the tests that run the real grader on a class: the released
//! student notebook with its solution cells replaced (honest and hostile answers), saved one
//! folder per student, and what the tests compare of two runs. [`class`] is the set whose
//! grades rest on processes, time, memory and disk — what a loaded machine could get wrong.
//!
//! `tests/suite/grade_judge.rs` grades a larger set built from the same answers (with edits to
//! protected cells, other labs and broken files).

pub use super::notebooks::{root, solve, student_notebook};
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

pub const LAB: &str = "03-merge";

pub const BEST_RIGHT: &str = "fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut entries: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    entries.first().map(|(p, c)| ((*p).clone(), **c))
}";

pub const BEST_EXITS: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    std::process::exit(3)
}";

pub const BEST_FORKS: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    loop {
        let _ = std::process::Command::new(\"/bin/sleep\").arg(\"1000\").spawn();
        let _ = std::thread::Builder::new().spawn(|| std::thread::sleep(std::time::Duration::from_secs(1000)));
    }
}";

/// Fills whatever it may write with files of 1 MiB, then says how far it got.
pub const BEST_FILLS_DISK: &str = "fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut written = 0;
    for dir in [std::env::temp_dir(), \"/scratch\".into(), \"/\".into(), \"/dev/shm\".into()] {
        for i in 0..100_000 {
            if std::fs::write(dir.join(format!(\"fill{i}\")), vec![7u8; 1 << 20]).is_err() {
                break;
            }
            written += 1;
        }
    }
    let last = std::fs::write(std::env::temp_dir().join(\"one-more\"), vec![7u8; 1 << 20]);
    panic!(\"wrote {written} MiB, then: {}\", last.unwrap_err())
}";

pub const MERGE_RIGHT: &str =
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

/// Merges every occurrence but the last one of a word: wrong on some cases.
pub const MERGE_WRONG: &str =
    "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 2 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!(\"{}{}\", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}";

pub const MERGE_LOOPS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    let mut i = 0;
    while i < word.len() + 1 { i = i * 1; }
    word.to_vec()
}";

pub const MERGE_PANICS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    panic!(\"boom in {} symbols\", word.len())
}";

pub const MERGE_SLEEPS: &str =
    "fn merge_pair_in_word(_: &[String], _: &(String, String)) -> Vec<String> {
    std::thread::sleep(std::time::Duration::from_secs(1_000_000));
    Vec::new()
}";

/// Asks for 256 MiB blocks until the memory limit refuses one. The blocks are reserved, not
/// written: the limit is reached in microseconds however busy the machine is, so the verdict
/// (out of memory, not out of time) does not depend on the load. Written blocks took 1 s on a
/// quiet machine and past 5 s on a loaded one, and the grade went with it.
pub const MERGE_HOGS: &str =
    "fn merge_pair_in_word(word: &[String], _: &(String, String)) -> Vec<String> {
    let mut hog: Vec<Vec<u8>> = Vec::new();
    loop { hog.push(std::hint::black_box(Vec::with_capacity(256 << 20))); if hog.len() > 1000 { break; } }
    word.to_vec()
}";

/// Right, after printing a megabyte on stdout and on stderr at every call, markup first.
pub fn merge_floods() -> String {
    MERGE_RIGHT.replacen(
        "{\n",
        "{\n    let line = format!(\"<script>alert(1)</script>{}\", \"x\".repeat(1 << 20));\n    println!(\"{line}\");\n    eprintln!(\"{line}\");\n",
        1,
    )
}

/// The instructor sources, which grading reads the labs from.
pub fn sources() -> PathBuf {
    root().join("instructor")
}

/// The student notebook with the solution cells of the functions given replaced (`None`:
/// left as released, unanswered).
pub fn lab03(best: Option<&str>, merge: Option<&str>) -> Value {
    let mut nb = student_notebook(LAB);
    for (function, code) in [("most_frequent_pair", best), ("merge_pair_in_word", merge)] {
        if let Some(code) = code {
            solve(&mut nb, function, code);
        }
    }
    nb
}

/// Saves `nb` as `dir/<student>/03-merge.ipynb`.
pub fn save(dir: &Path, student: &str, nb: &Value) {
    fs::create_dir_all(dir.join(student)).unwrap();
    fs::write(
        dir.join(student).join(format!("{LAB}.ipynb")),
        serde_json::to_string_pretty(nb).unwrap(),
    )
    .unwrap();
}

/// One submission: its student, its two answers, and the points each must get.
pub struct Submission {
    pub student: &'static str,
    pub best: String,
    pub merge: String,
    /// Points for most_frequent_pair (of 1) and merge_pair_in_word (of 2).
    pub points: (u32, u32),
}

fn submission(student: &'static str, best: &str, merge: &str, points: (u32, u32)) -> Submission {
    Submission {
        student,
        best: best.to_owned(),
        merge: merge.to_owned(),
        points,
    }
}

/// The honest and hostile submissions whose grades rest on processes, time, memory and disk.
pub fn class() -> Vec<Submission> {
    vec![
        submission("alice", BEST_RIGHT, MERGE_RIGHT, (1, 2)),
        submission("carol", BEST_RIGHT, MERGE_LOOPS, (1, 0)),
        submission("dave", BEST_RIGHT, MERGE_PANICS, (1, 0)),
        submission("erin", BEST_EXITS, MERGE_RIGHT, (0, 2)),
        submission("victor", BEST_RIGHT, &merge_floods(), (1, 2)),
        submission("walter", BEST_FORKS, MERGE_RIGHT, (0, 2)),
        submission("wendy", BEST_FILLS_DISK, MERGE_RIGHT, (0, 2)),
        submission("yvonne", BEST_RIGHT, MERGE_SLEEPS, (1, 0)),
        submission("uma", BEST_RIGHT, MERGE_HOGS, (1, 0)),
    ]
}

/// Writes `submissions` as `dir/<student>/03-merge.ipynb`.
pub fn write_class(dir: &Path, submissions: &[Submission]) {
    for s in submissions {
        save(dir, s.student, &lab03(Some(&s.best), Some(&s.merge)));
    }
}

/// Every file git would see in the project (tracked or not, not ignored), with its bytes.
pub fn project_snapshot(project: &Path) -> Vec<(String, Vec<u8>)> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-co", "--exclude-standard", "-z"])
        .current_dir(project)
        .output()
        .expect("git runs");
    assert!(listed.status.success(), "git ls-files failed");
    let mut files: Vec<(String, Vec<u8>)> = listed
        .stdout
        .split(|&b| b == 0)
        .filter(|name| !name.is_empty())
        .map(|name| {
            let name = String::from_utf8_lossy(name).into_owned();
            let bytes = fs::read(project.join(&name)).unwrap_or_default();
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
pub fn files_under(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).unwrap();
                out.push((path.strip_prefix(dir).unwrap().to_owned(), bytes));
            }
        }
    }
    out.sort();
    out
}

/// The gradebook's rows by student (the header is row "student").
pub fn rows_by_student(csv: &str) -> Vec<(String, String)> {
    csv.lines()
        .map(|l| (l.split(',').next().unwrap().to_owned(), l.to_owned()))
        .collect()
}
