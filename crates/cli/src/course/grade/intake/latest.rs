//! Several files of one student for one lab: the latest is graded, and the note says what told
//! it: the submission time in the name or in nbgrader's `timestamp.txt`, else the LMS's own
//! re-submission marks (Moodle's ` (1)`, Canvas's `-1`), else the files' modification times,
//! else (nothing told them apart) the last by name.

use super::patterns::Lms;
use crate::course::grade::clock::{self, DAY, UtcOffset, civil_from_days, split_zone};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// A point in time as the numbers that write it, most significant first (year, month, day,
/// hour, minute, second, …), and the zone written after them if any: `2026-11-20-14-03-22`,
/// `2026-11-20 14:03:22.5 UTC`, `2026-11-20T15:03:22+01:00` and a file's modification time
/// all read. Moments order by the instant they name, a time without a zone taken as UTC (the
/// files one student handed in come from one download, written in one zone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Moment {
    fields: Vec<u64>,
    zone: Option<UtcOffset>,
}

impl Moment {
    /// The numbers in `text`, in order, and its zone; `None` unless there are at least three
    /// numbers (a date).
    pub(crate) fn parse(text: &str) -> Option<Moment> {
        let (text, zone) = split_zone(text);
        let numbers: Vec<u64> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap_or(u64::MAX))
            .collect();
        let fields = match numbers.as_slice() {
            // One run of digits: a compact stamp such as 20261120140322.
            [one] if text.trim().len() >= 8 => compact(*one, text.trim()),
            _ if numbers.len() >= 3 => numbers,
            _ => return None,
        };
        Some(Moment { fields, zone })
    }

    /// A modification time, in UTC.
    pub(crate) fn of_system_time(time: SystemTime) -> Moment {
        let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
        let secs = i64::try_from(since.as_secs()).unwrap_or(i64::MAX);
        let (y, m, d) = civil_from_days(secs.div_euclid(DAY));
        let day = secs.rem_euclid(DAY);
        let fields = [y, m, d, day / 3600, day % 3600 / 60, day % 60]
            .map(|n| u64::try_from(n).unwrap_or(0))
            .into_iter()
            .chain([u64::from(since.subsec_nanos())])
            .collect();
        Moment {
            fields,
            zone: Some(UtcOffset::UTC),
        }
    }

    /// A date and time whose zone nothing says (a zip entry's modification time, a time in
    /// Moodle's worksheet).
    pub(crate) fn of_fields(fields: [u64; 6]) -> Moment {
        Moment {
            fields: fields.to_vec(),
            zone: None,
        }
    }

    /// Seconds since 1970-01-01 00:00 UTC, the fields read as a date and time in the zone
    /// written with them, else in `unwritten` (missing fields 0, past the seconds ignored);
    /// `None` when they are no real date.
    pub(crate) fn unix_seconds(&self, unwritten: UtcOffset) -> Option<i64> {
        let field = |i: usize| {
            self.fields
                .get(i)
                .map_or(Some(0), |&n| i64::try_from(n).ok())
        };
        let fields = [
            field(0)?,
            field(1)?,
            field(2)?,
            field(3)?,
            field(4)?,
            field(5)?,
        ];
        clock::unix_seconds(fields, self.zone.unwrap_or(unwritten))
    }
}

impl Ord for Moment {
    fn cmp(&self, other: &Moment) -> std::cmp::Ordering {
        let key = |m: &Moment| (m.unix_seconds(UtcOffset::UTC), m.fields.clone(), m.zone);
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Moment {
    fn partial_cmp(&self, other: &Moment) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// `20261120140322` as 2026, 11, 20, 14, 03, 22.
fn compact(n: u64, digits: &str) -> Vec<u64> {
    let digits: String = digits.chars().filter(char::is_ascii_digit).collect();
    let widths = [4, 2, 2, 2, 2, 2];
    let mut out = Vec::new();
    let mut at = 0;
    for w in widths {
        if at + w > digits.len() {
            break;
        }
        out.push(digits[at..at + w].parse().unwrap_or(0));
        at += w;
    }
    if out.is_empty() { vec![n] } else { out }
}

/// Where a submission time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TimeFrom {
    /// The file's name (Blackboard, nbgrader's inbox, `--name-pattern`).
    Name,
    /// nbgrader's `timestamp.txt` beside it.
    TimestampFile,
}

/// What told the latest of several files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub(crate) enum Decider {
    Timestamp {
        from: TimeFrom,
    },
    /// The LMS's re-submission number.
    Resubmission {
        lms: Lms,
    },
    ModificationTime,
    /// Nothing told them apart: the last by name.
    NameOrder,
}

impl fmt::Display for Decider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decider::Timestamp {
                from: TimeFrom::Name,
            } => f.write_str("by the submission time in the names"),
            Decider::Timestamp {
                from: TimeFrom::TimestampFile,
            } => f.write_str("by nbgrader's timestamp.txt"),
            Decider::Resubmission { lms: Lms::Moodle } => {
                f.write_str("by Moodle's \" (1)\" re-upload numbers")
            }
            Decider::Resubmission { lms } => write!(f, "by {lms}'s \"-1\" re-submission numbers"),
            Decider::ModificationTime => f.write_str("by the files' modification times"),
            Decider::NameOrder => f.write_str("nothing told them apart, so the last by name"),
        }
    }
}

/// One of several files, as far as telling the latest goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) shown: PathBuf,
    pub(crate) timestamp: Option<(Moment, TimeFrom)>,
    pub(crate) version: Option<(Lms, u32)>,
    pub(crate) modified: Option<Moment>,
}

/// The index of the latest of `files` (at least one) and what told it (`None` for one file).
pub(crate) fn latest(files: &[Candidate]) -> (usize, Option<Decider>) {
    if files.len() == 1 {
        return (0, None);
    }
    let mut left: Vec<usize> = (0..files.len()).collect();
    // Each rule keeps the files tied for latest by it; the rule that leaves one decided.
    if left.iter().all(|&i| files[i].timestamp.is_some()) {
        let from = files[left[0]].timestamp.as_ref().map(|t| t.1);
        keep_max(&mut left, |i| {
            files[i].timestamp.as_ref().map(|t| t.0.clone())
        });
        if left.len() == 1 {
            let from = files[left[0]]
                .timestamp
                .as_ref()
                .map_or(from.unwrap(), |t| t.1);
            return (left[0], Some(Decider::Timestamp { from }));
        }
    }
    if let Some(lms) = left.iter().find_map(|&i| files[i].version.map(|v| v.0)) {
        keep_max(&mut left, |i| Some(files[i].version.map_or(0, |v| v.1)));
        if left.len() == 1 {
            return (left[0], Some(Decider::Resubmission { lms }));
        }
    }
    if left.iter().all(|&i| files[i].modified.is_some()) {
        keep_max(&mut left, |i| files[i].modified.clone());
        if left.len() == 1 {
            return (left[0], Some(Decider::ModificationTime));
        }
    }
    let last = left
        .into_iter()
        .max_by(|&a, &b| files[a].shown.cmp(&files[b].shown))
        .unwrap_or(0);
    (last, Some(Decider::NameOrder))
}

fn keep_max<K: Ord>(left: &mut Vec<usize>, key: impl Fn(usize) -> Option<K>) {
    let best = left.iter().filter_map(|&i| key(i)).max();
    left.retain(|&i| key(i) == best);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> Candidate {
        Candidate {
            shown: PathBuf::from(name),
            timestamp: None,
            version: None,
            modified: None,
        }
    }

    #[test]
    fn times_parse_from_any_writing_and_order_alike() {
        let bb = Moment::parse("2026-11-20-14-03-22").unwrap();
        let nb = Moment::parse("2026-11-20 14:03:22.500000 UTC").unwrap();
        assert!(bb < nb);
        assert_eq!(Moment::parse("20261120140322"), Some(bb.clone()));
        assert_eq!(Moment::parse("late"), None);
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_795_183_402);
        let modified = Moment::of_system_time(t);
        assert_eq!(modified.unix_seconds(UtcOffset(3600)), Some(1_795_183_402));
        assert_eq!(bb.unix_seconds(UtcOffset::UTC), Some(1_795_183_402));
        // Without a zone of its own, a time is read in the one given.
        assert_eq!(bb.unix_seconds(UtcOffset(3600)), Some(1_795_183_402 - 3600));
    }

    #[test]
    fn a_zone_written_with_a_time_is_read_and_orders_by_the_instant() {
        let berlin = Moment::parse("2026-11-20T15:03:22+01:00").unwrap();
        let london = Moment::parse("2026-11-20 14:03:22 UTC").unwrap();
        let lagos_later = Moment::parse("2026-11-20 15:04:00+0100").unwrap();
        assert_eq!(berlin.unix_seconds(UtcOffset(-18_000)), Some(1_795_183_402));
        assert_eq!(london.unix_seconds(UtcOffset(-18_000)), Some(1_795_183_402));
        assert!(lagos_later > london && lagos_later > berlin);
        // By their numbers alone, 10:00 in New York would come before 15:03 in Berlin; it is
        // 15:00 UTC, an hour after.
        let new_york = Moment::parse("2026-11-20T10:00:00-05:00").unwrap();
        assert!(new_york > berlin);
    }

    #[test]
    fn the_latest_is_told_by_time_then_resubmission_then_modification_then_name() {
        let mut a = file("a");
        let mut b = file("b");
        a.timestamp = Some((Moment::parse("2026-11-21 09:00").unwrap(), TimeFrom::Name));
        b.timestamp = Some((Moment::parse("2026-11-20 23:59").unwrap(), TimeFrom::Name));
        a.version = Some((Lms::Canvas, 0));
        b.version = Some((Lms::Canvas, 1));
        let decided = Some(Decider::Timestamp {
            from: TimeFrom::Name,
        });
        assert_eq!(latest(&[a.clone(), b.clone()]), (0, decided));
        a.timestamp = None;
        assert_eq!(
            latest(&[a.clone(), b.clone()]),
            (1, Some(Decider::Resubmission { lms: Lms::Canvas }))
        );
        let mut old = file("x (1)");
        let mut new = file("x");
        old.modified = Some(Moment::parse("2026-01-01 00:00").unwrap());
        new.modified = Some(Moment::parse("2026-02-01 00:00").unwrap());
        assert_eq!(
            latest(&[old.clone(), new.clone()]),
            (1, Some(Decider::ModificationTime))
        );
        new.modified = old.modified.clone();
        assert_eq!(latest(&[new, old]), (1, Some(Decider::NameOrder)));
        assert_eq!(latest(&[file("only")]), (0, None));
    }
}
