//! An exercise the grader grades: one of the lab's built-in exercises, checked by the crate's
//! check engine, or an instructor's own, graded by the tests of its test cell
//! ([`crate::course::own_tests`]). Both are known by one name — the notebook's metadata, the
//! gradebook's column, the feedback's heading.

use bpe_lab::lab::check::Exercise;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum GradedExercise {
    BuiltIn(Exercise),
    /// An instructor's exercise, by the name its test cell gives.
    Own(String),
}

impl GradedExercise {
    pub(crate) fn name(&self) -> &str {
        match self {
            GradedExercise::BuiltIn(e) => e.name(),
            GradedExercise::Own(name) => name,
        }
    }

    /// The built-in exercise, when it is one.
    pub(crate) fn built_in(&self) -> Option<Exercise> {
        match self {
            GradedExercise::BuiltIn(e) => Some(*e),
            GradedExercise::Own(_) => None,
        }
    }

    /// Reads a saved name back: a built-in exercise's name is that exercise, any other an
    /// instructor's own.
    pub(crate) fn from_saved(name: &str) -> GradedExercise {
        name.parse::<Exercise>()
            .map(GradedExercise::BuiltIn)
            .unwrap_or_else(|_| GradedExercise::Own(name.to_owned()))
    }
}

impl From<Exercise> for GradedExercise {
    fn from(e: Exercise) -> GradedExercise {
        GradedExercise::BuiltIn(e)
    }
}

impl PartialEq<Exercise> for GradedExercise {
    fn eq(&self, other: &Exercise) -> bool {
        self.built_in() == Some(*other)
    }
}

impl fmt::Display for GradedExercise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Saved by its name, as the gradebook and feedback show it (records saved before own
/// exercises existed read back unchanged).
impl serde::Serialize for GradedExercise {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GradedExercise {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(GradedExercise::from_saved(&name))
    }
}
