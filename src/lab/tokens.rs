//! Tokens made visible: words with their token boundaries coloured, and tables of pair counts
//! and merges.

use super::display::{Html, escape, python_pair, table};
use crate::EOW;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Soft background colours that stay readable with black text; neighbouring tokens alternate.
const PALETTE: [&str; 6] = [
    "#fde2a7", "#c6e6fb", "#d5f5c9", "#f9cfe0", "#e2d9fb", "#fbd9c2",
];

/// Words (each a list of tokens) with every token on its own colour, so the boundaries show.
/// `</w>` is drawn small and grey at the end of its token. The text version puts `|` between
/// tokens and a space between words.
///
/// ```
/// use bpe_lab::lab::tokens::tokens_html;
/// let words = vec![vec!["de".to_string(), "s".into(), "ert</w>".into()]];
/// let shown = tokens_html(&words);
/// assert_eq!(shown.text, "de|s|ert</w>");
/// assert_eq!(shown.html.matches("<span title=").count(), 3);
/// ```
pub fn tokens_html(words: &[Vec<String>]) -> Html {
    let mut html = String::from(
        "<div style=\"font-family:monospace;font-size:15px;line-height:2.1;color:#000\">",
    );
    let mut text = String::new();
    let mut colour = 0;
    for (w, word) in words.iter().enumerate() {
        if w > 0 {
            html.push(' ');
            text.push(' ');
        }
        for (t, token) in word.iter().enumerate() {
            if t > 0 {
                text.push('|');
            }
            text.push_str(token);
            let (body, marker) = match token.strip_suffix(EOW) {
                Some(body) => (body, true),
                None => (token.as_str(), false),
            };
            let _ = write!(
                html,
                "<span title=\"{}\" style=\"background:{};padding:2px 1px;margin-right:1px;border-radius:3px\">{}",
                escape(token),
                PALETTE[colour % PALETTE.len()],
                escape(body)
            );
            if marker {
                html.push_str("<sub style=\"color:#777;font-size:9px\">&lt;/w&gt;</sub>");
            }
            html.push_str("</span>");
            colour += 1;
        }
    }
    html.push_str("</div>");
    Html::new(html, text)
}

/// The `top` most frequent pairs as a table (most frequent first, ties in the lexicographic
/// order of seed 000, so the first row is the pair that rule merges).
pub fn pair_table(pair_freqs: &HashMap<(String, String), usize>, top: usize) -> Html {
    let mut pairs: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, (pair, count))| vec![(i + 1).to_string(), python_pair(pair), count.to_string()])
        .collect();
    table(&["rank", "pair", "count"], &rows)
}

/// Merges in the order learned: number, pair, and the new token.
pub fn merges_table(merges: &[(String, String)]) -> Html {
    let rows: Vec<Vec<String>> = merges
        .iter()
        .enumerate()
        .map(|(i, pair)| {
            vec![
                (i + 1).to_string(),
                python_pair(pair),
                format!("{}{}", pair.0, pair.1),
            ]
        })
        .collect();
    table(&["#", "merge", "new token"], &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_table_orders_by_count_then_pair() {
        let mut freqs = HashMap::new();
        freqs.insert(("b".to_string(), "a".to_string()), 2);
        freqs.insert(("a".to_string(), "b".to_string()), 2);
        freqs.insert(("c".to_string(), "d".to_string()), 5);
        let t = pair_table(&freqs, 2);
        let lines: Vec<&str> = t.text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].contains("('c', 'd')") && lines[2].contains("('a', 'b')"));
    }

    #[test]
    fn markup_in_tokens_is_escaped() {
        let shown = tokens_html(&[vec!["<b>".to_string(), EOW.to_string()]]);
        assert!(shown.html.contains("&lt;b&gt;") && !shown.html.contains("<b>"));
    }
}
