//! An [`Exercise`] in saved records by its name (`"merge_pair_in_word"`), the name the
//! notebooks' metadata and the gradebook's columns use; for `#[serde(with = …)]`.

use bpe_lab::lab::check::Exercise;
use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

pub(crate) fn serialize<S: Serializer>(
    exercise: &Exercise,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(exercise.name())
}

pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Exercise, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse().map_err(D::Error::custom)
}
