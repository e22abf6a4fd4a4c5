//! Encoding a text that is still being typed: the tokens that further text cannot change, and
//! every way the rest may come out once more bytes follow (tiktoken's
//! `encode_with_unstable`, which completion APIs use to know which tokens a prompt may be
//! continued with).
//!
//! The rule, as tiktoken applies it:
//! 1. the tokens of the text's last chunk are unstable (more bytes may join that chunk), and
//!    so are the tokens made only of spaces, tabs and newlines just before it when its first
//!    token is such (a pattern's whitespace rule can move a split once more text comes);
//! 2. the completions are: every token whose bytes start with the unstable bytes; then, for
//!    every split of the unstable bytes into a non-empty prefix and suffix, each token starting
//!    with the suffix, appended to the prefix and encoded again (as text when that is UTF-8,
//!    else merged as one piece), cut after the first tokens that cover the unstable bytes; and,
//!    when the unstable bytes end in a whitespace character with something before it, the two
//!    merged apart.
//!
//! Only ordinary tokens count: a special token ends the unstable part (a text ending in one
//! has no completions).

use std::collections::BTreeSet;

use crate::bpe::bytelevel::pattern::{SplitError, Splitter};
use crate::bpe::bytelevel::ranks::RankTable;

/// Every ordinary token's bytes by rank and in byte order: what finding the tokens that start
/// with some bytes needs. Built once per tokenizer (sorting 200,000 tokens is milliseconds).
#[derive(Debug, Clone)]
pub struct TokenIndex {
    bytes: Vec<u8>,
    /// By rank: (start, end) in `bytes`; `None` for a rank that is no token.
    spans: Vec<Option<(u32, u32)>>,
    /// Ranks in the order of their bytes.
    sorted: Vec<u32>,
}

impl TokenIndex {
    pub fn new(ranks: &RankTable) -> Self {
        let top = ranks.iter().map(|(_, r)| r as usize + 1).max().unwrap_or(0);
        let mut index = TokenIndex {
            bytes: Vec::new(),
            spans: vec![None; top],
            sorted: Vec::with_capacity(ranks.len()),
        };
        for (bytes, rank) in ranks.iter() {
            let start = index.bytes.len() as u32;
            index.bytes.extend_from_slice(bytes);
            index.spans[rank as usize] = Some((start, index.bytes.len() as u32));
            index.sorted.push(rank);
        }
        let TokenIndex {
            bytes,
            spans,
            sorted,
        } = &mut index;
        let of = |r: u32| {
            let (s, e) = spans[r as usize].expect("listed");
            &bytes[s as usize..e as usize]
        };
        sorted.sort_unstable_by(|&a, &b| of(a).cmp(of(b)));
        index
    }

    /// The bytes of an ordinary token.
    pub fn bytes(&self, rank: u32) -> Option<&[u8]> {
        let (s, e) = (*self.spans.get(rank as usize)?)?;
        Some(&self.bytes[s as usize..e as usize])
    }

    /// The ranks of the tokens whose bytes start with `prefix`, in byte order.
    pub fn starting_with<'a>(&'a self, prefix: &'a [u8]) -> impl Iterator<Item = u32> + 'a {
        let of = |r: u32| self.bytes(r).expect("sorted ranks are tokens");
        let first = self.sorted.partition_point(|&r| of(r) < prefix);
        self.sorted[first..]
            .iter()
            .copied()
            .take_while(move |&r| of(r).starts_with(prefix))
    }
}

/// A text's stable tokens and the possible encodings of the rest.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Unstable {
    /// The tokens more text cannot change.
    pub stable: Vec<u32>,
    /// Each way the unstable rest may begin once the text goes on (each covers at least the
    /// unstable bytes, or is all of an encoding that does not reach them).
    pub completions: BTreeSet<Vec<u32>>,
}

/// Why [`encode_unstable`] could not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnstableError {
    /// The split pattern failed.
    Split(SplitError),
    /// A completion needs a byte the rank table has no token for (only a table built without
    /// every single byte; tiktoken panics there).
    MissingByte,
}

impl std::fmt::Display for UnstableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnstableError::Split(e) => write!(f, "{e}"),
            UnstableError::MissingByte => write!(
                f,
                "a completion needs a single byte the ranks have no token for"
            ),
        }
    }
}

impl std::error::Error for UnstableError {}

impl From<SplitError> for UnstableError {
    fn from(e: SplitError) -> Self {
        UnstableError::Split(e)
    }
}

/// Splits `tokens`, the encoding of a text whose part after its last allowed special token is
/// `tail` ("" when the text ends with a special token), into stable tokens and completions
/// (see the module's notes).
pub fn encode_unstable(
    ranks: &RankTable,
    splitter: &Splitter,
    index: &TokenIndex,
    mut tokens: Vec<u32>,
    tail: &str,
) -> Result<Unstable, UnstableError> {
    let mut last_chunk: &[u8] = &[];
    splitter.for_each_chunk(tail, 0, tail.len(), |chunk| last_chunk = chunk.as_bytes())?;
    let mut last_tokens = Vec::new();
    if !ranks.encode_piece(last_chunk, &mut last_tokens) {
        return Err(UnstableError::MissingByte);
    }
    if last_tokens.is_empty() {
        return Ok(Unstable {
            stable: tokens,
            completions: BTreeSet::new(),
        });
    }
    let mut unstable_len = last_tokens.len().min(tokens.len());
    let all_space = |rank: u32| {
        index
            .bytes(rank)
            .is_some_and(|b| b.iter().all(|c| matches!(c, b' ' | b'\n' | b'\t')))
    };
    if all_space(tokens[tokens.len() - unstable_len]) {
        while unstable_len < tokens.len() && all_space(tokens[tokens.len() - unstable_len - 1]) {
            unstable_len += 1;
        }
    }
    let rest = tokens.split_off(tokens.len() - unstable_len);
    let unstable: Vec<u8> = rest
        .iter()
        .flat_map(|&r| index.bytes(r).unwrap_or_default().iter().copied())
        .collect();
    let mut completions = BTreeSet::new();
    if unstable.is_empty() {
        return Ok(Unstable {
            stable: tokens,
            completions,
        });
    }
    // One token that extends the unstable bytes.
    for rank in index.starting_with(&unstable) {
        completions.insert(vec![rank]);
    }
    // A token that straddles the end: the unstable bytes' head, then a token starting with
    // their tail, encoded again as the text it makes.
    for cut in 1..unstable.len() {
        let (head, tail_bytes) = unstable.split_at(cut);
        for rank in index.starting_with(tail_bytes) {
            let mut joined = head.to_vec();
            joined.extend_from_slice(index.bytes(rank).expect("a token"));
            let mut encoded = Vec::new();
            let done = match std::str::from_utf8(&joined) {
                Ok(text) => {
                    let mut ok = true;
                    splitter.for_each_chunk(text, 0, text.len(), |chunk| {
                        ok &= ranks.encode_piece(chunk.as_bytes(), &mut encoded);
                    })?;
                    ok
                }
                Err(_) => ranks.merge_piece(&joined, &mut encoded),
            };
            if !done {
                return Err(UnstableError::MissingByte);
            }
            let mut covered = 0;
            let mut take = 0;
            for &r in &encoded {
                take += 1;
                covered += index.bytes(r).map_or(0, <[u8]>::len);
                if covered >= unstable.len() {
                    break;
                }
            }
            encoded.truncate(take);
            completions.insert(encoded);
        }
    }
    // A pattern's `\s+(?!\S)` may split a trailing whitespace character off once text follows
    // it ("\n\n" then "0" is "\n", "\n", "0"): the last character merged on its own.
    if unstable.len() > 1
        && let Some((head, last)) = split_last_char(&unstable)
        && !head.is_empty()
        && last.is_whitespace()
    {
        let mut apart = Vec::new();
        if !ranks.merge_piece(head, &mut apart)
            || !ranks.merge_piece(&unstable[head.len()..], &mut apart)
        {
            return Err(UnstableError::MissingByte);
        }
        completions.insert(apart);
    }
    Ok(Unstable {
        stable: tokens,
        completions,
    })
}

/// The bytes before the last character and that character, when the bytes end in valid UTF-8.
fn split_last_char(bytes: &[u8]) -> Option<(&[u8], char)> {
    // A character is at most 4 bytes: try each start from the shortest.
    for len in 1..=4.min(bytes.len()) {
        let (head, last) = bytes.split_at(bytes.len() - len);
        if let Ok(s) = std::str::from_utf8(last) {
            let mut chars = s.chars();
            let c = chars.next()?;
            return chars.next().is_none().then_some((head, c));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpe::bytelevel::SplitPattern;

    /// The bytes, then "ab", "abc", "bc", and "\n\n".
    fn table() -> RankTable {
        let mut tokens: Vec<(Vec<u8>, u32)> = (0..=255u8).map(|b| (vec![b], b as u32)).collect();
        tokens.extend([
            (b"ab".to_vec(), 256),
            (b"abc".to_vec(), 257),
            (b"bc".to_vec(), 258),
            (b"\n\n".to_vec(), 259),
        ]);
        RankTable::new(tokens)
    }

    fn run(text: &str) -> Unstable {
        let ranks = table();
        let splitter = Splitter::new(SplitPattern::from_regex(r"\w+|\s+(?!\S)|\s+")).unwrap();
        let index = TokenIndex::new(&ranks);
        let mut tokens = Vec::new();
        splitter
            .for_each_chunk(text, 0, text.len(), |c| {
                assert!(ranks.encode_piece(c.as_bytes(), &mut tokens));
            })
            .unwrap();
        encode_unstable(&ranks, &splitter, &index, tokens, text).unwrap()
    }

    #[test]
    fn a_word_cut_short_completes_to_each_token_that_may_straddle_its_end() {
        // "xa": "x" then a token starting with "a" ("a", "ab", "abc"), encoded again.
        let got = run("xa");
        assert_eq!(got.stable, Vec::<u32>::new());
        let want: BTreeSet<Vec<u32>> = [vec![120, 97], vec![120, 256], vec![120, 257]].into();
        assert_eq!(got.completions, want);
    }

    #[test]
    fn a_trailing_newline_may_split_off() {
        // "\n\n" is one token; text after it may leave "\n" + "\n" (the whitespace rule).
        let got = run("a\n\n");
        assert_eq!(got.stable, vec![97]);
        assert!(got.completions.contains(&vec![259]));
        assert!(got.completions.contains(&vec![10, 10]));
    }

    #[test]
    fn tokens_are_found_by_their_first_bytes() {
        let index = TokenIndex::new(&table());
        let found: Vec<u32> = index.starting_with(b"ab").collect();
        assert_eq!(found, [256, 257]);
        assert_eq!(index.bytes(258), Some(&b"bc"[..]));
        assert_eq!(index.bytes(1000), None);
    }
}
