//! Catching borrowed answers in the notebook: while a check runs the student's function, the
//! crate's own answer to that exercise (or to a later one) must not be called. Every such
//! entry point reports itself through [`answer_used`]; the check then says "not passed" and
//! names the function. (That the engine's answers do report themselves is tested on the
//! engine's floor, `bpe/guarded.rs`: this floor may not call up to them.)
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
