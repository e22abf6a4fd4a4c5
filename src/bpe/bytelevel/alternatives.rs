//! The alternatives GPT's split patterns share, for their hand-written splitters
//! ([`super::gpt2`], [`super::cl100k`], [`super::o200k`]): numbers three at a time, a run of
//! punctuation and symbols, and whitespace that leaves its last character to the word after it.

use super::classes::{char_at, is_letter, is_number, is_space, run_end};

/// `\p{N}{1,3}` at byte `i`, whose character `c` is a number: where it ends.
#[inline]
pub fn up_to_three_numbers(text: &str, i: usize, c: char) -> usize {
    debug_assert!(is_number(c));
    let mut end = i + c.len_utf8();
    for _ in 0..2 {
        match char_at(text, end) {
            Some(n) if is_number(n) => end += n.len_utf8(),
            _ => break,
        }
    }
    end
}

/// ` ?[^\s\p{L}\p{N}]+` then a run of `trailing` at byte `i` (character `c`): where it ends,
/// if it matches. (The space is given back when no symbol follows it: then nothing matches,
/// since a space is no symbol.)
#[inline]
pub fn symbols(text: &str, i: usize, c: char, trailing: impl Fn(char) -> bool) -> Option<usize> {
    let other = |c: char| !is_space(c) && !is_letter(c) && !is_number(c);
    let from = if c == ' ' { i + 1 } else { i };
    let end = run_end(text, from, other);
    (end > from).then(|| run_end(text, end, trailing))
}

/// `\s+(?!\S)` on the whitespace `text[i..spaces_end]`, which a non-space follows: all of it
/// but its last character, if that leaves any.
#[inline]
pub fn all_but_the_last(text: &str, i: usize, spaces_end: usize) -> Option<usize> {
    let last_len = text[i..spaces_end]
        .chars()
        .next_back()
        .map_or(0, char::len_utf8);
    (spaces_end - last_len > i).then_some(spaces_end - last_len)
}

/// `\s*[\r\n]` (and `\s*[\r\n]+`) on the whitespace `text[i..spaces_end]`: up to and with its
/// last line break, if it has one.
#[inline]
pub fn up_to_the_last_line_break(text: &str, i: usize, spaces_end: usize) -> Option<usize> {
    text[i..spaces_end]
        .rfind(['\r', '\n'])
        .map(|last| i + last + 1)
}

/// Calls `f` with every chunk of `text` that starts in `start..end` (`start` a chunk start),
/// each ending where `chunk_end` says.
#[inline]
pub fn each_chunk<'t>(
    text: &'t str,
    start: usize,
    end: usize,
    chunk_end: impl Fn(&str, usize) -> usize,
    mut f: impl FnMut(&'t str),
) {
    let mut at = start;
    while at < end {
        let stop = chunk_end(text, at);
        f(&text[at..stop]);
        at = stop;
    }
}
