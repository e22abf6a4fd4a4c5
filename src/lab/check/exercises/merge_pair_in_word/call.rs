//! How `merge_pair_in_word` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// (word, pair)
pub type Args = (Vec<String>, (String, String));
pub type Out = Vec<String>;
pub fn call(f: &impl Fn(&[String], &(String, String)) -> Out, (word, pair): &Args) -> Out {
    f(word, pair)
}
