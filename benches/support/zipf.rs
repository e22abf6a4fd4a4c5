//! Seeded synthetic English-like text with Zipfian word frequencies, for benchmarks.
//!
//! Why synthetic: machines here cannot download a real corpus, and a benchmark must be
//! reproducible byte for byte. What matters to a BPE trainer is the shape of the word-frequency
//! table (how many distinct words, how long, how skewed) and the alphabet, so that is what this
//! imitates:
//! - a fixed vocabulary of pseudo-words built from English-like syllables (plus the real top
//!   function words), shorter words getting the frequent ranks, some proper nouns, acronyms and
//!   words with non-ASCII letters;
//! - Zipf–Mandelbrot frequencies `(rank + 1)^-1.1` (the offset keeps the top word near the 6%
//!   that "the" has in English instead of 12%);
//! - surface noise of text split on spaces: sentence-initial capitals, attached punctuation
//!   ("word,", "word."), parentheses and quotes, numbers, possessives, dashes.
//!
//! The vocabulary depends only on the seed, and text is produced line by line from the same
//! generator, so a smaller corpus is a prefix of a larger one with the same seed.
//!
//! This file has no dependencies: the bench harness uses it as `support::zipf` and
//! `examples/gen_corpus.rs` includes it with `#[path]`.

use std::collections::HashSet;

/// SplitMix64: tiny, fast, and good enough for synthetic text; fully determined by the seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        bpe_lab::rng::splitmix64(&mut self.0)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is far below anything measurable here).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `[lo, hi]`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Zipf exponent of the word distribution.
pub const ZIPF_S: f64 = 1.1;
/// Mandelbrot offset added to the rank.
pub const ZIPF_Q: f64 = 1.0;
/// Word types in the vocabulary. With s = 1.1 a bit over half of them show up in 48 MB; with
/// the capital and punctuation variants that makes about 900k distinct space-split tokens,
/// the order of magnitude real text of that size has.
pub const VOCABULARY: usize = 1_000_000;

/// The most frequent English words, in rough frequency order: real text starts its merge list
/// with "th", "the</w>", "in", ..., and these make the generated text do the same.
const TOP_WORDS: &[&str] = &[
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "was", "on", "with", "as",
    "he", "be", "by", "at", "his", "I", "this", "are", "from", "or", "had", "not", "but", "have",
    "an", "they", "which", "one", "you", "were", "her", "all", "she", "there", "would", "their",
    "we", "him", "been", "has", "when", "who", "will", "more", "no", "if", "out", "so", "said",
    "what", "up", "its", "about", "into", "than", "them", "can", "only", "other", "new", "some",
    "could", "time", "these", "two", "may", "then", "do", "first", "any", "my", "now", "such",
    "like", "our", "over", "man", "me", "even", "most", "made", "after", "also", "did", "many",
    "before", "must", "through", "back", "years", "where", "much", "your", "way", "well", "down",
    "should", "because", "each", "just", "those", "people", "how", "too", "little", "state",
    "good", "very", "make", "world", "still", "own", "see", "men", "work", "long", "get", "here",
    "between", "both", "life", "being", "under", "never", "day", "same", "another", "know",
    "while", "last", "might", "us", "great", "old", "year", "off", "come", "since", "against",
    "go", "came", "right", "used", "take", "three", "don't", "it's", "can't", "didn't", "I'm",
    "that's", "there's", "won't", "isn't", "he's", "she's", "wasn't", "doesn't", "I've",
];

const ONSETS: &[&str] = &[
    "", "", "", "b", "c", "c", "d", "d", "f", "g", "h", "h", "j", "k", "l", "l", "m", "m", "n",
    "n", "p", "p", "r", "r", "s", "s", "s", "t", "t", "t", "v", "w", "w", "y", "z", "bl", "br",
    "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kn", "ph", "pl", "pr", "qu", "sc", "sh", "sk",
    "sl", "sm", "sn", "sp", "st", "str", "sw", "th", "th", "tr", "wh", "wr",
];
const NUCLEI: &[&str] = &[
    "a", "a", "a", "e", "e", "e", "e", "i", "i", "i", "o", "o", "o", "u", "u", "y", "ai", "au",
    "ea", "ee", "ei", "ie", "io", "oa", "oi", "oo", "ou", "ue",
];
const CODAS: &[&str] = &[
    "", "", "", "", "", "", "b", "ck", "d", "d", "ft", "g", "k", "l", "ld", "ll", "lt", "m", "n",
    "n", "n", "nd", "ng", "nk", "nt", "p", "r", "r", "rd", "rk", "rm", "rn", "rs", "rt", "s", "s",
    "sh", "ss", "st", "t", "t", "th", "x",
];
const SUFFIXES: &[&str] = &[
    "s", "s", "s", "es", "ed", "ed", "ing", "ing", "er", "ers", "ly", "tion", "tions", "ment",
    "ness", "al", "y", "ity", "ous", "ive", "able", "ist", "ism", "ful", "less", "ate", "ize",
];
const SENTENCE_ENDS: &[&str] = &[".", ".", ".", ".", ".", ".", ".", ".", "?", "!", ":", ";"];

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One pseudo-word of 2 to 15 characters.
fn pseudo_word(rng: &mut Rng) -> String {
    loop {
        let syllables = match rng.below(100) {
            0..=27 => 1,
            28..=64 => 2,
            65..=87 => 3,
            88..=97 => 4,
            _ => 5,
        };
        let mut word = String::new();
        for _ in 0..syllables {
            word.push_str(rng.pick(ONSETS));
            word.push_str(rng.pick(NUCLEI));
            word.push_str(rng.pick(CODAS));
        }
        if rng.chance(0.3) {
            word.push_str(rng.pick(SUFFIXES));
        }
        let len = word.chars().count();
        if (2..=15).contains(&len) {
            return word;
        }
    }
}

/// The accented forms a letter may take in borrowed words and names.
fn accents(c: char) -> &'static [char] {
    match c {
        'a' => &['á', 'à', 'ä', 'å'],
        'e' => &['é', 'è', 'ê'],
        'i' => &['í', 'ï'],
        'o' => &['ó', 'ö', 'ø'],
        'u' => &['ú', 'ü'],
        'n' => &['ñ'],
        'c' => &['ç'],
        _ => &[],
    }
}

/// A vocabulary entry other than a plain lowercase word: a proper noun, an acronym or a word
/// with a non-ASCII letter. Applied by rank, so the most frequent words stay plain as in real
/// text, and acronyms (which are short and would otherwise rank high) stay rare.
fn decorate(rng: &mut Rng, word: &str, rank: usize) -> Option<String> {
    let roll = rng.unit();
    if rank >= 300 && roll < 0.08 {
        Some(capitalize(word))
    } else if rank >= 20_000 && roll < 0.084 {
        let len = rng.range(2, 5);
        Some(
            (0..len)
                .map(|_| (b'A' + rng.below(26) as u8) as char)
                .collect(),
        )
    } else if rank >= 2_000 && roll < 0.10 {
        let chars: Vec<char> = word.chars().collect();
        let spots: Vec<usize> = (0..chars.len())
            .filter(|&i| !accents(chars[i]).is_empty())
            .collect();
        if spots.is_empty() {
            return None;
        }
        let at = rng.pick(&spots);
        let mut chars = chars;
        chars[at] = rng.pick(accents(chars[at]));
        Some(chars.into_iter().collect())
    } else {
        None
    }
}

/// Builds the vocabulary in rank order and the cumulative distribution over it.
fn vocabulary(rng: &mut Rng, size: usize) -> (Vec<String>, Vec<f64>) {
    let mut seen: HashSet<String> = TOP_WORDS.iter().map(|w| w.to_string()).collect();
    let mut generated: Vec<(f64, String)> = Vec::with_capacity(size);
    while generated.len() + TOP_WORDS.len() < size {
        let word = pseudo_word(rng);
        if seen.insert(word.clone()) {
            // Frequent words are short in real text: rank by length plus noise (a sum of
            // uniforms, roughly normal with sd ~1.7), so the correlation is loose.
            let noise: f64 = (0..4).map(|_| rng.unit()).sum::<f64>() * 3.0 - 6.0;
            generated.push((word.chars().count() as f64 + noise, word));
        }
    }
    generated.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut words: Vec<String> = TOP_WORDS
        .iter()
        .map(|w| w.to_string())
        .chain(generated.into_iter().map(|(_, w)| w))
        .collect();
    for (rank, word) in words.iter_mut().enumerate().skip(TOP_WORDS.len()) {
        if let Some(decorated) = decorate(rng, word, rank) {
            // A collision with an existing entry would duplicate a type; keep it plain then.
            if seen.insert(decorated.clone()) {
                *word = decorated;
            }
        }
    }
    let mut cdf = Vec::with_capacity(words.len());
    let mut total = 0.0;
    for rank in 1..=words.len() {
        total += (rank as f64 + ZIPF_Q).powf(-ZIPF_S);
        cdf.push(total);
    }
    for p in &mut cdf {
        *p /= total;
    }
    (words, cdf)
}

/// An endless source of generated paragraphs, one per line.
pub struct ZipfText {
    rng: Rng,
    words: Vec<String>,
    cdf: Vec<f64>,
}

impl ZipfText {
    /// The generator for `seed` with the default vocabulary size.
    pub fn new(seed: u64) -> Self {
        Self::with_vocabulary(seed, VOCABULARY)
    }

    pub fn with_vocabulary(seed: u64, size: usize) -> Self {
        let mut rng = Rng::new(seed);
        let (words, cdf) = vocabulary(&mut rng, size);
        ZipfText { rng, words, cdf }
    }

    fn word(&mut self) -> &str {
        let u = self.rng.unit();
        let rank = self
            .cdf
            .partition_point(|&p| p < u)
            .min(self.words.len() - 1);
        &self.words[rank]
    }

    fn number(&mut self) -> String {
        let rng = &mut self.rng;
        match rng.below(10) {
            0..=3 => rng.range(1700, 2030).to_string(),
            4..=6 => rng.range(1, 100).to_string(),
            7 => format!("{}.{}", rng.range(0, 99), rng.range(0, 9)),
            8 => format!("{},{:03}", rng.range(1, 999), rng.below(1000)),
            _ => format!("{}%", rng.range(1, 100)),
        }
    }

    /// Appends one paragraph of 20 to 200 space-separated tokens (no newline).
    pub fn paragraph(&mut self, out: &mut String) {
        let len = self.rng.range(20, 200);
        let mut sentence_left = 0;
        let mut open: Option<&str> = None; // closing bracket or quote still owed
        for i in 0..len {
            let starts_sentence = sentence_left == 0;
            if starts_sentence {
                sentence_left = self.rng.range(5, 30);
            }
            sentence_left -= 1;
            let last = i + 1 == len;
            let ends_sentence = sentence_left == 0 || last;
            if i > 0 {
                out.push(' ');
            }
            if !starts_sentence && self.rng.chance(0.003) {
                // A free-standing dash, as in "word — word".
                out.push_str(if self.rng.chance(0.7) { "—" } else { "-" });
                out.push(' ');
            }
            if open.is_none() && !ends_sentence && self.rng.chance(0.008) {
                let (opening, closing) = if self.rng.chance(0.6) {
                    ("(", ")")
                } else {
                    ("\"", "\"")
                };
                out.push_str(opening);
                open = Some(closing);
            }
            let token = if self.rng.chance(0.012) {
                self.number()
            } else if starts_sentence {
                let word = self.word().to_owned();
                capitalize(&word)
            } else {
                self.word().to_owned()
            };
            out.push_str(&token);
            if token.starts_with(|c: char| c.is_uppercase()) && self.rng.chance(0.03) {
                out.push_str("'s");
            }
            if let Some(closing) = open
                && (ends_sentence || self.rng.chance(0.3))
            {
                out.push_str(closing);
                open = None;
            }
            if ends_sentence {
                out.push_str(self.rng.pick(SENTENCE_ENDS));
                sentence_left = 0;
            } else if self.rng.chance(0.07) {
                out.push(',');
            }
        }
    }

    /// At least `bytes` bytes of paragraphs, each ending in a newline.
    pub fn text(&mut self, bytes: usize) -> String {
        let mut out = String::with_capacity(bytes + 4096);
        while out.len() < bytes {
            self.paragraph(&mut out);
            out.push('\n');
        }
        out
    }
}

/// `bytes` (rounded up to whole lines) of generated text for `seed`.
pub fn generate(bytes: usize, seed: u64) -> String {
    ZipfText::new(seed).text(bytes)
}
