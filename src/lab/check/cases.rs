//! Generated inputs for the checks: small alphabets so ties and repeats are common, runs like
//! `aaaa`, empty words and paragraphs, double spaces, multi-character symbols whose
//! concatenations collide, and non-ASCII text. Seeded, so every student sees the same cases.

use super::shrink::Text;
use crate::EOW;

/// The crate's SplitMix64 with the helpers the generators use.
pub(super) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        crate::rng::splitmix64(&mut self.0)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Character sets for words: tiny ones make ties and repeated pairs likely.
const ALPHABETS: [&[char]; 5] = [
    &['a', 'b'],
    &['a', 'b', 'c'],
    &['l', 'o', 'w', 'e', 'r', 's', 't', 'n'],
    &['é', '日', 'ß', 'a', '🙂'],
    &['d', 'e', 's', 'r', 't', ',', '.'],
];

/// A word over one alphabet, sometimes a run of one character, sometimes empty.
pub(super) fn word(rng: &mut Rng, alphabet: &[char]) -> String {
    if rng.chance(8) {
        return String::new();
    }
    let len = 1 + rng.below(6);
    if rng.chance(15) {
        let c = *rng.pick(alphabet);
        return std::iter::repeat_n(c, len).collect();
    }
    (0..len).map(|_| *rng.pick(alphabet)).collect()
}

/// A paragraph: words joined by single spaces, with the odd double, leading or trailing space
/// (Python's `split(" ")` turns those into empty words).
pub(super) fn paragraph(rng: &mut Rng, alphabet: &[char]) -> String {
    let words = rng.below(5);
    let mut text = String::new();
    if rng.chance(10) {
        text.push(' ');
    }
    for i in 0..words {
        if i > 0 {
            text.push_str(if rng.chance(10) { "  " } else { " " });
        }
        text.push_str(&word(rng, alphabet));
    }
    if rng.chance(10) {
        text.push(' ');
    }
    text
}

pub(super) fn alphabet(rng: &mut Rng) -> &'static [char] {
    ALPHABETS[rng.below(ALPHABETS.len())]
}

/// A dataset of 0 to 4 paragraphs over one alphabet.
pub(super) fn paragraphs(rng: &mut Rng) -> Vec<String> {
    let alphabet = alphabet(rng);
    (0..rng.below(5))
        .map(|_| paragraph(rng, alphabet))
        .collect()
}

/// [`paragraphs`] as shrinkable text.
pub(super) fn texts(rng: &mut Rng) -> Vec<Text> {
    paragraphs(rng).into_iter().map(Text).collect()
}

/// A corpus of words as symbol lists. Half the time it is an initialized dataset (characters
/// and `</w>`); otherwise words over multi-character symbols that collide when joined
/// (`a`+`ab` and `aa`+`b` both spell `aab`).
pub(super) fn corpus(rng: &mut Rng) -> Vec<Vec<String>> {
    if rng.chance(50) {
        return crate::bpe_initialize(&paragraphs(rng)).0;
    }
    const SYMBOLS: [&str; 6] = ["a", "b", "ab", "aa", "ba", EOW];
    (0..rng.below(5))
        .map(|_| {
            (0..rng.below(6))
                .map(|_| rng.pick(&SYMBOLS).to_string())
                .collect()
        })
        .collect()
}

/// A word as symbols and a pair to merge in it, usually one that occurs.
pub(super) fn word_and_pair(rng: &mut Rng) -> (Vec<String>, (String, String)) {
    let corpus = corpus(rng);
    let word: Vec<String> = corpus
        .into_iter()
        .find(|w| !w.is_empty())
        .unwrap_or_default();
    let pair = if word.len() >= 2 && rng.chance(80) {
        let i = rng.below(word.len() - 1);
        (word[i].clone(), word[i + 1].clone())
    } else {
        const SYMBOLS: [&str; 4] = ["a", "b", "ab", EOW];
        (
            rng.pick(&SYMBOLS).to_string(),
            rng.pick(&SYMBOLS).to_string(),
        )
    };
    (word, pair)
}

/// Tokens (a word's characters and `</w>`) and a merge list that is not necessarily one
/// training would produce: merges of merges, repeated pairs, pairs that never occur, and
/// orders where a lower rank appears later in the word.
pub(super) fn tokens_and_merges(rng: &mut Rng) -> (Vec<String>, Vec<(String, String)>) {
    let alphabet = alphabet(rng);
    let mut tokens: Vec<String> = word(rng, alphabet).chars().map(String::from).collect();
    tokens.push(EOW.to_owned());
    let mut pool: Vec<String> = alphabet.iter().map(|c| c.to_string()).collect();
    pool.push(EOW.to_owned());
    let mut merges = Vec::new();
    for _ in 0..rng.below(8) {
        let pair = (rng.pick(&pool).clone(), rng.pick(&pool).clone());
        pool.push(format!("{}{}", pair.0, pair.1));
        merges.push(pair);
    }
    // Often a merge uses a token that only a later merge makes: rank order and list order
    // then disagree, and only applying merges by rank gets it right.
    if merges.len() > 1 && rng.chance(50) {
        let i = rng.below(merges.len());
        let j = rng.below(merges.len());
        merges.swap(i, j);
    }
    (tokens, merges)
}

/// Training paragraphs, a merge count and a text to encode, mostly over the training
/// alphabet, sometimes with characters the vocabulary has never seen.
pub(super) fn encode_case(rng: &mut Rng) -> (Vec<Text>, usize, Text) {
    let alphabet = alphabet(rng);
    let training: Vec<Text> = (0..1 + rng.below(4))
        .map(|_| Text(paragraph(rng, alphabet)))
        .collect();
    let mut text = paragraph(rng, alphabet);
    if rng.chance(25) {
        text.push_str(if rng.chance(50) { " Z" } else { "日x" });
    }
    (training, rng.below(10), Text(text))
}
