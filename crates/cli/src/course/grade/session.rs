//! A grading session, from the instructor's settings to the written gradebook: the labs, the
//! sandbox, the scratch root, the submissions, what `--resume` keeps, the queue, and every
//! grade written as it finishes. Whoever runs it (the command line) hears of its progress
//! through [`Event`]s and prints them.

use super::adjustments::{Adjustments, ClassView};
use super::class::{Plan, PlanError, earlier_class, plan};
use super::error::{GradeError, Output};
use super::export::moodle::{MoodleOutputs, Worksheet};
use super::graded_notebook::{GradedNotebook, graded_notebooks};
use super::intake::roster::CanvasIds;
use super::intake::{Intake, IntakeOptions, collect};
use super::job::GradeOptions;
use super::lateness::LateRule;
use super::not_graded::Tally;
use super::queue::{default_jobs, grade_queue};
use super::record::Grade;
use super::resume::{kept_grade, read_saved, saved_grade, setup_changed};
use super::scratch::scratch_root;
use super::setup::RunSetup;
use super::shard::{Shard, ShardManifest, manifest_path};
use super::submission::Submission;
use super::summary::{ClassSummary, write_summaries};
use super::write::{Gradebooks, write_feedback, write_grade};
use crate::course::judge::JudgeOptions;
use crate::course::process::sandbox::Sandbox;
use crate::course::run_sandboxed::ExecuteOptions;
use bpe_lab::files::write_atomically;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The least address space, MiB, for the code of an executed notebook: it loads polars (a
/// large debug build) and needs gigabytes where a worker needs a few megabytes.
pub(crate) const EXECUTE_MEMORY_MB: u64 = 4096;

/// Everything a session needs to know.
#[derive(Debug, Clone)]
pub(crate) struct SessionOptions {
    /// Submitted notebooks, or folders of them (one sub-folder per student).
    pub(crate) submissions: Vec<PathBuf>,
    /// The instructor sources the labs are read from.
    pub(crate) sources: PathBuf,
    /// Grade every submission as this lab.
    pub(crate) lab: Option<String>,
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
    /// Address space of each process running student code, MiB.
    pub(crate) memory_mb: u64,
    pub(crate) check_limit: Duration,
    pub(crate) compile_limit: Duration,
    /// Submissions graded at once (default: one per core).
    pub(crate) jobs: Option<usize>,
    /// Keep the grades of unchanged submissions graded by an earlier run (except what the
    /// grader's own trouble left not graded).
    pub(crate) resume: bool,
    /// Grade only this shard of the submissions (and leave its manifest for the merge).
    pub(crate) shard: Option<Shard>,
    /// Also execute each restored notebook, with this time limit for the whole run.
    pub(crate) execute: Option<Duration>,
    /// Run student code unconfined when the sandbox cannot work here.
    pub(crate) allow_unconfined: bool,
    /// Regrade only this student's submissions, keeping the class's other rows.
    pub(crate) student: Option<String>,
    /// The instructor's adjustments (else `<gradebook>.adjustments.csv` beside the gradebook,
    /// when there is one).
    pub(crate) adjustments: Option<PathBuf>,
    /// The class list: every student on it gets a row (`--roster`).
    pub(crate) roster: Option<PathBuf>,
    /// Whose a file is, by a regular expression with a `student` group (`--name-pattern`).
    pub(crate) name_pattern: Option<String>,
    /// The due date and late policy (`--due`, `--late-policy`).
    pub(crate) late: LateRule,
}

/// What a session reports as it goes.
#[derive(Debug)]
pub(crate) enum Event<'a> {
    /// Student code will run unconfined.
    Unconfined,
    /// What was found to grade: files set aside, the LMSs recognized, the roster.
    Collected(&'a Intake),
    /// `--resume`: how many grades were kept, how many are graded (of which how many had
    /// been left not graded by the grader's own trouble, and how many were graded under
    /// another grading setup).
    Resuming {
        kept: usize,
        to_grade: usize,
        not_graded_before: usize,
        setup_changed: usize,
    },
    /// Part of a class is regraded: `graded` of its `class` submissions; the other rows are
    /// kept as they were.
    Regrading { graded: usize, class: usize },
    /// `--shard`: this run grades `holds` of the class's `of` submissions.
    Sharded {
        shard: Shard,
        holds: usize,
        of: usize,
    },
    /// Grading starts.
    Started { to_grade: usize },
    /// One more submission is graded (and its files written).
    Graded {
        done: usize,
        of: usize,
        grade: &'a Grade,
    },
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Summary {
    /// Submissions of this run (of this shard, when sharded).
    pub(crate) submissions: usize,
    /// How many were graded now (the others were kept by `--resume`).
    pub(crate) graded: usize,
    pub(crate) jobs: usize,
    pub(crate) seconds: f64,
    /// What of the whole gradebook is not graded, and why.
    pub(crate) tally: Tally,
    /// The class summary of the whole gradebook (its pages are written in the feedback folder).
    pub(crate) class: ClassSummary,
}

/// Runs a whole session.
pub(crate) fn grade_all(
    options: &SessionOptions,
    mut report: impl FnMut(Event),
) -> Result<Summary, GradeError> {
    let labs = labs_for(options)?;
    // Before anything else, so an instructor's mistake stops the run with nothing written.
    let lab_names: Vec<String> = labs.iter().map(|l| l.name.clone()).collect();
    let intake = collect(&IntakeOptions {
        paths: &options.submissions,
        name_pattern: options.name_pattern.as_deref(),
        roster: options.roster.as_deref(),
        feedback: &options.feedback,
        lab: options.lab.as_deref(),
        labs: &lab_names,
        zone: options.late.unwritten_zone(),
    })?;
    report(Event::Collected(&intake));
    let canvas_ids = intake
        .roster
        .as_ref()
        .map(|r| r.canvas.clone())
        .unwrap_or_default();
    let sandbox = Sandbox::detect(options.allow_unconfined).map_err(|e| GradeError::Sandbox {
        problem: e.to_string(),
    })?;
    if !sandbox.confined() {
        report(Event::Unconfined);
    }
    let execute = execute_options(options, &sandbox)?;
    let root = scratch_root(&sandbox)?;
    let job = GradeOptions {
        labs: labs.clone(),
        expected_lab: options.lab.clone(),
        judge: JudgeOptions {
            sandbox,
            memory_mb: options.memory_mb,
            check_limit: options.check_limit,
            compile_limit: options.compile_limit,
        },
        scratch_root: root.path().to_owned(),
        execute,
        late: options.late.clone(),
    };
    let plan = match options.shard {
        None => plan(
            intake.submissions,
            &options.submissions,
            options.student.as_deref(),
            earlier_class(&options.gradebook, &options.feedback),
            &labs,
        )
        .map_err(|PlanError::UnknownStudent { name, known }| {
            GradeError::UnknownStudent { name, known }
        })?,
        // A shard's rows are joined from the grades it saved; who handed nothing in is in the
        // manifest, held by the first shard ([`Shard::holds`]), so the merge has their rows.
        Some(_) => {
            let rows: Vec<Submission> = intake.submissions;
            Plan {
                selected: (0..rows.len()).collect(),
                rows,
                regrade: false,
            }
        }
    };
    // The adjustments are checked against the whole class (and the lab asked for) before
    // anything is written.
    let graded: Vec<GradedNotebook> = labs
        .iter()
        .filter(|l| options.lab.as_ref().is_none_or(|name| &l.name == name))
        .cloned()
        .collect();
    let adjustments =
        Adjustments::read(options.adjustments.as_deref(), &options.gradebook, &graded)
            .map_err(GradeError::Adjustments)?;
    adjustments
        .check(&ClassView {
            students: plan.rows.iter().map(|s| s.student.as_str()).collect(),
            labs: &graded,
        })
        .map_err(GradeError::Adjustments)?;
    let worksheet = open_worksheet(&options.moodle).map_err(GradeError::MoodleWorksheet)?;
    let plan = match options.shard {
        None => {
            if plan.regrade {
                report(Event::Regrading {
                    graded: plan.selected.len(),
                    class: plan.rows.len(),
                });
            }
            plan
        }
        Some(shard) => {
            let manifest = ShardManifest {
                shard,
                lab: options.lab.clone(),
                labs: labs.iter().map(|l| l.name.clone()).collect(),
                submissions: plan.rows,
            };
            write_manifest(&manifest, &options.feedback)?;
            let held: Vec<Submission> = manifest.held().map(|(_, s)| s.clone()).collect();
            report(Event::Sharded {
                shard,
                holds: held.len(),
                of: manifest.submissions.len(),
            });
            Plan {
                selected: (0..held.len()).collect(),
                rows: held,
                regrade: false,
            }
        }
    };
    let started = Instant::now();
    let jobs = options.jobs.unwrap_or_else(default_jobs).clamp(1, 64);
    let run = RunSetup {
        memory_mb: options.memory_mb,
        check_seconds: options.check_limit.as_secs_f64(),
        compile_seconds: options.compile_limit.as_secs_f64(),
        late: options.late.clone(),
    };
    let (graded, grades) = grade_found(
        options,
        &labs,
        &job,
        jobs,
        &plan,
        &Context {
            run,
            adjustments,
            worksheet,
            canvas_ids,
        },
        &mut report,
    )?;
    let class = write_summaries(&grades, &options.feedback)?;
    Ok(Summary {
        submissions: plan.selected.len(),
        graded,
        jobs,
        seconds: started.elapsed().as_secs_f64(),
        tally: Tally::of(&grades),
        class,
    })
}

/// Leaves a shard's manifest in its feedback folder, before grading starts, so a merge of an
/// unfinished shard can tell which grades are missing.
fn write_manifest(manifest: &ShardManifest, feedback: &Path) -> Result<(), GradeError> {
    let path = manifest_path(feedback);
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |error| GradeError::Write {
            output: Output::Feedback,
            path,
            error,
        }
    };
    std::fs::create_dir_all(feedback).map_err(failed(feedback))?;
    let json = serde_json::to_string_pretty(manifest).expect("manifests serialize");
    write_atomically(&path, |w| w.write_all(json.as_bytes())).map_err(failed(&path))
}

/// The sources' labs; the lab asked for must be one of them.
fn labs_for(options: &SessionOptions) -> Result<Vec<GradedNotebook>, GradeError> {
    if !options.sources.is_dir() {
        return Err(GradeError::NoSources {
            sources: options.sources.clone(),
            looked_in: std::path::absolute(&options.sources).unwrap_or_default(),
        });
    }
    let labs = graded_notebooks(&options.sources)?;
    if labs.is_empty() {
        return Err(GradeError::NoLabs {
            sources: options.sources.clone(),
        });
    }
    if let Some(name) = &options.lab
        && !labs.iter().any(|l| &l.name == name)
    {
        return Err(GradeError::UnknownLab {
            name: name.clone(),
            known: labs.iter().map(|l| l.name.clone()).collect(),
        });
    }
    Ok(labs)
}

/// What executing notebooks needs, when asked for: the sandbox, the kernel, the limits.
fn execute_options(
    options: &SessionOptions,
    sandbox: &Sandbox,
) -> Result<Option<ExecuteOptions>, GradeError> {
    let Some(limit) = options.execute else {
        return Ok(None);
    };
    if !sandbox.confined() {
        return Err(GradeError::ExecuteUnconfined);
    }
    let project = std::fs::canonicalize(&options.sources)
        .ok()
        .and_then(|s| s.parent().map(Path::to_owned))
        .unwrap_or_else(|| PathBuf::from("."));
    let mut found =
        ExecuteOptions::detect(&project).map_err(|problem| GradeError::Execute { problem })?;
    found.total_timeout = limit;
    found.memory_mb = options.memory_mb.max(EXECUTE_MEMORY_MB);
    Ok(Some(found))
}

/// What every grade of a run is decided under and shown with.
struct Context {
    run: RunSetup,
    adjustments: Adjustments,
    /// The Moodle worksheet to fill, read before anything was written.
    worksheet: Option<(PathBuf, Worksheet)>,
    /// Canvas's ids of the roster's students, for `--canvas-csv`.
    canvas_ids: Vec<(String, CanvasIds)>,
}

/// The Moodle worksheet named, read (or new), so a bad one stops the run before any write.
pub(crate) fn open_worksheet(
    moodle: &MoodleOutputs,
) -> Result<Option<(PathBuf, Worksheet)>, super::export::moodle::WorksheetError> {
    moodle
        .worksheet
        .as_ref()
        .map(|p| Worksheet::open(p).map(|w| (p.clone(), w)))
        .transpose()
}

/// Grades the plan's selected rows that `--resume` does not keep, writing each grade and the
/// gradebooks as they come (the other rows of a regrade from their saved grades); returns how
/// many were graded and every row's grade, in order.
fn grade_found(
    options: &SessionOptions,
    labs: &[GradedNotebook],
    job: &GradeOptions,
    jobs: usize,
    plan: &Plan,
    context: &Context,
    report: &mut impl FnMut(Event),
) -> Result<(usize, Vec<Grade>), GradeError> {
    let rows = &plan.rows;
    let saved: Vec<Option<Grade>> = plan
        .selected
        .iter()
        .map(|&i| {
            options
                .resume
                .then(|| saved_grade(&rows[i], &options.feedback))
                .flatten()
        })
        .collect();
    let not_graded_before = saved
        .iter()
        .flatten()
        .filter(|g| g.has_graders_trouble())
        .count();
    let setup_changes = saved
        .iter()
        .flatten()
        .filter(|g| !g.has_graders_trouble() && setup_changed(g, &context.run, labs))
        .count();
    // A regrade's other rows, and the old grade of each row to regrade until its new one
    // comes, are the saved grades: the gradebook is whole at every moment.
    let mut grades: Vec<Option<Grade>> = rows
        .iter()
        .map(|s| {
            plan.regrade
                .then(|| read_saved(s, &options.feedback))
                .flatten()
        })
        .collect();
    // Who handed nothing in has a row and nothing to grade or write.
    for (grade, s) in grades.iter_mut().zip(rows) {
        if s.is_absent() {
            *grade = Some(Grade::no_submission(&s.student, s.name.clone()));
        }
    }
    let mut todo = Vec::new();
    let mut absent = 0;
    for (&i, saved) in plan.selected.iter().zip(saved) {
        if rows[i].is_absent() {
            absent += 1;
            continue;
        }
        match kept_grade(saved, &context.run, labs) {
            Some(kept) => grades[i] = Some(kept),
            None => todo.push(i),
        }
    }
    let kept: Vec<usize> = (0..rows.len())
        .filter(|&i| !todo.contains(&i) && !rows[i].is_absent())
        .collect();
    if options.resume {
        report(Event::Resuming {
            kept: plan.selected.len() - todo.len() - absent,
            to_grade: todo.len(),
            not_graded_before,
            setup_changed: setup_changes,
        });
    }
    report(Event::Started {
        to_grade: todo.len(),
    });
    let books = Gradebooks {
        csv: options.gradebook.clone(),
        nbgrader_csv: options.nbgrader_csv.clone(),
        canvas_csv: options
            .canvas_csv
            .clone()
            .map(|p| (p, options.canvas_assignment.clone())),
        gradescope_results: options.gradescope_results.clone(),
        canvas_ids: context.canvas_ids.clone(),
        moodle_worksheet: context.worksheet.clone(),
        moodle_feedback_zip: options.moodle.feedback_zip.clone(),
        lab: options.lab.clone(),
        adjustments: context.adjustments.clone(),
    };
    let queued: Vec<&Submission> = todo.iter().map(|&i| &rows[i]).collect();
    let mut failure = None;
    let mut done = 0;
    grade_queue(&queued, job, jobs, |k, mut grade| {
        let i = todo[k];
        let setup = context.run.for_named(grade.lab.as_deref(), labs);
        grade.setup_digest = setup.digest();
        grade.setup = Some(setup);
        // After a write fails the session ends with that error; nothing more is written.
        let written = match failure {
            None => write_grade(&grade, &rows[i], &options.feedback, &context.adjustments),
            Some(_) => Ok(()),
        };
        done += 1;
        report(Event::Graded {
            done,
            of: todo.len(),
            grade: &grade,
        });
        grades[i] = Some(grade);
        let written = written.and_then(|()| match failure {
            None => books.write(&grades, labs),
            Some(_) => Ok(()),
        });
        if let Err(e) = written {
            failure.get_or_insert(e);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // The kept grades' feedback shows the adjustments as they are now (rewritten only where
    // that changed it).
    for g in kept.iter().filter_map(|&i| grades[i].as_ref()) {
        write_feedback(g, &options.feedback, &context.adjustments)?;
    }
    // Who handed nothing in is told so, in a page of their own.
    for (g, _) in grades
        .iter()
        .zip(rows)
        .filter(|(_, s)| s.is_absent())
        .filter_map(|(g, s)| Some((g.as_ref()?, s)))
    {
        write_feedback(g, &options.feedback, &context.adjustments)?;
    }
    books
        .write(&grades, labs)
        .map(|()| (todo.len(), grades.into_iter().flatten().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write_lab(dir: &Path) {
        let nb = json!({"nbformat": 4, "nbformat_minor": 5, "metadata": {"bpe_lab": {"lab": "01-x"}},
            "cells": [
              {"cell_type": "code", "id": "sol", "metadata": {}, "outputs": [], "execution_count": null,
               "source": "fn decode() {\n    // BEGIN SOLUTION\n    // END SOLUTION\n}"},
              {"cell_type": "code", "id": "chk", "metadata": {"bpe_lab": {"exercise": "decode", "points": 2}},
               "outputs": [], "execution_count": null, "source": "check::decode(decode)"}]});
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("01-x.ipynb"), nb.to_string()).unwrap();
    }

    /// The events a session reports, as text.
    fn run(options: &SessionOptions) -> (Result<Summary, GradeError>, Vec<String>) {
        let mut events = Vec::new();
        let result = grade_all(options, |event| {
            events.push(match event {
                Event::Unconfined => return,
                Event::Collected(intake) => format!("collected {}", intake.submissions.len()),
                Event::Resuming {
                    kept,
                    to_grade,
                    not_graded_before,
                    setup_changed,
                } => format!("resuming {kept} {to_grade} {not_graded_before} {setup_changed}"),
                Event::Regrading { graded, class } => format!("regrading {graded} of {class}"),
                Event::Sharded { shard, holds, of } => format!("shard {shard} {holds} {of}"),
                Event::Started { to_grade } => format!("started {to_grade}"),
                Event::Graded { done, of, grade } => {
                    format!(
                        "graded {done}/{of} {} {}",
                        grade.student,
                        grade.notes_line()
                    )
                }
            })
        });
        (result, events)
    }

    #[test]
    fn a_session_grades_writes_and_resumes_without_running_student_code() {
        let dir = tempfile::tempdir().unwrap();
        write_lab(&dir.path().join("src"));
        let subs = dir.path().join("subs");
        std::fs::create_dir_all(subs.join("ivan")).unwrap();
        std::fs::write(subs.join("ivan/01-x.ipynb"), "not JSON").unwrap();
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let mut options = SessionOptions {
            submissions: vec![subs.clone(), empty.clone()],
            sources: dir.path().join("src"),
            lab: None,
            gradebook: dir.path().join("grades.csv"),
            nbgrader_csv: Some(dir.path().join("nbgrader.csv")),
            canvas_csv: None,
            canvas_assignment: None,
            gradescope_results: None,
            moodle: MoodleOutputs::default(),
            feedback: dir.path().join("feedback"),
            memory_mb: 256,
            check_limit: Duration::from_secs(5),
            compile_limit: Duration::from_secs(5),
            jobs: Some(2),
            resume: false,
            shard: None,
            execute: None,
            allow_unconfined: true,
            student: None,
            adjustments: None,
            roster: None,
            name_pattern: None,
            late: LateRule::default(),
        };
        // A folder with no notebook is the instructor's mistake: nothing is graded or written.
        let (result, events) = run(&options);
        assert!(
            matches!(result, Err(GradeError::Intake(_))),
            "{result:?} {events:?}"
        );
        assert!(!options.gradebook.exists() && !options.feedback.exists());
        options.submissions = vec![subs];
        let (summary, events) = run(&options);
        let summary = summary.unwrap();
        assert_eq!((summary.submissions, summary.graded), (1, 1));
        assert_eq!(events[0], "collected 1");
        assert_eq!(events[1], "started 1");
        assert!(
            events[2].starts_with("graded 1/1 ivan could not be graded: not JSON"),
            "{events:?}"
        );
        let csv = std::fs::read_to_string(&options.gradebook).unwrap();
        assert!(csv.starts_with(
            "student,file,lab,decode,total,max,notes,decode outcome,tie rule,grader,submitted_at,late_by,late_penalty\nivan,"
        ));
        assert!(
            csv.contains(",01-x,0,0,2,\"could not be graded: not JSON (line 1"),
            "{csv}"
        );
        assert!(dir.path().join("feedback/ivan/01-x.md").is_file());
        assert!(dir.path().join("feedback/ivan/01-x.html").is_file());
        options.resume = true;
        let (summary, events) = run(&options);
        assert_eq!(summary.unwrap().graded, 0);
        assert_eq!(events[1..], ["resuming 1 0 0 0", "started 0"]);
        assert_eq!(std::fs::read_to_string(&options.gradebook).unwrap(), csv);
        options.lab = Some("02-y".into());
        let (result, _) = run(&options);
        assert!(matches!(result, Err(GradeError::UnknownLab { name, .. }) if name == "02-y"));
    }
}
