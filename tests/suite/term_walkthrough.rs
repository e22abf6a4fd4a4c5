//! The instructors' guide walks a whole term ("A whole term, on a sample class" in
//! `docs/instructors.md`) and this test runs it as written: each `sh` block the guide tags
//! `<!-- term: STEP -->` is read from the page and its commands run in order from the
//! repository root, with the guide's `term/` folder a temporary one; each `csv` block tagged
//! with a file's name is added to that file, as the instructor would type it.
//!
//! The class is built here from the committed sample notebooks (`docs/samples/submissions/`),
//! reshaped as other Jupyters save a file (the helpers of `grade_jupyters`), packed as Moodle's
//! "download all submissions" zip with a duplicate, an empty file, a PDF, macOS junk and a
//! participant with no file, beside Moodle's grading worksheet as the class list. Every
//! expected grade follows from what the sample is — right: every point; wrong or unfinished:
//! none; the hostile one: the points of the exercise it got right — with the lab's points read
//! from the released notebook. Needs rustc and bubblewrap (gated like the other sandbox tests);
//! a few seconds.

use crate::grade_jupyters::{colab, notebook6, upgraded, vscode};
use crate::support;

use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output};
use support::notebooks::{read_json, root};
use support::sandbox_available;

const LAB: &str = "03-merge";
const SECTION: &str = "## A whole term, on a sample class";

fn guide() -> String {
    fs::read_to_string(root().join("docs/instructors.md")).unwrap()
}

/// The walkthrough's section of the guide.
fn section(guide: &str) -> &str {
    let start = guide.find(SECTION).expect("the guide's term walkthrough");
    let rest = &guide[start + SECTION.len()..];
    let end = rest.find("\n## ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// The fenced blocks tagged `<!-- term: TAG -->`, in order: (tag, block body).
fn tagged_blocks(section: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = section;
    while let Some(at) = rest.find("<!-- term: ") {
        let after = &rest[at + "<!-- term: ".len()..];
        let close = after.find(" -->").unwrap();
        let tag = after[..close].to_owned();
        let fence = after.find("```").unwrap();
        let body_start = fence + after[fence..].find('\n').unwrap() + 1;
        let body_end = body_start + after[body_start..].find("```").unwrap();
        out.push((tag, after[body_start..body_end].to_owned()));
        rest = &after[body_end + 3..];
    }
    out
}

/// A shell command line as words (the quoting the guide uses: `"…"` and `'…'`).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    assert!(quote.is_none(), "an unclosed quote in {line:?}");
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The commands of a `sh` block (comments left out, continued lines joined).
fn commands(block: &str) -> Vec<Vec<String>> {
    block
        .replace("\\\n", " ")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(words)
        .collect()
}

/// Runs one of the guide's commands from the repository root, its `term/` paths in `term`.
fn run(command: &[String], term: &Path) -> Output {
    assert_eq!(
        command[0], "bpe-lab",
        "the guide's commands are bpe-lab's: {command:?}"
    );
    let args: Vec<String> = command[1..]
        .iter()
        .map(|a| match a.strip_prefix("term/") {
            Some(rest) => term.join(rest).to_str().unwrap().to_owned(),
            None => a.clone(),
        })
        .collect();
    Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(&args)
        .current_dir(root())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the bpe-lab binary runs")
}

/// Runs every command of the block tagged `step`; returns what they printed on stderr.
fn step(blocks: &[(String, String)], tag: &str, term: &Path) -> String {
    let (_, block) = blocks
        .iter()
        .find(|(t, _)| t == tag)
        .unwrap_or_else(|| panic!("no block tagged {tag} in the guide"));
    let mut said = String::new();
    for command in commands(block) {
        let output = run(&command, term);
        let err = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success(),
            "{command:?}: exit {:?}\n{err}",
            output.status.code()
        );
        said.push_str(&err);
    }
    said
}

/// Adds the `n`th csv block tagged `term/FILE` to that file.
fn type_in(blocks: &[(String, String)], file: &str, n: usize, term: &Path) {
    let tag = format!("term/{file}");
    let (_, body) = blocks
        .iter()
        .filter(|(t, _)| *t == tag)
        .nth(n)
        .unwrap_or_else(|| panic!("no block {n} tagged {tag}"));
    let path = term.join(file);
    let mut f = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    f.write_all(body.as_bytes()).unwrap();
}

fn sample(student: &str) -> Value {
    read_json(
        &root()
            .join("docs/samples/submissions")
            .join(student)
            .join(format!("{LAB}.ipynb")),
    )
}

fn bytes(nb: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(nb).unwrap()
}

/// The lab's points per exercise, from the released notebook's check cells.
fn points() -> BTreeMap<String, f64> {
    let nb = read_json(&root().join("notebooks").join(format!("{LAB}.ipynb")));
    nb["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| {
            let meta = &c["metadata"]["bpe_lab"];
            Some((
                meta["exercise"].as_str()?.to_owned(),
                meta["points"].as_f64()?,
            ))
        })
        .collect()
}

/// One participant of the Moodle class: id, full name, email.
struct Participant {
    id: u32,
    name: &'static str,
}

const CLASS: [Participant; 9] = [
    Participant {
        id: 12341,
        name: "Amara Okafor",
    },
    Participant {
        id: 12342,
        name: "Bayo Adeyemi",
    },
    Participant {
        id: 12343,
        name: "Chidi Eze",
    },
    Participant {
        id: 12344,
        name: "Dele Bello",
    },
    Participant {
        id: 12345,
        name: "Efua Mensah",
    },
    Participant {
        id: 12346,
        name: "Gyasi Boateng",
    },
    Participant {
        id: 12347,
        name: "Hana Tesfaye",
    },
    Participant {
        id: 12348,
        name: "Ife Nwosu",
    },
    Participant {
        id: 12349,
        name: "Kofi Asante",
    },
];

fn folder(p: &Participant) -> String {
    format!("{}_{}_assignsubmission_file_", p.name, p.id)
}

fn key(id: u32) -> String {
    format!("Participant {id}")
}

/// Moodle's download: every case of the guide's table (Kofi's file only when `late`).
fn download(late: bool) -> Vec<u8> {
    let [amara, bayo, chidi, dele, efua, gyasi, hana, _ife, kofi] = &CLASS;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            format!("{}/{LAB}.ipynb", folder(amara)),
            bytes(&sample("amara")),
        ),
        (
            format!("{}/{LAB}.ipynb", folder(bayo)),
            bytes(&notebook6(sample("bayo"))),
        ),
        (
            format!("{}/Copy of {LAB}.ipynb", folder(chidi)),
            bytes(&colab(sample("chidi"))),
        ),
        (
            format!("{}/{LAB}.ipynb", folder(dele)),
            bytes(&sample("dele")),
        ),
        (
            format!("{}/{LAB}.ipynb", folder(efua)),
            bytes(&vscode(sample("chidi"))),
        ),
        (
            format!("{}/{LAB} (1).ipynb", folder(efua)),
            bytes(&upgraded(sample("amara"))),
        ),
        (format!("{}/{LAB}.ipynb", folder(gyasi)), Vec::new()),
        (
            format!("{}/{LAB}.pdf", folder(hana)),
            b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n".to_vec(),
        ),
        (
            format!("__MACOSX/{}/._{LAB}.ipynb", folder(amara)),
            b"\x00\x05\x16\x07".to_vec(),
        ),
    ];
    if late {
        files.push((
            format!("{}/{LAB}.ipynb", folder(kofi)),
            bytes(&vscode(sample("amara"))),
        ));
    }
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    for (name, bytes) in files {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

/// Moodle's grading worksheet as downloaded, before any grading (`ID number` as this
/// assignment's settings show it; times in the course's zone, +01:00, with none written).
/// Kofi's time is there only once he has handed in, `late`.
fn worksheet(late: bool) -> String {
    let mut out = String::from(
        "Identifier,\"Full name\",\"ID number\",\"Email address\",Status,Grade,\"Maximum Grade\",\
         \"Grade can be changed\",\"Last modified (submission)\",\"Last modified (grade)\",\
         \"Feedback comments\"\n",
    );
    for p in &CLASS {
        let first = p.name.split(' ').next().unwrap().to_lowercase();
        let time = match p.id {
            12341 => "Thursday, 19 November 2026, 3:12 PM",
            12342 => "Friday, 20 November 2026, 11:40 PM",
            12343 => "Wednesday, 18 November 2026, 9:05 AM",
            12344 => "Friday, 20 November 2026, 10:58 PM",
            // A minute early in the course's zone; 59 minutes late if read as UTC.
            12345 => "Friday, 20 November 2026, 11:58 PM",
            12346 => "Friday, 20 November 2026, 8:00 PM",
            12347 => "Thursday, 19 November 2026, 1:30 PM",
            12349 if late => "Saturday, 21 November 2026, 6:30 PM",
            _ => "-",
        };
        let status = if time == "-" {
            "No submission"
        } else {
            "Submitted for grading"
        };
        out.push_str(&format!(
            "\"{}\",\"{}\",S{},{first}@uni.example,\"{status}\",,3.00,Yes,\"{time}\",-,\n",
            key(p.id),
            p.name,
            p.id
        ));
    }
    out
}

fn csv_rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut rows = Vec::new();
    let mut records = parse_csv(text).into_iter();
    let header = records.next().unwrap();
    for r in records {
        rows.push(header.iter().cloned().zip(r).collect());
    }
    rows
}

/// A small CSV reader for what the grader wrote (quotes doubled, fields may hold commas and
/// line breaks): the test's own, so the grader's reader is not what checks its writer.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let (mut row, mut field, mut quoted, mut was_quoted) =
        (Vec::new(), String::new(), false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => {
                quoted = true;
                was_quoted = true;
            }
            (false, ',') => {
                row.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                out.push(std::mem::take(&mut row));
                was_quoted = false;
            }
            (false, '\r') => {}
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || was_quoted || !row.is_empty() {
        row.push(field);
        out.push(row);
    }
    out
}

fn gradebook(term: &Path) -> Vec<BTreeMap<String, String>> {
    csv_rows(&fs::read_to_string(term.join("grades.csv")).unwrap())
}

fn row(rows: &[BTreeMap<String, String>], id: u32) -> &BTreeMap<String, String> {
    rows.iter()
        .find(|r| r["student"] == key(id))
        .unwrap_or_else(|| panic!("no row for {} in {rows:#?}", key(id)))
}

fn total(rows: &[BTreeMap<String, String>], id: u32) -> Option<f64> {
    let t = &row(rows, id)["total"];
    (!t.is_empty()).then(|| t.parse().unwrap())
}

#[test]
fn the_guide_tags_each_step_of_the_term_this_test_runs() {
    let guide = guide();
    let blocks = tagged_blocks(section(&guide));
    let tags: Vec<&str> = blocks.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        tags,
        [
            "release",
            "grade",
            "term/grades.adjustments.csv",
            "adjust",
            "regrade",
            "export"
        ]
    );
    for (tag, block) in &blocks {
        if !tag.starts_with("term/") {
            for command in commands(block) {
                assert_eq!(command[0], "bpe-lab", "{tag}: {command:?}");
            }
        }
    }
    // The guide's table names the class this test builds.
    for p in &CLASS {
        assert!(
            section(&guide).contains(&format!("| {} ({}) |", p.name, p.id)),
            "the guide's table has no row for {} ({})",
            p.name,
            p.id
        );
    }
    assert_eq!(
        words(r#"a --x "P 1" 'q r' """#),
        ["a", "--x", "P 1", "q r", ""]
    );
}

#[test]
fn a_whole_term_runs_as_the_guide_says_from_the_handout_to_every_lms() {
    if !sandbox_available() {
        return;
    }
    let guide = guide();
    let blocks = tagged_blocks(section(&guide));
    let dir = tempfile::tempdir().unwrap();
    let term = dir.path().join("term");
    fs::create_dir_all(&term).unwrap();
    fs::write(term.join("moodle.zip"), download(false)).unwrap();
    fs::write(term.join("worksheet.csv"), worksheet(false)).unwrap();

    let points = points();
    let max: f64 = points.values().sum();
    let merge = points["merge_pair_in_word"];
    // What each sample is decides its grade.
    let right = max;
    let wrong = 0.0;
    let unfinished = 0.0;
    let hostile = merge; // crashes in most_frequent_pair, merges right

    // 1. The student edition: notebooks without solutions, no instructor sources.
    step(&blocks, "release", &term);
    let handout = term.join("handout");
    assert!(
        handout
            .join("notebooks")
            .join(format!("{LAB}.ipynb"))
            .is_file()
    );
    assert!(
        !handout.join("instructor").exists(),
        "the handout holds no solutions"
    );

    // 2. Collect and grade.
    let said = step(&blocks, "grade", &term);
    let rows = gradebook(&term);
    assert_eq!(rows.len(), CLASS.len(), "a row per participant: {rows:#?}");
    assert_eq!(total(&rows, 12341), Some(right), "Amara: right, JupyterLab");
    assert_eq!(total(&rows, 12342), Some(wrong), "Bayo: wrong, Notebook 6");
    assert_eq!(
        total(&rows, 12343),
        Some(unfinished),
        "Chidi: unfinished, Colab"
    );
    assert!(row(&rows, 12343)["merge_pair_in_word outcome"].contains("not implemented"));
    assert_eq!(total(&rows, 12344), Some(hostile), "Dele: hostile");
    assert_eq!(
        total(&rows, 12345),
        Some(right),
        "Efua: her later upload, the right one"
    );
    assert!(row(&rows, 12345)["file"].ends_with(&format!("{LAB} (1).ipynb")));
    // A file that is no notebook is the student's doing: a 0, with the reason.
    for id in [12346, 12347] {
        assert_eq!(total(&rows, id), Some(0.0), "{id}: {:?}", row(&rows, id));
        assert!(
            row(&rows, id)["notes"].contains("not a notebook"),
            "{:?}",
            row(&rows, id)
        );
    }
    assert!(
        row(&rows, 12347)["notes"].contains("PDF"),
        "{:?}",
        row(&rows, 12347)
    );
    for id in [12348, 12349] {
        assert_eq!(total(&rows, id), None);
        assert!(
            row(&rows, id)["notes"].contains("no submission"),
            "{:?}",
            row(&rows, id)
        );
    }
    assert!(said.contains("__MACOSX"), "the junk is listed: {said}");
    assert!(
        said.contains("rows: 5 graded, 2 no submission, 2 not a notebook"),
        "{said}"
    );
    let feedback = term.join("feedback");
    let page =
        |id: u32| fs::read_to_string(feedback.join(key(id)).join(format!("{LAB}.html"))).unwrap();
    assert!(
        !page(12344).contains("<script>alert(1)"),
        "Dele's markup stays text"
    );

    // 3. Adjust: Bayo's partial credit, applied to the gradebook and shown in his feedback.
    type_in(&blocks, "grades.adjustments.csv", 0, &term);
    let before_adjusting = gradebook(&term);
    step(&blocks, "adjust", &term);
    let rows = gradebook(&term);
    assert_eq!(total(&rows, 12342), Some(wrong + 1.0), "Bayo's point");
    assert!(
        page(12342).contains("right idea, one case off"),
        "the reason is in his feedback"
    );
    for p in CLASS.iter().filter(|p| p.id != 12342) {
        assert_eq!(row(&rows, p.id), row(&before_adjusting, p.id), "{}", p.name);
    }

    // Every time came from the worksheet, read in the due date's zone: nobody is late yet.
    for p in CLASS.iter().filter(|p| ![12348, 12349].contains(&p.id)) {
        let r = row(&rows, p.id);
        assert!(!r["submitted_at"].is_empty(), "{}: {r:?}", p.name);
        assert_eq!(
            (r["late_by"].as_str(), r["late_penalty"].as_str()),
            ("", "0"),
            "{r:?}"
        );
    }
    assert_eq!(row(&rows, 12345)["submitted_at"], "2026-11-20T22:58:00Z");

    // 4. Kofi's late file and his time, in a new download; the late policy; he alone is
    // regraded.
    fs::write(term.join("moodle.zip"), download(true)).unwrap();
    let downloaded_worksheet = worksheet(true);
    fs::write(term.join("worksheet.csv"), &downloaded_worksheet).unwrap();
    let before = fs::read_to_string(term.join("grades.csv")).unwrap();
    step(&blocks, "regrade", &term);
    let after = fs::read_to_string(term.join("grades.csv")).unwrap();
    let rows = gradebook(&term);
    assert_eq!(
        rows.len(),
        CLASS.len(),
        "Kofi's row is filled, not added: {rows:#?}"
    );
    // 18 h 31 m late is one started day: 10 % of the maximum.
    let kofi_total = right - 0.1 * max;
    let kofi = row(&rows, 12349);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    assert!(
        close(total(&rows, 12349).unwrap(), kofi_total),
        "Kofi: {kofi:?}"
    );
    assert_eq!(kofi["submitted_at"], "2026-11-21T17:30:00Z", "{kofi:?}");
    assert_eq!(kofi["late_by"], "18h 31m", "{kofi:?}");
    assert!(close(kofi["late_penalty"].parse().unwrap(), 0.1 * max));
    assert!(
        page(12349).contains("18h 31m after the due date"),
        "his feedback says how late"
    );
    let others = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with(&key(12349)))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        others(&after),
        others(&before),
        "every other row byte for byte"
    );

    // 5. Every LMS's file, from the same adjusted grades.
    step(&blocks, "export", &term);
    let rows = gradebook(&term);
    let expected: BTreeMap<u32, Option<f64>> =
        CLASS.iter().map(|p| (p.id, total(&rows, p.id))).collect();
    // Moodle's worksheet: its rows and columns as downloaded, Grade and Feedback comments filled.
    let sheet = csv_rows(&fs::read_to_string(term.join("worksheet.csv")).unwrap());
    let original = csv_rows(&downloaded_worksheet);
    assert_eq!(sheet.len(), original.len());
    for (filled, was) in sheet.iter().zip(&original) {
        assert_eq!(
            filled.keys().collect::<Vec<_>>(),
            was.keys().collect::<Vec<_>>(),
            "Moodle's columns kept"
        );
        for column in was
            .keys()
            .filter(|c| *c != "Grade" && *c != "Feedback comments")
        {
            assert_eq!(filled[column], was[column], "{column} kept");
        }
        let id: u32 = filled["Identifier"]["Participant ".len()..]
            .parse()
            .unwrap();
        let grade = &filled["Grade"];
        match expected[&id] {
            Some(t) => assert_eq!(grade.parse::<f64>().unwrap(), t, "{id}"),
            None => assert_eq!(grade, "", "{id}: no grade for Moodle"),
        }
        assert!(!filled["Feedback comments"].is_empty(), "{id}: a comment");
    }
    let bayo = sheet
        .iter()
        .find(|r| r["Identifier"] == key(12342))
        .unwrap();
    assert!(bayo["Feedback comments"].contains("right idea"), "{bayo:?}");
    let dele = sheet
        .iter()
        .find(|r| r["Identifier"] == key(12344))
        .unwrap();
    assert!(
        !dele["Feedback comments"].replace("<br>", "").contains('<'),
        "{dele:?}"
    );
    // Moodle's feedback zip: a folder per participant named as Moodle names them.
    let mut zip =
        zip::ZipArchive::new(fs::File::open(term.join("moodle-feedback.zip")).unwrap()).unwrap();
    let names: Vec<String> = (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().unwrap().into_owned())
        .collect();
    for p in &CLASS {
        let prefix = format!("{}/", folder(p));
        assert!(
            names.iter().any(|n| n.starts_with(&prefix)),
            "{prefix} in {names:?}"
        );
    }
    let mut amara = String::new();
    zip.by_name(&format!("{}/{LAB}.html", folder(&CLASS[0])))
        .unwrap()
        .read_to_string(&mut amara)
        .unwrap();
    assert_eq!(amara, page(12341), "the feedback page the student reads");
    // Canvas's import: a row per student, the adjusted total in the assignment's column.
    let canvas = csv_rows(&fs::read_to_string(term.join("canvas.csv")).unwrap());
    for p in &CLASS {
        let r = canvas.iter().find(|r| r["Student"] == key(p.id)).unwrap();
        let cell = &r[LAB];
        assert_eq!(
            (!cell.is_empty()).then(|| cell.parse::<f64>().unwrap()),
            expected[&p.id],
            "{}",
            p.name
        );
    }
    // nbgrader's export: the same scores.
    let nbgrader = csv_rows(&fs::read_to_string(term.join("nbgrader.csv")).unwrap());
    let kofi = nbgrader
        .iter()
        .find(|r| r["student_id"] == key(12349))
        .unwrap();
    assert!(
        close(kofi["score"].parse().unwrap(), kofi_total),
        "{kofi:?}"
    );

    // Gradescope's autograder for the lab (tests/suite/grade_gradescope_bundle.rs runs one).
    let mut autograder =
        zip::ZipArchive::new(fs::File::open(term.join("autograder.zip")).unwrap()).unwrap();
    for script in ["setup.sh", "run_autograder"] {
        assert!(autograder.by_name(script).is_ok(), "{script}");
    }

    // 6. Feedback for every student who handed something in, and the class summary.
    for id in [12341, 12342, 12343, 12344, 12345, 12349] {
        assert!(page(id).starts_with("<!DOCTYPE html>"), "{id}");
    }
    assert!(feedback.join(format!("summary-{LAB}.html")).is_file());
}
