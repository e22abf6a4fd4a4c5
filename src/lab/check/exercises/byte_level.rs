//! What the byte-level exercises' checks share (notebook 07): the pieces of text their cases
//! are made of, and showing chunks, ids and merges. Cases cover what makes bytes differ from
//! characters: accents written as one character or as a letter plus a combining mark (Yorùbá,
//! Vietnamese), Ethiopic and N'Ko letters (three and two bytes), emoji (four bytes, and joined
//! sequences of several), empty chunks, and runs like `aaaa`. Each check's own cases,
//! comparison and hint are in its exercise's file.

use super::super::cases::Rng;
use super::super::shrink::Text;
use crate::lab::display::python_str;

/// A merge of notebook 07: the pair of ids and the new id it gets.
pub(super) type IdMerge = ((u32, u32), u32);

/// Pieces of text that chunks are made of; several are many bytes per character.
pub(super) const PIECES: [&str; 16] = [
    "a",
    "b",
    " ",
    "Lagos",
    " the",
    "Yorùbá",
    "Yoru\u{300}ba\u{301}",
    "Tiếng Việt",
    "ኢትዮጵያ",
    "ߒߞߏ",
    "🙂",
    "👩🏽‍🍳",
    "aaaa",
    "'s",
    "2024",
    "\n",
];

pub(super) fn texts(items: &[&str]) -> Vec<Text> {
    items.iter().map(|s| Text(s.to_string())).collect()
}

/// Chunks of text for the tokenizer-building checks (merge to recover): short, over few
/// pieces, so that pairs repeat and tie.
pub(super) fn short_chunks(rng: &mut Rng) -> Vec<Text> {
    let pieces = 2 + rng.below(PIECES.len() - 1);
    (0..1 + rng.below(5))
        .map(|_| {
            let chunk: String = (0..1 + rng.below(4))
                .map(|_| PIECES[rng.below(pieces)])
                .collect();
            Text(chunk)
        })
        .collect()
}

pub(super) fn show_texts(items: &[Text]) -> String {
    let shown: Vec<String> = items.iter().map(|t| python_str(&t.0)).collect();
    format!("[{}]", shown.join(", "))
}

pub(super) fn show_ids(chunks: &[Vec<u32>]) -> String {
    let shown: Vec<String> = chunks.iter().map(|c| format!("{c:?}")).collect();
    format!("[{}]", shown.join(", "))
}

pub(super) fn show_merges(merges: &[IdMerge]) -> String {
    let shown: Vec<String> = merges
        .iter()
        .map(|((a, b), id)| format!("(({a}, {b}), {id})"))
        .collect();
    format!("[{}]", shown.join(", "))
}
