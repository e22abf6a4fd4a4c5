//! How `encode_ids` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// A merge: the pair of ids and the new id it gets.
pub type IdMerge = ((u32, u32), u32);

/// (chunks, merges)
pub type Args = (Vec<String>, Vec<IdMerge>);
pub type Out = Vec<u32>;
pub fn call(f: &impl Fn(&[String], &[IdMerge]) -> Out, (chunks, merges): &Args) -> Out {
    f(chunks, merges)
}
