//! Dates and times as grading reads them: the due date (RFC 3339), the times an LMS writes in
//! file names, nbgrader's `timestamp.txt` and Moodle's worksheet, and the offset from UTC a
//! time without one is read in (`--time-zone`, else the due date's own offset).
//!
//! Only fixed offsets are known (`Z`, `UTC`, `GMT`, `+01:00`, `-0500`): a download is read in
//! one offset, and named zones (`CET`, `America/Chicago`) would need a time-zone database for
//! a rule that matters only across a change of daylight saving time.

use std::fmt;
use std::str::FromStr;

pub(crate) const DAY: i64 = 86_400;

/// An offset from UTC, in seconds east of Greenwich (`+01:00` is 3600).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct UtcOffset(pub(crate) i32);

impl UtcOffset {
    pub(crate) const UTC: UtcOffset = UtcOffset(0);

    /// `Z`, `UTC`, `GMT` (any case), `±HH:MM` or `±HHMM`; `None` for anything else.
    fn read(text: &str) -> Option<UtcOffset> {
        let t = text.trim();
        if ["z", "utc", "gmt"].contains(&t.to_ascii_lowercase().as_str()) {
            return Some(UtcOffset::UTC);
        }
        let sign = match t.as_bytes().first()? {
            b'+' => 1,
            b'-' => -1,
            _ => return None,
        };
        let digits = t[1..].replacen(':', "", usize::from(t.len() == 6 && &t[3..4] == ":"));
        if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (h, m): (i32, i32) = (digits[..2].parse().ok()?, digits[2..].parse().ok()?);
        // Real offsets run from -12:00 to +14:00.
        (h <= 14 && m < 60).then_some(UtcOffset(sign * (h * 3600 + m * 60)))
    }
}

impl FromStr for UtcOffset {
    type Err = String;

    fn from_str(text: &str) -> Result<UtcOffset, String> {
        UtcOffset::read(text).ok_or_else(|| {
            format!("{text:?} is no offset from UTC: write e.g. +01:00, -05:00, +0530 or UTC")
        })
    }
}

impl fmt::Display for UtcOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { '-' } else { '+' };
        let s = self.0.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", s / 3600, s % 3600 / 60)
    }
}

/// Splits a zone written at the end of a date and time off it: `2026-11-20 14:03:22 UTC`,
/// `2026-11-20T14:03:22Z`, `…14:03:22+01:00`, `…14:03:22-0500`. A sign is read as an offset
/// only after a time written with colons, so Blackboard's `2026-11-20-14-03-22` keeps its
/// seconds.
pub(crate) fn split_zone(text: &str) -> (&str, Option<UtcOffset>) {
    let t = text.trim_end();
    let lower = t.to_ascii_lowercase();
    for name in ["utc", "gmt"] {
        if let Some(rest) = lower.strip_suffix(name)
            && !rest.ends_with(|c: char| c.is_ascii_alphabetic())
        {
            return (&t[..rest.len()], Some(UtcOffset::UTC));
        }
    }
    if let Some(rest) = t.strip_suffix(['Z', 'z'])
        && rest.ends_with(|c: char| c.is_ascii_digit())
    {
        return (rest, Some(UtcOffset::UTC));
    }
    for len in [6, 5] {
        if t.len() <= len || !t.is_char_boundary(t.len() - len) {
            continue;
        }
        let (rest, zone) = t.split_at(t.len() - len);
        let after_time = rest.contains(':') && rest.ends_with(|c: char| c.is_ascii_digit());
        if after_time && let Some(offset) = UtcOffset::read(zone) {
            return (rest, Some(offset));
        }
    }
    (t, None)
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

/// The civil date (year, month, day) of a day count since 1970-01-01: the inverse of
/// [`days_from_civil`].
pub(crate) fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Seconds since the epoch of a date and time written in `offset`, when the fields are a real
/// one.
pub(crate) fn unix_seconds(fields: [i64; 6], offset: UtcOffset) -> Option<i64> {
    let [y, mo, d, h, mi, s] = fields;
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
    ok.then(|| days_from_civil(y, mo, d) * DAY + h * 3600 + mi * 60 + s - i64::from(offset.0))
}

/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`: the instant and the offset it was written in.
pub(crate) fn parse_rfc3339(text: &str) -> Option<(i64, UtcOffset)> {
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
    let fields = [
        num(0..4)?,
        num(5..7)?,
        num(8..10)?,
        num(11..13)?,
        num(14..16)?,
        num(17..19)?,
    ];
    let mut rest = &t[19..];
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        rest = &frac[digits..];
    }
    // RFC 3339 writes `Z` or `±HH:MM`, nothing else.
    let offset = match rest {
        "Z" | "z" => UtcOffset::UTC,
        _ if rest.len() == 6 && rest.as_bytes()[3] == b':' => UtcOffset::read(rest)?,
        _ => return None,
    };
    Some((unix_seconds(fields, offset)?, offset))
}

/// Seconds since the epoch as `2026-11-20T14:03:22Z`.
pub(crate) fn rfc3339(at: i64) -> String {
    let (y, m, d) = civil_from_days(at.div_euclid(DAY));
    let secs = at.rem_euclid(DAY);
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
    fn offsets_read_in_their_usual_writings_and_refuse_the_rest() {
        for (text, seconds) in [
            ("Z", 0),
            ("utc", 0),
            ("GMT", 0),
            ("+01:00", 3600),
            ("-05:00", -18_000),
            ("+0530", 19_800),
            ("+14:00", 50_400),
        ] {
            assert_eq!(text.parse(), Ok(UtcOffset(seconds)), "{text}");
        }
        for bad in [
            "",
            "+1",
            "+01",
            "01:00",
            "+15:00",
            "+01:60",
            "CET",
            "+01:00:00",
        ] {
            assert!(bad.parse::<UtcOffset>().is_err(), "{bad}");
        }
        assert_eq!(UtcOffset(-18_000).to_string(), "-05:00");
        assert_eq!(UtcOffset(19_800).to_string(), "+05:30");
    }

    #[test]
    fn a_zone_is_split_off_a_time_and_blackboards_dashes_are_not_one() {
        assert_eq!(
            split_zone("2026-11-20 14:03:22.5 UTC"),
            ("2026-11-20 14:03:22.5 ", Some(UtcOffset::UTC))
        );
        assert_eq!(
            split_zone("2026-11-20T14:03:22Z"),
            ("2026-11-20T14:03:22", Some(UtcOffset::UTC))
        );
        assert_eq!(
            split_zone("2026-11-20T14:03:22+01:00"),
            ("2026-11-20T14:03:22", Some(UtcOffset(3600)))
        );
        assert_eq!(
            split_zone("2026-11-20 14:03:22-0500"),
            ("2026-11-20 14:03:22", Some(UtcOffset(-18_000)))
        );
        for none in [
            "2026-11-20-14-03-22",
            "20261120-1403",
            "20261120140322",
            "2026-11-20",
        ] {
            assert_eq!(split_zone(none), (none, None), "{none}");
        }
    }

    #[test]
    fn rfc3339_reads_the_offset_and_writes_utc() {
        let (z, zone) = parse_rfc3339("2026-11-20T23:59:00Z").unwrap();
        // 2026-11-20 is day 20777 since 1970-01-01 (56 years, 14 of them leap, + 323 days).
        assert_eq!(z, 20_777 * DAY + 23 * 3600 + 59 * 60);
        assert_eq!(zone, UtcOffset::UTC);
        assert_eq!(
            parse_rfc3339("2026-11-21T00:59:00.5+01:00"),
            Some((z, UtcOffset(3600)))
        );
        assert_eq!(rfc3339(z), "2026-11-20T23:59:00Z");
        assert_eq!(civil_from_days(20_777), (2026, 11, 20));
        assert_eq!(days_from_civil(2026, 11, 20), 20_777);
        assert_eq!(parse_rfc3339("2026-11-20T23:59:00+0100"), None);
    }
}
