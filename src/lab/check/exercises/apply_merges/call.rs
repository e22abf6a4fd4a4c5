//! How `apply_merges` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// (tokens, merges)
pub type Args = (Vec<String>, Vec<(String, String)>);
pub type Out = Vec<String>;
pub fn call(f: &impl Fn(&[String], &[(String, String)]) -> Out, (tokens, merges): &Args) -> Out {
    f(tokens, merges)
}
