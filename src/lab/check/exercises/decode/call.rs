//! How `decode` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

use std::collections::HashMap;

/// (ids, id_to_token)
pub type Args = (Vec<u32>, HashMap<u32, String>);
pub type Out = String;
pub fn call(f: &impl Fn(&[u32], &HashMap<u32, String>) -> Out, (ids, id_to_token): &Args) -> Out {
    f(ids, id_to_token)
}
