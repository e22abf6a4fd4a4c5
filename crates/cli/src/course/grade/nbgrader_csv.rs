//! The grades in the layout of `nbgrader export` (its CSV plugin): one row per student and
//! lab, the lab as the assignment, the total as raw score and score, no late penalty. Fields
//! bpe-lab does not know (due date, timestamp, names, email) are empty, as nbgrader writes
//! them when unset. Submissions that matched no lab have no row.

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
        let total = format!("{:.1}", g.total);
        let _ = writeln!(
            out,
            "{},,,{},,,,{total},0.0,{total},{:.1}",
            csv(lab),
            csv(&g.student),
            g.max
        );
    }
    out
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
        assert_eq!(
            nbgrader_csv(&[g, unmatched]),
            "assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,late_submission_penalty,score,max_score\n\
             03-merge,,,\"ana, b\",,,,2.5,0.0,2.5,3.0\n"
        );
    }
}
