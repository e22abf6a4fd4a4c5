//! Counting words where the data lives: a large corpus becomes a (word, count) table, and the
//! trainer learns from the table.
//!
//! BPE training has two parts of very different size. Counting words reads the whole corpus but
//! splits cleanly: count each file (or each machine's share) on its own, then add the tables.
//! The merge loop needs only the table of distinct words, millions of rows even for terabytes of
//! text. This module does the first part in bounded memory, streaming every input format, and
//! reads tables back for the second:
//!
//! ```no_run
//! use bpe_lab::dataset::{TableFormat, count_corpus, expand_inputs, read_word_table};
//! // Count (`bpe-lab count corpus/*.jsonl --output counts.parquet`)...
//! let files = expand_inputs(&["corpus/*.jsonl"], |_| true)?;
//! let table = count_corpus(&files, "description", &mut |_| {})?;
//! let mut file = std::fs::File::create("counts.parquet").unwrap();
//! table.write(TableFormat::Parquet, &mut file).unwrap();
//! // ...and train from the table (`bpe-lab train --word-counts counts.parquet`).
//! let words = read_word_table("counts.parquet")?.to_word_counts();
//! let training = bpe_lab::Trainer::new(1000).train(words);
//! # Ok::<(), bpe_lab::dataset::DatasetError>(())
//! ```
//!
//! **The table** has a `word` column (text) and a `count` column (whole numbers); its rows are
//! in order of first appearance in the corpus, inputs read in the order given, and the words
//! are exactly those [`crate::bpe_initialize`] makes (each paragraph split on every single
//! space, as Python's `str.split(" ")`). With the order kept, training from the table gives the
//! same merges as training from the text under both tie-breaks, the first-seen one included.
//!
//! **Memory** is bounded by the table, not the corpus: text and JSON Lines are read a line at a
//! time, CSV and Parquet in batches from polars' streaming engine (only the text column is
//! read). A JSON array is one document and is the exception: its paragraphs are held while it
//! is read (use JSON Lines for large corpora).

mod inputs;
mod table;

use std::path::Path;

pub use inputs::expand_inputs;
pub use table::{COUNT_COLUMN, TableFormat, WORD_COLUMN, WordTable};

use crate::dataset::error::DatasetError;
use crate::dataset::formats::{self, CorpusReader, Format};

/// The words of every corpus file in `files`, in order, each read as its extension says
/// (text, JSON, JSON Lines, CSV, Parquet) with paragraphs from `text_column` where the format
/// has fields. `progress` hears the bytes of input done so far, now and then.
pub fn count_corpus(
    files: &[impl AsRef<Path>],
    text_column: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<WordTable, DatasetError> {
    let reader = CorpusReader::new().text_column(text_column);
    let mut table = WordTable::new();
    let mut done = 0u64;
    for file in files {
        let file = file.as_ref();
        reader.for_each_paragraph(file, &mut |p| table.add_paragraph(p), &mut |bytes| {
            progress(done + bytes)
        })?;
        done += file_size(file);
        progress(done);
    }
    Ok(table)
}

/// The sum of (word, count) tables (CSV or Parquet files with `word` and `count` columns), rows
/// in order of first appearance across the tables in the order given: what counting the
/// tables' corpora one after the other gives. `progress` hears the bytes done after each file.
pub fn merge_tables(
    files: &[impl AsRef<Path>],
    progress: &mut dyn FnMut(u64),
) -> Result<WordTable, DatasetError> {
    let mut table = WordTable::new();
    let mut done = 0u64;
    for file in files {
        add_table(file.as_ref(), &mut table)?;
        done += file_size(file.as_ref());
        progress(done);
    }
    Ok(table)
}

/// The (word, count) table at `path`: a CSV or Parquet file, or a directory of them (Spark
/// writes a table as a folder of `part-*` files; they are read in name order).
pub fn read_word_table(path: impl AsRef<Path>) -> Result<WordTable, DatasetError> {
    let path = path.as_ref();
    let files = expand_inputs(&[path], |p| TableFormat::from_path(p).is_some())?;
    merge_tables(&files, &mut |_| {})
}

fn add_table(file: &Path, table: &mut WordTable) -> Result<(), DatasetError> {
    let format = TableFormat::from_path(file).ok_or_else(|| {
        DatasetError::shape(
            file.display().to_string(),
            "a (word, count) table is read from a .parquet or .csv file",
        )
    })?;
    let format = match format {
        TableFormat::Csv => Format::Csv,
        TableFormat::Parquet => Format::Parquet,
    };
    formats::add_word_counts(file, format, WORD_COLUMN, COUNT_COLUMN, &mut |w, c| {
        table.add(w, c)
    })
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}
