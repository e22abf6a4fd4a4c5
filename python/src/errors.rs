//! The library's errors as the Python exceptions a tiktoken user expects.

use pyo3::PyErr;
use pyo3::exceptions::{PyKeyError, PyOSError, PyValueError};
use pyo3::panic::PanicException;

use crate::adapter::AdapterError;

impl From<AdapterError> for PyErr {
    fn from(e: AdapterError) -> PyErr {
        match e {
            AdapterError::Value(m) => PyValueError::new_err(m),
            AdapterError::Key(m) => PyKeyError::new_err(m),
            AdapterError::Io(m) => PyOSError::new_err(m),
            // tiktoken panics here; Python sees its `pyo3_runtime.PanicException`, a
            // BaseException, and code that catches it by name keeps working.
            AdapterError::MissingByte(m) => PanicException::new_err(m),
        }
    }
}
