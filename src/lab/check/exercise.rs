//! The eight exercises, in the order the lab teaches them. The order matters: an exercise may
//! lean on the crate's versions of the steps taught before it (train_bpe may call
//! `bpe_lab::get_pair_frequencies`), never on its own answer or a later one.

use std::fmt;

/// One exercise of the lab notebooks.
///
/// ```
/// use bpe_lab::lab::check::Exercise;
/// let e: Exercise = "train_bpe".parse().unwrap();
/// assert_eq!(e.name(), "train_bpe");
/// assert!(Exercise::GetPairFrequencies < e);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exercise {
    BpeInitialize,
    GetPairFrequencies,
    MostFrequentPair,
    MergePairInWord,
    TrainBpe,
    ApplyMerges,
    Encode,
    Decode,
}

impl Exercise {
    /// Every exercise, in teaching order.
    pub const ALL: [Exercise; 8] = [
        Exercise::BpeInitialize,
        Exercise::GetPairFrequencies,
        Exercise::MostFrequentPair,
        Exercise::MergePairInWord,
        Exercise::TrainBpe,
        Exercise::ApplyMerges,
        Exercise::Encode,
        Exercise::Decode,
    ];

    /// The function's name, as the notebooks write it.
    pub fn name(self) -> &'static str {
        match self {
            Exercise::BpeInitialize => "bpe_initialize",
            Exercise::GetPairFrequencies => "get_pair_frequencies",
            Exercise::MostFrequentPair => "most_frequent_pair",
            Exercise::MergePairInWord => "merge_pair_in_word",
            Exercise::TrainBpe => "train_bpe",
            Exercise::ApplyMerges => "apply_merges",
            Exercise::Encode => "encode",
            Exercise::Decode => "decode",
        }
    }

    /// Whether a solution of `self` may call the crate's version of `step`.
    pub fn may_use(self, step: Exercise) -> bool {
        step < self
    }
}

impl fmt::Display for Exercise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Exercise {
    type Err = String;

    fn from_str(name: &str) -> Result<Exercise, String> {
        Exercise::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| format!("no exercise is called {name:?}"))
    }
}
