//! One file per exercise, as nbgrader keeps one step per file: `exercises/<name>.rs` holds the
//! exercise's check (its fixed and generated cases, comparison, hint, what a failure shows) and
//! its row of the table (`ROW`: signature, where the reference is, what a grader's worker
//! offers); `exercises/<name>/call.rs` holds the one call of the student's function (`Args`,
//! `Out`, `call`). The exercise's name, notebook and points are its line of the ground floor's
//! list (`crate::exercise`), and its reference stays where the notebooks name it.
//!
//! Why the call is a file of its own: the grader pastes it, as text, into the student's worker,
//! which does not link this crate, so it must be plain `std` (no `crate::`, no other crate).
//! The check around it may use the whole crate. Keeping the two apart lets the compiler hold
//! the check's side (the check calls `call::call` with `call::Args`, so a call file that lost
//! either does not build) and lets `lab::worker_sources` hold the worker's side (each call file
//! is plain `std`, read by [`CALL_SOURCES`], the same text the library compiles). A worker gets
//! only its own exercise's call, under the same names for every exercise: no type name has to
//! match a CamelCased exercise name.
//!
//! Why the references are not here: the notebooks and solutions name them at
//! `bpe_lab::lab::reference::<name>`, `bpe_lab::lab::bytes::<name>` and, for four, the crate
//! root; those paths are what students read, and a reference here would have to take another
//! name than the check's. They stay in `lab/reference.rs` and `lab/bytes.rs` (the fixed API's
//! four in `bpe/`), and each row says which.
//!
//! What several checks share lives beside them: [`char_level`] for notebooks 01–06 (words,
//! pairs, the tokenizer notebook's corpus, the tiny tokenizer `encode` and `decode` train),
//! [`byte_level`] for notebook 07 (pieces of text, showing ids and merges). Each file keeps its
//! own number of generated cases, so every case, and so every check's output, is what it was.
//!
//! Adding an exercise here is its two files and three lines of this file: its `mod`, the
//! `pub use` of its check (the notebooks' `::bpe_lab::lab::check::<name>`, which
//! `check/mod.rs` re-exports by a glob), and its name in the `exercise_files!` list, which
//! gathers the rows (`table::TABLE`) and the call files in teaching order; the compiler refuses
//! a list out of the ground floor's order or of another length. The `mod` and `pub use` lines
//! are written out, not made by the macro, so that the layers and public-path tests, which read
//! the sources as Rust without expanding macros, see every file and every path.

mod apply_merges;
mod bpe_initialize;
mod byte_initialize;
mod byte_level;
mod char_level;
mod count_pairs_in_chunks;
mod decode;
mod decode_ids;
mod encode;
mod encode_ids;
mod get_pair_frequencies;
mod merge_ids;
mod merge_pair_in_word;
mod most_frequent_pair;
mod recover_merges;
mod train_bpe;
mod train_byte_bpe;

/// Each exercise's check, which the notebooks call as `check::<name>`.
pub use self::{
    apply_merges::apply_merges, bpe_initialize::bpe_initialize, byte_initialize::byte_initialize,
    count_pairs_in_chunks::count_pairs_in_chunks, decode::decode, decode_ids::decode_ids,
    encode::encode, encode_ids::encode_ids, get_pair_frequencies::get_pair_frequencies,
    merge_ids::merge_ids, merge_pair_in_word::merge_pair_in_word,
    most_frequent_pair::most_frequent_pair, recover_merges::recover_merges, train_bpe::train_bpe,
    train_byte_bpe::train_byte_bpe,
};

use super::row::Row;
use crate::exercise::Exercise;

/// Gathers each exercise's row and call file from one list of names, in teaching order.
macro_rules! exercise_files {
    ($($name:ident,)*) => {
        /// Each exercise's row, in teaching order.
        pub(super) const ROWS: [Row; Exercise::COUNT] = [$($name::ROW,)*];

        /// Each exercise's call file (`exercises/<name>/call.rs`) as text, in teaching order:
        /// what a grader's worker compiles as its `calls` module.
        pub(crate) const CALL_SOURCES: [&str; Exercise::COUNT] =
            [$(include_str!(concat!(stringify!($name), "/call.rs")),)*];
    };
}

exercise_files! {
    bpe_initialize,
    get_pair_frequencies,
    most_frequent_pair,
    merge_pair_in_word,
    train_bpe,
    apply_merges,
    encode,
    decode,
    byte_initialize,
    count_pairs_in_chunks,
    merge_ids,
    train_byte_bpe,
    encode_ids,
    decode_ids,
    recover_merges,
}

// Row `i` is the exercise whose discriminant is `i`, so the list above is in the ground
// floor's order; the compiler refuses a row out of place.
const _: () = {
    let mut i = 0;
    while i < ROWS.len() {
        assert!(
            ROWS[i].exercise as usize == i,
            "exercise_files! lists the exercises in the order of crate::exercise's list"
        );
        i += 1;
    }
};
