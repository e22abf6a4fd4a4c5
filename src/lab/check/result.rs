//! What a check found: its status, the failing case and the words for people — plain data,
//! shown by [`super::report`] and judged the same way in the kernel and in the grader.

use serde::{Deserialize, Serialize};

/// How an exercise stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
/// cells pass it to [`student_or_reference`](crate::lab::student_or_reference).
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
