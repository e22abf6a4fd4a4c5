//! An nbgrader course made from the instructor sources, for instructors whose course already
//! runs on nbgrader (release, collect, autograde, formgrader, feedback, LMS export).
//!
//! nbgrader wants source notebooks with its own cell metadata (what its "Create Assignment"
//! toolbar writes) in `source/<assignment>/`, and a configuration that knows the Rust stub.
//! The sources here get the same `grade_id` / `locked` / `solution` / `grade` / `points` as
//! `bpe-lab lab release` gives the student versions, with the solutions kept and no checksum
//! (nbgrader computes its own: MD5 over source and metadata, where `release` writes SHA-256 of
//! the source). The crate is found by an absolute path, since an assignment folder is not next
//! to the crate as `notebooks/` is.

use super::crate_path::RELATIVE_CRATE;
use super::notebook::{Notebook, NotebookError, metadata_mut, set_source, source};
use super::release::{STUB, lab_name, sources, student_version};
use super::release_record::ReleaseRecord;
use bpe_lab::files::{describe_io_error, write_atomically};
use serde_json::json;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a course could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CourseError {
    /// A source could not be read or converted, or a file could not be written.
    Notebook(NotebookError),
    /// The sources folder holds no notebook.
    NoSources { dir: PathBuf },
    /// The crate's folder cannot be found.
    NoCrate { dir: PathBuf, problem: String },
    /// The folder given as the crate has no `Cargo.toml`.
    NotACrate { dir: PathBuf },
}

impl fmt::Display for CourseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CourseError::Notebook(e) => e.fmt(f),
            CourseError::NoSources { dir } => write!(f, "{} holds no notebooks", dir.display()),
            CourseError::NoCrate { dir, problem } => {
                write!(f, "cannot find the crate '{}': {problem}", dir.display())
            }
            CourseError::NotACrate { dir } => write!(
                f,
                "{} has no Cargo.toml: it is not the bpe-lab crate",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for CourseError {}

impl From<NotebookError> for CourseError {
    fn from(e: NotebookError) -> CourseError {
        CourseError::Notebook(e)
    }
}

/// The crate the course's notebooks depend on, as an absolute path: `crate_dir` when given,
/// else the sources folder's parent (where `instructor/` sits in this repository).
pub(crate) fn find_crate(
    sources_dir: &Path,
    crate_dir: Option<&Path>,
) -> Result<PathBuf, CourseError> {
    let absolute = |dir: &Path| {
        dir.canonicalize().map_err(|e| CourseError::NoCrate {
            dir: dir.to_owned(),
            problem: describe_io_error(&e),
        })
    };
    let dir = match crate_dir {
        Some(dir) => absolute(dir)?,
        None => absolute(sources_dir)?
            .parent()
            .map(Path::to_owned)
            .unwrap_or_default(),
    };
    if !dir.join("Cargo.toml").is_file() {
        return Err(CourseError::NotACrate { dir });
    }
    Ok(dir)
}

/// Writes the course of every source in `sources_dir` (see [`write_course`]).
pub(crate) fn write_course_from(
    sources_dir: &Path,
    crate_dir: &Path,
    course: &Path,
) -> Result<Vec<String>, CourseError> {
    let paths = sources(sources_dir)?;
    if paths.is_empty() {
        return Err(CourseError::NoSources {
            dir: sources_dir.to_owned(),
        });
    }
    Ok(write_course(&paths, crate_dir, course)?)
}

/// evcxr answers a failed cell without the `ename`, `evalue` and `traceback` of Jupyter's
/// error reply, and nbgrader 0.9's executor reads them (a `KeyError` that fails the whole
/// submission): the configuration fills them in from the cell's error output first.
const EVCXR_ERROR_FIELDS: &str = r#"
# evcxr's error replies lack "ename", "evalue" and "traceback", which nbgrader's executor reads:
# fill them in from the cell's error output before nbgrader looks.
try:
    from nbgrader.preprocessors.execute import Execute as _Execute
except ImportError:
    _Execute = None
if _Execute is not None and not getattr(_Execute, "_bpe_lab_error_fields", False):
    _on_cell_executed = _Execute.on_cell_executed

    def _with_error_fields(self, **kwargs):
        content = kwargs["execute_reply"]["content"]
        if content.get("status") == "error":
            errors = [o for o in kwargs["cell"].outputs if o.get("output_type") == "error"]
            last = errors[-1] if errors else {}
            content.setdefault("ename", last.get("ename", "Error"))
            content.setdefault("evalue", last.get("evalue", ""))
            content.setdefault("traceback", list(last.get("traceback", [])))
        return _on_cell_executed(self, **kwargs)

    _Execute.on_cell_executed = _with_error_fields
    _Execute._bpe_lab_error_fields = True
"#;

/// The course's `nbgrader_config.py`: the Rust stub and markers, and a cell time limit.
pub(crate) fn config() -> String {
    format!(
        "# nbgrader configuration for the bpe-lab course (written by `bpe-lab lab nbgrader-course`).\n\
         c = get_config()\n\
         c.CourseDirectory.root = __import__(\"os\").path.dirname(__import__(\"os\").path.abspath(__file__))\n\
         # Solutions sit between `// BEGIN SOLUTION` and `// END SOLUTION`; students get `{STUB}`.\n\
         c.ClearSolutions.begin_solution_delimeter = \"BEGIN SOLUTION\"\n\
         c.ClearSolutions.end_solution_delimeter = \"END SOLUTION\"\n\
         c.ClearSolutions.code_stub = {{\"rust\": \"{STUB}\", \"python\": \"# YOUR CODE HERE\\nraise NotImplementedError()\"}}\n\
         # The first cell of a notebook compiles the crate in the kernel: give cells time.\n\
         c.ExecutePreprocessor.timeout = 600\n\
         {EVCXR_ERROR_FIELDS}"
    )
}

/// The nbgrader source version of `source_nb` (read from `path`), depending on the crate at
/// `crate_dir` (an absolute path).
pub(crate) fn nbgrader_source(
    source_nb: &Notebook,
    path: &Path,
    crate_dir: &Path,
) -> Result<Notebook, NotebookError> {
    // The metadata a student version gets, on the cells with their solutions.
    let mut nb = student_version(source_nb, path)?;
    let dep = format!("path = {:?}", crate_dir.display().to_string());
    for (cell, original) in nb.cells_mut().iter_mut().zip(source_nb.cells()) {
        set_source(cell, &source(original).replace(RELATIVE_CRATE, &dep));
        if let Some(nbgrader) = metadata_mut(cell)
            .get_mut("nbgrader")
            .and_then(|v| v.as_object_mut())
        {
            nbgrader.remove("checksum");
            nbgrader.insert("task".to_owned(), json!(false));
        }
    }
    nb.json["metadata"]["bpe_lab"]["version"] = json!("nbgrader-source");
    Ok(nb)
}

/// Writes the course into `course`: `nbgrader_config.py` and `source/<lab>/<lab>.ipynb` for
/// each source in `sources`. Returns the labs written. Nothing is written unless every source
/// converts.
pub(crate) fn write_course(
    sources: &[PathBuf],
    crate_dir: &Path,
    course: &Path,
) -> Result<Vec<String>, NotebookError> {
    let mut converted = Vec::new();
    for path in sources {
        let nb = Notebook::read(path)?;
        converted.push((lab_name(path), nbgrader_source(&nb, path, crate_dir)?));
    }
    // The students' notebooks come from nbgrader, not `lab release`: keep their release too,
    // so grading still knows it after the sources change (the crate's path aside, it is the
    // release `lab release` would make).
    for path in sources {
        let student = student_version(&Notebook::read(path)?, path)?;
        let lab = student.lab().map_or_else(|| lab_name(path), str::to_owned);
        ReleaseRecord::of(&lab, &student).keep(path.parent().unwrap_or(Path::new(".")))?;
    }
    let fail = |path: &Path, e: std::io::Error| NotebookError {
        path: path.to_owned(),
        problem: bpe_lab::files::describe_io_error(&e),
    };
    std::fs::create_dir_all(course).map_err(|e| fail(course, e))?;
    let config_path = course.join("nbgrader_config.py");
    write_atomically(&config_path, |w| w.write_all(config().as_bytes()))
        .map_err(|e| fail(&config_path, e))?;
    let mut labs = Vec::new();
    for (lab, nb) in converted {
        let dir = course.join("source").join(&lab);
        std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
        nb.write(&dir.join(format!("{lab}.ipynb")))?;
        labs.push(lab);
    }
    Ok(labs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_keep_solutions_and_find_the_crate_by_absolute_path() {
        let text = r#"{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "rust", "language": "rust", "display_name": "Rust"}},
          "cells": [
            {"cell_type": "code", "id": "setup", "metadata": {"bpe_lab": {"role": "setup"}}, "source": ":dep bpe-lab = { path = \"..\" }", "outputs": [], "execution_count": null},
            {"cell_type": "code", "id": "sol", "metadata": {}, "source": "fn f() -> u8 {\n    // BEGIN SOLUTION\n    7\n    // END SOLUTION\n}", "outputs": [], "execution_count": null},
            {"cell_type": "code", "id": "chk", "metadata": {"bpe_lab": {"exercise": "f", "points": 2}}, "source": "check(f)", "outputs": [], "execution_count": null}
          ]}"#;
        let nb = Notebook::parse(text.as_bytes(), Path::new("03-x.ipynb")).unwrap();
        let out = nbgrader_source(&nb, Path::new("03-x.ipynb"), Path::new("/opt/bpe-lab")).unwrap();
        let cells = out.cells();
        assert_eq!(
            source(&cells[0]),
            ":dep bpe-lab = { path = \"/opt/bpe-lab\" }"
        );
        assert!(source(&cells[1]).contains("// BEGIN SOLUTION\n    7"));
        let meta = |i: usize| cells[i]["metadata"]["nbgrader"].clone();
        assert_eq!(meta(1)["solution"], true);
        assert_eq!(meta(1)["grade_id"], "sol");
        assert_eq!(meta(2)["grade"], true);
        assert_eq!(meta(2)["points"].as_f64(), Some(2.0));
        assert_eq!(meta(0)["locked"], true);
        for i in 0..3 {
            assert!(meta(i).get("checksum").is_none());
            assert_eq!(meta(i)["task"], false);
        }
        // The path is what the release varies, and only the path: compared, the cells agree.
        assert_eq!(
            crate::course::crate_path::with_relative_crate(&source(&cells[0])),
            source(&nb.cells()[0])
        );
    }

    /// The guide's nbgrader flow: `nbgrader generate_assignment` makes the student version
    /// from this course's source, with the crate's absolute path in the setup cell. Graded, an
    /// untouched one is accused of nothing, and an edit is still one.
    #[test]
    fn an_untouched_nbgrader_released_notebook_is_accused_of_nothing() {
        use crate::course::grade::graded_notebook::GradedNotebook;
        use crate::course::release::strip_solutions;
        use crate::course::restore::{Restoration, restore};
        let path = Path::new(env!("BPE_LAB_REPO")).join("instructor/03-merge.ipynb");
        let lab = GradedNotebook::read(&path).unwrap();
        let course_source = nbgrader_source(
            &Notebook::read(&path).unwrap(),
            &path,
            Path::new("/srv/course/bpe-lab"),
        )
        .unwrap();
        // What generate_assignment does to it: solutions cleared to the stub, its own
        // checksums (MD5) on protected cells.
        let mut student = course_source.clone();
        for cell in student.cells_mut() {
            let meta = &mut cell["metadata"]["nbgrader"];
            if meta["solution"] == true {
                let text = strip_solutions(&source(cell)).unwrap();
                set_source(cell, &text);
            } else {
                meta["checksum"] = json!("0123456789abcdef0123456789abcdef");
            }
        }
        let setup = student
            .cells()
            .iter()
            .position(|c| c["metadata"]["bpe_lab"]["role"] == "setup")
            .unwrap();
        assert!(source(&student.cells()[setup]).contains("/srv/course/bpe-lab"));
        let (_, notes) = restore(&student, &lab.released, &lab.releases);
        assert_eq!(notes, []);
        // Also when nbgrader's copy had lost the notebook's name for its release.
        let mut unnamed = student.clone();
        unnamed.json["metadata"]["bpe_lab"] = json!({});
        assert_eq!(restore(&unnamed, &lab.released, &lab.releases).1, []);
        student.cells_mut()[setup]["source"] =
            json!(":dep bpe-lab = { path = \"/mine\" }\n:dep rand = \"0.8\"");
        assert_eq!(
            restore(&student, &lab.released, &lab.releases).1,
            [Restoration::Reverted {
                cell: "03-setup".into()
            }]
        );
    }
}
