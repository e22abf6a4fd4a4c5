//! The exercises, one row each: what the student writes, where the crate's answer is, the
//! check that grades it, and what a grader's worker makes of it. Whatever asks a question
//! about an exercise (the grader's [`judge`], the worker's stand-in crate and its call, the
//! path test) reads the row instead of keeping a `match` or a list of its own. The exercise's
//! own code is not here but beside its kind, and the row points at it: its cases, hints and
//! comparison (`exercises.rs`, `bytes.rs`, `byte_tokenizer.rs`), the one call of the student's
//! function (`calls.rs`, which workers compile too), its reference (`lab::reference`).
//!
//! The exercise's name and teaching order are the ground floor's vocabulary
//! ([`Exercise::name`]): the engine's answers report to the guard by exercise, below the lab.
//!
//! ```
//! use bpe_lab::lab::check::{Exercise, table};
//! let row = table::row(Exercise::Encode);
//! assert!(row.signature.starts_with("fn encode(text: &str,"));
//! assert_eq!(row.reference_paths(), ["bpe_lab::lab::reference::encode"]);
//! assert_eq!(row.worker_args(), "EncodeArgs");
//! ```

use super::byte_tokenizer::train_byte_bpe_spec;
use super::byte_tokenizer::{
    decode_ids_spec, encode_ids_spec, merge_ids_spec, recover_merges_spec,
};
use super::bytes::{byte_initialize_spec, count_pairs_in_chunks_spec};
use super::exercises::{
    apply_merges_spec, bpe_initialize_spec, decode_spec, encode_spec, get_pair_frequencies_spec,
    merge_pair_in_word_spec, most_frequent_pair_spec, train_bpe_spec,
};
use super::run::{Reply, Spec, evaluate};
use super::shrink::Shrink;
use super::wire::{self, Wire};
use super::{Check, Exercise};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A check run on a student's function that lives in another program: `call` gets one call's
/// arguments encoded with [`wire`] and a deadline, and returns the reply still encoded.
pub type Judge = fn(&mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>, Duration) -> Check;

/// Where the crate's answer to an exercise is, under the exercise's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference {
    /// `bpe_lab::lab::reference::<name>` only.
    Lab,
    /// The fixed API's function `bpe_lab::<name>`, and the lab's at
    /// `bpe_lab::lab::reference::<name>` (the one path the notebooks name every reference by).
    /// The two give the same answer, except that the lab's `train_bpe` follows the tie rule in
    /// force (`lab::parity::tie_break`), as the lab's checks do, where the fixed API's always
    /// takes the smallest pair.
    Root,
}

/// What a grader's worker has of an exercise. A worker does not link the crate: its function
/// is called through `calls.rs`'s items of the exercise's name (`calls::encode` with
/// `calls::EncodeArgs`), and a step taught before is offered from `bpe/steps.rs`'s function of
/// that name, at the reference's paths, or not at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worker {
    /// Workers of later exercises offer this step (`bpe/steps.rs` has it).
    OffersStep,
    /// Workers of later exercises do not offer it (`bpe/steps.rs` has no such function).
    NoStep,
}

/// One exercise: see the module's documentation.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub exercise: Exercise,
    /// The function the student writes, as its exercise cell declares it (on one line; the
    /// notebooks break long ones as rustfmt does).
    pub signature: &'static str,
    pub reference: Reference,
    /// The exercise's check on a function in another program; `check::<name>` is the same
    /// check on a function in the kernel.
    pub judge: Judge,
    pub worker: Worker,
}

impl Row {
    /// The function's name, the exercise's.
    pub fn name(&self) -> &'static str {
        self.exercise.name()
    }

    /// Every path the crate's answer has, the crate root's first.
    pub fn reference_paths(&self) -> Vec<String> {
        let lab = format!("bpe_lab::lab::reference::{}", self.name());
        match self.reference {
            Reference::Lab => vec![lab],
            Reference::Root => vec![format!("bpe_lab::{}", self.name()), lab],
        }
    }

    /// `calls.rs`'s type of one call's arguments, which a worker decodes: the name in
    /// CamelCase, then `Args` (`merge_pair_in_word` → `MergePairInWordArgs`).
    pub fn worker_args(&self) -> String {
        let mut camel: String = self
            .name()
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        camel.push_str("Args");
        camel
    }
}

/// Every exercise, in teaching order ([`Exercise::ALL`]'s).
pub static TABLE: [Row; Exercise::COUNT] = [
    Row {
        exercise: Exercise::BpeInitialize,
        signature: "fn bpe_initialize(dataset: &[String]) -> (Vec<Vec<String>>, BTreeSet<String>)",
        reference: Reference::Root,
        judge: |call, limit| judge_spec(&bpe_initialize_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::GetPairFrequencies,
        signature: "fn get_pair_frequencies(corpus: &[Vec<String>]) -> HashMap<(String, String), usize>",
        reference: Reference::Root,
        judge: |call, limit| judge_spec(&get_pair_frequencies_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::MostFrequentPair,
        signature: "fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&most_frequent_pair_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::MergePairInWord,
        signature: "fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String>",
        reference: Reference::Root,
        judge: |call, limit| judge_spec(&merge_pair_in_word_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::TrainBpe,
        signature: "fn train_bpe(corpus: &mut Vec<Vec<String>>, num_merges: usize) -> Vec<(String, String)>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&train_bpe_spec(), call, limit),
        worker: Worker::NoStep,
    },
    Row {
        exercise: Exercise::ApplyMerges,
        signature: "fn apply_merges(tokens: &[String], merges: &[(String, String)]) -> Vec<String>",
        reference: Reference::Root,
        judge: |call, limit| judge_spec(&apply_merges_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::Encode,
        signature: "fn encode(text: &str, merges: &[(String, String)], token_to_id: &HashMap<String, u32>, unk_id: u32) -> Vec<u32>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&encode_spec(), call, limit),
        worker: Worker::NoStep,
    },
    Row {
        exercise: Exercise::Decode,
        signature: "fn decode(ids: &[u32], id_to_token: &HashMap<u32, String>) -> String",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&decode_spec(), call, limit),
        worker: Worker::NoStep,
    },
    Row {
        exercise: Exercise::ByteInitialize,
        signature: "fn byte_initialize(chunks: &[String]) -> Vec<Vec<u32>>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&byte_initialize_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::CountPairsInChunks,
        signature: "fn count_pairs_in_chunks(chunks: &[Vec<u32>]) -> Vec<((u32, u32), usize)>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&count_pairs_in_chunks_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::MergeIds,
        signature: "fn merge_ids(ids: &[u32], pair: (u32, u32), new_id: u32) -> Vec<u32>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&merge_ids_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::TrainByteBpe,
        signature: "fn train_byte_bpe(chunks: &[String], num_merges: usize) -> Vec<((u32, u32), u32)>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&train_byte_bpe_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::EncodeIds,
        signature: "fn encode_ids(chunks: &[String], merges: &[((u32, u32), u32)]) -> Vec<u32>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&encode_ids_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::DecodeIds,
        signature: "fn decode_ids(ids: &[u32], merges: &[((u32, u32), u32)]) -> String",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&decode_ids_spec(), call, limit),
        worker: Worker::OffersStep,
    },
    Row {
        exercise: Exercise::RecoverMerges,
        signature: "fn recover_merges(ranks: &HashMap<Vec<u8>, u32>) -> Vec<((u32, u32), u32)>",
        reference: Reference::Lab,
        judge: |call, limit| judge_spec(&recover_merges_spec(), call, limit),
        worker: Worker::NoStep,
    },
];

// Row `i` is the exercise whose discriminant is `i`; the compiler refuses a row out of place.
const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(
            TABLE[i].exercise as usize == i,
            "TABLE lists the exercises in order"
        );
        i += 1;
    }
};

/// The row of `exercise`.
pub fn row(exercise: Exercise) -> &'static Row {
    &TABLE[exercise as usize]
}

/// Runs `exercise`'s check on a student's function that lives in another program: `call`
/// gets the arguments of one call encoded with [`wire`] and a deadline, and returns the reply
/// with the result still encoded. The cases, comparison, shrinking and messages are the
/// notebook's; `limit` bounds the whole check as the notebook's time limit does.
pub fn judge(
    exercise: Exercise,
    call: &mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>,
    limit: Duration,
) -> Check {
    (row(exercise).judge)(call, limit)
}

fn judge_spec<I: Shrink + Clone, A: Wire, O: Wire + PartialEq>(
    spec: &Spec<I, A, O>,
    call: &mut dyn FnMut(Vec<u8>, Instant) -> Reply<Vec<u8>>,
    limit: Duration,
) -> Check {
    let typed = |args: &A, deadline: Instant| match call(wire::encode(args), deadline) {
        Reply::Returned(bytes) => match wire::decode::<O>(&bytes) {
            Ok(value) => Reply::Returned(value),
            Err(e) => Reply::Crashed(format!("its answer could not be read ({e})")),
        },
        Reply::Panicked(m) => Reply::Panicked(m),
        Reply::UsedReference(n) => Reply::UsedReference(n),
        Reply::Crashed(why) => Reply::Crashed(why),
        Reply::TimedOut => Reply::TimedOut,
    };
    evaluate(spec, typed, &Mutex::new(None), limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::worker_sources::CALLS;

    /// Whitespace out and rustfmt's trailing commas gone, so a signature broken over lines
    /// reads as the table's one line.
    fn squeezed(text: &str) -> String {
        let no_space: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        no_space.replace(",)", ")")
    }

    #[test]
    fn the_table_holds_every_exercise_in_order() {
        let listed: Vec<Exercise> = TABLE.iter().map(|r| r.exercise).collect();
        assert_eq!(listed, Exercise::ALL);
    }

    #[test]
    fn every_signature_is_the_function_of_the_exercises_name() {
        for row in &TABLE {
            assert!(
                row.signature.starts_with(&format!("fn {}(", row.name())),
                "{}",
                row.signature
            );
        }
    }

    #[test]
    fn calls_rs_has_each_exercises_call_and_arguments() {
        let calls = squeezed(CALLS);
        for row in &TABLE {
            let call = format!("pubfn{}(", row.name());
            let args = format!("pubtype{}=", row.worker_args());
            assert!(calls.contains(&call), "calls.rs has no fn {}", row.name());
            assert!(
                calls.contains(&args),
                "calls.rs has no {}",
                row.worker_args()
            );
        }
        assert_eq!(
            row(Exercise::MergePairInWord).worker_args(),
            "MergePairInWordArgs"
        );
    }

    /// Each exercise cell of the notebooks, students' and instructors', declares the table's
    /// signature.
    #[test]
    fn the_notebooks_declare_the_tables_signatures() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in ["notebooks", "instructor"] {
            let mut code = String::new();
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ipynb") {
                    let notebook: serde_json::Value =
                        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                    for cell in notebook["cells"].as_array().unwrap() {
                        for line in cell["source"].as_array().into_iter().flatten() {
                            code.push_str(line.as_str().unwrap_or_default());
                        }
                    }
                }
            }
            let code = squeezed(&code);
            for row in &TABLE {
                assert!(
                    code.contains(&squeezed(row.signature)),
                    "no cell of {dir}/ declares {}",
                    row.signature
                );
            }
        }
    }
}
