//! Reading a Hugging Face `tokenizer.json` (ByteLevel BPE) as a [`ByteLevelTokenizer`] that
//! gives exactly Hugging Face's ids, or refusing it naming the one setting that would make the
//! ids differ.
//!
//! Read: the shapes `tokenizers` writes by default for byte-level BPE —
//! - `ByteLevelBPETokenizer` and GPT-2-shaped files: the `ByteLevel` pre-tokenizer with its
//!   own regex (`use_regex`, the default). That regex is GPT-2's original pattern, which
//!   tiktoken's `r50k_base` pattern ([`SplitPattern::Gpt2`]) matches exactly (tiktoken's note:
//!   "equivalent, but executes faster"; tests/suite/hf_import_parity.rs checks it in
//!   `tokenizers` itself on generated and hostile text);
//! - Llama-3-shaped files: a `Sequence` of `Split` on a regex (`Isolated`) and `ByteLevel`
//!   without its regex, as bpe-lab's export writes them too;
//! - special tokens anywhere in the ids (the trainers put them first, from id 0), each also in
//!   the model's vocab at its id;
//! - `ignore_merges` true or false (below);
//! - a `ByteLevel` post-processor (it trims offsets, never changes ids), a
//!   `TemplateProcessing` that adds nothing to a single text, and an empty normalizer
//!   `Sequence`.
//!
//! Hugging Face merges by the pair's index in the merge list; tiktoken's rule, which bpe-lab
//! encodes with, by the rank (here: the id) of the two parts' concatenation. The file is read
//! only when its merges are exactly the ones its ids imply, in order: token `t` of id `r` is
//! what tiktoken's rule makes of `t`'s bytes with the ids below `r`, and that must be two parts,
//! the listed merge. `tokenizers`' trainers write such files (each merge's token gets the next
//! id); then at every step both rules see the same candidates in the same order, so they give
//! the same ids. The same argument makes `ignore_merges` (a chunk that is a token is that
//! token, tiktoken's first step) change nothing: with only the ids below `r`, the bytes of `t`
//! end as the two parts of its merge, and the merge makes `t`, so merging reaches every token
//! a chunk is. A merge list that is not the implied one (two merges making the same token,
//! merges out of id order) is refused.
//!
//! Refused, naming the setting: a normalizer (it changes the text before encoding), a
//! post-processor that adds tokens (RoBERTa's `<s>`…`</s>`, Llama 3's `<|begin_of_text|>`),
//! `add_prefix_space` (a space added before every text and every piece between special
//! tokens), truncation or padding, dropout, word prefixes or suffixes, a decoder other than
//! `ByteLevel`, added tokens that are not special or that strip spaces around them.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::bpe::bytelevel::SplitPattern;
use crate::tokenizer::bytelevel::ByteLevelTokenizer;
use crate::tokenizer::hf_bytelevel::{hf_to_bytes, recover_merges};
use crate::tokenizer::hf_regex::from_oniguruma;

/// Why a Hugging Face `tokenizer.json` cannot be read as a byte-level tokenizer with exactly
/// its ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HfImportError {
    /// Not JSON, or a field of the wrong shape: which and why.
    Shape(String),
    /// A setting under which Hugging Face would give other ids than tiktoken's rule: which.
    NotExact(String),
    /// A tokenizer without a `ByteLevel` pre-tokenizer: not byte-level (a character-level one, such
    /// as bpe-lab's export of a character-level tokenizer, or bpe-lab's character-level file
    /// itself).
    NotByteLevel,
    /// One setting bpe-lab does not implement (`setting`, as the file names it), and what it
    /// would change.
    Unsupported { setting: String, effect: String },
}

impl fmt::Display for HfImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HfImportError::Shape(e) => write!(f, "not a Hugging Face tokenizer.json: {e}"),
            HfImportError::NotExact(e) => write!(
                f,
                "a Hugging Face tokenizer bpe-lab cannot encode with the same ids: {e}"
            ),
            HfImportError::NotByteLevel => f.write_str(
                "a tokenizer that is not byte-level: a character-level tokenizer, or a \
                 Hugging Face one whose pre-tokenizer has no ByteLevel step (such as bpe-lab's \
                 export of a character-level tokenizer); this needs a byte-level tokenizer (use `encode`, \
                 `decode` or `export` with the character-level tokenizer file itself)",
            ),
            HfImportError::Unsupported { setting, effect } => write!(
                f,
                "a Hugging Face tokenizer bpe-lab cannot encode with the same ids: its \
                 {setting} is not supported ({effect})"
            ),
        }
    }
}

impl std::error::Error for HfImportError {}

fn shape(e: &str) -> HfImportError {
    HfImportError::Shape(e.to_owned())
}

fn unsupported(setting: impl Into<String>, effect: &str) -> HfImportError {
    HfImportError::Unsupported {
        setting: setting.into(),
        effect: effect.to_owned(),
    }
}

/// A component's `"type"`, for messages.
fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("(no type)")
}

fn is_null(v: Option<&Value>) -> bool {
    v.is_none_or(Value::is_null)
}

impl ByteLevelTokenizer {
    /// A tokenizer from a Hugging Face `tokenizer.json` of one of the shapes the module docs
    /// list, with exactly Hugging Face's ids; anything else is refused naming the setting.
    pub fn from_hf_json(text: &str) -> Result<Self, HfImportError> {
        let not_exact = HfImportError::NotExact;
        let doc: Value = serde_json::from_str(text).map_err(|e| shape(&e.to_string()))?;
        if !doc.is_object() {
            return Err(shape("it is not a JSON object"));
        }
        // bpe-lab's own character-level file, given where a byte-level one is read.
        let format = doc.get("format").and_then(Value::as_str);
        if format == Some(crate::tokenizer::file::FORMAT) {
            return Err(HfImportError::NotByteLevel);
        }
        let model = doc
            .get("model")
            .ok_or_else(|| shape("it has no \"model\""))?;
        if !has_byte_level(doc.get("pre_tokenizer")) {
            return Err(HfImportError::NotByteLevel);
        }
        check_model(model)?;
        check_around(&doc)?;
        let pattern = pre_tokenizer(doc.get("pre_tokenizer"))?;
        let specials = added_tokens(&doc, model)?;
        // The vocabulary, as bytes, by id.
        let vocab = model
            .get("vocab")
            .and_then(Value::as_object)
            .ok_or_else(|| shape("\"model\".\"vocab\" is not an object"))?;
        let mut tokens: Vec<(Vec<u8>, u32)> = Vec::with_capacity(vocab.len());
        for (token, id) in vocab {
            if specials.contains_key(token) {
                continue;
            }
            let id = id
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| shape(&format!("the id of {token:?} is not a number")))?;
            let bytes = hf_to_bytes(token).ok_or_else(|| {
                not_exact(format!(
                    "the token {token:?} is not written in ByteLevel's byte characters"
                ))
            })?;
            tokens.push((bytes, id));
        }
        tokens.sort_by_key(|&(_, id)| id);
        check_merges(model, &tokens)?;
        ByteLevelTokenizer::new("tokenizer.json", tokens, pattern, specials)
            .map_err(|e| not_exact(e.to_string()))
    }
}

/// The model: BPE without dropout or word prefixes and suffixes.
fn check_model(model: &Value) -> Result<(), HfImportError> {
    if kind(model) != "BPE" {
        return Err(unsupported(
            format!("model {}", kind(model)),
            "only BPE models are byte-level BPE",
        ));
    }
    if !is_null(model.get("dropout")) && model.get("dropout").and_then(Value::as_f64) != Some(0.0) {
        return Err(unsupported(
            "model dropout",
            "it skips merges at random, so the ids change from run to run",
        ));
    }
    for field in ["continuing_subword_prefix", "end_of_word_suffix"] {
        let value = model.get(field);
        if !is_null(value) && value.and_then(Value::as_str) != Some("") {
            return Err(unsupported(
                format!("model {field}"),
                "it marks pieces of words, which byte-level BPE does not",
            ));
        }
    }
    Ok(())
}

/// What surrounds the model: normalizer, post-processor, decoder, truncation, padding.
fn check_around(doc: &Value) -> Result<(), HfImportError> {
    for field in ["truncation", "padding"] {
        if !is_null(doc.get(field)) {
            return Err(unsupported(
                field,
                "it cuts or pads the ids to a length; bpe-lab gives every id of the text",
            ));
        }
    }
    if let Some(normalizer) = doc.get("normalizer").filter(|v| !v.is_null()) {
        let empty = kind(normalizer) == "Sequence"
            && normalizer
                .get("normalizers")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty);
        if !empty {
            return Err(unsupported(
                format!("normalizer {}", kind(normalizer)),
                "it changes the text before encoding; bpe-lab encodes the text as given",
            ));
        }
    }
    if let Some(post) = doc.get("post_processor").filter(|v| !v.is_null()) {
        check_post_processor(post)?;
    }
    if let Some(decoder) = doc.get("decoder").filter(|v| !v.is_null())
        && kind(decoder) != "ByteLevel"
    {
        return Err(unsupported(
            format!("decoder {}", kind(decoder)),
            "it would decode the ids to other text than their bytes",
        ));
    }
    Ok(())
}

/// A post-processor that leaves one text's ids as they are: `ByteLevel` (offsets only), a
/// template that is just the text, or a sequence of those.
fn check_post_processor(post: &Value) -> Result<(), HfImportError> {
    match kind(post) {
        "ByteLevel" => Ok(()),
        "Sequence" => post
            .get("processors")
            .and_then(Value::as_array)
            .ok_or_else(|| shape("the post-processor Sequence has no \"processors\" list"))?
            .iter()
            .try_for_each(check_post_processor),
        "TemplateProcessing"
            if post
                .get("single")
                .and_then(Value::as_array)
                .is_some_and(|pieces| {
                    pieces.len() == 1
                        && pieces[0].pointer("/Sequence/id").and_then(Value::as_str) == Some("A")
                }) =>
        {
            Ok(())
        }
        other => Err(unsupported(
            format!("post_processor {other}"),
            "it adds special tokens around every text, which bpe-lab's encode does not",
        )),
    }
}

/// Whether the pre-tokenizer, or a step of it, is `ByteLevel`.
fn has_byte_level(pre: Option<&Value>) -> bool {
    pre.is_some_and(|pre| {
        kind(pre) == "ByteLevel"
            || pre
                .get("pretokenizers")
                .and_then(Value::as_array)
                .is_some_and(|steps| steps.iter().any(|s| kind(s) == "ByteLevel"))
    })
}

/// The split pattern the pre-tokenizer amounts to.
fn pre_tokenizer(pre: Option<&Value>) -> Result<SplitPattern, HfImportError> {
    let Some(pre) = pre.filter(|v| !v.is_null()) else {
        return Err(unsupported(
            "pre_tokenizer (none)",
            "without ByteLevel the text's bytes are not the model's symbols",
        ));
    };
    let steps: Vec<&Value> = match kind(pre) {
        "Sequence" => pre
            .get("pretokenizers")
            .and_then(Value::as_array)
            .ok_or_else(|| shape("the pre-tokenizer Sequence has no \"pretokenizers\" list"))?
            .iter()
            .collect(),
        _ => vec![pre],
    };
    match steps.as_slice() {
        [byte_level] if kind(byte_level) == "ByteLevel" => {
            if !byte_level_step(byte_level)? {
                return Err(unsupported(
                    "pre_tokenizer ByteLevel use_regex=false without a Split before it",
                    "the whole text would be one chunk",
                ));
            }
            Ok(SplitPattern::Gpt2)
        }
        [split, byte_level] if kind(split) == "Split" && kind(byte_level) == "ByteLevel" => {
            if byte_level_step(byte_level)? {
                return Err(unsupported(
                    "pre_tokenizer ByteLevel use_regex=true after a Split",
                    "the text would be split twice",
                ));
            }
            let behavior = split.get("behavior").and_then(Value::as_str);
            if behavior != Some("Isolated") {
                return Err(unsupported(
                    format!(
                        "pre_tokenizer Split behavior {}",
                        behavior.unwrap_or("(none)")
                    ),
                    "only Isolated keeps every match a chunk of its own, as tiktoken does",
                ));
            }
            if split.get("invert").and_then(Value::as_bool) == Some(true) {
                return Err(unsupported(
                    "pre_tokenizer Split invert=true",
                    "the chunks would be the text between the matches",
                ));
            }
            let regex = split
                .pointer("/pattern/Regex")
                .and_then(Value::as_str)
                .ok_or_else(|| {
                    unsupported(
                        "pre_tokenizer Split pattern (not a Regex)",
                        "a plain string pattern splits differently",
                    )
                })?;
            // A built-in as the export writes it (its possessive repetitions as atomic groups)
            // is that built-in; any other regex reads the same in fancy-regex.
            Ok(from_oniguruma(regex))
        }
        _ => {
            let kinds: Vec<&str> = steps.iter().map(|s| kind(s)).collect();
            Err(unsupported(
                format!("pre_tokenizer {}", kinds.join(" + ")),
                "read are ByteLevel alone, or Split then ByteLevel",
            ))
        }
    }
}

/// Checks a `ByteLevel` pre-tokenizer step and says whether it splits with its own regex.
fn byte_level_step(step: &Value) -> Result<bool, HfImportError> {
    if step.get("add_prefix_space").and_then(Value::as_bool) == Some(true) {
        return Err(unsupported(
            "pre_tokenizer ByteLevel add_prefix_space=true",
            "Hugging Face puts a space before every text and every piece between special \
             tokens; bpe-lab encodes the text as given",
        ));
    }
    // `use_regex` is true where the file does not say (tokenizers' default).
    Ok(step.get("use_regex").and_then(Value::as_bool) != Some(false))
}

/// The special tokens: every added token, each special, with the id Hugging Face gives it.
fn added_tokens(doc: &Value, model: &Value) -> Result<BTreeMap<String, u32>, HfImportError> {
    let mut specials = BTreeMap::new();
    let mut hf_max: Option<u32> = None;
    let vocab_len = model
        .get("vocab")
        .and_then(Value::as_object)
        .map_or(0, |v| v.len() as u32);
    for added in doc
        .get("added_tokens")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(content), Some(id)) = (
            added.get("content").and_then(Value::as_str),
            added.get("id").and_then(Value::as_u64),
        ) else {
            return Err(shape("an entry of \"added_tokens\" has no content or id"));
        };
        let id = u32::try_from(id).map_err(|_| {
            shape(&format!(
                "the id of the added token {content:?} is too large"
            ))
        })?;
        // The id HF gives it: the vocab's for the same text, else the next after the vocab
        // and the added tokens so far (tokenizers' AddedVocabulary::add_tokens).
        let hf_id = match model.pointer("/vocab").and_then(|v| v.get(content)) {
            Some(vocab_id) => vocab_id
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| shape(&format!("the id of {content:?} is not a number")))?,
            None => match hf_max {
                Some(max) if max >= vocab_len || vocab_len == 0 => max + 1,
                _ => vocab_len,
            },
        };
        if hf_id != id {
            return Err(HfImportError::NotExact(format!(
                "the added token {content:?} says id {id}, but Hugging Face gives it {hf_id} \
                 (it takes the model vocab's id for the same text, else numbers added tokens \
                 on from the vocab's size)"
            )));
        }
        hf_max = hf_max.max(Some(id));
        if added.get("special").and_then(Value::as_bool) != Some(true) {
            return Err(unsupported(
                format!("added token {content:?} with special=false"),
                "Hugging Face finds it in any text and may normalize it; bpe-lab's special \
                 tokens are found only where allowed",
            ));
        }
        for field in ["lstrip", "rstrip", "single_word"] {
            if added.get(field).and_then(Value::as_bool) == Some(true) {
                return Err(unsupported(
                    format!("added token {content:?} with {field}=true"),
                    "Hugging Face lets it take in the spaces beside it or match only whole \
                     words",
                ));
            }
        }
        specials.insert(content.to_owned(), id);
    }
    Ok(specials)
}

/// The listed merges must be the ones the ids imply, in order (see the module docs).
fn check_merges(model: &Value, tokens: &[(Vec<u8>, u32)]) -> Result<(), HfImportError> {
    let not_exact = HfImportError::NotExact;
    let ranked: Vec<(&[u8], u32)> = tokens.iter().map(|(b, r)| (&b[..], *r)).collect();
    let implied = recover_merges(&ranked).map_err(|e| not_exact(e.to_string()))?;
    let listed = model
        .get("merges")
        .and_then(Value::as_array)
        .ok_or_else(|| shape("\"model\".\"merges\" is not a list"))?;
    let merge_of = |m: &Value| -> Option<(Vec<u8>, Vec<u8>)> {
        let (a, b) = match m {
            Value::String(s) => s.split_once(' ')?,
            Value::Array(pair) if pair.len() == 2 => (pair[0].as_str()?, pair[1].as_str()?),
            _ => return None,
        };
        Some((hf_to_bytes(a)?, hf_to_bytes(b)?))
    };
    if listed.len() != implied.len() {
        return Err(not_exact(format!(
            "it lists {} merges where its ids imply {} (two merges make the same token, or a \
             token has no merge)",
            listed.len(),
            implied.len()
        )));
    }
    for (i, (m, want)) in listed.iter().zip(&implied).enumerate() {
        if merge_of(m).as_ref() != Some(want) {
            return Err(not_exact(format!(
                "merge {i} is not the one its ids imply (the merges are not in the order of \
                 the ids of the tokens they make)"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A small GPT-2-shaped file as `tokenizers`' trainer writes it: specials from id 0, the
    /// 256 byte characters, then merges.
    fn trained_like(extra: impl FnOnce(&mut Value)) -> Value {
        let mut vocab = serde_json::Map::new();
        vocab.insert("<|endoftext|>".into(), json!(0));
        let mut chars: Vec<char> = (0..=255u8)
            .map(crate::tokenizer::hf_bytelevel::byte_char)
            .collect();
        chars.sort();
        for (i, c) in chars.iter().enumerate() {
            vocab.insert(c.to_string(), json!(i + 1));
        }
        vocab.insert("Ġt".into(), json!(257));
        vocab.insert("Ġth".into(), json!(258));
        let mut doc = json!({
            "version": "1.0", "truncation": null, "padding": null,
            "added_tokens": [{"id": 0, "content": "<|endoftext|>", "single_word": false,
                "lstrip": false, "rstrip": false, "normalized": false, "special": true}],
            "normalizer": null,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false,
                "trim_offsets": true, "use_regex": true},
            "post_processor": {"type": "ByteLevel", "add_prefix_space": true,
                "trim_offsets": false, "use_regex": true},
            "decoder": {"type": "ByteLevel", "add_prefix_space": true, "trim_offsets": true,
                "use_regex": true},
            "model": {"type": "BPE", "dropout": null, "unk_token": null,
                "continuing_subword_prefix": null, "end_of_word_suffix": null,
                "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
                "vocab": vocab, "merges": [["Ġ", "t"], ["Ġt", "h"]]}
        });
        extra(&mut doc);
        doc
    }

    #[test]
    fn a_trainer_shaped_file_reads_with_specials_at_zero() {
        let t = ByteLevelTokenizer::from_hf_json(&trained_like(|_| {}).to_string()).unwrap();
        assert_eq!(t.pattern(), &SplitPattern::Gpt2);
        assert_eq!(t.specials()["<|endoftext|>"], 0);
        let ids = t
            .encode(" the<|endoftext|>", &crate::tokenizer::AllowedSpecial::All)
            .unwrap();
        assert_eq!(ids[0], 258);
        assert_eq!(*ids.last().unwrap(), 0);
    }

    /// A change to a file that makes it unsupported, and the setting its error must name.
    type Unsupported = (Box<dyn Fn(&mut Value)>, &'static str);

    #[test]
    fn each_unsupported_setting_is_named() {
        let cases: Vec<Unsupported> = vec![
            (
                Box::new(|d| d["normalizer"] = json!({"type": "NFC"})),
                "normalizer NFC",
            ),
            (
                Box::new(|d| {
                    d["post_processor"] = json!({"type": "RobertaProcessing",
                        "sep": ["</s>", 2], "cls": ["<s>", 0]})
                }),
                "post_processor RobertaProcessing",
            ),
            (
                Box::new(|d| d["pre_tokenizer"]["add_prefix_space"] = json!(true)),
                "add_prefix_space=true",
            ),
            (
                Box::new(|d| d["model"]["dropout"] = json!(0.1)),
                "model dropout",
            ),
            (
                Box::new(|d| d["padding"] = json!({"strategy": "BatchLongest"})),
                "padding",
            ),
            (
                Box::new(|d| d["added_tokens"][0]["lstrip"] = json!(true)),
                "lstrip=true",
            ),
            (
                Box::new(|d| d["decoder"] = json!({"type": "Metaspace"})),
                "decoder Metaspace",
            ),
        ];
        for (change, setting) in cases {
            let err =
                ByteLevelTokenizer::from_hf_json(&trained_like(change).to_string()).unwrap_err();
            assert!(
                matches!(&err, HfImportError::Unsupported { .. }),
                "{setting}: {err}"
            );
            assert!(err.to_string().contains(setting), "{setting}: {err}");
        }
    }

    #[test]
    fn merges_out_of_id_order_are_refused() {
        let doc = trained_like(|d| {
            d["model"]["merges"] = json!([["Ġt", "h"], ["Ġ", "t"]]);
        });
        let err = ByteLevelTokenizer::from_hf_json(&doc.to_string()).unwrap_err();
        assert!(err.to_string().contains("merge 0"), "{err}");
    }
}
