//! The paragraphs of a corpus DataFrame: its `description` column as strings (feature
//! `dataset`). Its own file because both the loaded dataset (`frames.rs`) and the corpus
//! summary (`summary.rs`) read it, and neither should use the other for it.

use polars::prelude::DataFrame;

use crate::dataset::error::DatasetError;
use crate::dataset::formats::TEXT_COLUMN;

/// The `description` column of a corpus DataFrame as strings (for [`crate::bpe_initialize`],
/// [`crate::learn_bpe`] or [`crate::Trainer::train_paragraphs`]). Fails if there is no such
/// column, it is not text, or a value is missing.
pub fn descriptions(frame: &DataFrame) -> Result<Vec<String>, DatasetError> {
    const WHAT: &str = "the DataFrame";
    let column = frame
        .column(TEXT_COLUMN)
        .map_err(|_| DatasetError::MissingColumn {
            file: WHAT.to_owned(),
            column: TEXT_COLUMN.to_owned(),
            found: frame
                .get_column_names()
                .iter()
                .map(|n| n.to_string())
                .collect(),
        })?;
    let text = column.str().map_err(|_| DatasetError::WrongType {
        file: WHAT.to_owned(),
        column: TEXT_COLUMN.to_owned(),
        found: column.dtype().to_string(),
        expected: "text (a String column)",
    })?;
    text.iter()
        .enumerate()
        .map(|(row, value)| {
            value.map(str::to_owned).ok_or_else(|| {
                DatasetError::shape(WHAT, format!("row {}: missing description", row + 1))
            })
        })
        .collect()
}
