//! Canvas's gradebook import CSV: the columns `Student`, `ID`, `SIS User ID`, `SIS Login ID`,
//! `Section`, then one column per assignment, named `Name (id)` when the assignment exists in
//! Canvas (its id from the assignment's address) or `Name` to have Canvas create it. A row
//! `Points Possible` under the header gives each assignment's maximum, as Canvas's own export
//! writes it.
//!
//! When the roster (`--roster`) is Canvas's own export, its `ID`, `SIS User ID`, `SIS Login
//! ID` and `Section` are written as it gave them, with its student's name: Canvas matches the
//! import on them. Otherwise bpe-lab knows a student by the submission's folder name, not by
//! Canvas's user id: it is written as the `SIS Login ID` (the login most LMS downloads name
//! folders by) and the other ids are left empty, which Canvas accepts when the login matches.
//! One row per student, one assignment column per lab, the adjusted total in it (empty for who
//! handed nothing in: Canvas leaves that ungraded rather than scoring a zero).

use super::super::gradebook::{csv, number};
use super::super::graded_notebook::GradedNotebook;
use super::super::intake::roster::CanvasIds;
use super::super::record::{Grade, Outcome};

/// Canvas's columns before the assignments, in its order.
pub(crate) const CANVAS_COLUMNS: [&str; 5] =
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"];

/// `grades` (with `labs`' assignment columns; `assignment` names a single lab's column in
/// Canvas, e.g. `GradedNotebook 3 (12345)`; `ids`, Canvas's columns of the roster's students) as Canvas
/// imports them.
pub(crate) fn canvas_csv(
    grades: &[Grade],
    labs: &[GradedNotebook],
    assignment: Option<&str>,
    ids: &[(String, CanvasIds)],
) -> String {
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
        match ids.iter().find(|(s, _)| s == student) {
            Some((_, c)) => {
                let name = grades
                    .iter()
                    .find_map(|g| (g.student == student).then_some(g.name.as_deref())?)
                    .unwrap_or(student);
                let cell = |v: &Option<String>| csv(v.as_deref().unwrap_or(""));
                out.push_str(&format!(
                    "{},{},{},{},{}",
                    csv(name),
                    cell(&c.id),
                    cell(&c.sis_user_id),
                    cell(&c.sis_login_id),
                    cell(&c.section)
                ));
            }
            None => out.push_str(&format!("{},,,{},", csv(student), csv(student))),
        }
        for lab in labs {
            let cell = grades
                .iter()
                .find(|g| g.student == student && g.lab.as_deref() == Some(lab.name.as_str()))
                .filter(|g| g.outcome() != Outcome::NoSubmission)
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
    use crate::course::grade::graded_notebook::NotebookExercise;
    use bpe_lab::lab::check::Exercise;
    use std::path::PathBuf;

    fn lab(name: &str, points: f64) -> GradedNotebook {
        GradedNotebook::bare(
            name,
            vec![NotebookExercise {
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
                Some("Lab 3: merges (4821)"),
                &[]
            ),
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3: merges (4821)\n\
             \x20   Points Possible,,,,,3\n\
             ana,,,ana,,2.5\n\
             \"bo, jr\",,,\"bo, jr\",,3\n\
             cy,,,cy,,\n"
        );
        // Several labs: a column each, named by the lab.
        let two = canvas_csv(
            &[ana.clone()],
            &[lab("03-merge", 3.0), lab("05-decode", 2.0)],
            None,
            &[],
        );
        assert!(
            two.starts_with(
                "Student,ID,SIS User ID,SIS Login ID,Section,03-merge,05-decode\n\
                 \x20   Points Possible,,,,,3,2\nana,,,ana,,2.5,\n"
            ),
            "{two}"
        );
    }

    #[test]
    fn a_canvas_roster_gives_canvas_its_own_ids_and_the_absent_no_zero() {
        let mut ana = Grade::empty("ana@uni.example", PathBuf::from("s/ana/03-merge.ipynb"));
        ana.lab = Some("03-merge".into());
        ana.name = Some("Núñez, Ana".into());
        ana.total = 3.0;
        let bo = Grade::no_submission("bo@uni.example", Some("Li, Bo".into()));
        let ids = |id: &str, sis: &str, login: &str| CanvasIds {
            id: Some(id.into()),
            sis_user_id: Some(sis.into()),
            sis_login_id: Some(login.into()),
            section: Some("BPE 101, section 2".into()),
        };
        let out = canvas_csv(
            &[ana, bo],
            &[lab("03-merge", 3.0)],
            None,
            &[
                ("ana@uni.example".into(), ids("4001", "S-17", "ana")),
                ("bo@uni.example".into(), ids("4002", "S-18", "bo")),
            ],
        );
        // What Canvas's import reads, written out here.
        assert_eq!(
            out,
            "Student,ID,SIS User ID,SIS Login ID,Section,03-merge\n\
             \x20   Points Possible,,,,,3\n\
             \"Núñez, Ana\",4001,S-17,ana,\"BPE 101, section 2\",3\n\
             \"Li, Bo\",4002,S-18,bo,\"BPE 101, section 2\",\n"
        );
    }
}
