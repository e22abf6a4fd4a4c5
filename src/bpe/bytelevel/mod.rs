//! Byte-level BPE (GPT-2 onwards): the 256 byte values are the base symbols, text is cut into
//! chunks by a regular expression, and no pair crosses two chunks or a special token.
//!
//! - [`symbols`]: bytes as the engine's symbols (byte `b` is the character U+0100 + `b`);
//! - [`pattern`]: the split patterns (GPT-2, GPT-4 `cl100k_base`, `o200k_base`, the user's)
//!   and the [`Splitter`];
//! - [`gpt2`], [`cl100k`], [`o200k`]: GPT-2's, GPT-4's and GPT-4o's patterns written out by
//!   hand (the regex engine is most of encoding's time), on the character classes of
//!   [`classes`] and the alternatives the patterns share ([`alternatives`]);
//! - [`specials`]: special tokens in running text;
//! - [`coverage`]: whether a pattern's chunks cover a text (a user's may drop text);
//! - [`regex_error`]: why a user's pattern does not compile, in plain words;
//! - [`chunks`]: the distinct chunks of a text with their counts ([`ChunkCounts`]);
//! - [`train`]: training on them with the engine's exact trainer ([`ByteTrainer`]);
//! - [`ranks`]: encoding a chunk with a rank table, tiktoken's rule ([`RankTable`]);
//! - [`cache`]: encoding many chunks, the merged ones cached ([`ChunkEncoder`]);
//! - [`oracle`]: the literal loops the fast paths are tested against.

pub mod alternatives;
pub mod cache;
pub mod chunks;
pub mod cl100k;
pub mod classes;
pub mod coverage;
pub mod gpt2;
pub mod o200k;
pub mod oracle;
pub mod pattern;
pub mod ranks;
pub mod regex_error;
pub mod specials;
pub mod symbols;
pub mod train;

pub use cache::ChunkEncoder;
pub use chunks::ChunkCounts;
pub use pattern::{
    CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PATTERN_NAMES, SplitError, SplitPattern, Splitter,
    UnknownPatternName,
};
pub use ranks::{MergeScratch, RankTable};
pub use specials::{Piece, pieces};
pub use train::{ByteMerge, ByteTrainer, ByteTraining};
