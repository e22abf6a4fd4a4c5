//! How `get_pair_frequencies` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

use std::collections::HashMap;

/// The corpus.
pub type Args = Vec<Vec<String>>;
pub type Out = HashMap<(String, String), usize>;
pub fn call(f: &impl Fn(&[Vec<String>]) -> Out, corpus: &Args) -> Out {
    f(corpus)
}
