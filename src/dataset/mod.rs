//! The lab's dataset, Africa Galore, and every corpus reader (text, JSON, JSON Lines, CSV,
//! Parquet), into paragraphs or polars DataFrames.
//!
//! The corpus readers ([`CorpusReader`]) of text, JSON and JSON Lines need no feature: every
//! command that takes a corpus reads it here, so the same file gives the same paragraphs in
//! `bpe-lab train`, `explain`, `count` and the notebooks. CSV and Parquet need the `columnar`
//! feature; Africa Galore as plain vectors ([`Rows`], from the cache or the stand-in) needs
//! `africa-galore`, its download `download`, and the DataFrames `dataset` (which has both).
//!
//! The lab loads Africa Galore into pandas and trains on its `description` column; this module
//! does the same with polars. One call gives the dataset and says where it came from:
//!
//! ```
//! # #[cfg(feature = "dataset")] {
//! use bpe_lab::dataset::{self, DataFrame};
//! # let data = dataset::AfricaGalore::new().offline(true).cache_dir("/nonexistent/doc").load()?;
//! // In a notebook: `let data = dataset::africa_galore();`
//! println!("{}", data.provenance); // e.g. "used the cached copy at ~/.cache/bpe-lab/…"
//! let frame: &DataFrame = &data.frame; // columns category, name, description
//! let paragraphs: Vec<String> = data.paragraphs();
//! let (merges, vocabulary, corpus) = bpe_lab::learn_bpe(&paragraphs, 50);
//! let summary: DataFrame = data.summary().to_frame(); // paragraphs, words, unique_words, characters
//! # }
//! # Ok::<(), bpe_lab::dataset::DatasetError>(())
//! ```
//!
//! The dataset comes from, in order: a valid copy in the cache (`BPE_LAB_CACHE_DIR`, else the
//! user cache directory + `bpe-lab`); a download from the lab's URL (`BPE_LAB_DATASET_URL`
//! overrides it; `BPE_LAB_OFFLINE=1` skips it), validated and then cached; the stand-in bundled
//! with the crate (40 original paragraphs in the same schema, **not** the real dataset).
//! [`AfricaGalore`] sets all of this explicitly. Other corpora (JSON, JSON Lines, CSV, Parquet,
//! text) load into the same shape with [`read_corpus`] / [`CorpusReader`], and (word, count)
//! tables straight into the trainer with [`read_word_counts`].
//!
//! Everything a notebook binds has a concrete, named type (no `impl Trait` results), because the
//! evcxr kernel must be able to name a variable's type; the polars types are re-exported here
//! (and the whole crate as [`polars`](crate::polars)), so `:dep bpe-lab` is the only dependency
//! a notebook needs.

#[cfg(feature = "africa-galore")]
mod cache;
#[cfg(feature = "columnar")]
mod count;
#[cfg(feature = "dataset")]
mod descriptions;
#[cfg(feature = "download")]
mod download;
mod error;
mod formats;
#[cfg(feature = "dataset")]
mod frames;
#[cfg(feature = "africa-galore")]
mod published;
#[cfg(feature = "africa-galore")]
mod rows;
#[cfg(feature = "africa-galore")]
mod source;
#[cfg(feature = "dataset")]
mod summary;

#[cfg(feature = "dataset")]
pub use polars::prelude::{Column, DataFrame, DataType, PolarsError, PolarsResult, Series};
#[cfg(feature = "columnar")]
pub use polars::prelude::{IntoLazy, LazyFrame, col, lit};

#[cfg(feature = "africa-galore")]
pub use cache::default_cache_dir;
#[cfg(feature = "columnar")]
pub use count::{
    CHUNK_COLUMN, COUNT_COLUMN, ChunkSplit, ChunkTable, CountTable, PATTERN_COLUMN,
    SPECIALS_COLUMN, TableFormat, WORD_COLUMN, WordTable, count_chunks, count_corpus,
    expand_inputs, expand_text_inputs, merge_tables, read_count_table, read_word_table, sum_tables,
};
#[cfg(feature = "dataset")]
pub use descriptions::descriptions;
pub use error::{DatasetError, DownloadFailure};
#[cfg(feature = "dataset")]
pub use formats::read_corpus;
pub use formats::{
    CATEGORY_COLUMN, CorpusReader, Format, NAME_COLUMN, TEXT_COLUMN, read_word_counts,
};
#[cfg(feature = "dataset")]
pub use frames::{Dataset, africa_galore};
#[cfg(feature = "africa-galore")]
pub use published::DEFAULT_URL;
#[cfg(feature = "africa-galore")]
pub use rows::{Rows, africa_galore_rows, paragraphs_for_training};
#[cfg(feature = "africa-galore")]
pub use source::{
    AfricaGalore, CACHE_DIR_ENV, DEFAULT_FAILURE_WINDOW, Note, OFFLINE_ENV, Provenance, Source,
    URL_ENV,
};
#[cfg(feature = "dataset")]
pub use summary::{Summary, summarize};

/// The bundled stand-in (`data/africa_galore_stand_in.json`), compiled into the crate so it is
/// there whatever the working directory (a notebook kernel's is rarely the crate's).
pub const STAND_IN_JSON: &str = include_str!("../../data/africa_galore_stand_in.json");
