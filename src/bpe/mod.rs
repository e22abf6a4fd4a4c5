//! The BPE engine: the literal oracle and the fast trainer and encoder that must equal it.

pub mod corpus;
pub mod encode;
mod pair_queue;
pub mod reference;
// Not public: its functions are the answers without the guard that watches for them.
pub(crate) mod steps;
pub mod symbols;
pub mod train;
pub mod words;

pub use steps::EOW;

/// How a tie between equally frequent pairs is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum TieBreak {
    /// The smallest `(left, right)` pair, comparing strings by code point (seed 000).
    #[default]
    Lexicographic,
    /// The pair whose first occurrence comes first when scanning the current corpus word by
    /// word, left to right: what Python's `Counter.most_common(1)` and `max(dict, key=...)`
    /// return, as the DeepMind lab and seed 004 run them.
    FirstSeen,
}

impl std::str::FromStr for TieBreak {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "lexicographic" => Ok(TieBreak::Lexicographic),
            "first-seen" => Ok(TieBreak::FirstSeen),
            other => Err(format!(
                "unknown tie-break {other:?}: expected \"lexicographic\" or \"first-seen\""
            )),
        }
    }
}
