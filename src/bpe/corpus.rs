//! The lab's initialization step: paragraphs into words of characters ending in `</w>`.

use std::collections::BTreeSet;

use crate::exercise::Exercise;

/// The lab's word rule (Python's `paragraph.split(" ")`), written once in `steps.rs` so that
/// the grader's workers, which compile that file, cut words the same way.
pub use crate::bpe::steps::lab_words;

/// The lab's `bpe_initialize`: every word of every paragraph (see [`lab_words`]) as its
/// Unicode scalar values followed by `"</w>"`, and the set of all symbols seen plus `"</w>"`.
///
/// ```
/// use bpe_lab::bpe_initialize;
/// let (corpus, vocabulary) = bpe_initialize(&["The air"]);
/// assert_eq!(corpus, [vec!["T", "h", "e", "</w>"], vec!["a", "i", "r", "</w>"]]);
/// assert_eq!(vocabulary.len(), 7);
/// ```
pub fn bpe_initialize(dataset: &[impl AsRef<str>]) -> (Vec<Vec<String>>, BTreeSet<String>) {
    crate::exercise::guard::answer_used(Exercise::BpeInitialize, "bpe_lab::bpe_initialize");
    crate::bpe::steps::bpe_initialize(dataset)
}
