//! The exercises, one row each: what the student writes, where the crate's answer is, the
//! check that grades it, and what a grader's worker makes of it. Whatever asks a question
//! about an exercise (the grader's [`judge`], the worker's stand-in crate and its call, the
//! path test) reads the row instead of keeping a `match` or a list of its own. Each row is
//! written in its exercise's own file, beside the exercise's check (`exercises/<name>.rs`) and
//! call (`exercises/<name>/call.rs`, which workers compile too); this module gathers them and
//! points at the reference (`lab::reference`, `lab::bytes`).
//!
//! The exercise's name and teaching order are the ground floor's vocabulary
//! ([`Exercise::name`]): the engine's answers report to the guard by exercise, below the lab.
//!
//! ```
//! use bpe_lab::lab::check::{Exercise, table};
//! let row = table::row(Exercise::Encode);
//! assert!(row.signature.starts_with("fn encode(text: &str,"));
//! assert_eq!(row.reference_paths(), ["bpe_lab::lab::reference::encode"]);
//! ```

use super::exercises::ROWS;
use super::run::Reply;
use super::{Check, Exercise};
use std::time::{Duration, Instant};

pub use super::row::{Judge, Reference, Row, Worker};

/// Every exercise, in teaching order ([`Exercise::ALL`]'s): each exercise file's row, gathered
/// by `exercises/mod.rs`'s one list.
pub static TABLE: [Row; Exercise::COUNT] = ROWS;

/// The row of `exercise`.
pub fn row(exercise: Exercise) -> &'static Row {
    &TABLE[exercise as usize]
}

/// Runs `exercise`'s check on a student's function that lives in another program: `call`
/// gets the arguments of one call encoded with [`wire`](super::wire) and a deadline, and returns the reply
/// with the result still encoded. The cases, comparison, shrinking and messages are the
/// notebook's; `limit` bounds the whole check as the notebook's time limit does.
pub fn judge(
    exercise: Exercise,
    call: &mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>,
    limit: Duration,
) -> Check {
    (row(exercise).judge)(call, limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::worker_sources;

    /// Whitespace out and rustfmt's trailing commas gone, so a signature broken over lines
    /// reads as the table's one line.
    fn squeezed(text: &str) -> String {
        let no_space: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        no_space.replace(",)", ")")
    }

    #[test]
    fn the_table_holds_every_exercise_in_order() {
        let listed: Vec<Exercise> = TABLE.iter().map(|r| r.exercise).collect();
        assert_eq!(listed, Exercise::ALL);
    }

    #[test]
    fn every_signature_is_the_function_of_the_exercises_name() {
        for row in &TABLE {
            assert!(
                row.signature.starts_with(&format!("fn {}(", row.name())),
                "{}",
                row.signature
            );
        }
    }

    /// A worker names its exercise's call file's `Args` and `call` in its `main`: each file
    /// has both, under those names.
    #[test]
    fn each_exercises_call_file_has_its_call_and_arguments() {
        for row in &TABLE {
            let call = squeezed(worker_sources::call(row.exercise));
            assert!(
                call.contains("pubfncall("),
                "{}'s call.rs has no fn call",
                row.name()
            );
            assert!(
                call.contains("pubtypeArgs="),
                "{}'s call.rs has no Args",
                row.name()
            );
            assert!(
                call.contains("pubtypeOut="),
                "{}'s call.rs has no Out",
                row.name()
            );
        }
    }

    /// Each exercise cell of the notebooks, students' and instructors', declares the table's
    /// signature.
    #[test]
    fn the_notebooks_declare_the_tables_signatures() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in ["notebooks", "instructor"] {
            let mut code = String::new();
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ipynb") {
                    let notebook: serde_json::Value =
                        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                    for cell in notebook["cells"].as_array().unwrap() {
                        for line in cell["source"].as_array().into_iter().flatten() {
                            code.push_str(line.as_str().unwrap_or_default());
                        }
                    }
                }
            }
            let code = squeezed(&code);
            for row in &TABLE {
                assert!(
                    code.contains(&squeezed(row.signature)),
                    "no cell of {dir}/ declares {}",
                    row.signature
                );
            }
        }
    }
}
