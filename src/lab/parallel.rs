//! The same text in several languages (notebook 07): articles 1–5 of the Universal Declaration
//! of Human Rights in ten translations, bundled in `data/` (source, version and terms in
//! `data/README.md`), and what each tokenizer charges for each translation — the way the
//! papers on the token tax measure it, with the same content in every language.
//!
//! Two costs are kept apart: UTF-8's (bytes per character: 1 for English letters, 2 for
//! Yorùbá's dotted and accented ones, 3 for Ethiopic) and the merges' (tokens per byte: how
//! much of the text the tokenizer's vocabulary covers with long tokens).

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

/// The cost of each translation under each tokenizer.
#[derive(Debug, Clone, PartialEq)]
pub struct Premium {
    pub tokenizers: Vec<String>,
    /// (language, characters, bytes, tokens under each tokenizer), English first.
    pub rows: Vec<(String, usize, usize, Vec<usize>)>,
}

/// Counts characters, bytes and tokens of every translation; `count` returns the number of
/// tokens of a text.
pub fn measure(text: &Parallel, tokenizers: &[Counter]) -> Premium {
    Premium {
        tokenizers: tokenizers.iter().map(|(n, _)| n.to_string()).collect(),
        rows: text
            .languages
            .iter()
            .map(|t| {
                let body = t.text();
                (
                    t.language.clone(),
                    body.chars().count(),
                    body.len(),
                    tokenizers.iter().map(|(_, count)| count(&body)).collect(),
                )
            })
            .collect(),
    }
}

impl Premium {
    /// Tokens of language row `l` under tokenizer `t` over English's (row 0).
    pub fn premium(&self, l: usize, t: usize) -> f64 {
        self.rows[l].3[t] as f64 / self.rows[0].3[t] as f64
    }

    /// Bytes of row `l` over English's: what UTF-8 and the translation's length alone cost.
    pub fn bytes_premium(&self, l: usize) -> f64 {
        self.rows[l].2 as f64 / self.rows[0].2 as f64
    }

    /// Per language: characters, bytes, bytes per character, and bytes over English's.
    pub fn bytes(&self) -> Html {
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .enumerate()
            .map(|(l, (language, chars, bytes, _))| {
                vec![
                    language.clone(),
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
            .map(|(l, (language, _, _, tokens))| {
                let mut row = vec![language.clone()];
                row.extend(
                    tokens
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
            .map(|(language, _, bytes, tokens)| {
                let mut row = vec![language.clone()];
                row.extend(
                    tokens
                        .iter()
                        .map(|&n| format!("{:.3}", n as f64 / *bytes as f64)),
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
        assert_eq!(p.rows[1], ("Other".to_string(), 2, 6, vec![6, 2]));
        assert_eq!(p.premium(1, 0), 3.0);
        assert_eq!(p.premium(1, 1), 1.0);
        assert!(p.bytes().text.contains("3.00"));
        assert!(p.tokens().text.contains("6 (3.00×)"));
        assert!(p.per_byte().text.contains("0.333"));
    }
}
