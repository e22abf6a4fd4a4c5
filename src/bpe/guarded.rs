//! The engine's answers report themselves to the notebook's guard (`exercise/guard.rs`), so
//! a check can say when a student's function called the crate's own answer. Tested here, on
//! the engine's floor, because the guard sits below the engine and may not call up to it.

use crate::exercise::Exercise;
use crate::exercise::guard::watching;

#[test]
fn only_the_exercise_and_later_answers_count() {
    let corpus = vec![vec!["a".to_string(), "b".to_string()]];
    let (_, borrowed) = watching(Exercise::TrainBpe, || {
        crate::get_pair_frequencies(&corpus);
        crate::merge_pair_in_word(&corpus[0], &("a".into(), "b".into()))
    });
    assert_eq!(borrowed, None);
    let (_, borrowed) = watching(Exercise::TrainBpe, || {
        crate::train_bpe(&mut corpus.clone(), 1)
    });
    assert_eq!(borrowed, Some("bpe_lab::Trainer"));
    let (_, borrowed) = watching(Exercise::MergePairInWord, || {
        crate::merge_pair_in_word(&corpus[0], &("a".into(), "b".into()))
    });
    assert_eq!(borrowed, Some("bpe_lab::merge_pair_in_word"));
    // Nothing is watched outside.
    crate::train_bpe(&mut corpus.clone(), 1);
    assert_eq!(watching(Exercise::Decode, || ()).1, None);
}
