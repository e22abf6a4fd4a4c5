//! `lab grade-merge`: the shards of a class graded with `--shard K/N`, joined into exactly what
//! one unsharded run writes — the same gradebook rows in the same order with the same columns,
//! the same nbgrader CSV, the same feedback files. The shards' own gradebooks are not read:
//! each shard's feedback folder holds its manifest ([`ShardManifest`]) and every grade as a
//! typed record ([`super::resume`]), and the gradebooks are written again from those by the
//! code a session writes them with ([`Gradebooks`]), so the columns are the whole class's.
//! Everything is read and checked before anything is written (the instructor's adjustments
//! too, against the whole class); each file is written atomically. The merged gradebook is a
//! class like one run's ([`super::class`]): one student can be regraded into it afterwards.

use super::adjustments::{Adjustments, AdjustmentsError, ClassView};
use super::error::{GradeError, GradedNotebookError, Output};
use super::export::moodle::{MoodleOutputs, WorksheetError};
use super::feedback::feedback_path;
use super::graded_notebook::graded_notebooks;
use super::not_graded::Tally;
use super::record::Grade;
use super::resume::saved_grade_path;
use super::session::open_worksheet;
use super::shard::{MANIFEST, Shard, ShardManifest, manifest_path};
use super::submission::Submission;
use super::summary::{ClassSummary, write_summaries};
use super::write::{Gradebooks, write, write_feedback};
use std::fmt;
use std::path::{Path, PathBuf};

/// What to merge, and where the merged files go (the flags of `lab grade`).
#[derive(Debug, Clone)]
pub(crate) struct MergeOptions {
    /// Each shard's feedback folder (or the manifest file in it).
    pub(crate) shards: Vec<PathBuf>,
    /// The instructor sources the shards graded against (for the gradebook's columns).
    pub(crate) sources: PathBuf,
    pub(crate) gradebook: PathBuf,
    pub(crate) nbgrader_csv: Option<PathBuf>,
    /// Canvas's gradebook import CSV, and the assignment's name in Canvas (`Name (id)`).
    pub(crate) canvas_csv: Option<PathBuf>,
    pub(crate) canvas_assignment: Option<String>,
    /// Gradescope's autograder results (`results.json`).
    pub(crate) gradescope_results: Option<PathBuf>,
    /// Moodle's grading worksheet and feedback-files zip.
    pub(crate) moodle: MoodleOutputs,
    pub(crate) feedback: PathBuf,
    /// The instructor's adjustments (else the gradebook's default file, when there is one).
    pub(crate) adjustments: Option<PathBuf>,
}

/// What a merge joined.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Merged {
    pub(crate) shards: usize,
    pub(crate) submissions: usize,
    /// What of the merged gradebook is not graded, and why (as one run's summary says).
    pub(crate) tally: Tally,
    /// The class summary of the merged gradebook (its pages are in the merged feedback folder).
    pub(crate) class: ClassSummary,
}

/// Which part of two manifests differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Difference {
    /// They list different submissions (another class, or files added between the runs).
    Submissions,
    /// One graded everything as one lab (`--lab`), the other as another or by file name.
    Lab,
    /// Their instructor sources held different labs.
    Labs,
    /// They split the class into different numbers of shards.
    ShardCount,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Difference::Submissions => "they list different submissions",
            Difference::Lab => "they graded different labs (--lab)",
            Difference::Labs => "their instructor sources hold different labs",
            Difference::ShardCount => "they split the class into different numbers of shards",
        })
    }
}

/// Why shards could not be merged; nothing is written then.
#[derive(Debug)]
pub(crate) enum MergeError {
    /// No shard was given.
    NoShards,
    /// A shard's manifest is missing or does not read.
    Manifest { path: PathBuf, problem: String },
    /// Two shards are not of the same run.
    Different {
        first: PathBuf,
        second: PathBuf,
        what: Difference,
    },
    /// The same student was graded in two shards.
    Overlap {
        student: String,
        first: PathBuf,
        second: PathBuf,
    },
    /// Some submissions are in no shard given: shards are missing.
    Missing {
        students: Vec<String>,
        shards: Vec<Shard>,
    },
    /// A shard has no readable grade for one of its submissions (it did not finish).
    NoGrade {
        manifest: PathBuf,
        path: PathBuf,
        problem: String,
    },
    /// The sources' labs cannot be read.
    GradedNotebook(GradedNotebookError),
    /// The sources' labs are not the ones the shards graded against.
    Sources {
        sources: PathBuf,
        manifest: PathBuf,
        graded: Vec<String>,
        found: Vec<String>,
    },
    /// The instructor's adjustments file is wrong.
    Adjustments(AdjustmentsError),
    /// The Moodle worksheet given to fill cannot be read.
    MoodleWorksheet(WorksheetError),
    /// A merged file could not be written.
    Write(GradeError),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoShards => f.write_str("no shards to merge"),
            MergeError::Manifest { path, problem } => write!(
                f,
                "{}: not a shard's manifest ({problem}); give each shard's feedback folder, as \
                 `lab grade --shard K/N --feedback DIR` wrote it",
                path.display()
            ),
            MergeError::Different {
                first,
                second,
                what,
            } => write!(
                f,
                "{} and {} are not shards of one run: {what}",
                first.display(),
                second.display()
            ),
            MergeError::Overlap {
                student,
                first,
                second,
            } => write!(
                f,
                "{student} was graded in two shards: {} and {} (a shard given twice?)",
                first.display(),
                second.display()
            ),
            MergeError::Missing { students, shards } => {
                let shown: Vec<&str> = students.iter().take(5).map(String::as_str).collect();
                let more = students.len().saturating_sub(shown.len());
                let shards: Vec<String> = shards.iter().map(Shard::to_string).collect();
                write!(
                    f,
                    "{} submission(s) are in no shard given ({}{}): shard(s) {} missing",
                    students.len(),
                    shown.join(", "),
                    if more > 0 {
                        format!(" and {more} more")
                    } else {
                        String::new()
                    },
                    shards.join(", ")
                )
            }
            MergeError::NoGrade {
                manifest,
                path,
                problem,
            } => write!(
                f,
                "{}: the shard has no grade {} ({problem}); finish it with `lab grade --shard K/N --resume`",
                manifest.display(),
                path.display()
            ),
            MergeError::GradedNotebook(e) => e.fmt(f),
            MergeError::Sources {
                sources,
                manifest,
                graded,
                found,
            } => write!(
                f,
                "{} holds the labs {}, but {} graded against {}",
                sources.display(),
                found.join(", "),
                manifest.display(),
                graded.join(", ")
            ),
            MergeError::Adjustments(e) => e.fmt(f),
            MergeError::MoodleWorksheet(e) => e.fmt(f),
            MergeError::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MergeError {}

/// A shard as read: its manifest, where it came from, and its folder.
struct ShardRead {
    manifest: ShardManifest,
    path: PathBuf,
    dir: PathBuf,
}

fn read_shard(given: &Path) -> Result<ShardRead, MergeError> {
    let (path, dir) = if given.is_dir() {
        (manifest_path(given), given.to_owned())
    } else {
        let dir = given
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_owned();
        (given.to_owned(), dir)
    };
    let problem = |problem: String| MergeError::Manifest {
        path: path.clone(),
        problem,
    };
    let bytes = std::fs::read(&path).map_err(|e| {
        problem(if e.kind() == std::io::ErrorKind::NotFound {
            format!("no {MANIFEST}: it was not graded with --shard")
        } else {
            bpe_lab::files::describe_io_error(&e)
        })
    })?;
    let manifest = serde_json::from_slice(&bytes).map_err(|e| problem(e.to_string()))?;
    Ok(ShardRead {
        manifest,
        path,
        dir,
    })
}

/// The shards must be of one run, and together hold every submission exactly once.
fn check_shards(shards: &[ShardRead]) -> Result<(), MergeError> {
    let first = &shards[0];
    let different = |other: &ShardRead, what| MergeError::Different {
        first: first.path.clone(),
        second: other.path.clone(),
        what,
    };
    for other in &shards[1..] {
        let (a, b) = (&first.manifest, &other.manifest);
        if a.lab != b.lab {
            return Err(different(other, Difference::Lab));
        }
        if a.labs != b.labs {
            return Err(different(other, Difference::Labs));
        }
        if a.submissions != b.submissions {
            return Err(different(other, Difference::Submissions));
        }
    }
    let mut holder: Vec<Option<&Path>> = vec![None; first.manifest.submissions.len()];
    for shard in shards {
        for (i, submission) in shard.manifest.held() {
            if let Some(earlier) = holder[i] {
                return Err(MergeError::Overlap {
                    student: submission.student.clone(),
                    first: earlier.to_owned(),
                    second: shard.path.clone(),
                });
            }
            holder[i] = Some(&shard.path);
        }
    }
    if let Some(other) = shards
        .iter()
        .find(|s| s.manifest.shard.count != first.manifest.shard.count)
    {
        return Err(different(other, Difference::ShardCount));
    }
    let students: Vec<String> = first
        .manifest
        .submissions
        .iter()
        .zip(&holder)
        .filter(|(_, h)| h.is_none())
        .map(|(s, _)| s.student.clone())
        .collect();
    if !students.is_empty() {
        let count = first.manifest.shard.count;
        let shards = (1..=count)
            .map(|index| Shard { index, count })
            .filter(|s| shards.iter().all(|r| r.manifest.shard != *s))
            .collect();
        return Err(MergeError::Missing { students, shards });
    }
    Ok(())
}

/// One submission's files as a shard wrote them: the saved grade and the feedback files.
struct Files {
    grade: Grade,
    /// (name in the student's feedback folder, bytes)
    copies: Vec<(PathBuf, Vec<u8>)>,
}

fn read_files(shard: &ShardRead, submission: &Submission) -> Result<Files, MergeError> {
    if submission.is_absent() {
        // Nothing was graded: the row is the roster's, its page rewritten by the merge.
        return Ok(Files {
            grade: Grade::no_submission(&submission.student, submission.name.clone()),
            copies: Vec::new(),
        });
    }
    let saved = saved_grade_path(submission, &shard.dir);
    let no_grade = |path: &Path, problem: String| MergeError::NoGrade {
        manifest: shard.path.clone(),
        path: path.to_owned(),
        problem,
    };
    let read = |path: &Path| {
        std::fs::read(path).map_err(|e| no_grade(path, bpe_lab::files::describe_io_error(&e)))
    };
    let saved_bytes = read(&saved)?;
    let grade: Grade =
        serde_json::from_slice(&saved_bytes).map_err(|e| no_grade(&saved, e.to_string()))?;
    if grade.student != submission.student || grade.file != submission.file {
        return Err(no_grade(
            &saved,
            format!(
                "it is the grade of {} ({}), not of {} ({})",
                grade.student,
                grade.file.display(),
                submission.student,
                submission.file.display()
            ),
        ));
    }
    let markdown = feedback_path(&grade, &shard.dir);
    let mut copies = Vec::new();
    for (path, required) in [
        (markdown.clone(), true),
        (markdown.with_extension("html"), true),
        (markdown.with_extension("executed.ipynb"), false),
        (saved.clone(), true),
    ] {
        if !required && !path.is_file() {
            continue;
        }
        let relative = path.strip_prefix(&shard.dir).unwrap_or(&path).to_owned();
        copies.push((relative, read(&path)?));
    }
    Ok(Files { grade, copies })
}

/// Merges the shards into one gradebook, nbgrader CSV and feedback folder.
pub(crate) fn merge_shards(options: &MergeOptions) -> Result<Merged, MergeError> {
    if options.shards.is_empty() {
        return Err(MergeError::NoShards);
    }
    let shards = options
        .shards
        .iter()
        .map(|p| read_shard(p))
        .collect::<Result<Vec<_>, _>>()?;
    check_shards(&shards)?;
    let first = &shards[0];
    let labs = graded_notebooks(&options.sources).map_err(MergeError::GradedNotebook)?;
    let found: Vec<String> = labs.iter().map(|l| l.name.clone()).collect();
    if found != first.manifest.labs {
        return Err(MergeError::Sources {
            sources: options.sources.clone(),
            manifest: first.path.clone(),
            graded: first.manifest.labs.clone(),
            found,
        });
    }
    let mut files = Vec::new();
    for submission in &first.manifest.submissions {
        let shard = shards
            .iter()
            .find(|s| s.manifest.shard.holds(submission))
            .expect("checked: every submission is in a shard");
        files.push(read_files(shard, submission)?);
    }
    let graded: Vec<_> = labs
        .iter()
        .filter(|l| {
            first
                .manifest
                .lab
                .as_ref()
                .is_none_or(|name| &l.name == name)
        })
        .cloned()
        .collect();
    let adjustments =
        Adjustments::read(options.adjustments.as_deref(), &options.gradebook, &graded)
            .map_err(MergeError::Adjustments)?;
    adjustments
        .check(&ClassView {
            students: first
                .manifest
                .submissions
                .iter()
                .map(|s| s.student.as_str())
                .collect(),
            labs: &graded,
        })
        .map_err(MergeError::Adjustments)?;
    let worksheet = open_worksheet(&options.moodle).map_err(MergeError::MoodleWorksheet)?;
    for f in &files {
        for (relative, bytes) in &f.copies {
            let path = options.feedback.join(relative);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|error| {
                    MergeError::Write(GradeError::Write {
                        output: Output::Feedback,
                        path: dir.to_owned(),
                        error,
                    })
                })?;
            }
            write(Output::Feedback, &path, bytes).map_err(MergeError::Write)?;
        }
    }
    // The shards' feedback pages show their own runs' adjustments: these are the merge's.
    for f in &files {
        write_feedback(&f.grade, &options.feedback, &adjustments).map_err(MergeError::Write)?;
    }
    let grades: Vec<Option<Grade>> = files.into_iter().map(|f| Some(f.grade)).collect();
    let books = Gradebooks {
        csv: options.gradebook.clone(),
        nbgrader_csv: options.nbgrader_csv.clone(),
        canvas_csv: options
            .canvas_csv
            .clone()
            .map(|p| (p, options.canvas_assignment.clone())),
        gradescope_results: options.gradescope_results.clone(),
        // grade-merge reads no roster: the students' folder names are their logins.
        canvas_ids: Vec::new(),
        moodle_worksheet: worksheet,
        moodle_feedback_zip: options.moodle.feedback_zip.clone(),
        lab: first.manifest.lab.clone(),
        adjustments,
    };
    books.write(&grades, &labs).map_err(MergeError::Write)?;
    let class =
        write_summaries(grades.iter().flatten(), &options.feedback).map_err(MergeError::Write)?;
    Ok(Merged {
        shards: shards.len(),
        submissions: grades.len(),
        tally: Tally::of(grades.iter().flatten()),
        class,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(dir: &Path, shard: &str, students: &[&str], lab: Option<&str>) -> PathBuf {
        let m = ShardManifest {
            shard: shard.parse().unwrap(),
            lab: lab.map(str::to_owned),
            labs: vec!["01-x".into()],
            submissions: students
                .iter()
                .map(|s| Submission {
                    student: (*s).into(),
                    file: PathBuf::from(format!("subs/{s}/01-x.ipynb")),
                    ..Submission::default()
                })
                .collect(),
        };
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(manifest_path(dir), serde_json::to_string(&m).unwrap()).unwrap();
        dir.to_owned()
    }

    fn options(shards: Vec<PathBuf>, out: &Path) -> MergeOptions {
        MergeOptions {
            shards,
            sources: out.join("no-sources"),
            gradebook: out.join("grades.csv"),
            nbgrader_csv: None,
            canvas_csv: None,
            canvas_assignment: None,
            gradescope_results: None,
            moodle: MoodleOutputs::default(),
            feedback: out.join("feedback"),
            adjustments: None,
        }
    }

    #[test]
    fn shards_of_other_runs_overlapping_or_missing_are_refused_naming_the_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // "ana" is in shard 2 of 3, "bo" in 2 of 3, "carol" in 3 of 3 (see shard.rs).
        let class = ["ana", "bo", "carol"];
        let one = manifest(&d.join("s1"), "1/3", &class, None);
        let two = manifest(&d.join("s2"), "2/3", &class, None);
        let again = manifest(&d.join("s2-again"), "2/3", &class, None);
        let other_lab = manifest(&d.join("s3-lab"), "3/3", &class, Some("01-x"));
        let other_class = manifest(&d.join("s3-class"), "3/3", &["ana", "bo"], None);
        let halves = manifest(&d.join("h2"), "2/2", &class, None);
        let run = |shards: Vec<PathBuf>| merge_shards(&options(shards, d)).unwrap_err();

        let e = run(vec![one.clone(), two.clone(), again.clone()]);
        assert!(
            matches!(&e, MergeError::Overlap { student, first, second }
                if student == "ana" && *first == manifest_path(&two) && *second == manifest_path(&again)),
            "{e:?}"
        );
        let e = run(vec![one.clone(), other_lab.clone()]);
        assert!(matches!(
            &e,
            MergeError::Different {
                what: Difference::Lab,
                ..
            }
        ));
        assert!(e.to_string().contains("s3-lab"), "{e}");
        let e = run(vec![one.clone(), other_class]);
        assert!(matches!(
            &e,
            MergeError::Different {
                what: Difference::Submissions,
                ..
            }
        ));
        let e = run(vec![one.clone(), halves]);
        assert!(matches!(
            &e,
            MergeError::Overlap { .. }
                | MergeError::Different {
                    what: Difference::ShardCount,
                    ..
                }
        ));
        let e = run(vec![one.clone(), two.clone()]);
        assert!(
            matches!(&e, MergeError::Missing { students, shards }
                if *students == ["carol"] && *shards == [Shard { index: 3, count: 3 }]),
            "{e:?}"
        );
        assert!(e.to_string().contains("shard(s) 3/3 missing"), "{e}");
        let e = run(vec![d.join("nowhere")]);
        assert!(e.to_string().contains("nowhere"), "{e}");
        assert!(!d.join("grades.csv").exists() && !d.join("feedback").exists());
    }
}
