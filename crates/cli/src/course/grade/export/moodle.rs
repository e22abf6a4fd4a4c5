//! Moodle's two ways back in for an assignment's grades: the offline grading worksheet (a CSV
//! Moodle exports under "Download grading worksheet" and re-imports under "Upload grading
//! worksheet", matching rows on its `Identifier` column, `Participant 12345`) and a zip of
//! feedback files ("Upload multiple feedback files in a zip"), one folder per participant named
//! as Moodle's own download names them, `Full Name_12345_assignsubmission_file_`.
//!
//! The worksheet's columns depend on the assignment's settings (an `ID number`, a `Group`, an
//! `Online text` column come and go), so a worksheet the instructor downloaded is the template:
//! its header, rows and every other cell are kept, and only `Grade` and `Feedback comments` are
//! filled, for the rows whose participant was graded. Without a download the worksheet is
//! written with Moodle's usual columns, a row per student. A participant is the gradebook's
//! `student` when it is a Moodle participant id (the download's file names give it, a roster
//! keyed by Moodle's `Identifier` too), else the worksheet row with the same full name or email.
//!
//! Moodle shows feedback comments as HTML, so they are escaped here: what a student's code
//! printed or named never becomes markup in Moodle's pages.

use super::super::csv_records::records;
use super::super::feedback::feedback_html;
use super::super::gradebook::{csv, number};
use super::super::outcome::outcome;
use super::super::record::{Grade, Outcome};
use bpe_lab::lab::display::escape;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The worksheet's columns when no downloaded one is given: Moodle's, for an assignment with
/// feedback comments.
pub(crate) const WORKSHEET_COLUMNS: [&str; 10] = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Last modified (grade)",
    "Feedback comments",
];

/// The end of each feedback folder's name in Moodle's layout.
const FOLDER_SUFFIX: &str = "_assignsubmission_file_";

/// Where the Moodle outputs go (`--moodle-worksheet`, `--moodle-feedback-zip`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct MoodleOutputs {
    /// The worksheet: filled in place when it is a worksheet Moodle gave, else written anew.
    pub(crate) worksheet: Option<PathBuf>,
    pub(crate) feedback_zip: Option<PathBuf>,
}

/// A worksheet read, to be filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Worksheet {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    identifier: usize,
    grade: usize,
    feedback: usize,
    full_name: Option<usize>,
    email: Option<usize>,
    max: Option<usize>,
    /// Whether it came from Moodle (then no row is added: Moodle knows only its participants).
    downloaded: bool,
}

/// Why a downloaded worksheet cannot be filled (checked before anything is written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WorksheetError {
    Unreadable {
        path: PathBuf,
        problem: String,
    },
    NotCsv {
        path: PathBuf,
        line: usize,
        problem: &'static str,
    },
    /// A column Moodle's worksheet always has for grading with feedback comments is missing.
    MissingColumn {
        path: PathBuf,
        column: &'static str,
        header: Vec<String>,
    },
}

impl fmt::Display for WorksheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorksheetError::Unreadable { path, problem } => {
                write!(f, "{}: {problem}", path.display())
            }
            WorksheetError::NotCsv {
                path,
                line,
                problem,
            } => write!(f, "{}: line {line}: {problem}", path.display()),
            WorksheetError::MissingColumn {
                path,
                column,
                header,
            } => write!(
                f,
                "{}: no column {column:?} among {header:?}; download the worksheet from the \
                 assignment's \"Download grading worksheet\" with feedback comments enabled, or \
                 name a file that does not exist yet to have one written",
                path.display()
            ),
        }
    }
}

impl std::error::Error for WorksheetError {}

fn find(header: &[String], name: &str) -> Option<usize> {
    header
        .iter()
        .position(|h| h.trim().eq_ignore_ascii_case(name))
}

impl Worksheet {
    /// The worksheet at `path`: the one Moodle gave when the file exists, else an empty one
    /// with Moodle's usual columns.
    pub(crate) fn open(path: &Path) -> Result<Worksheet, WorksheetError> {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Worksheet::fresh()),
            Err(e) => {
                return Err(WorksheetError::Unreadable {
                    path: path.to_owned(),
                    problem: bpe_lab::files::describe_io_error(&e),
                });
            }
        };
        Worksheet::parse(path, &text)
    }

    fn fresh() -> Worksheet {
        let header: Vec<String> = WORKSHEET_COLUMNS.iter().map(|c| (*c).to_owned()).collect();
        let at = |name| find(&header, name);
        Worksheet {
            identifier: 0,
            grade: 4,
            feedback: 9,
            full_name: at("Full name"),
            email: at("Email address"),
            max: at("Maximum Grade"),
            header,
            rows: Vec::new(),
            downloaded: false,
        }
    }

    fn parse(path: &Path, text: &str) -> Result<Worksheet, WorksheetError> {
        let mut recs = records(text)
            .map_err(|p| WorksheetError::NotCsv {
                path: path.to_owned(),
                line: p.line,
                problem: p.problem,
            })?
            .into_iter()
            .filter(|r| !r.is_blank());
        let header =
            recs.next()
                .map(|r| r.fields)
                .ok_or_else(|| WorksheetError::MissingColumn {
                    path: path.to_owned(),
                    column: "Identifier",
                    header: Vec::new(),
                })?;
        let need = |column: &'static str| {
            find(&header, column).ok_or_else(|| WorksheetError::MissingColumn {
                path: path.to_owned(),
                column,
                header: header.clone(),
            })
        };
        let (identifier, grade, feedback) = (
            need("Identifier")?,
            need("Grade")?,
            need("Feedback comments")?,
        );
        let width = header.len();
        let rows = recs
            .map(|r| {
                let mut fields = r.fields;
                fields.resize(width.max(fields.len()), String::new());
                fields
            })
            .collect();
        Ok(Worksheet {
            identifier,
            grade,
            feedback,
            full_name: find(&header, "Full name"),
            email: find(&header, "Email address"),
            max: find(&header, "Maximum Grade"),
            header,
            rows,
            downloaded: true,
        })
    }

    /// The worksheet with `grades` (adjusted) filled in.
    pub(crate) fn filled(&self, grades: &[Grade]) -> String {
        let mut rows = self.rows.clone();
        let mut used = vec![false; grades.len()];
        for row in &mut rows {
            let id = participant_id(&row[self.identifier]);
            let mine: Vec<usize> = (0..grades.len())
                .filter(|&i| {
                    let g = &grades[i];
                    id.as_deref()
                        .is_some_and(|id| participant_id(&g.student).as_deref() == Some(id))
                        || self
                            .full_name
                            .is_some_and(|c| g.name.as_deref().is_some_and(|n| same(n, &row[c])))
                        || self.email.is_some_and(|c| same(&g.student, &row[c]))
                })
                .collect();
            if mine.is_empty() {
                continue;
            }
            for &i in &mine {
                used[i] = true;
            }
            let chosen: Vec<&Grade> = mine.iter().map(|&i| &grades[i]).collect();
            self.fill_row(row, &chosen);
        }
        if !self.downloaded {
            let mut students: Vec<&str> = Vec::new();
            for (i, g) in grades.iter().enumerate() {
                if !used[i] && !students.contains(&g.student.as_str()) {
                    students.push(&g.student);
                }
            }
            for student in students {
                let theirs: Vec<&Grade> = grades.iter().filter(|g| g.student == student).collect();
                let mut row = vec![String::new(); self.header.len()];
                row[self.identifier] = match participant_id(student) {
                    Some(id) => format!("Participant {id}"),
                    None => student.to_owned(),
                };
                if let Some(c) = self.full_name {
                    row[c] = theirs[0].name.clone().unwrap_or_else(|| student.to_owned());
                }
                if let Some(c) = self.max {
                    row[c] = number(theirs.iter().map(|g| g.max).sum());
                }
                self.fill_row(&mut row, &theirs);
                rows.push(row);
            }
        }
        let mut out = String::new();
        for line in std::iter::once(&self.header).chain(rows.iter()) {
            let cells: Vec<String> = line.iter().map(|c| csv(c)).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    fn fill_row(&self, row: &mut [String], grades: &[&Grade]) {
        let graded: Vec<&&Grade> = grades
            .iter()
            .filter(|g| g.outcome() != Outcome::NoSubmission)
            .collect();
        // Who handed nothing in keeps an empty grade: Moodle leaves it ungraded.
        row[self.grade] = if graded.is_empty() {
            String::new()
        } else {
            number(graded.iter().map(|g| g.total).sum())
        };
        let comments: Vec<String> = grades.iter().map(|g| comment(g)).collect();
        row[self.feedback] = comments.join("<br>");
    }
}

/// The digits of a Moodle participant id: `12345` or `Participant 12345`.
fn participant_id(value: &str) -> Option<String> {
    let v = value.trim();
    let digits = v.strip_prefix("Participant").map_or(v, str::trim);
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| digits.to_owned())
}

fn same(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    !a.trim().is_empty() && norm(a) == norm(b)
}

/// A grade as Moodle's feedback comment (HTML, escaped): the score, each exercise's outcome,
/// the adjustments and the notes.
pub(crate) fn comment(g: &Grade) -> String {
    if g.outcome() == Outcome::NoSubmission {
        return "No submission received.".to_owned();
    }
    let mut parts = Vec::new();
    match &g.lab {
        Some(lab) => parts.push(format!("{lab}: {} / {}", number(g.total), number(g.max))),
        None => parts.push(format!("{}: not graded", g.file.display())),
    }
    for e in &g.exercises {
        parts.push(format!("{}: {}", e.exercise.name(), outcome(e)));
    }
    for a in &g.adjustments {
        parts.push(format!("adjusted: {a}"));
    }
    let notes = g.notes_line();
    if !notes.is_empty() {
        parts.push(format!("notes: {notes}"));
    }
    parts
        .iter()
        .map(|p| escape(p))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// The feedback-files zip: a folder per participant, `Full Name_<id>_assignsubmission_file_`,
/// holding each of their labs' feedback page (`<lab>.html`; `feedback.html` for who handed
/// nothing in). A student with no Moodle participant id is named by the gradebook's `student`.
pub(crate) fn feedback_zip(grades: &[Grade]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut written: Vec<String> = Vec::new();
    for g in grades {
        let id = participant_id(&g.student).unwrap_or_else(|| g.student.clone());
        let name = g.name.clone().unwrap_or_else(|| g.student.clone());
        // Moodle splits the folder's name on `_`; a name holding one is still read by its id.
        let folder = format!("{}_{id}{FOLDER_SUFFIX}", clean(&name));
        let file = match &g.lab {
            Some(lab) => format!("{lab}.html"),
            None => "feedback.html".to_owned(),
        };
        let entry = format!("{folder}/{}", clean(&file));
        if written.contains(&entry) {
            continue;
        }
        zip.start_file(entry.as_str(), options)
            .expect("a zip in memory takes any entry");
        zip.write_all(feedback_html(g).as_bytes())
            .expect("a zip in memory takes any bytes");
        written.push(entry);
    }
    zip.finish().expect("a zip in memory finishes");
    out.into_inner()
}

/// A name as a path component: no separators, no leading dots.
fn clean(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | '\0') || c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect();
    s.trim_start_matches('.').trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::record::ExerciseGrade;
    use crate::course::judge::Verdict;
    use bpe_lab::lab::check::{Exercise, Status};
    use std::io::Read;

    fn graded(student: &str, name: Option<&str>, total: f64) -> Grade {
        let mut g = Grade::empty(student, PathBuf::from(format!("s/{student}.ipynb")));
        g.name = name.map(str::to_owned);
        g.lab = Some("03-merge".into());
        g.max = 3.0;
        g.total = total;
        g.exercises = vec![ExerciseGrade {
            exercise: Exercise::MergePairInWord.into(),
            points: total,
            max_points: 3.0,
            verdict: Verdict::Checked(if total > 0.0 {
                Status::Passed
            } else {
                Status::Panicked
            }),
            message: "m".into(),
            details: None,
            printed: "<script>alert(1)</script>".into(),
        }];
        g
    }

    fn rows(text: &str) -> Vec<Vec<String>> {
        records(text)
            .unwrap()
            .into_iter()
            .map(|r| r.fields)
            .collect()
    }

    #[test]
    fn a_downloaded_worksheet_keeps_its_columns_and_rows_and_gets_grades_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("worksheet.csv");
        // As Moodle writes it, with an `ID number` column this assignment's settings add.
        std::fs::write(
            &path,
            "\u{feff}Identifier,\"Full name\",\"ID number\",\"Email address\",Status,Grade,\
             \"Maximum Grade\",\"Grade can be changed\",\"Last modified (submission)\",\
             \"Last modified (grade)\",\"Feedback comments\"\r\n\
             \"Participant 12345\",\"Ana María Núñez\",A1,ana@uni.edu,\"Submitted for grading\",,\
             3.00,Yes,\"Friday, 20 November 2026, 2:03 PM\",-,\r\n\
             \"Participant 12346\",\"Bo Li\",B2,bo@uni.edu,\"No submission\",,3.00,Yes,-,-,\r\n\
             \"Participant 12399\",\"Cy Ode\",C3,cy@uni.edu,\"No submission\",,3.00,Yes,-,-,\r\n",
        )
        .unwrap();
        let sheet = Worksheet::open(&path).unwrap();
        let ana = graded("12345", Some("Ana María Núñez"), 2.5);
        let bo = Grade::no_submission("12346", Some("Bo Li".into()));
        let stranger = graded("zed", None, 3.0);
        let out = rows(&sheet.filled(&[ana, bo, stranger]));
        assert_eq!(
            out.len(),
            4,
            "the header and Moodle's three rows, none added"
        );
        assert_eq!(out[0][2], "ID number");
        assert_eq!(out[1][0], "Participant 12345");
        assert_eq!(out[1][5], "2.5", "ana's grade");
        assert_eq!(
            out[1][8], "Friday, 20 November 2026, 2:03 PM",
            "kept as Moodle wrote it"
        );
        assert!(
            out[1][10].starts_with("03-merge: 2.5 / 3<br>"),
            "{}",
            out[1][10]
        );
        assert_eq!(out[2][5], "", "who handed nothing in stays ungraded");
        assert_eq!(out[2][10], "No submission received.");
        assert_eq!(
            (out[3][5].as_str(), out[3][10].as_str()),
            ("", ""),
            "cy: untouched"
        );
    }

    #[test]
    fn without_a_download_a_worksheet_with_moodles_columns_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = Worksheet::open(&dir.path().join("new.csv")).unwrap();
        let mut hostile = graded("12345", Some("Ana, \"the\" <b>best</b>"), 0.0);
        hostile.exercises[0].message = "<img src=x>".into();
        let out = rows(&sheet.filled(&[hostile]));
        assert_eq!(out[0], WORKSHEET_COLUMNS.map(str::to_owned).to_vec());
        assert_eq!(out[1][0], "Participant 12345");
        assert_eq!(
            out[1][1], "Ana, \"the\" <b>best</b>",
            "a name read back whole"
        );
        assert_eq!(out[1][4], "0");
        assert_eq!(out[1][5], "3");
        assert!(
            !out[1][9].replace("<br>", "").contains('<'),
            "{}",
            out[1][9]
        );
        assert!(
            out[1][9].contains("merge_pair_in_word: panicked"),
            "{}",
            out[1][9]
        );
    }

    #[test]
    fn a_worksheet_without_moodles_grading_columns_is_refused_naming_the_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.csv");
        std::fs::write(&path, "Identifier,Full name,Grade\nParticipant 1,A,\n").unwrap();
        let e = Worksheet::open(&path).unwrap_err();
        assert!(matches!(
            &e,
            WorksheetError::MissingColumn {
                column: "Feedback comments",
                ..
            }
        ));
        assert!(e.to_string().contains("w.csv"), "{e}");
    }

    #[test]
    fn the_feedback_zip_has_a_folder_per_participant_as_moodle_names_them() {
        let ana = graded("12345", Some("Ana María Núñez"), 3.0);
        let bo = Grade::no_submission("12346", Some("Bo/Li".into()));
        let bytes = feedback_zip(&[ana, bo]);
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut names: Vec<String> = (0..zip.len())
            .map(|i| zip.by_index(i).unwrap().name().unwrap().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "Ana María Núñez_12345_assignsubmission_file_/03-merge.html",
                "Bo Li_12346_assignsubmission_file_/feedback.html",
            ]
        );
        let mut page = String::new();
        zip.by_name("Ana María Núñez_12345_assignsubmission_file_/03-merge.html")
            .unwrap()
            .read_to_string(&mut page)
            .unwrap();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("&lt;script&gt;") && !page.contains("<script>"));
    }
}
