//! The tie-break policies: their names, descriptions and parsing, in one place.
//!
//! The file format, the command line, `explain` and the notebooks all spell a policy by the
//! name given here; what a policy *does* is defined once, by the oracle's
//! [`Rank`](crate::bpe::oracle::Rank).

use std::fmt;
use std::str::FromStr;

/// How a tie between equally frequent pairs is broken.
///
/// Its [`name`](TieBreak::name) is what the command line takes and the tokenizer file records;
/// [`FromStr`] and [`Display`](fmt::Display) use the same names.
///
/// ```
/// use bpe_lab::TieBreak;
/// assert_eq!("first-seen".parse::<TieBreak>(), Ok(TieBreak::FirstSeen));
/// assert_eq!(TieBreak::Lexicographic.to_string(), "lexicographic");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum TieBreak {
    /// The smallest `(left, right)` pair, comparing strings by code point (the training problem).
    #[default]
    Lexicographic,
    /// The pair whose first occurrence comes first when scanning the current corpus word by
    /// word, left to right: what Python's `Counter.most_common(1)` and `max(dict, key=...)`
    /// return, as the DeepMind lab and the tokenizer notebook run them.
    FirstSeen,
}

impl TieBreak {
    /// Every policy, the default first.
    pub const ALL: [TieBreak; 2] = [TieBreak::Lexicographic, TieBreak::FirstSeen];

    /// The policy's name: `"lexicographic"` or `"first-seen"`.
    pub const fn name(self) -> &'static str {
        match self {
            TieBreak::Lexicographic => "lexicographic",
            TieBreak::FirstSeen => "first-seen",
        }
    }

    /// The policy a person most likely meant by `text`: a [name](TieBreak::name) in any case,
    /// with `_` for `-` and spaces around, or `lab` for [`TieBreak::FirstSeen`] (the Python
    /// lab's rule). For settings typed by hand, such as an environment variable; the file
    /// format and the command line take the exact names ([`FromStr`]).
    ///
    /// ```
    /// use bpe_lab::TieBreak;
    /// assert_eq!(TieBreak::from_loose_name(" First_Seen "), Some(TieBreak::FirstSeen));
    /// assert_eq!(TieBreak::from_loose_name("lab"), Some(TieBreak::FirstSeen));
    /// assert_eq!(TieBreak::from_loose_name("alphabetical"), None);
    /// ```
    pub fn from_loose_name(text: &str) -> Option<TieBreak> {
        let name = text.trim().to_ascii_lowercase().replace('_', "-");
        match name.as_str() {
            "lab" => Some(TieBreak::FirstSeen),
            name => name.parse().ok(),
        }
    }

    /// One line saying what the policy does, for help texts.
    pub const fn summary(self) -> &'static str {
        match self {
            TieBreak::Lexicographic => {
                "The smallest pair: left symbols compared first, then right, by code point"
            }
            TieBreak::FirstSeen => {
                "The pair met first reading the corpus left to right (Python's Counter.most_common)"
            }
        }
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TieBreak {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TieBreak::ALL
            .into_iter()
            .find(|policy| policy.name() == s)
            .ok_or_else(|| {
                let names: Vec<String> = TieBreak::ALL
                    .iter()
                    .map(|p| format!("{:?}", p.name()))
                    .collect();
                format!("unknown tie-break {s:?}: expected {}", names.join(" or "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for policy in TieBreak::ALL {
            assert_eq!(policy.name().parse::<TieBreak>(), Ok(policy));
            assert_eq!(policy.to_string(), policy.name());
        }
        let error = "alphabetical".parse::<TieBreak>().unwrap_err();
        assert_eq!(
            error,
            r#"unknown tie-break "alphabetical": expected "lexicographic" or "first-seen""#
        );
    }
}
