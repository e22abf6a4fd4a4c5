//! The exercise vocabulary, on the ground floor: the exercises, in the order the notebooks
//! teach them, and the [`guard`] that the engine's answers report to. It sits below the
//! engine so that `bpe/` and `tokenizer/` can name an exercise without importing the lab.
//!
//! The order matters: an exercise may
//! lean on the crate's versions of the steps taught before it (train_bpe may call
//! `bpe_lab::get_pair_frequencies`), never on its own answer or a later one.

pub mod guard;

use std::fmt;

/// Writes the enum and its name table from one list, so that the count and the order of the
/// exercises are written nowhere else: adding an exercise is one line here.
macro_rules! exercises {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// One exercise of the lab notebooks.
        ///
        /// ```
        /// use bpe_lab::exercise::Exercise;
        /// let e: Exercise = "train_bpe".parse().unwrap();
        /// assert_eq!(e.name(), "train_bpe");
        /// assert!(Exercise::GetPairFrequencies < e);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Exercise {
            $($(#[$doc])* $variant,)*
        }

        /// Each exercise and its name, in teaching order: the vocabulary's one row per
        /// exercise. The rest of what the lab knows about an exercise (signature, reference,
        /// check, what a grader's worker offers) is one row of `lab::check::table`, a floor
        /// up, where the checks live.
        const NAMES: [(Exercise, &str); [$($name),*].len()] = [$((Exercise::$variant, $name),)*];
    };
}

exercises! {
    BpeInitialize => "bpe_initialize",
    GetPairFrequencies => "get_pair_frequencies",
    MostFrequentPair => "most_frequent_pair",
    MergePairInWord => "merge_pair_in_word",
    TrainBpe => "train_bpe",
    ApplyMerges => "apply_merges",
    Encode => "encode",
    Decode => "decode",
    /// Notebook 07: text chunks as their UTF-8 bytes, the byte-level starting point.
    ByteInitialize => "byte_initialize",
    /// Notebook 07: adjacent byte pairs counted inside each chunk, never across two.
    CountPairsInChunks => "count_pairs_in_chunks",
    /// Notebook 07: every occurrence of a pair of ids replaced by a new id, in one pass.
    MergeIds => "merge_ids",
    /// Notebook 07: minbpe's training loop, new ids numbered from 256.
    TrainByteBpe => "train_byte_bpe",
    /// Notebook 07: minbpe's encoder, each chunk's bytes merged by rank (lowest new id first).
    EncodeIds => "encode_ids",
    /// Notebook 07: ids to bytes to text, the bytes joined before they are read as UTF-8.
    DecodeIds => "decode_ids",
    /// Notebook 07: the merges behind a rank file (cl100k_base's), recovered from the ranks.
    RecoverMerges => "recover_merges",
}

// Row `i` is the exercise whose discriminant is `i`, so a name is one index away; the compiler
// refuses a row out of place.
const _: () = {
    let mut i = 0;
    while i < NAMES.len() {
        assert!(
            NAMES[i].0 as usize == i,
            "NAMES lists the exercises in order"
        );
        i += 1;
    }
};

impl Exercise {
    /// How many exercises there are, counted from the list above (never written as a number).
    pub const COUNT: usize = NAMES.len();

    /// Every exercise, in teaching order.
    pub const ALL: [Exercise; Exercise::COUNT] = {
        let mut all = [Exercise::BpeInitialize; Exercise::COUNT];
        let mut i = 0;
        while i < all.len() {
            all[i] = NAMES[i].0;
            i += 1;
        }
        all
    };

    /// The function's name, as the notebooks write it.
    pub fn name(self) -> &'static str {
        NAMES[self as usize].1
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

/// A name that is not one of the exercises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownExercise(pub String);

impl fmt::Display for UnknownExercise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no exercise is called {:?}", self.0)
    }
}

impl std::error::Error for UnknownExercise {}

impl std::str::FromStr for Exercise {
    type Err = UnknownExercise;

    fn from_str(name: &str) -> Result<Exercise, UnknownExercise> {
        Exercise::ALL
            .into_iter()
            .find(|e| e.name() == name)
            .ok_or_else(|| UnknownExercise(name.to_string()))
    }
}
