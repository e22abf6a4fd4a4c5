//! The tie-break policy inside the engine: what each policy keeps beyond the pair counts, and
//! the keys that let the queue order equally frequent pairs without comparing strings.
//!
//! The rule itself is the oracle's [`Rank`](crate::bpe::oracle::Rank); the keys here encode
//! the same order:
//! - lexicographic: the [`prefix_key`]s of the left and right symbols, with the strings
//!   compared only when the keys cannot settle it;
//! - first-seen: the lowest word index holding the pair, then the *offset* of its first
//!   occurrence there, which orders occurrences within a word as their positions do but does
//!   not move when earlier symbols of the word merge (see [`Offsets`]).

use crate::bpe::TieBreak;
use crate::bpe::symbols::SymbolTable;
use crate::bpe::train::queue::Candidate;
use crate::bpe::train::word_list::WordList;
use crate::bpe::words::WordCounts;

/// No word: the first word of a pair that has none left.
const NO_WORD: u32 = u32::MAX;

/// What the chosen tie-break policy keeps, beside the pair counts every policy shares.
pub(super) enum Policy {
    Lexicographic(Lexicographic),
    FirstSeen(FirstSeen),
}

/// Lexicographic: a prefix key per symbol.
pub(super) struct Lexicographic {
    /// [`prefix_key`] of every symbol, by id.
    prefixes: Vec<u64>,
}

/// First-seen: how occurrences are placed within a word, and every pair's first word.
pub(super) struct FirstSeen {
    offsets: Offsets,
    /// By pair id.
    first: Vec<FirstWord>,
}

/// Where an occurrence starts in its word, in a unit that merging earlier symbols leaves alone.
enum Offsets {
    /// The byte offset in the word's text, worked out from the symbols' lengths when a pair is
    /// ranked: merging concatenates, so it never moves, and with no empty symbol two positions
    /// never share it. Nothing is kept per position: keeping base-symbol indices up to date on
    /// every rewrite cost a third cache miss per rewritten word, a quarter of first-seen's time.
    Bytes,
    /// With an empty base symbol, two positions can share a byte offset: then the index of the
    /// base symbol each position starts at, for every position of the word arena, kept up to
    /// date as words are rewritten.
    Origins(Vec<u32>),
}

/// The lowest word index known to hold a pair.
#[derive(Clone, Copy)]
struct FirstWord {
    word: u32,
    /// The pair lost an occurrence in `word`; recomputed when the pair is next ranked.
    stale: bool,
}

impl FirstWord {
    const NONE: FirstWord = FirstWord {
        word: NO_WORD,
        stale: false,
    };
}

impl Policy {
    pub(super) fn new(tie_break: TieBreak, words: &WordCounts) -> Self {
        match tie_break {
            TieBreak::Lexicographic => Policy::Lexicographic(Lexicographic {
                prefixes: words.symbols.iter().map(prefix_key).collect(),
            }),
            TieBreak::FirstSeen => {
                let offsets = if words.symbols.iter().any(str::is_empty) {
                    let mut origins = Vec::with_capacity(words.arena.len());
                    for span in &words.spans {
                        origins.extend(0..span.len);
                    }
                    Offsets::Origins(origins)
                } else {
                    Offsets::Bytes
                };
                Policy::FirstSeen(FirstSeen {
                    offsets,
                    first: Vec::new(),
                })
            }
        }
    }

    /// A pair id was issued.
    pub(super) fn pair_created(&mut self) {
        if let Policy::FirstSeen(state) = self {
            state.first.push(FirstWord::NONE);
        }
    }

    /// A merge may have issued a new symbol `id`.
    pub(super) fn symbol_interned(&mut self, id: u32, symbols: &SymbolTable) {
        if let Policy::Lexicographic(state) = self
            && id as usize == state.prefixes.len()
        {
            state.prefixes.push(prefix_key(symbols.get(id)));
        }
    }

    /// Pair `p` gained occurrences in `words`.
    #[inline]
    pub(super) fn words_gained(&mut self, p: u32, words: &[u32]) {
        if let Policy::FirstSeen(state) = self {
            let first = &mut state.first[p as usize];
            let lowest = words.iter().copied().min().unwrap_or(NO_WORD);
            if !first.stale && lowest < first.word {
                first.word = lowest;
            }
        }
    }

    /// Pair `p` lost occurrences in some words, the lowest of them `lowest`. Those words held
    /// the pair, so none is below its first word; the first word lost it if it is `lowest`.
    #[inline]
    pub(super) fn words_lost(&mut self, p: u32, lowest: u32) {
        if let Policy::FirstSeen(state) = self {
            let first = &mut state.first[p as usize];
            if first.word == lowest {
                first.stale = true;
            }
        }
    }

    /// Pair `p` was merged everywhere: it occurs nowhere now.
    pub(super) fn pair_merged(&mut self, p: u32) {
        if let Policy::FirstSeen(state) = self {
            state.first[p as usize] = FirstWord::NONE;
        }
    }

    /// Word `start..` was rewritten by a merge pass; `merged_at` lists, ascending, the new
    /// positions that hold a merged pair (and so took the place of two symbols).
    pub(super) fn word_rewritten(&mut self, start: usize, new_len: usize, merged_at: &[u32]) {
        if let Policy::FirstSeen(FirstSeen {
            offsets: Offsets::Origins(origins),
            ..
        }) = self
        {
            // In place: the source index never falls behind the destination.
            let mut from = start;
            let mut merges = merged_at.iter().peekable();
            for j in 0..new_len {
                origins[start + j] = origins[from];
                from += if merges.next_if_eq(&&(j as u32)).is_some() {
                    2
                } else {
                    1
                };
            }
        }
    }

    /// The keys that order pair `p` among equally frequent ones (see the module docs).
    /// `p_words` is the pair's list of words that may hold it; first-seen cleans it when the
    /// first word is stale.
    pub(super) fn tie_keys(
        &mut self,
        p: u32,
        (left, right): (u32, u32),
        p_words: &mut WordList,
        words: &WordCounts,
    ) -> (u64, u64) {
        match self {
            Policy::Lexicographic(state) => (
                state.prefixes[left as usize],
                state.prefixes[right as usize],
            ),
            Policy::FirstSeen(state) => {
                let first = &mut state.first[p as usize];
                if first.stale {
                    // Sorted, the lowest word that still holds the pair is found by looking at
                    // words from the front, usually one or two, instead of at every word the
                    // list names (each a cache miss). The list is mostly ascending runs
                    // already, which the sort is quick on.
                    p_words.sort_unstable();
                    p_words.dedup();
                    let holder = p_words
                        .iter()
                        .position(|&w| contains_pair(words.word_ids(w as usize), left, right));
                    let holder = holder.unwrap_or(p_words.len());
                    p_words.drain(..holder);
                    first.word = p_words.first().copied().unwrap_or(NO_WORD);
                    first.stale = false;
                }
                let w = first.word as usize;
                let ids = words.word_ids(w);
                let k = ids
                    .windows(2)
                    .position(|s| s[0] == left && s[1] == right)
                    .expect("first-seen bookkeeping: the pair's first word does not contain it");
                let offset = match &state.offsets {
                    Offsets::Bytes => ids[..k]
                        .iter()
                        .map(|&id| words.symbols.get(id).len() as u32)
                        .sum(),
                    Offsets::Origins(origins) => origins[words.spans[w].start + k],
                };
                let key = (u64::from(first.word) << 32) | u64::from(offset);
                (key, 0)
            }
        }
    }

    /// The ranking rule: `x` comes out of the queue before `y`. Higher counts first; ties go to
    /// the lower keys. `pair_symbols(p)` gives the symbols of pair `p`, for the lexicographic
    /// ties the prefix keys cannot settle (long symbols sharing a prefix).
    #[inline(always)]
    pub(super) fn ranks_before(
        &self,
        symbols: &SymbolTable,
        pair_symbols: impl Fn(u32) -> (u32, u32),
        x: &Candidate,
        y: &Candidate,
    ) -> bool {
        if x.count != y.count {
            return x.count > y.count;
        }
        if x.key != y.key {
            return x.key < y.key;
        }
        self.ranks_before_on_equal_keys(symbols, pair_symbols, x, y)
    }

    /// [`Policy::ranks_before`] when the counts and first keys are equal: rare enough to stay
    /// out of the heap's inner loops.
    #[inline(never)]
    fn ranks_before_on_equal_keys(
        &self,
        symbols: &SymbolTable,
        pair_symbols: impl Fn(u32) -> (u32, u32),
        x: &Candidate,
        y: &Candidate,
    ) -> bool {
        match self {
            // Equal first-seen keys: the same pair.
            Policy::FirstSeen(_) => false,
            Policy::Lexicographic(_) => {
                if prefix_is_whole(x.key) && x.key2 != y.key2 {
                    return x.key2 < y.key2; // equal keys of short strings: the same left symbol
                }
                let ((xl, xr), (yl, yr)) = (pair_symbols(x.pair), pair_symbols(y.pair));
                (symbols.get(xl), symbols.get(xr)) < (symbols.get(yl), symbols.get(yr))
            }
        }
    }
}

fn contains_pair(ids: &[u32], left: u32, right: u32) -> bool {
    ids.windows(2).any(|s| s[0] == left && s[1] == right)
}

/// A key that orders strings as `str` does when the keys differ: the first seven bytes,
/// zero-padded, then the length capped at 8. If the keys differ they order the strings the
/// same way (UTF-8 byte order is code point order; a shorter string that is a prefix of the
/// other sorts first). If they are equal and [`prefix_is_whole`], the strings are equal.
fn prefix_key(s: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let n = s.len().min(7);
    bytes[..n].copy_from_slice(&s.as_bytes()[..n]);
    bytes[7] = s.len().min(8) as u8;
    u64::from_be_bytes(bytes)
}

/// Whether a [`prefix_key`] holds its whole string (seven bytes or fewer).
fn prefix_is_whole(key: u64) -> bool {
    (key & 0xff) < 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    /// Different prefix keys order their strings as `str` does; equal whole keys mean equal
    /// strings. Strings over a tiny alphabet with a NUL and a multi-byte character, so shared
    /// prefixes and zero padding meet.
    #[test]
    fn prefix_keys_order_as_strings_do() {
        let mut state = 5;
        let string = |state: &mut u64| -> String {
            let len = (splitmix64(state) % 11) as usize;
            (0..len)
                .map(|_| ['a', 'b', '\0', 'é'][(splitmix64(state) % 4) as usize])
                .collect()
        };
        for _ in 0..20_000 {
            let (x, y) = (string(&mut state), string(&mut state));
            let (kx, ky) = (prefix_key(&x), prefix_key(&y));
            if kx != ky {
                assert_eq!(kx < ky, x < y, "{x:?} {y:?}");
            } else if prefix_is_whole(kx) {
                assert_eq!(x, y);
            }
        }
    }
}
