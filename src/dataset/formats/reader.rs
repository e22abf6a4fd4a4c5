//! [`CorpusReader`]: the one way a corpus file becomes paragraphs, whatever asks (`bpe-lab
//! train`, `explain` and `count`, the notebooks' DataFrame loaders).

use std::path::Path;

use super::format::Format;
#[cfg(feature = "dataset")]
use super::records::Records;
use super::records::TEXT_COLUMN;
use super::{json, text};
use crate::WordCounts;
use crate::dataset::error::DatasetError;

/// Reads a corpus file into paragraphs (or, with the `dataset` feature, a DataFrame), with the
/// text column and format chosen or defaulted.
///
/// ```no_run
/// use bpe_lab::dataset::{CorpusReader, Format};
/// // Paragraphs from the "text" field of each line of a JSON Lines file.
/// let paragraphs: Vec<String> = CorpusReader::new().text_column("text").paragraphs("dump.jsonl")?;
/// // A file whose extension does not say what it is.
/// let words = CorpusReader::new().format(Format::Text).word_counts("notes.log")?;
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

    /// The field (JSON, JSON Lines) or column (CSV, Parquet) holding the paragraphs. A
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

    /// The format the file at `path` is read as: the one chosen, else its extension's.
    pub fn format_of(&self, path: &Path) -> Result<Format, DatasetError> {
        match self.format {
            Some(format) => Ok(format),
            None => Format::from_path(path).ok_or_else(|| DatasetError::UnknownFormat {
                path: path.to_owned(),
            }),
        }
    }

    /// Calls `each` with every paragraph of the file in order, as a stream: only a line, a
    /// batch or (for a JSON array) the file's paragraphs are in memory at a time. `progress`
    /// hears how many bytes of the file are done, now and then (not for CSV and Parquet).
    pub fn for_each_paragraph(
        &self,
        path: impl AsRef<Path>,
        each: &mut dyn FnMut(&str),
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), DatasetError> {
        let path = path.as_ref();
        let column = self.text_column.as_str();
        match self.format_of(path)? {
            Format::Text => text::for_each_line(path, each, progress),
            Format::JsonLines => {
                json::for_each_json_line(path, column, &mut |(_, _, t)| each(&t), progress)
            }
            // A JSON array is one document; its paragraphs are collected first.
            Format::Json => {
                let records = json::read_json_file(path, column)?;
                records.text.iter().for_each(|t| each(t));
                Ok(())
            }
            #[cfg(feature = "columnar")]
            format @ (Format::Csv | Format::Parquet) => {
                super::columnar::for_each_paragraph(path, format, column, each)
            }
            #[cfg(not(feature = "columnar"))]
            format @ (Format::Csv | Format::Parquet) => {
                Err(DatasetError::needs_columnar(path, format))
            }
        }
    }

    /// The paragraphs of the file at `path`, in order.
    pub fn paragraphs(&self, path: impl AsRef<Path>) -> Result<Vec<String>, DatasetError> {
        let path = path.as_ref();
        match self.format_of(path)? {
            Format::Json => Ok(json::read_json_file(path, &self.text_column)?.into_paragraphs()),
            _ => {
                let mut paragraphs = Vec::new();
                self.for_each_paragraph(path, &mut |p| paragraphs.push(p.to_owned()), &mut |_| {})?;
                Ok(paragraphs)
            }
        }
    }

    /// The corpus as one text, for byte-level training, where spaces and line breaks are data:
    /// a plain-text file whole (without its byte-order mark), every other format's paragraphs
    /// one per line.
    pub fn text(&self, path: impl AsRef<Path>) -> Result<String, DatasetError> {
        let path = path.as_ref();
        match self.format_of(path)? {
            Format::Text => text::read_whole(path),
            _ => Ok(self.paragraphs(path)?.join("\n")),
        }
    }

    /// The words of the file at `path`, ready for [`crate::Trainer`]: the paragraphs of
    /// [`CorpusReader::paragraphs`] cut as the lab cuts them. Plain text is read whole and
    /// counted on all cores ([`WordCounts::from_lines`], under the same line rule).
    pub fn word_counts(&self, path: impl AsRef<Path>) -> Result<WordCounts, DatasetError> {
        let path = path.as_ref();
        match self.format_of(path)? {
            Format::Text => Ok(WordCounts::from_lines(&text::read_whole(path)?)),
            _ => Ok(WordCounts::from_paragraphs(&self.paragraphs(path)?)),
        }
    }

    /// The paragraphs of the file at `path` as a DataFrame: `description`, with `category` and
    /// `name` when the file has them.
    ///
    /// ```no_run
    /// use bpe_lab::dataset::{CorpusReader, DataFrame};
    /// // Paragraphs from the "text" column of a CSV file; the frame calls it "description".
    /// let frame: DataFrame = CorpusReader::new().text_column("text").read("reviews.csv")?;
    /// # Ok::<(), bpe_lab::dataset::DatasetError>(())
    /// ```
    #[cfg(feature = "dataset")]
    pub fn read(&self, path: impl AsRef<Path>) -> Result<polars::prelude::DataFrame, DatasetError> {
        let path = path.as_ref();
        let column = self.text_column.as_str();
        match self.format_of(path)? {
            Format::Json => json::read_json_file(path, column).map(Records::into_frame),
            Format::JsonLines => json::read_json_lines_file(path, column).map(Records::into_frame),
            Format::Text => {
                let mut records = Records::default();
                text::for_each_line(
                    path,
                    &mut |t| records.push_fields((None, None, t.to_owned())),
                    &mut |_| {},
                )?;
                Ok(records.into_frame())
            }
            #[cfg(feature = "columnar")]
            format @ (Format::Csv | Format::Parquet) => {
                super::columnar::read_corpus(path, format, column)
            }
            #[cfg(not(feature = "columnar"))]
            format @ (Format::Csv | Format::Parquet) => {
                Err(DatasetError::needs_columnar(path, format))
            }
        }
    }
}
