//! `CoreBpe`: a byte-level tokenizer for `bpe_lab.Encoding` (tiktoken's `CoreBPE`).
//!
//! Texts arrive as `PyBackedStr` (the UTF-8 of a `str`, held without the GIL); a `str` with a
//! lone surrogate has no UTF-8 and raises `UnicodeEncodeError`, which `bpe_lab/core.py`
//! answers as tiktoken does (re-encoded with `surrogatepass`, then `replace`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::OnceLock;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::adapter::{self, ByteLevel, Completer};

/// At most this many ids get a shared Python int ([`CoreBpe::id_list`]): 1<<21 covers every
/// production encoding, and costs at most about 70 MB.
const SHARED_INTS: u32 = 1 << 21;

/// A byte-level tokenizer: ranks, split pattern, special tokens.
#[pyclass(frozen, module = "bpe_lab._bpe_lab")]
pub struct CoreBpe {
    pub(crate) inner: ByteLevel,
    /// What `encode_with_unstable` needs, made the first time it is asked for.
    completer: OnceLock<Completer>,
    /// One Python `int` per id, made the first time a list of ids is returned. A list of a
    /// text's ids then holds references to these, where a fresh `int` per id cost about a
    /// quarter of `encode_ordinary`'s time on a long text (Python keeps ready-made ints only
    /// up to 256). Ints are immutable, so sharing them is invisible to the caller.
    ints: OnceLock<Vec<Py<PyAny>>>,
}

impl CoreBpe {
    pub(crate) fn from_inner(inner: ByteLevel) -> Self {
        CoreBpe {
            inner,
            completer: OnceLock::new(),
            ints: OnceLock::new(),
        }
    }

    /// `ids` as a Python list of ints, from the shared ints.
    fn id_list<'py>(&self, py: Python<'py>, ids: &[u32]) -> PyResult<Bound<'py, PyList>> {
        let ints = self.ints.get_or_init(|| {
            // Ids past a few million (an `Encoding` may number its tokens sparsely) are made
            // as they come, not ahead.
            (0..adapter::n_vocab(&self.inner).min(SHARED_INTS))
                .map(|id| id.into_pyobject(py).expect("an int").into_any().unbind())
                .collect()
        });
        let items = ids.iter().map(|&id| match ints.get(id as usize) {
            Some(int) => int.bind(py).clone(),
            None => id.into_pyobject(py).expect("an int").into_any(),
        });
        PyList::new(py, items)
    }
}

/// The production encodings this build has.
#[pyfunction]
pub fn encoding_names() -> Vec<&'static str> {
    adapter::encoding_names()
}

/// Whether `pattern` (a name, or a regex if `is_regex`) is the pattern a chunk table's
/// `pattern` column holds, and that pattern's name as errors give it.
#[pyfunction]
pub fn same_pattern(pattern: &str, is_regex: bool, table_regex: &str) -> PyResult<(bool, String)> {
    Ok(adapter::same_pattern(pattern, is_regex, table_regex)?)
}

#[pymethods]
impl CoreBpe {
    /// From ranks (`dict[bytes, int]`), special tokens (`dict[str, int]`) and a regex.
    #[new]
    fn new(
        py: Python<'_>,
        name: String,
        mergeable_ranks: HashMap<Vec<u8>, u32>,
        special_tokens: HashMap<String, u32>,
        pattern: String,
    ) -> PyResult<Self> {
        let ranks: Vec<(Vec<u8>, u32)> = mergeable_ranks.into_iter().collect();
        let specials: BTreeMap<String, u32> = special_tokens.into_iter().collect();
        let inner = py.detach(|| adapter::byte_level(&name, ranks, &pattern, specials))?;
        Ok(CoreBpe::from_inner(inner))
    }

    /// A production encoding by name; `None` when this build does not have it.
    #[staticmethod]
    fn openai(py: Python<'_>, name: String) -> PyResult<Option<Self>> {
        match py.detach(|| adapter::openai(&name)) {
            None => Ok(None),
            Some(built) => Ok(Some(CoreBpe::from_inner(built?))),
        }
    }

    /// The same ranks and pattern under `name` with `special_tokens` instead.
    fn with_specials(
        &self,
        py: Python<'_>,
        name: String,
        special_tokens: HashMap<String, u32>,
    ) -> PyResult<Self> {
        let specials: BTreeMap<String, u32> = special_tokens.into_iter().collect();
        let inner = py.detach(|| adapter::with_specials(&self.inner, &name, specials))?;
        Ok(CoreBpe::from_inner(inner))
    }

    #[getter]
    fn name(&self) -> &str {
        adapter::name(&self.inner)
    }

    /// One past the highest id, ordinary or special.
    #[getter]
    fn n_vocab(&self) -> u32 {
        adapter::n_vocab(&self.inner)
    }

    #[getter]
    fn pattern(&self) -> &str {
        adapter::regex(&self.inner)
    }

    /// The special tokens and their ids.
    fn special_tokens<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (token, id) in adapter::specials(&self.inner) {
            dict.set_item(token, id)?;
        }
        Ok(dict)
    }

    /// The ordinary tokens and their ranks (`mergeable_ranks`), in rank order.
    fn mergeable_ranks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (bytes, rank) in adapter::ranks(&self.inner) {
            dict.set_item(PyBytes::new(py, bytes), rank)?;
        }
        Ok(dict)
    }

    fn encode_ordinary<'py>(
        &self,
        py: Python<'py>,
        text: PyBackedStr,
    ) -> PyResult<Bound<'py, PyList>> {
        let ids = py.detach(|| adapter::encode_ordinary(&self.inner, &text))?;
        self.id_list(py, &ids)
    }

    /// The ids of `text`, the special tokens in `allowed_special` as themselves, every other
    /// one as text (the disallowed ones were refused by the caller).
    fn encode<'py>(
        &self,
        py: Python<'py>,
        text: PyBackedStr,
        allowed_special: Vec<PyBackedStr>,
    ) -> PyResult<Bound<'py, PyList>> {
        let ids = py.detach(|| adapter::encode_allowing(&self.inner, &text, &allowed_special))?;
        self.id_list(py, &ids)
    }

    /// The stable ids of `text` and the completions of the rest (tiktoken's
    /// `encode_with_unstable`; the disallowed specials were refused by the caller).
    fn encode_with_unstable(
        &self,
        py: Python<'_>,
        text: PyBackedStr,
        allowed_special: Vec<PyBackedStr>,
    ) -> PyResult<(Vec<u32>, Vec<Vec<u32>>)> {
        Ok(py.detach(|| {
            let completer = match self.completer.get() {
                Some(c) => c,
                None => {
                    let made = Completer::new(&self.inner)?;
                    self.completer.get_or_init(|| made)
                }
            };
            adapter::encode_with_unstable(&self.inner, completer, &text, &allowed_special)
        })?)
    }

    fn encode_ordinary_batch<'py>(
        &self,
        py: Python<'py>,
        texts: Vec<PyBackedStr>,
        num_threads: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        if num_threads == 0 {
            return Err(PyValueError::new_err("num_threads must be at least 1"));
        }
        let batch =
            py.detach(|| adapter::encode_ordinary_batch(&self.inner, &texts, num_threads))?;
        let lists = batch
            .iter()
            .map(|ids| self.id_list(py, ids))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, lists)
    }

    fn encode_single_token(&self, piece: Vec<u8>) -> PyResult<u32> {
        adapter::token_id(&self.inner, &piece).ok_or_else(|| PyKeyError::new_err(PyBytesArg(piece)))
    }

    /// The ids of `piece` as one chunk, not split (tiktoken's `encode_single_piece`).
    fn encode_single_piece(&self, py: Python<'_>, piece: Vec<u8>) -> PyResult<Vec<u32>> {
        Ok(py.detach(|| adapter::encode_piece(&self.inner, &piece))?)
    }

    /// The byte length of the last chunk of `text` under the split pattern.
    fn last_chunk_len(&self, py: Python<'_>, text: PyBackedStr) -> PyResult<usize> {
        Ok(py.detach(|| adapter::last_chunk_len(&self.inner, &text))?)
    }

    fn decode_bytes<'py>(
        &self,
        py: Python<'py>,
        tokens: Vec<u32>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| adapter::decode_bytes(&self.inner, &tokens))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn decode_single_token_bytes<'py>(
        &self,
        py: Python<'py>,
        token: u32,
    ) -> PyResult<Bound<'py, PyBytes>> {
        adapter::token_bytes(&self.inner, token)
            .map(|bytes| PyBytes::new(py, bytes))
            .ok_or_else(|| PyKeyError::new_err(token.to_string()))
    }

    /// Every ordinary token's bytes, sorted (tiktoken's `token_byte_values`).
    fn token_byte_values<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        let mut all: Vec<&[u8]> = adapter::ranks(&self.inner)
            .into_iter()
            .map(|(b, _)| b)
            .collect();
        all.sort_unstable();
        all.into_iter().map(|b| PyBytes::new(py, b)).collect()
    }

    /// Writes tiktoken's rank file and, beside it as `path.json`, the pattern and specials;
    /// returns the second path.
    fn save_tiktoken(&self, py: Python<'_>, path: PathBuf) -> PyResult<String> {
        Ok(py.detach(|| adapter::save_tiktoken(&self.inner, &path))?)
    }

    /// Writes a Hugging Face `tokenizer.json` giving the same ids.
    fn save_hf(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        Ok(py.detach(|| adapter::save_hf(&self.inner, &path))?)
    }
}

/// A `bytes` argument of an exception (tiktoken's `KeyError(b"...")`).
struct PyBytesArg(Vec<u8>);

impl<'py> IntoPyObject<'py> for PyBytesArg {
    type Target = PyBytes;
    type Output = Bound<'py, PyBytes>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(PyBytes::new(py, &self.0))
    }
}
