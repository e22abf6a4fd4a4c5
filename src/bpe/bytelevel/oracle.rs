//! The byte-level oracle: training and encoding written literally, one step at a time, for the
//! fast paths to be compared with.
//!
//! - [`train_bytes_naive`]: minbpe's regex-tokenizer loop on byte strings: every round count
//!   the pairs of every chunk into a dictionary in order of first occurrence, take the most
//!   frequent (ties by the policy), merge it in one left-to-right pass over every chunk.
//! - [`train_minbpe_ids`]: minbpe's loop exactly, on integer ids, a new id per merge even when
//!   its bytes equal an existing token's. It equals [`train_bytes_naive`] under first-seen
//!   whenever no merge rebuilds an existing token's bytes.
//! - [`encode_piece_naive`]: tiktoken's rule for one chunk: the whole chunk if it is a token;
//!   otherwise repeatedly merge the adjacent pair whose concatenation has the lowest rank,
//!   the leftmost among equals, until no adjacent concatenation is a token.

use std::collections::HashMap;

use crate::bpe::TieBreak;

/// A token's bytes.
pub type Bytes = Vec<u8>;

/// Literal byte-level training on a list of chunks (repeats included, in text order).
pub fn train_bytes_naive(
    chunks: &[Vec<u8>],
    num_merges: usize,
    policy: TieBreak,
) -> Vec<(Bytes, Bytes)> {
    let mut corpus: Vec<Vec<Bytes>> = chunks
        .iter()
        .map(|c| c.iter().map(|&b| vec![b]).collect())
        .collect();
    let mut merges = Vec::new();
    for _ in 0..num_merges {
        // The dictionary in insertion order: (pair, count).
        let mut stats: Vec<((Bytes, Bytes), usize)> = Vec::new();
        let mut index: HashMap<(Bytes, Bytes), usize> = HashMap::new();
        for chunk in &corpus {
            for w in chunk.windows(2) {
                let pair = (w[0].clone(), w[1].clone());
                match index.get(&pair) {
                    Some(&i) => stats[i].1 += 1,
                    None => {
                        index.insert(pair.clone(), stats.len());
                        stats.push((pair, 1));
                    }
                }
            }
        }
        // `max(stats, key=stats.get)`: the first maximum in insertion order; or the smallest
        // pair among the maxima.
        let mut best: Option<&((Bytes, Bytes), usize)> = None;
        for entry in &stats {
            let better = match best {
                None => true,
                Some(b) => match policy {
                    TieBreak::FirstSeen => entry.1 > b.1,
                    TieBreak::Lexicographic => entry.1 > b.1 || (entry.1 == b.1 && entry.0 < b.0),
                },
            };
            if better {
                best = Some(entry);
            }
        }
        let Some(((a, b), _)) = best.cloned() else {
            break;
        };
        let merged = [a.as_slice(), &b].concat();
        for chunk in corpus.iter_mut() {
            let mut out = Vec::with_capacity(chunk.len());
            let mut i = 0;
            while i < chunk.len() {
                if i + 1 < chunk.len() && chunk[i] == a && chunk[i + 1] == b {
                    out.push(merged.clone());
                    i += 2;
                } else {
                    out.push(chunk[i].clone());
                    i += 1;
                }
            }
            *chunk = out;
        }
        merges.push((a, b));
    }
    merges
}

/// minbpe's `RegexTokenizer.train`, literally: ids 0..=255 are bytes, merge `i` gets id
/// 256 + `i`. Returns the merges as pairs of ids with the new id, and every id's bytes.
#[allow(clippy::type_complexity)]
pub fn train_minbpe_ids(
    chunks: &[Vec<u8>],
    num_merges: usize,
) -> (Vec<((u32, u32), u32)>, Vec<Bytes>) {
    let mut ids: Vec<Vec<u32>> = chunks
        .iter()
        .map(|c| c.iter().map(|&b| b as u32).collect())
        .collect();
    let mut vocab: Vec<Bytes> = (0..=255u8).map(|b| vec![b]).collect();
    let mut merges = Vec::new();
    for i in 0..num_merges {
        let mut order: Vec<(u32, u32)> = Vec::new();
        let mut stats: HashMap<(u32, u32), usize> = HashMap::new();
        for chunk in &ids {
            for w in chunk.windows(2) {
                let count = stats.entry((w[0], w[1])).or_insert(0);
                if *count == 0 {
                    order.push((w[0], w[1]));
                }
                *count += 1;
            }
        }
        let Some(pair) = order.iter().fold(None::<(u32, u32)>, |best, p| match best {
            Some(b) if stats[&b] >= stats[p] => Some(b),
            _ => Some(*p),
        }) else {
            break;
        };
        let id = 256 + i as u32;
        for chunk in ids.iter_mut() {
            let mut out = Vec::with_capacity(chunk.len());
            let mut j = 0;
            while j < chunk.len() {
                if j + 1 < chunk.len() && (chunk[j], chunk[j + 1]) == pair {
                    out.push(id);
                    j += 2;
                } else {
                    out.push(chunk[j]);
                    j += 1;
                }
            }
            *chunk = out;
        }
        vocab.push([vocab[pair.0 as usize].as_slice(), &vocab[pair.1 as usize]].concat());
        merges.push((pair, id));
    }
    (merges, vocab)
}

/// tiktoken's rule for one chunk, literally, with `rank` giving a token's rank. `None` when a
/// remaining part is not a token (a rank table without every single byte).
pub fn encode_piece_naive(piece: &[u8], rank: impl Fn(&[u8]) -> Option<u32>) -> Option<Vec<u32>> {
    if piece.is_empty() {
        return Some(Vec::new());
    }
    if let Some(r) = rank(piece) {
        return Some(vec![r]);
    }
    let mut parts: Vec<Bytes> = piece.iter().map(|&b| vec![b]).collect();
    loop {
        let mut best: Option<(u32, usize)> = None;
        for i in 0..parts.len().saturating_sub(1) {
            let joined = [parts[i].as_slice(), &parts[i + 1]].concat();
            if let Some(r) = rank(&joined) {
                // Strictly lower only: the leftmost of equal ranks wins.
                if best.is_none_or(|(b, _)| r < b) {
                    best = Some((r, i));
                }
            }
        }
        let Some((_, i)) = best else { break };
        let right = parts.remove(i + 1);
        parts[i].extend_from_slice(&right);
    }
    parts.iter().map(|p| rank(p)).collect()
}
