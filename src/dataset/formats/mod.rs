//! Corpora in any of the usual shapes, read into one shape: paragraphs in order, or (feature
//! `dataset`) a DataFrame with a `description` String column, one paragraph per row, and
//! `category` / `name` String columns when the source has them (as Africa Galore does).
//!
//! | format | extension | paragraphs are |
//! | --- | --- | --- |
//! | [`Format::Json`] | `.json` | the text field of each object of a top-level array |
//! | [`Format::JsonLines`] | `.jsonl`, `.ndjson` | the text field of the object on each line |
//! | [`Format::Csv`] | `.csv` | the text column (the first row is the header) |
//! | [`Format::Parquet`] | `.parquet`, `.pq` | the text column |
//! | [`Format::Text`] | `.txt`, `.text`, `.md`, none | each non-empty line |
//!
//! Text, JSON and JSON Lines are read by this crate's own code and need no feature, so the
//! command line built without polars reads them exactly as the notebooks do. CSV and Parquet go
//! through polars' lazy scans (feature `columnar`); without it they are an error that says so.
//!
//! Large files stay within bounded memory: JSON is parsed as a stream (one item at a time,
//! keeping only the fields that are used), JSON Lines and text line by line, and CSV and
//! Parquet through polars' lazy scans with only the needed columns projected, run on the
//! streaming engine.

#[cfg(feature = "columnar")]
mod columnar;
pub(crate) mod format;
mod json;
mod reader;
mod records;
mod text;

use std::path::Path;

use crate::WordCounts;
use crate::dataset::error::DatasetError;

#[cfg(feature = "columnar")]
pub(crate) use columnar::{add_word_counts, column_names, distinct_text_values};
pub use format::Format;
#[cfg(feature = "africa-galore")]
pub(crate) use json::{JsonProblem, records_from_json_slice};
pub use reader::CorpusReader;
#[cfg(feature = "africa-galore")]
pub(crate) use records::Records;
pub use records::{CATEGORY_COLUMN, NAME_COLUMN, TEXT_COLUMN};

/// [`CorpusReader`] with its defaults: the format from the extension, paragraphs from the
/// `description` field or column.
///
/// ```no_run
/// let frame = bpe_lab::dataset::read_corpus("my_corpus.jsonl")?;
/// let paragraphs: Vec<String> = bpe_lab::dataset::descriptions(&frame)?;
/// let (merges, vocabulary, corpus) = bpe_lab::learn_bpe(&paragraphs, 100);
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
#[cfg(feature = "dataset")]
pub fn read_corpus(path: impl AsRef<Path>) -> Result<polars::prelude::DataFrame, DatasetError> {
    CorpusReader::new().read(path)
}

/// A (word, count) table from a CSV or Parquet file, straight into the trainer's input:
/// `word_column` must hold text, `count_column` non-negative integers, neither with missing
/// values. A word listed twice has its counts added; zero counts are left out.
///
/// ```no_run
/// use bpe_lab::{Trainer, WordCounts};
/// let words: WordCounts = bpe_lab::dataset::read_word_counts("counts.parquet", "word", "count")?;
/// let training = Trainer::new(1000).train(words);
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
pub fn read_word_counts(
    path: impl AsRef<Path>,
    word_column: &str,
    count_column: &str,
) -> Result<WordCounts, DatasetError> {
    let path = path.as_ref();
    match Format::from_path(path) {
        #[cfg(feature = "columnar")]
        Some(format @ (Format::Csv | Format::Parquet)) => {
            let mut rows = Vec::new();
            columnar::add_word_counts(path, format, word_column, count_column, &mut |w, c| {
                rows.push((w.to_owned(), c))
            })?;
            Ok(WordCounts::from_word_counts(rows))
        }
        #[cfg(not(feature = "columnar"))]
        Some(format @ (Format::Csv | Format::Parquet)) => {
            let _ = (word_column, count_column);
            Err(DatasetError::needs_columnar(path, format))
        }
        _ => Err(DatasetError::shape(
            path.display().to_string(),
            "a (word, count) table is read from a .csv or .parquet file",
        )),
    }
}
