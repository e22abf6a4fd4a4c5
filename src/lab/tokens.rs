//! Tokens made visible: words with their token boundaries coloured, and tables of pair counts
//! and merges.

use super::display::{Html, escape, python_pair, table};
use crate::EOW;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Soft background colours that stay readable with black text, each in two shades: the light
/// one is the token's own colour, the deeper one is used only when the token's left neighbour
/// has the same colour (twelve hues cannot keep every neighbouring pair of tokens apart).
const PALETTE: [[&str; 2]; 12] = [
    ["#fde2a7", "#f5c35a"],
    ["#c6e6fb", "#7fc2ef"],
    ["#d5f5c9", "#99dd80"],
    ["#f9cfe0", "#ee8fb6"],
    ["#e2d9fb", "#b7a3f2"],
    ["#fbd9c2", "#f3aa78"],
    ["#c9f0ea", "#7fd8ca"],
    ["#f3f0b5", "#e0d865"],
    ["#dfe6ee", "#a9b9cb"],
    ["#f7c9c9", "#ea8585"],
    ["#d9ecb8", "#aed26d"],
    ["#eed6f2", "#d39ddd"],
];

/// A token's hue, chosen by its text alone: the same token has the same hue wherever it
/// appears, so after a merge only the merged tokens change colour and the merge is easy to
/// spot (colouring by position would shift every colour after it). FNV-1a, for colours that
/// stay the same from one run and machine to the next.
fn hue_of(token: &str) -> usize {
    let hash = token.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash % PALETTE.len() as u64) as usize
}

/// The background of each token of a word: its hue, in the other shade from its left
/// neighbour's when the two share a hue, so neighbours always differ (`desert` + `ed</w>`
/// never read as one token).
fn backgrounds(word: &[String]) -> Vec<&'static str> {
    let mut previous: Option<(usize, usize)> = None;
    word.iter()
        .map(|token| {
            let hue = hue_of(token);
            let shade = match previous {
                Some((h, s)) if h == hue => 1 - s,
                _ => 0,
            };
            previous = Some((hue, shade));
            PALETTE[hue][shade]
        })
        .collect()
}

/// Words (each a list of tokens) with every token in a box coloured by the token's text, so
/// the same token always has the same hue; neighbours that share a hue get its two shades,
/// so no two neighbouring boxes have the same colour, and a thin outline marks every boundary. `</w>` is drawn small and grey at the end of its
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
        for (t, (token, background)) in word.iter().zip(backgrounds(word)).enumerate() {
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
                background,
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
/// order of the training problem, so the first row is the pair that rule merges).
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

    /// The hue (palette row) of a background.
    fn hue(background: &str) -> usize {
        PALETTE
            .iter()
            .position(|row| row.contains(&background))
            .unwrap()
    }

    #[test]
    fn neighbours_never_share_a_colour_and_tokens_keep_their_hue() {
        use proptest::prelude::*;
        let token =
            prop::sample::select(vec!["a", "b", "de", "s", "ert", "ed</w>", "r", "n", "ou"]);
        let words = prop::collection::vec(prop::collection::vec(token, 0..12), 0..6);
        proptest!(ProptestConfig::with_cases(2000), |(words in words)| {
            let words: Vec<Vec<String>> = words
                .iter()
                .map(|w| w.iter().map(|t| t.to_string()).collect())
                .collect();
            let shown = colours(&tokens_html(&words)).into_iter().map(String::from).collect::<Vec<_>>();
            let tokens: Vec<&String> = words.iter().flatten().collect();
            prop_assert_eq!(shown.len(), tokens.len());
            let mut at = 0;
            for word in &words {
                for i in 1..word.len() {
                    prop_assert_ne!(&shown[at + i - 1], &shown[at + i], "{:?}", word);
                }
                at += word.len();
            }
            for (i, a) in tokens.iter().enumerate() {
                for (j, b) in tokens.iter().enumerate() {
                    if a == b {
                        prop_assert_eq!(hue(&shown[i]), hue(&shown[j]));
                    }
                }
            }
        });
    }

    /// The three places the notebooks showed as one token (issue 28): now two colours each.
    #[test]
    fn the_splits_students_could_not_see_are_visible() {
        for pair in [["desert", "ed</w>"], ["th", "ou"], ["r", "n"]] {
            let word: Vec<String> = pair.iter().map(|t| t.to_string()).collect();
            let shown = tokens_html(&[word]);
            let c = colours(&shown);
            assert_ne!(c[0], c[1], "{pair:?}");
        }
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
