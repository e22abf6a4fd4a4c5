//! The crate's own files that the grader compiles into each student's worker, as text.
//!
//! The grader builds a worker from the student's cells, the steps taught before the exercise
//! and the check engine's wire format, and compiles it without linking this crate (so the
//! crate's answers are out of reach). Those pieces keep one home, here in the library, and the
//! grader takes them from this module rather than reading the library's files by path: what a
//! worker compiles is exactly what the notebook runs, and the grader can live in a package of
//! its own.

/// The lab's steps in plain `std` Rust (`bpe/steps.rs`).
pub const STEPS: &str = include_str!("../bpe/steps.rs");
/// The tie-break policies (`bpe/tie_break.rs`), so a student's `TieBreak` is the crate's.
pub const TIE_BREAK: &str = include_str!("../bpe/tie_break.rs");
/// The notebooks' prelude (`lab/prelude.rs`); a worker keeps its `std` names and `EOW`.
pub const PRELUDE: &str = include_str!("prelude.rs");
/// How a check's calls and replies travel between the grader and a worker.
pub const WIRE: &str = include_str!("check/wire.rs");
/// Each exercise's call of the student's function, shared by the notebook and the worker.
pub const CALLS: &str = include_str!("check/calls.rs");
