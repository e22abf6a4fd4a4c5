//! Lateness: when a submission was handed in (and what said so), the due date (`--due`) and
//! the late policy (`--late-policy`), and the points a late submission loses.
//!
//! The submission time comes from the download only (the name, nbgrader's `timestamp.txt`);
//! a file's modification time says when it was unpacked or copied, not when it was handed in,
//! so it is never taken for one. Times written without a zone are read in `--time-zone`'s offset, else the
//! due date's own ([`super::clock`]). A submission whose time
//! is unknown is never penalised: its note says the time was unknown.
//!
//! The policy's grammar (`--late-policy`):
//! - `none` (the default): lateness is recorded and shown, no points are taken;
//! - `zero`: a late submission scores 0;
//! - `penalty:<P>%/day`: P % of the maximum points per started day late (1 h late is one day),
//!   never more than the total;
//! - `cap:<P>%`: a late submission scores at most P % of the maximum points.
//!
//! The penalty is taken from the total after the instructor's adjustments
//! ([`super::adjustments`]), so an adjustment never undoes or doubles it.

use super::clock::{DAY, UtcOffset, parse_rfc3339, rfc3339};
use super::intake::patterns::Lms;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Where a submission's time came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SubmittedFrom {
    /// The file's name (Blackboard, nbgrader's inbox, `--name-pattern`).
    FileName,
    /// nbgrader's `timestamp.txt` beside it.
    TimestampFile,
    /// The roster's submission time (Moodle's worksheet, "Last modified (submission)").
    Roster,
    /// No time, but the LMS marked it late (Canvas's `_LATE`).
    LateMarker { lms: Lms },
    /// Nothing said when.
    #[default]
    Unknown,
}

/// When a submission was handed in, as far as the download says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Submitted {
    /// Seconds since 1970-01-01 00:00 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<i64>,
    pub(crate) from: SubmittedFrom,
}

/// A due date given as RFC 3339 (`2026-11-20T23:59:00Z`, `2026-11-20T23:59:00+01:00`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Due {
    /// As the instructor wrote it.
    pub(crate) text: String,
    /// Seconds since 1970-01-01 00:00 UTC.
    pub(crate) at: i64,
}

impl FromStr for Due {
    type Err = String;

    fn from_str(text: &str) -> Result<Due, String> {
        parse_rfc3339(text)
            .map(|(at, _)| Due {
                text: text.to_owned(),
                at,
            })
            .ok_or_else(|| {
                format!("{text:?} is no RFC 3339 time: write e.g. 2026-11-20T23:59:00Z or 2026-11-20T23:59:00+01:00")
            })
    }
}

impl Due {
    /// The offset from UTC the instructor wrote the due date in: times in the download written
    /// without one are read in it unless `--time-zone` says otherwise.
    pub(crate) fn offset(&self) -> UtcOffset {
        parse_rfc3339(&self.text).map_or(UtcOffset::UTC, |(_, offset)| offset)
    }
}

/// What a late submission loses (`--late-policy`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "policy")]
pub(crate) enum LatePolicy {
    /// Recorded and shown, no points taken.
    #[default]
    None,
    /// A late submission scores 0.
    Zero,
    /// This percentage of the maximum points per started day late.
    PerDay { percent: f64 },
    /// A late submission scores at most this percentage of the maximum points.
    Cap { percent: f64 },
}

impl FromStr for LatePolicy {
    type Err = String;

    fn from_str(text: &str) -> Result<LatePolicy, String> {
        let grammar =
            "write none, zero, penalty:<P>%/day (e.g. penalty:10%/day) or cap:<P>% (e.g. cap:50%)";
        let percent = |p: &str| -> Result<f64, String> {
            let p = p
                .strip_suffix('%')
                .ok_or_else(|| format!("{text:?}: the percentage needs its %; {grammar}"))?;
            match p.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=100.0).contains(&x) => Ok(x),
                _ => Err(format!(
                    "{text:?}: {p:?} is no percentage from 0 to 100; {grammar}"
                )),
            }
        };
        match text.trim() {
            "none" => Ok(LatePolicy::None),
            "zero" => Ok(LatePolicy::Zero),
            t => {
                if let Some(rest) = t.strip_prefix("penalty:") {
                    let p = rest.strip_suffix("/day").ok_or_else(|| {
                        format!("{text:?}: a penalty is per day, ending in /day; {grammar}")
                    })?;
                    Ok(LatePolicy::PerDay {
                        percent: percent(p)?,
                    })
                } else if let Some(rest) = t.strip_prefix("cap:") {
                    Ok(LatePolicy::Cap {
                        percent: percent(rest)?,
                    })
                } else {
                    Err(format!("{text:?} is no late policy: {grammar}"))
                }
            }
        }
    }
}

impl fmt::Display for LatePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LatePolicy::None => f.write_str("none"),
            LatePolicy::Zero => f.write_str("zero"),
            LatePolicy::PerDay { percent } => write!(f, "penalty:{percent}%/day"),
            LatePolicy::Cap { percent } => write!(f, "cap:{percent}%"),
        }
    }
}

impl LatePolicy {
    /// The points a submission `late_by` seconds late loses from `total` (of `max`): never
    /// more than the total, never less than 0.
    pub(crate) fn penalty(self, late_by: i64, total: f64, max: f64) -> f64 {
        if late_by <= 0 || total <= 0.0 {
            return 0.0;
        }
        let taken = match self {
            LatePolicy::None => 0.0,
            LatePolicy::Zero => total,
            LatePolicy::PerDay { percent } => {
                let days = (late_by + DAY - 1) / DAY;
                days as f64 * percent / 100.0 * max
            }
            LatePolicy::Cap { percent } => total - percent / 100.0 * max,
        };
        taken.clamp(0.0, total)
    }
}

/// The due date and the policy a run grades lateness by.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LateRule {
    pub(crate) due: Option<Due>,
    pub(crate) policy: LatePolicy,
    /// `--time-zone`: the offset of times the download writes without one.
    pub(crate) zone: Option<UtcOffset>,
}

impl LateRule {
    /// The offset times written without one are read in: `--time-zone`, else the due date's
    /// (an LMS writes its times in the course's zone, the one the instructor set the due date
    /// in), else UTC.
    pub(crate) fn unwritten_zone(&self) -> UtcOffset {
        self.zone
            .or_else(|| self.due.as_ref().map(Due::offset))
            .unwrap_or(UtcOffset::UTC)
    }
}

/// A grade's lateness, kept with it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Lateness {
    pub(crate) submitted: Submitted,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) due: Option<Due>,
    #[serde(default)]
    pub(crate) policy: LatePolicy,
}

impl Lateness {
    pub(crate) fn of(submitted: Submitted, rule: &LateRule) -> Lateness {
        Lateness {
            submitted,
            due: rule.due.clone(),
            policy: rule.policy,
        }
    }

    /// Seconds past the due date (0 or less: on time); `None` without a due date or a time.
    pub(crate) fn late_by(&self) -> Option<i64> {
        Some(self.submitted.at? - self.due.as_ref()?.at)
    }

    /// The points lost from `total` (of `max`).
    pub(crate) fn penalty(&self, total: f64, max: f64) -> f64 {
        self.late_by()
            .map_or(0.0, |late| self.policy.penalty(late, total, max))
    }

    /// The submission time as RFC 3339 in UTC, empty when unknown.
    pub(crate) fn submitted_at(&self) -> String {
        self.submitted.at.map(rfc3339).unwrap_or_default()
    }

    /// How late, as `1d 2h 5m` (seconds only under a minute); empty when on time or unknown,
    /// `late` when only the LMS's marker says so.
    pub(crate) fn late_by_text(&self) -> String {
        match (self.late_by(), self.submitted.from) {
            (Some(s), _) if s > 0 => duration(s),
            (None, SubmittedFrom::LateMarker { .. }) => "late".to_owned(),
            _ => String::new(),
        }
    }

    /// The line the feedback and the notes show, if any: how late and what it cost, or that
    /// the time was unknown and so nothing was taken.
    pub(crate) fn line(&self, penalty: f64) -> Option<String> {
        let due = self.due.as_ref()?;
        match self.late_by() {
            None => Some(format!(
                "submitted at an unknown time (due {}): not penalised",
                due.text
            )),
            Some(s) if s > 0 => Some(format!(
                "submitted {} after the due date {} (late policy {}): {} points taken off",
                duration(s),
                due.text,
                self.policy,
                super::gradebook::number(penalty)
            )),
            Some(_) => None,
        }
    }
}

/// `93900` as `1d 2h 5m`.
pub(crate) fn duration(seconds: i64) -> String {
    if seconds < 60 {
        return format!("{seconds}s");
    }
    let (d, h, m) = (seconds / DAY, seconds % DAY / 3600, seconds % 3600 / 60);
    let mut parts = Vec::new();
    if d > 0 {
        parts.push(format!("{d}d"));
    }
    if d > 0 || h > 0 {
        parts.push(format!("{h}h"));
    }
    parts.push(format!("{m}m"));
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn due_dates_parse_as_rfc3339_with_their_offset() {
        let z: Due = "2026-11-20T23:59:00Z".parse().unwrap();
        // 2026-11-20 is day 20777 since 1970-01-01 (56 years, 14 of them leap, + 323 days).
        assert_eq!(z.at, 20_777 * 86_400 + 23 * 3600 + 59 * 60);
        let plus: Due = "2026-11-21T00:59:00.5+01:00".parse().unwrap();
        assert_eq!(plus.at, z.at);
        assert_eq!(
            (z.offset(), plus.offset()),
            (UtcOffset::UTC, UtcOffset(3600))
        );
        for bad in [
            "2026-11-20",
            "2026-11-20T23:59:00",
            "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "tomorrow",
            "2026-11-20T23:59:00+1",
        ] {
            assert!(bad.parse::<Due>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_policy_grammar_reads_its_four_forms_and_refuses_the_rest() {
        assert_eq!("none".parse(), Ok(LatePolicy::None));
        assert_eq!("zero".parse(), Ok(LatePolicy::Zero));
        assert_eq!(
            "penalty:10%/day".parse(),
            Ok(LatePolicy::PerDay { percent: 10.0 })
        );
        assert_eq!("cap:50%".parse(), Ok(LatePolicy::Cap { percent: 50.0 }));
        for bad in [
            "penalty:10%",
            "penalty:10/day",
            "cap:150%",
            "cap:-5%",
            "cap:x%",
            "half",
            "",
        ] {
            assert!(bad.parse::<LatePolicy>().is_err(), "{bad}");
        }
        let p = LatePolicy::PerDay { percent: 12.5 };
        assert_eq!(p.to_string().parse(), Ok(p));
    }

    #[test]
    fn penalties_count_started_days_and_never_pass_the_total() {
        let per_day = LatePolicy::PerDay { percent: 10.0 };
        // 1 s and 24 h are one started day; 24 h 1 s two. 10 % of 10 points is 1 a day.
        assert_eq!(per_day.penalty(1, 8.0, 10.0), 1.0);
        assert_eq!(per_day.penalty(DAY, 8.0, 10.0), 1.0);
        assert_eq!(per_day.penalty(DAY + 1, 8.0, 10.0), 2.0);
        // 30 days would be 30 points: capped at the 8 scored.
        assert_eq!(per_day.penalty(30 * DAY, 8.0, 10.0), 8.0);
        assert_eq!(per_day.penalty(0, 8.0, 10.0), 0.0);
        assert_eq!(per_day.penalty(-5, 8.0, 10.0), 0.0);
        let cap = LatePolicy::Cap { percent: 50.0 };
        assert_eq!(cap.penalty(3600, 8.0, 10.0), 3.0);
        assert_eq!(cap.penalty(3600, 4.0, 10.0), 0.0);
        assert_eq!(LatePolicy::Zero.penalty(1, 8.0, 10.0), 8.0);
        assert_eq!(LatePolicy::None.penalty(DAY, 8.0, 10.0), 0.0);
    }

    #[test]
    fn an_unknown_time_is_not_penalised_and_says_so() {
        let rule = LateRule {
            due: Some("2026-11-20T23:59:00Z".parse().unwrap()),
            policy: LatePolicy::Zero,
            zone: None,
        };
        let unknown = Lateness::of(Submitted::default(), &rule);
        assert_eq!(unknown.penalty(3.0, 3.0), 0.0);
        assert!(unknown.line(0.0).unwrap().contains("unknown time"));
        let marked = Lateness::of(
            Submitted {
                at: None,
                from: SubmittedFrom::LateMarker { lms: Lms::Canvas },
            },
            &LateRule::default(),
        );
        assert_eq!(marked.late_by_text(), "late");
        assert_eq!(marked.line(0.0), None);
        let late = Lateness::of(
            Submitted {
                at: Some(rule.due.as_ref().unwrap().at + DAY + 2 * 3600 + 5 * 60),
                from: SubmittedFrom::FileName,
            },
            &rule,
        );
        assert_eq!(late.late_by_text(), "1d 2h 5m");
        assert_eq!(late.penalty(3.0, 3.0), 3.0);
        assert_eq!(duration(45), "45s");
        assert_eq!(duration(3600), "1h 0m");
    }
}
