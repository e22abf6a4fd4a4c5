//! How `bpe_initialize` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

use std::collections::BTreeSet;

/// The dataset.
pub type Args = Vec<String>;
/// The corpus and the vocabulary.
pub type Out = (Vec<Vec<String>>, BTreeSet<String>);
pub fn call(f: &impl Fn(&[String]) -> Out, dataset: &Args) -> Out {
    f(dataset)
}
