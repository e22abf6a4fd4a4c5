//! Special tokens in running text (`<|endoftext|>` and the like): where they are, so that the
//! text between them is split and merged on its own and nothing is ever merged across one.
//!
//! At each position the longest special token that starts there wins, and the leftmost
//! occurrence comes first. (tiktoken joins its specials into one alternation in hash-map order,
//! so for two specials where one is a prefix of the other its choice is unspecified; for
//! specials of which none is a prefix of another, as in every OpenAI encoding, both rules find
//! the same occurrences.)

/// A piece of text: ordinary text, or one special token (by its index in the list searched).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'t> {
    Text(&'t str),
    Special(usize),
}

/// The leftmost occurrence of any of `specials` in `text` at or after byte `from`, the longest
/// at that position: (offset, index in `specials`).
pub fn find_special(text: &str, from: usize, specials: &[&str]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for (i, special) in specials.iter().enumerate() {
        if special.is_empty() {
            continue;
        }
        if let Some(offset) = text[from..].find(special).map(|o| o + from) {
            let better = match best {
                None => true,
                Some((b, j)) => offset < b || (offset == b && special.len() > specials[j].len()),
            };
            if better {
                best = Some((offset, i));
            }
        }
    }
    best
}

/// `text` as ordinary text between occurrences of `specials` (see [`find_special`]); empty
/// text pieces are left out.
///
/// ```
/// use bpe_lab::bpe::bytelevel::{Piece, pieces};
/// assert_eq!(
///     pieces("a<|e|>b<|e|>", &["<|e|>"]),
///     [Piece::Text("a"), Piece::Special(0), Piece::Text("b"), Piece::Special(0)]
/// );
/// ```
pub fn pieces<'t>(text: &'t str, specials: &[&str]) -> Vec<Piece<'t>> {
    // Specials that all begin with one ASCII character (`<` for every OpenAI encoding): one
    // scan for that character (memchr), checking every special where it occurs, instead of
    // one substring search through the text per special.
    let mut firsts = specials
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| s.as_bytes()[0]);
    if let Some(first) = firsts.next()
        && first.is_ascii()
        && firsts.all(|b| b == first)
    {
        let mut out = Vec::new();
        let (mut at, mut from) = (0, 0);
        while let Some(o) = text[from..].find(first as char) {
            let position = from + o;
            let found = specials
                .iter()
                .enumerate()
                .filter(|(_, s)| !s.is_empty() && text[position..].starts_with(**s))
                .min_by_key(|&(i, s)| (std::cmp::Reverse(s.len()), i));
            match found {
                Some((i, special)) => {
                    if position > at {
                        out.push(Piece::Text(&text[at..position]));
                    }
                    out.push(Piece::Special(i));
                    at = position + special.len();
                    from = at;
                }
                None => from = position + 1,
            }
        }
        if at < text.len() {
            out.push(Piece::Text(&text[at..]));
        }
        return out;
    }
    // The next occurrence of each special at or after `at`, found again only once passed, so
    // that a text with many specials is still read about once per special.
    let find = |i: usize, from: usize| -> Option<usize> {
        let special = specials[i];
        if special.is_empty() {
            return None;
        }
        text[from..].find(special).map(|o| o + from)
    };
    let mut next: Vec<Option<usize>> = (0..specials.len()).map(|i| find(i, 0)).collect();
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        for (i, slot) in next.iter_mut().enumerate() {
            if slot.is_some_and(|o| o < at) {
                *slot = find(i, at);
            }
        }
        let best = next
            .iter()
            .enumerate()
            .filter_map(|(i, o)| o.map(|o| (o, std::cmp::Reverse(specials[i].len()), i)))
            .min();
        let Some((offset, _, i)) = best else { break };
        if offset > at {
            out.push(Piece::Text(&text[at..offset]));
        }
        out.push(Piece::Special(i));
        at = offset + specials[i].len();
    }
    if at < text.len() {
        out.push(Piece::Text(&text[at..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_special_at_the_leftmost_position() {
        let specials = ["<|a|>", "<|a|><|b|>", "<|b|>"];
        assert_eq!(
            pieces("x<|b|>y<|a|><|b|>", &specials),
            [
                Piece::Text("x"),
                Piece::Special(2),
                Piece::Text("y"),
                Piece::Special(1)
            ]
        );
        assert_eq!(pieces("", &specials), []);
        assert_eq!(pieces("plain", &[]), [Piece::Text("plain")]);
    }
}
