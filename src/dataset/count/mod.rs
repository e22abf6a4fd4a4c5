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
//! **Chunk tables** are byte-level training's counterpart ([`count_chunks`], `bpe-lab count
//! --pattern`): each file is read as `bpe-lab train --byte-level` reads its input (a text file
//! whole, other formats' paragraphs one per line), cut at the special tokens and split by the
//! pattern exactly as training splits it, so summing shards' tables gives the chunks of the
//! whole text as long as no chunk would cross a shard boundary (cut shards just before a line
//! that starts with a letter, after one that does not end in whitespace). Their shape is in
//! `chunks.rs`; [`sum_tables`] adds either kind, never the two mixed nor chunk tables cut
//! differently.
//!
//! **Memory** is bounded by the table, not the corpus: text and JSON Lines are read a line at a
//! time, CSV and Parquet in batches from polars' streaming engine (only the text column is
//! read). A JSON array is one document and is the exception: its paragraphs are held while it
//! is read (use JSON Lines for large corpora). Chunk counting holds one file's text at a time,
//! as byte-level training holds its input: shard a large corpus into files.

mod chunks;
mod inputs;
mod table;

use std::path::Path;

pub use chunks::{CHUNK_COLUMN, ChunkSplit, ChunkTable, PATTERN_COLUMN, SPECIALS_COLUMN};
pub use inputs::{expand_inputs, expand_text_inputs};
pub use table::{COUNT_COLUMN, TableFormat, WORD_COLUMN, WordTable};

use crate::bpe::bytelevel::{SplitPattern, Splitter, first_uncovered};
use crate::dataset::error::DatasetError;
use crate::dataset::formats::{self, CorpusReader, Format};

/// A count table of either kind, as read from a file: what it holds decides what trains on it.
#[derive(Debug, Clone)]
pub enum CountTable {
    /// A `word` column: the lab's words, for [`crate::Trainer`].
    Words(WordTable),
    /// A `chunk` column: a split pattern's chunks, for byte-level training.
    Chunks(ChunkTable),
}

impl CountTable {
    /// Number of distinct words or chunks.
    pub fn len(&self) -> usize {
        match self {
            CountTable::Words(t) => t.len(),
            CountTable::Chunks(t) => t.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of words or chunks counted, repeats included.
    pub fn total(&self) -> u64 {
        match self {
            CountTable::Words(t) => t.total(),
            CountTable::Chunks(t) => t.total(),
        }
    }

    /// Writes the table as Parquet or CSV (see [`WordTable::write`], [`ChunkTable::write`]).
    pub fn write(&self, format: TableFormat, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            CountTable::Words(t) => t.write(format, out),
            CountTable::Chunks(t) => t.write(format, out),
        }
    }

    /// What kind of table this is, in the words errors use.
    fn kind(&self) -> String {
        match self {
            CountTable::Words(_) => "a word table".to_owned(),
            CountTable::Chunks(t) => format!("a chunk table ({})", t.split()),
        }
    }
}

/// The chunks of every corpus file in `files`, in order, as byte-level training counts them:
/// each file read as one text ([`CorpusReader::text`]: a text file whole, other formats'
/// paragraphs one per line; a file that is not UTF-8 is an error, as for training), cut at
/// `special_tokens`, split by `splitter` on all cores. No chunk crosses two files. A user's
/// pattern that leaves part of a text unmatched is refused naming the file and the place
/// (training on the text refuses it too, unless told to drop such text; a table cannot say
/// what was dropped). `progress` hears the bytes of input done after each file.
pub fn count_chunks(
    files: &[impl AsRef<Path>],
    text_column: &str,
    splitter: &Splitter,
    special_tokens: &[String],
    progress: &mut dyn FnMut(u64),
) -> Result<ChunkTable, DatasetError> {
    let reader = CorpusReader::new().text_column(text_column);
    let split = ChunkSplit::new(splitter.pattern().clone(), special_tokens.to_vec());
    let specials: Vec<&str> = special_tokens.iter().map(String::as_str).collect();
    let mut table = ChunkTable::new(split);
    let threads = crate::bpe::available_threads();
    let mut done = 0u64;
    for file in files {
        let file = file.as_ref();
        let name = || file.display().to_string();
        let failed = |e: crate::bpe::bytelevel::SplitError| {
            DatasetError::shape(name(), format!("the split pattern failed: {e}"))
        };
        let text = reader.text(file)?;
        if matches!(splitter.pattern(), SplitPattern::Custom(_))
            && let Some(gap) = first_uncovered(splitter, &text, &specials).map_err(failed)?
        {
            return Err(DatasetError::shape(
                name(),
                format!(
                    "{gap}; a chunk table is counted only with a pattern that matches all of \
                     the text (widen it, for instance end it with `|\\s+|.`)"
                ),
            ));
        }
        table.add_text(&text, splitter, threads).map_err(failed)?;
        done += file_size(file);
        progress(done);
    }
    Ok(table)
}

/// The sum of count tables (CSV or Parquet files), rows in order of first appearance across
/// the tables in the order given: what counting their corpora one after the other gives. The
/// first table decides the kind: word tables (a `word` column) add up, and chunk tables (a
/// `chunk` column) cut the same way (same `pattern`, same `special_tokens`); a table of the
/// other kind, or cut otherwise, is an error naming it and the first. `progress` hears the
/// bytes done after each file.
pub fn sum_tables(
    files: &[impl AsRef<Path>],
    progress: &mut dyn FnMut(u64),
) -> Result<CountTable, DatasetError> {
    let mut sum: Option<(CountTable, &Path)> = None;
    let mut done = 0u64;
    for file in files {
        let file = file.as_ref();
        let (format, kind) = table_kind(file)?;
        let (table, first) = sum.get_or_insert_with(|| {
            let empty = match &kind {
                TableKind::Words => CountTable::Words(WordTable::new()),
                TableKind::Chunks(split) => CountTable::Chunks(ChunkTable::new(split.clone())),
            };
            (empty, file)
        });
        let column = match (&mut *table, &kind) {
            (CountTable::Words(_), TableKind::Words) => WORD_COLUMN,
            (CountTable::Chunks(t), TableKind::Chunks(split)) if t.split() == split => CHUNK_COLUMN,
            (table, kind) => {
                let this = match kind {
                    TableKind::Words => "a word table".to_owned(),
                    TableKind::Chunks(split) => format!("a chunk table ({split})"),
                };
                return Err(DatasetError::shape(
                    file.display().to_string(),
                    format!(
                        "it is {this}, but '{}' is {}: only tables counted the same way add up",
                        first.display(),
                        table.kind()
                    ),
                ));
            }
        };
        formats::add_word_counts(
            file,
            format,
            column,
            COUNT_COLUMN,
            &mut |w, c| match table {
                CountTable::Words(t) => t.add(w, c),
                CountTable::Chunks(t) => t.add(w, c),
            },
        )?;
        done += file_size(file);
        progress(done);
    }
    Ok(sum.map_or(CountTable::Words(WordTable::new()), |(table, _)| table))
}

/// The count table at `path`, of either kind: a CSV or Parquet file, or a directory of them
/// (Spark writes a table as a folder of `part-*` files; they are read in name order).
pub fn read_count_table(path: impl AsRef<Path>) -> Result<CountTable, DatasetError> {
    let path = path.as_ref();
    let files = expand_inputs(&[path], |p| TableFormat::from_path(p).is_some())?;
    sum_tables(&files, &mut |_| {})
}

/// What a table file holds, from its columns (and, for chunks, its split columns' values).
enum TableKind {
    Words,
    Chunks(ChunkSplit),
}

fn table_kind(file: &Path) -> Result<(Format, TableKind), DatasetError> {
    let name = || file.display().to_string();
    let format = match TableFormat::from_path(file) {
        Some(TableFormat::Csv) => Format::Csv,
        Some(TableFormat::Parquet) => Format::Parquet,
        None => {
            return Err(DatasetError::shape(
                name(),
                "a count table is read from a .parquet or .csv file",
            ));
        }
    };
    let columns = formats::column_names(file, format)?;
    let has = |column: &str| columns.iter().any(|c| c == column);
    if has(WORD_COLUMN) && !has(CHUNK_COLUMN) {
        return Ok((format, TableKind::Words));
    }
    if !has(CHUNK_COLUMN) {
        return Err(DatasetError::MissingColumn {
            file: name(),
            column: format!("{WORD_COLUMN}\" (a word table) or \"{CHUNK_COLUMN}\" (a chunk table)"),
            found: columns,
        });
    }
    let one = |column: &str| -> Result<String, DatasetError> {
        let values = formats::distinct_text_values(file, format, column, 2)?;
        match <[String; 1]>::try_from(values) {
            Ok([value]) => Ok(value),
            Err(values) if values.is_empty() => Err(DatasetError::shape(
                name(),
                "the chunk table has no rows, so it does not say how it was split",
            )),
            Err(values) => Err(DatasetError::shape(
                name(),
                format!(
                    "column \"{column}\" holds more than one value ({:?}, {:?}, ...); a chunk \
                     table is split one way throughout (sum tables with `bpe-lab count --sum`, \
                     which checks)",
                    values[0], values[1]
                ),
            )),
        }
    };
    let pattern = one(PATTERN_COLUMN)?;
    let specials = one(SPECIALS_COLUMN)?;
    let split =
        ChunkSplit::from_columns(&pattern, &specials).ok_or_else(|| DatasetError::WrongType {
            file: name(),
            column: SPECIALS_COLUMN.to_owned(),
            found: format!("{specials:?}"),
            expected: "a JSON array of strings (the special tokens, such as [\"<|endoftext|>\"])",
        })?;
    Ok((format, TableKind::Chunks(split)))
}

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
/// A chunk table is an error ([`sum_tables`] adds either kind).
pub fn merge_tables(
    files: &[impl AsRef<Path>],
    progress: &mut dyn FnMut(u64),
) -> Result<WordTable, DatasetError> {
    words_only(
        sum_tables(files, progress)?,
        files.first().map(AsRef::as_ref),
    )
}

/// The (word, count) table at `path`: a CSV or Parquet file, or a directory of them (Spark
/// writes a table as a folder of `part-*` files; they are read in name order). A chunk table
/// is an error ([`read_count_table`] reads either kind).
pub fn read_word_table(path: impl AsRef<Path>) -> Result<WordTable, DatasetError> {
    let path = path.as_ref();
    words_only(read_count_table(path)?, Some(path))
}

fn words_only(table: CountTable, file: Option<&Path>) -> Result<WordTable, DatasetError> {
    match table {
        CountTable::Words(table) => Ok(table),
        CountTable::Chunks(table) => Err(DatasetError::shape(
            file.map_or_else(String::new, |f| f.display().to_string()),
            format!(
                "counted by chunks ({}), not words: byte-level training reads it",
                table.split()
            ),
        )),
    }
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}
