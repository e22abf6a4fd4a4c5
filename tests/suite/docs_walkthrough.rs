//! The instructors' guide runs as written: its five-minute walkthrough grades the sample class
//! in `docs/samples/submissions/` with the command the page shows, and every student gets the
//! score the page's table promises, with the verdicts, restored cell and escaped output it
//! describes. Needs rustc and bubblewrap (gated like the other sandbox tests); a few seconds.

use crate::support;

use std::fs;
use std::path::PathBuf;
use support::cli::{assert_success, bpe_lab, path_str};
use support::sandbox_available;

fn root() -> PathBuf {
    PathBuf::from(env!("BPE_LAB_REPO"))
}

fn guide() -> String {
    fs::read_to_string(root().join("docs/instructors.md")).unwrap()
}

/// The rows of the sample table in the guide: (student, "3 / 3"-style expected score).
fn promised_scores(guide: &str) -> Vec<(String, (u32, u32))> {
    let start = guide
        .find("| student | what they handed in | expected |")
        .expect("the guide's sample table");
    guide[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let student = cells[1].to_owned();
            let expected = cells[3];
            let score = expected.split(&[',', ':'][..]).next().unwrap().trim();
            let (got, max) = score.split_once(" / ").expect("a score like 3 / 3");
            (student, (got.parse().unwrap(), max.parse().unwrap()))
        })
        .collect()
}

#[test]
fn the_guide_shows_the_command_this_test_runs() {
    let guide = guide();
    assert!(
        guide.contains(
            "bpe-lab lab grade docs/samples/submissions --output /tmp/class/grades.csv --feedback /tmp/class/feedback"
        ),
        "the walkthrough's command changed: update this test"
    );
    let scores = promised_scores(&guide);
    let students: Vec<&str> = scores.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(students, ["amara", "bayo", "chidi", "dele"]);
    for student in students {
        assert!(
            root()
                .join("docs/samples/submissions")
                .join(student)
                .join("03-merge.ipynb")
                .is_file(),
            "no sample submission for {student}"
        );
    }
}

#[test]
fn the_sample_class_gets_the_grades_the_guide_promises() {
    if !sandbox_available() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let grades = out.path().join("class/grades.csv");
    let feedback = out.path().join("class/feedback");
    // As the guide says, from the repository root.
    let samples = root().join("docs/samples/submissions");
    let sources = root().join("instructor");
    let output = bpe_lab(&[
        "lab",
        "grade",
        path_str(&samples),
        "--sources",
        path_str(&sources),
        "--output",
        path_str(&grades),
        "--feedback",
        path_str(&feedback),
    ]);
    assert_success(&output);

    let csv = fs::read_to_string(&grades).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "student,file,lab,most_frequent_pair,merge_pair_in_word,total,max,notes,\
         most_frequent_pair outcome,merge_pair_in_word outcome,tie rule,grader,submitted_at,late_by,late_penalty"
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.splitn(8, ',').map(str::to_owned).collect())
        .collect();
    for (student, (total, max)) in promised_scores(&guide()) {
        let row = rows
            .iter()
            .find(|r| r[0] == student)
            .unwrap_or_else(|| panic!("no row for {student} in\n{csv}"));
        assert_eq!(row[2], "03-merge", "{row:?}");
        assert_eq!(
            (
                row[5].parse::<u32>().unwrap(),
                row[6].parse::<u32>().unwrap()
            ),
            (total, max),
            "{student}: {row:?}"
        );
    }

    let read = |student: &str, ext: &str| {
        fs::read_to_string(feedback.join(student).join(format!("03-merge.{ext}"))).unwrap()
    };
    // amara: both right.
    let amara = read("amara", "md");
    assert!(
        amara.contains("✅ passed") && !amara.contains("❌"),
        "{amara}"
    );
    // bayo: both wrong, each with its smallest failing input.
    let bayo = read("bayo", "md");
    assert_eq!(bayo.matches("Smallest failing input").count(), 2, "{bayo}");
    // chidi: nothing done.
    let chidi = read("chidi", "md");
    assert!(chidi.matches("not implemented").count() >= 2, "{chidi}");
    // dele: the exit is a crash, the other exercise passes, the forged check cell is undone,
    // and the markup printed is text in the HTML page.
    let dele = read("dele", "md");
    assert!(
        dele.contains("❌ crashed") && dele.contains("✅ passed"),
        "{dele}"
    );
    assert!(
        dele.contains("undid the edits to the protected cell"),
        "{dele}"
    );
    let page = read("dele", "html");
    assert!(
        page.contains("&lt;script&gt;alert(1)"),
        "the printed markup is shown"
    );
    assert!(
        !page.contains("<script>alert(1)"),
        "the printed markup must not run"
    );
    let row = rows.iter().find(|r| r[0] == "dele").unwrap();
    assert!(row[7].contains("03-merge-check"), "{row:?}");
}
