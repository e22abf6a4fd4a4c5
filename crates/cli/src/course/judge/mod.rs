//! The judge: grades a submission without ever running student code in its own process. For
//! each exercise it builds a worker from the student's editable cells ([`extract`],
//! [`worker`]), runs it in the sandbox ([`crate::course::process::sandbox`]), and lets the
//! notebooks' own check engine ([`bpe_lab::lab::check::judge`]) call it — the same cases,
//! comparison, shrinking and messages a student sees in the notebook.

pub(crate) mod build;
pub(crate) mod cells;
pub(crate) mod death;
pub(crate) mod extract;
/// Compiled into every worker as text (its items public for the worker's `main`); the crate
/// compiles it only to test it.
#[cfg(test)]
#[allow(unreachable_pub)]
mod harness;
pub(crate) mod note;
pub(crate) mod options;
pub(crate) mod stand_in;
pub(crate) mod verdict;
pub mod worker;

pub(crate) use cells::editable_cells;
pub(crate) use note::CellNote;
pub(crate) use options::JudgeOptions;
pub(crate) use verdict::{Details, Judged, Verdict};

use bpe_lab::lab::check::{self, Check, Exercise, Status};
use build::{Builder, CellPieces};
use extract::{EditableCell, Piece, items_of};
use std::path::Path;
use worker::{Compiled, Worker, defines};

/// Lines of compiler messages kept for the feedback.
const MESSAGE_LINES: usize = 60;

/// Grades `exercise` from the items of the cells before its check cell (`check_index`), in
/// four steps: read the cells' items, find the function, build the worker, run the check.
pub(crate) fn judge_exercise(
    exercise: Exercise,
    cells: &[EditableCell],
    check_index: usize,
    scratch: &Path,
    slot: usize,
    options: &JudgeOptions,
) -> (Judged, Vec<CellNote>) {
    let (by_cell, mut notes) = pieces_before(cells, check_index);
    if !defines(&build::pieces_of(&by_cell, &indices(&by_cell)), exercise) {
        let message = format!("no `fn {exercise}` was found in the cells before its check");
        return (Judged::bare(Verdict::Missing, message), notes);
    }
    let builder = Builder {
        exercise,
        scratch,
        slot,
        options,
    };
    let judged = match builder.build_keeping(&by_cell, &mut notes) {
        Err(e) => Judged::bare(Verdict::NotGraded, e.problem),
        Ok(Compiled::Failed(messages)) => not_compiled(&messages),
        Ok(Compiled::Ok) => run_check(exercise, scratch, slot, options),
    };
    (judged, notes)
}

fn indices(by_cell: &CellPieces) -> Vec<usize> {
    by_cell.iter().map(|(i, _)| *i).collect()
}

/// Each editable cell's items before the check (a `main` left out: the worker has its own),
/// and the notes on what was left out of them.
pub(crate) fn pieces_before(
    cells: &[EditableCell],
    check_index: usize,
) -> (Vec<(usize, Vec<Piece>)>, Vec<CellNote>) {
    let mut notes = Vec::new();
    let mut by_cell = Vec::new();
    for cell in cells.iter().filter(|c| c.index < check_index) {
        let (pieces, cell_notes) = items_of(cell);
        notes.extend(cell_notes);
        let pieces: Vec<Piece> = pieces
            .into_iter()
            .filter(|p| p.name.as_ref().is_none_or(|(_, n)| n != "main"))
            .collect();
        by_cell.push((cell.index, pieces));
    }
    (by_cell, notes)
}

/// Calls the compiler's message a borrowed answer when it is about a missing `bpe_lab` item.
fn borrowed(messages: &str) -> Option<String> {
    let line = messages.lines().find(|l| {
        l.contains("bpe_lab") && (l.contains("cannot find") || l.contains("unresolved"))
    })?;
    Some(line.trim().to_owned())
}

/// The verdict on code that does not compile: a borrowed answer (the crate's own answer is
/// not in the worker's stand-in crate), else "did not compile" with the messages.
fn not_compiled(messages: &str) -> Judged {
    let shown: String = messages
        .lines()
        .take(MESSAGE_LINES)
        .collect::<Vec<_>>()
        .join("\n");
    let (verdict, message) = match borrowed(messages) {
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
    let mut judged = Judged::bare(verdict, message);
    judged.details = Some(Details::CompilerMessages { messages: shown });
    judged
}

/// Runs the notebooks' own check against the compiled worker, in the sandbox.
fn run_check(exercise: Exercise, scratch: &Path, slot: usize, options: &JudgeOptions) -> Judged {
    // A busy machine's waits are given back to the student's calls, up to three times the
    // limit: on a loaded machine the check then measures the code, not the load.
    let mut worker = Worker::new(&options.sandbox, scratch, slot, options.memory_mb)
        .with_patience(options.check_limit * 3);
    let check: Check = check::judge(
        exercise,
        &mut |args, deadline| worker.call(args, deadline),
        options.check_limit,
    );
    worker.finish();
    // A worker the grader could not start (after its retries) is the grader's trouble: the
    // exercise is not graded, never "crashed".
    if let Some(trouble) = worker.trouble() {
        let why = format!("not graded (the grader's own trouble): {trouble}");
        return Judged::bare(Verdict::NotGraded, why);
    }
    let mut printed = String::new();
    for (name, stream) in [("stdout", &worker.stdout), ("stderr", &worker.stderr)] {
        if let Ok(captured) = stream.lock()
            && captured.total > 0
        {
            printed.push_str(&format!("--- {name} ---\n{}\n", captured.text()));
        }
    }
    Judged {
        verdict: Verdict::Checked(check.status),
        message: check.message,
        details: check.counterexample.as_ref().map(Details::from),
        printed,
    }
}
