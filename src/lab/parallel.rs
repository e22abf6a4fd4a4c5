//! The same text in several languages (notebook 07): articles 1–5 of the Universal Declaration
//! of Human Rights in ten translations, bundled in `data/` (source, version and terms in
//! `data/README.md`), and what each tokenizer charges for each translation — the way the
//! papers on the token tax measure it, with the same content in every language.
//!
//! The premium over English (Petrov et al.'s *tokenization premium*: a text's tokens over its
//! English translation's) is a product of three factors, each over English's: characters
//! (how long the translation is), bytes per character (UTF-8's cost: 1 for English letters, 2
//! for `ù` or `á`, 3 for Yorùbá's `ẹ`, `ọ`, `ṣ` and for Ethiopic, one or two more for each
//! combining mark) and tokens per byte (how much of the text the tokenizer's merges cover with
//! long tokens). [`Premium::factors`] shows the three side by side, with the spread of the
//! premium over the articles.

use super::display::{Html, table};
use super::token_tax::Counter;
use serde::Deserialize;

/// The bundled translations, as `include_str!` reads them.
pub const UDHR_JSON: &str = include_str!("../../data/udhr_articles_1_5.json");

/// One language's text.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Translation {
    /// The language's name in English.
    pub language: String,
    /// Its BCP 47 tag as the source gives it.
    pub bcp47: String,
    /// The source's file name for it.
    pub file: String,
    /// The articles, each its paragraphs joined by `\n`.
    pub articles: Vec<String>,
}

impl Translation {
    /// All the articles as one text, separated by blank lines.
    pub fn text(&self) -> String {
        self.articles.join("\n\n")
    }
}

/// The same articles in several languages; English first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Parallel {
    /// Where the text comes from.
    pub source: String,
    /// The article numbers.
    pub articles: Vec<u32>,
    pub languages: Vec<Translation>,
    /// Other spellings of some languages (Amharic with the old wordspace `፡`), kept out of the
    /// main comparison.
    #[serde(default)]
    pub variants: Vec<Translation>,
}

impl Parallel {
    /// English, then each language that has a variant spelling followed by its variants: the
    /// comparison of spellings.
    pub fn spellings(&self) -> Parallel {
        let mut languages: Vec<Translation> = self.languages.iter().take(1).cloned().collect();
        for t in self.languages.iter().skip(1) {
            let spelt: Vec<&Translation> = self
                .variants
                .iter()
                .filter(|v| v.bcp47 == t.bcp47)
                .collect();
            if !spelt.is_empty() {
                languages.push(t.clone());
                languages.extend(spelt.into_iter().cloned());
            }
        }
        Parallel {
            source: self.source.clone(),
            articles: self.articles.clone(),
            languages,
            variants: Vec::new(),
        }
    }
}

/// The bundled UDHR articles.
///
/// ```
/// let udhr = bpe_lab::lab::parallel::udhr();
/// assert_eq!(udhr.languages[0].language, "English");
/// assert!(udhr.languages.iter().all(|t| t.articles.len() == udhr.articles.len()));
/// ```
pub fn udhr() -> Parallel {
    serde_json::from_str(UDHR_JSON).expect("the bundled UDHR file is the JSON this module reads")
}

/// Characters, bytes and tokens (under each tokenizer) of one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub chars: usize,
    pub bytes: usize,
    /// One count per tokenizer, in the order measured.
    pub tokens: Vec<usize>,
}

impl Count {
    fn of(text: &str, tokenizers: &[Counter]) -> Count {
        Count {
            chars: text.chars().count(),
            bytes: text.len(),
            tokens: tokenizers.iter().map(|(_, count)| count(text)).collect(),
        }
    }
}

/// One translation measured: its whole text, and each article on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measured {
    pub language: String,
    pub whole: Count,
    pub articles: Vec<Count>,
}

/// The cost of each translation under each tokenizer.
#[derive(Debug, Clone, PartialEq)]
pub struct Premium {
    pub tokenizers: Vec<String>,
    /// English first.
    pub rows: Vec<Measured>,
}

/// Counts characters, bytes and tokens of every translation, whole and article by article;
/// `count` returns the number of tokens of a text.
pub fn measure(text: &Parallel, tokenizers: &[Counter]) -> Premium {
    Premium {
        tokenizers: tokenizers.iter().map(|(n, _)| n.to_string()).collect(),
        rows: text
            .languages
            .iter()
            .map(|t| Measured {
                language: t.language.clone(),
                whole: Count::of(&t.text(), tokenizers),
                articles: t
                    .articles
                    .iter()
                    .map(|a| Count::of(a, tokenizers))
                    .collect(),
            })
            .collect(),
    }
}

/// The three factors of one language's premium under one tokenizer, each over English's; their
/// product is the premium.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Factors {
    /// Characters over English's: how long the translation is.
    pub chars: f64,
    /// Bytes per character over English's: what UTF-8 charges for the script.
    pub bytes_per_char: f64,
    /// Tokens per byte over English's: how well the merges cover the bytes.
    pub tokens_per_byte: f64,
}

impl Factors {
    fn of(text: &Count, english: &Count, t: usize) -> Factors {
        let (c, b, n) = (text.chars as f64, text.bytes as f64, text.tokens[t] as f64);
        let (ec, eb, en) = (
            english.chars as f64,
            english.bytes as f64,
            english.tokens[t] as f64,
        );
        Factors {
            chars: c / ec,
            bytes_per_char: (b / c) / (eb / ec),
            tokens_per_byte: (n / b) / (en / eb),
        }
    }

    /// Characters × bytes per character × tokens per byte: tokens over English's.
    pub fn premium(&self) -> f64 {
        self.chars * self.bytes_per_char * self.tokens_per_byte
    }
}

impl Premium {
    /// Tokens of language row `l` under tokenizer `t` over English's (row 0).
    pub fn premium(&self, l: usize, t: usize) -> f64 {
        self.rows[l].whole.tokens[t] as f64 / self.rows[0].whole.tokens[t] as f64
    }

    /// Bytes of row `l` over English's: what UTF-8 and the translation's length alone cost.
    pub fn bytes_premium(&self, l: usize) -> f64 {
        self.rows[l].whole.bytes as f64 / self.rows[0].whole.bytes as f64
    }

    /// The factors of row `l`'s premium under tokenizer `t`, on the whole text.
    pub fn factors_of(&self, l: usize, t: usize) -> Factors {
        Factors::of(&self.rows[l].whole, &self.rows[0].whole, t)
    }

    /// The lowest and highest premium of row `l` under tokenizer `t`, article by article (each
    /// article over English's same article).
    pub fn article_range(&self, l: usize, t: usize) -> (f64, f64) {
        let premiums = self.rows[l]
            .articles
            .iter()
            .zip(&self.rows[0].articles)
            .map(|(a, e)| a.tokens[t] as f64 / e.tokens[t] as f64);
        premiums.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        })
    }

    /// Per language, the premium taken apart: characters ÷ English's × bytes per character ÷
    /// English's (the same for every tokenizer), then under each tokenizer tokens per byte ÷
    /// English's, the product (the premium), and its lowest and highest value over the articles.
    pub fn factors(&self) -> Html {
        let mut headers: Vec<String> = vec![
            "language".into(),
            "characters ÷ English's".into(),
            "bytes per character ÷ English's".into(),
        ];
        for name in &self.tokenizers {
            headers.push(format!(
                "{name}: tokens per byte ÷ English's = premium (articles)"
            ));
        }
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        let rows: Vec<Vec<String>> = (0..self.rows.len())
            .map(|l| {
                let first = self.factors_of(l, 0);
                let mut row = vec![
                    self.rows[l].language.clone(),
                    format!("{:.2}", first.chars),
                    format!("× {:.2}", first.bytes_per_char),
                ];
                for t in 0..self.tokenizers.len() {
                    let f = self.factors_of(l, t);
                    let (lo, hi) = self.article_range(l, t);
                    row.push(format!(
                        "× {:.2} = {:.2}× ({lo:.2}–{hi:.2})",
                        f.tokens_per_byte,
                        f.premium()
                    ));
                }
                row
            })
            .collect();
        table(&headers, &rows)
    }

    /// Per language: characters, bytes, bytes per character, and bytes over English's.
    pub fn bytes(&self) -> Html {
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(l, m)| {
                let (chars, bytes) = (&m.whole.chars, &m.whole.bytes);
                vec![
                    m.language.clone(),
                    chars.to_string(),
                    bytes.to_string(),
                    format!("{:.2}", *bytes as f64 / *chars as f64),
                    format!("{:.2}×", self.bytes_premium(l)),
                ]
            })
            .collect();
        table(
            &[
                "language",
                "characters",
                "bytes (UTF-8)",
                "bytes per character",
                "bytes ÷ English's",
            ],
            &rows,
        )
    }

    /// Per language: tokens under each tokenizer, with the premium over English.
    pub fn tokens(&self) -> Html {
        let mut headers: Vec<&str> = vec!["language"];
        headers.extend(self.tokenizers.iter().map(String::as_str));
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(l, m)| {
                let mut row = vec![m.language.clone()];
                row.extend(
                    m.whole
                        .tokens
                        .iter()
                        .enumerate()
                        .map(|(t, n)| format!("{n} ({:.2}×)", self.premium(l, t))),
                );
                row
            })
            .collect();
        table(&headers, &rows)
    }

    /// Per language: tokens per byte under each tokenizer (1.00 would be one token per byte,
    /// nothing merged).
    pub fn per_byte(&self) -> Html {
        let mut headers: Vec<&str> = vec!["language"];
        headers.extend(self.tokenizers.iter().map(String::as_str));
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|m| {
                let mut row = vec![m.language.clone()];
                row.extend(
                    m.whole
                        .tokens
                        .iter()
                        .map(|&n| format!("{:.3}", n as f64 / m.whole.bytes as f64)),
                );
                row
            })
            .collect();
        table(&headers, &rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_text_is_complete_and_english_comes_first() {
        let udhr = udhr();
        assert_eq!(udhr.articles, [1, 2, 3, 4, 5]);
        assert_eq!(udhr.languages.len(), 10);
        // Typed as speakers type: spaces between Amharic words, '-' for hyphens; the
        // wordspace spelling kept as a variant, the same text but for its separators.
        for t in &udhr.languages {
            assert!(
                !t.text().contains(['\u{1361}', '\u{2010}']),
                "{}",
                t.language
            );
        }
        let amharic = udhr.languages.iter().find(|t| t.bcp47 == "am").unwrap();
        assert_eq!(udhr.variants.len(), 1);
        let wordspace = udhr.variants[0].text();
        assert_eq!(wordspace.matches('\u{1361}').count(), 117);
        assert!(!wordspace.contains(' '));
        let respaced: String = wordspace
            .split('\n')
            .map(|line| line.replace('\u{1361}', " ").trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(respaced, amharic.text());
        let spellings = udhr.spellings();
        let names: Vec<&str> = spellings
            .languages
            .iter()
            .map(|t| t.language.as_str())
            .collect();
        assert_eq!(
            names,
            ["English", "Amharic", "Amharic, with the wordspace ፡"]
        );
        assert_eq!(udhr.languages[0].bcp47, "en");
        for t in &udhr.languages {
            assert_eq!(t.articles.len(), 5, "{}", t.language);
            assert!(t.articles.iter().all(|a| !a.trim().is_empty()));
        }
    }

    #[test]
    fn premium_is_over_english_per_tokenizer() {
        let text = Parallel {
            source: String::new(),
            articles: vec![1],
            variants: Vec::new(),
            languages: vec![
                Translation {
                    language: "English".into(),
                    bcp47: "en".into(),
                    file: "eng".into(),
                    articles: vec!["ab".into()],
                },
                Translation {
                    language: "Other".into(),
                    bcp47: "xx".into(),
                    file: "xx".into(),
                    articles: vec!["ሀሀ".into()],
                },
            ],
        };
        let bytes = |s: &str| s.len();
        let chars = |s: &str| s.chars().count();
        let p = measure(&text, &[("bytes", &bytes), ("chars", &chars)]);
        assert_eq!(
            p.rows[1].whole,
            Count {
                chars: 2,
                bytes: 6,
                tokens: vec![6, 2]
            }
        );
        assert_eq!(p.premium(1, 0), 3.0);
        assert_eq!(p.premium(1, 1), 1.0);
        assert!(p.bytes().text.contains("3.00"));
        assert!(p.tokens().text.contains("6 (3.00×)"));
        assert!(p.per_byte().text.contains("0.333"));
        // 1 × 3 × 1 under "bytes"; 1 × 3 × (1/3) under "chars".
        let f = p.factors_of(1, 1);
        assert_eq!((f.chars, f.bytes_per_char), (1.0, 3.0));
        assert!((f.tokens_per_byte - 1.0 / 3.0).abs() < 1e-12);
        assert!((f.premium() - p.premium(1, 1)).abs() < 1e-12);
        assert_eq!(p.article_range(1, 0), (3.0, 3.0));
        // "Other" under "bytes": 1.00 × 3.00 × 1.00; under "chars": 1.00 × 3.00 × 0.33.
        assert!(p.factors().text.contains("× 1.00 = 3.00× (3.00–3.00)"));
        assert!(p.factors().text.contains("× 0.33 = 1.00× (1.00–1.00)"));
    }
}
