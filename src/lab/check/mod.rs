//! Exercise checks: one function per exercise, taking the student's function, running it on
//! the seeds' examples and on generated cases against the crate's reference, and showing the
//! result at once.
//!
//! A check never panics and never hangs the notebook: a `todo!()` reads "not implemented
//! yet", a panic "your code panicked: …", a function that does not return within the time
//! limit (`BPE_LAB_CHECK_SECONDS`, default 20) a failure saying so. On a wrong answer the
//! failing case is shrunk to the smallest input that still fails, shown with the expected and
//! the actual result, and a hint waits behind a click.
//!
//! Each check's output also carries a machine-readable result of MIME type
//! [`RESULT_MIME`] (`exercise`, `status`, `message`, …) for `bpe-lab lab verify`. The
//! grader does not trust it: it calls the student's code itself, in a sandbox
//! (`crates/cli/src/course/judge/`).
//!
//! ```
//! use bpe_lab::lab::check::{self, Status};
//! fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
//!     let mut out: Vec<String> = Vec::new();
//!     let mut i = 0;
//!     while i < word.len() {
//!         if i + 1 < word.len() && (&word[i], &word[i + 1]) == (&pair.0, &pair.1) {
//!             out.push(format!("{}{}", pair.0, pair.1));
//!             i += 2;
//!         } else {
//!             out.push(word[i].clone());
//!             i += 1;
//!         }
//!     }
//!     out
//! }
//! assert!(check::merge_pair_in_word(merge_pair_in_word).passed());
//! // The crate's own answer does not count.
//! let borrowed = check::merge_pair_in_word(|w: &[String], p: &(String, String)| {
//!     bpe_lab::merge_pair_in_word(w, p)
//! });
//! assert_eq!(borrowed.status, Status::UsedReference);
//! ```

mod cases;
mod exercises;
mod helpers;
pub mod nbgrader;
mod report;
mod result;
mod row;
mod run;
mod shrink;
#[doc(hidden)] // grader plumbing: the judge reads the exercise table
pub mod table;
#[doc(hidden)] // grader plumbing (src/lab/worker_sources.rs)
pub mod wire;

/// The exercise vocabulary lives on the ground floor, where the engine's answers can report
/// themselves to the guard without importing the lab.
pub use crate::exercise::{Exercise, guard};
/// The call files, as text, for `lab::worker_sources`.
pub(crate) use exercises::CALL_SOURCES;
/// Each exercise's check, one file per exercise (`exercises/<name>.rs`): the glob is the
/// checks alone, so that an exercise added to `exercises/mod.rs`'s list is here with no line
/// of its own.
pub use exercises::*;
pub use report::RESULT_MIME;
pub use result::{Check, Counterexample, Status};
pub use run::Reply;
pub(crate) use run::{quietly, time_limit};
pub use shrink::{Shrink, Text};
pub use table::judge;

/// Seconds a check waits for the student's function (default 20).
pub const SECONDS_ENV: &str = "BPE_LAB_CHECK_SECONDS";
