//! The trainer's input: each distinct word once, as interned symbols, with its count.
//!
//! Training on a word-frequency table instead of the running text is what makes the engine
//! scale: a 50 MB corpus has millions of words but only hundreds of thousands of distinct
//! ones. Words keep the order of their first appearance, which the first-seen tie-break needs.

use rustc_hash::FxHashMap;

use crate::bpe::EOW;
use crate::bpe::corpus::lab_words;
use crate::bpe::count::{available_threads, count_line_words, count_words};
use crate::bpe::symbols::SymbolTable;

/// Distinct words (sequences of symbols) with their counts, in order of first appearance.
///
/// ```
/// use bpe_lab::WordCounts;
/// let words = WordCounts::from_paragraphs(&["the cat the"]);
/// assert_eq!(words.len(), 2);
/// assert_eq!(words.word(0).collect::<Vec<_>>(), ["t", "h", "e", "</w>"]);
/// assert_eq!(words.count(0), 2);
/// ```
#[derive(Debug, Clone, Default)]
pub struct WordCounts {
    pub(crate) symbols: SymbolTable,
    /// All words' symbols back to back; see [`WordSpan`].
    pub(crate) arena: Vec<u32>,
    pub(crate) spans: Vec<WordSpan>,
}

/// Where a distinct word lives in the arena, and its count. Kept in one struct because the
/// trainer's time goes mostly into cache misses when it visits a word: one line for all of
/// this, one for the symbols.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WordSpan {
    pub start: usize,
    pub count: u64,
    /// Current length; merging shrinks a word in place.
    pub len: u32,
    /// The trainer's mark of the last round that visited this word.
    pub visited: u32,
    /// Which symbols the word holds, as a 64-bit set of `id % 64` ([`symbol_bits`]): most
    /// words on a merged pair's list no longer hold the pair, and this tells many of them
    /// apart from the span alone, without a second cache miss for the symbols.
    pub holds: u64,
}

/// The set of `symbols` as [`WordSpan::holds`] keeps it.
#[inline]
pub(crate) fn symbol_bits(symbols: &[u32]) -> u64 {
    symbols.iter().fold(0, |bits, &id| bits | symbol_bit(id))
}

/// One symbol's bit in [`WordSpan::holds`].
#[inline]
pub(crate) fn symbol_bit(id: u32) -> u64 {
    1 << (id % 64)
}

impl WordCounts {
    pub fn new() -> Self {
        WordCounts {
            symbols: SymbolTable::new(),
            ..Default::default()
        }
    }

    /// Words of the lab's initialization: each paragraph split on `' '` like Python's
    /// `str.split(" ")`, each word's characters followed by `</w>`.
    pub fn from_paragraphs(paragraphs: &[impl AsRef<str>]) -> Self {
        let counted = count_words(paragraphs.iter().flat_map(|p| lab_words(p.as_ref())));
        Self::from_distinct_words(&counted)
    }

    /// Like [`WordCounts::from_paragraphs`] with one paragraph per line of `text`. A trailing
    /// `\r` is dropped and blank lines are skipped (they are not paragraphs). Counting runs on
    /// all available cores.
    pub fn from_lines(text: &str) -> Self {
        Self::from_distinct_words(&count_line_words(text, available_threads()))
    }

    /// Words known to be distinct, each becoming its characters followed by `</w>`.
    fn from_distinct_words(counted: &[(&str, u64)]) -> Self {
        let mut out = WordCounts::new();
        let eow = out.symbols.intern(EOW);
        let chars: usize = counted.iter().map(|(w, _)| w.len() + 1).sum();
        out.arena.reserve_exact(chars);
        out.spans.reserve_exact(counted.len());
        for &(word, count) in counted {
            let start = out.arena.len();
            for c in word.chars() {
                let id = out.symbols.intern_char(c);
                out.arena.push(id);
            }
            out.arena.push(eow);
            let len = (out.arena.len() - start) as u32;
            out.spans.push(WordSpan {
                start,
                count,
                len,
                visited: 0,
                holds: symbol_bits(&out.arena[start..]),
            });
        }
        out
    }

    /// A (word, count) table: each word becomes its characters followed by `</w>`; repeated
    /// words have their counts added. Zero counts are kept out.
    pub fn from_word_counts<S: AsRef<str>>(table: impl IntoIterator<Item = (S, u64)>) -> Self {
        let mut out = WordCounts::new();
        let eow = out.symbols.intern(EOW);
        let mut seen: FxHashMap<String, u32> = FxHashMap::default();
        let mut buf = Vec::new();
        for (word, count) in table {
            let word = word.as_ref();
            if count == 0 {
                continue;
            }
            if let Some(&i) = seen.get(word) {
                out.spans[i as usize].count += count;
                continue;
            }
            seen.insert(word.to_owned(), out.len() as u32);
            buf.clear();
            buf.extend(word.chars().map(|c| out.symbols.intern_char(c)));
            buf.push(eow);
            out.push(&buf, count);
        }
        out
    }

    /// Words given as lists of base symbols (any strings), each occurrence counting once.
    pub fn from_symbol_lists(words: &[Vec<String>]) -> Self {
        Self::from_symbol_lists_indexed(words).0
    }

    /// Like [`WordCounts::from_symbol_lists`], also returning for each input word the index of
    /// its distinct word, so results can be written back to the input corpus.
    pub(crate) fn from_symbol_lists_indexed(words: &[Vec<String>]) -> (Self, Vec<u32>) {
        let mut out = WordCounts::new();
        let mut seen: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut positions = Vec::with_capacity(words.len());
        for word in words {
            let ids: Vec<u32> = word.iter().map(|s| out.symbols.intern(s)).collect();
            let index = match seen.get(&ids) {
                Some(&i) => {
                    out.spans[i as usize].count += 1;
                    i
                }
                None => {
                    let i = out.len() as u32;
                    out.push(&ids, 1);
                    seen.insert(ids, i);
                    i
                }
            };
            positions.push(index);
        }
        (out, positions)
    }

    /// An empty table over an existing symbol table, for adaptors that intern their own base
    /// symbols first (the byte-level mode: byte `b` is symbol `b`) and add words with
    /// [`WordCounts::push`]; no `</w>` is added.
    pub(crate) fn with_symbols(symbols: SymbolTable) -> Self {
        WordCounts {
            symbols,
            ..Default::default()
        }
    }

    /// Adds a word (distinct from those already in) with its count.
    pub(crate) fn push(&mut self, symbols: &[u32], count: u64) {
        let len = u32::try_from(symbols.len()).expect("word longer than 4 billion symbols");
        self.spans.push(WordSpan {
            start: self.arena.len(),
            count,
            len,
            visited: 0,
            holds: symbol_bits(symbols),
        });
        self.arena.extend_from_slice(symbols);
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Number of words counted, repeats included.
    pub fn total(&self) -> u64 {
        self.spans.iter().map(|s| s.count).sum()
    }

    /// How often distinct word `i` occurs.
    pub fn count(&self, i: usize) -> u64 {
        self.spans[i].count
    }

    /// The symbol ids of distinct word `i`.
    pub fn word_ids(&self, i: usize) -> &[u32] {
        let span = self.spans[i];
        &self.arena[span.start..span.start + span.len as usize]
    }

    /// The symbols of distinct word `i`.
    pub fn word(&self, i: usize) -> impl Iterator<Item = &str> {
        self.word_ids(i).iter().map(|&id| self.symbols.get(id))
    }

    /// The symbols of distinct word `i` as owned strings.
    pub fn word_strings(&self, i: usize) -> Vec<String> {
        self.word(i).map(str::to_owned).collect()
    }

    /// The symbol table the ids refer to.
    pub fn symbols(&self) -> &SymbolTable {
        &self.symbols
    }
}
