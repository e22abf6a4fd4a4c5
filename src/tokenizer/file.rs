//! The tokenizer file: a JSON document holding everything needed to encode and decode.
//!
//! ```json
//! {
//!   "format": "bpe-lab-tokenizer",
//!   "version": 2,
//!   "end_of_word": "</w>",
//!   "split": "space",
//!   "vocab_order": "merge-order",
//!   "special_tokens": ["<PAD>", "<UNK>"],
//!   "unk_token": "<UNK>",
//!   "tie_break": "lexicographic",
//!   "min_frequency": 1,
//!   "merges_requested": 2,
//!   "stop_reason": "merges_done",
//!   "vocab": [
//!     "<PAD>",
//!     "<UNK>",
//!     "</w>",
//!     "l",
//!     "o",
//!     "w",
//!     "lo",
//!     "low"
//!   ],
//!   "merges": [
//!     ["l", "o"],
//!     ["lo", "w"]
//!   ],
//!   "merge_counts": [3, 3]
//! }
//! ```
//!
//! - `vocab[i]` is the token with id `i`, in the documented order `vocab_order` names (see
//!   [`crate::tokenizer::vocab`]); the special tokens come first.
//! - `merges[i]` is the merge of rank `i`, `[left, right]`, as `bpe-lab train` has always
//!   written it.
//! - `split` is how encoding cuts text into words (`space`: Python's `split(" ")`, the lab's;
//!   `whitespace`: Python's `split()`).
//! - `tie_break`, `min_frequency`, `merges_requested`, `stop_reason` and `merge_counts` record
//!   how the merges were learned; they are present only when the tokenizer came from a
//!   training, and ignored by encoding.
//!
//! Reading checks everything a hand edit could break, and says which file and what: a file of
//! a newer version, a truncated file, a merge listed twice, a merge whose parts neither are in
//! the vocabulary nor made by an earlier merge, a vocabulary that does not follow its order.
//! Fields it does not know are ignored, so later versions can add fields.

/// The file's name and versions, shared with the byte-level file (`bytelevel_file`).
pub(crate) mod format;

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde_json::{Map, Value};

use crate::bpe::EOW;
use crate::bpe::train::StopReason;
use crate::files::{json_kind as kind, json_message, write_atomically};
use crate::tokenizer::codec::{
    CharLevelTokenizer, TokenizerConfig, TrainingInfo, TrainingSettings,
};
pub use crate::tokenizer::error::{FileError, FileProblem};
pub use crate::tokenizer::file::format::{FORMAT, VERSION};
use crate::tokenizer::split::Split;
use crate::tokenizer::vocab::VocabOrder;

fn field(field: &str, problem: impl Into<String>) -> FileProblem {
    FileProblem::Field {
        field: field.to_owned(),
        problem: problem.into(),
    }
}

/// The name the file records for why training stopped.
pub fn stop_reason_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::MergesDone => "merges_done",
        StopReason::NoPairs => "no_pairs",
        StopReason::BelowMinFrequency => "below_min_frequency",
    }
}

fn parse_stop_reason(name: &str) -> Option<StopReason> {
    [
        StopReason::MergesDone,
        StopReason::NoPairs,
        StopReason::BelowMinFrequency,
    ]
    .into_iter()
    .find(|&s| stop_reason_name(s) == name)
}

impl CharLevelTokenizer {
    /// Saves the tokenizer to `path` as JSON (see the [module docs](self)), atomically: a
    /// temporary file beside it is written, flushed to disk and renamed over `path`, so readers
    /// see the old file or the whole new one.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), FileError> {
        let path = path.as_ref();
        write_atomically(path, |out| self.write_json(out)).map_err(|err| FileError {
            path: path.to_owned(),
            problem: FileProblem::Io(err),
        })
    }

    /// Reads a tokenizer file (version 2), checking it; errors name `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<CharLevelTokenizer, FileError> {
        let path = path.as_ref();
        let error = |problem| FileError {
            path: path.to_owned(),
            problem,
        };
        let bytes = fs::read(path).map_err(|e| error(FileProblem::Io(e)))?;
        CharLevelTokenizer::from_json_slice(&bytes).map_err(error)
    }

    /// Reads a tokenizer from the JSON text of a tokenizer file.
    pub fn from_json(text: &str) -> Result<CharLevelTokenizer, FileProblem> {
        CharLevelTokenizer::from_json_slice(text.as_bytes())
    }

    pub(crate) fn from_json_slice(bytes: &[u8]) -> Result<CharLevelTokenizer, FileProblem> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err(FileProblem::Empty);
        }
        let value: Value = serde_json::from_slice(bytes).map_err(|e| {
            let (line, column) = (e.line(), e.column());
            if e.is_eof() {
                FileProblem::Truncated { line, column }
            } else {
                FileProblem::Syntax {
                    line,
                    column,
                    message: json_message(&e),
                }
            }
        })?;
        let Value::Object(object) = value else {
            return Err(FileProblem::NotATokenizer(format!(
                "expected a JSON object, found {}",
                kind(&value)
            )));
        };
        let fields = Fields(&object);
        let format = match object.get("format") {
            Some(Value::String(format)) => format.as_str(),
            Some(other) => {
                return Err(field(
                    "format",
                    format!("is {}, expected a string", kind(other)),
                ));
            }
            None if object.contains_key("model") => {
                return Err(FileProblem::NotATokenizer(
                    "it looks like a Hugging Face tokenizer.json (bpe-lab writes those with \
                     `export` but reads only its own files)"
                        .into(),
                ));
            }
            None => {
                return Err(FileProblem::NotATokenizer(
                    "it has no \"format\" field".into(),
                ));
            }
        };
        if format != FORMAT {
            return Err(FileProblem::NotATokenizer(format!(
                "\"format\" is {format:?}, expected {FORMAT:?}"
            )));
        }
        let version = fields.u64("version")?;
        match version {
            VERSION => read_v2(&fields),
            found if found > VERSION => Err(FileProblem::FutureVersion { found }),
            found => Err(field(
                "version",
                format!(
                    "{found} is not a version of {format:?} (that format is version {VERSION})"
                ),
            )),
        }
    }

    /// The file's JSON text (see the [module docs](self)).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        self.write_json(&mut out)
            .expect("writing to a Vec does not fail");
        String::from_utf8(out).expect("JSON is UTF-8")
    }

    /// Writes the file's JSON: one vocabulary entry and one merge per line, so the file reads
    /// and diffs well.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{{")?;
        writeln!(out, "  \"format\": {},", json(FORMAT))?;
        writeln!(out, "  \"version\": {VERSION},")?;
        writeln!(out, "  \"end_of_word\": {},", json(EOW))?;
        writeln!(out, "  \"split\": {},", json(self.split().name()))?;
        writeln!(
            out,
            "  \"vocab_order\": {},",
            json(self.vocab().order().name())
        )?;
        let specials: Vec<String> = self
            .vocab()
            .special_tokens()
            .iter()
            .map(|s| json(s))
            .collect();
        writeln!(out, "  \"special_tokens\": [{}],", specials.join(", "))?;
        writeln!(out, "  \"unk_token\": {},", json(self.vocab().unk_token()))?;
        if let Some(info) = self.training() {
            let s = &info.settings;
            writeln!(out, "  \"tie_break\": {},", json(s.tie_break.name()))?;
            writeln!(out, "  \"min_frequency\": {},", s.min_frequency)?;
            writeln!(out, "  \"merges_requested\": {},", s.num_merges)?;
            writeln!(
                out,
                "  \"stop_reason\": {},",
                json(stop_reason_name(info.stop_reason))
            )?;
        }
        write_list(out, "vocab", self.vocab().tokens(), |t| json(t))?;
        out.write_all(b",\n")?;
        write_list(out, "merges", self.merges(), |(l, r)| {
            format!("[{}, {}]", json(l), json(r))
        })?;
        if let Some(info) = self.training() {
            let counts: Vec<String> = info.merge_counts.iter().map(u64::to_string).collect();
            write!(out, ",\n  \"merge_counts\": [{}]", counts.join(", "))?;
        }
        out.write_all(b"\n}\n")
    }
}

/// `  "name": [` one item per line `]` (or `[]`), without the trailing comma or newline.
fn write_list<T>(
    out: &mut dyn Write,
    name: &str,
    items: &[T],
    show: impl Fn(&T) -> String,
) -> io::Result<()> {
    if items.is_empty() {
        return write!(out, "  \"{name}\": []");
    }
    writeln!(out, "  \"{name}\": [")?;
    for (i, item) in items.iter().enumerate() {
        let comma = if i + 1 < items.len() { "," } else { "" };
        writeln!(out, "    {}{comma}", show(item))?;
    }
    write!(out, "  ]")
}

/// A string as a JSON literal.
fn json(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

fn read_v2(fields: &Fields) -> Result<CharLevelTokenizer, FileProblem> {
    if let Some(eow) = fields.opt_str("end_of_word")?
        && eow != EOW
    {
        return Err(field(
            "end_of_word",
            format!("is {eow:?}; bpe-lab uses {EOW:?}"),
        ));
    }
    let split = match fields.opt_str("split")? {
        None => Split::default(),
        Some(name) => name.parse().map_err(|e: String| field("split", e))?,
    };
    let order: VocabOrder = fields
        .str("vocab_order")?
        .parse()
        .map_err(|e: String| field("vocab_order", e))?;
    let special_tokens = fields.strings("special_tokens")?;
    let unk_token = fields.str("unk_token")?.to_owned();
    let vocab = fields.strings("vocab")?;
    let merges = fields.pairs("merges")?;
    let training = fields.training(merges.len())?;

    let mut ids = rustc_hash::FxHashMap::default();
    for (id, token) in vocab.iter().enumerate() {
        if let Some(first) = ids.insert(token.as_str(), id) {
            return Err(field(
                "vocab",
                format!("{token:?} is listed twice (ids {first} and {id})"),
            ));
        }
    }
    for (id, special) in special_tokens.iter().enumerate() {
        if vocab.get(id) != Some(special) {
            return Err(field(
                "vocab",
                format!(
                    "the special tokens come first: id {id} should be {special:?}, found {}",
                    vocab.get(id).map_or("nothing".into(), |t| format!("{t:?}"))
                ),
            ));
        }
    }
    // The alphabet is the vocabulary's single characters; whether every other entry is a
    // special token, `</w>` or a merge's result is checked by comparing with the rebuilt
    // vocabulary below.
    let alphabet = vocab[special_tokens.len()..]
        .iter()
        .filter_map(|t| {
            let mut chars = t.chars();
            chars.next().filter(|_| chars.next().is_none())
        })
        .collect();
    let config = TokenizerConfig {
        special_tokens,
        unk_token,
        order,
        split,
    };
    let tokenizer = CharLevelTokenizer::assemble(alphabet, merges, config, training)?;
    check_vocab(&vocab, &tokenizer)?;
    Ok(tokenizer)
}

/// The stored vocabulary is the one the alphabet, merges and order give.
fn check_vocab(stored: &[String], tokenizer: &CharLevelTokenizer) -> Result<(), FileProblem> {
    let rebuilt = tokenizer.vocab();
    for (id, token) in stored.iter().enumerate() {
        if rebuilt.id(token).is_none() {
            return Err(field(
                "vocab",
                format!(
                    "{token:?} (id {id}) is not a special token, a character, {EOW} or made by \
                     a merge"
                ),
            ));
        }
    }
    for token in rebuilt.tokens() {
        if !stored.contains(token) {
            return Err(field(
                "vocab",
                format!("{token:?}, which a merge makes, is missing"),
            ));
        }
    }
    for (id, (stored, expected)) in stored.iter().zip(rebuilt.tokens()).enumerate() {
        if stored != expected {
            return Err(field(
                "vocab",
                format!(
                    "the ids do not follow the {:?} order: id {id} is {stored:?}, expected \
                     {expected:?}",
                    rebuilt.order().name()
                ),
            ));
        }
    }
    Ok(())
}

/// Typed access to the top-level fields, with errors naming the field.
struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Result<&'a Value, FileProblem> {
        self.0.get(name).ok_or_else(|| field(name, "missing"))
    }

    fn str(&self, name: &str) -> Result<&'a str, FileProblem> {
        match self.get(name)? {
            Value::String(s) => Ok(s),
            other => Err(field(
                name,
                format!("is {}, expected a string", kind(other)),
            )),
        }
    }

    fn opt_str(&self, name: &str) -> Result<Option<&'a str>, FileProblem> {
        match self.0.get(name) {
            None => Ok(None),
            Some(_) => self.str(name).map(Some),
        }
    }

    fn u64(&self, name: &str) -> Result<u64, FileProblem> {
        let value = self.get(name)?;
        value.as_u64().ok_or_else(|| {
            field(
                name,
                format!("is {}, expected a whole number", shown(value)),
            )
        })
    }

    fn array(&self, name: &str) -> Result<&'a [Value], FileProblem> {
        match self.get(name)? {
            Value::Array(items) => Ok(items),
            other => Err(field(
                name,
                format!("is {}, expected an array", kind(other)),
            )),
        }
    }

    fn strings(&self, name: &str) -> Result<Vec<String>, FileProblem> {
        self.array(name)?
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(field(
                    name,
                    format!("item {i} is {}, expected a string", kind(other)),
                )),
            })
            .collect()
    }

    fn pairs(&self, name: &str) -> Result<Vec<(String, String)>, FileProblem> {
        self.array(name)?
            .iter()
            .enumerate()
            .map(|(i, item)| match item.as_array().map(Vec::as_slice) {
                Some([Value::String(l), Value::String(r)]) => Ok((l.clone(), r.clone())),
                _ => Err(field(
                    name,
                    format!(
                        "item {i} is {}, expected a [left, right] pair of strings",
                        shown(item)
                    ),
                )),
            })
            .collect()
    }

    /// The training fields, when `stop_reason` says there was a training.
    fn training(&self, merges: usize) -> Result<Option<TrainingInfo>, FileProblem> {
        if !self.0.contains_key("stop_reason") {
            return Ok(None);
        }
        let stop_reason = self.str("stop_reason")?;
        let stop_reason = parse_stop_reason(stop_reason).ok_or_else(|| {
            field(
                "stop_reason",
                format!("{stop_reason:?} is not merges_done, no_pairs or below_min_frequency"),
            )
        })?;
        let tie_break = self.str("tie_break")?;
        let tie_break = tie_break
            .parse()
            .map_err(|e: String| field("tie_break", e))?;
        let min_frequency = self.u64("min_frequency")?;
        let num_merges = usize::try_from(self.u64("merges_requested")?)
            .map_err(|_| field("merges_requested", "too large"))?;
        let merge_counts = self
            .array("merge_counts")?
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.as_u64().ok_or_else(|| {
                    field(
                        "merge_counts",
                        format!("item {i} is {}, expected a whole number", shown(c)),
                    )
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if merge_counts.len() != merges {
            return Err(field(
                "merge_counts",
                format!("has {} counts for {merges} merges", merge_counts.len()),
            ));
        }
        Ok(Some(TrainingInfo {
            settings: TrainingSettings {
                num_merges,
                tie_break,
                min_frequency,
            },
            stop_reason,
            merge_counts,
        }))
    }
}

/// A short description of a value for an error message: the value itself when it is small.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        format!("{} {text}", kind(value))
    } else {
        kind(value).to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_valid_json_with_one_merge_per_line() {
        let tokenizer = CharLevelTokenizer::train(&["low lower \"quoted\" \\ é"], 4);
        let text = tokenizer.to_json();
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["format"], FORMAT);
        assert_eq!(value["merges"].as_array().unwrap().len(), 4);
        assert!(text.contains("\n    [\"l\", \"o\"],\n"), "{text}");
    }

    #[test]
    fn stop_reason_names_round_trip() {
        for stop in [
            StopReason::MergesDone,
            StopReason::NoPairs,
            StopReason::BelowMinFrequency,
        ] {
            assert_eq!(parse_stop_reason(stop_reason_name(stop)), Some(stop));
        }
    }

    #[test]
    fn a_failed_save_names_the_file_and_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("t.json");
        let err = CharLevelTokenizer::train(&["ab"], 1)
            .save(&path)
            .unwrap_err();
        assert_eq!(err.path, path);
        assert!(matches!(err.problem, FileProblem::Io(_)));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
