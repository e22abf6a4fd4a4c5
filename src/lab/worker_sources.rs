//! The crate's own files that the grader compiles into each student's worker, as text.
//!
//! The grader builds a worker from the student's cells, the steps taught before the exercise
//! and the check engine's wire format, and compiles it without linking this crate (so the
//! crate's answers are out of reach). Those pieces keep one home, here in the library, and the
//! grader takes them from this module rather than reading the library's files by path: what a
//! worker compiles is exactly what the notebook runs, and the grader can live in a package of
//! its own.
//!
//! The files a worker compiles, and their rule:
//!
//! | file | in the worker | rule |
//! |---|---|---|
//! | `src/bpe/steps.rs` ([`STEPS`]) | whole, as `mod steps` | plain `std`, no `crate::` |
//! | `src/bpe/tie_break.rs` ([`TIE_BREAK`]) | whole, as `mod tie_break` | plain `std`, no `crate::` |
//! | `src/lab/check/wire.rs` ([`WIRE`]) | whole | plain `std`, no `crate::` |
//! | `src/lab/check/exercises/<name>/call.rs` ([`call`]), its exercise's only | whole, as `mod calls` | plain `std`, no `crate::` |
//! | `src/lab/prelude.rs` ([`PRELUDE`]) | its `use std::…` lines and `crate::EOW` only | anything else it names stays out of workers |
//! | `crates/cli/src/course/judge/harness.rs` | whole, as the worker's `main` | plain `std`, no `crate::` |
//!
//! "Plain `std`" means: outside comments, every `use` names `std::`, `core::` or `super::`,
//! and no line names `crate::` or `bpe_lab` — the worker has no crate to name. The tests below
//! hold the library's files (every exercise's call file); the judge's own tests compile the
//! harness.

use crate::exercise::Exercise;
use crate::lab::check::CALL_SOURCES;

/// The lab's steps in plain `std` Rust (`bpe/steps.rs`).
pub const STEPS: &str = include_str!("../bpe/steps.rs");
/// The tie-break policies (`bpe/tie_break.rs`), so a student's `TieBreak` is the crate's.
pub const TIE_BREAK: &str = include_str!("../bpe/tie_break.rs");
/// The notebooks' prelude (`lab/prelude.rs`); a worker keeps its `std` names and `EOW`.
pub const PRELUDE: &str = include_str!("prelude.rs");
/// How a check's calls and replies travel between the grader and a worker.
pub const WIRE: &str = include_str!("check/wire.rs");

/// `exercise`'s call of the student's function (`lab/check/exercises/<name>/call.rs`: its
/// `Args`, `Out` and `call`), shared by the notebook's check and the worker. Each call file is
/// listed once, in `lab/check/exercises/mod.rs`'s list of exercises.
pub fn call(exercise: Exercise) -> &'static str {
    CALL_SOURCES[exercise as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What breaks a file compiled whole into a worker: a line of code (not a comment) that
    /// names the crate or uses anything but `std`, `core` or the file's own parent.
    fn not_plain_std(source: &str) -> Vec<String> {
        source
            .lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("//"))
            .filter(|line| {
                let code = line.split("//").next().unwrap_or(line);
                let uses_other = code.starts_with("use ")
                    && !["use std::", "use core::", "use super::"]
                        .iter()
                        .any(|ok| code.starts_with(ok));
                uses_other || code.contains("crate::") || code.contains("bpe_lab")
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_files_compiled_whole_into_workers_are_plain_std() {
        for (name, source) in [
            ("src/bpe/steps.rs", STEPS),
            ("src/bpe/tie_break.rs", TIE_BREAK),
            ("src/lab/check/wire.rs", WIRE),
        ] {
            assert_eq!(not_plain_std(source), Vec::<String>::new(), "{name}");
        }
    }

    #[test]
    fn every_exercises_call_file_is_plain_std() {
        for exercise in Exercise::ALL {
            assert_eq!(
                not_plain_std(call(exercise)),
                Vec::<String>::new(),
                "src/lab/check/exercises/{exercise}/call.rs"
            );
        }
    }

    #[test]
    fn a_crate_path_or_a_dependency_is_caught() {
        assert_eq!(
            not_plain_std(
                "use std::fmt;\nuse serde::Serialize;\nfn f() { crate::x(); }\n// crate::ok"
            ),
            ["use serde::Serialize;", "fn f() { crate::x(); }"]
        );
    }
}
