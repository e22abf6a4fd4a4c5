//! Africa Galore as plain vectors (feature `africa-galore`): what a notebook that never shows a
//! DataFrame loads, so that its kernel builds without polars.

use super::formats::Records;
use super::source::{AfricaGalore, Provenance};

/// The dataset's columns as vectors, one entry per row, and where they came from. The same rows
/// in the same order as [`Dataset`](crate::dataset::Dataset)'s DataFrame.
///
/// ```
/// use bpe_lab::dataset::{AfricaGalore, Rows};
/// let data: Rows = AfricaGalore::new().offline(true).cache_dir("/nonexistent/doc").load_rows()?;
/// assert_eq!(data.len(), 40);
/// assert!(data.is_stand_in());
/// let paragraphs: Vec<String> = data.paragraphs();
/// assert_eq!(paragraphs[0], data.description[0]);
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Rows {
    /// Each row's topic (e.g. "Food"); `None` where the source has none.
    pub category: Vec<Option<String>>,
    /// Each row's subject (e.g. "Injera"); `None` where the source has none.
    pub name: Vec<Option<String>>,
    /// Each row's paragraph.
    pub description: Vec<String>,
    pub provenance: Provenance,
}

impl Rows {
    pub(crate) fn new(records: Records, provenance: Provenance) -> Rows {
        Rows {
            category: records.category,
            name: records.name,
            description: records.text,
            provenance,
        }
    }

    /// The paragraphs (the `description` column), ready for [`crate::bpe_initialize`] or
    /// [`crate::learn_bpe`].
    pub fn paragraphs(&self) -> Vec<String> {
        self.description.clone()
    }

    /// The rows' names, in order, leaving out rows without one.
    pub fn names(&self) -> Vec<String> {
        self.name.iter().flatten().cloned().collect()
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.description.len()
    }

    /// Whether there are no rows (never, for a loaded dataset).
    pub fn is_empty(&self) -> bool {
        self.description.is_empty()
    }

    /// Whether this is the bundled stand-in rather than the real dataset.
    pub fn is_stand_in(&self) -> bool {
        self.provenance.is_stand_in()
    }
}

/// Africa Galore as configured by the environment, as plain vectors: the cached copy, else (with
/// the `download` feature) a download, else the bundled stand-in. Never fails: what went wrong on
/// the way is in the result's [`Provenance`]. The polars form is
/// [`africa_galore`](crate::dataset::africa_galore) (feature `dataset`).
pub fn africa_galore_rows() -> Rows {
    AfricaGalore::from_env()
        .load_rows()
        .expect("with the stand-in allowed and no refresh, loading cannot fail")
}

/// The paragraphs to train on when no corpus file is given, for `bpe-lab train`: Africa Galore
/// as [`africa_galore_rows`] loads it (with `offline` forcing the network off), and where it
/// came from, so the caller can say so.
pub fn paragraphs_for_training(
    offline: bool,
) -> Result<(Vec<String>, Provenance), super::DatasetError> {
    let mut loader = AfricaGalore::from_env();
    if offline {
        loader = loader.offline(true);
    }
    let data = loader.load_rows()?;
    Ok((data.description, data.provenance))
}
