//! The judge: grades a submission without ever running student code in its own process. For
//! each exercise it builds a worker from the student's editable cells ([`extract`],
//! [`worker`]), runs it in the sandbox ([`sandbox`]), and lets the notebooks' own check engine
//! ([`crate::lab::check::judge`]) call it — the same cases, comparison, shrinking and messages
//! a student sees in the notebook.

pub mod extract;
pub mod harness;
pub mod worker;
/// The sandbox moved to [`crate::instructor::process`]; this path stays for callers.
pub use crate::instructor::process::sandbox;

use crate::instructor::notebook::{Notebook, cell_id, is_code, source};
use crate::lab::check::{self, Check, Exercise, Status};
use extract::{EditableCell, Piece, items_of, last_definitions};
use sandbox::Sandbox;
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;
use worker::{Compiled, Worker, compile, defines};

/// How the judge runs workers.
#[derive(Debug, Clone)]
pub struct JudgeOptions {
    pub sandbox: Sandbox,
    /// Memory per worker process, MiB.
    pub memory_mb: u64,
    /// Time for one exercise's check (all its calls), as the notebook's check has.
    pub check_limit: Duration,
    /// Time for compiling one worker.
    pub compile_limit: Duration,
}

/// Why an exercise has the grade it has.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The check ran: its status says how it went.
    Checked(Status),
    /// The student's code for it did not compile.
    DidNotCompile,
    /// No function of the exercise's name before its check cell.
    Missing,
    /// The grader could not grade it (its own trouble, or no notebook to grade).
    NotGraded,
}

impl Verdict {
    /// A name for files and tables: the check statuses' names, `did_not_compile`, `missing`,
    /// `not_graded`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Checked(status) => status.as_str(),
            Verdict::DidNotCompile => "did_not_compile",
            Verdict::Missing => "missing",
            Verdict::NotGraded => "not_graded",
        }
    }

    /// Reads [`Verdict::as_str`]'s names back.
    pub fn parse(name: &str) -> Option<Verdict> {
        match name {
            "did_not_compile" => Some(Verdict::DidNotCompile),
            "missing" => Some(Verdict::Missing),
            "not_graded" => Some(Verdict::NotGraded),
            other => Status::parse(other).map(Verdict::Checked),
        }
    }

    pub fn passed(&self) -> bool {
        *self == Verdict::Checked(Status::Passed)
    }
}

/// One exercise as the judge found it.
#[derive(Debug, Clone)]
pub struct Judged {
    pub exercise: Exercise,
    pub verdict: Verdict,
    pub message: String,
    /// input / expected / got, when the check found a failing case; the compiler's messages
    /// when it did not compile.
    pub details: Option<(String, String, String)>,
    /// What the student's code printed while being checked (kept up to a size).
    pub printed: String,
}

/// The notebook's code cells the student could edit: solution cells (not locked in the
/// released version) and cells the student added.
pub fn editable_cells(restored: &Notebook, released: &Notebook) -> Vec<EditableCell> {
    let locked: HashSet<&str> = released
        .cells()
        .iter()
        .filter(|c| c["metadata"]["nbgrader"]["locked"] == Value::Bool(true))
        .filter_map(cell_id)
        .collect();
    restored
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, c)| is_code(c))
        .filter(|(_, c)| !cell_id(c).is_some_and(|id| locked.contains(id)))
        .map(|(index, c)| EditableCell {
            index,
            id: cell_id(c).unwrap_or("no id").to_owned(),
            source: source(c),
        })
        .collect()
}

fn judged(exercise: Exercise, verdict: Verdict, message: String) -> Judged {
    Judged {
        exercise,
        verdict,
        message,
        details: None,
        printed: String::new(),
    }
}

/// Calls the compiler's message a borrowed answer when it is about a missing `bpe_lab` item.
fn borrowed(messages: &str) -> Option<String> {
    let line = messages.lines().find(|l| {
        l.contains("bpe_lab") && (l.contains("cannot find") || l.contains("unresolved"))
    })?;
    Some(line.trim().to_owned())
}

/// Grades `exercise` from the items of the cells before its check cell (`check_index`).
pub fn judge_exercise(
    exercise: Exercise,
    cells: &[EditableCell],
    check_index: usize,
    scratch: &Path,
    slot: usize,
    options: &JudgeOptions,
) -> (Judged, Vec<String>) {
    let mut notes = Vec::new();
    let mut by_cell: Vec<(usize, Vec<Piece>)> = Vec::new();
    for cell in cells.iter().filter(|c| c.index < check_index) {
        let (pieces, cell_notes) = items_of(cell);
        notes.extend(cell_notes);
        let pieces: Vec<Piece> = pieces
            .into_iter()
            .filter(|p| p.name.as_ref().is_none_or(|(_, n)| n != "main"))
            .collect();
        by_cell.push((cell.index, pieces));
    }
    let everything = last_definitions(by_cell.iter().flat_map(|(_, p)| p.clone()).collect());
    if !defines(&everything, exercise) {
        return (
            judged(
                exercise,
                Verdict::Missing,
                format!("no `fn {exercise}` was found in the cells before its check"),
            ),
            notes,
        );
    }
    let build = |pieces: &[Piece]| {
        let (text, map) = worker::source(exercise, pieces);
        compile(
            &options.sandbox,
            scratch,
            slot,
            &text,
            &map,
            options.memory_mb,
            options.compile_limit,
        )
        .map_err(|e| format!("not graded (the grader's own trouble): {e}"))
    };
    let mut compiled = match build(&everything) {
        Ok(c) => c,
        Err(e) => return (judged(exercise, Verdict::NotGraded, e), notes),
    };
    if let Compiled::Failed(all_messages) = &compiled {
        // As in the kernel, a cell that does not compile costs only what needs it: start
        // from the cell that defines the function and add the others that still compile.
        let all_messages = all_messages.clone();
        let defining = by_cell
            .iter()
            .rev()
            .find(|(_, p)| defines(p, exercise))
            .map(|(i, _)| *i);
        let mut kept: Vec<usize> = defining.into_iter().collect();
        let pieces_of = |kept: &[usize]| {
            last_definitions(
                by_cell
                    .iter()
                    .filter(|(i, _)| kept.contains(i))
                    .flat_map(|(_, p)| p.clone())
                    .collect(),
            )
        };
        compiled = match build(&pieces_of(&kept)) {
            Ok(c) => c,
            Err(e) => return (judged(exercise, Verdict::NotGraded, e), notes),
        };
        if matches!(compiled, Compiled::Ok(_)) {
            for (index, pieces) in &by_cell {
                if kept.contains(index) || pieces.is_empty() {
                    continue;
                }
                let mut trial = kept.clone();
                trial.push(*index);
                trial.sort_unstable();
                if let Ok(Compiled::Ok(_)) = build(&pieces_of(&trial)) {
                    kept = trial;
                } else {
                    notes.push(format!(
                        "cell {} was left out of `{exercise}`: it does not compile with it",
                        index + 1
                    ));
                }
            }
            // The last trial may have failed: build the kept set once more.
            compiled = match build(&pieces_of(&kept)) {
                Ok(c) => c,
                Err(e) => return (judged(exercise, Verdict::NotGraded, e), notes),
            };
        } else {
            compiled = Compiled::Failed(all_messages);
        }
    }
    let messages = match compiled {
        Compiled::Ok(_) => None,
        Compiled::Failed(messages) => Some(messages),
    };
    if let Some(messages) = messages {
        let shown: String = messages.lines().take(60).collect::<Vec<_>>().join("\n");
        let (verdict, message) = match borrowed(&messages) {
            Some(line) => (
                Verdict::Checked(Status::UsedReference),
                format!(
                    "your code uses a part of bpe_lab that graded code cannot use for this \
                     exercise — the crate's own answer ({line}). Write the steps yourself; the \
                     crate's versions of earlier steps are fine."
                ),
            ),
            None => (
                Verdict::DidNotCompile,
                "your code for this exercise does not compile (the compiler's messages are below)"
                    .to_owned(),
            ),
        };
        let mut result = judged(exercise, verdict, message);
        result.details = Some((String::new(), String::new(), shown));
        return (result, notes);
    }
    let mut worker = Worker::new(&options.sandbox, scratch, slot, options.memory_mb);
    let check: Check = check::judge(
        exercise,
        &mut |args, deadline| worker.call(args, deadline),
        options.check_limit,
    );
    worker.finish();
    if let Some(trouble) = worker.trouble() {
        let why = format!("not graded (the grader's own trouble): {trouble}");
        return (judged(exercise, Verdict::NotGraded, why), notes);
    }
    let mut printed = String::new();
    for (name, stream) in [("stdout", &worker.stdout), ("stderr", &worker.stderr)] {
        if let Ok(captured) = stream.lock()
            && captured.total > 0
        {
            printed.push_str(&format!("--- {name} ---\n{}\n", captured.text()));
        }
    }
    let details = check
        .counterexample
        .as_ref()
        .map(|c| (c.input.clone(), c.expected.clone(), c.got.clone()));
    (
        Judged {
            exercise,
            verdict: Verdict::Checked(check.status),
            message: check.message,
            details,
            printed,
        },
        notes,
    )
}
