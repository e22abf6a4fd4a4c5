//! What tokenizers cost the words of Africa Galore (notebook 07): the dataset's African names
//! beside its common English words, and how many tokens each tokenizer spends on a word of
//! each kind. Every figure comes from the data loaded and the tokenizers given; nothing here
//! knows a result in advance.

use super::bars::Bars;
use super::display::{Html, table};
use crate::tokenizer::ByteLevelTokenizer;
use std::collections::{HashMap, HashSet};

/// Capitalised English words that name things in the dataset's `name` column without ever
/// being written in lower case in its descriptions ("Cape Town", "Great Mosque", "Bunny
/// Chow"). They are not African words, so the African list leaves them out.
const ENGLISH_IN_NAMES: [&str; 16] = [
    "Bunny", "Cape", "Chow", "Church", "Churches", "Coast", "Festival", "Great", "Mosque",
    "National", "Park", "Reed", "Rock", "Saint", "The", "Town",
];

fn is_word_char(c: char) -> bool {
    // Combining accents (U+0300–U+036F) belong to the letter before them: "Yoru\u{300}ba".
    c.is_alphabetic() || ('\u{300}'..='\u{36f}').contains(&c)
}

/// The words of `text`: runs of letters (accents included, whatever the script), with an
/// apostrophe between two letters kept inside the word (`N'Dour`).
///
/// ```
/// use bpe_lab::lab::token_tax::words;
/// assert_eq!(words("Youssou N'Dour sang, in Dakar!"), ["Youssou", "N'Dour", "sang", "in", "Dakar"]);
/// assert_eq!(words("ኢትዮጵያ 2024 Yoru\u{300}ba"), ["ኢትዮጵያ", "Yoru\u{300}ba"]);
/// ```
pub fn words(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &(at, c)) in chars.iter().enumerate() {
        let inside_apostrophe = matches!(c, '\'' | '’')
            && start.is_some()
            && chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphabetic());
        if is_word_char(c) || inside_apostrophe {
            start.get_or_insert(at);
        } else if let Some(s) = start.take() {
            out.push(&text[s..at]);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// A token counter with the tokenizer's name: what the measurements take, one per tokenizer.
pub type Counter<'a> = (&'a str, &'a dyn Fn(&str) -> usize);

/// How common words are in English at large: each word (lower case) and its Zipf frequency,
/// log10 of its occurrences per billion words of English (3 is once per million words, 6 once
/// per thousand). The bundled slice holds the words of the Africa Galore stand-in, from the
/// PyPI package `wordfreq` (`data/README.md` says which version, how, and its licence).
pub type Frequencies = HashMap<String, f64>;

/// The least Zipf frequency of an English control: once per ten million words of English. The
/// descriptions also write African words in lower case (`teff`, `soukous`, `ceebu`); English
/// at large barely knows them (under 2), while an English word has a foothold there.
pub const ENGLISH_FLOOR: f64 = 2.0;

/// The bundled slice of `wordfreq`'s English frequencies (`data/english_frequencies.json`).
pub const ENGLISH_FREQUENCIES_JSON: &str = include_str!("../../data/english_frequencies.json");

/// The bundled English frequencies of every word of the stand-in (see [`Frequencies`]).
///
/// ```
/// let zipf = bpe_lab::lab::token_tax::english_frequencies();
/// assert!(zipf["the"] > 7.0 && zipf["lagos"] < zipf["the"]);
/// ```
pub fn english_frequencies() -> Frequencies {
    #[derive(serde::Deserialize)]
    struct Slice {
        zipf: Frequencies,
    }
    let slice: Slice = serde_json::from_str(ENGLISH_FREQUENCIES_JSON)
        .expect("the bundled frequency slice is the JSON this module reads");
    slice.zipf
}

/// A word of the dataset and how often its descriptions use it.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    /// Occurrences in the descriptions (0 for a word from outside the data).
    pub count: usize,
    /// Its Zipf frequency in English at large (lower case), when the frequencies list it.
    pub zipf: Option<f64>,
}

impl Word {
    /// Its letters (characters).
    pub fn letters(&self) -> usize {
        self.text.chars().count()
    }
}

/// The three lists of words the tax is measured on, each in the order of `african`: the
/// `i`-th English word and the `i`-th place were chosen to match the `i`-th name.
#[derive(Debug, Clone, PartialEq)]
pub struct Groups {
    /// Words of the dataset's names (`name` column) that its descriptions use but never write
    /// in lower case, most frequent first: Lagos, Djenné, Thieboudienne, …
    pub african: Vec<Word>,
    /// For each name, an English word that the descriptions write in lower case (one whose
    /// Zipf frequency is at least [`ENGLISH_FLOOR`]), as common in English at large as the
    /// name (the nearest Zipf frequency, a name not listed counting as 0), then as near in
    /// length; each word once, written with a capital as the names are
    /// (`River`), since a capital changes the tokens.
    pub english: Vec<Word>,
    /// For each name, the place of `places` nearest in length, each once, while they last.
    pub places: Vec<Word>,
    /// The words of the names that the rule left out, each once, alphabetically, with why.
    pub dropped: Vec<(String, Dropped)>,
}

/// Why a word of the dataset's names is not on the list of African names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dropped {
    /// It does not start with a capital (`of`, `de`).
    NotCapitalised,
    /// The descriptions write it in lower case (`Rice`, `Market`).
    WrittenInLowerCase,
    /// The descriptions never use it.
    NotInDescriptions,
    /// One of the capitalised English words of names (`Cape`, `Town`).
    EnglishWord,
}

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dropped::NotCapitalised => "no capital",
            Dropped::NotInDescriptions => "not in the descriptions",
            Dropped::WrittenInLowerCase => "written in lower case too",
            Dropped::EnglishWord => "an English word of names",
        })
    }
}

/// `word` with its first letter a capital: `river` → `River`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A fixed shuffle of words: among equally good controls, the one whose hash is smallest, so
/// that the choice favours no part of the alphabet and is the same on every run.
fn shuffled(word: &str) -> u64 {
    // FNV-1a, then one splitmix64 step to spread it.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in word.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    crate::rng::splitmix64(&mut h)
}

/// Picks the lists from the dataset: `names` is its `name` column (empty for a corpus
/// without one: then the capitalised words of the descriptions stand in), `paragraphs` its
/// descriptions, `places` names of places outside Africa to compare with, `english` how common
/// words are in English at large (both controls are matched on it, nearest frequency first,
/// then nearest length; an English word it does not list is never a control, a place or name
/// it does not list counts as frequency 0). Names are listed most frequent first, then
/// alphabetically; among equally close controls the choice follows a fixed shuffle (a hash of
/// the word), so the lists are the same on every run.
///
/// ```
/// use bpe_lab::lab::token_tax::matched_groups;
/// let names = vec!["Jollof Rice".to_string(), "Lagos".to_string()];
/// let text = vec!["In Lagos the jollof rice is famous, and Lagos cooks agree: famous.".to_string()];
/// let zipf = [("lagos", 3.6), ("famous", 4.6), ("cooks", 3.5), ("agree", 4.7), ("paris", 4.8), ("oslo", 3.5)]
///     .into_iter().map(|(w, z)| (w.to_string(), z)).collect();
/// let groups = matched_groups(&names, &text, &["Oslo", "Paris"], &zipf);
/// let words = |list: &[bpe_lab::lab::token_tax::Word]| list.iter().map(|w| w.text.clone()).collect::<Vec<_>>();
/// assert_eq!(words(&groups.african), ["Lagos"]);
/// assert_eq!(words(&groups.english), ["Cooks"]); // the nearest in English, as Lagos is
/// assert_eq!(words(&groups.places), ["Oslo"]);    // as rare in English as Lagos, not famous Paris
/// ```
pub fn matched_groups(
    names: &[String],
    paragraphs: &[String],
    places: &[&str],
    english: &Frequencies,
) -> Groups {
    let mut count: HashMap<&str, usize> = HashMap::new();
    let mut lower: HashSet<&str> = HashSet::new();
    for paragraph in paragraphs {
        for w in words(paragraph) {
            *count.entry(w).or_insert(0) += 1;
            if !w.chars().any(char::is_uppercase) {
                lower.insert(w);
            }
        }
    }
    let candidates: Vec<&str> = if names.is_empty() {
        count.keys().copied().collect()
    } else {
        names.iter().flat_map(|n| words(n)).collect()
    };
    let lowered: HashSet<String> = candidates.iter().map(|w| w.to_lowercase()).collect();
    let why_dropped = |w: &str| {
        if !w.chars().next().is_some_and(char::is_uppercase) {
            Some(Dropped::NotCapitalised)
        } else if lower.contains(w.to_lowercase().as_str()) {
            Some(Dropped::WrittenInLowerCase)
        } else if !count.contains_key(w) {
            Some(Dropped::NotInDescriptions)
        } else if ENGLISH_IN_NAMES.contains(&w) {
            Some(Dropped::EnglishWord)
        } else {
            None
        }
    };
    let distinct: HashSet<&str> = candidates.into_iter().collect();
    let mut dropped: Vec<(String, Dropped)> = distinct
        .iter()
        .filter_map(|w| why_dropped(w).map(|why| (w.to_string(), why)))
        .collect();
    dropped.sort();
    let mut african: Vec<&str> = distinct
        .into_iter()
        .filter(|w| why_dropped(w).is_none())
        .collect();
    african.sort_by(|a, b| count[b].cmp(&count[a]).then_with(|| a.cmp(b)));
    let zipf = |w: &str| english.get(&w.to_lowercase()).copied();
    let mut pool: Vec<&str> = lower
        .iter()
        .copied()
        .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()))
        .filter(|w| !lowered.contains(*w))
        .filter(|w| zipf(w).is_some_and(|z| z >= ENGLISH_FLOOR))
        .collect();
    pool.sort();
    let word = |w: &str| Word {
        text: w.to_string(),
        count: count.get(w).copied().unwrap_or(0),
        zipf: zipf(w),
    };
    let letters = |w: &str| w.chars().count();
    let mut english_used: HashSet<&str> = HashSet::new();
    let mut places_used: HashSet<&str> = HashSet::new();
    let mut groups = Groups {
        african: Vec::new(),
        english: Vec::new(),
        places: Vec::new(),
        dropped,
    };
    for &name in &african {
        let len = letters(name);
        // Hundredths of a Zipf unit: the frequencies are given to two decimals.
        let hundredths = |z: f64| (z * 100.0).round() as i64;
        let target = hundredths(zipf(name).unwrap_or(0.0));
        if let Some(&best) = pool
            .iter()
            .filter(|w| !english_used.contains(*w))
            .min_by_key(|w| {
                let away = hundredths(zipf(w).unwrap_or(0.0)).abs_diff(target);
                (away, letters(w).abs_diff(len), shuffled(w))
            })
        {
            english_used.insert(best);
            groups.english.push(Word {
                text: capitalised(best),
                ..word(best)
            });
        }
        // Places are matched as the English words are: a famous city is one token because it
        // is common, so a place only controls for origin when it is as rare as the name.
        if let Some(&best) = places
            .iter()
            .filter(|p| !places_used.contains(*p))
            .min_by_key(|p| {
                let away = hundredths(zipf(p).unwrap_or(0.0)).abs_diff(target);
                (away, letters(p).abs_diff(len), shuffled(p))
            })
        {
            places_used.insert(best);
            groups.places.push(word(best));
        }
        groups.african.push(word(name));
    }
    groups
}

/// One list's words with their token counts under every tokenizer measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub label: String,
    /// Each word and its tokens under each tokenizer.
    pub words: Vec<(Word, Vec<usize>)>,
}

impl Measured {
    /// Mean tokens per word under tokenizer `t`.
    pub fn per_word(&self, t: usize) -> f64 {
        let total: usize = self.words.iter().map(|(_, c)| c[t]).sum();
        total as f64 / self.words.len() as f64
    }

    /// Tokens per letter under `t`: all the list's tokens over all its letters.
    pub fn per_letter(&self, t: usize) -> f64 {
        let tokens: usize = self.words.iter().map(|(_, c)| c[t]).sum();
        let letters: usize = self.words.iter().map(|(w, _)| w.letters()).sum();
        tokens as f64 / letters as f64
    }

    /// The fewest, the median and the most tokens a word of the list takes under `t` (the
    /// median of an even number of words is the lower middle one).
    pub fn spread(&self, t: usize) -> (usize, usize, usize) {
        let mut counts: Vec<usize> = self.words.iter().map(|(_, c)| c[t]).collect();
        counts.sort_unstable();
        match (counts.first(), counts.last()) {
            (Some(&lo), Some(&hi)) => (lo, counts[(counts.len() - 1) / 2], hi),
            _ => (0, 0, 0),
        }
    }

    /// Mean letters per word.
    pub fn letters(&self) -> f64 {
        let letters: usize = self.words.iter().map(|(w, _)| w.letters()).sum();
        letters as f64 / self.words.len() as f64
    }

    /// Mean occurrences in the descriptions.
    pub fn occurrences(&self) -> f64 {
        let n: usize = self.words.iter().map(|(w, _)| w.count).sum();
        n as f64 / self.words.len() as f64
    }
}

/// Tokens per word of the three lists under every tokenizer measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Tax {
    /// The tokenizers' names, in the order measured.
    pub tokenizers: Vec<String>,
    /// African names, matched English words, matched places.
    pub lists: Vec<Measured>,
}

/// Counts the tokens of every word of every list under every tokenizer. A word is measured
/// as it appears inside a sentence, after a space (`" Lagos"`), which is how GPT's
/// tokenizers see most words; `count` returns the number of tokens of its argument.
pub fn measure(groups: &Groups, tokenizers: &[Counter]) -> Tax {
    let costs = |label: &str, list: &[Word]| Measured {
        label: label.to_string(),
        words: list
            .iter()
            .map(|w| {
                let spaced = format!(" {}", w.text);
                (
                    w.clone(),
                    tokenizers.iter().map(|(_, count)| count(&spaced)).collect(),
                )
            })
            .collect(),
    };
    Tax {
        tokenizers: tokenizers
            .iter()
            .map(|(name, _)| name.to_string())
            .collect(),
        lists: vec![
            costs("African names", &groups.african),
            costs(
                "English words, nearest frequency in English",
                &groups.english,
            ),
            costs(
                "places outside Africa, nearest frequency in English",
                &groups.places,
            ),
        ],
    }
}

impl Tax {
    /// What the lists are: words, mean occurrences in the descriptions, mean Zipf frequency in
    /// English at large (of the words the frequencies list, a name not listed counting 0),
    /// mean letters.
    pub fn lists(&self) -> Html {
        let rows: Vec<Vec<String>> = self
            .lists
            .iter()
            .map(|m| {
                let listed: Vec<f64> = m.words.iter().filter_map(|(w, _)| w.zipf).collect();
                let zipf = if listed.is_empty() {
                    "-".to_string()
                } else {
                    format!("{:.2}", listed.iter().sum::<f64>() / listed.len() as f64)
                };
                vec![
                    m.label.clone(),
                    m.words.len().to_string(),
                    format!("{:.2}", m.occurrences()),
                    zipf,
                    format!("{:.2}", m.letters()),
                ]
            })
            .collect();
        table(
            &[
                "list",
                "words",
                "mean occurrences in the descriptions",
                "mean Zipf frequency in English",
                "mean letters",
            ],
            &rows,
        )
    }

    /// One row per tokenizer: mean tokens per word of each list, and the names' figure over
    /// each control's.
    pub fn summary(&self) -> Html {
        self.rates(Measured::per_word, 2)
    }

    /// How the words of each list spread: per tokenizer, each list's fewest, median and most
    /// tokens per word, and how many of its words are one token.
    pub fn spread(&self) -> Html {
        let mut headers: Vec<String> = vec!["tokenizer".to_string()];
        headers.extend(
            self.lists
                .iter()
                .map(|m| format!("{}: fewest / median / most (one token)", m.label)),
        );
        let rows: Vec<Vec<String>> = (0..self.tokenizers.len())
            .map(|t| {
                let mut row = vec![self.tokenizers[t].clone()];
                row.extend(self.lists.iter().map(|m| {
                    let (lo, mid, hi) = m.spread(t);
                    let single = m.words.iter().filter(|(_, c)| c[t] == 1).count();
                    format!("{lo} / {mid} / {hi} ({single} of {})", m.words.len())
                }));
                row
            })
            .collect();
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        table(&headers, &rows)
    }

    /// The same per letter: all of a list's tokens over all of its letters.
    pub fn per_letter(&self) -> Html {
        self.rates(Measured::per_letter, 3)
    }

    fn rates(&self, rate: fn(&Measured, usize) -> f64, digits: usize) -> Html {
        let mut headers: Vec<String> = vec!["tokenizer".to_string()];
        headers.extend(self.lists.iter().map(|m| m.label.clone()));
        headers.extend(
            self.lists
                .iter()
                .skip(1)
                .map(|m| format!("{} ÷ {}", self.lists[0].label, m.label)),
        );
        let rows: Vec<Vec<String>> = (0..self.tokenizers.len())
            .map(|t| {
                let mut row = vec![self.tokenizers[t].clone()];
                row.extend(
                    self.lists
                        .iter()
                        .map(|m| format!("{:.digits$}", rate(m, t))),
                );
                let names = rate(&self.lists[0], t);
                row.extend(
                    self.lists
                        .iter()
                        .skip(1)
                        .map(|m| format!("{:.2}×", names / rate(m, t))),
                );
                row
            })
            .collect();
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        table(&headers, &rows)
    }

    /// The first `top` words of each list with their token counts under every tokenizer.
    pub fn words(&self, top: usize) -> Html {
        let mut headers: Vec<&str> = vec!["word", "list", "occurrences", "Zipf", "letters"];
        headers.extend(self.tokenizers.iter().map(String::as_str));
        let rows: Vec<Vec<String>> = self
            .lists
            .iter()
            .flat_map(|m| {
                m.words.iter().take(top).map(move |(w, counts)| {
                    let mut row = vec![
                        w.text.clone(),
                        m.label.clone(),
                        w.count.to_string(),
                        w.zipf.map_or("-".to_string(), |z| format!("{z:.2}")),
                        w.letters().to_string(),
                    ];
                    row.extend(counts.iter().map(usize::to_string));
                    row
                })
            })
            .collect();
        table(&headers, &rows)
    }

    /// Mean tokens per word as grouped bars, one group per tokenizer.
    pub fn chart(&self) -> Bars {
        let names: Vec<&str> = self.tokenizers.iter().map(String::as_str).collect();
        let n = names.len();
        let mut bars = Bars::new("Tokens per word", "mean tokens per word", &names);
        for m in &self.lists {
            bars = bars.series(&m.label, (0..n).map(|t| m.per_word(t)).collect());
        }
        bars
    }
}

/// How many tokens `tokenizer` makes of `text` with `encode_ordinary`. A text it cannot
/// encode stops the caller with the tokenizer's error, never counts as 0 tokens.
pub fn tokens_in(tokenizer: &ByteLevelTokenizer, text: &str) -> usize {
    match tokenizer.encode_ordinary(text) {
        Ok(ids) => ids.len(),
        Err(e) => panic!("{} could not encode {text:?}: {e}", tokenizer.name()),
    }
}

/// Calls `f` with a token counter per tokenizer, named by the tokenizer's name: what
/// [`measure`], [`paragraph_rates`] and [`super::parallel::measure`] take.
pub fn with_tokenizers<R>(
    tokenizers: &[&ByteLevelTokenizer],
    f: impl FnOnce(&[Counter]) -> R,
) -> R {
    type Boxed<'t> = Box<dyn Fn(&str) -> usize + 't>;
    let counters: Vec<Boxed> = tokenizers
        .iter()
        .map(|&t| Box::new(move |text: &str| tokens_in(t, text)) as Boxed)
        .collect();
    let named: Vec<Counter> = tokenizers
        .iter()
        .zip(&counters)
        .map(|(t, c)| (t.name(), c.as_ref()))
        .collect();
    f(&named)
}

/// Whole paragraphs under each tokenizer: tokens, bytes per token and characters per token
/// over all of `paragraphs`.
pub fn paragraph_rates(paragraphs: &[String], tokenizers: &[Counter]) -> Html {
    let bytes: usize = paragraphs.iter().map(|p| p.len()).sum();
    let chars: usize = paragraphs.iter().map(|p| p.chars().count()).sum();
    let rows: Vec<Vec<String>> = tokenizers
        .iter()
        .map(|(name, count)| {
            let tokens: usize = paragraphs.iter().map(|p| count(p)).sum();
            vec![
                name.to_string(),
                tokens.to_string(),
                format!("{:.2}", bytes as f64 / tokens as f64),
                format!("{:.2}", chars as f64 / tokens as f64),
            ]
        })
        .collect();
    table(
        &[
            "tokenizer",
            "tokens",
            "bytes per token",
            "characters per token",
        ],
        &rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_accents_and_inner_apostrophes_only() {
        assert_eq!(words("'tis Côte d'Ivoire's"), ["tis", "Côte", "d'Ivoire's"]);
        assert_eq!(words("ߒߞߏ, 🙂 ok"), ["ߒߞߏ", "ok"]);
        assert!(words("2024 — !").is_empty());
    }

    #[test]
    fn english_words_written_in_lower_case_somewhere_are_not_african() {
        let names = vec![
            "Great Mosque of Djenné".to_string(),
            "Market Day".to_string(),
        ];
        let text = vec!["The Great Mosque of Djenné hosts a market. Djenné!".to_string()];
        let zipf: Frequencies = [("djenné", 2.0), ("hosts", 3.9), ("market", 5.0)]
            .into_iter()
            .map(|(w, z)| (w.to_string(), z))
            .collect();
        let groups = matched_groups(&names, &text, &[], &zipf);
        let african: Vec<&str> = groups.african.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(african, ["Djenné"]);
        assert!(groups.english.iter().all(|w| w.text != "Market"));
        assert!(groups.places.is_empty());
        let dropped: Vec<(&str, Dropped)> = groups
            .dropped
            .iter()
            .map(|(w, why)| (w.as_str(), *why))
            .collect();
        assert_eq!(
            dropped,
            [
                ("Day", Dropped::NotInDescriptions),
                ("Great", Dropped::EnglishWord),
                ("Market", Dropped::WrittenInLowerCase),
                ("Mosque", Dropped::EnglishWord),
                ("of", Dropped::NotCapitalised),
            ]
        );
    }

    #[test]
    fn controls_match_english_frequency_then_length_each_used_once() {
        let names = vec!["Bamako".to_string(), "Lomé".to_string()];
        let text = vec![
            "Bamako Bamako Lomé: the river river flows, sand lies, a market markets.".to_string(),
        ];
        let zipf: Frequencies = [
            ("bamako", 3.0),
            ("lomé", 2.0),
            ("river", 3.1),
            ("sand", 2.1),
            ("lies", 2.1),
            ("flows", 5.0),
            ("markets", 4.0),
        ]
        .into_iter()
        .map(|(w, z)| (w.to_string(), z))
        .collect();
        let zipf: Frequencies = zipf
            .into_iter()
            .chain([
                ("rome".to_string(), 4.4),
                ("berlin".to_string(), 4.5),
                ("tartu".to_string(), 2.1),
                ("oslo".to_string(), 3.2),
            ])
            .collect();
        let groups = matched_groups(&names, &text, &["Rome", "Berlin", "Tartu", "Oslo"], &zipf);
        let list = |l: &[Word]| l.iter().map(|w| w.text.clone()).collect::<Vec<_>>();
        assert_eq!(list(&groups.african), ["Bamako", "Lomé"]);
        // Bamako (3.0) → "river" (3.1), the nearest in English; Lomé (2.0, four letters) →
        // "lies" or "sand" (2.1, four letters), whichever the shuffle puts first; "a" and
        // "the" are not in the frequencies, so never controls.
        // Capitalised as the names are.
        assert_eq!(groups.english[0].text, "River");
        let second = &groups.english[1].text;
        assert!(second == "Lies" || second == "Sand", "{second}");
        let first = if shuffled("lies") < shuffled("sand") {
            "Lies"
        } else {
            "Sand"
        };
        assert_eq!(second, first);
        // Places by frequency too: Bamako (3.0) → Oslo (3.2), not Rome (4.4) or Berlin (4.5),
        // though Berlin has Bamako's six letters; Lomé (2.0) → Tartu (2.1), not Rome, though
        // Rome has Lomé's four letters.
        assert_eq!(list(&groups.places), ["Oslo", "Tartu"]);
    }

    #[test]
    fn measure_counts_each_word_after_a_space() {
        let w = |t: &str, count: usize| Word {
            text: t.to_string(),
            count,
            zipf: None,
        };
        let groups = Groups {
            african: vec![w("Lagos", 3), w("Djenné", 1)],
            english: vec![w("water", 2), w("sand", 2)],
            places: vec![w("Paris", 0)],
            dropped: Vec::new(),
        };
        let bytes = |w: &str| w.len();
        let chars = |w: &str| w.chars().count();
        let tax = measure(&groups, &[("bytes", &bytes), ("chars", &chars)]);
        assert_eq!(tax.lists[0].words[1].1, vec![8, 7]);
        assert_eq!(tax.lists[0].per_word(0), 7.0);
        assert_eq!(tax.lists[1].per_word(1), 5.5);
        // 11 letters, 15 characters with the two spaces.
        assert!((tax.lists[0].per_letter(1) - 13.0 / 11.0).abs() < 1e-12);
        assert_eq!(tax.lists[1].occurrences(), 2.0);
        assert!(tax.per_letter().text.contains("1.182"));
        // Names 7 bytes a word, English 5.5: 1.27 times.
        assert!(
            tax.summary().text.contains("1.27×"),
            "{}",
            tax.summary().text
        );
        assert_eq!(tax.words(1).text.lines().count(), 4);
        // Bytes of " Lagos" and " Djenné": 6 and 8.
        assert_eq!(tax.lists[0].spread(0), (6, 6, 8));
        assert!(tax.spread().text.contains("6 / 6 / 8 (0 of 2)"));
        let rates = paragraph_rates(&["ab cd".to_string()], &[("bytes", &bytes)]);
        assert!(rates.text.contains("1.00"), "{}", rates.text);
    }
}
