//! Export of a byte-level tokenizer to a Hugging Face `tokenizer.json` (tokenizers ≥ 0.20) that
//! gives exactly its ids.
//!
//! - **pre-tokenizer**: a `Sequence` of `Split` on the tokenizer's own pattern (`Isolated`:
//!   every match a piece, as tiktoken's chunks) and `ByteLevel` without its own regex and
//!   without a prefix space, which only maps bytes to GPT-2's printable characters
//!   ([`byte_char`]). HF's regex engine is Oniguruma: the built-in patterns' `$` (end of line
//!   there, end of text in fancy-regex) only follows a possessive run of whitespace, after
//!   which no line feed can come, so the two engines agree on them; a possessive counted
//!   repetition (GPT-4's `\p{N}{1,3}+`) is written as an atomic group, which Oniguruma reads
//!   as fancy-regex reads the original ([`super::hf_regex`]).
//! - **model**: BPE over the mapped strings; vocab = every rank; merges recovered from the
//!   ranks as tiktoken's converters do it: token `t` of rank `r` is what tiktoken's rule makes
//!   of `t`'s bytes with only the ranks below `r`, which must be exactly two parts. HF merges
//!   by the listed pair's index, tiktoken by the concatenation's rank; with merges recovered
//!   this way the two coincide, and `ignore_merges` (a chunk that is a token is that token)
//!   is tiktoken's first rule.
//! - **added tokens**: the special tokens, `special: true`; HF finds them anywhere in the text,
//!   as [`AllowedSpecial::All`](crate::tokenizer::bytelevel::AllowedSpecial::All) does. HF
//!   ignores the `id` written with an added token: it gives an added token the id its model's
//!   vocab has for the same text, and else the next free id after the vocab (in the order the
//!   list names them). So every special token is also written into the model's vocab at its
//!   id, and keeps its id even where it is not contiguous with the ranks (cl100k_base's
//!   `<|endofprompt|>` is 100276, after a gap). A special whose text HF's ByteLevel could also
//!   make out of other bytes (its text is written in GPT-2's byte characters but is not those
//!   bytes, as `Ġx` is " x") would take those bytes' chunk too; export refuses it.
//!   HF's `decode` skips special tokens unless `skip_special_tokens=False`, as its users
//!   expect; with it, `decode([id])` is the special's text, as in tiktoken.
//! - **decoder**: `ByteLevel`: the mapped characters back to bytes, then to text.
//!
//! Reading such files back, and the files `tokenizers` itself writes, is
//! [`super::hf_bytelevel_import`].

use std::fmt;
use std::path::Path;

use serde_json::{Value, json};

use crate::bpe::bytelevel::{ByteMerge, RankTable};
use crate::files::write_atomically;
use crate::tokenizer::bytelevel::ByteLevelTokenizer;
use crate::tokenizer::hf_regex::for_oniguruma;

/// GPT-2's printable stand-in for each byte: the printable Latin-1 bytes (`!`..`~`,
/// `¡`..`¬`, `®`..`ÿ`) stand for themselves, the other 68 bytes, in order, for U+0100
/// onwards.
pub fn byte_char(b: u8) -> char {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    if printable(b) {
        return b as char;
    }
    let before = (0..b).filter(|&x| !printable(x)).count() as u32;
    char::from_u32(256 + before).expect("U+0100..U+0143 are characters")
}

/// A token's bytes as HF's ByteLevel writes them.
pub fn bytes_to_hf(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| byte_char(b)).collect()
}

/// Why a tokenizer cannot be exported with exact parity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HfByteLevelError {
    /// The token of this rank is not made of two lower-ranked tokens by tiktoken's rule, so no
    /// merge list gives it.
    NoMerge { rank: u32, bytes: Vec<u8> },
    /// A special token whose text is also what HF's ByteLevel writes for other bytes (`bytes`),
    /// so HF would give the special's id to a chunk of those bytes.
    SpecialLooksLikeBytes { special: String, bytes: Vec<u8> },
}

impl fmt::Display for HfByteLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HfByteLevelError::NoMerge { rank, bytes } => write!(
                f,
                "token {rank} ({:?}) is not the merge of two tokens of lower rank, so a \
                 Hugging Face merge list cannot give it",
                String::from_utf8_lossy(bytes)
            ),
            HfByteLevelError::SpecialLooksLikeBytes { special, bytes } => write!(
                f,
                "special token {special:?} is written in Hugging Face's byte characters and \
                 stands there for the bytes {:?}, so Hugging Face would give its id to those \
                 bytes in a text too; rename the special token",
                String::from_utf8_lossy(bytes)
            ),
        }
    }
}

impl std::error::Error for HfByteLevelError {}

/// The merges, in rank order, that give `tokens` (ranked, ascending): each token of two or
/// more bytes is split by tiktoken's rule with the ranks below its own.
pub fn recover_merges(tokens: &[(&[u8], u32)]) -> Result<Vec<ByteMerge>, HfByteLevelError> {
    let mut merges = Vec::new();
    // The ranks seen so far: the tokens come in ascending rank.
    let mut table = RankTable::new(std::iter::empty());
    for &(bytes, rank) in tokens {
        if bytes.len() >= 2 {
            let mut parts = Vec::new();
            let split = table.encode_piece_parts(bytes, &mut parts);
            if !split || parts.len() != 1 {
                return Err(HfByteLevelError::NoMerge {
                    rank,
                    bytes: bytes.to_vec(),
                });
            }
            merges.push((bytes[..parts[0]].to_vec(), bytes[parts[0]..].to_vec()));
        }
        table.insert(bytes.to_vec(), rank);
    }
    Ok(merges)
}

impl ByteLevelTokenizer {
    /// The `tokenizer.json` document.
    pub fn to_hf_json(&self) -> Result<Value, HfByteLevelError> {
        let regex = for_oniguruma(self.pattern().regex());
        let tokens = self.tokens();
        let merges = recover_merges(&tokens)?;
        for special in self.specials().keys() {
            if let Some(bytes) = hf_to_bytes(special)
                && bytes != special.as_bytes()
            {
                return Err(HfByteLevelError::SpecialLooksLikeBytes {
                    special: special.clone(),
                    bytes,
                });
            }
        }
        // The specials in the model's vocab too: HF takes an added token's id from there (see
        // the module docs). A special cannot be a rank's text: the tokenizer refuses a special
        // that is a rank's bytes, and the check above one that stands for other bytes.
        let vocab: serde_json::Map<String, Value> = tokens
            .iter()
            .map(|&(bytes, rank)| (bytes_to_hf(bytes), json!(rank)))
            .chain(
                self.specials()
                    .iter()
                    .map(|(s, &id)| (s.clone(), json!(id))),
            )
            .collect();
        let merges: Vec<Value> = merges
            .iter()
            .map(|(a, b)| json!([bytes_to_hf(a), bytes_to_hf(b)]))
            .collect();
        let mut by_id: Vec<(&String, &u32)> = self.specials().iter().collect();
        by_id.sort_by_key(|&(_, &id)| id);
        let added: Vec<Value> = by_id
            .into_iter()
            .map(|(content, &id)| {
                json!({
                    "id": id, "content": content, "single_word": false, "lstrip": false,
                    "rstrip": false, "normalized": false, "special": true
                })
            })
            .collect();
        Ok(json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": added,
            "normalizer": null,
            "pre_tokenizer": {
                "type": "Sequence",
                "pretokenizers": [
                    {"type": "Split", "pattern": {"Regex": regex},
                     "behavior": "Isolated", "invert": false},
                    {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false,
                     "use_regex": false}
                ]
            },
            "post_processor": null,
            "decoder": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": false,
                        "use_regex": false},
            "model": {
                "type": "BPE", "dropout": null, "unk_token": null,
                "continuing_subword_prefix": null, "end_of_word_suffix": null,
                "fuse_unk": false, "byte_fallback": false, "ignore_merges": true,
                "vocab": vocab, "merges": merges
            }
        }))
    }

    /// Writes the `tokenizer.json` atomically.
    pub fn export_hf(&self, path: impl AsRef<Path>) -> Result<(), HfExportFileError> {
        let json = self.to_hf_json().map_err(HfExportFileError::Export)?;
        let text = serde_json::to_string(&json).expect("a JSON value serializes");
        write_atomically(path.as_ref(), |out| out.write_all(text.as_bytes()))
            .map_err(HfExportFileError::Io)
    }
}

/// Writing the Hugging Face file failed.
#[derive(Debug)]
pub enum HfExportFileError {
    Export(HfByteLevelError),
    Io(std::io::Error),
}

impl fmt::Display for HfExportFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HfExportFileError::Export(e) => write!(f, "{e}"),
            HfExportFileError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for HfExportFileError {}

/// The bytes a string of GPT-2's printable stand-ins stands for ([`byte_char`]).
pub fn hf_to_bytes(token: &str) -> Option<Vec<u8>> {
    let mut back = [None; 0x144];
    for b in 0..=255u8 {
        back[byte_char(b) as usize] = Some(b);
    }
    token
        .chars()
        .map(|c| back.get(c as usize).copied().flatten())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2_byte_map() {
        assert_eq!(byte_char(b'a'), 'a');
        assert_eq!(byte_char(b' '), 'Ġ');
        assert_eq!(byte_char(b'\n'), 'Ċ');
        assert_eq!(byte_char(0), 'Ā');
        assert_eq!(byte_char(0xAD), 'Ń');
        let all: std::collections::HashSet<char> = (0..=255u8).map(byte_char).collect();
        assert_eq!(all.len(), 256);
    }
}
