//! Corpora in any of the usual shapes, read into one DataFrame shape: a `description` String
//! column with one paragraph per row, and `category` / `name` String columns when the source
//! has them (as Africa Galore does).
//!
//! | format | extension | paragraphs are |
//! | --- | --- | --- |
//! | [`Format::Json`] | `.json` | the text field of each object of a top-level array |
//! | [`Format::JsonLines`] | `.jsonl`, `.ndjson` | the text field of the object on each line |
//! | [`Format::Csv`] | `.csv` | the text column (the first row is the header) |
//! | [`Format::Parquet`] | `.parquet`, `.pq` | the text column |
//! | [`Format::Text`] | `.txt`, `.text`, `.md`, none | each non-empty line |
//!
//! Large files stay within bounded memory: JSON is parsed as a stream (one item at a time,
//! keeping only the fields that are used), JSON Lines and text line by line, and CSV and
//! Parquet through polars' lazy scans with only the needed columns projected, run on the
//! streaming engine.

#[cfg(feature = "columnar")]
mod columnar;
mod json;
mod text;

use std::fmt;
use std::path::Path;

use polars::prelude::{Column, DataFrame, PlSmallStr};

use crate::WordCounts;
use crate::dataset::DatasetError;
#[cfg(feature = "columnar")]
use crate::dataset::{COUNT_COLUMN, TableFormat, WORD_COLUMN, WordTable};

pub(crate) use json::{JsonProblem, records_from_json_slice};

/// The column every loader fills with one paragraph per row.
pub const TEXT_COLUMN: &str = "description";
/// Kept from the source when present (Africa Galore's topic, e.g. "Food").
pub const CATEGORY_COLUMN: &str = "category";
/// Kept from the source when present (Africa Galore's subject, e.g. "Injera").
pub const NAME_COLUMN: &str = "name";

/// The shape of a corpus file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A JSON array of objects; one field (default `description`) holds a paragraph.
    Json,
    /// One JSON object per line (JSON Lines / NDJSON); blank lines are skipped.
    JsonLines,
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet.
    Parquet,
    /// UTF-8 text, one paragraph per line; empty lines are skipped and a trailing `\r` is
    /// dropped, as `bpe-lab train` and [`WordCounts::from_lines`] read text.
    Text,
}

impl Format {
    /// The format a file name says: by its extension (case-insensitive), text when it has none,
    /// `None` for an extension this crate does not know.
    ///
    /// ```
    /// use bpe_lab::dataset::Format;
    /// assert_eq!(Format::from_path("corpus.JSONL"), Some(Format::JsonLines));
    /// assert_eq!(Format::from_path("notes"), Some(Format::Text));
    /// assert_eq!(Format::from_path("sheet.xlsx"), None);
    /// ```
    pub fn from_path(path: impl AsRef<Path>) -> Option<Format> {
        let Some(ext) = path.as_ref().extension() else {
            return Some(Format::Text);
        };
        let ext = ext.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::Json,
            "jsonl" | "ndjson" => Format::JsonLines,
            "csv" => Format::Csv,
            "parquet" | "pq" => Format::Parquet,
            "txt" | "text" | "md" => Format::Text,
            _ => return None,
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "JSON",
            Format::JsonLines => "JSON Lines",
            Format::Csv => "CSV",
            Format::Parquet => "Parquet",
            Format::Text => "text",
        })
    }
}

/// Reads a corpus file into a DataFrame, with the text column and format chosen or defaulted.
///
/// ```no_run
/// use bpe_lab::dataset::{CorpusReader, DataFrame, Format};
/// // Paragraphs from the "text" column of a CSV file; the frame calls it "description".
/// let frame: DataFrame = CorpusReader::new().text_column("text").read("reviews.csv")?;
/// // A file whose extension does not say what it is.
/// let frame: DataFrame = CorpusReader::new().format(Format::JsonLines).read("dump.log")?;
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
#[derive(Debug, Clone)]
pub struct CorpusReader {
    text_column: String,
    format: Option<Format>,
}

impl Default for CorpusReader {
    fn default() -> Self {
        CorpusReader {
            text_column: TEXT_COLUMN.to_owned(),
            format: None,
        }
    }
}

impl CorpusReader {
    /// Text column `description`, format from the file's extension.
    pub fn new() -> Self {
        Self::default()
    }

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) holding the paragraphs. The
    /// DataFrame names it `description` whatever it was called. Plain text has no columns.
    pub fn text_column(mut self, name: impl Into<String>) -> Self {
        self.text_column = name.into();
        self
    }

    /// Read the file as this format whatever its extension.
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// The paragraphs of the file at `path` (with `category` and `name` when it has them).
    pub fn read(&self, path: impl AsRef<Path>) -> Result<DataFrame, DatasetError> {
        let path = path.as_ref();
        let format = match self.format {
            Some(format) => format,
            None => Format::from_path(path).ok_or_else(|| DatasetError::UnknownFormat {
                path: path.to_owned(),
            })?,
        };
        let text = self.text_column.as_str();
        match format {
            Format::Json => json::read_json_file(path, text).map(Records::into_frame),
            Format::JsonLines => json::read_json_lines_file(path, text).map(Records::into_frame),
            Format::Text => text::read_text_file(path).map(Records::into_frame),
            #[cfg(feature = "columnar")]
            Format::Csv | Format::Parquet => columnar::read_corpus(path, format, text),
            #[cfg(not(feature = "columnar"))]
            Format::Csv | Format::Parquet => Err(columnar_disabled(path, format)),
        }
    }
}

/// [`CorpusReader`] with its defaults: the format from the extension, paragraphs from the
/// `description` field or column.
///
/// ```no_run
/// let frame = bpe_lab::dataset::read_corpus("my_corpus.jsonl")?;
/// let paragraphs: Vec<String> = bpe_lab::dataset::descriptions(&frame)?;
/// let (merges, vocabulary, corpus) = bpe_lab::learn_bpe(&paragraphs, 100);
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
pub fn read_corpus(path: impl AsRef<Path>) -> Result<DataFrame, DatasetError> {
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
            columnar::read_word_counts(path, format, word_column, count_column)
        }
        #[cfg(not(feature = "columnar"))]
        Some(format @ (Format::Csv | Format::Parquet)) => {
            let _ = (word_column, count_column);
            Err(columnar_disabled(path, format))
        }
        _ => Err(DatasetError::shape(
            path.display().to_string(),
            "a (word, count) table is read from a .csv or .parquet file",
        )),
    }
}

/// Adds the words of every paragraph of the corpus file at `path` (read as `format`, the
/// paragraphs from `text_column` where the format has columns) to `table`, as a stream: only a
/// line, a batch or (for a JSON array) the file's paragraphs are in memory at a time.
/// `progress` hears how many bytes of the file are done, now and then.
#[cfg(feature = "columnar")]
pub(crate) fn add_corpus_words(
    path: &Path,
    format: Format,
    text_column: &str,
    table: &mut WordTable,
    progress: &mut dyn FnMut(u64),
) -> Result<(), DatasetError> {
    let mut add = |paragraph: &str| table.add_paragraph(paragraph);
    match format {
        Format::Text => text::for_each_line(path, &mut add, progress),
        Format::JsonLines => {
            json::for_each_json_line(path, text_column, &mut |(_, _, t)| add(&t), progress)
        }
        // A JSON array is one document; its paragraphs are collected first.
        Format::Json => {
            let records = json::read_json_file(path, text_column)?;
            records.text.iter().for_each(|t| add(t));
            Ok(())
        }
        Format::Csv | Format::Parquet => {
            columnar::add_corpus_words(path, format, text_column, table)
        }
    }
}

/// Adds the rows of a (word, count) table file (CSV or Parquet) to `table`, checked as
/// [`read_word_counts`] checks them.
#[cfg(feature = "columnar")]
pub(crate) fn add_word_counts(
    path: &Path,
    format: TableFormat,
    table: &mut WordTable,
) -> Result<(), DatasetError> {
    let format = match format {
        TableFormat::Csv => Format::Csv,
        TableFormat::Parquet => Format::Parquet,
    };
    columnar::add_word_counts(path, format, WORD_COLUMN, COUNT_COLUMN, table)
}

/// CSV and Parquet need polars' lazy engine, which builds only with the `columnar` feature.
#[cfg(not(feature = "columnar"))]
fn columnar_disabled(path: &Path, format: Format) -> DatasetError {
    DatasetError::shape(
        path.display().to_string(),
        format!("reading {format} needs bpe-lab's `columnar` feature (on by default)"),
    )
}

/// Paragraphs with their optional category and name, in the order read: what every format
/// produces before it becomes a DataFrame.
#[derive(Debug, Default)]
pub(crate) struct Records {
    category: Vec<Option<String>>,
    name: Vec<Option<String>>,
    text: Vec<String>,
    /// Whether any record had the field at all: a column of only nulls is still kept when the
    /// source had the field, and left out when it never did.
    has_category: bool,
    has_name: bool,
}

impl Records {
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    fn push(
        &mut self,
        category: Option<Option<String>>,
        name: Option<Option<String>>,
        text: String,
    ) {
        self.has_category |= category.is_some();
        self.has_name |= name.is_some();
        self.category.push(category.flatten());
        self.name.push(name.flatten());
        self.text.push(text);
    }

    fn push_fields(&mut self, (category, name, text): json::Fields) {
        self.push(category, name, text);
    }

    fn push_text(&mut self, text: String) {
        self.push(None, None, text);
    }

    pub(crate) fn into_frame(self) -> DataFrame {
        let height = self.text.len();
        let mut columns = Vec::with_capacity(3);
        if self.has_category {
            columns.push(Column::new(
                PlSmallStr::from_static(CATEGORY_COLUMN),
                self.category,
            ));
        }
        if self.has_name {
            columns.push(Column::new(PlSmallStr::from_static(NAME_COLUMN), self.name));
        }
        columns.push(Column::new(PlSmallStr::from_static(TEXT_COLUMN), self.text));
        DataFrame::new(height, columns).expect("the columns have distinct names and one length")
    }
}
