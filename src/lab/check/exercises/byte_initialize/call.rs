//! How `byte_initialize` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// The chunks of a text.
pub type Args = Vec<String>;
/// Each chunk as its UTF-8 bytes (ids 0–255).
pub type Out = Vec<Vec<u32>>;
pub fn call(f: &impl Fn(&[String]) -> Out, chunks: &Args) -> Out {
    f(chunks)
}
