//! Building an exercise's worker as the kernel would have run the cells: from everything
//! before the check; when that does not compile, from the cell defining the function plus
//! each other cell that still compiles with it (in the kernel a failing cell costs only what
//! needs it).

use super::extract::{Piece, last_definitions};
use super::note::CellNote;
use super::options::JudgeOptions;
use super::worker::{self, Compiled, compile, defines};
use bpe_lab::lab::check::Exercise;
use std::fmt;
use std::path::Path;

/// The grader could not build a worker at all (its own trouble, not the student's code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BuildFailed {
    pub(crate) problem: String,
}

impl fmt::Display for BuildFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problem)
    }
}

impl std::error::Error for BuildFailed {}

/// The student's items of each cell before the check: (cell index, its pieces).
pub(crate) type CellPieces = [(usize, Vec<Piece>)];

/// Builds workers for one exercise in one scratch directory.
pub(crate) struct Builder<'a> {
    pub(crate) exercise: Exercise,
    pub(crate) scratch: &'a Path,
    pub(crate) slot: usize,
    pub(crate) options: &'a JudgeOptions,
}

impl Builder<'_> {
    fn build(&self, pieces: &[Piece]) -> Result<Compiled, BuildFailed> {
        let (text, map) = worker::source(self.exercise, pieces);
        let o = self.options;
        compile(
            &o.sandbox,
            self.scratch,
            self.slot,
            &text,
            &map,
            o.memory_mb,
            o.compile_limit,
        )
        .map_err(|e| BuildFailed {
            problem: format!("not graded (the grader's own trouble): {e}"),
        })
    }

    /// The worker from every cell, else from the cells that compile with the defining one
    /// (a note for each cell left out). When even the defining cell alone fails, the messages
    /// of the whole build are the ones shown.
    pub(crate) fn build_keeping(
        &self,
        by_cell: &CellPieces,
        notes: &mut Vec<CellNote>,
    ) -> Result<Compiled, BuildFailed> {
        let defining = by_cell
            .iter()
            .rev()
            .find(|(_, p)| defines(p, self.exercise))
            .map(|(i, _)| *i);
        keep_compiling(
            by_cell,
            defining.into_iter().collect(),
            |pieces| self.build(pieces),
            |index| {
                notes.push(CellNote::BreaksBuild {
                    number: index + 1,
                    exercise: self.exercise,
                })
            },
        )
    }
}

/// Builds from every cell; when that fails, from the `defining` cells plus each other cell
/// that still compiles with them, in order (`left_out` told each cell that does not), as the
/// kernel would have kept the exercise's functions when another cell failed. When even the
/// defining cells alone fail, the whole build's result is the answer (its messages are the
/// ones shown). The last build made is the one returned, so its worker is the one on disk.
pub(crate) fn keep_compiling<E>(
    by_cell: &CellPieces,
    defining: Vec<usize>,
    build: impl Fn(&[Piece]) -> Result<Compiled, E>,
    mut left_out: impl FnMut(usize),
) -> Result<Compiled, E> {
    let all: Vec<usize> = by_cell.iter().map(|(i, _)| *i).collect();
    let everything = build(&pieces_of(by_cell, &all))?;
    if matches!(everything, Compiled::Ok) {
        return Ok(everything);
    }
    let mut kept = defining;
    kept.sort_unstable();
    kept.dedup();
    if !matches!(build(&pieces_of(by_cell, &kept))?, Compiled::Ok) {
        return Ok(everything);
    }
    for (index, pieces) in by_cell {
        if kept.contains(index) || pieces.is_empty() {
            continue;
        }
        let mut trial = kept.clone();
        trial.push(*index);
        trial.sort_unstable();
        if let Ok(Compiled::Ok) = build(&pieces_of(by_cell, &trial)) {
            kept = trial;
        } else {
            left_out(*index);
        }
    }
    // The last trial may have failed: build the kept set once more.
    build(&pieces_of(by_cell, &kept))
}

/// The pieces of the `kept` cells, the last definition of each name winning.
pub(crate) fn pieces_of(by_cell: &CellPieces, kept: &[usize]) -> Vec<Piece> {
    last_definitions(
        by_cell
            .iter()
            .filter(|(i, _)| kept.contains(i))
            .flat_map(|(_, p)| p.clone())
            .collect(),
    )
}
