//! The grades in the layout of `nbgrader export` (its CSV plugin): one row per student and
//! lab, the lab as the assignment; `raw_score` the total before the late penalty,
//! `late_submission_penalty` what `--late-policy` took, `score` the total after it. `duedate`
//! (`--due`) and `timestamp` (the submission's time) are written as nbgrader writes its own,
//! UTC without a zone (`2026-11-20 23:59:00`). Fields bpe-lab does not know (names, email), or a
//! time it does not, are empty, as nbgrader writes them when unset. Submissions that matched no
//! lab have no row.

use super::clock::rfc3339;
use super::gradebook::csv;
use super::record::Grade;
use std::fmt::Write as _;

/// The columns of `nbgrader export`'s CSV, in its order.
pub(crate) const NBGRADER_CSV_COLUMNS: [&str; 11] = [
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
];

/// `grades` as nbgrader exports them.
pub(crate) fn nbgrader_csv(grades: &[Grade]) -> String {
    let mut out = NBGRADER_CSV_COLUMNS.join(",");
    out.push('\n');
    for g in grades {
        let Some(lab) = &g.lab else { continue };
        let late = g.lateness.as_ref();
        let duedate = late.and_then(|l| l.due.as_ref()).map(|d| naive(d.at));
        let timestamp = late.and_then(|l| l.submitted.at).map(naive);
        let _ = writeln!(
            out,
            "{},{},{},{},,,,{:.1},{:.1},{:.1},{:.1}",
            csv(lab),
            duedate.unwrap_or_default(),
            timestamp.unwrap_or_default(),
            csv(&g.student),
            g.total + g.late_penalty,
            g.late_penalty,
            g.total,
            g.max
        );
    }
    out
}

/// `2026-11-20 23:59:00`: UTC, as nbgrader writes its times.
fn naive(at: i64) -> String {
    rfc3339(at)
        .replace('T', " ")
        .trim_end_matches('Z')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn nbgrader_rows_follow_its_export_layout() {
        let mut g = Grade::empty("ana, b", PathBuf::from("s/ana/03-merge.ipynb"));
        g.lab = Some("03-merge".into());
        g.max = 3.0;
        let unmatched = Grade {
            lab: None,
            ..g.clone()
        };
        g.total = 2.5;
        let mut late = g.clone();
        late.student = "bo".into();
        // Due 2026-11-20 23:59 UTC, handed in 2 h later; 1 point taken of the 2.5 scored.
        let due: crate::course::grade::lateness::Due = "2026-11-21T00:59:00+01:00".parse().unwrap();
        late.lateness = Some(crate::course::grade::lateness::Lateness {
            submitted: crate::course::grade::lateness::Submitted {
                at: Some(due.at + 7200),
                from: crate::course::grade::lateness::SubmittedFrom::TimestampFile,
            },
            due: Some(due),
            policy: crate::course::grade::lateness::LatePolicy::Zero,
        });
        late.late_penalty = 1.0;
        late.total = 1.5;
        assert_eq!(
            nbgrader_csv(&[g, unmatched, late]),
            "assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score\n\
             03-merge,,,\"ana, b\",,,,2.5,0.0,2.5,3.0\n\
             03-merge,2026-11-20 23:59:00,2026-11-21 01:59:00,bo,,,,2.5,1.0,1.5,3.0\n"
        );
    }
}
