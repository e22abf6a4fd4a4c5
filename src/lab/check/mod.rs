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
//! [`RESULT_MIME`] (`exercise`, `status`, `message`, …) for the grader; when the grader sets
//! `BPE_LAB_GRADER_NONCE`, the result repeats it, so a printed imitation does not count.
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

mod bytes;
pub mod calls;
mod cases;
mod exercises;
pub mod nbgrader;
mod report;
mod run;
mod shrink;
pub mod wire;

/// The exercise vocabulary lives on the ground floor, where the engine's answers can report
/// themselves to the guard without importing the lab.
pub use crate::exercise::{Exercise, guard};
pub use bytes::{byte_initialize, count_pairs_in_chunks};
pub use exercises::judge;
pub use exercises::{
    apply_merges, bpe_initialize, decode, encode, get_pair_frequencies, merge_pair_in_word,
    most_frequent_pair, train_bpe,
};
pub use report::RESULT_MIME;
pub use run::Reply;
pub(crate) use run::quietly;
pub use shrink::{Shrink, Text};

/// The grader's per-run secret, repeated in every result so printed imitations do not count.
pub const NONCE_ENV: &str = "BPE_LAB_GRADER_NONCE";
/// Seconds a check waits for the student's function (default 20).
pub const SECONDS_ENV: &str = "BPE_LAB_CHECK_SECONDS";

/// How an exercise stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Passed,
    Failed,
    /// The body is still `todo!()` or `unimplemented!()`.
    NotImplemented,
    /// The student's code panicked (other than `todo!()`).
    Panicked,
    /// The function did not return within the time limit.
    TimedOut,
    /// The program running the student's code died (an exit, an abort, a signal); only when
    /// the grader runs it in a worker, since in the notebook that ends the kernel.
    Crashed,
    /// The student's function called the crate's own answer to the exercise.
    UsedReference,
}

impl Status {
    /// The name used in the machine-readable result: `passed`, `failed`, `not_implemented`,
    /// `panicked`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::NotImplemented => "not_implemented",
            Status::Panicked => "panicked",
            Status::TimedOut => "timed_out",
            Status::Crashed => "crashed",
            Status::UsedReference => "used_reference",
        }
    }

    /// Parses [`Status::as_str`]'s names.
    pub fn parse(name: &str) -> Option<Status> {
        [
            Status::Passed,
            Status::Failed,
            Status::NotImplemented,
            Status::Panicked,
            Status::TimedOut,
            Status::Crashed,
            Status::UsedReference,
        ]
        .into_iter()
        .find(|s| s.as_str() == name)
    }

    /// A few words for people: "passed", "not implemented yet", …
    pub fn describe(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "a wrong result",
            Status::NotImplemented => "not implemented yet",
            Status::Panicked => "it panicked",
            Status::TimedOut => "it ran past the time limit",
            Status::Crashed => "the program running it died",
            Status::UsedReference => "it called the crate's own answer",
        }
    }
}

/// One case that went wrong, as shown to the student.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    /// The input, as Rust source-like text.
    pub input: String,
    /// What the reference gives.
    pub expected: String,
    /// What the student's function gave, or the panic message.
    pub got: String,
}

/// The result of checking one exercise. Keep it in a variable (`let init_check = …;`): later
/// cells pass it to [`student_or_reference`](super::student_or_reference).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The exercise's name, e.g. `bpe_initialize`.
    pub exercise: String,
    pub status: Status,
    /// One sentence for people.
    pub message: String,
    /// The smallest failing case found, when there is one.
    pub counterexample: Option<Counterexample>,
    /// How many cases ran.
    pub cases: usize,
    /// Shown behind a click.
    pub hint: String,
}

impl Check {
    pub fn passed(&self) -> bool {
        self.status == Status::Passed
    }

    /// Shows the result (HTML, plain text and the machine-readable JSON) as the cell's output.
    /// Under nbgrader's autograde or validate, a result that did not pass then ends the cell
    /// with an error ([`nbgrader`]).
    pub fn show(&self) {
        report::show(self);
        nbgrader::end_cell_unless_passed(self);
    }

    /// Called by evcxr when a `Check` is a cell's final expression.
    pub fn evcxr_display(&self) {
        self.show();
    }

    /// The machine-readable result (what [`RESULT_MIME`] carries).
    pub fn to_json(&self) -> serde_json::Value {
        report::json(self)
    }

    /// A `not_implemented` result without running anything, for examples and tests.
    pub fn not_implemented_for_demo(exercise: &str) -> Check {
        Check {
            exercise: exercise.to_owned(),
            status: Status::NotImplemented,
            message: "not implemented yet".to_owned(),
            counterexample: None,
            cases: 0,
            hint: String::new(),
        }
    }
}
