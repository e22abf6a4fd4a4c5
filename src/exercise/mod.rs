//! The exercise vocabulary, on the ground floor: the exercises, in the order the notebooks
//! teach them, and the [`guard`] that the engine's answers report to. It sits below the
//! engine so that `bpe/` and `tokenizer/` can name an exercise without importing the lab.
//!
//! The order matters: an exercise may
//! lean on the crate's versions of the steps taught before it (train_bpe may call
//! `bpe_lab::get_pair_frequencies`), never on its own answer or a later one.

pub mod guard;

use std::fmt;

/// Writes the enum and its table from one list, so that the count, the order, the names, the
/// notebooks and the points of the exercises are written nowhere else: adding an exercise is
/// one line here.
macro_rules! exercises {
    ($($(#[$doc:meta])* $variant:ident => $name:literal, notebook $notebook:literal, points $points:literal;)*) => {
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

        /// Each exercise with its name, notebook and points, in teaching order: the
        /// vocabulary's one row per exercise. The rest of what the lab knows about an exercise
        /// (signature, reference, check, what a grader's worker offers) is its file under
        /// `lab/check/exercises/`, a floor up, where the checks live.
        const NAMES: [Entry; [$($name),*].len()] = [$(Entry {
            exercise: Exercise::$variant,
            name: $name,
            notebook: $notebook,
            points: $points,
        },)*];
    };
}

// Notebook: the number that starts its file's name (`instructor/07-bytes.ipynb` is "07").
// Points: what its check cell in that notebook is worth (`metadata.bpe_lab.points`, which the
// grader awards). tests/suite/notebook_tables.rs holds the notebooks to both columns.
exercises! {
    BpeInitialize => "bpe_initialize", notebook "01", points 2;
    GetPairFrequencies => "get_pair_frequencies", notebook "02", points 2;
    MostFrequentPair => "most_frequent_pair", notebook "03", points 1;
    MergePairInWord => "merge_pair_in_word", notebook "03", points 2;
    TrainBpe => "train_bpe", notebook "04", points 2;
    ApplyMerges => "apply_merges", notebook "05", points 2;
    Encode => "encode", notebook "06", points 2;
    Decode => "decode", notebook "06", points 1;
    /// Text chunks as their UTF-8 bytes, the byte-level starting point.
    ByteInitialize => "byte_initialize", notebook "07", points 1;
    /// Adjacent byte pairs counted inside each chunk, never across two.
    CountPairsInChunks => "count_pairs_in_chunks", notebook "07", points 2;
    /// Every occurrence of a pair of ids replaced by a new id, in one pass.
    MergeIds => "merge_ids", notebook "07", points 2;
    /// minbpe's training loop, new ids numbered from 256.
    TrainByteBpe => "train_byte_bpe", notebook "07", points 3;
    /// minbpe's encoder, each chunk's bytes merged by rank (lowest new id first).
    EncodeIds => "encode_ids", notebook "07", points 3;
    /// Ids to bytes to text, the bytes joined before they are read as UTF-8.
    DecodeIds => "decode_ids", notebook "07", points 2;
    /// The merges behind a rank file (cl100k_base's), recovered from the ranks.
    RecoverMerges => "recover_merges", notebook "07", points 4;
}

/// One exercise's line of the list.
struct Entry {
    exercise: Exercise,
    name: &'static str,
    notebook: &'static str,
    points: u32,
}

// Row `i` is the exercise whose discriminant is `i`, so a name is one index away; the compiler
// refuses a row out of place.
const _: () = {
    let mut i = 0;
    while i < NAMES.len() {
        assert!(
            NAMES[i].exercise as usize == i,
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
            all[i] = NAMES[i].exercise;
            i += 1;
        }
        all
    };

    /// The function's name, as the notebooks write it.
    pub fn name(self) -> &'static str {
        NAMES[self as usize].name
    }

    /// The notebook that teaches it: the number its file's name starts with (`"07"` for
    /// `07-bytes.ipynb`), the students' and the instructor's copy alike.
    pub fn notebook(self) -> &'static str {
        NAMES[self as usize].notebook
    }

    /// What its check is worth in the lab's own notebook: the points its check cell carries
    /// (`metadata.bpe_lab.points`) and the grader awards. A course that changes a cell's points
    /// is graded by the cell; this is the lab's as shipped.
    pub fn points(self) -> u32 {
        NAMES[self as usize].points
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
