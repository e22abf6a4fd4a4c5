//! `LabTokenizer`: the lab's character-level tokenizer (words split on single spaces, each its
//! characters and `</w>`, the tie rules), trained and used from Python.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

use crate::adapter::{self, Lab};

#[pyclass(frozen, module = "bpe_lab._bpe_lab")]
pub struct LabTokenizer {
    inner: Lab,
}

#[pymethods]
impl LabTokenizer {
    /// Learns `num_merges` merges from `paragraphs`.
    #[staticmethod]
    #[pyo3(signature = (paragraphs, num_merges, tie_break="lexicographic"))]
    fn train(
        py: Python<'_>,
        paragraphs: Vec<PyBackedStr>,
        num_merges: usize,
        tie_break: &str,
    ) -> PyResult<Self> {
        let tie_break = adapter::tie_break(tie_break)?;
        let inner = py.detach(|| adapter::train_lab(&paragraphs, num_merges, tie_break))?;
        Ok(LabTokenizer { inner })
    }

    /// A tokenizer saved by `save` (or `bpe-lab train`).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let inner = py.detach(|| adapter::lab_load(&path))?;
        Ok(LabTokenizer { inner })
    }

    fn encode(&self, py: Python<'_>, text: PyBackedStr) -> Vec<u32> {
        py.detach(|| adapter::lab_encode(&self.inner, &text))
    }

    /// The tokens of `text` as strings (`</w>` ends each word).
    fn tokenize(&self, py: Python<'_>, text: PyBackedStr) -> Vec<String> {
        py.detach(|| adapter::lab_tokenize(&self.inner, &text))
    }

    fn decode(&self, py: Python<'_>, ids: Vec<u32>) -> PyResult<String> {
        Ok(py.detach(|| adapter::lab_decode(&self.inner, &ids))?)
    }

    /// The merges in the order learned.
    #[getter]
    fn merges(&self) -> Vec<(String, String)> {
        adapter::lab_merges(&self.inner).to_vec()
    }

    /// The vocabulary: token `i` has id `i`.
    #[getter]
    fn vocab(&self) -> Vec<String> {
        adapter::lab_vocab(&self.inner).to_vec()
    }

    /// Writes the tokenizer's JSON file (what `bpe-lab train` writes).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        Ok(py.detach(|| adapter::lab_save(&self.inner, &path))?)
    }

    /// Writes a Hugging Face `tokenizer.json` giving the same ids.
    fn save_hf(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        Ok(py.detach(|| adapter::lab_save_hf(&self.inner, &path))?)
    }

    fn __repr__(&self) -> String {
        format!(
            "<LabTokenizer: {} merges, {} tokens>",
            adapter::lab_merges(&self.inner).len(),
            adapter::lab_vocab(&self.inner).len()
        )
    }
}
