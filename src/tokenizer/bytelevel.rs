//! The byte-level tokenizer (GPT-2 onwards): ranked byte-string tokens, a split pattern and
//! special tokens; text to ids by tiktoken's rules, and back.
//!
//! Encoding, as tiktoken does it:
//! 1. special tokens: every special the caller did not allow is either an error where it
//!    occurs ([`DisallowedSpecial::Error`], tiktoken's default) or plain text
//!    ([`DisallowedSpecial::AsText`]); allowed ones cut the text and become their own ids;
//! 2. each piece of text between allowed specials is split by the pattern on its own;
//! 3. each chunk becomes one token if its bytes are a token, else the adjacent pair whose
//!    concatenation has the lowest rank is merged, leftmost first, until none is a token.
//!
//! Ids are ranks. Every byte is a token (checked when the tokenizer is built), so every text
//! encodes, and decoding gives its bytes back exactly: there is no unknown token.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::thread;

use crate::bpe::bytelevel::{
    ByteTraining, ChunkCounts, Coverage, Piece, RankTable, SplitError, SplitPattern, Splitter,
    pieces,
};
use crate::bpe::train::TrainingSettings;
use crate::tokenizer::bytelevel_config::ByteLevelConfig;

/// Which special tokens a text may contain as special tokens.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AllowedSpecial {
    /// None (tiktoken's default `allowed_special=set()`).
    #[default]
    None,
    /// All of them (`allowed_special="all"`).
    All,
    /// These.
    Only(BTreeSet<String>),
}

/// What a special token the caller did not allow does in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DisallowedSpecial {
    /// Encoding fails (tiktoken's default `disallowed_special="all"`): the text was probably
    /// not meant to contain it.
    #[default]
    Error,
    /// It is encoded as the ordinary text it is (`disallowed_special=()`).
    AsText,
}

/// Why a text or a set of ids could not be encoded or decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByteLevelError {
    /// The text holds a special token the caller did not allow, at this byte offset.
    DisallowedSpecial { token: String, offset: usize },
    /// The split pattern failed.
    Split(SplitError),
    /// An id that is neither a token nor a special token, at this position of the ids.
    UnknownId { id: u32, position: usize },
    /// The ranks lack some single bytes, so some texts could not be encoded.
    MissingBytes(Vec<u8>),
    /// Two tokens or specials share an id, or a special token is also a rank's bytes.
    DuplicateId(u32),
    /// An allowed special token the tokenizer does not have.
    UnknownSpecial(String),
    /// A production encoding asked for in a build without the `openai` feature.
    NotBuiltIn(&'static str),
    /// The split pattern finds no chunk in a text that is not empty: there is nothing to train
    /// on.
    PatternMatchesNothing(String),
    /// A special token is the empty string (it would match between every two characters).
    EmptySpecial,
    /// A special token is also the bytes of a rank, so one text would have two ids.
    SpecialIsRank { special: String, rank: u32 },
    /// Two ranks are the same bytes: the first and the repeat.
    DuplicateToken {
        bytes: Vec<u8>,
        first: u32,
        again: u32,
    },
    /// The training text has nothing to train on: it is empty or only whitespace (and special
    /// tokens, which training never sees).
    EmptyCorpus,
}

impl fmt::Display for ByteLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ByteLevelError::DisallowedSpecial { token, offset } => write!(
                f,
                "the text contains the special token {token:?} at byte {offset}, which was \
                 not allowed; allow it, or encode it as ordinary text"
            ),
            ByteLevelError::Split(e) => write!(f, "{e}"),
            ByteLevelError::UnknownId { id, position } => {
                write!(
                    f,
                    "id {id} at position {position} is not a token of this tokenizer"
                )
            }
            ByteLevelError::MissingBytes(bytes) => write!(
                f,
                "the ranks have no token for the single bytes {bytes:02x?}: texts holding them \
                 could not be encoded"
            ),
            ByteLevelError::DuplicateId(id) => write!(f, "id {id} is given to two tokens"),
            ByteLevelError::UnknownSpecial(token) => {
                write!(f, "{token:?} is not a special token of this tokenizer")
            }
            ByteLevelError::PatternMatchesNothing(pattern) => write!(
                f,
                "the split pattern {pattern:?} matches nothing in the text, so there is \
                 nothing to train on"
            ),
            ByteLevelError::EmptySpecial => write!(
                f,
                "a special token is empty (it would match between every two characters)"
            ),
            ByteLevelError::SpecialIsRank { special, rank } => write!(
                f,
                "special token {special:?} is also the bytes of rank {rank}; the same text \
                 would have two ids"
            ),
            ByteLevelError::DuplicateToken {
                bytes,
                first,
                again,
            } => write!(
                f,
                "rank {again} repeats the bytes of rank {first} ({:?}); one text would have \
                 two ids",
                String::from_utf8_lossy(bytes)
            ),
            ByteLevelError::EmptyCorpus => write!(
                f,
                "it contains no text: it is empty or has only blank lines (or only special \
                 tokens)"
            ),
            ByteLevelError::NotBuiltIn(name) => write!(
                f,
                "{name} needs the rank files of the `openai` feature; build bpe-lab with \
                 `--features openai`"
            ),
        }
    }
}

impl std::error::Error for ByteLevelError {}

/// Refuses an empty special token, before anything is read or trained.
pub fn check_specials<'a>(
    specials: impl IntoIterator<Item = &'a str>,
) -> Result<(), ByteLevelError> {
    if specials.into_iter().any(str::is_empty) {
        return Err(ByteLevelError::EmptySpecial);
    }
    Ok(())
}

/// Every (bytes, id) the decoder holds, ids below `top`.
fn decoder_pairs(decoder: &Decoder, top: usize) -> Vec<(&[u8], u32)> {
    (0..top as u32)
        .filter_map(|id| decoder.get(id).map(|b| (b, id)))
        .collect()
}

impl From<SplitError> for ByteLevelError {
    fn from(e: SplitError) -> Self {
        ByteLevelError::Split(e)
    }
}

/// How a byte-level training went ([`ByteLevelTokenizer::train_reporting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteTrainingReport {
    pub merges_requested: usize,
    pub merges_learned: usize,
    /// Why training stopped: the merges asked for, no pair left (every chunk one token), or
    /// the next pair rarer than the minimum frequency.
    pub stop: crate::StopReason,
    pub distinct_chunks: usize,
    pub total_chunks: u64,
}

/// A byte-level BPE tokenizer: ranks, split pattern, special tokens.
///
/// ```
/// use bpe_lab::TieBreak;
/// use bpe_lab::bpe::bytelevel::SplitPattern;
/// use bpe_lab::tokenizer::bytelevel::{AllowedSpecial, ByteLevelTokenizer};
/// use bpe_lab::tokenizer::{ByteLevelConfig, TrainingSettings};
/// let text = "the cat sat on the mat; the cat ate";
/// let settings = TrainingSettings::new(20).tie_break(TieBreak::FirstSeen);
/// let config = ByteLevelConfig::new(SplitPattern::Cl100k).special_tokens(["<|endoftext|>"]);
/// let tokenizer = ByteLevelTokenizer::train_with(text, settings, &config).unwrap();
/// let ids = tokenizer.encode("the cat<|endoftext|>", &AllowedSpecial::All).unwrap();
/// assert_eq!(tokenizer.decode(&ids).unwrap(), "the cat<|endoftext|>");
/// assert!(tokenizer.encode("<|endoftext|>", &AllowedSpecial::None).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct ByteLevelTokenizer {
    name: String,
    ranks: RankTable,
    /// Each id's bytes, all in one buffer (a box per token made loading an encoding mostly
    /// allocation).
    decoder: Decoder,
    splitter: Splitter,
    /// Special tokens and their ids, in ascending order of the text.
    specials: BTreeMap<String, u32>,
    /// Whether its training let the pattern leave text unmatched (then dropped on encoding).
    coverage: Coverage,
}

impl ByteLevelTokenizer {
    /// A tokenizer from ranked tokens (as a tiktoken file gives them), a split pattern and
    /// special tokens. Every single byte must have a rank; ids must be distinct.
    pub fn new(
        name: impl Into<String>,
        tokens: Vec<(Vec<u8>, u32)>,
        pattern: SplitPattern,
        specials: BTreeMap<String, u32>,
    ) -> Result<Self, ByteLevelError> {
        Self::build(name, tokens, pattern, specials, false)
    }

    /// [`ByteLevelTokenizer::new`] that accepts ranks without every single byte, as
    /// tiktoken's `Encoding` does: a text whose merging leaves a byte that has no rank fails
    /// to encode with [`ByteLevelError::MissingBytes`] (tiktoken panics there), every other
    /// text encodes as with the full table.
    pub fn new_allowing_missing_bytes(
        name: impl Into<String>,
        tokens: Vec<(Vec<u8>, u32)>,
        pattern: SplitPattern,
        specials: BTreeMap<String, u32>,
    ) -> Result<Self, ByteLevelError> {
        Self::build(name, tokens, pattern, specials, true)
    }

    fn build(
        name: impl Into<String>,
        tokens: Vec<(Vec<u8>, u32)>,
        pattern: SplitPattern,
        specials: BTreeMap<String, u32>,
        allow_missing_bytes: bool,
    ) -> Result<Self, ByteLevelError> {
        let splitter = Splitter::new(pattern)?;
        check_specials(specials.keys().map(String::as_str))?;
        let top = tokens
            .iter()
            .map(|&(_, r)| r)
            .chain(specials.values().copied())
            .max()
            .map_or(0, |m| m as usize + 1);
        let ordinary = tokens.iter().map(|(b, r)| (&b[..], *r));
        // Two specials may share an id (tiktoken's o200k_harmony: `<|endofprompt|>` and
        // `<|reserved_200018|>`): both encode to it, it decodes to the first by text.
        let mut seen = std::collections::HashSet::new();
        let special: Vec<(&[u8], u32)> = (specials.iter())
            .filter(|&(_, &id)| seen.insert(id))
            .map(|(s, &id)| (s.as_bytes(), id))
            .collect();
        let special = special.into_iter();
        let decoder = Decoder::new(top, ordinary.chain(special))?;
        let count = tokens.len();
        let ranks = RankTable::new(tokens);
        if ranks.len() != count {
            // Rare, so found again slowly: the table kept one rank per bytes.
            let mut first: std::collections::HashMap<&[u8], u32> = Default::default();
            let mut sorted: Vec<(&[u8], u32)> = decoder_pairs(&decoder, top);
            sorted.sort_by_key(|&(_, id)| id);
            for (bytes, id) in sorted {
                if specials.values().any(|&s| s == id) {
                    continue;
                }
                if let Some(&earlier) = first.get(bytes) {
                    return Err(ByteLevelError::DuplicateToken {
                        bytes: bytes.to_vec(),
                        first: earlier,
                        again: id,
                    });
                }
                first.insert(bytes, id);
            }
        }
        for (special, _) in specials.iter() {
            if let Some(rank) = ranks.get(special.as_bytes()) {
                return Err(ByteLevelError::SpecialIsRank {
                    special: special.clone(),
                    rank,
                });
            }
        }
        let missing = ranks.missing_bytes();
        if !missing.is_empty() && !allow_missing_bytes {
            return Err(ByteLevelError::MissingBytes(missing));
        }
        Ok(ByteLevelTokenizer {
            name: name.into(),
            ranks,
            decoder,
            splitter,
            specials,
            coverage: Coverage::Whole,
        })
    }

    /// The same tokenizer, saying `coverage` (`train --allow-uncovered` records
    /// [`Coverage::DropsUnmatched`]; its file keeps it).
    pub fn with_coverage(mut self, coverage: Coverage) -> Self {
        self.coverage = coverage;
        self
    }

    /// Whether it encodes every text whole or drops what its pattern does not match.
    pub fn coverage(&self) -> Coverage {
        self.coverage
    }

    /// The tokenizer of a byte-level training: ids 0..=255 the bytes, then the merged tokens
    /// ([`ByteTraining::tokens`]), then `specials` in the order given.
    pub fn from_training(
        name: impl Into<String>,
        training: &ByteTraining,
        pattern: SplitPattern,
        specials: &[&str],
    ) -> Result<Self, ByteLevelError> {
        let tokens: Vec<(Vec<u8>, u32)> = training.tokens().into_iter().zip(0u32..).collect();
        let first = tokens.len() as u32;
        let specials = specials
            .iter()
            .zip(first..)
            .map(|(s, id)| (s.to_string(), id))
            .collect();
        Self::new(name, tokens, pattern, specials)
    }

    /// Learns `num_merges` merges from `text` with GPT-4's split pattern, no special tokens
    /// and the lexicographic tie-break ([`ByteLevelConfig::default`],
    /// [`TrainingSettings::new`]), with the engine's exact trainer on all cores.
    pub fn train(text: &str, num_merges: usize) -> Result<Self, ByteLevelError> {
        Self::train_with(
            text,
            TrainingSettings::new(num_merges),
            &ByteLevelConfig::default(),
        )
    }

    /// Learns merges from `text` with `settings` and builds a tokenizer with `config`: the
    /// text is cut at the config's special tokens (which training never sees) and split by
    /// its pattern. The same two arguments as [`CharLevelTokenizer::train_with`]'s, each
    /// kind's config its own.
    ///
    /// [`CharLevelTokenizer::train_with`]: crate::tokenizer::CharLevelTokenizer::train_with
    pub fn train_with(
        text: &str,
        settings: TrainingSettings,
        config: &ByteLevelConfig,
    ) -> Result<Self, ByteLevelError> {
        Self::train_reporting(text, settings, config).map(|(tokenizer, _)| tokenizer)
    }

    /// [`ByteLevelTokenizer::train_with`], also saying how training went: how many merges,
    /// why it stopped, how many chunks. A text in which the pattern finds no chunk at all is
    /// an error ([`ByteLevelError::PatternMatchesNothing`]).
    pub fn train_reporting(
        text: &str,
        settings: TrainingSettings,
        config: &ByteLevelConfig,
    ) -> Result<(Self, ByteTrainingReport), ByteLevelError> {
        let specials = config.specials();
        let splitter = Splitter::new(config.pattern.clone())?;
        check_specials(specials.iter().copied())?;
        let threads = thread::available_parallelism().map_or(1, |n| n.get());
        // As character-level training refuses a corpus without words.
        if pieces(text, &specials)
            .iter()
            .all(|p| !matches!(p, Piece::Text(t) if !t.trim().is_empty()))
        {
            return Err(ByteLevelError::EmptyCorpus);
        }
        let chunks = ChunkCounts::from_text(text, &splitter, &specials, threads)?;
        if chunks.is_empty()
            && pieces(text, &specials)
                .iter()
                .any(|p| matches!(p, Piece::Text(_)))
        {
            return Err(ByteLevelError::PatternMatchesNothing(
                config.pattern.regex().to_owned(),
            ));
        }
        Self::train_chunks(&chunks, settings, config)
    }

    /// [`ByteLevelTokenizer::train_reporting`] from chunks counted elsewhere (a chunk table:
    /// `bpe-lab count --pattern`, shards summed), split by the config's pattern with the text
    /// cut at its special tokens: the same tokenizer as training on the text those counts came
    /// from, since training reads nothing of the text but its distinct chunks in order of
    /// first appearance. Chunks that are all whitespace are no corpus, as for text
    /// ([`ByteLevelError::EmptyCorpus`]).
    pub fn train_counts_reporting(
        chunks: &ChunkCounts,
        settings: TrainingSettings,
        config: &ByteLevelConfig,
    ) -> Result<(Self, ByteTrainingReport), ByteLevelError> {
        Splitter::new(config.pattern.clone())?;
        check_specials(config.specials().iter().copied())?;
        // The text's rule, read from its chunks: a pattern that covers the text (the built-in
        // ones do) leaves only whitespace chunks exactly when the text is only whitespace.
        if chunks
            .iter()
            .all(|(c, _)| std::str::from_utf8(c).is_ok_and(|t| t.trim().is_empty()))
        {
            return Err(ByteLevelError::EmptyCorpus);
        }
        Self::train_chunks(chunks, settings, config)
    }

    /// Training proper, on counted chunks, and the tokenizer it makes.
    fn train_chunks(
        chunks: &ChunkCounts,
        settings: TrainingSettings,
        config: &ByteLevelConfig,
    ) -> Result<(Self, ByteTrainingReport), ByteLevelError> {
        let training = crate::bpe::bytelevel::ByteTrainer::from_settings(settings).train(chunks);
        let report = ByteTrainingReport {
            merges_requested: settings.num_merges,
            merges_learned: training.merges.len(),
            stop: training.stop,
            distinct_chunks: chunks.len(),
            total_chunks: chunks.total(),
        };
        let tokenizer = Self::from_training(
            "bpe-lab",
            &training,
            config.pattern.clone(),
            &config.specials(),
        )?;
        Ok((tokenizer, report))
    }

    /// The name (tiktoken's `Encoding.name`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The split pattern.
    pub fn pattern(&self) -> &SplitPattern {
        self.splitter.pattern()
    }

    /// The chunks the split pattern cuts `text` into, with the pattern compiled once when the
    /// tokenizer was made (special tokens are text here).
    pub fn chunks<'t>(&self, text: &'t str) -> Result<Vec<&'t str>, SplitError> {
        self.splitter.chunks(text)
    }

    /// The special tokens and their ids.
    pub fn specials(&self) -> &BTreeMap<String, u32> {
        &self.specials
    }

    /// The rank table.
    pub fn ranks(&self) -> &RankTable {
        &self.ranks
    }

    /// One past the highest id.
    pub fn n_vocab(&self) -> u32 {
        self.decoder.spans.len() as u32
    }

    /// The bytes of an id (a special token's text as bytes); `None` for no token.
    pub fn token_bytes(&self, id: u32) -> Option<&[u8]> {
        self.decoder.get(id)
    }

    /// Every ordinary token with its rank, ascending.
    pub fn tokens(&self) -> Vec<(&[u8], u32)> {
        let mut tokens: Vec<(&[u8], u32)> = self.ranks.iter().collect();
        tokens.sort_by_key(|&(_, r)| r);
        tokens
    }

    /// The ids of `text`, with the special tokens in `allowed` encoded as themselves and any
    /// other special token an error (tiktoken's `encode`).
    pub fn encode(&self, text: &str, allowed: &AllowedSpecial) -> Result<Vec<u32>, ByteLevelError> {
        self.encode_with(text, allowed, DisallowedSpecial::Error)
    }

    /// The ids of `text` with every special token treated as text (tiktoken's
    /// `encode_ordinary`).
    pub fn encode_ordinary(&self, text: &str) -> Result<Vec<u32>, ByteLevelError> {
        self.encode_in_parts(text, &AllowedSpecial::None, DisallowedSpecial::AsText, 1, 1)
    }

    /// The ids of `text`, saying what allowed and other special tokens do.
    pub fn encode_with(
        &self,
        text: &str,
        allowed: &AllowedSpecial,
        others: DisallowedSpecial,
    ) -> Result<Vec<u32>, ByteLevelError> {
        self.encode_in_parts(text, allowed, others, 1, 1)
    }

    /// The compiled split pattern.
    pub(crate) fn splitter(&self) -> &Splitter {
        &self.splitter
    }

    /// [`ByteLevelTokenizer::encode_ordinary`] of many texts on `threads` threads, in the order
    /// of `texts`; each thread keeps one chunk cache across the texts it takes
    /// ([`encode_batch`](crate::bpe::bytelevel::encode_batch)).
    pub fn encode_ordinary_batch<S: AsRef<str> + Sync>(
        &self,
        texts: &[S],
        threads: usize,
    ) -> Result<Vec<Vec<u32>>, ByteLevelError> {
        use crate::bpe::bytelevel::{BatchError, encode_batch};
        encode_batch(&self.ranks, &self.splitter, texts, threads).map_err(|e| match e {
            BatchError::Split { error, .. } => ByteLevelError::Split(error),
            BatchError::MissingByte { .. } => {
                ByteLevelError::MissingBytes(self.ranks.missing_bytes())
            }
        })
    }

    /// The bytes of `ids`, special tokens as their text.
    pub fn decode_bytes(&self, ids: &[u32]) -> Result<Vec<u8>, ByteLevelError> {
        let mut out = Vec::with_capacity(ids.len() * 4);
        for (position, &id) in ids.iter().enumerate() {
            let bytes = self
                .token_bytes(id)
                .ok_or(ByteLevelError::UnknownId { id, position })?;
            out.extend_from_slice(bytes);
        }
        Ok(out)
    }

    /// The text of `ids`; bytes that are not UTF-8 (ids cut inside a character) become
    /// U+FFFD, as in tiktoken's `decode`.
    pub fn decode(&self, ids: &[u32]) -> Result<String, ByteLevelError> {
        Ok(String::from_utf8_lossy(&self.decode_bytes(ids)?).into_owned())
    }
}

/// Each id's bytes: one buffer, and each id's (start, end) in it, `(0, NO_TOKEN)` for an id
/// that is no token (rank files may leave gaps).
#[derive(Debug, Clone, Default)]
struct Decoder {
    bytes: Vec<u8>,
    spans: Vec<(u32, u32)>,
}

const NO_TOKEN: u32 = u32::MAX;

impl Decoder {
    /// Ids `0..top`, from (bytes, id) pairs; an id given twice is an error.
    fn new<'b>(
        top: usize,
        tokens: impl Iterator<Item = (&'b [u8], u32)> + Clone,
    ) -> Result<Self, ByteLevelError> {
        let size = tokens.clone().map(|(b, _)| b.len()).sum();
        let mut decoder = Decoder {
            bytes: Vec::with_capacity(size),
            spans: vec![(0, NO_TOKEN); top],
        };
        for (bytes, id) in tokens {
            let span = &mut decoder.spans[id as usize];
            if span.1 != NO_TOKEN {
                return Err(ByteLevelError::DuplicateId(id));
            }
            let start = decoder.bytes.len() as u32;
            decoder.bytes.extend_from_slice(bytes);
            *span = (start, decoder.bytes.len() as u32);
        }
        Ok(decoder)
    }

    fn get(&self, id: u32) -> Option<&[u8]> {
        let &(start, end) = self.spans.get(id as usize)?;
        (end != NO_TOKEN).then(|| &self.bytes[start as usize..end as usize])
    }
}
