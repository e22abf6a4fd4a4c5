//! The class a gradebook holds, so that grading one student updates that student's row and
//! keeps every other. The class is the gradebook itself — its rows' students and files, in its
//! order — and each row's grade is the record saved in the feedback folder
//! ([`super::resume`]); a feedback folder without its gradebook is a class of every grade
//! saved in it.
//!
//! A run is a **regrade** of part of the class when it names a student (`--student NAME`), or
//! when it is given notebook files only (no folder) and its gradebook (or feedback folder)
//! already holds a class. Its gradebook then has the class's rows in the class's order, the submissions graded
//! now in place of theirs (new ones at the end), every other row from its saved grade as it
//! was. A run given a folder without `--student` grades the class anew, and the class becomes
//! what it found.
//!
//! A notebook file given alone is the student's whose submission it is in the class; else, when
//! its name is a lab's (`ana/03-merge.ipynb`), the student is the folder it is in (the lab's
//! folder skipped, as nbgrader's `submitted/ana/03-merge/03-merge.ipynb` has it); else the
//! file's name, as before.

use super::csv_records::records;
use super::graded_notebook::GradedNotebook;
use super::record::Grade;
use super::submission::{Submission, stem};
use std::path::{Path, PathBuf};

/// The class an earlier run left: the rows of the gradebook at `gradebook` (its `student`
/// and `file` columns), else every grade saved in `feedback_dir`, by student and file. `None`
/// when there is neither.
pub(crate) fn earlier_class(gradebook: &Path, feedback_dir: &Path) -> Option<Vec<Submission>> {
    // Only a regular file: a gradebook written to a pipe or a device cannot be read back.
    if gradebook.is_file()
        && let Ok(text) = std::fs::read_to_string(gradebook)
        && let Ok(rows) = records(&text)
        && let Some((header, rows)) = rows.split_first()
        && header.fields.len() >= 2
        && header.fields[..2] == ["student", "file"]
    {
        return Some(
            rows.iter()
                .filter(|r| r.fields.len() >= 2 && !r.is_blank())
                .map(|r| Submission {
                    student: r.fields[0].clone(),
                    file: PathBuf::from(&r.fields[1]),
                    ..Submission::default()
                })
                .collect(),
        );
    }
    saved_class(feedback_dir)
}

/// Every grade saved in `feedback_dir`, by student folder and file name.
fn saved_class(feedback_dir: &Path) -> Option<Vec<Submission>> {
    let mut found = Vec::new();
    let mut students: Vec<PathBuf> = std::fs::read_dir(feedback_dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    students.sort();
    for dir in students {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut saved: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.') && n.ends_with(".grade.json"))
            })
            .collect();
        saved.sort();
        for path in saved {
            if let Ok(bytes) = std::fs::read(&path)
                && let Ok(grade) = serde_json::from_slice::<Grade>(&bytes)
            {
                found.push(Submission {
                    student: grade.student,
                    file: grade.file,
                    ..Submission::default()
                });
            }
        }
    }
    (!found.is_empty()).then_some(found)
}

/// Whether two paths name the same file (as given, or once resolved).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// The student a notebook given alone belongs to, when its own name is a lab's: the folder
/// it is in as given, past a folder named as the lab.
fn student_by_folder(file: &Path, labs: &[GradedNotebook]) -> Option<String> {
    let lab = stem(file);
    if !labs.iter().any(|l| l.name == lab) {
        return None;
    }
    // Only the folders given: a bare `03-merge.ipynb` is nobody's in particular.
    file.ancestors()
        .skip(1)
        .filter_map(|dir| dir.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .find(|name| *name != lab)
}

/// What a run grades and which rows its gradebook has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    /// The gradebook's rows, in order.
    pub(crate) rows: Vec<Submission>,
    /// The rows this run grades (indices into `rows`).
    pub(crate) selected: Vec<usize>,
    /// Whether the run regrades part of a class (the other rows come from saved grades).
    pub(crate) regrade: bool,
}

/// Why a plan cannot be made.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PlanError {
    /// `--student NAME` names no student of the submissions given or of the class.
    UnknownStudent { name: String, known: Vec<String> },
}

/// The plan of a run given `args` (as found: `found`), `student` (`--student`), and the class
/// an earlier run left in the feedback folder (`earlier`).
pub(crate) fn plan(
    mut found: Vec<Submission>,
    args: &[PathBuf],
    student: Option<&str>,
    earlier: Option<Vec<Submission>>,
    labs: &[GradedNotebook],
) -> Result<Plan, PlanError> {
    let files_only = !args.is_empty() && args.iter().all(|a| !a.is_dir());
    // Name the files given alone.
    for s in found.iter_mut() {
        if !args.iter().any(|a| a == &s.file) || s.student != stem(&s.file) {
            continue;
        }
        let known = earlier
            .iter()
            .flatten()
            .find(|c| same_file(&c.file, &s.file));
        if let Some(known) = known {
            s.student = known.student.clone();
        } else if let Some(name) = student_by_folder(&s.file, labs) {
            s.student = name;
        }
    }
    let regrade = student.is_some() || (files_only && earlier.is_some());
    let mut rows = if regrade {
        earlier.unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut selected = Vec::new();
    for s in found {
        // A roster student's "no submission" row (no file) is theirs to fill when their file
        // comes, as when a late submission is graded alone.
        let at = match rows.iter().position(|r| {
            r.student == s.student
                && (same_file(&r.file, &s.file)
                    || (r.file.as_os_str().is_empty() && !s.is_absent()))
        }) {
            Some(i) => {
                rows[i] = s.clone();
                i
            }
            None => {
                rows.push(s.clone());
                rows.len() - 1
            }
        };
        if student.is_none_or(|name| name == s.student) && !selected.contains(&at) {
            selected.push(at);
        }
    }
    if let Some(name) = student
        && selected.is_empty()
    {
        let mut known: Vec<String> = rows.iter().map(|r| r.student.clone()).collect();
        known.sort();
        known.dedup();
        return Err(PlanError::UnknownStudent {
            name: name.to_owned(),
            known,
        });
    }
    Ok(Plan {
        rows,
        selected,
        regrade,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sub(student: &str, file: &str) -> Submission {
        Submission {
            student: student.into(),
            file: PathBuf::from(file),
            ..Submission::default()
        }
    }

    fn lab(name: &str) -> GradedNotebook {
        GradedNotebook::bare(name, Vec::new())
    }

    #[test]
    fn a_file_given_alone_is_its_folders_student_and_updates_its_row_in_the_class() {
        let labs = [lab("03-merge")];
        let class = vec![
            sub("ana", "s/ana/03-merge.ipynb"),
            sub("bo", "s/bo/03-merge.ipynb"),
            sub("cy", "s/cy/03-merge.ipynb"),
        ];
        let args = [PathBuf::from("s/bo/03-merge.ipynb")];
        let found = vec![sub("03-merge", "s/bo/03-merge.ipynb")];
        let regrade = plan(found.clone(), &args, None, Some(class.clone()), &labs).unwrap();
        assert_eq!(
            regrade,
            Plan {
                rows: class.clone(),
                selected: vec![1],
                regrade: true
            }
        );
        // A late file fills its student's "no submission" row, in place.
        let absent = vec![sub("ana", "s/ana/03-merge.ipynb"), sub("kofi", "")];
        let found = vec![
            sub("ana", "s/ana/03-merge.ipynb"),
            sub("kofi", "s/kofi/03-merge.ipynb"),
        ];
        let late = plan(
            found.clone(),
            &[PathBuf::from("s")],
            Some("kofi"),
            Some(absent),
            &labs,
        )
        .unwrap();
        assert_eq!(
            late,
            Plan {
                rows: found,
                selected: vec![1],
                regrade: true
            }
        );
        // No class yet: the folder names the student, the lab's own folder skipped.
        let args = [PathBuf::from("submitted/dee/03-merge/03-merge.ipynb")];
        let found = vec![sub("03-merge", "submitted/dee/03-merge/03-merge.ipynb")];
        let alone = plan(found, &args, None, None, &labs).unwrap();
        assert_eq!(alone.rows[0].student, "dee");
        assert!(!alone.regrade);
        // A file not named as a lab keeps its own name; a new one joins the class at the end.
        let args = [PathBuf::from("inbox/eve.ipynb")];
        let joined = plan(
            vec![sub("eve", "inbox/eve.ipynb")],
            &args,
            None,
            Some(class.clone()),
            &labs,
        )
        .unwrap();
        assert_eq!(joined.rows.len(), 4);
        assert_eq!(joined.rows[3], sub("eve", "inbox/eve.ipynb"));
        assert_eq!(joined.selected, [3]);
    }

    #[test]
    fn the_class_is_the_gradebooks_rows_else_the_saved_grades() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("grades.csv");
        let feedback = dir.path().join("feedback");
        assert_eq!(earlier_class(&book, &feedback), None);
        let mut grade = Grade::empty("bo", PathBuf::from("s/bo/03-merge.ipynb"));
        std::fs::create_dir_all(feedback.join("bo")).unwrap();
        std::fs::write(
            feedback.join("bo/.03-merge.grade.json"),
            serde_json::to_string(&grade).unwrap(),
        )
        .unwrap();
        assert_eq!(
            earlier_class(&book, &feedback),
            Some(vec![sub("bo", "s/bo/03-merge.ipynb")])
        );
        grade.student = "ana".into();
        std::fs::write(
            &book,
            "student,file,lab,decode,total,max,notes\n\
             zed,s/zed/03-merge.ipynb,03-merge,1,1,2,\"a note,\nover lines\"\n\
             \"an, a\",\"s/an, a/03-merge.ipynb\",03-merge,1,1,2,\n",
        )
        .unwrap();
        assert_eq!(
            earlier_class(&book, &feedback),
            Some(vec![
                sub("zed", "s/zed/03-merge.ipynb"),
                sub("an, a", "s/an, a/03-merge.ipynb")
            ])
        );
    }

    #[test]
    fn a_student_named_is_graded_alone_and_a_folder_is_a_new_class() {
        let dir = tempfile::tempdir().unwrap();
        let labs = [lab("03-merge")];
        let found = vec![
            sub("ana", "s/ana/03-merge.ipynb"),
            sub("bo", "s/bo/03-merge.ipynb"),
        ];
        let args = [dir.path().to_owned()];
        let old = Some(vec![sub("zed", "s/zed/03-merge.ipynb")]);
        let p = plan(found.clone(), &args, Some("bo"), old.clone(), &labs).unwrap();
        assert_eq!(p.rows.len(), 3);
        assert_eq!(p.selected, [2]);
        assert!(p.regrade);
        let p = plan(found.clone(), &args, None, old.clone(), &labs).unwrap();
        assert_eq!(
            (p.rows, p.selected, p.regrade),
            (found.clone(), vec![0, 1], false)
        );
        assert_eq!(
            plan(found, &args, Some("carol"), old, &labs),
            Err(PlanError::UnknownStudent {
                name: "carol".into(),
                known: vec!["ana".into(), "bo".into(), "zed".into()]
            })
        );
    }
}
