//! Canvas's gradebook import CSV: the columns `Student`, `ID`, `SIS User ID`, `SIS Login ID`,
//! `Section`, then one column per assignment, named `Name (id)` when the assignment exists in
//! Canvas (its id from the assignment's address) or `Name` to have Canvas create it. A row
//! `Points Possible` under the header gives each assignment's maximum, as Canvas's own export
//! writes it.
//!
//! bpe-lab knows a student by the submission's folder name, not by Canvas's user id: it is
//! written as the `SIS Login ID` (the login most LMS downloads name folders by) and the other
//! ids are left empty, which Canvas accepts when the login matches. One row per student, one
//! assignment column per lab, the adjusted total in it.

use super::super::gradebook::{csv, number};
use super::super::lab::Lab;
use super::super::record::Grade;

/// Canvas's columns before the assignments, in its order.
pub(crate) const CANVAS_COLUMNS: [&str; 5] =
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"];

/// `grades` (with `labs`' assignment columns; `assignment` names a single lab's column in
/// Canvas, e.g. `Lab 3 (12345)`) as Canvas imports them.
pub(crate) fn canvas_csv(grades: &[Grade], labs: &[Lab], assignment: Option<&str>) -> String {
    let names: Vec<String> = labs
        .iter()
        .map(|l| match assignment {
            Some(a) if labs.len() == 1 => a.to_owned(),
            _ => l.name.clone(),
        })
        .collect();
    let mut out = CANVAS_COLUMNS.join(",");
    for name in &names {
        out.push(',');
        out.push_str(&csv(name));
    }
    out.push_str("\n    Points Possible,,,,");
    for lab in labs {
        out.push(',');
        out.push_str(&number(lab.max_points()));
    }
    out.push('\n');
    let mut students: Vec<&str> = Vec::new();
    for g in grades {
        if !students.contains(&g.student.as_str()) {
            students.push(&g.student);
        }
    }
    for student in students {
        out.push_str(&format!("{},,,{},", csv(student), csv(student)));
        for lab in labs {
            let cell = grades
                .iter()
                .find(|g| g.student == student && g.lab.as_deref() == Some(lab.name.as_str()))
                .map(|g| number(g.total))
                .unwrap_or_default();
            out.push(',');
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course::grade::lab::LabExercise;
    use bpe_lab::lab::check::Exercise;
    use std::path::PathBuf;

    fn lab(name: &str, points: f64) -> Lab {
        Lab::bare(
            name,
            vec![LabExercise {
                exercise: Exercise::Decode.into(),
                points,
                check_id: String::new(),
            }],
        )
    }

    #[test]
    fn rows_follow_canvas_import_layout() {
        let mut ana = Grade::empty("ana", PathBuf::from("s/ana/03-merge.ipynb"));
        ana.lab = Some("03-merge".into());
        ana.total = 2.5;
        let mut bo = Grade::empty("bo, jr", PathBuf::from("s/bo/03-merge.ipynb"));
        bo.lab = Some("03-merge".into());
        bo.total = 3.0;
        let unmatched = Grade::empty("cy", PathBuf::from("s/cy/x.ipynb"));
        // Canvas's documented import header, written out here (not produced by the code).
        assert_eq!(
            canvas_csv(
                &[ana.clone(), bo, unmatched],
                &[lab("03-merge", 3.0)],
                Some("Lab 3: merges (4821)")
            ),
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3: merges (4821)\n\
             \x20   Points Possible,,,,,3\n\
             ana,,,ana,,2.5\n\
             \"bo, jr\",,,\"bo, jr\",,3\n\
             cy,,,cy,,\n"
        );
        // Several labs: a column each, named by the lab.
        let two = canvas_csv(&[ana], &[lab("03-merge", 3.0), lab("05-decode", 2.0)], None);
        assert!(
            two.starts_with(
                "Student,ID,SIS User ID,SIS Login ID,Section,03-merge,05-decode\n\
                 \x20   Points Possible,,,,,3,2\nana,,,ana,,2.5,\n"
            ),
            "{two}"
        );
    }
}
