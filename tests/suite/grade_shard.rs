//! `lab grade --shard K/N` and `lab grade-merge`: five submissions of lab 03 graded once in one
//! run and once as shards 1/3, 2/3 and 3/3 joined by the merge must give the same gradebook,
//! nbgrader CSV and feedback files, byte for byte — except the saved grade records
//! (`.03-merge.grade.json`), whose `seconds` field holds each submission's wall time: those are
//! compared with that field masked. Needs rustc and bubblewrap (see tests/suite/grade_judge.rs);
//! grading costs about eight worker compilations per pass, two passes (~20 s on two busy
//! cores). Bad `--shard` values and bad merges need no sandbox. The class's roster lists one
//! more student, who handed nothing in: the first shard holds that row (and writes its "no
//! submission" page), so the merge has it exactly once, as the unsharded run does.

use crate::support;

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use support::cli::{assert_success, bpe_lab, path_str, stderr};
use support::lab03::*;
use support::sandbox_available;

/// The class, and the shard of three each student falls in — computed outside the crate
/// (Python: `int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % 3 + 1`).
const CLASS: [(&str, usize); 5] = [
    ("alice", 3),
    ("bob", 3),
    ("dave", 2),
    ("erin", 1),
    ("heidi", 2),
];

/// On the roster, with nothing handed in.
const ABSENT: &str = "zoe";

/// The roster beside the submissions folder.
fn roster(subs: &Path) -> PathBuf {
    subs.with_file_name("roster.csv")
}

fn build_class(subs: &Path) {
    let mut listed = String::from("Username\n");
    for (student, _) in CLASS {
        listed.push_str(&format!("{student}\n"));
    }
    listed.push_str(&format!("{ABSENT}\n"));
    fs::create_dir_all(subs).unwrap();
    fs::write(roster(subs), listed).unwrap();
    save(subs, "alice", &lab03(Some(BEST_RIGHT), Some(MERGE_RIGHT)));
    save(subs, "bob", &lab03(None, None));
    save(subs, "dave", &lab03(Some(BEST_RIGHT), Some(MERGE_PANICS)));
    save(subs, "erin", &lab03(Some(BEST_RIGHT), Some(MERGE_WRONG)));
    fs::create_dir_all(subs.join("heidi")).unwrap();
    fs::write(
        subs.join("heidi").join(format!("{LAB}.ipynb")),
        "{ not JSON",
    )
    .unwrap();
}

/// Where one run writes.
struct Out {
    csv: PathBuf,
    nbgrader: PathBuf,
    feedback: PathBuf,
    /// Moodle's worksheet (written anew) and feedback zip.
    worksheet: PathBuf,
    moodle_zip: PathBuf,
}

impl Out {
    fn new(dir: &Path, name: &str) -> Out {
        Out {
            csv: dir.join(format!("{name}.csv")),
            nbgrader: dir.join(format!("{name}-nbgrader.csv")),
            feedback: dir.join(format!("{name}-feedback")),
            worksheet: dir.join(format!("{name}-worksheet.csv")),
            moodle_zip: dir.join(format!("{name}-moodle.zip")),
        }
    }
}

fn grade(subs: &Path, out: &Out, shard: Option<&str>) -> String {
    let sources = sources();
    let roster = roster(subs);
    let mut args = vec![
        "lab",
        "grade",
        path_str(subs),
        "--roster",
        path_str(&roster),
        "--lab",
        LAB,
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&out.csv),
        "--nbgrader-csv",
        path_str(&out.nbgrader),
        "--moodle-worksheet",
        path_str(&out.worksheet),
        "--moodle-feedback-zip",
        path_str(&out.moodle_zip),
        "--feedback",
        path_str(&out.feedback),
        "--check-timeout",
        "10",
        "--threads",
        "2",
    ];
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    let output = bpe_lab(&args);
    assert_success(&output);
    stderr(&output)
}

/// The lines a run ends with from its first line starting with `first` on.
fn summary_after<'a>(text: &'a str, first: &str) -> Vec<&'a str> {
    let at = text
        .lines()
        .position(|l| l.starts_with(first))
        .unwrap_or_else(|| panic!("no line starting {first:?} in:\n{text}"));
    text.lines().skip(at + 1).collect()
}

/// A zip's entries, by name, with their bytes.
fn zip_entries(path: &Path) -> Vec<(String, Vec<u8>)> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        out.push((entry.name().unwrap().into_owned(), bytes));
    }
    out.sort();
    out
}

/// A saved grade record with its wall time masked.
fn masked(bytes: &[u8]) -> Value {
    let mut json: Value = serde_json::from_slice(bytes).unwrap();
    assert!(json["seconds"].is_number(), "{json}");
    json["seconds"] = Value::from(0);
    json
}

fn students(csv: &str) -> Vec<String> {
    rows_by_student(csv)
        .into_iter()
        .skip(1)
        .map(|(s, _)| s)
        .collect()
}

#[test]
fn three_shards_merged_equal_one_run() {
    if !sandbox_available() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    build_class(&subs);
    let whole = Out::new(dir.path(), "whole");
    let whole_log = grade(&subs, &whole, None);

    let mut shard_feedback = Vec::new();
    for k in 1..=3 {
        let out = Out::new(dir.path(), &format!("shard{k}"));
        let log = grade(&subs, &out, Some(&format!("{k}/3")));
        let mut expected: Vec<&str> = CLASS
            .iter()
            .filter(|(_, shard)| *shard == k)
            .map(|(s, _)| *s)
            .collect();
        // The first shard holds who handed nothing in (last on the roster).
        if k == 1 {
            expected.push(ABSENT);
        }
        assert!(
            log.contains(&format!(
                "shard {k}/3: grading {} of the 6 submission(s)",
                expected.len()
            )),
            "{log}"
        );
        assert_eq!(students(&fs::read_to_string(&out.csv).unwrap()), expected);
        shard_feedback.push(out.feedback);
    }

    let merged = Out::new(dir.path(), "merged");
    let sources = sources();
    let mut args = vec!["lab", "grade-merge"];
    // Given out of order: the merge puts rows back in the class's order.
    for k in [2, 0, 1] {
        args.push(path_str(&shard_feedback[k]));
    }
    args.extend([
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&merged.csv),
        "--nbgrader-csv",
        path_str(&merged.nbgrader),
        "--moodle-worksheet",
        path_str(&merged.worksheet),
        "--moodle-feedback-zip",
        path_str(&merged.moodle_zip),
        "--feedback",
        path_str(&merged.feedback),
    ]);
    let output = bpe_lab(&args);
    assert_success(&output);
    let merge_log = stderr(&output);

    let whole_csv = fs::read_to_string(&whole.csv).unwrap();
    assert_eq!(
        students(&whole_csv),
        ["alice", "bob", "dave", "erin", "heidi", ABSENT]
    );
    assert!(whole_csv.starts_with("student,file,lab,most_frequent_pair,merge_pair_in_word"));
    assert_eq!(fs::read_to_string(&merged.csv).unwrap(), whole_csv);
    assert_eq!(
        fs::read_to_string(&merged.nbgrader).unwrap(),
        fs::read_to_string(&whole.nbgrader).unwrap()
    );
    // Moodle's files: the same worksheet, the same feedback pages in the zip.
    assert_eq!(
        fs::read_to_string(&merged.worksheet).unwrap(),
        fs::read_to_string(&whole.worksheet).unwrap()
    );
    assert_eq!(
        zip_entries(&merged.moodle_zip),
        zip_entries(&whole.moodle_zip)
    );
    assert!(
        zip_entries(&whole.moodle_zip)
            .iter()
            .any(|(name, _)| name
                == &format!("{ABSENT}_{ABSENT}_assignsubmission_file_/feedback.html")),
        "the absent student's page is in Moodle's zip"
    );
    let (whole_files, merged_files) = (files_under(&whole.feedback), files_under(&merged.feedback));
    let names = |files: &[(PathBuf, Vec<u8>)]| -> Vec<PathBuf> {
        files.iter().map(|(p, _)| p.clone()).collect()
    };
    assert_eq!(names(&merged_files), names(&whole_files));
    // Markdown and HTML for the four notebooks and heidi's unreadable file, the records, zoe's
    // "no submission" pages, and the class summary page.
    assert_eq!(whole_files.len(), 18, "{:?}", names(&whole_files));
    let absent = fs::read_to_string(merged.feedback.join(ABSENT).join("no-submission.md")).unwrap();
    assert!(absent.contains("No submission received"), "{absent}");
    for ((path, whole_bytes), (_, merged_bytes)) in whole_files.iter().zip(&merged_files) {
        if path.to_string_lossy().ends_with(".grade.json") {
            assert_eq!(
                masked(merged_bytes),
                masked(whole_bytes),
                "{}",
                path.display()
            );
        } else {
            assert!(merged_bytes == whole_bytes, "{} differs", path.display());
        }
    }
    // The same end-of-run table.
    assert_eq!(
        summary_after(&merge_log, "merged 3 shard(s): 6 submission(s)"),
        summary_after(&whole_log, "graded 5 submission(s)")
    );
    assert!(
        whole_log.contains("could not be graded because of the submitted file itself: 1"),
        "{whole_log}"
    );
}

#[test]
fn bad_shards_are_refused_by_name_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let subs = dir.path().join("submissions");
    fs::create_dir_all(&subs).unwrap();
    let out = Out::new(dir.path(), "out");
    let sources = sources();
    for bad in ["0/3", "4/3", "a/b", "1/0", "3", "-1/3"] {
        let output = bpe_lab(&[
            "lab",
            "grade",
            path_str(&subs),
            "--sources",
            path_str(&sources),
            "--output",
            path_str(&out.csv),
            "--feedback",
            path_str(&out.feedback),
            &format!("--shard={bad}"),
        ]);
        assert!(!output.status.success(), "{bad} was taken");
        let text = stderr(&output);
        assert!(text.contains("--shard"), "{bad}: {text}");
        assert!(text.contains(bad), "{bad}: {text}");
        assert!(!out.csv.exists() && !out.feedback.exists(), "{bad}");
    }
}

/// A shard's manifest, as a sharded run leaves it, for a class of three.
fn manifest(dir: &Path, shard: &str) -> PathBuf {
    let submissions: Vec<Value> = ["alice", "dave", "erin"]
        .iter()
        .map(|s| serde_json::json!({"student": s, "file": format!("subs/{s}/03-merge.ipynb")}))
        .collect();
    let (index, count) = shard.split_once('/').unwrap();
    let json = serde_json::json!({
        "shard": {"index": index.parse::<u32>().unwrap(), "count": count.parse::<u32>().unwrap()},
        "lab": LAB,
        "labs": ["x"],
        "submissions": submissions,
    });
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join(".bpe-lab-shard.json"), json.to_string()).unwrap();
    dir.to_owned()
}

#[test]
fn overlapping_or_missing_shards_are_refused_naming_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let two = manifest(&d.join("a"), "2/3");
    let again = manifest(&d.join("b"), "2/3");
    let one = manifest(&d.join("c"), "1/3");
    let merged = Out::new(d, "merged");
    let merge = |shards: &[&Path]| {
        let mut args = vec!["lab", "grade-merge"];
        args.extend(shards.iter().map(|p| path_str(p)));
        args.extend([
            "--output",
            path_str(&merged.csv),
            "--feedback",
            path_str(&merged.feedback),
        ]);
        let output = bpe_lab(&args);
        assert!(!output.status.success());
        stderr(&output)
    };
    let text = merge(&[&one, &two, &again]);
    assert!(
        text.contains("dave was graded in two shards")
            && text.contains(path_str(&two.join(".bpe-lab-shard.json")))
            && text.contains(path_str(&again.join(".bpe-lab-shard.json"))),
        "{text}"
    );
    let text = merge(&[&one, &two]);
    assert!(
        text.contains("alice") && text.contains("shard(s) 3/3 missing"),
        "{text}"
    );
    assert!(!merged.csv.exists() && !merged.feedback.exists());
}
