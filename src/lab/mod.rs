//! What the lab notebooks use inside the evcxr kernel: exercise checks with instant feedback
//! ([`check`]), rich output ([`display`], [`tokens`], [`plot`]) and the fallback that lets a
//! stuck student move on ([`student_or_reference`]).
//!
//! A notebook depends on the crate alone and starts with
//!
//! ```text
//! :dep bpe-lab = { path = "..", default-features = false, features = ["africa-galore"] }
//! use bpe_lab::lab::prelude::*;
//! ```
//!
//! (`dataset` instead of `africa-galore` where the notebook shows the data as a polars
//! DataFrame; nothing here needs polars.)
//!
//! Everything here prints evcxr's display protocol (`EVCXR_BEGIN_CONTENT <mime>` … `EVCXR_END_CONTENT`
//! on stdout). evcxr keeps one output per MIME type and cell, so each helper shows one rich
//! output; a cell that calls two of them shows the last.

pub mod bars;
pub mod bytes;
pub mod check;
pub mod display;
mod fallback;
pub mod own_test;
pub mod parallel;
pub mod parity;
pub mod plot;
pub mod prelude;
pub mod reference;
pub mod replay;
pub mod split;
pub mod token_tax;
pub mod tokens;
// Grader plumbing: public only for the `bpe-lab-cli` package, out of the documented surface.
#[doc(hidden)]
pub mod worker_sources;

pub use check::{Check, Status};
pub use fallback::student_or_reference;
