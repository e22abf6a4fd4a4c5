//! # bpe-lab
//!
//! Byte-pair encoding as the DeepMind ai-foundations lab 2.4 teaches it (initialize with
//! `</w>`, count pairs, merge, learn, encode, decode), with an exact and fast engine under it.
//!
//! The fixed API mirrors the lab and the course's Python originals:
//!
//! ```
//! use bpe_lab::{apply_merges, train_bpe};
//! let mut corpus: Vec<Vec<String>> = vec![
//!     "lower".chars().map(String::from).collect(),
//!     "low".chars().map(String::from).collect(),
//! ];
//! let merges = train_bpe(&mut corpus, 2);
//! assert_eq!(merges, [("l".into(), "o".into()), ("lo".into(), "w".into())]);
//! let tokens: Vec<String> = "slow".chars().map(String::from).collect();
//! assert_eq!(apply_merges(&tokens, &merges), ["s", "low"]);
//! ```
//!
//! [`train_bpe`] and [`apply_merges`] run the fast engine; [`bpe::oracle`] keeps the
//! literal loops the tests compare it with. [`Trainer`] and [`Encoder`] are the richer API;
//! [`CharLevelTokenizer`] (module [`tokenizer`]) adds a vocabulary with documented ids, encode and
//! decode, a versioned file, export to Hugging Face `tokenizers`, and the training problem's
//! round-by-round explanation.

/// This crate's version (`0.1.0`), for notebooks and reports to say which one they ran.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(feature = "fast-alloc")]
#[doc(hidden)]
pub mod allocator;
pub mod bpe;
/// Every corpus reader (text, JSON, JSON Lines without features; CSV and Parquet with
/// `columnar`), and Africa Galore as a polars DataFrame (feature `dataset`, on by default).
pub mod dataset;
pub mod exercise;
pub mod files;
pub mod lab;
pub mod rng;
pub mod tokenizer;

pub use bpe::corpus::bpe_initialize;
pub use bpe::encode::{Encoder, MergeTable, apply_merges};
pub use bpe::oracle::{get_pair_frequencies, merge_pair_in_word};
pub use bpe::symbols::SymbolTable;
pub use bpe::train::{
    Progress, StopReason, Trainer, Training, TrainingSettings, learn_bpe, train_bpe,
};
pub use bpe::words::WordCounts;
pub use bpe::{EOW, TieBreak};
/// polars itself, so a notebook that depends on `bpe-lab` alone can name any polars type.
#[cfg(feature = "dataset")]
pub use polars;
pub use tokenizer::{CharLevelTokenizer, Split, TokenizerConfig, Vocab, VocabOrder};

/// The README's examples compile and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

/// The Rust examples of the library's page (docs/library.md) compile and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryPageExamples;
