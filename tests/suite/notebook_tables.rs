//! The table of notebooks and their exercises is written for students in three places —
//! `notebooks/README.md`, `docs/students.md` and notebook 00 — and graded from one: the check
//! cells of the released notebooks (`notebooks/*.ipynb`, each with its exercise and points).
//! These tests hold the written tables to the released notebooks, and the notebooks, the
//! instructor's sources and the released copies alike, to the one exercise list
//! (`src/exercise/mod.rs`: each exercise's notebook and points), so a notebook, an exercise or
//! a point added to the lab cannot leave a page or the list behind.

use crate::support::notebooks::{cell_text, read_json, root};
use bpe_lab::exercise::Exercise;
use std::fs;
use std::path::PathBuf;

/// Each released notebook (file stem, in order) with its graded exercises and their points,
/// in the notebook's order, as its check cells say.
fn released() -> Vec<(String, Vec<(String, u64)>)> {
    notebook_files("notebooks")
        .iter()
        .map(|path| {
            let nb = read_json(path);
            let exercises = nb["cells"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["metadata"]["nbgrader"]["grade"] == true)
                .filter_map(|c| {
                    let own = &c["metadata"]["bpe_lab"];
                    Some((
                        own["exercise"].as_str()?.to_owned(),
                        own["points"].as_u64()?,
                    ))
                })
                .collect();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, exercises)
        })
        .collect()
}

/// A notebook's graded exercises with their points.
type Exercises = Vec<(String, u64)>;

/// The rows of a page's notebook table: `| \`NN-name\` | what you do | \`ex\` (points), … |`.
fn table(page: &str) -> Vec<(String, String, Exercises)> {
    let text = fs::read_to_string(root().join(page)).unwrap();
    text.lines()
        .filter(|l| {
            let b = l.as_bytes();
            l.starts_with("| `")
                && b.len() > 6
                && b[3..5].iter().all(u8::is_ascii_digit)
                && b[5] == b'-'
        })
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 3, "{page}: {line}");
            let exercises = cells[2]
                .split("), ")
                .filter(|e| *e != "—")
                .map(|e| {
                    let (name, points) = e.trim_end_matches(')').split_once(" (").unwrap();
                    (name.trim_matches('`').to_owned(), points.parse().unwrap())
                })
                .collect();
            let notebook = cells[0].trim_matches('`').to_owned();
            (notebook, cells[1].to_owned(), exercises)
        })
        .collect()
}

#[test]
fn the_pages_tables_list_every_notebook_with_its_exercises_and_points() {
    let released = released();
    assert!(released.len() >= 8, "{released:?}");
    for page in ["notebooks/README.md", "docs/students.md"] {
        let rows: Vec<(String, Vec<(String, u64)>)> = table(page)
            .into_iter()
            .map(|(notebook, _, exercises)| (notebook, exercises))
            .collect();
        assert_eq!(
            rows, released,
            "{page}'s table against the released notebooks"
        );
    }
    // One description of each notebook: the two pages say the same.
    let what = |page| -> Vec<String> { table(page).into_iter().map(|r| r.1).collect() };
    assert_eq!(what("notebooks/README.md"), what("docs/students.md"));
}

/// Notebook 00 lists the series, a row per notebook in order, and names the crate's
/// reference of every exercise.
#[test]
fn notebook_00_names_every_notebook_and_every_exercises_reference() {
    let released = released();
    let welcome = read_json(&root().join("notebooks/00-welcome.ipynb"));
    let text: String = welcome["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| cell_text(&c["source"]))
        .collect::<Vec<_>>()
        .join("\n");
    let series: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| **"))
        .map(|l| l.split(' ').next().unwrap().to_owned())
        .collect();
    let numbers: Vec<String> = released.iter().map(|(n, _)| n[..2].to_owned()).collect();
    assert_eq!(series, numbers, "notebook 00's series table");
    let names = text
        .split("**A reference per exercise.**")
        .nth(1)
        .expect("notebook 00 lists the references")
        .split("- **")
        .next()
        .unwrap();
    for (notebook, exercises) in &released {
        for (exercise, _) in exercises {
            assert!(
                names.contains(&format!("`{exercise}`")),
                "notebook 00 does not name the reference of {exercise} ({notebook})"
            );
        }
    }
}

/// The `.ipynb` files of `dir`, sorted.
fn notebook_files(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<_> = fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    paths.sort();
    paths
}

/// Every check cell of the notebooks in `dir`, in order: its notebook's number (the file
/// name's first two characters), its exercise, its `bpe_lab` points and its `nbgrader` points
/// (absent from the instructor's sources, which `lab release` gives them).
fn check_cells(dir: &str) -> Vec<(String, String, Option<f64>, Option<f64>)> {
    let mut cells = Vec::new();
    for path in notebook_files(dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let nb = read_json(&path);
        for cell in nb["cells"].as_array().unwrap() {
            let meta = &cell["metadata"];
            if let Some(exercise) = meta["bpe_lab"]["exercise"].as_str() {
                cells.push((
                    name[..2].to_owned(),
                    exercise.to_owned(),
                    meta["bpe_lab"]["points"].as_f64(),
                    meta["nbgrader"]["points"].as_f64(),
                ));
            }
        }
    }
    cells
}

/// The list's rows as check cells would state them: notebook, name, points.
fn listed() -> Vec<(String, String, Option<f64>)> {
    Exercise::ALL
        .iter()
        .map(|e| {
            (
                e.notebook().to_owned(),
                e.name().to_owned(),
                Some(f64::from(e.points())),
            )
        })
        .collect()
}

/// Each exercise of the list has one check cell, in the notebook the list names, worth the
/// points the list gives, in the list's order; and no notebook checks an exercise the list
/// does not have. The instructor's sources carry the points in `bpe_lab` metadata; the
/// released copies in `nbgrader` metadata too (what nbgrader grades by).
#[test]
fn the_exercise_list_gives_each_check_cell_its_notebook_and_points() {
    let instructor: Vec<_> = check_cells("instructor")
        .into_iter()
        .map(|(notebook, exercise, points, _)| (notebook, exercise, points))
        .collect();
    assert_eq!(
        instructor,
        listed(),
        "instructor/ against the exercise list"
    );
    let released = check_cells("notebooks");
    let own: Vec<_> = released
        .iter()
        .map(|(notebook, exercise, points, _)| (notebook.clone(), exercise.clone(), *points))
        .collect();
    assert_eq!(own, listed(), "notebooks/ against the exercise list");
    let nbgrader: Vec<_> = released
        .into_iter()
        .map(|(notebook, exercise, _, points)| (notebook, exercise, points))
        .collect();
    assert_eq!(
        nbgrader,
        listed(),
        "notebooks/' nbgrader points against the exercise list"
    );
}

/// The test above can fail: a point or a notebook moved in a cell is seen.
#[test]
fn a_check_cell_that_disagrees_with_the_list_is_seen() {
    let mut cells: Vec<_> = check_cells("instructor")
        .into_iter()
        .map(|(notebook, exercise, points, _)| (notebook, exercise, points))
        .collect();
    cells[0].2 = Some(99.0);
    assert_ne!(cells, listed());
    cells[0].2 = listed()[0].2;
    cells[1].0 = "09".to_owned();
    assert_ne!(cells, listed());
}
