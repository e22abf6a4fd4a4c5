//! `--roster FILE`: the class list, a CSV file with a header, as an LMS or a registrar exports
//! it. Columns are found by their header in the common spellings (an id, a name — or first and
//! last name —, an email); the key (the gradebook's `student`) is the first id column, else
//! the email, else the name, and the run says which. Every student on it gets a row; a
//! submission is matched by any id or email its file name gives, else by the name.

use super::latest::Moment;
use std::fmt;
use std::path::{Path, PathBuf};

/// One student of the roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RosterStudent {
    /// The value of the key column, as written.
    pub(crate) key: String,
    pub(crate) name: Option<String>,
    /// Every id and email of the row, normalized, for matching.
    ids: Vec<String>,
    /// The name, normalized, for matching when no id matches.
    match_name: Option<String>,
    /// Canvas's own columns, when the roster is Canvas's (its gradebook export).
    pub(crate) canvas: CanvasIds,
    /// When the student last handed in, as the roster says (Moodle's worksheet's "Last
    /// modified (submission)"), in the zone of whoever downloaded it.
    pub(crate) submitted: Option<Moment>,
}

/// The columns Canvas's gradebook import matches a student on, as a roster exported from
/// Canvas gives them (`ID`, `SIS User ID`, `SIS Login ID`, `Section`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CanvasIds {
    pub(crate) id: Option<String>,
    pub(crate) sis_user_id: Option<String>,
    pub(crate) sis_login_id: Option<String>,
    pub(crate) section: Option<String>,
}

impl CanvasIds {
    /// Whether the roster gave any of them.
    pub(crate) fn is_empty(&self) -> bool {
        *self == CanvasIds::default()
    }

    /// The row's Canvas columns, found by their header exactly as Canvas writes it.
    fn read(header: &[String], field: impl Fn(usize) -> String) -> CanvasIds {
        let of = |name: &str| {
            header
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
                .map(&field)
                .filter(|v| !v.is_empty())
        };
        CanvasIds {
            id: of("ID"),
            sis_user_id: of("SIS User ID"),
            sis_login_id: of("SIS Login ID"),
            section: of("Section"),
        }
    }
}

/// The roster as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Roster {
    pub(crate) path: PathBuf,
    /// The header of the key column, as written.
    pub(crate) key_column: String,
    pub(crate) students: Vec<RosterStudent>,
}

/// Why the roster cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RosterError {
    Unreadable {
        path: PathBuf,
        problem: String,
    },
    /// No header line.
    Empty {
        path: PathBuf,
    },
    /// No column the grader knows how to read.
    NoColumns {
        path: PathBuf,
        header: Vec<String>,
    },
    /// A quoted field that never ends.
    Unterminated {
        path: PathBuf,
        line: usize,
    },
    /// Two rows with one key.
    Duplicate {
        path: PathBuf,
        line: usize,
        key: String,
    },
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RosterError::Unreadable { path, problem } => {
                write!(f, "{}: {problem}", path.display())
            }
            RosterError::Empty { path } => write!(
                f,
                "{}: empty; a roster is a CSV file whose first line names its columns",
                path.display()
            ),
            RosterError::NoColumns { path, header } => write!(
                f,
                "{}: no column for the student's id, email or name among {:?} (headers such as \
                 \"ID\", \"Username\", \"Student ID\", \"Email\", \"Name\", \"First name\" are read)",
                path.display(),
                header
            ),
            RosterError::Unterminated { path, line } => {
                write!(
                    f,
                    "{}: line {line}: a quoted field never ends",
                    path.display()
                )
            }
            RosterError::Duplicate { path, line, key } => write!(
                f,
                "{}: line {line}: {key:?} is on the roster twice",
                path.display()
            ),
        }
    }
}

impl std::error::Error for RosterError {}

/// What a column holds, known from its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Id,
    Email,
    Name,
    First,
    Last,
    /// When the student handed in.
    Submitted,
}

fn column(header: &str) -> Option<Column> {
    let h: String = header
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    match h.as_str() {
        "id"
        | "studentid"
        | "studentnumber"
        | "studentno"
        | "username"
        | "user"
        | "userid"
        | "login"
        | "loginid"
        | "sisloginid"
        | "sisuserid"
        | "identifier"
        | "idnumber"
        | "participant"
        | "participantid"
        | "netid"
        | "matriculationnumber"
        | "studentkey" => Some(Column::Id),
        "email" | "emailaddress" | "mail" | "studentemail" => Some(Column::Email),
        "name" | "fullname" | "studentname" | "displayname" | "student" | "sortablename" => {
            Some(Column::Name)
        }
        "firstname" | "givenname" | "forename" | "first" => Some(Column::First),
        "lastname" | "surname" | "familyname" | "last" => Some(Column::Last),
        "lastmodifiedsubmission" | "submittedat" | "submissiontime" | "timesubmitted" => {
            Some(Column::Submitted)
        }
        _ => None,
    }
}

/// An id as compared: trimmed, lower case, and Moodle's "Participant 12345" as "12345".
pub(crate) fn normalize_id(id: &str) -> String {
    let lower = id.trim().to_lowercase();
    match lower.strip_prefix("participant") {
        Some(rest)
            if !rest.trim().is_empty() && rest.trim().chars().all(|c| c.is_ascii_digit()) =>
        {
            rest.trim().to_owned()
        }
        _ => lower,
    }
}

/// A name as compared: words in lower case, one space between.
pub(crate) fn normalize_name(name: &str) -> String {
    name.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A time as a roster writes it: Moodle's `Friday, 20 November 2026, 11:59 PM` (its
/// `userdate`, in English), or numbers in order (`2026-11-20 23:59`, as a spreadsheet saves
/// it). Moodle writes `-` for "never"; anything unread is no time (and so never a penalty).
fn read_time(text: &str) -> Option<Moment> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<String> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let month = words.iter().find_map(|w| {
        let m = MONTHS.iter().position(|m| w.starts_with(m))?;
        (w.chars().all(char::is_alphabetic) && w.len() >= 3).then_some(m as u64 + 1)
    });
    let Some(month) = month else {
        return Moment::parse(text);
    };
    let numbers: Vec<u64> = words
        .iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .filter_map(|w| w.parse().ok())
        .collect();
    let (&[day, year], Some(time)) = (numbers.as_slice(), words.iter().find(|w| w.contains(':')))
    else {
        return None;
    };
    let mut hm = time.split(':').map(|n| n.parse::<u64>().ok());
    let (Some(Some(mut hour)), Some(Some(minute))) = (hm.next(), hm.next()) else {
        return None;
    };
    match words.last().map(String::as_str) {
        Some("pm") if hour < 12 => hour += 12,
        Some("am") if hour == 12 => hour = 0,
        _ => {}
    }
    Some(Moment::of_fields([year, month, day, hour, minute, 0]))
}

/// Reads the roster at `path`.
pub(crate) fn read_roster(path: &Path) -> Result<Roster, RosterError> {
    let bytes = std::fs::read(path).map_err(|e| RosterError::Unreadable {
        path: path.to_owned(),
        problem: bpe_lab::files::describe_io_error(&e),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let rows = records(text).map_err(|line| RosterError::Unterminated {
        path: path.to_owned(),
        line,
    })?;
    let Some((_, header)) = rows.first() else {
        return Err(RosterError::Empty {
            path: path.to_owned(),
        });
    };
    let columns: Vec<Option<Column>> = header.iter().map(|h| column(h)).collect();
    let first_of = |kind| columns.iter().position(|c| *c == Some(kind));
    let key_at = first_of(Column::Id)
        .or_else(|| first_of(Column::Email))
        .or_else(|| first_of(Column::Name))
        .ok_or_else(|| RosterError::NoColumns {
            path: path.to_owned(),
            header: header.clone(),
        })?;
    let mut students: Vec<RosterStudent> = Vec::new();
    for (line, row) in &rows[1..] {
        let field = |i: usize| row.get(i).map(|s| s.trim()).unwrap_or("");
        let key = field(key_at);
        // Blank lines and rows such as Canvas's "Points Possible" have no key.
        if key.is_empty() {
            continue;
        }
        let of = |kind| {
            columns
                .iter()
                .enumerate()
                .filter(move |(_, c)| **c == Some(kind))
                .map(|(i, _)| field(i))
                .find(|v| !v.is_empty())
        };
        let name = of(Column::Name).map(str::to_owned).or_else(|| {
            let parts: Vec<&str> = [of(Column::First), of(Column::Last)]
                .into_iter()
                .flatten()
                .collect();
            (!parts.is_empty()).then(|| parts.join(" "))
        });
        let mut ids: Vec<String> = columns
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c, Some(Column::Id | Column::Email)))
            .map(|(i, _)| field(i))
            .filter(|v| !v.is_empty())
            .flat_map(|v| {
                let id = normalize_id(v);
                // An email matches by its local part too (the login of most LMSs).
                let local = id.split_once('@').map(|(l, _)| l.to_owned());
                std::iter::once(id).chain(local)
            })
            .collect();
        ids.push(normalize_id(key));
        if students.iter().any(|s| s.key == key) {
            return Err(RosterError::Duplicate {
                path: path.to_owned(),
                line: *line,
                key: key.to_owned(),
            });
        }
        students.push(RosterStudent {
            submitted: of(Column::Submitted).and_then(read_time),
            canvas: CanvasIds::read(header, |i| field(i).to_owned()),
            key: key.to_owned(),
            match_name: name.as_deref().map(normalize_name),
            name,
            ids,
        });
    }
    Ok(Roster {
        path: path.to_owned(),
        key_column: header[key_at].trim().to_owned(),
        students,
    })
}

impl Roster {
    /// The roster student whose id or email is one of `ids`, else whose name is `name`.
    pub(crate) fn find(&self, ids: &[String], name: Option<&str>) -> Option<usize> {
        let ids: Vec<String> = ids.iter().map(|i| normalize_id(i)).collect();
        self.students
            .iter()
            .position(|s| s.ids.iter().any(|i| ids.contains(i)))
            .or_else(|| {
                let name = normalize_name(name?);
                self.students
                    .iter()
                    .position(|s| s.match_name.as_deref() == Some(name.as_str()))
            })
    }
}

/// The CSV records of `text` with the line each starts on: fields separated by the first of
/// `,` `;` tab found in the header line (spreadsheets in many locales write `;`), quoted
/// fields with `""` for a quote, any line ending. `Err(line)`: a quote opened there never ends.
fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, usize> {
    let header_line = text.lines().next().unwrap_or("");
    let sep = [',', ';', '\t']
        .into_iter()
        .find(|c| header_line.contains(*c))
        .unwrap_or(',');
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut row_line = 1;
    let mut chars = text.chars().peekable();
    let mut quote_line = 0;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => {
                quoted = true;
                quote_line = line;
            }
            c if c == sep => row.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(quote_line);
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push((row_line, row));
    }
    rows.retain(|(_, r)| !(r.len() == 1 && r[0].trim().is_empty()));
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::clock::UtcOffset;

    #[test]
    fn moodles_worksheet_times_are_read_in_its_words_and_a_dash_is_none() {
        let at = |text: &str| read_time(text).and_then(|m| m.unix_seconds(UtcOffset(3600)));
        // 2026-11-20 22:59 UTC is 23:59 at +01:00.
        let due = 20_777 * 86_400 + 22 * 3600 + 59 * 60;
        assert_eq!(at("Friday, 20 November 2026, 11:59 PM"), Some(due));
        assert_eq!(at("Friday, 20 November 2026, 11:59 pm"), Some(due));
        assert_eq!(
            at("Saturday, 21 November 2026, 12:05 AM"),
            Some(due + 6 * 60)
        );
        assert_eq!(
            at("Saturday, 21 November 2026, 12:05 PM"),
            Some(due + 12 * 3600 + 6 * 60)
        );
        assert_eq!(at("2026-11-20 23:59"), Some(due));
        for none in ["-", "", "never", "20 November, 11:59 PM"] {
            assert_eq!(at(none), None, "{none}");
        }
    }

    fn roster(text: &str) -> Result<Roster, RosterError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roster.csv");
        std::fs::write(&path, text).unwrap();
        read_roster(&path).map(|mut r| {
            r.path = PathBuf::from("roster.csv");
            r
        })
    }

    #[test]
    fn headers_are_read_in_their_common_spellings_and_the_key_is_said() {
        let r = roster(
            "\u{feff}First name;Surname;ID number;Email address\r\n\
             Ana María;Núñez;Participant 12347;ana@uni.example\r\n\
             Bo;Li;12348;\"li, bo\"@uni.example\r\n",
        )
        .unwrap();
        assert_eq!(r.key_column, "ID number");
        assert_eq!(r.students.len(), 2);
        assert_eq!(r.students[0].key, "Participant 12347");
        assert_eq!(r.students[0].name.as_deref(), Some("Ana María Núñez"));
        assert_eq!(r.find(&["12347".into()], None), Some(0));
        assert_eq!(r.find(&["ANA".into()], None), Some(0));
        assert_eq!(r.find(&["x".into()], Some("bo  LI")), Some(1));
        assert_eq!(r.find(&["x".into()], Some("Cy")), None);
        let by_email = roster("Name,E-mail\nCy,cy@uni.example\n").unwrap();
        assert_eq!(by_email.key_column, "E-mail");
    }

    #[test]
    fn canvas_s_own_columns_are_kept_as_canvas_wrote_them() {
        // Canvas's gradebook export: its columns, a "Points Possible" row with no student.
        let r = roster(
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3 (4821)\n\
             \x20   Points Possible,,,,,3\n\
             \"Núñez, Ana\",4001,S-17,ana,\"BPE 101, section 2\",\n\
             \"Li, Bo\",4002,,bo,,\n",
        )
        .unwrap();
        assert_eq!(r.key_column, "ID");
        assert_eq!(r.students.len(), 2);
        assert_eq!(
            r.students[0].canvas,
            CanvasIds {
                id: Some("4001".into()),
                sis_user_id: Some("S-17".into()),
                sis_login_id: Some("ana".into()),
                section: Some("BPE 101, section 2".into()),
            }
        );
        assert_eq!(r.students[1].canvas.sis_user_id, None);
        // A roster that is not Canvas's has none.
        let plain = roster("Username,Name\nana,Ana\n").unwrap();
        assert!(plain.students[0].canvas.is_empty());
    }

    #[test]
    fn a_roster_without_known_columns_or_with_a_key_twice_is_refused() {
        assert!(matches!(
            roster("Colour,Size\nred,2\n"),
            Err(RosterError::NoColumns { .. })
        ));
        assert!(matches!(roster(""), Err(RosterError::Empty { .. })));
        assert!(matches!(
            roster("id,name\nana,A\n\"bo,B\n"),
            Err(RosterError::Unterminated { line: 3, .. })
        ));
        assert!(matches!(
            roster("id,name\nana,A\nana,B\n"),
            Err(RosterError::Duplicate { line: 3, .. })
        ));
    }
}
