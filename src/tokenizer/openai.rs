//! OpenAI's production encodings, `r50k_base` (GPT-2/GPT-3), `cl100k_base` (GPT-4) and
//! `o200k_base` (GPT-4o), as byte-level tokenizers of this crate.
//!
//! Their rank files are never downloaded and never copied into this repository: the crate
//! `tiktoken-rs` ships them (its `assets/`) and builds its own encoder from them; we read the
//! ranks back out of that encoder through its public API (`decode_bytes` of each rank), and
//! take the split patterns and special tokens as tiktoken 0.14 defines them. Needs the
//! `openai` feature.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::bpe::bytelevel::SplitPattern;
use crate::tokenizer::bytelevel::{ByteLevelError, ByteLevelTokenizer};

/// One of OpenAI's encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpenAiEncoding {
    R50kBase,
    Cl100kBase,
    O200kBase,
}

impl OpenAiEncoding {
    pub const ALL: [OpenAiEncoding; 3] = [
        OpenAiEncoding::R50kBase,
        OpenAiEncoding::Cl100kBase,
        OpenAiEncoding::O200kBase,
    ];

    /// tiktoken's name for it.
    pub const fn name(self) -> &'static str {
        match self {
            OpenAiEncoding::R50kBase => "r50k_base",
            OpenAiEncoding::Cl100kBase => "cl100k_base",
            OpenAiEncoding::O200kBase => "o200k_base",
        }
    }

    /// Its split pattern.
    pub fn pattern(self) -> SplitPattern {
        match self {
            OpenAiEncoding::R50kBase => SplitPattern::Gpt2,
            OpenAiEncoding::Cl100kBase => SplitPattern::Cl100k,
            OpenAiEncoding::O200kBase => SplitPattern::O200k,
        }
    }

    /// Its special tokens, as tiktoken defines them.
    pub fn specials(self) -> BTreeMap<String, u32> {
        let list: &[(&str, u32)] = match self {
            OpenAiEncoding::R50kBase => &[("<|endoftext|>", 50256)],
            OpenAiEncoding::Cl100kBase => &[
                ("<|endoftext|>", 100257),
                ("<|fim_prefix|>", 100258),
                ("<|fim_middle|>", 100259),
                ("<|fim_suffix|>", 100260),
                ("<|endofprompt|>", 100276),
            ],
            OpenAiEncoding::O200kBase => &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
        };
        list.iter().map(|&(s, id)| (s.to_owned(), id)).collect()
    }

    /// Its ranked tokens, read from the rank file `tiktoken-rs` ships: compiled in from the
    /// crate's `assets/` where the build found them (see build.rs: a few milliseconds to
    /// parse), else out of tiktoken-rs's own encoder, one token at a time.
    #[cfg(feature = "openai")]
    pub fn ranks(self) -> Vec<(Vec<u8>, u32)> {
        #[cfg(bpe_lab_rank_files)]
        {
            let file = match self {
                OpenAiEncoding::R50kBase => {
                    include_str!(concat!(
                        env!("BPE_LAB_TIKTOKEN_ASSETS"),
                        "/r50k_base.tiktoken"
                    ))
                }
                OpenAiEncoding::Cl100kBase => include_str!(concat!(
                    env!("BPE_LAB_TIKTOKEN_ASSETS"),
                    "/cl100k_base.tiktoken"
                )),
                OpenAiEncoding::O200kBase => include_str!(concat!(
                    env!("BPE_LAB_TIKTOKEN_ASSETS"),
                    "/o200k_base.tiktoken"
                )),
            };
            crate::tokenizer::tiktoken::parse_tiktoken_shipped(file)
                .expect("tiktoken-rs ships well-formed rank files")
        }
        #[cfg(not(bpe_lab_rank_files))]
        {
            self.ranks_from_tiktoken_rs()
        }
    }

    /// Its ranked tokens, asked of tiktoken-rs's encoder one id at a time.
    #[cfg(feature = "openai")]
    pub fn ranks_from_tiktoken_rs(self) -> Vec<(Vec<u8>, u32)> {
        let core = match self {
            OpenAiEncoding::R50kBase => tiktoken_rs::r50k_base(),
            OpenAiEncoding::Cl100kBase => tiktoken_rs::cl100k_base(),
            OpenAiEncoding::O200kBase => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs builds its own bundled encodings");
        let specials = self.specials();
        let end = specials.values().max().copied().unwrap_or(0);
        let special_ids: Vec<u32> = specials.values().copied().collect();
        // Ranks are dense below the first special id; ids between specials are no token.
        (0..end)
            .filter(|id| !special_ids.contains(id))
            .filter_map(|id| core.decode_bytes(&[id]).ok().map(|bytes| (bytes, id)))
            .collect()
    }

    /// The tokenizer, its ids identical to tiktoken's.
    #[cfg(feature = "openai")]
    pub fn tokenizer(self) -> Result<ByteLevelTokenizer, ByteLevelError> {
        ByteLevelTokenizer::new(self.name(), self.ranks(), self.pattern(), self.specials())
    }

    /// Without the `openai` feature there are no rank files to read.
    #[cfg(not(feature = "openai"))]
    pub fn tokenizer(self) -> Result<ByteLevelTokenizer, ByteLevelError> {
        Err(ByteLevelError::NotBuiltIn(self.name()))
    }
}

impl fmt::Display for OpenAiEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OpenAiEncoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OpenAiEncoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| {
                format!("unknown encoding {s:?}: expected r50k_base, cl100k_base or o200k_base")
            })
    }
}
