//! Byte-level BPE (GPT-2 onwards): the 256 byte values are the base symbols, text is cut into
//! chunks by a regular expression, and no pair crosses two chunks or a special token.
//!
//! Each item has one path, `bpe_lab::bpe::bytelevel::Item`; the files behind it are private:
//!
//! - `symbols.rs`: bytes as the engine's symbols (byte `b` is the character U+0100 + `b`);
//! - `pattern.rs`: the split patterns ([`SplitPattern`]; the built-in ones in one table,
//!   [`BUILTIN_PATTERNS`]) and the [`Splitter`];
//! - `gpt2.rs`, `cl100k.rs`, `o200k.rs`: GPT-2's, GPT-4's and GPT-4o's patterns written out
//!   by hand (the regex engine is most of encoding's time), on the character classes of
//!   [`classes`] and the alternatives the patterns share (`alternatives.rs`);
//! - `specials.rs`: special tokens in running text ([`pieces`], [`find_special`]);
//! - `coverage.rs`: whether a pattern's chunks cover a text (a user's may drop text:
//!   [`first_uncovered`]);
//! - `regex_error.rs`: why a user's pattern does not compile, in plain words
//!   ([`regex_problem`]);
//! - `chunks.rs`: the distinct chunks of a text with their counts ([`ChunkCounts`]);
//! - `train.rs`: training on them with the engine's exact trainer ([`ByteTrainer`]);
//! - `ranks.rs`: encoding a chunk with a rank table, tiktoken's rule ([`RankTable`]);
//! - `cache.rs`: encoding many chunks, the merged ones cached ([`ChunkEncoder`]);
//! - `batch.rs`: encoding many texts, one encoder and cache per thread ([`encode_batch`]);
//! - `unstable.rs`: a text still being typed: its stable tokens and the completions of the
//!   rest ([`encode_unstable`], tiktoken's `encode_with_unstable`);
//! - [`oracle`]: the literal loops the fast paths are tested against.

mod alternatives;
mod batch;
mod cache;
mod chunks;
mod cl100k;
// Public because notebook 07 counts the marks a pattern sees (`classes::is_mark`).
pub mod classes;
mod coverage;
mod gpt2;
mod o200k;
pub mod oracle;
mod pattern;
mod ranks;
mod regex_error;
mod specials;
mod symbols;
mod train;
mod unstable;

pub use batch::{BatchError, encode_batch};
pub use cache::ChunkEncoder;
pub use chunks::ChunkCounts;
pub use coverage::{Coverage, DROPS_UNMATCHED_FIELD, Uncovered, first_uncovered};
pub use pattern::{
    BUILTIN_PATTERNS, BuiltinPattern, CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, SplitError,
    SplitPattern, Splitter, UnknownPatternName, builtin_pattern_names,
    builtin_pattern_names_with_encodings,
};
pub use ranks::{MergeScratch, RankTable};
pub use regex_error::regex_problem;
pub use specials::{Piece, find_special, pieces};
pub use train::{ByteMerge, ByteTrainer, ByteTraining};
pub use unstable::{TokenIndex, Unstable, UnstableError, encode_unstable};
