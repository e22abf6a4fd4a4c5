//! The fast encoder: applies a merge list to words exactly as the apply-merges problem specifies.
//!
//! The apply-merges problem's rule: repeatedly take the adjacent pair with the lowest rank (its first index in
//! the merge list), merge its *leftmost* occurrence only, and look again. For merge lists that
//! training produced this equals "apply each merge everywhere in list order", but not for
//! arbitrary lists, so this module never takes that shortcut.
//!
//! Short words (almost all words of natural text) use a direct scan, which is the fastest for
//! a handful of symbols; long ones use a linked list and a min-heap of `(rank, position)`, which
//! is O(n log n): the smallest position among equal ranks is the leftmost occurrence, because
//! positions in the list keep their original order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use crate::bpe::EOW;
use crate::bpe::corpus::lab_words;
use crate::bpe::symbols::SymbolTable;

/// Words longer than this use the heap; shorter ones the quadratic scan.
const HEAP_THRESHOLD: usize = 24;

/// Words kept in an [`Encoder`]'s cache before it is emptied.
const CACHE_LIMIT: usize = 1 << 20;

/// A merge list compiled for lookup: pair of symbol ids to (rank, merged symbol id).
#[derive(Debug, Clone)]
pub struct MergeTable {
    symbols: SymbolTable,
    ranks: FxHashMap<u64, (u32, u32)>,
}

#[inline]
fn key(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

impl MergeTable {
    /// Compiles `merges`; a pair listed twice keeps its first rank.
    pub fn new(merges: &[(String, String)]) -> Self {
        crate::exercise::guard::answer_used(
            crate::exercise::Exercise::ApplyMerges,
            "bpe_lab::MergeTable",
        );
        let mut symbols = SymbolTable::new();
        let mut ranks = FxHashMap::default();
        ranks.reserve(merges.len());
        for (rank, (a, b)) in merges.iter().enumerate() {
            let (left, right) = (symbols.intern(a), symbols.intern(b));
            let merged = symbols.intern_concat(left, right);
            let rank = u32::try_from(rank).expect("more than 4 billion merges");
            ranks.entry(key(left, right)).or_insert((rank, merged));
        }
        MergeTable { symbols, ranks }
    }

    /// Number of distinct merge rules.
    pub fn len(&self) -> usize {
        self.ranks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// The symbol table; ids in encoded words refer to it.
    pub fn symbols(&self) -> &SymbolTable {
        &self.symbols
    }

    /// The id of `s`, adding it if new (a new symbol takes part in no merge).
    pub fn intern(&mut self, s: &str) -> u32 {
        self.symbols.intern(s)
    }

    #[inline]
    fn rank(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        self.ranks.get(&key(left, right)).copied()
    }

    /// Applies the merges to one word of symbol ids, in place.
    pub fn apply(&self, word: &mut Vec<u32>) {
        if word.len() < 2 || self.ranks.is_empty() {
            return;
        }
        if word.len() <= HEAP_THRESHOLD {
            self.apply_by_scan(word);
        } else {
            self.apply_by_heap(word);
        }
    }

    fn apply_by_scan(&self, word: &mut Vec<u32>) {
        loop {
            let mut best: Option<(u32, u32, usize)> = None;
            for i in 0..word.len() - 1 {
                if let Some((rank, merged)) = self.rank(word[i], word[i + 1])
                    && best.is_none_or(|(r, _, _)| rank < r)
                {
                    best = Some((rank, merged, i));
                }
            }
            let Some((_, merged, i)) = best else { return };
            word[i] = merged;
            word.remove(i + 1);
            if word.len() < 2 {
                return;
            }
        }
    }

    fn apply_by_heap(&self, word: &mut Vec<u32>) {
        const END: u32 = u32::MAX;
        let n = word.len();
        let mut next: Vec<u32> = (1..=n as u32)
            .map(|j| if j as usize == n { END } else { j })
            .collect();
        let mut prev: Vec<u32> = (0..n as u32)
            .map(|i| if i == 0 { END } else { i - 1 })
            .collect();
        let mut alive = vec![true; n];
        let mut heap: BinaryHeap<Reverse<(u32, u32)>> = (0..n - 1)
            .filter_map(|i| {
                self.rank(word[i], word[i + 1])
                    .map(|(r, _)| Reverse((r, i as u32)))
            })
            .collect();
        while let Some(Reverse((rank, i))) = heap.pop() {
            let i = i as usize;
            if !alive[i] || next[i] == END {
                continue;
            }
            let j = next[i] as usize;
            let Some((current, merged)) = self.rank(word[i], word[j]) else {
                continue;
            };
            if current != rank {
                continue; // stale: the pair at i changed since this entry was pushed
            }
            word[i] = merged;
            alive[j] = false;
            next[i] = next[j];
            if next[j] != END {
                prev[next[j] as usize] = i as u32;
            }
            if prev[i] != END {
                let p = prev[i] as usize;
                if let Some((r, _)) = self.rank(word[p], word[i]) {
                    heap.push(Reverse((r, p as u32)));
                }
            }
            if next[i] != END
                && let Some((r, _)) = self.rank(word[i], word[next[i] as usize])
            {
                heap.push(Reverse((r, i as u32)));
            }
        }
        let mut write = 0;
        for read in 0..n {
            if alive[read] {
                word[write] = word[read];
                write += 1;
            }
        }
        word.truncate(write);
    }
}

/// The apply-merges problem's `apply_merges` on the fast path: the lowest-rank adjacent pair, leftmost
/// occurrence first, until no listed pair is adjacent.
///
/// ```
/// use bpe_lab::apply_merges;
/// let tokens: Vec<String> = ["l", "o", "w"].iter().map(|s| s.to_string()).collect();
/// let merges = [("l".to_string(), "o".to_string()), ("o".to_string(), "w".to_string())];
/// assert_eq!(apply_merges(&tokens, &merges), ["lo", "w"]);
/// ```
pub fn apply_merges(tokens: &[String], merges: &[(String, String)]) -> Vec<String> {
    crate::exercise::guard::answer_used(
        crate::exercise::Exercise::ApplyMerges,
        "bpe_lab::apply_merges",
    );
    let mut table = MergeTable::new(merges);
    let mut ids: Vec<u32> = tokens.iter().map(|t| table.intern(t)).collect();
    table.apply(&mut ids);
    ids.iter()
        .map(|&id| table.symbols.get(id).to_owned())
        .collect()
}

/// Encodes text with a fixed merge list, caching each distinct word's result.
///
/// Words are made the lab's way: characters followed by `</w>`. Characters the merge list never
/// mentions get ids of their own and take part in no merge.
///
/// ```
/// use bpe_lab::Encoder;
/// let merges = [("l".to_string(), "o".to_string()), ("lo".to_string(), "w".to_string())];
/// let mut encoder = Encoder::new(&merges);
/// assert_eq!(encoder.tokens("low  lot"), ["low", "</w>", "</w>", "lo", "t", "</w>"]);
/// ```
#[derive(Debug, Clone)]
pub struct Encoder {
    table: MergeTable,
    eow: u32,
    cache: FxHashMap<Box<str>, Box<[u32]>>,
    buffer: Vec<u32>,
}

impl Encoder {
    pub fn new(merges: &[(String, String)]) -> Self {
        let mut table = MergeTable::new(merges);
        let eow = table.intern(EOW);
        Encoder {
            table,
            eow,
            cache: FxHashMap::default(),
            buffer: Vec::new(),
        }
    }

    /// The compiled merge list and its symbols.
    pub fn table(&self) -> &MergeTable {
        &self.table
    }

    /// The string of a symbol id returned by this encoder.
    pub fn symbol(&self, id: u32) -> &str {
        self.table.symbols.get(id)
    }

    /// The symbol ids of one word (characters, then `</w>`), merged.
    pub fn encode_word(&mut self, word: &str) -> &[u32] {
        if !self.cache.contains_key(word) {
            if self.cache.len() >= CACHE_LIMIT {
                self.cache.clear();
            }
            let mut ids = std::mem::take(&mut self.buffer);
            ids.clear();
            ids.extend(word.chars().map(|c| self.table.symbols.intern_char(c)));
            ids.push(self.eow);
            self.table.apply(&mut ids);
            self.cache.insert(word.into(), ids.as_slice().into());
            self.buffer = ids;
        }
        &self.cache[word]
    }

    /// Appends the symbol ids of every word of `paragraph` (split as the lab splits) to `out`.
    pub fn encode_paragraph_into(&mut self, paragraph: &str, out: &mut Vec<u32>) {
        for word in lab_words(paragraph) {
            out.extend_from_slice(self.encode_word(word));
        }
    }

    /// The symbol ids of `paragraph`.
    pub fn encode_paragraph(&mut self, paragraph: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.encode_paragraph_into(paragraph, &mut out);
        out
    }

    /// The tokens of `paragraph` as strings.
    pub fn tokens(&mut self, paragraph: &str) -> Vec<String> {
        let ids = self.encode_paragraph(paragraph);
        ids.iter().map(|&id| self.symbol(id).to_owned()).collect()
    }
}
