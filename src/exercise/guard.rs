//! Catching borrowed answers in the notebook: while a check runs the student's function, the
//! crate's own answer to that exercise (or to a later one) must not be called. Every such
//! entry point reports itself through [`answer_used`]; the check then says "not passed" and
//! names the function.
//!
//! This is the notebook's courtesy, not the grade's defence: a student can copy the code
//! instead. The grader's workers are compiled without the crate's answers at all.

use super::Exercise;
use std::cell::Cell;

// Per thread, not global: checks running side by side (tests do that) must not see each
// other's reference calls. A thread the student starts is therefore not watched; the grader's
// workers, which have no answers to call, close that gap.
thread_local! {
    static WATCHING: Cell<Option<Exercise>> = const { Cell::new(None) };
    static BORROWED: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// Called by the crate's answer to `exercise` (named `function`). Costs a thread-local read
/// when no check is running.
pub fn answer_used(exercise: Exercise, function: &'static str) {
    if let Some(watched) = WATCHING.with(Cell::get)
        && !watched.may_use(exercise)
        && BORROWED.with(Cell::get).is_none()
    {
        BORROWED.with(|b| b.set(Some(function)));
    }
}

/// Runs `f` (the student's function) watching for the crate's answers to `exercise`; returns
/// its result and the first borrowed function, if any.
pub(crate) fn watching<T>(exercise: Exercise, f: impl FnOnce() -> T) -> (T, Option<&'static str>) {
    BORROWED.with(|b| b.set(None));
    let outer = WATCHING.with(|w| w.replace(Some(exercise)));
    let result = f();
    WATCHING.with(|w| w.set(outer));
    (result, BORROWED.with(|b| b.take()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
