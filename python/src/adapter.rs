//! The one place this crate touches the library's tokenizer types.
//!
//! The library is being reshaped (one tokenizer type for the byte-level and the lab's kind, one
//! training-settings type); everything the Python classes need goes through the functions and
//! types here, so that reshaping is a change to this file alone. Nothing here knows Python:
//! plain Rust values in, plain Rust values and [`AdapterError`] out.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::thread;

use bpe_lab::TieBreak;
use bpe_lab::bpe::bytelevel::{
    ByteTrainer, ChunkCounts, Piece, SplitPattern, Splitter, TokenIndex, UnknownPatternName,
    UnstableError, encode_unstable, pieces,
};
use bpe_lab::tokenizer::bytelevel::{
    AllowedSpecial, ByteLevelError, ByteLevelTokenizer, DisallowedSpecial,
};
use bpe_lab::tokenizer::{OpenAiEncoding, CharLevelTokenizer, TokenizerConfig, TrainingSettings};
use rustc_hash::FxHashMap;

/// A byte-level tokenizer (tiktoken's `CoreBPE`).
pub type ByteLevel = ByteLevelTokenizer;
/// The lab's character-level tokenizer (`</w>`, the tie rules).
pub type Lab = CharLevelTokenizer;
/// How many merges training has learned and was asked for.
pub type ProgressReport = bpe_lab::Progress;

/// What went wrong, in the terms of the Python caller. `Value` errors become `ValueError`,
/// `Key` errors `KeyError`, `Io` errors `OSError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdapterError {
    /// An argument the library refuses, with the library's message.
    Value(String),
    /// An id or token that is not in the vocabulary (tiktoken raises `KeyError`).
    Key(String),
    /// A file could not be written.
    Io(String),
    /// A text needs a single byte the ranks have no token for (tiktoken panics there, and
    /// Python sees `pyo3_runtime.PanicException`).
    MissingByte(String),
}

impl fmt::Display for AdapterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdapterError::Value(m)
            | AdapterError::Key(m)
            | AdapterError::Io(m)
            | AdapterError::MissingByte(m) => f.write_str(m),
        }
    }
}

fn value(e: impl fmt::Display) -> AdapterError {
    AdapterError::Value(e.to_string())
}

/// An encoding error: a missing byte as tiktoken's panic, anything else a `ValueError`.
fn encoding(e: ByteLevelError) -> AdapterError {
    match e {
        ByteLevelError::MissingBytes(_) => AdapterError::MissingByte(e.to_string()),
        other => value(other),
    }
}

/// The names of the production encodings this build has, in tiktoken's order.
pub fn encoding_names() -> Vec<&'static str> {
    OpenAiEncoding::ALL.iter().map(|e| e.name()).collect()
}

/// A production encoding by tiktoken's name; `None` for a name the library does not have.
pub fn openai(name: &str) -> Option<Result<ByteLevel, AdapterError>> {
    let encoding = OpenAiEncoding::ALL.into_iter().find(|e| e.name() == name)?;
    Some(encoding.tokenizer().map_err(value))
}

/// The split pattern for a name (`gpt2`, `gpt4`/`cl100k`, `o200k`, or an encoding's name) or, if
/// `is_regex`, for a regular expression (checked by compiling it).
pub fn pattern(text: &str, is_regex: bool) -> Result<SplitPattern, AdapterError> {
    let pattern = if is_regex {
        SplitPattern::from_regex(text)
    } else {
        text.parse::<SplitPattern>()
            .map_err(|UnknownPatternName(name)| {
                AdapterError::Value(format!(
                    "unknown pattern name {name:?}: the names are gpt2 (r50k_base), gpt4 \
                     (cl100k_base) and o200k (o200k_base); pass a regular expression with \
                     regex=True"
                ))
            })?
    };
    Splitter::new(pattern.clone()).map_err(value)?;
    Ok(pattern)
}

/// Whether the pattern asked for (a name, or a regex if `is_regex`) is the one a chunk table
/// names by its regular expression (its `pattern` column), as `bpe-lab train --byte-level
/// --word-counts` compares them; and the table's pattern as errors name it (`gpt4`, or the
/// regex of a user's).
pub fn same_pattern(
    asked: &str,
    is_regex: bool,
    table_regex: &str,
) -> Result<(bool, String), AdapterError> {
    let asked = pattern(asked, is_regex)?;
    let table = SplitPattern::from_regex(table_regex);
    Ok((asked == table, table.to_string()))
}

/// A byte-level tokenizer from any ranks, a regular expression and special tokens (tiktoken's
/// `Encoding(name, pat_str=…, mergeable_ranks=…, special_tokens=…)`). Ranks without every
/// single byte are accepted, as tiktoken accepts them; a text that needs a missing one fails
/// with [`AdapterError::MissingByte`].
pub fn byte_level(
    name: &str,
    ranks: Vec<(Vec<u8>, u32)>,
    regex: &str,
    specials: BTreeMap<String, u32>,
) -> Result<ByteLevel, AdapterError> {
    ByteLevelTokenizer::new_allowing_missing_bytes(name, ranks, pattern(regex, true)?, specials)
        .map_err(value)
}

/// The same ranks and pattern under another name with other special tokens (tiktoken's
/// `gpt2` is `r50k_base` renamed; `p50k_edit` is `p50k_base` with three more specials).
pub fn with_specials(
    tokenizer: &ByteLevel,
    name: &str,
    specials: BTreeMap<String, u32>,
) -> Result<ByteLevel, AdapterError> {
    let ranks = tokenizer
        .tokens()
        .into_iter()
        .map(|(b, r)| (b.to_vec(), r))
        .collect();
    ByteLevelTokenizer::new_allowing_missing_bytes(
        name,
        ranks,
        tokenizer.pattern().clone(),
        specials,
    )
    .map_err(value)
}

/// The ids of `text`, every special token as ordinary text (tiktoken's `encode_ordinary`).
pub fn encode_ordinary(tokenizer: &ByteLevel, text: &str) -> Result<Vec<u32>, AdapterError> {
    tokenizer.encode_ordinary(text).map_err(encoding)
}

/// The ids of `text`, the special tokens in `allowed` as themselves and every other one as
/// ordinary text (tiktoken's `CoreBPE.encode`: the caller has already refused the disallowed
/// ones). Names in `allowed` that are no special token of the tokenizer are ignored, as
/// tiktoken ignores them.
pub fn encode_allowing(
    tokenizer: &ByteLevel,
    text: &str,
    allowed: &[impl AsRef<str>],
) -> Result<Vec<u32>, AdapterError> {
    let known: BTreeSet<String> = allowed
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| tokenizer.specials().contains_key(*s))
        .map(str::to_owned)
        .collect();
    let allowed = if known.is_empty() {
        AllowedSpecial::None
    } else {
        AllowedSpecial::Only(known)
    };
    tokenizer
        .encode_with(text, &allowed, DisallowedSpecial::AsText)
        .map_err(encoding)
}

/// What [`encode_with_unstable`] needs beside the tokenizer, built once per tokenizer: the
/// compiled split pattern (compiling it is milliseconds) and the tokens in byte order.
pub struct Completer {
    splitter: Splitter,
    index: TokenIndex,
}

impl Completer {
    pub fn new(tokenizer: &ByteLevel) -> Result<Self, AdapterError> {
        Ok(Completer {
            splitter: Splitter::new(tokenizer.pattern().clone()).map_err(value)?,
            index: TokenIndex::new(tokenizer.ranks()),
        })
    }
}

/// tiktoken's `encode_with_unstable`: [`encode_allowing`]'s ids split into the stable ones and
/// the completions of the rest (the library's [`encode_unstable`]); the completions in no
/// particular order.
pub fn encode_with_unstable(
    tokenizer: &ByteLevel,
    completer: &Completer,
    text: &str,
    allowed: &[impl AsRef<str>],
) -> Result<(Vec<u32>, Vec<Vec<u32>>), AdapterError> {
    let ids = encode_allowing(tokenizer, text, allowed)?;
    let known: Vec<&str> = allowed
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| tokenizer.specials().contains_key(*s))
        .collect();
    // The text after the last allowed special token: only its last chunk can change.
    let tail = match pieces(text, &known).last() {
        Some(Piece::Text(t)) => *t,
        Some(Piece::Special(_)) | None => "",
    };
    let unstable = encode_unstable(
        tokenizer.ranks(),
        &completer.splitter,
        &completer.index,
        ids,
        tail,
    )
    .map_err(|e| match e {
        UnstableError::MissingByte => AdapterError::MissingByte(e.to_string()),
        UnstableError::Split(e) => value(e),
    })?;
    Ok((unstable.stable, unstable.completions.into_iter().collect()))
}

/// [`encode_ordinary`] of many texts on `threads` threads, in the texts' order (the library's
/// batch: one chunk cache per thread across the texts it takes).
pub fn encode_ordinary_batch<S: AsRef<str> + Sync>(
    tokenizer: &ByteLevel,
    texts: &[S],
    threads: usize,
) -> Result<Vec<Vec<u32>>, AdapterError> {
    tokenizer
        .encode_ordinary_batch(texts, threads)
        .map_err(encoding)
}

/// The ids of some bytes taken as one chunk, without splitting (tiktoken's
/// `encode_single_piece`): one token if they are one, else merged by rank.
pub fn encode_piece(tokenizer: &ByteLevel, bytes: &[u8]) -> Result<Vec<u32>, AdapterError> {
    let mut out = Vec::new();
    // No bytes, no ids (tiktoken's own `encode_single_piece` panics here).
    if bytes.is_empty() {
        return Ok(out);
    }
    if !tokenizer.ranks().encode_piece(bytes, &mut out) {
        return Err(encoding(ByteLevelError::MissingBytes(
            tokenizer.ranks().missing_bytes(),
        )));
    }
    Ok(out)
}

/// The byte length of the last chunk the split pattern finds in `text` (0 for none).
pub fn last_chunk_len(tokenizer: &ByteLevel, text: &str) -> Result<usize, AdapterError> {
    // The tokenizer's own splitter: compiling the pattern again cost more than the call.
    let chunks = tokenizer.chunks(text).map_err(value)?;
    Ok(chunks.last().map_or(0, |c| c.len()))
}

/// The bytes of `ids`; an id that is no token is tiktoken's `KeyError`.
pub fn decode_bytes(tokenizer: &ByteLevel, ids: &[u32]) -> Result<Vec<u8>, AdapterError> {
    let mut out = Vec::with_capacity(ids.len() * 4);
    for &id in ids {
        match tokenizer.token_bytes(id) {
            Some(bytes) => out.extend_from_slice(bytes),
            None => {
                return Err(AdapterError::Key(format!(
                    "Invalid token for decoding: {id}"
                )));
            }
        }
    }
    Ok(out)
}

/// The bytes of one id (a special token's text too).
pub fn token_bytes(tokenizer: &ByteLevel, id: u32) -> Option<&[u8]> {
    tokenizer.token_bytes(id)
}

/// The id of a token's bytes, ordinary or special.
pub fn token_id(tokenizer: &ByteLevel, bytes: &[u8]) -> Option<u32> {
    tokenizer.ranks().get(bytes).or_else(|| {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|s| tokenizer.specials().get(s).copied())
    })
}

/// Every ordinary token with its rank, ascending.
pub fn ranks(tokenizer: &ByteLevel) -> Vec<(&[u8], u32)> {
    tokenizer.tokens()
}

/// The special tokens and their ids.
pub fn specials(tokenizer: &ByteLevel) -> &BTreeMap<String, u32> {
    tokenizer.specials()
}

/// The split pattern's regular expression.
pub fn regex(tokenizer: &ByteLevel) -> &str {
    tokenizer.pattern().regex()
}

/// One past the highest id.
pub fn n_vocab(tokenizer: &ByteLevel) -> u32 {
    tokenizer.n_vocab()
}

pub fn name(tokenizer: &ByteLevel) -> &str {
    tokenizer.name()
}

/// Writes tiktoken's rank file to `path` and the pattern and specials to `path.json`; returns
/// the second path.
pub fn save_tiktoken(tokenizer: &ByteLevel, path: &Path) -> Result<String, AdapterError> {
    tokenizer
        .export_tiktoken(path)
        .map(|p| p.display().to_string())
        .map_err(|e| AdapterError::Io(e.to_string()))
}

/// Writes a Hugging Face `tokenizer.json` with the same ids.
pub fn save_hf(tokenizer: &ByteLevel, path: &Path) -> Result<(), AdapterError> {
    tokenizer
        .export_hf(path)
        .map_err(|e| AdapterError::Io(e.to_string()))
}

/// The tie rule by its Python name.
pub fn tie_break(name: &str) -> Result<TieBreak, AdapterError> {
    match name {
        "first_seen" => Ok(TieBreak::FirstSeen),
        "lexicographic" => Ok(TieBreak::Lexicographic),
        other => Err(AdapterError::Value(format!(
            "unknown tie_break {other:?}: expected \"first_seen\" or \"lexicographic\""
        ))),
    }
}

/// Byte-level training's input, counted as the texts come: each distinct chunk once with its
/// count, in order of first appearance (what the trainer's first-seen rule reads).
pub struct ChunkTally {
    splitter: Splitter,
    specials: Vec<String>,
    chunks: ChunkCounts,
    /// Whether some text held anything but whitespace (else there is nothing to train on).
    saw_text: bool,
}

impl ChunkTally {
    pub fn new(pattern: SplitPattern, specials: Vec<String>) -> Result<Self, AdapterError> {
        bpe_lab::tokenizer::bytelevel::check_specials(specials.iter().map(String::as_str))
            .map_err(value)?;
        Ok(ChunkTally {
            splitter: Splitter::new(pattern).map_err(value)?,
            specials,
            chunks: ChunkCounts::new(),
            saw_text: false,
        })
    }

    /// Counts the chunks of `texts`, each text on its own (no chunk crosses two), the texts
    /// dealt to `threads` threads in contiguous runs and the runs' tables merged in order, so
    /// the result is the same on any number of threads.
    pub fn add<'a, S: AsRef<str> + Sync>(
        &mut self,
        texts: &'a [S],
        threads: usize,
    ) -> Result<(), AdapterError> {
        let specials: Vec<&str> = self.specials.iter().map(String::as_str).collect();
        let splitter = &self.splitter;
        let count_run = |run: &'a [S]| count_run(splitter, &specials, run);
        let threads = threads.clamp(1, texts.len().max(1));
        let results = if threads == 1 {
            vec![count_run(texts)]
        } else {
            let share = texts.len().div_ceil(threads);
            thread::scope(|scope| {
                let handles: Vec<_> = texts
                    .chunks(share)
                    .map(|run| scope.spawn(move || count_run(run)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a counting thread panicked"))
                    .collect::<Vec<_>>()
            })
        };
        for result in results {
            let (counted, saw_text) = result?;
            self.saw_text |= saw_text;
            for (chunk, count) in counted {
                self.chunks.add(chunk, count);
            }
        }
        Ok(())
    }

    /// Adds chunks counted elsewhere (a `bpe-lab count --pattern` table, another shard).
    pub fn add_counts(&mut self, counts: impl IntoIterator<Item = (Vec<u8>, u64)>) {
        for (chunk, count) in counts {
            if count == 0 {
                continue;
            }
            self.saw_text = true;
            self.chunks.add(&chunk, count);
        }
    }

    /// The chunks counted so far and their counts, in order of first appearance.
    pub fn counts(&self) -> impl Iterator<Item = (&[u8], u64)> {
        self.chunks.iter()
    }

    /// Trains `num_merges` merges on what was counted and builds the tokenizer: ids 0..=255 the
    /// bytes, then the merged tokens, then the special tokens in the order given.
    pub fn train(
        self,
        name: &str,
        num_merges: usize,
        tie_break: TieBreak,
        progress: Option<&mut dyn FnMut(ProgressReport)>,
    ) -> Result<ByteLevel, AdapterError> {
        if !self.saw_text {
            return Err(AdapterError::Value(
                "the texts contain nothing to train on: they are empty or only whitespace \
                 (and special tokens)"
                    .into(),
            ));
        }
        if self.chunks.is_empty() {
            return Err(AdapterError::Value(format!(
                "the split pattern {:?} matches nothing in the texts, so there is nothing to \
                 train on",
                self.splitter.pattern().regex()
            )));
        }
        let chunks = self.chunks;
        let mut trainer = ByteTrainer::new(num_merges).tie_break(tie_break);
        if let Some(progress) = progress {
            trainer = trainer.on_progress(progress);
        }
        let training = trainer.train(&chunks);
        let specials: Vec<&str> = self.specials.iter().map(String::as_str).collect();
        ByteLevelTokenizer::from_training(
            name,
            &training,
            self.splitter.pattern().clone(),
            &specials,
        )
        .map_err(value)
    }
}

/// Distinct chunks of some texts with their counts, in order of first appearance.
type Counted<'t> = Vec<(&'t [u8], u64)>;

/// The distinct chunks of a run of texts with their counts, in order of first appearance, and
/// whether any text held more than whitespace.
fn count_run<'t, S: AsRef<str>>(
    splitter: &Splitter,
    specials: &[&str],
    run: &'t [S],
) -> Result<(Counted<'t>, bool), AdapterError> {
    let mut index: FxHashMap<&'t [u8], usize> = FxHashMap::default();
    let mut counted: Vec<(&'t [u8], u64)> = Vec::new();
    let mut saw_text = false;
    for text in run {
        for piece in pieces(text.as_ref(), specials) {
            let Piece::Text(piece) = piece else { continue };
            saw_text |= !piece.trim().is_empty();
            splitter
                .for_each_chunk(piece, 0, piece.len(), |chunk| {
                    let chunk = chunk.as_bytes();
                    match index.get(chunk) {
                        Some(&i) => counted[i].1 += 1,
                        None => {
                            index.insert(chunk, counted.len());
                            counted.push((chunk, 1));
                        }
                    }
                })
                .map_err(value)?;
        }
    }
    Ok((counted, saw_text))
}

/// Trains the lab's character-level tokenizer on paragraphs (split on single spaces, `</w>`).
pub fn train_lab(
    paragraphs: &[impl AsRef<str>],
    num_merges: usize,
    tie_break: TieBreak,
) -> Result<Lab, AdapterError> {
    CharLevelTokenizer::train_with(
        paragraphs,
        TrainingSettings::new(num_merges).tie_break(tie_break),
        TokenizerConfig::default(),
    )
    .map_err(value)
}

pub fn lab_encode(tokenizer: &Lab, text: &str) -> Vec<u32> {
    tokenizer.encode(text)
}

pub fn lab_tokenize(tokenizer: &Lab, text: &str) -> Vec<String> {
    tokenizer.tokenize(text)
}

pub fn lab_decode(tokenizer: &Lab, ids: &[u32]) -> Result<String, AdapterError> {
    tokenizer
        .decode(ids)
        .map_err(|e| AdapterError::Key(e.to_string()))
}

pub fn lab_merges(tokenizer: &Lab) -> &[(String, String)] {
    tokenizer.merges()
}

/// The vocabulary, index = id.
pub fn lab_vocab(tokenizer: &Lab) -> &[String] {
    tokenizer.vocab().tokens()
}

pub fn lab_save(tokenizer: &Lab, path: &Path) -> Result<(), AdapterError> {
    tokenizer
        .save(path)
        .map_err(|e| AdapterError::Io(e.to_string()))
}

pub fn lab_save_hf(tokenizer: &Lab, path: &Path) -> Result<(), AdapterError> {
    tokenizer
        .save_hf(path)
        .map_err(|e| AdapterError::Io(e.to_string()))
}

pub fn lab_load(path: &Path) -> Result<Lab, AdapterError> {
    CharLevelTokenizer::load(path).map_err(|e| AdapterError::Io(e.to_string()))
}
