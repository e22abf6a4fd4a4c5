//! Lateness: when a submission was handed in (and what said so), the due date (`--due`) and
//! the late policy (`--late-policy`), and the points a late submission loses.
//!
//! The submission time comes from the download only (the name, nbgrader's `timestamp.txt`);
//! a file's modification time says when it was unpacked or copied, not when it was handed in,
//! so it is never taken for one. Times without a zone are read as UTC. A submission whose time
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

use super::intake::patterns::Lms;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

const DAY: i64 = 86_400;

/// Where a submission's time came from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SubmittedFrom {
    /// The file's name (Blackboard, nbgrader's inbox, `--name-pattern`).
    FileName,
    /// nbgrader's `timestamp.txt` beside it.
    TimestampFile,
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
            .map(|at| Due {
                text: text.to_owned(),
                at,
            })
            .ok_or_else(|| {
                format!("{text:?} is no RFC 3339 time: write e.g. 2026-11-20T23:59:00Z or 2026-11-20T23:59:00+01:00")
            })
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

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm, proleptic Gregorian).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Seconds since the epoch of a UTC date and time, when the fields are a real one.
pub(crate) fn unix_seconds(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64) -> Option<i64> {
    let days_in = |y: i64, m: i64| match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let ok = (1..=12).contains(&mo)
        && (1..=days_in(y, mo)).contains(&d)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0..=60).contains(&s);
    ok.then(|| days_from_civil(y, mo, d) * DAY + h * 3600 + mi * 60 + s)
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` as seconds since the epoch.
fn parse_rfc3339(text: &str) -> Option<i64> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = t.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let local = unix_seconds(
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    )?;
    let mut rest = &t[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let rb = rest.as_bytes();
            if rb.len() != 6 || !matches!(rb[0], b'+' | b'-') || rb[3] != b':' {
                return None;
            }
            let part = |s: &str| -> Option<i64> {
                s.bytes()
                    .all(|c| c.is_ascii_digit())
                    .then(|| s.parse().ok())?
            };
            let (h, m) = (part(&rest[1..3])?, part(&rest[4..6])?);
            if h > 23 || m > 59 {
                return None;
            }
            let sign = if rb[0] == b'-' { -1 } else { 1 };
            sign * (h * 3600 + m * 60)
        }
    };
    Some(local - offset)
}

/// Seconds since the epoch as `2026-11-20T14:03:22Z`.
pub(crate) fn rfc3339(at: i64) -> String {
    let days = at.div_euclid(DAY);
    let secs = at.rem_euclid(DAY);
    // The inverse of days_from_civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
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
        assert_eq!(rfc3339(z.at), "2026-11-20T23:59:00Z");
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
