//! What the judge found for one exercise: the verdict, the words for the student and what
//! backs them (the failing case, or the compiler's messages).

use bpe_lab::lab::check::{Counterexample, Status};
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error as _};

/// Why an exercise has the grade it has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// The check ran: its status says how it went.
    Checked(Status),
    /// The student's code for it did not compile.
    DidNotCompile,
    /// No function of the exercise's name before its check cell.
    Missing,
    /// The grader could not grade it (its own trouble, or no notebook to grade).
    NotGraded,
}

impl Verdict {
    /// A name for files and tables: the check statuses' names, `did_not_compile`, `missing`,
    /// `not_graded`.
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Verdict::Checked(status) => status.as_str(),
            Verdict::DidNotCompile => "did_not_compile",
            Verdict::Missing => "missing",
            Verdict::NotGraded => "not_graded",
        }
    }

    /// Reads [`Verdict::as_str`]'s names back.
    pub(crate) fn parse(name: &str) -> Option<Verdict> {
        match name {
            "did_not_compile" => Some(Verdict::DidNotCompile),
            "missing" => Some(Verdict::Missing),
            "not_graded" => Some(Verdict::NotGraded),
            other => Status::parse(other).map(Verdict::Checked),
        }
    }

    pub(crate) fn passed(&self) -> bool {
        *self == Verdict::Checked(Status::Passed)
    }
}

/// Saved by its one name ([`Verdict::as_str`]), as the gradebook and feedback show it.
impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Verdict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Verdict, D::Error> {
        let name = String::deserialize(deserializer)?;
        Verdict::parse(&name).ok_or_else(|| D::Error::custom(format!("no verdict {name:?}")))
    }
}

/// What backs a verdict that is not a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Details {
    /// The smallest failing case the check found.
    Counterexample {
        input: String,
        expected: String,
        got: String,
    },
    /// The compiler's messages (the first lines), pointed at the student's cells.
    CompilerMessages { messages: String },
}

impl From<&Counterexample> for Details {
    fn from(c: &Counterexample) -> Details {
        Details::Counterexample {
            input: c.input.clone(),
            expected: c.expected.clone(),
            got: c.got.clone(),
        }
    }
}

/// One exercise as the judge found it.
#[derive(Debug, Clone)]
pub(crate) struct Judged {
    pub(crate) verdict: Verdict,
    pub(crate) message: String,
    pub(crate) details: Option<Details>,
    /// What the student's code printed while being checked (kept up to a size).
    pub(crate) printed: String,
}

impl Judged {
    /// A verdict with its message and nothing else.
    pub(crate) fn bare(verdict: Verdict, message: String) -> Judged {
        Judged {
            verdict,
            message,
            details: None,
            printed: String::new(),
        }
    }
}
