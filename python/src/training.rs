//! `ByteLevelTrainer`: byte-level training fed text by text, for `bpe_lab.train_bytelevel`.
//!
//! The Python side pulls the caller's iterator in batches and hands each batch here; its
//! chunks are counted (on every core, the GIL released) and the batch is dropped, so only the
//! table of distinct chunks grows, never a copy of the corpus.

use std::thread;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::PyBytes;

use crate::adapter::{self, ChunkTally, ProgressReport};
use crate::bytelevel::CoreBpe;

/// How often, at most, the progress callback is called while training.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

#[pyclass(module = "bpe_lab._bpe_lab")]
pub struct ByteLevelTrainer {
    /// `None` once trained: a trainer trains once.
    tally: Option<ChunkTally>,
}

impl ByteLevelTrainer {
    fn tally(&mut self) -> PyResult<&mut ChunkTally> {
        self.tally
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("this trainer has already trained"))
    }
}

#[pymethods]
impl ByteLevelTrainer {
    /// `pattern`: a pattern name, or a regular expression when `is_regex`.
    #[new]
    fn new(pattern: String, is_regex: bool, special_tokens: Vec<String>) -> PyResult<Self> {
        let pattern = adapter::pattern(&pattern, is_regex)?;
        Ok(ByteLevelTrainer {
            tally: Some(ChunkTally::new(pattern, special_tokens)?),
        })
    }

    /// Counts the chunks of each text (no chunk crosses two texts).
    fn add(&mut self, py: Python<'_>, texts: Vec<PyBackedStr>) -> PyResult<()> {
        let tally = self.tally()?;
        let threads = thread::available_parallelism().map_or(1, |n| n.get());
        Ok(py.detach(|| tally.add(&texts, threads))?)
    }

    /// Adds chunks counted elsewhere: `(chunk bytes, count)` pairs.
    fn add_counts(&mut self, counts: Vec<(Vec<u8>, u64)>) -> PyResult<()> {
        self.tally()?.add_counts(counts);
        Ok(())
    }

    /// The chunks counted so far, `(bytes, count)` in order of first appearance.
    fn counts<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<(Bound<'py, PyBytes>, u64)>> {
        Ok(self
            .tally()?
            .counts()
            .map(|(c, n)| (PyBytes::new(py, c), n))
            .collect())
    }

    /// Trains `num_merges` merges; `progress(merges_done, merges_wanted)` is called now and
    /// then if given (an exception it raises is raised once training is over).
    #[pyo3(signature = (name, num_merges, tie_break, progress=None))]
    fn train(
        &mut self,
        py: Python<'_>,
        name: String,
        num_merges: usize,
        tie_break: String,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<CoreBpe> {
        let tie_break = adapter::tie_break(&tie_break)?;
        let tally = self
            .tally
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this trainer has already trained"))?;
        let mut failure: Option<PyErr> = None;
        let trained = py.detach(|| {
            let mut last = Instant::now();
            let mut report = |p: ProgressReport| {
                let Some(callback) = progress.as_ref() else {
                    return;
                };
                let end = p.merges_done == p.merges_wanted;
                if failure.is_some() || (!end && last.elapsed() < PROGRESS_EVERY) {
                    return;
                }
                last = Instant::now();
                Python::attach(|py| {
                    if let Err(e) = callback.call1(py, (p.merges_done, p.merges_wanted)) {
                        failure = Some(e);
                    }
                });
            };
            let progress: Option<&mut dyn FnMut(ProgressReport)> = if progress.is_some() {
                Some(&mut report)
            } else {
                None
            };
            tally.train(&name, num_merges, tie_break, progress)
        });
        if let Some(e) = failure {
            return Err(e);
        }
        match trained {
            Ok(inner) => Ok(CoreBpe::from_inner(inner)),
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }
}
