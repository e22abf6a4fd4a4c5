//! The (word, count) table that counting builds and training reads, in order of first
//! appearance.
//!
//! The order matters: the first-seen tie-break picks, among equally frequent pairs, the one met
//! first reading the corpus word by word, and a trainer given a table reads its rows as the
//! corpus. So a table keeps its words in the order they first appeared, and adding a second
//! table (a later shard) appends only the words the first did not have.

use std::io::Write;
use std::sync::Arc;

use polars::prelude::{Column, DataFrame, PlSmallStr};
use rustc_hash::FxHashMap;

use crate::WordCounts;

/// The column of words in a table file.
pub const WORD_COLUMN: &str = "word";
/// The column of counts in a table file.
pub const COUNT_COLUMN: &str = "count";

/// Distinct words with their counts, in order of first appearance.
///
/// ```
/// use bpe_lab::dataset::WordTable;
/// let mut table = WordTable::new();
/// table.add_paragraph("the cat  the");
/// table.add("dog", 2);
/// table.add("cat", 1);
/// let rows: Vec<(&str, u64)> = table.iter().collect();
/// assert_eq!(rows, [("the", 2), ("cat", 2), ("", 1), ("dog", 2)]);
/// let words = table.to_word_counts(); // what the trainer learns from
/// assert_eq!(words.total(), 7);
/// ```
#[derive(Debug, Default, Clone)]
pub struct WordTable {
    /// Each word's row in `rows`. The key shares its allocation with the row.
    index: FxHashMap<Arc<str>, u32>,
    rows: Vec<(Arc<str>, u64)>,
}

impl WordTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `count` occurrences of `word`: a new word goes last, a known one keeps its row.
    /// A zero count adds nothing (a word that never occurs is not in the table).
    pub fn add(&mut self, word: &str, count: u64) {
        if count == 0 {
            return;
        }
        if let Some(&row) = self.index.get(word) {
            self.rows[row as usize].1 += count;
            return;
        }
        let row = u32::try_from(self.rows.len()).expect("more than 4 billion distinct words");
        let word: Arc<str> = Arc::from(word);
        self.index.insert(Arc::clone(&word), row);
        self.rows.push((word, count));
    }

    /// Adds every word of `paragraph` as the lab splits it (Python's `split(" ")`: a double
    /// space makes an empty word), exactly the words [`crate::bpe_initialize`] makes.
    pub fn add_paragraph(&mut self, paragraph: &str) {
        for word in crate::bpe::corpus::lab_words(paragraph) {
            self.add(word, 1);
        }
    }

    /// Adds all of `other` after this table's words (see [`WordTable::add`]).
    pub fn append(&mut self, other: &WordTable) {
        for (word, count) in other.iter() {
            self.add(word, count);
        }
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Number of words counted, repeats included.
    pub fn total(&self) -> u64 {
        self.rows.iter().map(|(_, count)| count).sum()
    }

    /// The rows in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.rows.iter().map(|(word, count)| (&**word, *count))
    }

    /// The trainer's input: each word's characters followed by `</w>`, in the table's order.
    pub fn to_word_counts(&self) -> WordCounts {
        WordCounts::from_word_counts(self.iter())
    }

    /// The table as a DataFrame with columns `word` (String) and `count` (Int64, the type
    /// Spark and most tools write counts as).
    pub fn to_frame(&self) -> DataFrame {
        let words: Vec<&str> = self.rows.iter().map(|(word, _)| &**word).collect();
        let counts: Vec<i64> = self
            .rows
            .iter()
            .map(|&(_, count)| i64::try_from(count).expect("a count beyond 2^63 words"))
            .collect();
        DataFrame::new(
            words.len(),
            vec![
                Column::new(PlSmallStr::from_static(WORD_COLUMN), words),
                Column::new(PlSmallStr::from_static(COUNT_COLUMN), counts),
            ],
        )
        .expect("two columns of one length")
    }

    /// Writes the table as Parquet (zstd) or, for [`TableFormat::Csv`], CSV with a header.
    pub fn write(&self, format: TableFormat, out: &mut dyn Write) -> std::io::Result<()> {
        write_frame(self.to_frame(), format, out)
    }
}

/// Writes a count table's frame as Parquet (zstd) or CSV with a header: one writer for word
/// and chunk tables.
pub(crate) fn write_frame(
    mut frame: DataFrame,
    format: TableFormat,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    use polars::prelude::{CsvWriter, ParquetCompression, ParquetWriter, SerWriter};
    let result = match format {
        TableFormat::Parquet => ParquetWriter::new(out)
            .with_compression(ParquetCompression::Zstd(None))
            .finish(&mut frame)
            .map(drop),
        TableFormat::Csv => CsvWriter::new(out).include_header(true).finish(&mut frame),
    };
    result.map_err(std::io::Error::other)
}

/// The two file formats a table is read from and written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Parquet,
    Csv,
}

impl TableFormat {
    /// The format a file name says (`.parquet`/`.pq` or `.csv`, any case), if either.
    ///
    /// ```
    /// use bpe_lab::dataset::TableFormat;
    /// assert_eq!(TableFormat::from_path("counts.CSV"), Some(TableFormat::Csv));
    /// assert_eq!(TableFormat::from_path("counts.json"), None);
    /// ```
    pub fn from_path(path: impl AsRef<std::path::Path>) -> Option<TableFormat> {
        match super::super::Format::from_path(path)? {
            super::super::Format::Parquet => Some(TableFormat::Parquet),
            super::super::Format::Csv => Some(TableFormat::Csv),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appending_keeps_the_first_table_order_and_sums() {
        let mut a = WordTable::new();
        a.add_paragraph("b a b");
        let mut b = WordTable::new();
        b.add_paragraph("c a");
        a.append(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), [("b", 2), ("a", 2), ("c", 1)]);
        assert_eq!(a.total(), 5);
    }

    #[test]
    fn zero_counts_are_not_words() {
        let mut table = WordTable::new();
        table.add("x", 0);
        assert!(table.is_empty());
    }

    #[test]
    fn paragraphs_split_like_bpe_initialize() {
        for paragraph in ["", " ", "a  b ", "ünï cödé", "x\ty"] {
            let mut table = WordTable::new();
            table.add_paragraph(paragraph);
            let (corpus, _) = crate::bpe_initialize(&[paragraph]);
            assert_eq!(table.total() as usize, corpus.len(), "{paragraph:?}");
        }
    }
}
