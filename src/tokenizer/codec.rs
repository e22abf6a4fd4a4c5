//! The tokenizer: text to tokens to ids, and ids back to text.
//!
//! Encoding cuts the text into words ([`Split`]), makes each word its characters followed by
//! `</w>`, applies the merges with the apply-merges problem's rule (lowest rank first, leftmost occurrence) on
//! the cached fast [`Encoder`], and looks every token up in the [`Vocab`]. A character the
//! vocabulary does not hold becomes `<UNK>` (one `<UNK>` per character); nothing is dropped.
//!
//! Decoding writes each token's text, turning the `</w>` that ends a token into a word
//! boundary, a single space. The boundary after the last word is not written, so under the
//! lab's split ([`Split::Space`]) decoding gives back exactly the text that was encoded (every
//! space is a boundary, an empty word is a lone `</w>`), and under [`Split::Whitespace`] it
//! gives the words joined by single spaces. Special tokens decode to their own text: where an
//! unknown character stood, the decoded text says `<UNK>`.
//!
//! ```
//! use bpe_lab::tokenizer::CharLevelTokenizer;
//! let tokenizer = CharLevelTokenizer::train(&["low lower lowest", "slow  flow"], 10);
//! let ids = tokenizer.encode("slow  lower");
//! assert_eq!(tokenizer.decode(&ids).unwrap(), "slow  lower");
//! // 'a', 'z' and 'y' were never seen in training: each becomes <UNK>, and decoding says so.
//! let ids = tokenizer.encode("lazy");
//! assert_eq!(tokenizer.decode(&ids).unwrap(), "l<UNK><UNK><UNK>");
//! ```

use std::collections::BTreeSet;
use std::fmt;

use std::sync::Mutex;

use crate::bpe::EOW;
use crate::bpe::encode::{Encoder, MergeTable};
pub use crate::bpe::train::TrainingSettings;
use crate::bpe::train::{Progress, StopReason, Trainer, Training};
use crate::bpe::words::WordCounts;
use crate::tokenizer::error::{DecodeError, TokenizerError};
use crate::tokenizer::split::Split;
use crate::tokenizer::vocab::{Vocab, VocabOrder};

/// The special tokens a tokenizer gets unless told otherwise: `<PAD>` (id 0) and `<UNK>` (id 1).
pub const DEFAULT_SPECIAL_TOKENS: [&str; 2] = ["<PAD>", "<UNK>"];

/// The token characters outside the vocabulary become, unless told otherwise.
pub const DEFAULT_UNK_TOKEN: &str = "<UNK>";

/// The settings of a tokenizer other than its merges: special tokens, id order, word split.
///
/// ```
/// use bpe_lab::tokenizer::{Split, TokenizerConfig, VocabOrder};
/// let config = TokenizerConfig::default()
///     .special_tokens(["<PAD>", "<UNK>", "<BOS>"])
///     .order(VocabOrder::Sorted)
///     .split(Split::Whitespace);
/// assert_eq!(config.unk_token, "<UNK>");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenizerConfig {
    /// Special tokens, in id order from 0. Must include [`TokenizerConfig::unk_token`].
    pub special_tokens: Vec<String>,
    /// The token every character outside the vocabulary becomes.
    pub unk_token: String,
    /// How ids are assigned.
    pub order: VocabOrder,
    /// How text is cut into words when encoding.
    pub split: Split,
}

impl Default for TokenizerConfig {
    fn default() -> Self {
        TokenizerConfig {
            special_tokens: DEFAULT_SPECIAL_TOKENS.map(String::from).to_vec(),
            unk_token: DEFAULT_UNK_TOKEN.to_owned(),
            order: VocabOrder::default(),
            split: Split::default(),
        }
    }
}

impl TokenizerConfig {
    pub fn special_tokens<S: Into<String>>(mut self, tokens: impl IntoIterator<Item = S>) -> Self {
        self.special_tokens = tokens.into_iter().map(Into::into).collect();
        self
    }

    pub fn unk_token(mut self, token: impl Into<String>) -> Self {
        self.unk_token = token.into();
        self
    }

    pub fn order(mut self, order: VocabOrder) -> Self {
        self.order = order;
        self
    }

    pub fn split(mut self, split: Split) -> Self {
        self.split = split;
        self
    }

    /// The checks of the special tokens that hold whatever the corpus (none empty or repeated,
    /// the unknown token among them, none containing `</w>`): for callers that want to fail
    /// before a long training rather than after it.
    pub fn check(&self) -> Result<(), TokenizerError> {
        check_specials(self, &BTreeSet::new())
    }
}

/// What is known about the training that produced a tokenizer (kept in its file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainingInfo {
    pub settings: TrainingSettings,
    pub stop_reason: StopReason,
    /// How often each merge's pair occurred when it was chosen.
    pub merge_counts: Vec<u64>,
}

/// A trained BPE tokenizer: alphabet, merges, vocabulary and settings.
///
/// Encoding caches the tokens of every distinct word it has met (the engine's [`Encoder`],
/// behind a lock so that encoding takes `&self`); threads that encode a lot each use a clone,
/// or [`CharLevelTokenizer::encode_word_uncached`] with a cache of their own.
pub struct CharLevelTokenizer {
    alphabet: BTreeSet<char>,
    merges: Vec<(String, String)>,
    vocab: Vocab,
    split: Split,
    training: Option<TrainingInfo>,
    /// The merges compiled for lookup, with `</w>` interned; read-only.
    table: MergeTable,
    /// The vocabulary id of each of the table's symbol ids.
    to_vocab: Vec<u32>,
    /// The table's symbol id of each ASCII character ([`NO_SYMBOL`] if the merges never use
    /// it), for [`CharLevelTokenizer::encode_word_uncached`].
    ascii: [u32; 128],
    /// `</w>`'s id in the table.
    eow_symbol: u32,
    /// The cached encoder used by [`CharLevelTokenizer::encode`].
    cached: Mutex<CachedEncoder>,
}

/// The engine's cached [`Encoder`] and the vocabulary ids of its symbols. The encoder gives
/// every new character a symbol id of its own; those are looked up once, then mapped by index.
#[derive(Clone)]
struct CachedEncoder {
    encoder: Encoder,
    to_vocab: Vec<u32>,
}

impl Clone for CharLevelTokenizer {
    fn clone(&self) -> Self {
        CharLevelTokenizer {
            alphabet: self.alphabet.clone(),
            merges: self.merges.clone(),
            vocab: self.vocab.clone(),
            split: self.split,
            training: self.training.clone(),
            table: self.table.clone(),
            to_vocab: self.to_vocab.clone(),
            ascii: self.ascii,
            eow_symbol: self.eow_symbol,
            cached: Mutex::new(self.lock().clone()),
        }
    }
}

/// Marks an ASCII character no merge uses.
const NO_SYMBOL: u32 = u32::MAX;

/// [`CharLevelTokenizer::encode_word_uncached`] gives a character no merge uses the id
/// `OUTSIDE - its byte offset`: no merge rule matches it, and the character can be found again.
const OUTSIDE: u32 = u32::MAX - 1;

impl fmt::Debug for CharLevelTokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CharLevelTokenizer")
            .field("alphabet", &self.alphabet.len())
            .field("merges", &self.merges.len())
            .field("vocab", &self.vocab.len())
            .field("order", &self.vocab.order())
            .field("special_tokens", &self.vocab.special_tokens())
            .field("split", &self.split)
            .finish_non_exhaustive()
    }
}

impl CharLevelTokenizer {
    /// Learns `num_merges` merges from `paragraphs` (the lab's initialization, lexicographic
    /// tie-break) and builds a tokenizer with the default settings.
    ///
    /// ```
    /// use bpe_lab::tokenizer::CharLevelTokenizer;
    /// let tokenizer = CharLevelTokenizer::train(&["the cat", "the hat"], 3);
    /// assert_eq!(tokenizer.merges()[0], ("a".to_string(), "t".to_string()));
    /// assert_eq!(tokenizer.vocab().id("<UNK>"), Some(1));
    /// ```
    pub fn train(paragraphs: &[impl AsRef<str>], num_merges: usize) -> CharLevelTokenizer {
        CharLevelTokenizer::train_with(
            paragraphs,
            TrainingSettings::new(num_merges),
            TokenizerConfig::default(),
        )
        .expect("the default special tokens are never base symbols")
    }

    /// Learns merges from `paragraphs` with `settings` and builds a tokenizer with `config`.
    pub fn train_with(
        paragraphs: &[impl AsRef<str>],
        settings: TrainingSettings,
        config: TokenizerConfig,
    ) -> Result<CharLevelTokenizer, TokenizerError> {
        let training = Trainer::from_settings(settings).train_paragraphs(paragraphs);
        CharLevelTokenizer::from_training(&training, settings, config)
    }

    /// Learns merges from `words` with `settings`, calling `on_progress` after every merge, and
    /// builds a tokenizer with `config` (what `bpe-lab train` does with a corpus file). The
    /// training's stop reason and counts are in [`CharLevelTokenizer::training`].
    pub fn train_words(
        words: WordCounts,
        settings: TrainingSettings,
        config: TokenizerConfig,
        on_progress: impl FnMut(Progress),
    ) -> Result<CharLevelTokenizer, TokenizerError> {
        let training = Trainer::from_settings(settings)
            .on_progress(on_progress)
            .train(words);
        CharLevelTokenizer::from_training(&training, settings, config)
    }

    /// A tokenizer from a finished training on text (paragraphs, lines or word counts, whose
    /// base symbols are characters and `</w>`); `settings` records how it was trained. The
    /// alphabet is every character the training saw.
    pub fn from_training(
        training: &Training,
        settings: TrainingSettings,
        config: TokenizerConfig,
    ) -> Result<CharLevelTokenizer, TokenizerError> {
        let alphabet = training
            .words
            .symbols()
            .iter()
            .filter_map(single_char)
            .collect();
        // Training never learned the same pair twice in any case we generated; if it ever
        // did, only the first listing could apply (the apply-merges problem), so the later ones are dropped
        // rather than making the file unreadable.
        let mut seen = rustc_hash::FxHashSet::default();
        let (merges, merge_counts): (Vec<_>, Vec<_>) = training
            .merges
            .iter()
            .zip(&training.merge_counts)
            .filter(|(pair, _)| seen.insert(*pair))
            .map(|(pair, &count)| (pair.clone(), count))
            .unzip();
        let info = TrainingInfo {
            settings,
            stop_reason: training.stop,
            merge_counts,
        };
        CharLevelTokenizer::assemble(alphabet, merges, config, Some(info))
    }

    /// A tokenizer from a base alphabet (characters; `</w>` is always added) and a merge list.
    /// Every merge's parts must be in the alphabet or made by an earlier merge, and no merge
    /// may be listed twice.
    ///
    /// ```
    /// use bpe_lab::tokenizer::{CharLevelTokenizer, TokenizerConfig};
    /// let merges = vec![("a".to_string(), "b".to_string())];
    /// let tokenizer = CharLevelTokenizer::new("abc".chars(), merges, TokenizerConfig::default()).unwrap();
    /// assert_eq!(tokenizer.tokenize("abc ab"), ["ab", "c", "</w>", "ab", "</w>"]);
    /// ```
    pub fn new(
        alphabet: impl IntoIterator<Item = char>,
        merges: Vec<(String, String)>,
        config: TokenizerConfig,
    ) -> Result<CharLevelTokenizer, TokenizerError> {
        CharLevelTokenizer::assemble(alphabet.into_iter().collect(), merges, config, None)
    }

    pub(crate) fn assemble(
        alphabet: BTreeSet<char>,
        merges: Vec<(String, String)>,
        config: TokenizerConfig,
        training: Option<TrainingInfo>,
    ) -> Result<CharLevelTokenizer, TokenizerError> {
        check_specials(&config, &alphabet)?;
        check_merges(&alphabet, &merges)?;
        let vocab = Vocab::build(
            &config.special_tokens,
            &config.unk_token,
            alphabet.iter().copied(),
            &merges,
            config.order,
        );
        let encoder = Encoder::new(&merges);
        let table = encoder.table().clone();
        let symbols = table.symbols();
        let mut ascii = [NO_SYMBOL; 128];
        for (c, id) in ascii.iter_mut().enumerate() {
            if let Some(symbol) = symbols.lookup(&(c as u8 as char).to_string()) {
                *id = symbol;
            }
        }
        let eow_symbol = symbols.lookup(EOW).expect("the encoder interns </w>");
        // Every symbol of the table is `</w>`, an alphabet character or a merge's part or
        // result, all in the vocabulary (checked above).
        let to_vocab: Vec<u32> = symbols
            .iter()
            .map(|symbol| {
                vocab
                    .id(symbol)
                    .expect("merge symbols are in the vocabulary")
            })
            .collect();
        let tokenizer = CharLevelTokenizer {
            alphabet,
            merges,
            vocab,
            split: config.split,
            training,
            cached: Mutex::new(CachedEncoder {
                encoder,
                to_vocab: to_vocab.clone(),
            }),
            table,
            to_vocab,
            ascii,
            eow_symbol,
        };
        Ok(tokenizer)
    }

    /// The base alphabet: the characters that are tokens on their own (`</w>` is one too).
    pub fn alphabet(&self) -> &BTreeSet<char> {
        &self.alphabet
    }

    /// The merges, in rank order.
    pub fn merges(&self) -> &[(String, String)] {
        &self.merges
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// How text is cut into words when encoding.
    pub fn split(&self) -> Split {
        self.split
    }

    /// Changes how text is cut into words (the merges and ids stay as they are).
    pub fn set_split(&mut self, split: Split) {
        self.split = split;
    }

    /// The settings this tokenizer was built with.
    pub fn config(&self) -> TokenizerConfig {
        TokenizerConfig {
            special_tokens: self.vocab.special_tokens().to_vec(),
            unk_token: self.vocab.unk_token().to_owned(),
            order: self.vocab.order(),
            split: self.split,
        }
    }

    /// How the merges were learned, when the tokenizer came from a training.
    pub fn training(&self) -> Option<&TrainingInfo> {
        self.training.as_ref()
    }

    /// The ids of `text`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.encode_into(text, &mut out);
        out
    }

    /// Appends the ids of `text` to `out`.
    pub fn encode_into(&self, text: &str, out: &mut Vec<u32>) {
        crate::exercise::guard::answer_used(
            crate::exercise::Exercise::Encode,
            "bpe_lab::CharLevelTokenizer::encode",
        );
        let mut cached = self.lock();
        for word in self.split.words(text) {
            cached.encode_word_into(word, &self.vocab, out);
        }
    }

    /// Appends the ids of one word (its characters and `</w>`, merged) to `out`.
    pub fn encode_word_into(&self, word: &str, out: &mut Vec<u32>) {
        self.lock().encode_word_into(word, &self.vocab, out);
    }

    /// The cached encoder. A panic while it was held cannot leave it inconsistent in a way
    /// that matters (at worst a word is encoded again), so a poisoned lock is taken anyway.
    fn lock(&self) -> std::sync::MutexGuard<'_, CachedEncoder> {
        self.cached
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The ids of one word, like [`CharLevelTokenizer::encode_word_into`] but without the cache, and
    /// so through a shared reference: for callers that cache words themselves, or encode on
    /// several threads with one tokenizer. `ids` is cleared first.
    ///
    /// ```
    /// use bpe_lab::tokenizer::CharLevelTokenizer;
    /// let tokenizer = CharLevelTokenizer::train(&["low lower lowest"], 5);
    /// let mut ids = Vec::new();
    /// tokenizer.encode_word_uncached("slowest", &mut ids);
    /// assert_eq!(ids, tokenizer.encode("slowest"));
    /// ```
    pub fn encode_word_uncached(&self, word: &str, ids: &mut Vec<u32>) {
        let table = &self.table;
        // Offsets must stay clear of the table's ids (a word of 2 GiB is not text anyway).
        assert!(word.len() < 1 << 31, "a word longer than 2 GiB");
        ids.clear();
        for (offset, c) in word.char_indices() {
            let symbol = if c.is_ascii() {
                self.ascii[c as usize]
            } else {
                table
                    .symbols()
                    .lookup(c.encode_utf8(&mut [0; 4]))
                    .unwrap_or(NO_SYMBOL)
            };
            ids.push(if symbol == NO_SYMBOL {
                OUTSIDE - offset as u32
            } else {
                symbol
            });
        }
        ids.push(self.eow_symbol);
        table.apply(ids);
        let unk = self.vocab.unk_id();
        for id in ids.iter_mut() {
            *id = if (*id as usize) < self.to_vocab.len() {
                self.to_vocab[*id as usize]
            } else {
                // A character no merge uses: its own token if the vocabulary holds it.
                let offset = (OUTSIDE - *id) as usize;
                let c = word[offset..]
                    .chars()
                    .next()
                    .expect("a character starts here");
                self.vocab.id(c.encode_utf8(&mut [0; 4])).unwrap_or(unk)
            };
        }
    }

    /// The tokens of `text` as strings (`<UNK>` for characters outside the vocabulary).
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        let ids = self.encode(text);
        ids.iter()
            .map(|&id| self.vocab.tokens()[id as usize].clone())
            .collect()
    }

    /// The text of `ids`: tokens written one after another, a token's final `</w>` becoming a
    /// space, the last word's boundary left out. Special tokens are written as their text
    /// (so `<UNK>` shows where an unknown character was). An id outside the vocabulary is an
    /// error.
    ///
    /// ```
    /// use bpe_lab::tokenizer::CharLevelTokenizer;
    /// let tokenizer = CharLevelTokenizer::train(&["ab ab"], 1);
    /// let id = |t| tokenizer.vocab().id(t).unwrap();
    /// let ids = [id("ab"), id("</w>"), id("</w>"), id("a"), id("<UNK>"), id("</w>")];
    /// assert_eq!(tokenizer.decode(&ids).unwrap(), "ab  a<UNK>");
    /// assert!(tokenizer.decode(&[99]).is_err());
    /// ```
    pub fn decode(&self, ids: &[u32]) -> Result<String, DecodeError> {
        let mut text = String::new();
        self.decode_into(ids, &mut text)?;
        Ok(text)
    }

    /// Appends the text of `ids` to `text` (see [`CharLevelTokenizer::decode`]). On error `text` may
    /// hold part of the result.
    pub fn decode_into(&self, ids: &[u32], text: &mut String) -> Result<(), DecodeError> {
        crate::exercise::guard::answer_used(
            crate::exercise::Exercise::Decode,
            "bpe_lab::CharLevelTokenizer::decode",
        );
        let mut boundary = false;
        for (position, &id) in ids.iter().enumerate() {
            let Some(token) = self.vocab.token(id) else {
                return Err(DecodeError {
                    id,
                    position,
                    vocab_size: self.vocab.len(),
                });
            };
            if boundary {
                text.push(' ');
            }
            match token.strip_suffix(EOW) {
                Some(body) if !self.vocab.is_special(id) => {
                    text.push_str(body);
                    boundary = true;
                }
                _ => {
                    text.push_str(token);
                    boundary = false;
                }
            }
        }
        Ok(())
    }
}

impl CachedEncoder {
    /// Appends the vocabulary ids of `word` (its characters and `</w>`, merged) to `out`.
    #[inline]
    fn encode_word_into(&mut self, word: &str, vocab: &Vocab, out: &mut Vec<u32>) {
        let start = out.len();
        out.extend_from_slice(self.encoder.encode_word(word));
        if self.to_vocab.len() < self.encoder.table().symbols().len() {
            self.map_new_symbols(vocab);
        }
        for id in &mut out[start..] {
            *id = self.to_vocab[*id as usize];
        }
    }

    /// Gives the symbols the encoder added (characters no merge uses) a vocabulary id: the
    /// character's own token when the vocabulary holds it, else `<UNK>`.
    #[cold]
    fn map_new_symbols(&mut self, vocab: &Vocab) {
        let symbols = self.encoder.table().symbols();
        for id in self.to_vocab.len()..symbols.len() {
            let mapped = vocab.id(symbols.get(id as u32)).unwrap_or(vocab.unk_id());
            self.to_vocab.push(mapped);
        }
    }
}

/// The character of a one-character string.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

fn check_specials(
    config: &TokenizerConfig,
    alphabet: &BTreeSet<char>,
) -> Result<(), TokenizerError> {
    let mut seen = BTreeSet::new();
    for token in &config.special_tokens {
        if token.is_empty() {
            return Err(TokenizerError::EmptySpecialToken);
        }
        if !seen.insert(token.as_str()) {
            return Err(TokenizerError::DuplicateSpecialToken(token.clone()));
        }
        if token == EOW || single_char(token).is_some_and(|c| alphabet.contains(&c)) {
            return Err(TokenizerError::SpecialIsBaseSymbol(token.clone()));
        }
        if token.contains(EOW) {
            return Err(TokenizerError::SpecialHasEndOfWord(token.clone()));
        }
    }
    if !seen.contains(config.unk_token.as_str()) {
        return Err(TokenizerError::UnkNotSpecial(config.unk_token.clone()));
    }
    Ok(())
}

/// Every merge's parts are base symbols or made by an earlier merge; no merge is listed twice.
fn check_merges(
    alphabet: &BTreeSet<char>,
    merges: &[(String, String)],
) -> Result<(), TokenizerError> {
    let mut producible: rustc_hash::FxHashSet<String> =
        alphabet.iter().map(|c| c.to_string()).collect();
    producible.insert(EOW.to_owned());
    let mut first: rustc_hash::FxHashMap<(&str, &str), usize> = Default::default();
    for (index, (left, right)) in merges.iter().enumerate() {
        if let Some(&first) = first.get(&(left.as_str(), right.as_str())) {
            return Err(TokenizerError::DuplicateMerge {
                index,
                first,
                pair: (left.clone(), right.clone()),
            });
        }
        first.insert((left, right), index);
        for part in [left, right] {
            if !producible.contains(part.as_str()) {
                return Err(TokenizerError::DanglingMerge {
                    index,
                    pair: (left.clone(), right.clone()),
                    missing: part.clone(),
                });
            }
        }
        producible.insert(format!("{left}{right}"));
    }
    Ok(())
}
