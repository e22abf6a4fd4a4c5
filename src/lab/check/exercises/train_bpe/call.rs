//! How `train_bpe` is called: what it is given (`Args`), what a check compares (`Out`), and the one
//! call in between. Plain `std`, no `crate::`: the notebook's check calls the student's
//! function through this file in the kernel, and the grader compiles the same file into the
//! student's worker as its `calls` module (`lab::worker_sources`), so both ways of grading call
//! it identically.

/// (corpus, num_merges)
pub type Args = (Vec<Vec<String>>, usize);
/// The merges, and the corpus as the function left it.
pub type Out = (Vec<(String, String)>, Vec<Vec<String>>);
#[allow(clippy::ptr_arg)] // the exercise's signature takes `&mut Vec`
pub fn call(
    f: &impl Fn(&mut Vec<Vec<String>>, usize) -> Vec<(String, String)>,
    (corpus, num_merges): &Args,
) -> Out {
    let mut corpus = corpus.clone();
    let merges = f(&mut corpus, *num_merges);
    (merges, corpus)
}
