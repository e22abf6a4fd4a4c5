//! `bpe_lab._bpe_lab`: the compiled part of the Python package `bpe_lab`.
//!
//! Thin on purpose: arguments are converted, the library does the work with the GIL released
//! (`py.detach`), and its errors become Python's exceptions. tiktoken's argument rules
//! (`allowed_special="all"`, the disallowed-special check, lone surrogates) are in
//! `bpe_lab/core.py`, as tiktoken keeps them in its own `core.py`. Every call into the library
//! goes through [`adapter`].

mod adapter;
mod bytelevel;
mod errors;
mod lab;
mod training;

use pyo3::prelude::*;

#[pymodule(gil_used = false)]
fn _bpe_lab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bytelevel::CoreBpe>()?;
    m.add_class::<lab::LabTokenizer>()?;
    m.add_class::<training::ByteLevelTrainer>()?;
    m.add_function(wrap_pyfunction!(bytelevel::encoding_names, m)?)?;
    m.add_function(wrap_pyfunction!(bytelevel::same_pattern, m)?)?;
    m.add("VERSION", bpe_lab::VERSION)?;
    Ok(())
}
