//! How GPT's tokenizers really cut a text (notebook 07): the chunks each split pattern makes,
//! the tokens each tokenizer gives, and a rank file's merges replayed on one chunk as
//! tiktoken's rule applies them (lowest rank first), so that a student sees *why* a word costs
//! what it costs.

use super::display::{Html, mark_on_circle, python_str, table};
use super::replay::byte_token_text;
use super::tokens::tokens_html;
use crate::bpe::bytelevel::{RankTable, SplitError, SplitPattern, Splitter};
use crate::tokenizer::{ByteLevelError, ByteLevelTokenizer};
use std::fmt::Write as _;

/// Pieces quoted as Python quotes strings, joined by ` | `: `' Yoru' | '◌̀ba'` (a piece that
/// starts with a combining mark shows it on a dotted circle, [`mark_on_circle`]). A byte that
/// is only part of a character stays `\xNN` as [`byte_token_text`] writes it (Python would
/// show it as `\xNN` in a bytes literal), not `\\xNN`.
fn joined(pieces: &[String]) -> String {
    pieces
        .iter()
        .map(|p| python_str(&mark_on_circle(p)).replace("\\\\x", "\\x"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A text as a table's row label: quoted as Python quotes it, with how many combining marks it
/// holds when it holds any, so that two spellings that look alike (`Yorùbá` in NFC, and in
/// NFD with two marks) are told apart.
///
/// ```
/// assert_eq!(bpe_lab::lab::split::row_label(" Yorùbá"), "' Yorùbá'");
/// assert_eq!(bpe_lab::lab::split::row_label(" Yoru\u{300}ba\u{301}"), "' Yoru\u{300}ba\u{301}' (2 marks)");
/// ```
pub fn row_label(text: &str) -> String {
    let marks = text
        .chars()
        .filter(|&c| crate::bpe::bytelevel::classes::is_mark(c))
        .count();
    match marks {
        0 => python_str(text),
        1 => format!("{} (1 mark)", python_str(text)),
        n => format!("{} ({n} marks)", python_str(text)),
    }
}

/// One row per text: its chunks under each pattern, with their number.
///
/// ```
/// use bpe_lab::bpe::bytelevel::SplitPattern;
/// let shown = bpe_lab::lab::split::chunks_table(&[" N'Dour"], &[SplitPattern::Cl100k]).unwrap();
/// assert!(shown.text.contains("' N' | \"'D\" | 'our'"), "{}", shown.text);
/// ```
pub fn chunks_table(texts: &[&str], patterns: &[SplitPattern]) -> Result<Html, SplitError> {
    let splitters: Vec<Splitter> = patterns
        .iter()
        .map(|p| Splitter::new(p.clone()))
        .collect::<Result<_, _>>()?;
    let mut headers: Vec<String> = vec!["text".into()];
    headers.extend(
        patterns
            .iter()
            .map(|p| format!("{} chunks", p.name().unwrap_or("custom"))),
    );
    let mut rows = Vec::new();
    for text in texts {
        let mut row = vec![row_label(text)];
        for s in &splitters {
            let chunks: Vec<String> = s.chunks(text)?.into_iter().map(String::from).collect();
            row.push(format!("{}: {}", chunks.len(), joined(&chunks)));
        }
        rows.push(row);
    }
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    Ok(table(&headers, &rows))
}

/// The tokens of `text` under `tokenizer`, each as its text (`\xNN` for a byte that is part
/// of a character only).
pub fn token_texts(
    tokenizer: &ByteLevelTokenizer,
    text: &str,
) -> Result<Vec<String>, ByteLevelError> {
    Ok(tokenizer
        .encode_ordinary(text)?
        .iter()
        .map(|&id| byte_token_text(tokenizer.token_bytes(id).unwrap_or_default()))
        .collect())
}

/// One row per text: its tokens under each tokenizer, with their number.
pub fn tokens_table(
    texts: &[&str],
    tokenizers: &[&ByteLevelTokenizer],
) -> Result<Html, ByteLevelError> {
    let mut headers: Vec<&str> = vec!["text"];
    headers.extend(tokenizers.iter().map(|t| t.name()));
    let mut rows = Vec::new();
    for text in texts {
        let mut row = vec![row_label(text)];
        for t in tokenizers {
            let tokens = token_texts(t, text)?;
            row.push(format!("{}: {}", tokens.len(), joined(&tokens)));
        }
        rows.push(row);
    }
    Ok(table(&headers, &rows))
}

/// tiktoken's rule replayed on `piece` with `ranks`: its bytes, then after each merge (the
/// neighbours whose joined bytes rank lowest, the leftmost among equals) the parts, with the
/// rank of the token just made, until no two neighbours join into a token. One row of coloured
/// tokens per step.
///
/// ```
/// use bpe_lab::bpe::bytelevel::RankTable;
/// let ranks = RankTable::new((0..=255u8).map(|b| (vec![b], b as u32)).chain([(b"ab".to_vec(), 256)]));
/// let shown = bpe_lab::lab::split::replay_ranks(&ranks, "abc");
/// assert!(shown.text.contains("rank 256"), "{}", shown.text);
/// ```
pub fn replay_ranks(ranks: &RankTable, piece: &str) -> Html {
    let mut parts: Vec<Vec<u8>> = piece.bytes().map(|b| vec![b]).collect();
    let mut html = String::from("<div>");
    let mut text = String::new();
    let mut label = format!("{}: bytes only, {} parts", python_str(piece), parts.len());
    loop {
        let shown: Vec<String> = parts.iter().map(byte_token_text).collect();
        let row = tokens_html(&[shown]);
        let _ = write!(
            html,
            "<div style=\"font-family:sans-serif;font-size:13px;margin-top:6px\">{}</div>{}",
            super::display::escape(&label),
            row.html
        );
        let _ = writeln!(text, "{label}\n  {}", row.text);
        let mut best: Option<(u32, usize)> = None;
        for i in 1..parts.len() {
            let joined = [parts[i - 1].as_slice(), &parts[i]].concat();
            if let Some(r) = ranks.get(&joined)
                && best.is_none_or(|(b, _)| r < b)
            {
                best = Some((r, i - 1));
            }
        }
        let Some((rank, i)) = best else { break };
        let right = parts.remove(i + 1);
        parts[i].extend(right);
        label = format!(
            "merge {} (rank {rank}): {} parts",
            python_str(&byte_token_text(&parts[i])),
            parts.len()
        );
    }
    html.push_str("</div>");
    Html::new(html, text.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_show_partial_bytes_with_one_backslash() {
        let pieces = vec![byte_token_text([0xC3]), "it's".to_string()];
        assert_eq!(joined(&pieces), "'\\xC3' | \"it's\"");
    }

    #[test]
    fn replay_stops_when_no_neighbours_join() {
        let ranks = RankTable::new(
            (0..=255u8)
                .map(|b| (vec![b], b as u32))
                .chain([(b"bc".to_vec(), 300), (b"ab".to_vec(), 400)]),
        );
        let shown = replay_ranks(&ranks, "abc");
        let labels: Vec<&str> = shown.text.lines().step_by(2).collect();
        // "bc" ranks lower than "ab", so it is made first; "abc" is no token: two parts stay.
        assert_eq!(
            labels,
            [
                "'abc': bytes only, 3 parts",
                "merge 'bc' (rank 300): 2 parts"
            ]
        );
    }
}
