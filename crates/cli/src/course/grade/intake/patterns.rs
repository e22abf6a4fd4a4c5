//! Whose a file is, from its path in the download: the names Moodle, Canvas, Blackboard and
//! nbgrader give submissions, the instructor's own `--name-pattern`, else the layout the grader
//! always read (a folder per student, or a file named after the student).
//!
//! The LMS names, as their downloads write them:
//! - Moodle: `Full Name_12345_assignsubmission_file_ORIGINAL` — a folder per student ("download
//!   submissions in folders") or a file; the participant id is the student, the name is shown.
//!   A second upload of the same name gets ` (1)` before the extension.
//! - Canvas: `loginid_12345_67890_original.ipynb`, with `_LATE` after the login id when late;
//!   a re-submission of the same name gets `-1`, `-2` before the extension.
//! - Blackboard: `Assignment_username_attempt_2026-11-20-14-03-22_original.ipynb`, beside the
//!   receipt `Assignment_username_attempt_2026-11-20-14-03-22.txt`.
//! - nbgrader's exchange inbox: `student+assignment+timestamp[+random]/…`.

use super::junk::Skip;
use super::latest::Moment;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::LazyLock;

/// A learning management system (or nbgrader) whose download names the grader reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Lms {
    Moodle,
    Canvas,
    Blackboard,
    Nbgrader,
}

impl fmt::Display for Lms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Lms::Moodle => "Moodle",
            Lms::Canvas => "Canvas",
            Lms::Blackboard => "Blackboard",
            Lms::Nbgrader => "nbgrader",
        })
    }
}

/// How a file's student was told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Format {
    Lms(Lms),
    /// `--name-pattern`.
    NamePattern,
    /// A folder per student, or a file named after the student.
    Layout,
}

/// One name on a file's path under the path given, and whether it is a zip opened in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) name: String,
    pub(crate) archive: bool,
}

/// Whose a file is, and what its name says about when it was handed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The key the gradebook and the feedback folder use.
    pub(crate) student: String,
    /// The name to show, when the download gives one (Moodle's full name).
    pub(crate) name: Option<String>,
    /// Other ids of the same student in the name (Canvas's user id), for the roster.
    pub(crate) aliases: Vec<String>,
    pub(crate) format: Format,
    /// The submission time the name gives (Blackboard, nbgrader, `--name-pattern`).
    pub(crate) timestamp: Option<Moment>,
    /// The LMS's re-submission number (Moodle ` (1)`, Canvas `-1`): higher is later.
    pub(crate) version: Option<(Lms, u32)>,
    /// The LMS marked it late (Canvas's `_LATE`).
    pub(crate) late: Option<Lms>,
    /// The file's own name without the LMS's additions, to tell which lab it is.
    pub(crate) original: String,
}

/// An instructor's `--name-pattern`: a regular expression with a named group `student`
/// (nbgrader's `student_id` is accepted too) and optionally `timestamp`, matched against the
/// file's path under the path given (`folder/file`).
#[derive(Debug, Clone)]
pub(crate) struct NamePattern {
    regex: Regex,
    student_group: &'static str,
}

/// Why a `--name-pattern` cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NamePatternError {
    Invalid { pattern: String, problem: String },
    NoStudentGroup { pattern: String },
}

impl fmt::Display for NamePatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamePatternError::Invalid { pattern, problem } => {
                write!(f, "{pattern:?} is not a regular expression: {problem}")
            }
            NamePatternError::NoStudentGroup { pattern } => write!(
                f,
                "{pattern:?} has no named group for the student: write (?P<student>…), and \
                 (?P<timestamp>…) for the submission time if the name has one"
            ),
        }
    }
}

impl std::str::FromStr for NamePattern {
    type Err = NamePatternError;

    fn from_str(pattern: &str) -> Result<NamePattern, NamePatternError> {
        let regex = Regex::new(pattern).map_err(|e| NamePatternError::Invalid {
            pattern: pattern.to_owned(),
            problem: e.to_string(),
        })?;
        let names: Vec<&str> = regex.capture_names().flatten().collect();
        let student_group = ["student", "student_id"]
            .into_iter()
            .find(|g| names.contains(g))
            .ok_or_else(|| NamePatternError::NoStudentGroup {
                pattern: pattern.to_owned(),
            })?;
        Ok(NamePattern {
            regex,
            student_group,
        })
    }
}

static MOODLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<name>.+)_(?P<id>[0-9]+)_assignsubmission_[a-z]+_(?P<original>.*)$").unwrap()
});
static CANVAS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<login>[^_]+?)(?P<late>_(?i:late))?_(?P<user>[0-9]+)_(?P<submission>[0-9]+)_(?P<original>.+)$")
        .unwrap()
});
static BLACKBOARD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<assignment>.+)_(?P<user>[^_]+)_attempt_(?P<time>[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9]{2})(?:_(?P<original>.+)|(?P<receipt>\.txt))$",
    )
    .unwrap()
});
static NBGRADER_INBOX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<student>[^+]+)\+(?P<assignment>[^+]+)\+(?P<time>[^+]+)(?:\+[^+]*)?$").unwrap()
});
/// Moodle's second upload of one name: `name (1).ext`.
static MOODLE_COPY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<stem>.+) \((?P<n>[0-9]{1,6})\)(?P<ext>\.[^.]*)?$").unwrap());
/// Canvas's re-submission of one name: `name-1.ext`.
static CANVAS_COPY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?P<stem>.+)-(?P<n>[0-9]{1,6})(?P<ext>\.[^.]*)?$").unwrap());

/// Whose the file at `parts` is; `None` from a pattern that does not apply.
pub(crate) fn owner(parts: &[Part], pattern: Option<&NamePattern>) -> Result<Owner, Skip> {
    let Some(last) = parts.last() else {
        return Err(Skip::Loose);
    };
    if let Some(pattern) = pattern {
        return by_pattern(parts, pattern);
    }
    let top = &parts[0];
    if let Some(owner) = moodle(top, last, parts.len()) {
        return owner;
    }
    if let Some(owner) = canvas(top, last, parts.len()) {
        return owner;
    }
    if let Some(owner) = blackboard(top, last, parts.len()) {
        return owner;
    }
    if parts.len() > 1
        && !top.archive
        && let Some(c) = NBGRADER_INBOX.captures(&top.name)
    {
        return Ok(Owner {
            timestamp: Moment::parse(&c["time"]),
            ..layout(safe(&c["student"])?, Format::Lms(Lms::Nbgrader), &last.name)
        });
    }
    let student = if parts.len() > 1 {
        strip_zip(top)
    } else {
        stem(&top.name).to_owned()
    };
    Ok(layout(safe(&student)?, Format::Layout, &last.name))
}

fn layout(student: String, format: Format, file: &str) -> Owner {
    Owner {
        student,
        name: None,
        aliases: Vec::new(),
        format,
        timestamp: None,
        version: None,
        late: None,
        original: file.to_owned(),
    }
}

/// The file's own name: the part after the LMS's prefix when the prefix is on the file itself,
/// else the file's name in the student's folder.
fn original_of<'a>(prefixed: &'a str, last: &'a Part, depth: usize) -> &'a str {
    if depth == 1 { prefixed } else { &last.name }
}

fn moodle(top: &Part, last: &Part, depth: usize) -> Option<Result<Owner, Skip>> {
    let c = MOODLE.captures(&top.name)?;
    let original = original_of(c.name("original").map_or("", |m| m.as_str()), last, depth);
    let (original, version) = resubmission(original, &MOODLE_COPY, Lms::Moodle);
    Some(safe(&c["id"]).map(|student| Owner {
        name: Some(c["name"].trim().to_owned()),
        version,
        original,
        ..layout(student, Format::Lms(Lms::Moodle), "")
    }))
}

fn canvas(top: &Part, last: &Part, depth: usize) -> Option<Result<Owner, Skip>> {
    let c = CANVAS.captures(&top.name)?;
    let original = original_of(&c["original"], last, depth);
    let (original, version) = resubmission(original, &CANVAS_COPY, Lms::Canvas);
    Some(safe(&c["login"]).map(|student| Owner {
        aliases: vec![c["user"].to_owned()],
        late: c.name("late").map(|_| Lms::Canvas),
        version,
        original,
        ..layout(student, Format::Lms(Lms::Canvas), "")
    }))
}

fn blackboard(top: &Part, last: &Part, depth: usize) -> Option<Result<Owner, Skip>> {
    let c = BLACKBOARD.captures(&top.name)?;
    if c.name("receipt").is_some() && depth == 1 {
        return Some(Err(Skip::Receipt {
            lms: Lms::Blackboard.to_string(),
        }));
    }
    let original = original_of(c.name("original").map_or("", |m| m.as_str()), last, depth);
    Some(safe(&c["user"]).map(|student| Owner {
        timestamp: Moment::parse(&c["time"]),
        ..layout(student, Format::Lms(Lms::Blackboard), original)
    }))
}

fn by_pattern(parts: &[Part], pattern: &NamePattern) -> Result<Owner, Skip> {
    let path: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    let path = path.join("/");
    let c = pattern.regex.captures(&path).ok_or(Skip::NoMatch)?;
    let student = c
        .name(pattern.student_group)
        .map_or("", |m| m.as_str())
        .to_owned();
    let last = &parts[parts.len() - 1].name;
    Ok(Owner {
        timestamp: c.name("timestamp").and_then(|m| Moment::parse(m.as_str())),
        ..layout(safe(&student)?, Format::NamePattern, last)
    })
}

/// The name without the LMS's re-submission number, and the number.
fn resubmission(name: &str, copy: &Regex, lms: Lms) -> (String, Option<(Lms, u32)>) {
    match copy.captures(name) {
        Some(c) => {
            let ext = c.name("ext").map_or("", |m| m.as_str());
            let n = c["n"].parse().unwrap_or(0);
            (format!("{}{ext}", &c["stem"]), Some((lms, n)))
        }
        None => (name.to_owned(), None),
    }
}

/// A student key that can be a folder name: separators and control characters become `_`;
/// nothing, `.` and `..` are refused.
fn safe(student: &str) -> Result<String, Skip> {
    let cleaned: String = student
        .trim()
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if cleaned.is_empty() || cleaned == "." || cleaned == ".." {
        return Err(Skip::NoStudent {
            given: student.to_owned(),
        });
    }
    Ok(cleaned)
}

/// A zip's name without `.zip`.
fn strip_zip(part: &Part) -> String {
    let name = part.name.as_str();
    if part.archive && name.to_ascii_lowercase().ends_with(".zip") {
        name[..name.len() - 4].to_owned()
    } else {
        name.to_owned()
    }
}

/// A file name without its last extension.
pub(crate) fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(0) | None => name,
        Some(i) => &name[..i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(path: &str) -> Vec<Part> {
        path.split('/')
            .map(|name| Part {
                name: name.to_owned(),
                archive: name.ends_with(".zip"),
            })
            .collect()
    }

    fn who(path: &str) -> Owner {
        owner(&parts(path), None).unwrap()
    }

    #[test]
    fn moodle_names_give_the_participant_and_the_name_in_files_and_folders() {
        let flat = who("Ana María Núñez_12347_assignsubmission_file_03-merge (1).ipynb");
        assert_eq!(flat.student, "12347");
        assert_eq!(flat.name.as_deref(), Some("Ana María Núñez"));
        assert_eq!(flat.format, Format::Lms(Lms::Moodle));
        assert_eq!(flat.original, "03-merge.ipynb");
        assert_eq!(flat.version, Some((Lms::Moodle, 1)));
        let folder = who("Bo Li_12348_assignsubmission_file_/03-merge.ipynb");
        assert_eq!((folder.student.as_str(), folder.version), ("12348", None));
        assert_eq!(folder.original, "03-merge.ipynb");
    }

    #[test]
    fn canvas_names_give_the_login_the_late_mark_and_the_resubmission() {
        let late = who("anamaria_LATE_12345_67890_03-merge-1.ipynb");
        assert_eq!(late.student, "anamaria");
        assert_eq!(late.aliases, ["12345"]);
        assert_eq!(late.late, Some(Lms::Canvas));
        assert_eq!(late.version, Some((Lms::Canvas, 1)));
        assert_eq!(late.original, "03-merge.ipynb");
        let first = who("anamaria_12345_67880_03-merge.ipynb");
        assert_eq!((first.late, first.version), (None, None));
        assert_eq!(first.original, "03-merge.ipynb");
    }

    #[test]
    fn blackboard_names_give_the_user_and_the_time_and_receipts_are_skipped() {
        let b = who("Lab 3_ana_attempt_2026-11-20-14-03-22_03-merge.ipynb");
        assert_eq!(b.student, "ana");
        assert_eq!(b.original, "03-merge.ipynb");
        assert_eq!(b.timestamp, Moment::parse("2026-11-20 14:03:22"));
        assert_eq!(
            owner(&parts("Lab 3_ana_attempt_2026-11-20-14-03-22.txt"), None),
            Err(Skip::Receipt {
                lms: "Blackboard".into()
            })
        );
    }

    #[test]
    fn the_layout_and_nbgrader_give_the_first_folder_or_the_file_name() {
        assert_eq!(who("ana/03-merge.ipynb").student, "ana");
        assert_eq!(who("ana/03-merge/03-merge.ipynb").student, "ana");
        assert_eq!(who("bo.ipynb").student, "bo");
        assert_eq!(who("cy.zip/work/03-merge.ipynb").student, "cy");
        let inbox = who("ana+03-merge+2026-11-20 14:03:22.000 UTC/03-merge.ipynb");
        assert_eq!(inbox.student, "ana");
        assert_eq!(inbox.format, Format::Lms(Lms::Nbgrader));
        assert!(inbox.timestamp.is_some());
    }

    #[test]
    fn a_name_pattern_needs_a_student_group_and_gives_the_time() {
        let p: NamePattern = r"(?P<student>[a-z]+)-(?P<timestamp>\d{8})\.ipynb$"
            .parse()
            .unwrap();
        let o = owner(&parts("x/ana-20261120.ipynb"), Some(&p)).unwrap();
        assert_eq!((o.student.as_str(), o.format), ("ana", Format::NamePattern));
        assert_eq!(o.timestamp, Moment::parse("20261120"));
        assert_eq!(owner(&parts("README.md"), Some(&p)), Err(Skip::NoMatch));
        assert!(matches!(
            "(?P<who>x)".parse::<NamePattern>(),
            Err(NamePatternError::NoStudentGroup { .. })
        ));
        assert!(matches!(
            "(".parse::<NamePattern>(),
            Err(NamePatternError::Invalid { .. })
        ));
        // A student that would climb out of the feedback folder is no student.
        let climb: NamePattern = r"^(?P<student>.*)/x\.ipynb$".parse().unwrap();
        assert_eq!(
            owner(&parts("../x.ipynb"), Some(&climb)),
            Err(Skip::NoStudent { given: "..".into() })
        );
    }
}
