//! Word counting: the distinct words of a text with their counts, in order of first
//! appearance, on every core.
//!
//! How [`count_line_words`] splits the work (each step on all threads):
//! 1. the text is cut at newlines into one chunk per thread; each thread hashes its words once
//!    and counts them in one table per *shard* (a range of hash values);
//! 2. thread `s` merges shard `s` of every chunk's tables: no two threads touch the same word;
//! 3. each thread orders its shard's words by where they first appear (their byte offset in
//!    the text), and one run-aware sort joins the shards.
//!
//! The tables are this module's own ([`table`]): open addressing, so that counting can ask for
//! the slots of a batch of words before it counts them, and their cache misses overlap.
//! Against hashbrown's map, the previous design, counting got faster on both corpora with the
//! same words, counts and order; batches of 32 beat 16 and 8 (docs/benchmarks.md, "Word
//! counting's tables").
//!
//! Tried and dropped:
//! - merging every chunk's table into the first one on one thread (the previous design): a
//!   fifth of counting's time was spent after the counting threads had finished;
//! - counting each block of words one hash partition at a time, so that a partition's table
//!   stays in cache: with blocks of 16 k words no faster (a partition's table is evicted
//!   between blocks); with blocks of 1 M words 15% faster, but the block's pending keys took
//!   32 MB per thread.

mod table;

use rustc_hash::FxHashMap;

use crate::bpe::corpus::lab_words;
use table::{Key, Table};

/// Counts items, returning them in order of first appearance.
pub(crate) fn count_words<'a>(words: impl Iterator<Item = &'a str>) -> Vec<(&'a str, u64)> {
    // Count and first position live in the map's value: one memory access per word. The order
    // is restored by one sort of the distinct words at the end.
    let mut counts: FxHashMap<&str, (u64, u64)> = FxHashMap::default();
    for (position, word) in (0u64..).zip(words) {
        counts.entry(word).or_insert((0, position)).0 += 1;
    }
    let mut counted: Vec<(&str, u64, u64)> = counts
        .into_iter()
        .map(|(w, (count, first))| (w, count, first))
        .collect();
    counted.sort_unstable_by_key(|&(_, _, first)| first);
    counted
        .into_iter()
        .map(|(w, count, _)| (w, count))
        .collect()
}

/// The paragraphs of `text`: its lines, a trailing `\r` dropped, blank lines skipped (the one
/// line rule, [`crate::files::lines`]).
pub(crate) fn lines(text: &str) -> impl Iterator<Item = &str> {
    crate::files::lines::paragraphs(text)
}

/// Counts the lab words of every line of `text` on `threads` threads, keeping the order of
/// first appearance across the whole text.
pub(crate) fn count_line_words(text: &str, threads: usize) -> Vec<(&str, u64)> {
    let chunks = split_at_newlines(text, threads.max(1));
    let shards = chunks.len();
    let mut tables: Vec<Vec<Table>> = on_threads(chunks, |chunk| count_chunk(chunk, shards));
    // Shard `s` of every chunk, for thread `s` to merge.
    let by_shard: Vec<Vec<Table>> = (0..shards)
        .map(|s| {
            tables
                .iter_mut()
                .map(|t| std::mem::take(&mut t[s]))
                .collect()
        })
        .collect();
    let ordered: Vec<Vec<(usize, &str, u64)>> =
        on_threads(by_shard, |tables| merge_shard(text, tables));
    let mut all: Vec<(usize, &str, u64)> = ordered.into_iter().flatten().collect();
    // Stable and run-aware: each shard is already one ascending run.
    all.sort_by_key(|&(first, _, _)| first);
    all.into_iter().map(|(_, w, count)| (w, count)).collect()
}

/// Which of `shards` tables a hash belongs to. The top bits: the table itself uses the low
/// bits for its slots.
#[inline]
fn shard_of(hash: u64, shards: usize) -> usize {
    (((hash >> 32) as u32 as u64 * shards as u64) >> 32) as usize
}

/// About how many bytes of text bring one new distinct word (the corpora of docs/benchmarks.md
/// lie either side of it). Sizing the tables for that many words up front saves their largest
/// growths (each moves every entry to a new table, scattered), with peak memory unchanged
/// (docs/benchmarks.md, "Word counting's tables").
const BYTES_PER_DISTINCT_WORD: usize = 64;
/// A cap on that guess, for large texts of few distinct words.
const MAX_PRESIZED_ENTRIES: usize = 1 << 19;
/// How many words are hashed, and their slots asked for, before they are counted.
const BATCH: usize = 32;

/// Asks for the slots of a batch of words, then counts them: the misses overlap.
fn count_batch<'a>(batch: &mut Vec<(usize, Key<'a>)>, tables: &mut [Table<'a>]) {
    for &(shard, key) in batch.iter() {
        tables[shard].prefetch(key.hash);
    }
    for (shard, key) in batch.drain(..) {
        tables[shard].add(key, 1);
    }
}

/// Counts the words of `chunk` into `shards` tables.
fn count_chunk(chunk: &str, shards: usize) -> Vec<Table<'_>> {
    let expected = (chunk.len() / BYTES_PER_DISTINCT_WORD / shards).min(MAX_PRESIZED_ENTRIES);
    let mut tables: Vec<Table> = (0..shards)
        .map(|_| Table::with_capacity(expected))
        .collect();
    let mut batch: Vec<(usize, Key)> = Vec::with_capacity(BATCH);
    for word in lines(chunk).flat_map(lab_words) {
        let key = Key::new(word);
        batch.push((shard_of(key.hash, shards), key));
        if batch.len() == BATCH {
            count_batch(&mut batch, &mut tables);
        }
    }
    count_batch(&mut batch, &mut tables);
    tables
}

/// Adds one shard's tables (in chunk order) together, and lists the words by first offset in
/// `text`.
fn merge_shard<'a>(text: &str, tables: Vec<Table<'a>>) -> Vec<(usize, &'a str, u64)> {
    let mut tables = tables.into_iter();
    let Some(mut merged) = tables.next() else {
        return Vec::new();
    };
    for table in tables {
        for (key, count) in table.entries() {
            // Later chunks come later in the text: an existing key keeps its first occurrence.
            merged.add(key, count);
        }
    }
    let base = text.as_ptr() as usize;
    let mut ordered: Vec<(usize, &str, u64)> = merged
        .entries()
        .map(|(key, count)| (key.word.as_ptr() as usize - base, key.word, count))
        .collect();
    ordered.sort_unstable_by_key(|&(first, _, _)| first);
    ordered
}

/// Runs `f` on every item, each on its own thread (the calling one for a single item), and
/// returns the results in order.
fn on_threads<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    if items.len() == 1 {
        return items.into_iter().map(f).collect();
    }
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = items
            .into_iter()
            .map(|item| scope.spawn(move || f(item)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("word counting thread panicked"))
            .collect()
    })
}

/// Splits `text` into about `parts` pieces, each ending just after a newline (or at the end).
fn split_at_newlines(text: &str, parts: usize) -> Vec<&str> {
    let mut chunks = Vec::with_capacity(parts);
    let mut rest = text;
    for remaining in (1..=parts).rev() {
        if remaining == 1 || rest.len() < 1 << 16 {
            chunks.push(rest);
            break;
        }
        let target = rest.len() / remaining;
        let cut = match rest.as_bytes()[target..].iter().position(|&b| b == b'\n') {
            Some(p) => target + p + 1,
            None => rest.len(),
        };
        let (head, tail) = rest.split_at(cut);
        chunks.push(head);
        rest = tail;
    }
    chunks
}

/// How many threads this machine runs at once (its cores, as the OS grants them to this
/// process; 1 when unknown): what "one thread per core" means everywhere.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The threads a caller asked for, with 0 meaning one per core ([`available_threads`]): the one
/// place that rule is written, for every `threads` option and `--threads` flag.
pub fn threads_for(asked: usize) -> usize {
    match asked {
        0 => available_threads(),
        n => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    /// Every thread count gives what one plain pass gives: the same words, counts and order.
    #[test]
    fn sharded_counting_equals_one_pass() {
        let mut state = 11;
        for case in 0..200 {
            let len = (splitmix64(&mut state) % 400_000) as usize;
            let text: String = (0..len)
                .map(|_| ['a', 'b', ' ', '\n', 'é', '\r'][(splitmix64(&mut state) % 6) as usize])
                .collect();
            let expected = count_words(lines(&text).flat_map(lab_words));
            for threads in [1, 2, 3, 7] {
                assert_eq!(count_line_words(&text, threads), expected, "case {case}");
            }
        }
    }
}
