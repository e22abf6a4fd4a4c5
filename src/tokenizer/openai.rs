//! OpenAI's production encodings as byte-level tokenizers of this crate: every encoding
//! tiktoken (0.12 and later, `tiktoken_ext/openai_public.py`) defines — `gpt2`, `r50k_base`,
//! `p50k_base`, `p50k_edit`, `cl100k_base`, `o200k_base`, `o200k_harmony` — and the model
//! names tiktoken maps to them (`model.py`: exact names first, then prefixes, in its order),
//! so `-m gpt-4o` means what it means to tiktoken.
//!
//! Their rank files are never downloaded and never copied into this repository: the crate
//! `tiktoken-rs` ships them (its `assets/`) and builds its own encoder from them; we read the
//! ranks back out of that encoder through its public API (`decode_bytes` of each rank), and
//! take the split patterns and special tokens as tiktoken 0.14 defines them. Encodings share
//! rank files as tiktoken's do: `gpt2` is `r50k_base`'s ranks (tiktoken builds them from GPT-2's
//! original `vocab.bpe`, the same ranks), `p50k_edit` is `p50k_base`'s with three more
//! specials, `o200k_harmony` is `o200k_base`'s with gpt-oss's specials. tiktoken's
//! `o200k_harmony` gives id 200018 both to `<|endofprompt|>` (kept from `o200k_base`) and to
//! `<|reserved_200018|>`; both encode to it, and it decodes to `<|endofprompt|>` (tiktoken's
//! own decoding of that id depends on its hash map's order). Needs the `openai` feature.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crate::bpe::bytelevel::SplitPattern;
use crate::tokenizer::bytelevel::{ByteLevelError, ByteLevelTokenizer};

/// One of OpenAI's encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpenAiEncoding {
    /// GPT-2's own release (`gpt2`): `r50k_base`'s ranks, pattern and special.
    Gpt2,
    R50kBase,
    P50kBase,
    P50kEdit,
    Cl100kBase,
    O200kBase,
    O200kHarmony,
}

impl OpenAiEncoding {
    /// Every encoding, in tiktoken's order (`ENCODING_CONSTRUCTORS`).
    pub const ALL: [OpenAiEncoding; 7] = [
        OpenAiEncoding::Gpt2,
        OpenAiEncoding::R50kBase,
        OpenAiEncoding::P50kBase,
        OpenAiEncoding::P50kEdit,
        OpenAiEncoding::Cl100kBase,
        OpenAiEncoding::O200kBase,
        OpenAiEncoding::O200kHarmony,
    ];

    /// tiktoken's name for it.
    pub const fn name(self) -> &'static str {
        match self {
            OpenAiEncoding::Gpt2 => "gpt2",
            OpenAiEncoding::R50kBase => "r50k_base",
            OpenAiEncoding::P50kBase => "p50k_base",
            OpenAiEncoding::P50kEdit => "p50k_edit",
            OpenAiEncoding::Cl100kBase => "cl100k_base",
            OpenAiEncoding::O200kBase => "o200k_base",
            OpenAiEncoding::O200kHarmony => "o200k_harmony",
        }
    }

    /// Its split pattern.
    pub fn pattern(self) -> SplitPattern {
        match self {
            OpenAiEncoding::Gpt2
            | OpenAiEncoding::R50kBase
            | OpenAiEncoding::P50kBase
            | OpenAiEncoding::P50kEdit => SplitPattern::Gpt2,
            OpenAiEncoding::Cl100kBase => SplitPattern::Cl100k,
            OpenAiEncoding::O200kBase | OpenAiEncoding::O200kHarmony => SplitPattern::O200k,
        }
    }

    /// Its vocabulary size: one more than its largest id (ranks and specials).
    pub const fn n_vocab(self) -> u32 {
        match self {
            OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase => 50257,
            OpenAiEncoding::P50kBase => 50281,
            OpenAiEncoding::P50kEdit => 50284,
            OpenAiEncoding::Cl100kBase => 100277,
            OpenAiEncoding::O200kBase => 200019,
            OpenAiEncoding::O200kHarmony => 201088,
        }
    }

    /// Its special tokens, as tiktoken defines them.
    pub fn specials(self) -> BTreeMap<String, u32> {
        let list: &[(&str, u32)] = match self {
            OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase | OpenAiEncoding::P50kBase => {
                &[("<|endoftext|>", 50256)]
            }
            OpenAiEncoding::P50kEdit => &[
                ("<|endoftext|>", 50256),
                ("<|fim_prefix|>", 50281),
                ("<|fim_middle|>", 50282),
                ("<|fim_suffix|>", 50283),
            ],
            OpenAiEncoding::Cl100kBase => &[
                ("<|endoftext|>", 100257),
                ("<|fim_prefix|>", 100258),
                ("<|fim_middle|>", 100259),
                ("<|fim_suffix|>", 100260),
                ("<|endofprompt|>", 100276),
            ],
            OpenAiEncoding::O200kBase => &[("<|endoftext|>", 199999), ("<|endofprompt|>", 200018)],
            OpenAiEncoding::O200kHarmony => &[
                ("<|endofprompt|>", 200018),
                ("<|startoftext|>", 199998),
                ("<|endoftext|>", 199999),
                ("<|reserved_200000|>", 200000),
                ("<|reserved_200001|>", 200001),
                ("<|return|>", 200002),
                ("<|constrain|>", 200003),
                ("<|reserved_200004|>", 200004),
                ("<|channel|>", 200005),
                ("<|start|>", 200006),
                ("<|end|>", 200007),
                ("<|message|>", 200008),
                ("<|reserved_200009|>", 200009),
                ("<|reserved_200010|>", 200010),
                ("<|reserved_200011|>", 200011),
                ("<|call|>", 200012),
            ],
        };
        let mut specials: BTreeMap<String, u32> =
            list.iter().map(|&(s, id)| (s.to_owned(), id)).collect();
        if self == OpenAiEncoding::O200kHarmony {
            // tiktoken: `{f"<|reserved_{i}|>": i for i in range(200013, 201088)}`.
            specials.extend((200013..201088).map(|id| (format!("<|reserved_{id}|>"), id)));
        }
        specials
    }

    /// The encoding tiktoken uses for a model (`tiktoken.encoding_name_for_model`): the exact
    /// name, else the first prefix that matches, in tiktoken's order; `None` for a name tiktoken
    /// does not know.
    pub fn for_model(model: &str) -> Option<OpenAiEncoding> {
        MODELS
            .iter()
            .find(|&&(name, _)| name == model)
            .or_else(|| {
                MODEL_PREFIXES
                    .iter()
                    .find(|&&(prefix, _)| model.starts_with(prefix))
            })
            .map(|&(_, encoding)| encoding)
    }

    /// Its ranked tokens, read from the rank file `tiktoken-rs` ships: compiled in from the
    /// crate's `assets/` where the build found them (see build.rs: a few milliseconds to
    /// parse), else out of tiktoken-rs's own encoder, one token at a time.
    #[cfg(feature = "openai")]
    pub fn ranks(self) -> Vec<(Vec<u8>, u32)> {
        #[cfg(bpe_lab_rank_files)]
        {
            let file = match self {
                OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase => {
                    include_str!(concat!(
                        env!("BPE_LAB_TIKTOKEN_ASSETS"),
                        "/r50k_base.tiktoken"
                    ))
                }
                OpenAiEncoding::P50kBase | OpenAiEncoding::P50kEdit => {
                    include_str!(concat!(
                        env!("BPE_LAB_TIKTOKEN_ASSETS"),
                        "/p50k_base.tiktoken"
                    ))
                }
                OpenAiEncoding::Cl100kBase => include_str!(concat!(
                    env!("BPE_LAB_TIKTOKEN_ASSETS"),
                    "/cl100k_base.tiktoken"
                )),
                OpenAiEncoding::O200kBase | OpenAiEncoding::O200kHarmony => include_str!(concat!(
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
        // The encodings that share a rank file ask the encoder of the first that has it.
        let core = match self {
            OpenAiEncoding::Gpt2 | OpenAiEncoding::R50kBase => tiktoken_rs::r50k_base(),
            OpenAiEncoding::P50kBase | OpenAiEncoding::P50kEdit => tiktoken_rs::p50k_base(),
            OpenAiEncoding::Cl100kBase => tiktoken_rs::cl100k_base(),
            OpenAiEncoding::O200kBase | OpenAiEncoding::O200kHarmony => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs builds its own bundled encodings");
        let special_ids: std::collections::BTreeSet<u32> =
            self.specials().values().copied().collect();
        // Every id below the vocabulary's size that is no special is a rank, but for the gap
        // some encodings leave between their specials (cl100k_base's 100261..100276).
        (0..self.n_vocab())
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
                let names: Vec<&str> = OpenAiEncoding::ALL.iter().map(|e| e.name()).collect();
                let hint = match OpenAiEncoding::for_model(s) {
                    Some(e) => format!(" ({s} is a model: its encoding is {e}; or give --model)"),
                    None => String::new(),
                };
                format!(
                    "unknown encoding {s:?}: expected one of {}{hint}",
                    names.join(", ")
                )
            })
    }
}

/// tiktoken's `MODEL_TO_ENCODING` (tiktoken 0.12), in its order.
const MODELS: &[(&str, OpenAiEncoding)] = {
    use OpenAiEncoding::*;
    &[
        ("o1", O200kBase),
        ("o3", O200kBase),
        ("o4-mini", O200kBase),
        ("gpt-5", O200kBase),
        ("gpt-4.1", O200kBase),
        ("gpt-4o", O200kBase),
        ("gpt-4", Cl100kBase),
        ("gpt-3.5-turbo", Cl100kBase),
        ("gpt-3.5", Cl100kBase),
        ("gpt-35-turbo", Cl100kBase),
        ("davinci-002", Cl100kBase),
        ("babbage-002", Cl100kBase),
        ("text-embedding-ada-002", Cl100kBase),
        ("text-embedding-3-small", Cl100kBase),
        ("text-embedding-3-large", Cl100kBase),
        ("text-davinci-003", P50kBase),
        ("text-davinci-002", P50kBase),
        ("text-davinci-001", R50kBase),
        ("text-curie-001", R50kBase),
        ("text-babbage-001", R50kBase),
        ("text-ada-001", R50kBase),
        ("davinci", R50kBase),
        ("curie", R50kBase),
        ("babbage", R50kBase),
        ("ada", R50kBase),
        ("code-davinci-002", P50kBase),
        ("code-davinci-001", P50kBase),
        ("code-cushman-002", P50kBase),
        ("code-cushman-001", P50kBase),
        ("davinci-codex", P50kBase),
        ("cushman-codex", P50kBase),
        ("text-davinci-edit-001", P50kEdit),
        ("code-davinci-edit-001", P50kEdit),
        ("text-similarity-davinci-001", R50kBase),
        ("text-similarity-curie-001", R50kBase),
        ("text-similarity-babbage-001", R50kBase),
        ("text-similarity-ada-001", R50kBase),
        ("text-search-davinci-doc-001", R50kBase),
        ("text-search-curie-doc-001", R50kBase),
        ("text-search-babbage-doc-001", R50kBase),
        ("text-search-ada-doc-001", R50kBase),
        ("code-search-babbage-code-001", R50kBase),
        ("code-search-ada-code-001", R50kBase),
        ("gpt2", Gpt2),
        ("gpt-2", Gpt2),
    ]
};

/// tiktoken's `MODEL_PREFIX_TO_ENCODING` (tiktoken 0.12): the first that matches wins.
const MODEL_PREFIXES: &[(&str, OpenAiEncoding)] = {
    use OpenAiEncoding::*;
    &[
        ("o1-", O200kBase),
        ("o3-", O200kBase),
        ("o4-mini-", O200kBase),
        ("gpt-5", O200kBase),
        ("gpt-4.5-", O200kBase),
        ("gpt-4.1-", O200kBase),
        ("chatgpt-4o-", O200kBase),
        ("gpt-4o-", O200kBase),
        ("gpt-4-", Cl100kBase),
        ("gpt-3.5-turbo-", Cl100kBase),
        ("gpt-35-turbo-", Cl100kBase),
        ("gpt-oss-", O200kHarmony),
        ("ft:gpt-4o", O200kBase),
        ("ft:gpt-4", Cl100kBase),
        ("ft:gpt-3.5-turbo", Cl100kBase),
        ("ft:davinci-002", Cl100kBase),
        ("ft:babbage-002", Cl100kBase),
    ]
};

/// A model name tiktoken does not map to an encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownModel(pub String);

impl fmt::Display for UnknownModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown model {:?}: tiktoken maps no encoding to it (known: gpt-4o, gpt-4,              gpt-3.5-turbo, o1, gpt-oss-20b, text-davinci-003, gpt2 and others, and their dated              versions); name the encoding instead",
            self.0
        )
    }
}

impl std::error::Error for UnknownModel {}

/// [`OpenAiEncoding::for_model`] as a `Result`, for flag parsers.
pub fn encoding_for_model(model: &str) -> Result<OpenAiEncoding, UnknownModel> {
    OpenAiEncoding::for_model(model).ok_or_else(|| UnknownModel(model.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_map_as_tiktoken_maps_them() {
        let cases = [
            ("gpt-4o", "o200k_base"),
            ("gpt-4o-mini", "o200k_base"),
            ("gpt-4", "cl100k_base"),
            ("gpt-4-turbo", "cl100k_base"),
            ("gpt-5-mini", "o200k_base"),
            ("gpt-oss-120b", "o200k_harmony"),
            ("text-davinci-edit-001", "p50k_edit"),
            ("code-davinci-002", "p50k_base"),
            ("davinci", "r50k_base"),
            ("gpt-2", "gpt2"),
            ("ft:gpt-4o-mini:org", "o200k_base"),
        ];
        for (model, encoding) in cases {
            assert_eq!(
                OpenAiEncoding::for_model(model).map(OpenAiEncoding::name),
                Some(encoding),
                "{model}"
            );
        }
        assert_eq!(OpenAiEncoding::for_model("llama-3"), None);
        assert_eq!(
            OpenAiEncoding::for_model("gpt-4o").unwrap().name(),
            "o200k_base"
        );
    }

    #[test]
    fn harmony_specials_are_tiktokens() {
        let specials = OpenAiEncoding::O200kHarmony.specials();
        assert_eq!(specials.len(), 16 + (201088 - 200013));
        assert_eq!(specials["<|reserved_200018|>"], 200018);
        assert_eq!(specials["<|endofprompt|>"], 200018);
        assert_eq!(specials["<|reserved_201087|>"], 201087);
        for e in OpenAiEncoding::ALL {
            let top = e.specials().values().max().copied().unwrap();
            assert!(top < e.n_vocab(), "{e}");
        }
    }
}
