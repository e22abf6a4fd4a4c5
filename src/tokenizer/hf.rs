//! Export to a Hugging Face `tokenizers` file (`tokenizer.json`, tokenizers ≥ 0.20) that gives
//! exactly bpe-lab's ids.
//!
//! HF's own end-of-word support (`end_of_word_suffix`) cannot: it glues the suffix onto a
//! word's last character (`e</w>` is one initial symbol), so a merge like `(h, e)` can never
//! come before `(e, </w>)` as it can in the lab's BPE, where `</w>` is a symbol of its own.
//! The export instead makes `</w>` one ordinary character, the *marker*: the first
//! private-use character (U+E000 onwards) that no token contains. Then:
//!
//! - **vocab and merges**: every `</w>` in a token is written as the marker; ids are bpe-lab's.
//! - **normalizer**: a literal marker in the input is first replaced by a second unused
//!   private-use character (so it stays an unknown character, as in bpe-lab, instead of
//!   posing as `</w>`); then, for the lab's split, every `' '` becomes marker + `' '` and the
//!   marker is appended at the end of the text (a `Replace` of the regex `\z`); for the
//!   whitespace split, the marker is inserted after every word (a `Replace` of a zero-width
//!   regex between a non-space and a space or the end).
//! - **pre-tokenizer**: `Split` on `' '` (or on runs of Python's whitespace), removing it. Every
//!   word now ends with the marker, and an empty word from a double space is a lone marker, as
//!   bpe-lab's lone `</w>`.
//! - **model**: BPE, no prefix or suffix, `unk_token` the unknown token, `fuse_unk`,
//!   `byte_fallback` and `ignore_merges` false, no dropout. HF applies the lowest-rank merge
//!   first, the leftmost among equals, as the apply-merges problem does.
//! - **decoder**: the marker becomes a space, the tokens are fused, and the one space after the
//!   last word is removed: HF's `decode` gives bpe-lab's `decode` text.
//! - **special tokens** are ordinary vocabulary entries, not HF "added tokens": HF matches
//!   added tokens in the raw text before anything else, so a literal `<PAD>` in the input
//!   would become one token in HF and several in bpe-lab.
//!
//! Parity is exact on every text except these, each refused or stated rather than hidden:
//!
//! - the empty text under the lab's split: bpe-lab gives one empty word, `[</w>]`, HF gives
//!   no token (HF cannot add characters to an empty string: its normalizers align every
//!   output character with an input one);
//! - a tokenizer whose merges build the text `</w>` out of the characters `<`, `/`, `w`, `>`
//!   (possible only if the corpus contains that text): bpe-lab cannot tell that token from the
//!   marker either; export refuses ([`HfExportError::MarkerSpelledByMerge`]);
//! - a tokenizer whose unknown token takes part in a merge (the corpus spelled `<UNK>`):
//!   HF would merge unknown characters too; export refuses ([`HfExportError::UnkInMerge`]).

use std::io::{self, Write};
use std::path::Path;

use serde_json::json;

use crate::bpe::EOW;
use crate::files::write_atomically;
use crate::tokenizer::codec::CharLevelTokenizer;
pub use crate::tokenizer::error::HfExportError;
use crate::tokenizer::error::{FileError, FileProblem};
use crate::tokenizer::split::Split;

/// Python's `str.split()` whitespace as a regex character class (see
/// [`is_python_whitespace`](crate::tokenizer::split::is_python_whitespace)).
const PYTHON_WHITESPACE: &str = "\t\n\u{B}\u{C}\r\u{1C}-\u{1F} \u{85}\u{A0}\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}";

impl CharLevelTokenizer {
    /// The Hugging Face `tokenizer.json` text (see the [module docs](self)).
    pub fn to_hf_json(&self) -> Result<String, HfExportError> {
        let plan = HfPlan::new(self)?;
        let mut out = Vec::new();
        write_hf_json(self, &plan, &mut out).expect("writing to a Vec does not fail");
        Ok(String::from_utf8(out).expect("JSON is UTF-8"))
    }

    /// Writes the Hugging Face `tokenizer.json` atomically to `path`.
    pub fn save_hf(&self, path: impl AsRef<Path>) -> Result<(), FileError> {
        let path = path.as_ref();
        let error = |problem| FileError {
            path: path.to_owned(),
            problem,
        };
        let json = self
            .to_hf_json()
            .map_err(|e| error(FileProblem::Export(e)))?;
        write_atomically(path, |out| out.write_all(json.as_bytes()))
            .map_err(|e| error(FileProblem::Io(e)))
    }
}

fn write_hf_json(
    tokenizer: &CharLevelTokenizer,
    plan: &HfPlan,
    out: &mut dyn Write,
) -> io::Result<()> {
    let marker = plan.marker.to_string();
    let stand_in = plan.stand_in.to_string();
    let keep_unknown =
        json!({"type": "Replace", "pattern": {"String": marker}, "content": stand_in});
    let (normalizer, pre_tokenizer) = match tokenizer.split() {
        Split::Space => (
            json!({"type": "Sequence", "normalizers": [
                keep_unknown,
                {"type": "Replace", "pattern": {"String": " "}, "content": format!("{marker} ")},
                {"type": "Replace", "pattern": {"Regex": "\\z"}, "content": marker},
            ]}),
            json!({"type": "Split", "pattern": {"String": " "}, "behavior": "Removed", "invert": false}),
        ),
        Split::Whitespace => (
            json!({"type": "Sequence", "normalizers": [
                keep_unknown,
                {"type": "Replace",
                 "pattern": {"Regex": format!("(?<=[^{PYTHON_WHITESPACE}])(?=[{PYTHON_WHITESPACE}]|\\z)")},
                 "content": marker},
            ]}),
            json!({"type": "Split", "pattern": {"Regex": format!("[{PYTHON_WHITESPACE}]+")},
                       "behavior": "Removed", "invert": false}),
        ),
    };
    let decoder = json!({"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": marker}, "content": " "},
        {"type": "Fuse"},
        {"type": "Replace", "pattern": {"Regex": " \\z"}, "content": ""},
    ]});
    let vocab = tokenizer.vocab();

    writeln!(out, "{{")?;
    writeln!(out, "  \"version\": \"1.0\",")?;
    writeln!(out, "  \"truncation\": null,")?;
    writeln!(out, "  \"padding\": null,")?;
    writeln!(out, "  \"added_tokens\": [],")?;
    writeln!(out, "  \"normalizer\": {normalizer},")?;
    writeln!(out, "  \"pre_tokenizer\": {pre_tokenizer},")?;
    writeln!(out, "  \"post_processor\": null,")?;
    writeln!(out, "  \"decoder\": {decoder},")?;
    writeln!(out, "  \"model\": {{")?;
    writeln!(out, "    \"type\": \"BPE\",")?;
    writeln!(out, "    \"dropout\": null,")?;
    writeln!(out, "    \"unk_token\": {},", json!(vocab.unk_token()))?;
    writeln!(out, "    \"continuing_subword_prefix\": null,")?;
    writeln!(out, "    \"end_of_word_suffix\": null,")?;
    writeln!(out, "    \"fuse_unk\": false,")?;
    writeln!(out, "    \"byte_fallback\": false,")?;
    writeln!(out, "    \"ignore_merges\": false,")?;
    writeln!(out, "    \"vocab\": {{")?;
    for (id, token) in vocab.tokens().iter().enumerate() {
        let comma = if id + 1 < vocab.len() { "," } else { "" };
        writeln!(out, "      {}: {id}{comma}", json!(plan.rename(token)))?;
    }
    writeln!(out, "    }},")?;
    if tokenizer.merges().is_empty() {
        writeln!(out, "    \"merges\": []")?;
    } else {
        writeln!(out, "    \"merges\": [")?;
        for (i, (left, right)) in tokenizer.merges().iter().enumerate() {
            let comma = if i + 1 < tokenizer.merges().len() {
                ","
            } else {
                ""
            };
            let pair = json!([plan.rename(left), plan.rename(right)]);
            writeln!(out, "      {pair}{comma}")?;
        }
        writeln!(out, "    ]")?;
    }
    writeln!(out, "  }}")?;
    writeln!(out, "}}")
}

/// The characters the export uses, checked to keep parity.
struct HfPlan {
    /// Stands for `</w>` inside HF's vocabulary and merges.
    marker: char,
    /// What a literal marker in the input becomes: another character no token contains.
    stand_in: char,
}

impl HfPlan {
    fn new(tokenizer: &CharLevelTokenizer) -> Result<HfPlan, HfExportError> {
        // Merge results are made of alphabet characters and `</w>`; specials are the rest.
        let used = |c: char| {
            tokenizer.alphabet().contains(&c)
                || EOW.contains(c)
                || tokenizer
                    .vocab()
                    .special_tokens()
                    .iter()
                    .any(|s| s.contains(c))
        };
        let mut free = ('\u{E000}'..='\u{F8FF}').filter(|&c| !used(c));
        let (Some(marker), Some(stand_in)) = (free.next(), free.next()) else {
            return Err(HfExportError::NoFreeMarker);
        };
        let plan = HfPlan { marker, stand_in };
        let unk = tokenizer.vocab().unk_token();
        for (index, (left, right)) in tokenizer.merges().iter().enumerate() {
            let pair = || (left.clone(), right.clone());
            if left == unk || right == unk {
                return Err(HfExportError::UnkInMerge {
                    index,
                    pair: pair(),
                });
            }
            // HF makes a merge's token by concatenating its renamed parts; that must be the
            // renamed concatenation, which fails only when the parts spell `</w>` across
            // their boundary.
            let merged = format!("{left}{right}");
            if plan.rename(&merged) != format!("{}{}", plan.rename(left), plan.rename(right)) {
                return Err(HfExportError::MarkerSpelledByMerge {
                    index,
                    pair: pair(),
                });
            }
        }
        Ok(plan)
    }

    fn rename(&self, token: &str) -> String {
        token.replace(EOW, self.marker.encode_utf8(&mut [0; 4]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::split::is_python_whitespace;

    /// The regex class spells exactly the characters the whitespace split cuts at.
    #[test]
    fn the_whitespace_class_is_pythons() {
        let chars: Vec<char> = PYTHON_WHITESPACE.chars().collect();
        let mut listed = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                listed.extend(chars[i]..=chars[i + 2]);
                i += 3;
            } else {
                listed.push(chars[i]);
                i += 1;
            }
        }
        listed.sort();
        let expected: Vec<char> = (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter(|&c| is_python_whitespace(c))
            .collect();
        assert_eq!(listed, expected);
    }
}
