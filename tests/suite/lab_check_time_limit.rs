//! A check stops waiting for a function that never returns. Run in a process of its own
//! (`support::alone`) because it shortens the limit through the environment, which every check
//! reads.

use crate::support::alone;
use bpe_lab::lab::check::{self, Status};

fn merge_forever(word: &[String], _: &(String, String)) -> Vec<String> {
    let mut i = 0usize;
    while i < word.len() + 1 {
        i = std::hint::black_box(i); // never advances
    }
    word.to_vec()
}

#[test]
fn a_function_that_never_returns_is_reported_after_the_limit() {
    let Some(_alone) = alone::here(
        module_path!(),
        "a_function_that_never_returns_is_reported_after_the_limit",
        &[],
    ) else {
        return;
    };
    // SAFETY: this process runs only this test, so no other thread reads the environment now.
    unsafe { std::env::set_var(check::SECONDS_ENV, "1") };
    let started = std::time::Instant::now();
    let stuck = check::merge_pair_in_word(merge_forever);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(stuck.status, Status::TimedOut);
    assert!(
        stuck.message.contains("did not return within 1 s"),
        "{}",
        stuck.message
    );
    assert_eq!(stuck.counterexample.unwrap().got, "still running after 1 s");
}
