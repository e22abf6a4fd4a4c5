//! The lab's dataset, Africa Galore, and any other corpus, as polars DataFrames.
//!
//! The lab loads Africa Galore into pandas and trains on its `description` column; this module
//! does the same with polars. One call gives the dataset and says where it came from:
//!
//! ```
//! use bpe_lab::dataset::{self, DataFrame};
//! # let data = dataset::AfricaGalore::new().offline(true).cache_dir("/nonexistent/doc").load()?;
//! // In a notebook: `let data = dataset::africa_galore();`
//! println!("{}", data.provenance); // e.g. "used the cached copy at ~/.cache/bpe-lab/…"
//! let frame: &DataFrame = &data.frame; // columns category, name, description
//! let paragraphs: Vec<String> = data.paragraphs();
//! let (merges, vocabulary, corpus) = bpe_lab::learn_bpe(&paragraphs, 50);
//! let summary: DataFrame = data.summary().to_frame(); // paragraphs, words, unique_words, characters
//! # Ok::<(), dataset::DatasetError>(())
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

mod cache;
#[cfg(feature = "columnar")]
mod count;
mod download;
mod error;
mod formats;
mod source;
mod summary;

pub use polars::prelude::{Column, DataFrame, DataType, PolarsError, PolarsResult, Series};
#[cfg(feature = "columnar")]
pub use polars::prelude::{IntoLazy, LazyFrame, col, lit};

pub use cache::default_cache_dir;
#[cfg(feature = "columnar")]
pub use count::{
    COUNT_COLUMN, TableFormat, WORD_COLUMN, WordTable, count_corpus, expand_inputs, merge_tables,
    read_word_table,
};
pub use error::{DatasetError, DownloadFailure};
pub use formats::{
    CATEGORY_COLUMN, CorpusReader, Format, NAME_COLUMN, TEXT_COLUMN, read_corpus, read_word_counts,
};
pub use source::{
    AfricaGalore, CACHE_DIR_ENV, DEFAULT_FAILURE_WINDOW, DEFAULT_URL, Note, OFFLINE_ENV,
    Provenance, Source, URL_ENV,
};
pub use summary::{Summary, summarize};

/// The bundled stand-in (`data/africa_galore_stand_in.json`), compiled into the crate so it is
/// there whatever the working directory (a notebook kernel's is rarely the crate's).
pub const STAND_IN_JSON: &str = include_str!("../../data/africa_galore_stand_in.json");

/// A loaded dataset: the DataFrame and where it came from.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Columns `category`, `name` (when the source has them) and `description` (String), one
    /// paragraph per row.
    pub frame: DataFrame,
    pub provenance: Provenance,
}

impl Dataset {
    /// The `description` column, ready for [`crate::bpe_initialize`] or [`crate::learn_bpe`].
    ///
    /// Panics only if `frame` was replaced by one without a text `description` column free of
    /// missing values; [`descriptions`] returns an error instead.
    pub fn paragraphs(&self) -> Vec<String> {
        descriptions(&self.frame).expect("a loaded dataset has a description column without nulls")
    }

    /// Paragraph, word and character counts (see [`Summary`]).
    pub fn summary(&self) -> Summary {
        Summary::of_paragraphs(&self.paragraphs())
    }

    /// Whether this is the bundled stand-in rather than the real dataset.
    pub fn is_stand_in(&self) -> bool {
        self.provenance.is_stand_in()
    }
}

/// Africa Galore as configured by the environment (`BPE_LAB_CACHE_DIR`, `BPE_LAB_DATASET_URL`,
/// `BPE_LAB_OFFLINE`): the cached copy, else a download, else the bundled stand-in. Never fails:
/// what went wrong on the way is in the result's [`Provenance`]. For other choices (refresh, the
/// real data or an error, timeouts) use [`AfricaGalore`].
pub fn africa_galore() -> Dataset {
    AfricaGalore::from_env()
        .load()
        .expect("with the stand-in allowed and no refresh, loading cannot fail")
}

/// The paragraphs to train on when no corpus file is given, for `bpe-lab train`: Africa Galore
/// as [`africa_galore`] loads it (with `offline` forcing the network off), and where it came
/// from, so the caller can say so.
pub fn paragraphs_for_training(offline: bool) -> Result<(Vec<String>, Provenance), DatasetError> {
    let mut loader = AfricaGalore::from_env();
    if offline {
        loader = loader.offline(true);
    }
    let data = loader.load()?;
    Ok((data.paragraphs(), data.provenance))
}

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
