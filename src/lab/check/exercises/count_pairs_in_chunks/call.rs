//! How `count_pairs_in_chunks` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// Chunks of token ids.
pub type Args = Vec<Vec<u32>>;
/// Pair counts, inside each chunk only, in the order first counted.
pub type Out = Vec<((u32, u32), usize)>;
pub fn call(f: &impl Fn(&[Vec<u32>]) -> Out, chunks: &Args) -> Out {
    f(chunks)
}
