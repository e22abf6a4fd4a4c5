//! Student versions from the instructor sources: solutions replaced by `todo!()`, outputs
//! cleared, and every cell marked as nbgrader marks it (`grade_id`, `locked`, `points`,
//! `solution`, and a checksum of each protected cell) so grading can restore what a student
//! changed. Each student version names its release (`metadata.bpe_lab.release`), and a graded
//! release keeps its protected cells beside the sources ([`super::release_record`]) so that
//! grading compares a student's cells with the release they received.

use super::notebook::{
    BEGIN_SOLUTION, END_SOLUTION, Notebook, NotebookError, Role, cell_id, clear_outputs, is_locked,
    metadata_mut, role, set_source, source,
};
use super::own_tests::cell::{BEGIN_HIDDEN, END_HIDDEN, TestCellError};
use super::own_tests::{OwnTestCell, strip_hidden};
use super::release_record::ReleaseRecord;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Solution markers that do not pair up, by line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MarkerError {
    /// A `// BEGIN SOLUTION` inside the region opened on line `open`.
    Nested { line: usize, open: usize },
    /// A `// END SOLUTION` with no region open.
    Unopened { line: usize },
    /// The region opened on line `open` never ends.
    Unclosed { open: usize },
}

impl fmt::Display for MarkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarkerError::Nested { line, open } => write!(
                f,
                "line {line}: {BEGIN_SOLUTION} inside the region opened on line {open}"
            ),
            MarkerError::Unopened { line } => {
                write!(f, "line {line}: {END_SOLUTION} without a {BEGIN_SOLUTION}")
            }
            MarkerError::Unclosed { open } => {
                write!(f, "line {open}: {BEGIN_SOLUTION} is never closed")
            }
        }
    }
}

impl std::error::Error for MarkerError {}

/// nbgrader's metadata schema version that these fields follow.
const NBGRADER_SCHEMA: u32 = 3;

/// The notebook metadata the lab's kernel (evcxr_jupyter 0.22, kernel spec "rust") reports when
/// a notebook opens: its kernel_info reply's `language_info`, and the kernel spec's name,
/// display name and language. JupyterLab writes these into a notebook's metadata as soon as the
/// kernel answers, so a file that stores less is marked changed by opening it ("save changes?"
/// with no edit, a dirty `git status`). Student versions get exactly these; the instructor
/// sources store them too (a test below compares). tests/browser/ checks them against the
/// real kernel in JupyterLab.
pub(crate) fn kernel_metadata() -> Value {
    json!({
        "kernelspec": { "display_name": "Rust", "language": "rust", "name": "rust" },
        "language_info": {
            "codemirror_mode": "rust",
            "file_extension": ".rs",
            "mimetype": "text/rust",
            "name": "Rust",
            "pygment_lexer": "rust",
            "version": ""
        }
    })
}

/// The text students get in place of each solution region.
pub(crate) const STUB: &str = "todo!()";

/// `text` with every `// BEGIN SOLUTION` … `// END SOLUTION` region (markers included)
/// replaced by `todo!()` at the BEGIN line's indentation: `fn f() -> u8 {` / `// BEGIN
/// SOLUTION` / `7` / `// END SOLUTION` / `}` becomes `fn f() -> u8 {` / `todo!()` / `}`.
pub(crate) fn strip_solutions(text: &str) -> Result<String, MarkerError> {
    let mut out = String::with_capacity(text.len());
    let mut inside: Option<usize> = None;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        match (trimmed, inside) {
            (BEGIN_SOLUTION, None) => {
                let indent = &line[..line.len() - line.trim_start().len()];
                out.push_str(indent);
                out.push_str(STUB);
                out.push('\n');
                inside = Some(number + 1);
            }
            (BEGIN_SOLUTION, Some(open)) => {
                return Err(MarkerError::Nested {
                    line: number + 1,
                    open,
                });
            }
            (END_SOLUTION, Some(_)) => inside = None,
            (END_SOLUTION, None) => {
                return Err(MarkerError::Unopened { line: number + 1 });
            }
            (_, Some(_)) => {}
            (_, None) => out.push_str(line),
        }
    }
    if let Some(open) = inside {
        return Err(MarkerError::Unclosed { open });
    }
    if !text.ends_with('\n') && out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}

/// The hex SHA-256 of a cell's source: what `checksum` holds for protected cells (nbgrader
/// itself uses MD5 over more fields; this tool only compares its own checksums).
pub(crate) fn checksum(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The lab name of a notebook file: its stem (`01-initialize`).
pub(crate) fn lab_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Which student version to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Edition {
    /// For graded courses, and the default: the solutions are gone, only `todo!()` is left.
    #[default]
    Graded,
    /// For self-study courses: as [`Edition::Graded`], plus a folded solution right after each
    /// exercise's check, for a student to open after trying. Never for a graded course: the
    /// answers would ship with the exercises.
    SelfStudy,
}

/// The student version of `source_nb` (read from `path`, which names it in errors), for a
/// graded course.
pub(crate) fn student_version(
    source_nb: &Notebook,
    path: &Path,
) -> Result<Notebook, NotebookError> {
    student_edition(source_nb, path, Edition::Graded)
}

/// The student version of `source_nb` in `edition`.
pub(crate) fn student_edition(
    source_nb: &Notebook,
    path: &Path,
    edition: Edition,
) -> Result<Notebook, NotebookError> {
    let fail = |problem: String| NotebookError {
        path: path.to_owned(),
        problem,
    };
    let mut nb = source_nb.clone();
    let lab = source_nb
        .lab()
        .map(str::to_owned)
        .unwrap_or_else(|| lab_name(path));
    nb.json["metadata"]["bpe_lab"] = match edition {
        Edition::Graded => json!({ "lab": lab, "version": "student" }),
        Edition::SelfStudy => json!({ "lab": lab, "version": "student", "solutions": true }),
    };
    if let (Some(meta), Value::Object(kernel)) =
        (nb.json["metadata"].as_object_mut(), kernel_metadata())
    {
        meta.extend(kernel);
    }
    if edition == Edition::SelfStudy {
        add_folded_solutions(&mut nb);
    }
    let mut seen = HashSet::new();
    let mut exercises = HashSet::new();
    for (index, cell) in nb.cells_mut().iter_mut().enumerate() {
        let Some(id) = cell_id(cell).map(str::to_owned) else {
            return Err(fail(format!(
                "cell {}: has no \"id\" (nbformat 4.5 cell ids are needed to restore cells when grading)",
                index + 1
            )));
        };
        if !seen.insert(id.clone()) {
            return Err(fail(format!(
                "cell {}: the id {id:?} is used twice",
                index + 1
            )));
        }
        let nbgrader = student_cell(cell, &id, &mut exercises)
            .map_err(|problem| fail(format!("cell {} ({id}): {problem}", index + 1)))?;
        mark(cell, nbgrader);
    }
    // Named after its protected cells, once they are final: a change to any of them is a new
    // release, and nothing else is.
    let release = ReleaseRecord::of(&lab, &nb).release;
    nb.json["metadata"]["bpe_lab"]["release"] = json!(release);
    Ok(nb)
}

/// After each check cell, a Markdown cell (id `<check id>-solution`) holding the solution
/// cell that came before it, folded in `<details>`: Markdown, so running the notebook never
/// replaces the student's own function with it. Added before the cells are marked, so it is
/// protected content like any other text.
fn add_folded_solutions(nb: &mut Notebook) {
    let mut last_solution: Option<String> = None;
    let mut cells: Vec<Value> = Vec::new();
    for cell in nb.cells_mut().drain(..) {
        let folded = match role(&cell) {
            Role::Solution => {
                last_solution = Some(solution_text(&source(&cell)));
                None
            }
            Role::Check { exercise, .. } | Role::OwnTest { exercise } => last_solution
                .take()
                .zip(cell_id(&cell).map(|id| format!("{id}-solution")))
                .map(|(code, id)| folded_solution(&id, &exercise, &code)),
            Role::Content => None,
        };
        cells.push(cell);
        cells.extend(folded);
    }
    *nb.cells_mut() = cells;
}

/// A solution cell's text with its markers taken out: the code a student would have written.
fn solution_text(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|line| {
            let marker = line.trim();
            marker != BEGIN_SOLUTION && marker != END_SOLUTION
        })
        .collect::<String>()
        .trim_end()
        .to_owned()
}

fn folded_solution(id: &str, exercise: &str, code: &str) -> Value {
    let text = format!(
        "<details>\n<summary>💡 A solution for <code>{exercise}</code> (open it after you have \
         tried)</summary>\n\n```rust\n{code}\n```\n\n</details>"
    );
    let mut cell = json!({ "cell_type": "markdown", "id": id, "metadata": {}, "source": [] });
    set_source(&mut cell, &text);
    cell
}

/// Why one cell cannot be released.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CellProblem {
    Markers(MarkerError),
    SecondCheck {
        exercise: String,
    },
    SolutionInCheck,
    StrayEnd,
    /// An instructor's test cell that cannot be read or whose hidden-test markers do not pair.
    OwnTest(TestCellError),
    /// Hidden-test markers in a cell not marked as a test cell: they would ship as written.
    HiddenOutsideTest,
}

impl fmt::Display for CellProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellProblem::Markers(e) => e.fmt(f),
            CellProblem::SecondCheck { exercise } => {
                write!(f, "a second check cell for the exercise {exercise:?}")
            }
            CellProblem::SolutionInCheck => f.write_str("a check cell cannot hold a solution"),
            CellProblem::StrayEnd => write!(f, "{END_SOLUTION} without a {BEGIN_SOLUTION}"),
            CellProblem::OwnTest(e) => write!(f, "test cell: {e}"),
            CellProblem::HiddenOutsideTest => write!(
                f,
                "hidden-test markers in a cell that is not a test cell (its metadata needs \
                 {{\"bpe_lab\": {{\"own_test\": \"<exercise>\"}}}}), so they would reach students"
            ),
        }
    }
}

/// Makes `cell` its student version (outputs cleared, solution stubbed) and returns the
/// nbgrader metadata it gets.
fn student_cell(
    cell: &mut Value,
    id: &str,
    exercises: &mut HashSet<String>,
) -> Result<Value, CellProblem> {
    clear_outputs(cell);
    let text = source(cell);
    let role = role(cell);
    if !matches!(role, Role::OwnTest { .. })
        && (text.contains(BEGIN_HIDDEN) || text.contains(END_HIDDEN))
    {
        return Err(CellProblem::HiddenOutsideTest);
    }
    Ok(match role {
        Role::Solution => {
            set_source(cell, &strip_solutions(&text).map_err(CellProblem::Markers)?);
            json!({
                "grade": false, "grade_id": id, "locked": false, "solution": true,
                "schema_version": NBGRADER_SCHEMA,
            })
        }
        Role::Check { exercise, points } => {
            if !exercises.insert(exercise.clone()) {
                return Err(CellProblem::SecondCheck { exercise });
            }
            if text.contains(BEGIN_SOLUTION) {
                return Err(CellProblem::SolutionInCheck);
            }
            json!({
                "grade": true, "grade_id": id, "locked": true, "solution": false,
                "points": points, "checksum": checksum(&text),
                "schema_version": NBGRADER_SCHEMA,
            })
        }
        Role::OwnTest { exercise } => {
            if !exercises.insert(exercise.clone()) {
                return Err(CellProblem::SecondCheck { exercise });
            }
            if text.contains(BEGIN_SOLUTION) {
                return Err(CellProblem::SolutionInCheck);
            }
            // Read whole (hidden tests too) so a broken hidden test is refused here, not found
            // when grading; the student gets the visible part only.
            let tests = OwnTestCell::parse(&exercise, &text).map_err(CellProblem::OwnTest)?;
            let visible = strip_hidden(&text).map_err(CellProblem::OwnTest)?;
            set_source(cell, &visible);
            json!({
                "grade": true, "grade_id": id, "locked": true, "solution": false,
                "points": tests.points(), "checksum": checksum(&visible),
                "schema_version": NBGRADER_SCHEMA,
            })
        }
        Role::Content if text.contains(END_SOLUTION) => return Err(CellProblem::StrayEnd),
        Role::Content => json!({
            "grade": false, "grade_id": id, "locked": true, "solution": false,
            "checksum": checksum(&text), "schema_version": NBGRADER_SCHEMA,
        }),
    })
}

/// Puts nbgrader's metadata on `cell`, and JupyterLab's, which it honours: protected cells
/// cannot be edited or deleted by accident.
fn mark(cell: &mut Value, nbgrader: Value) {
    metadata_mut(cell).insert("nbgrader".to_owned(), nbgrader);
    let locked = is_locked(cell);
    let meta = metadata_mut(cell);
    meta.insert("editable".to_owned(), Value::Bool(!locked));
    meta.insert("deletable".to_owned(), Value::Bool(!locked));
}

/// The instructor sources in `dir`: every `*.ipynb`, sorted by name.
pub(crate) fn sources(dir: &Path) -> Result<Vec<PathBuf>, NotebookError> {
    let entries = std::fs::read_dir(dir).map_err(|e| NotebookError {
        path: dir.to_owned(),
        problem: bpe_lab::files::describe_io_error(&e),
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// What releasing one source did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Released {
    pub(crate) source: PathBuf,
    pub(crate) student: PathBuf,
    /// Whether the file on disk changed (false: it was already up to date).
    pub(crate) changed: bool,
    /// The release record kept now (a graded release not kept before), if any.
    pub(crate) kept: Option<PathBuf>,
}

/// The student file for a source: same name in `out_dir`.
pub(crate) fn student_path(source: &Path, out_dir: &Path) -> PathBuf {
    out_dir.join(source.file_name().unwrap_or_default())
}

/// The bytes a student version is written as.
fn rendered(nb: &Notebook) -> String {
    let mut text = super::notebook::to_jupyter_json(&nb.json);
    text.push('\n');
    text
}

/// Writes the student version (in `edition`) of every source in `source_dir` into `out_dir`.
/// Every source is checked before anything is written, so a bad one leaves all files as they
/// were.
pub(crate) fn release_edition(
    source_dir: &Path,
    out_dir: &Path,
    edition: Edition,
) -> Result<Vec<Released>, NotebookError> {
    let mut planned = Vec::new();
    for path in sources(source_dir)? {
        let student = student_edition(&Notebook::read(&path)?, &path, edition)?;
        planned.push((path, student));
    }
    if edition == Edition::SelfStudy {
        // All checked before anything is written: a refused release leaves the folder as it was.
        for (path, _) in &planned {
            let target = student_path(path, out_dir);
            if edition_of(&target) == Some(Edition::Graded) {
                return Err(NotebookError {
                    path: target,
                    problem: "holds the graded edition, whose solutions are removed; the \
                              self-study edition shows them, so it is never written over a \
                              graded course's notebooks: write it to a folder of its own \
                              (e.g. notebooks-self-study)"
                        .to_owned(),
                });
            }
        }
    }
    std::fs::create_dir_all(out_dir).map_err(|e| NotebookError {
        path: out_dir.to_owned(),
        problem: bpe_lab::files::describe_io_error(&e),
    })?;
    let mut released = Vec::new();
    for (path, student) in planned {
        // The record first: a student version is never out without the record grading needs.
        let kept = match edition {
            Edition::Graded => {
                let record = record_of(&student, &path);
                record.keep(source_dir)?.then(|| record.path(source_dir))
            }
            Edition::SelfStudy => None,
        };
        let target = student_path(&path, out_dir);
        let text = rendered(&student);
        let changed = std::fs::read_to_string(&target).ok().as_deref() != Some(text.as_str());
        if changed {
            student.write(&target)?;
        }
        released.push(Released {
            source: path,
            student: target,
            changed,
            kept,
        });
    }
    Ok(released)
}

/// The release record of `student`, released from the source at `path`.
fn record_of(student: &Notebook, path: &Path) -> ReleaseRecord {
    let lab = student
        .lab()
        .map(str::to_owned)
        .unwrap_or_else(|| lab_name(path));
    ReleaseRecord::of(&lab, student)
}

/// The edition the student file at `path` is ([`edition_in`]); `None` when there is no such
/// file or it is no student version.
pub(crate) fn edition_of(path: &Path) -> Option<Edition> {
    edition_in(&Notebook::read(path).ok()?)
}

/// The edition the student version `nb` is, from the metadata release writes; `None` when it
/// is no student version.
pub(crate) fn edition_in(nb: &Notebook) -> Option<Edition> {
    let meta = &nb.json["metadata"]["bpe_lab"];
    (meta["version"] == "student").then(|| {
        if meta["solutions"] == true {
            Edition::SelfStudy
        } else {
            Edition::Graded
        }
    })
}

/// A student file that is not what [`release`] would write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    pub(crate) student: PathBuf,
    pub(crate) why: Staleness,
}

/// Why a student file is stale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Staleness {
    /// It differs from its source's student version.
    Differs,
    /// It cannot be read (missing, most often): the reason in words.
    Unreadable(String),
    /// Its release's record is not kept where grading looks for it (this file).
    Unrecorded(PathBuf),
}

impl fmt::Display for Stale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.student.display())?;
        match &self.why {
            Staleness::Differs => f.write_str("differs from its source"),
            Staleness::Unreadable(why) => f.write_str(why),
            Staleness::Unrecorded(record) => write!(
                f,
                "its release is not kept in {} (grading compares protected cells with it)",
                record.display()
            ),
        }
    }
}

/// Student files in `out_dir` that differ from what [`release`] would write (or are
/// missing), with the reason.
pub fn stale(source_dir: &Path, out_dir: &Path) -> Result<Vec<Stale>, NotebookError> {
    stale_edition(source_dir, out_dir, Edition::Graded)
}

/// [`stale`] against `edition`.
pub(crate) fn stale_edition(
    source_dir: &Path,
    out_dir: &Path,
    edition: Edition,
) -> Result<Vec<Stale>, NotebookError> {
    let mut out = Vec::new();
    for path in sources(source_dir)? {
        let version = student_edition(&Notebook::read(&path)?, &path, edition)?;
        let expected = rendered(&version);
        let student = student_path(&path, out_dir);
        let record = record_of(&version, &path).path(source_dir);
        let why = match std::fs::read_to_string(&student) {
            Ok(text) if text != expected => Staleness::Differs,
            Ok(_) if edition == Edition::Graded && !record.is_file() => {
                Staleness::Unrecorded(record)
            }
            Ok(_) => continue,
            Err(e) => Staleness::Unreadable(bpe_lab::files::describe_io_error(&e)),
        };
        out.push(Stale { student, why });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_region_becomes_todo_at_its_indentation() {
        let source = "fn f() -> u8 {\n    // BEGIN SOLUTION\n    7\n    // END SOLUTION\n}\n";
        assert_eq!(
            strip_solutions(source).unwrap(),
            "fn f() -> u8 {\n    todo!()\n}\n"
        );
    }

    #[test]
    fn unbalanced_markers_are_refused() {
        assert!(
            strip_solutions("// BEGIN SOLUTION\n").unwrap_err()
                == MarkerError::Unclosed { open: 1 }
        );
        assert!(
            strip_solutions("x\n// END SOLUTION\n").unwrap_err()
                == MarkerError::Unopened { line: 2 }
        );
        assert!(
            strip_solutions("// BEGIN SOLUTION\n// BEGIN SOLUTION\n// END SOLUTION\n")
                .unwrap_err()
                .to_string()
                .contains("inside the region opened on line 1")
        );
    }

    #[test]
    fn text_outside_regions_is_kept() {
        let text = "a\n  // BEGIN SOLUTION\n  b\n  // END SOLUTION\nc";
        assert_eq!(strip_solutions(text).unwrap(), "a\n  todo!()\nc");
        assert_eq!(strip_solutions("no markers").unwrap(), "no markers");
    }

    fn exercise_notebook() -> Notebook {
        Notebook {
            json: json!({
                "cells": [
                    { "cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["Double it."] },
                    { "cell_type": "code", "id": "double", "metadata": {}, "outputs": [],
                      "execution_count": null,
                      "source": ["fn double(x: u8) -> u8 {\n", "    // BEGIN SOLUTION\n", "    x * 2\n",
                                 "    // END SOLUTION\n", "}"] },
                    { "cell_type": "code", "id": "double-check", "outputs": [], "execution_count": null,
                      "metadata": { "bpe_lab": { "exercise": "double", "points": 1 } },
                      "source": ["check(double)"] },
                    { "cell_type": "markdown", "id": "after", "metadata": {}, "source": ["Next."] }
                ],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5
            }),
        }
    }

    fn ids(nb: &Notebook) -> Vec<String> {
        nb.cells()
            .iter()
            .filter_map(|c| cell_id(c).map(str::to_owned))
            .collect()
    }

    #[test]
    fn the_self_study_edition_folds_each_solution_after_its_check() {
        let source_nb = exercise_notebook();
        let path = Path::new("01-double.ipynb");
        let graded = student_version(&source_nb, path).unwrap();
        assert_eq!(ids(&graded), ["intro", "double", "double-check", "after"]);
        assert!(!rendered(&graded).contains("x * 2"));

        let self_study = student_edition(&source_nb, path, Edition::SelfStudy).unwrap();
        assert_eq!(
            ids(&self_study),
            [
                "intro",
                "double",
                "double-check",
                "double-check-solution",
                "after"
            ]
        );
        // The exercise itself is still to be written…
        assert_eq!(
            source(&self_study.cells()[1]),
            "fn double(x: u8) -> u8 {\n    todo!()\n}"
        );
        // …and the solution waits, folded and not runnable, right after the check.
        let folded = &self_study.cells()[3];
        assert_eq!(folded["cell_type"], "markdown");
        let text = source(folded);
        assert!(text.starts_with("<details>"), "{text}");
        assert!(
            text.contains("```rust\nfn double(x: u8) -> u8 {\n    x * 2\n}\n```"),
            "{text}"
        );
        assert!(!text.contains("SOLUTION"), "{text}");
        // Protected like any text, and the notebook says which edition it is.
        assert_eq!(folded["metadata"]["nbgrader"]["locked"], true);
        assert_eq!(self_study.json["metadata"]["bpe_lab"]["solutions"], true);
        assert!(
            graded.json["metadata"]["bpe_lab"]
                .get("solutions")
                .is_none()
        );
    }

    #[test]
    fn student_versions_store_what_the_kernel_reports() {
        let student = student_version(&exercise_notebook(), Path::new("lab.ipynb")).unwrap();
        let meta = &student.json["metadata"];
        assert_eq!(meta["language_info"]["name"], "Rust");
        assert_eq!(meta["language_info"]["mimetype"], "text/rust");
        assert_eq!(meta["kernelspec"]["name"], "rust");
    }

    /// The instructor sources open unchanged too: they store the same kernel metadata.
    #[test]
    fn instructor_sources_store_the_kernel_metadata() {
        let dir = Path::new(env!("BPE_LAB_REPO")).join("instructor");
        let want = kernel_metadata();
        let paths = sources(&dir).unwrap();
        assert!(!paths.is_empty());
        for path in paths {
            let nb = Notebook::read(&path).unwrap();
            for key in ["kernelspec", "language_info"] {
                assert_eq!(
                    nb.json["metadata"][key],
                    want[key],
                    "{}: metadata.{key}",
                    path.display()
                );
            }
        }
    }

    #[test]
    fn checksums_are_sha256() {
        assert_eq!(
            checksum(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
