//! What the judge tells the student about their cells: what it left out of the worker and
//! why. The wording lives here alone.

use crate::course::notebook::CellRef;
use bpe_lab::lab::check::Exercise;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Something the judge left out of a student's code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum CellNote {
    /// evcxr commands (`:dep`, …): graded code gets no extra dependencies.
    KernelCommands {
        cell: CellRef,
        commands: Vec<String>,
    },
    /// Statements outside any item: a worker only needs the definitions.
    Statements { cell: CellRef, count: usize },
    /// A cell that does not parse as Rust.
    NotRust {
        cell: CellRef,
        line: usize,
        error: String,
    },
    /// A cell that breaks the exercise's build, left out of it (as the kernel would have
    /// kept the exercise's function when that cell failed).
    BreaksBuild {
        number: usize,
        #[serde(with = "crate::course::exercise_name")]
        exercise: Exercise,
    },
    /// The same for an instructor's own exercise, known by its name.
    BreaksOwnBuild { number: usize, exercise: String },
}

impl fmt::Display for CellNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellNote::KernelCommands { cell, commands } => write!(
                f,
                "{cell}: left out the kernel command(s) {} — graded code gets no extra dependencies",
                commands.join(", ")
            ),
            CellNote::Statements { cell, count } => write!(
                f,
                "{cell}: left out {count} statement(s) — only definitions (fn, struct, use, …) are graded"
            ),
            CellNote::NotRust { cell, line, error } => write!(
                f,
                "{cell} is not valid Rust (line {line}: {error}); it was left out, as the kernel would refuse it"
            ),
            CellNote::BreaksBuild { number, exercise } => write!(
                f,
                "cell {number} was left out of `{exercise}`: it does not compile with it"
            ),
            CellNote::BreaksOwnBuild { number, exercise } => write!(
                f,
                "cell {number} was left out of `{exercise}`: it does not compile with it"
            ),
        }
    }
}
