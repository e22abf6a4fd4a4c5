//! Byte-level training replayed on a sample (notebook 07): the sample's chunks as bytes, then
//! the learned merges applied one after another, shown as coloured tokens after chosen
//! numbers of merges. Bytes that are not a whole character on their own are written as
//! `\xNN`, so a token that holds half of `é` is visible as such.

use super::display::{Html, escape};
use super::tokens::tokens_html;
use std::fmt::Write as _;

/// A token's bytes as text: its characters where they are whole, `\xNN` for each byte of a
/// character cut in two.
///
/// ```
/// use bpe_lab::lab::replay::byte_token_text;
/// assert_eq!(byte_token_text(" Djenn"), " Djenn");
/// assert_eq!(byte_token_text(&[0xC3]), "\\xC3");
/// assert_eq!(byte_token_text(&[0xA9, b'e']), "\\xA9e");
/// ```
pub fn byte_token_text(bytes: impl AsRef<[u8]>) -> String {
    let mut out = String::new();
    for chunk in bytes.as_ref().utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// Merges `pair` everywhere in `tokens`, left to right (the training step).
fn merge(tokens: &[Vec<u8>], pair: &(Vec<u8>, Vec<u8>)) -> Vec<Vec<u8>> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if i + 1 < tokens.len() && tokens[i] == pair.0 && tokens[i + 1] == pair.1 {
            out.push([pair.0.as_slice(), &pair.1].concat());
            i += 2;
        } else {
            out.push(tokens[i].clone());
            i += 1;
        }
    }
    out
}

/// The sample `chunks` after 0, …, `steps` merges of `merges` (applied in the order learned,
/// each everywhere), one row of coloured tokens per step asked for. A chunk is drawn as one
/// word; the rows say how many tokens the sample takes.
pub fn replay<S: AsRef<str>>(chunks: &[S], merges: &[(Vec<u8>, Vec<u8>)], steps: &[usize]) -> Html {
    let mut tokens: Vec<Vec<Vec<u8>>> = chunks
        .iter()
        .map(|c| c.as_ref().bytes().map(|b| vec![b]).collect())
        .collect();
    let mut done = 0;
    let mut html = String::from("<div>");
    let mut text = String::new();
    let mut wanted: Vec<usize> = steps.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    for step in wanted {
        let step = step.min(merges.len());
        for pair in &merges[done..step] {
            tokens = tokens.iter().map(|chunk| merge(chunk, pair)).collect();
        }
        done = step;
        let shown: Vec<Vec<String>> = tokens
            .iter()
            .map(|chunk| chunk.iter().map(byte_token_text).collect())
            .collect();
        let count: usize = tokens.iter().map(Vec::len).sum();
        let label = match step {
            0 => format!("bytes only: {count} tokens"),
            1 => format!("after 1 merge: {count} tokens"),
            n => format!("after {n} merges: {count} tokens"),
        };
        let row = tokens_html(&shown);
        let _ = write!(
            html,
            "<div style=\"font-family:sans-serif;font-size:13px;margin-top:6px\">{}</div>{}",
            escape(&label),
            row.html
        );
        let _ = writeln!(text, "{label}\n  {}", row.text);
    }
    html.push_str("</div>");
    Html::new(html, text.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_apply_in_order_inside_chunks_only() {
        let merges = vec![
            (b"a".to_vec(), b"a".to_vec()),
            (b"aa".to_vec(), b"b".to_vec()),
        ];
        let shown = replay(&["aaab", " aab", "a"], &merges, &[2, 0, 1]);
        let lines: Vec<&str> = shown.text.lines().collect();
        assert_eq!(lines[0], "bytes only: 9 tokens");
        assert_eq!(lines[1], "  a|a|a|b  |a|a|b a");
        assert_eq!(lines[2], "after 1 merge: 7 tokens");
        assert_eq!(lines[3], "  aa|a|b  |aa|b a");
        assert_eq!(lines[4], "after 2 merges: 6 tokens");
        assert_eq!(lines[5], "  aa|a|b  |aab a");
    }

    #[test]
    fn half_characters_are_shown_as_bytes() {
        let merges = vec![(vec![0xC3], vec![0xA9])];
        let shown = replay(&["é"], &merges, &[0, 1, 5]);
        assert!(shown.text.contains("\\xC3|\\xA9"), "{}", shown.text);
        assert!(
            shown.text.contains("after 1 merge: 1 tokens\n  é"),
            "{}",
            shown.text
        );
    }
}
