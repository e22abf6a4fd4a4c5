//! Africa Galore loaded into a DataFrame (feature `dataset`).

use polars::prelude::DataFrame;

use crate::dataset::descriptions::descriptions;
use crate::dataset::error::DatasetError;
use crate::dataset::formats::NAME_COLUMN;
use crate::dataset::source::{AfricaGalore, Provenance};
use crate::dataset::summary::Summary;

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

    /// The `name` column's values, in order, leaving out missing ones (none when there is no
    /// such column).
    pub fn names(&self) -> Vec<String> {
        self.frame
            .column(NAME_COLUMN)
            .ok()
            .and_then(|column| column.str().ok())
            .map(|names| names.iter().flatten().map(str::to_owned).collect())
            .unwrap_or_default()
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

impl AfricaGalore {
    /// Loads the dataset into a polars DataFrame. Fails only when the real dataset was required
    /// (`refresh`, or `allow_stand_in(false)`) and could not be had; otherwise the stand-in is
    /// the last resort and the [`Provenance`] says why it was used.
    pub fn load(&self) -> Result<Dataset, DatasetError> {
        let (records, provenance) = self.load_records()?;
        Ok(Dataset {
            frame: records.into_frame(),
            provenance,
        })
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
