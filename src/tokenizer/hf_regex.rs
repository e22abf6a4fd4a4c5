//! A split pattern as Hugging Face `tokenizers` must read it to split as bpe-lab does, and back.
//!
//! bpe-lab reads patterns with fancy-regex, whose syntax is tiktoken's; `tokenizers` reads them
//! with Oniguruma in Ruby's syntax. The two agree on everything the built-in patterns and the
//! usual hand-written ones use but one: a counted repetition followed by `+`. fancy-regex reads
//! `X{1,3}+` as possessive (take up to three, give none back); Oniguruma reads it as
//! `(?:X{1,3})+`, one or more runs of up to three. GPT-4's pattern has one
//! (`\p{N}{1,3}+`), so an export that copied the pattern would cut numbers differently in
//! `tokenizers`. Each such repetition is written instead as an atomic group, `(?>X{1,3})`,
//! which both engines read as fancy-regex reads the original; every other part of the pattern
//! is copied as it is.
//!
//! The rule is the same for every pattern, built-in or the user's: nothing here names one.
//! Reading a `tokenizer.json` back, a pattern that is a built-in's rewritten this way is that
//! built-in (and gets its hand-written splitter); any other is kept as written, which
//! fancy-regex reads as Oniguruma does.
//!
//! ```
//! use bpe_lab::tokenizer::hf_regex::{for_oniguruma, from_oniguruma};
//! use bpe_lab::bpe::bytelevel::SplitPattern;
//! assert_eq!(for_oniguruma(r"\p{N}{1,3}+|\s+"), r"(?>\p{N}{1,3})|\s+");
//! let gpt4 = for_oniguruma(SplitPattern::Cl100k.regex());
//! assert_eq!(from_oniguruma(&gpt4), SplitPattern::Cl100k);
//! ```

use crate::bpe::bytelevel::{BUILTIN_PATTERNS, SplitPattern};

/// `regex` with every possessive counted repetition (`ATOM{n}+`, `{n,}+`, `{n,m}+`) written
/// as an atomic group, `(?>ATOM{n,m})`, inside groups too.
pub fn for_oniguruma(regex: &str) -> String {
    let chars: Vec<char> = regex.chars().collect();
    let mut out = String::with_capacity(regex.len() + 8);
    rewrite(&chars, &mut out);
    out
}

/// The pattern a `tokenizer.json`'s split regex stands for: a built-in whose regex, written
/// [`for_oniguruma`], it is (or whose own regex it is), else the regex as written.
pub fn from_oniguruma(regex: &str) -> SplitPattern {
    BUILTIN_PATTERNS
        .iter()
        .find(|row| row.regex == regex || for_oniguruma(row.regex) == regex)
        .map_or_else(
            || SplitPattern::from_regex(regex),
            |row| row.pattern.clone(),
        )
}

/// Copies `chars` to `out`, atom by atom, wrapping each atom that carries a possessive counted
/// repetition.
fn rewrite(chars: &[char], out: &mut String) {
    let mut i = 0;
    while i < chars.len() {
        let end = atom_end(chars, i);
        let mut atom = String::new();
        match (chars[i], group_close(chars, i)) {
            ('(', Some(close)) => {
                // A group: its opening, its contents rewritten, its closing.
                atom.push('(');
                rewrite(&chars[i + 1..close], &mut atom);
                atom.push(')');
            }
            _ => atom.extend(&chars[i..end]),
        }
        match counted_end(chars, end) {
            Some(after) if chars.get(after) == Some(&'+') => {
                out.push_str("(?>");
                out.push_str(&atom);
                out.extend(&chars[end..after]);
                out.push(')');
                i = after + 1;
            }
            _ => {
                out.push_str(&atom);
                i = end;
            }
        }
    }
}

/// Where the atom that starts at `i` ends: an escape (`\p{…}`, `\x{…}` and the like whole), a
/// character class (nested classes and escapes inside), a group (to its closing parenthesis),
/// or one character. An unclosed class or group runs to the end.
fn atom_end(chars: &[char], i: usize) -> usize {
    match chars[i] {
        '\\' => escape_end(chars, i),
        '[' => class_end(chars, i),
        '(' => group_close(chars, i).map_or(chars.len(), |close| close + 1),
        _ => i + 1,
    }
}

/// The closing parenthesis of the group that opens at `i`, if it is closed.
fn group_close(chars: &[char], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            ')' => return Some(j),
            _ => j = atom_end(chars, j),
        }
    }
    None
}

/// The end of the escape at `i` (`chars[i] == '\\'`).
fn escape_end(chars: &[char], i: usize) -> usize {
    match (chars.get(i + 1), chars.get(i + 2)) {
        (Some('p' | 'P' | 'x' | 'u'), Some('{')) => chars[i + 2..]
            .iter()
            .position(|&c| c == '}')
            .map_or(chars.len(), |k| i + 2 + k + 1),
        (Some(_), _) => i + 2,
        (None, _) => i + 1,
    }
}

/// The end of the character class at `i` (`chars[i] == '['`): a `]` first (after `^`) is a
/// member, escapes and nested classes are skipped whole.
fn class_end(chars: &[char], i: usize) -> usize {
    let mut j = i + 1;
    if chars.get(j) == Some(&'^') {
        j += 1;
    }
    if chars.get(j) == Some(&']') {
        j += 1;
    }
    while j < chars.len() {
        match chars[j] {
            ']' => return j + 1,
            '\\' => j = escape_end(chars, j),
            '[' => j = class_end(chars, j),
            _ => j += 1,
        }
    }
    j
}

/// Where the counted repetition at `j` (`{n}`, `{n,}`, `{n,m}`) ends, if one is there.
fn counted_end(chars: &[char], j: usize) -> Option<usize> {
    if chars.get(j) != Some(&'{') {
        return None;
    }
    let mut k = j + 1;
    let digits = |k: &mut usize| {
        let start = *k;
        while chars.get(*k).is_some_and(char::is_ascii_digit) {
            *k += 1;
        }
        *k > start
    };
    if !digits(&mut k) {
        return None;
    }
    if chars.get(k) == Some(&',') {
        k += 1;
        digits(&mut k);
    }
    (chars.get(k) == Some(&'}')).then_some(k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possessive_counted_repetitions_become_atomic_groups() {
        for (regex, expected) in [
            (r"\p{N}{1,3}+", r"(?>\p{N}{1,3})"),
            (r"a{2}+b{3,}+c{1,2}", r"(?>a{2})(?>b{3,})c{1,2}"),
            (r"[}{]{1,2}+x", r"(?>[}{]{1,2})x"),
            (r"[^]\]]{2}+", r"(?>[^]\]]{2})"),
            (r"[\p{L}[0-9]]{1,3}+", r"(?>[\p{L}[0-9]]{1,3})"),
            (r"(?:ab|c{2}+){1,2}+", r"(?>(?:ab|(?>c{2})){1,2})"),
            (r"(?i:'s|\d{1,3}+)", r"(?i:'s|(?>\d{1,3}))"),
            (r"\x{41}{2}+", r"(?>\x{41}{2})"),
            (r"\{1,2}+", r"\{1,2}+"),
        ] {
            assert_eq!(for_oniguruma(regex), expected, "{regex}");
        }
    }

    #[test]
    fn everything_else_is_copied_as_it_is() {
        for regex in [
            r"a{",
            r"a{x}+",
            r"a{,3}+",
            r"\p{L}++|\s*[\r\n]+|\s+(?!\S)",
            r"[^\r\n\p{L}\p{N}]?+\p{L}+",
            r"(unclosed",
            r"(ab\)",
            r"[unclosed",
            "\\",
            "",
        ] {
            assert_eq!(for_oniguruma(regex), regex);
        }
        for row in &BUILTIN_PATTERNS {
            if !row.regex.contains("}+") {
                assert_eq!(for_oniguruma(row.regex), row.regex, "{}", row.name);
            }
        }
    }

    /// GPT-4's pattern, as the export wrote it before the rule was general.
    #[test]
    fn gpt4s_pattern_gets_its_one_atomic_group() {
        assert_eq!(
            for_oniguruma(SplitPattern::Cl100k.regex()),
            SplitPattern::Cl100k
                .regex()
                .replace(r"\p{N}{1,3}+", r"(?>\p{N}{1,3})")
        );
    }

    #[test]
    fn the_built_ins_are_read_back_from_either_spelling() {
        for row in &BUILTIN_PATTERNS {
            assert_eq!(from_oniguruma(&for_oniguruma(row.regex)), row.pattern);
            assert_eq!(from_oniguruma(row.regex), row.pattern);
        }
        assert_eq!(
            from_oniguruma(r"(?>\p{N}{1,2})|\s+"),
            SplitPattern::from_regex(r"(?>\p{N}{1,2})|\s+")
        );
    }

    /// fancy-regex splits a text the same with the rewritten pattern as with the original:
    /// what makes the rewrite safe for bpe-lab's side as well.
    #[test]
    fn fancy_regex_cuts_the_same_with_the_rewrite() {
        let patterns = [
            SplitPattern::Cl100k.regex().to_owned(),
            r"\p{L}+|\p{N}{1,2}+|[^\p{L}\p{N}\s]{1,3}+|\s+(?!\S)|\s+".to_owned(),
            r"(?:ab|a){1,2}+b|\w|\W".to_owned(),
        ];
        let texts = [
            "12345 67 8 ab aab abab abb !!!!! ?? 1a2b3c",
            "२०२४ में 1,234,567 — ١٢٣٤٥ ٦ ፲፪፫ 😀😀😀 ...",
            "abababb aabbb abbb 9999999",
        ];
        for pattern in &patterns {
            let original = fancy_regex::Regex::new(pattern).unwrap();
            let rewritten = fancy_regex::Regex::new(&for_oniguruma(pattern)).unwrap();
            for text in texts {
                let chunks = |re: &fancy_regex::Regex| -> Vec<String> {
                    re.find_iter(text)
                        .map(|m| m.unwrap().as_str().to_owned())
                        .collect()
                };
                assert_eq!(
                    chunks(&original),
                    chunks(&rewritten),
                    "{pattern} on {text:?}"
                );
            }
        }
    }
}
