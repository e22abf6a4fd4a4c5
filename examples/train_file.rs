//! Trains merges on a text file (one paragraph per line) with the library, and reports timings.
//!
//! ```text
//! cargo run --release --example train_file -- FILE MERGES
//! ```
//!
//! A stand-in for `bpe-lab train` in `scripts/bench/compare.sh` while the CLI is not there, and
//! a way to time the library alone: it reads the whole file, counts words
//! (`WordCounts::from_lines`), trains, and prints one line of JSON on stdout.

use std::process::ExitCode;
use std::time::Instant;

use bpe_lab::{Trainer, WordCounts};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, merges] = args.as_slice() else {
        eprintln!("usage: train_file FILE MERGES");
        return ExitCode::FAILURE;
    };
    let Ok(merges) = merges.parse::<usize>() else {
        eprintln!("train_file: MERGES: expected a non-negative integer, got {merges:?}");
        return ExitCode::FAILURE;
    };
    let start = Instant::now();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("train_file: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let read = start.elapsed().as_secs_f64();
    let words = WordCounts::from_lines(&text);
    let counted = start.elapsed().as_secs_f64();
    let distinct = words.len();
    let training = Trainer::new(merges).train(words);
    let trained = start.elapsed().as_secs_f64();
    println!(
        "{{\"merges\": {}, \"distinct_words\": {distinct}, \"read_s\": {read:.3}, \
         \"count_s\": {:.3}, \"train_s\": {:.3}, \"stop\": \"{:?}\"}}",
        training.merges.len(),
        counted - read,
        trained - counted,
        training.stop
    );
    ExitCode::SUCCESS
}
