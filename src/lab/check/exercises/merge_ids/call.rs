//! How `merge_ids` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// (ids, pair, new_id)
pub type Args = (Vec<u32>, (u32, u32), u32);
pub type Out = Vec<u32>;
pub fn call(f: &impl Fn(&[u32], (u32, u32), u32) -> Out, (ids, pair, new_id): &Args) -> Out {
    f(ids, *pair, *new_id)
}
