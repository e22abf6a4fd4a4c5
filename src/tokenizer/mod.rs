//! The tokenizer around the engine: a vocabulary with documented ids, text to ids and back,
//! files, export to Hugging Face `tokenizers`, and training explained round by round.
//!
//! ```
//! use bpe_lab::tokenizer::{CharLevelTokenizer, TokenizerConfig, TrainingSettings, VocabOrder};
//! let paragraphs = ["the lowest tower", "the slow flower"];
//! let tokenizer = CharLevelTokenizer::train_with(
//!     &paragraphs,
//!     TrainingSettings::new(20),
//!     TokenizerConfig::default().order(VocabOrder::MergeOrder),
//! )
//! .unwrap();
//! let ids = tokenizer.encode("the flow");
//! assert_eq!(tokenizer.decode(&ids).unwrap(), "the flow");
//! assert_eq!(tokenizer.vocab().token(0), Some("<PAD>"));
//! ```
//!
//! - `any.rs`: [`Tokenizer`], a tokenizer of either kind loaded once
//!   ([`Tokenizer::load`] decides the kind from the file's content).
//! - [`stream`]: the stream driver, encoding a stream on every core with either kind
//!   ([`Tokenizer::encode_stream`], `bpe-lab encode`).
//! - [`vocab`]: [`Vocab`] and the id orders ([`VocabOrder`]).
//! - [`split`]: how text is cut into words ([`Split`]).
//! - [`codec`]: [`CharLevelTokenizer`], encode and decode.
//! - [`file`]: the versioned JSON file (save, load, checks).
//! - [`hf`]: export to a Hugging Face `tokenizer.json` with the same ids.
//! - [`encode_stream`]: the character-level kind's part of encoding a stream (lines, an output
//!   cache per thread).
//! - [`decode_stream`]: decoding a stream of id lines (`bpe-lab decode`).
//! - [`explain`]: the training problem's round-by-round table.
//!
//! Byte-level BPE (GPT-2 onwards; the engine's part is [`crate::bpe::bytelevel`]):
//! - [`bytelevel`]: [`ByteLevelTokenizer`], ranks, specials, encode and decode;
//! - `bytelevel_config.rs`: [`ByteLevelConfig`], its pattern and special tokens, which
//!   training takes beside the [`TrainingSettings`] both kinds share;
//! - [`bytelevel_stream`]: one text on several threads, and the byte-level kind's part of
//!   encoding a stream;
//! - [`bytelevel_file`]: its JSON file and the export to tiktoken's files;
//! - [`tiktoken`]: tiktoken's rank files;
//! - [`hf_bytelevel`]: export to a Hugging Face `tokenizer.json` (ByteLevel);
//! - [`hf_bytelevel_import`]: reading Hugging Face's ByteLevel files with their exact ids;
//! - [`openai`]: OpenAI's encodings (`gpt2` … `o200k_harmony`) from the crate that ships
//!   them, and the model names tiktoken maps to them;
//! - [`token_text`]: tokens shown without loss (bytes that are no whole character as `\xNN`);
//! - [`file_kind`]: telling a tokenizer file from a corpus or table given in its place.
//!
//! Both kinds: [`windows`]: what `encode` does to a unit's ids before writing them (keep the
//! first N, cut into overlapping windows, byte spans).

mod any;
pub mod bytelevel;
mod bytelevel_config;
pub mod bytelevel_file;
pub mod bytelevel_stream;
pub mod codec;
pub mod decode_stream;
pub mod encode_stream;
pub mod error;
pub mod explain;
pub mod file;
pub mod file_kind;
pub mod hf;
pub mod hf_bytelevel;
pub mod hf_bytelevel_import;
pub mod hf_regex;
pub mod openai;
pub mod split;
pub mod stream;
pub mod tiktoken;
pub mod token_text;
pub mod vocab;
pub mod windows;

pub use any::{LoadError, Tokenizer, TokenizerKind};
pub use bytelevel::{
    AllowedSpecial, ByteLevelError, ByteLevelTokenizer, ByteTrainingReport, DisallowedSpecial,
};
pub use bytelevel_config::ByteLevelConfig;
pub use bytelevel_file::RankFileSettings;
pub use codec::{
    CharLevelTokenizer, DEFAULT_SPECIAL_TOKENS, DEFAULT_UNK_TOKEN, TokenizerConfig, TrainingInfo,
    TrainingSettings,
};
pub use decode_stream::{DecodeLinesError, NotIds, parse_id_line};
pub use error::{DecodeError, TokenizerError};
pub use explain::{Explanation, explain};
pub use file::{FileError, FileProblem};
pub use hf::HfExportError;
pub use openai::OpenAiEncoding;
pub use split::{Split, is_python_whitespace};
pub use stream::{EncodeOptions, EncodeOutput, EncodeUnit, StreamEncoded, StreamError};
pub use vocab::{Vocab, VocabOrder};
pub use windows::{Chunks, ChunksError, Shape, Span, Truncated, WindowFormat};
