//! What tokenizers cost the words of Africa Galore (notebook 07): the dataset's African names
//! beside its common English words, and how many tokens each tokenizer spends on a word of
//! each kind. Every figure comes from the data loaded and the tokenizers given; nothing here
//! knows a result in advance.

use super::bars::Bars;
use super::display::{Html, table};
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
/// use bpe_lab::lab::tax::words;
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

/// The two lists of words the tax is measured on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordSets {
    /// Words of the dataset's names (`name` column) that its descriptions use but never write
    /// in lower case, most frequent first: Lagos, Djenné, Thieboudienne, …
    pub african: Vec<String>,
    /// The descriptions' most frequent lower-case English words of five letters or more.
    pub english: Vec<String>,
}

/// Picks up to `per_set` words of each kind from the dataset: `names` is its `name` column
/// (empty for a corpus without one: then the capitalised words of the descriptions stand in),
/// `paragraphs` its descriptions. Ties in frequency go alphabetically, so the lists are the
/// same on every run.
///
/// ```
/// use bpe_lab::lab::tax::word_sets;
/// let names = vec!["Jollof Rice".to_string(), "Lagos".to_string()];
/// let text = vec!["In Lagos the jollof rice is famous, and Lagos cooks agree: famous.".to_string()];
/// let sets = word_sets(&names, &text, 5);
/// assert_eq!(sets.african, ["Lagos"]);
/// assert_eq!(sets.english, ["famous", "agree", "cooks"]);
/// ```
pub fn word_sets(names: &[String], paragraphs: &[String], per_set: usize) -> WordSets {
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
    let mut african: Vec<&str> = candidates
        .into_iter()
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .filter(|w| count.contains_key(w) && !lower.contains(w.to_lowercase().as_str()))
        .filter(|w| !ENGLISH_IN_NAMES.contains(w))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut english: Vec<&str> = lower
        .iter()
        .copied()
        .filter(|w| w.len() >= 5 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .filter(|w| !lowered.contains(*w))
        .collect();
    for list in [&mut african, &mut english] {
        list.sort_by(|a, b| count[b].cmp(&count[a]).then_with(|| a.cmp(b)));
        list.truncate(per_set);
    }
    WordSets {
        african: african.into_iter().map(String::from).collect(),
        english: english.into_iter().map(String::from).collect(),
    }
}

/// Tokens per word, for every word of both lists under every tokenizer measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Tax {
    /// The tokenizers' names, in the order measured.
    pub tokenizers: Vec<String>,
    /// Each African word and its token count under each tokenizer.
    pub african: Vec<(String, Vec<usize>)>,
    /// Each English word and its token count under each tokenizer.
    pub english: Vec<(String, Vec<usize>)>,
}

/// Counts the tokens of every word under every tokenizer. A word is measured as it appears
/// inside a sentence, after a space (`" Lagos"`), which is how GPT's tokenizers see most
/// words; `count` returns the number of tokens of its argument.
pub fn measure(sets: &WordSets, tokenizers: &[(&str, &dyn Fn(&str) -> usize)]) -> Tax {
    let costs = |list: &[String]| -> Vec<(String, Vec<usize>)> {
        list.iter()
            .map(|w| {
                let spaced = format!(" {w}");
                (
                    w.clone(),
                    tokenizers.iter().map(|(_, count)| count(&spaced)).collect(),
                )
            })
            .collect()
    };
    Tax {
        tokenizers: tokenizers
            .iter()
            .map(|(name, _)| name.to_string())
            .collect(),
        african: costs(&sets.african),
        english: costs(&sets.english),
    }
}

fn mean(rows: &[(String, Vec<usize>)], t: usize) -> f64 {
    if rows.is_empty() {
        return f64::NAN;
    }
    rows.iter().map(|(_, c)| c[t] as f64).sum::<f64>() / rows.len() as f64
}

impl Tax {
    /// Mean tokens per African word under tokenizer `t`.
    pub fn african_mean(&self, t: usize) -> f64 {
        mean(&self.african, t)
    }

    /// Mean tokens per English word under tokenizer `t`.
    pub fn english_mean(&self, t: usize) -> f64 {
        mean(&self.english, t)
    }

    /// How many times the tokens of an English word an African word costs under `t`.
    pub fn ratio(&self, t: usize) -> f64 {
        self.african_mean(t) / self.english_mean(t)
    }

    /// One row per tokenizer: mean tokens per word of each list, and their ratio.
    pub fn summary(&self) -> Html {
        let rows: Vec<Vec<String>> = (0..self.tokenizers.len())
            .map(|t| {
                vec![
                    self.tokenizers[t].clone(),
                    format!("{:.2}", self.african_mean(t)),
                    format!("{:.2}", self.english_mean(t)),
                    format!("{:.1}×", self.ratio(t)),
                ]
            })
            .collect();
        let african = format!("African names ({} words)", self.african.len());
        let english = format!("English words ({} words)", self.english.len());
        table(
            &["tokenizer", &african, &english, "African ÷ English"],
            &rows,
        )
    }

    /// The first `top` words of each list with their token counts under every tokenizer.
    pub fn words(&self, top: usize) -> Html {
        let mut headers: Vec<&str> = vec!["word", "kind"];
        headers.extend(self.tokenizers.iter().map(String::as_str));
        let rows: Vec<Vec<String>> = [("African", &self.african), ("English", &self.english)]
            .into_iter()
            .flat_map(|(kind, list)| {
                list.iter().take(top).map(move |(w, counts)| {
                    let mut row = vec![w.clone(), kind.to_string()];
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
        Bars::new("Tokens per word", "mean tokens per word", &names)
            .series(
                "African names",
                (0..n).map(|t| self.african_mean(t)).collect(),
            )
            .series(
                "English words",
                (0..n).map(|t| self.english_mean(t)).collect(),
            )
    }
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
        let sets = word_sets(&names, &text, 10);
        assert_eq!(sets.african, ["Djenné"]);
        assert!(!sets.english.contains(&"market".to_string()));
    }

    #[test]
    fn measure_counts_each_word_after_a_space() {
        let sets = WordSets {
            african: vec!["Lagos".into(), "Djenné".into()],
            english: vec!["water".into()],
        };
        let bytes = |w: &str| w.len();
        let chars = |w: &str| w.chars().count();
        let tax = measure(&sets, &[("bytes", &bytes), ("chars", &chars)]);
        assert_eq!(
            tax.african,
            [
                ("Lagos".to_string(), vec![6, 6]),
                ("Djenné".to_string(), vec![8, 7])
            ]
        );
        assert_eq!(tax.african_mean(0), 7.0);
        assert_eq!(tax.english_mean(1), 6.0);
        assert!((tax.ratio(0) - 7.0 / 6.0).abs() < 1e-12);
        assert!(tax.summary().text.contains("1.2×"));
        assert_eq!(tax.words(1).text.lines().count(), 3);
    }
}
