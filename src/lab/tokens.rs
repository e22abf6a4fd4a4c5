//! Tokens made visible: words with their token boundaries coloured, and tables of pair counts
//! and merges.

use super::display::{Html, escape, python_pair, table};
use crate::EOW;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Soft background colours that stay readable with black text.
const PALETTE: [&str; 12] = [
    "#fde2a7", "#c6e6fb", "#d5f5c9", "#f9cfe0", "#e2d9fb", "#fbd9c2", "#c9f0ea", "#f3f0b5",
    "#dfe6ee", "#f7c9c9", "#d9ecb8", "#eed6f2",
];

/// A token's colour, chosen by its text alone: the same token has the same colour wherever it
/// appears, so after a merge only the merged tokens change colour and the merge is easy to
/// spot (colouring by position would shift every colour after it). FNV-1a, for colours that
/// stay the same from one run and machine to the next.
fn colour_of(token: &str) -> &'static str {
    let hash = token.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    PALETTE[(hash % PALETTE.len() as u64) as usize]
}

/// Words (each a list of tokens) with every token in a box coloured by the token's text, so
/// the same token always looks the same; a thin outline keeps the boundary visible between
/// neighbours that happen to share a colour. `</w>` is drawn small and grey at the end of its
/// token. The text version puts `|` between tokens and a space between words.
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
                "<span title=\"{}\" style=\"background:{};padding:2px 1px;margin-right:1px;border-radius:3px;box-shadow:inset 0 0 0 1px rgba(0,0,0,0.18);white-space:pre\">{}",
                escape(token),
                colour_of(token),
                escape(body)
            );
            if marker {
                html.push_str("<sub style=\"color:#777;font-size:9px\">&lt;/w&gt;</sub>");
            }
            html.push_str("</span>");
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

    /// The background of each token box, in order.
    fn colours(shown: &Html) -> Vec<&str> {
        shown
            .html
            .split("background:")
            .skip(1)
            .map(|rest| &rest[..7])
            .collect()
    }

    #[test]
    fn a_token_has_one_colour_wherever_it_is() {
        let w = |tokens: &[&str]| tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let before = tokens_html(&[
            w(&["d", "e", "s", "e", "r", "t</w>"]),
            w(&["t", "e", "s", "t</w>"]),
        ]);
        // Merging (e, s) changes the colour of the merged tokens only.
        let after = tokens_html(&[w(&["d", "es", "e", "r", "t</w>"]), w(&["t", "es", "t</w>"])]);
        let (b, a) = (colours(&before), colours(&after));
        assert_eq!(b.len(), 10);
        assert_eq!(a.len(), 8);
        assert_eq!(b[1], b[3], "both e's look alike");
        assert_eq!(b[1], b[7], "in every word");
        assert_eq!(a[1], a[6], "both es's look alike");
        assert_eq!(
            (a[0], &a[2..5]),
            (b[0], &b[3..6]),
            "the rest of the word keeps its colours"
        );
        assert_eq!(a[5], b[6]);
        assert_eq!(a[7], b[9]);
    }

    #[test]
    fn a_space_inside_a_token_is_kept() {
        let shown = tokens_html(&[vec!["a  b".to_string()]]);
        assert!(
            shown.html.contains("white-space:pre\">a  b<"),
            "{}",
            shown.html
        );
    }

    #[test]
    fn markup_in_tokens_is_escaped() {
        let shown = tokens_html(&[vec!["<b>".to_string(), EOW.to_string()]]);
        assert!(shown.html.contains("&lt;b&gt;") && !shown.html.contains("<b>"));
    }
}
