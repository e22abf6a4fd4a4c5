//! An instructor's own test, written in Rust in a notebook's test cell:
//!
//! ```ignore
//! own_test!("counts the words", 2, {
//!     assert_eq!(count_tokens("a b"), 2);
//! });
//! ```
//!
//! In the notebook the macro runs the block at once and shows one result in the lab's style:
//! ✅ passed, ❌ with the failing assert's message and values, ✏️ when the code it calls is still
//! `todo!()`, a panic or a hang caught (the block runs on a thread of its own, timed like a
//! built-in check). When grading, the judge compiles the same blocks into the student's worker
//! and turns each one's reply into a result with [`outcome`] — one rule for both places, so a
//! ✅ in the notebook is a pass in the gradebook.
//!
//! The block runs on a thread of its own, so it must own what it uses (`'static`): build the
//! inputs inside the block rather than borrowing a variable of an earlier cell.

use super::check::{Check, Reply, Status, quietly, time_limit};
use std::sync::mpsc;

/// Runs an instructor's test and shows its result: `own_test!(name, points, { asserts })`.
/// The points are read by the grader; the notebook shows them beside the name.
#[macro_export]
macro_rules! own_test {
    ($name:expr, $points:expr, $body:block) => {
        $crate::lab::own_test::run($name, $points as f64, move || $body)
    };
}

/// Whether a panic message is `todo!()`'s or `unimplemented!()`'s: the code under test is
/// not written yet.
fn is_todo(message: &str) -> bool {
    message.starts_with("not yet implemented") || message.starts_with("not implemented")
}

/// Whether a panic message is an assert's (`assert!`, `assert_eq!`, `assert_ne!` without a
/// message of the instructor's own): the test ran and found a wrong result.
fn is_assert(message: &str) -> bool {
    message.starts_with("assertion")
}

/// The result of test `name` from what running it gave (`Returned(())`: the block ended, so
/// every assert held). `limit` is the time it had, for the words of a hang.
pub fn outcome(name: &str, reply: Reply<()>, limit: std::time::Duration) -> Check {
    let (status, message) = match reply {
        Reply::Returned(()) => (Status::Passed, "passed".to_owned()),
        Reply::Panicked(m) if is_todo(&m) => (
            Status::NotImplemented,
            "not implemented yet (the code it tests is still `todo!()`)".to_owned(),
        ),
        Reply::Panicked(m) if is_assert(&m) => (Status::Failed, format!("failed: {m}")),
        Reply::Panicked(m) => (Status::Panicked, format!("the code panicked: {m}")),
        Reply::UsedReference(function) => (
            Status::UsedReference,
            format!("it called the crate's own answer ({function})"),
        ),
        Reply::Crashed(why) => (
            Status::Crashed,
            format!("the program running it died: {why}"),
        ),
        Reply::TimedOut => (
            Status::TimedOut,
            format!(
                "it did not finish within {} s — is there a loop that never ends?",
                limit.as_secs()
            ),
        ),
    };
    Check {
        exercise: name.to_owned(),
        status,
        message,
        counterexample: None,
        cases: 1,
        hint: String::new(),
    }
}

/// Runs `test` on a thread of its own within the checks' time limit, and shows and returns
/// its result. A panic is caught and reported, never printed; a test still running at the
/// limit is reported as a hang (it cannot be stopped from here: interrupting the kernel does).
pub fn run(name: &str, points: f64, test: impl FnOnce() + Send + 'static) -> Check {
    let check = evaluate(name, test, time_limit());
    let mut shown = check.clone();
    shown.exercise = format!("{name} ({points} {})", plural(points));
    shown.show();
    check
}

fn plural(points: f64) -> &'static str {
    if points == 1.0 { "point" } else { "points" }
}

/// Runs `test` within `limit` and says how it went, without showing anything.
pub fn evaluate(
    name: &str,
    test: impl FnOnce() + Send + 'static,
    limit: std::time::Duration,
) -> Check {
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("own test {name}"))
        .spawn(move || {
            let reply = match quietly(std::panic::AssertUnwindSafe(test)) {
                Ok(()) => Reply::Returned(()),
                Err(panicked) => Reply::Panicked(panicked.message),
            };
            let _ = sender.send(reply);
        });
    let reply = match spawned {
        Ok(_) => receiver.recv_timeout(limit).unwrap_or(Reply::TimedOut),
        Err(e) => Reply::Crashed(format!("no thread to run the test on: {e}")),
    };
    let mut check = outcome(name, reply, limit);
    if check.status == Status::TimedOut {
        check.message.push_str(
            " It is still running in the background: interrupt the kernel (■) to stop it.",
        );
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const LIMIT: Duration = Duration::from_secs(5);

    #[test]
    fn a_test_whose_asserts_hold_passes() {
        let check = evaluate("adds", || assert_eq!(1 + 1, 2), LIMIT);
        assert_eq!(check.status, Status::Passed);
        assert_eq!(check.exercise, "adds");
    }

    #[test]
    fn a_failing_assert_shows_its_values() {
        let check = evaluate("adds", || assert_eq!(1 + 1, 3), LIMIT);
        assert_eq!(check.status, Status::Failed);
        assert!(check.message.contains("left: 2"), "{}", check.message);
        assert!(check.message.contains("right: 3"), "{}", check.message);
    }

    #[test]
    fn todo_is_not_implemented_and_other_panics_are_panics() {
        fn unfinished() -> usize {
            todo!()
        }
        let check = evaluate("todo", || assert_eq!(unfinished(), 1), LIMIT);
        assert_eq!(check.status, Status::NotImplemented);
        let v: Vec<u8> = Vec::new();
        let check = evaluate("index", move || assert_eq!(v[3], 1), LIMIT);
        assert_eq!(check.status, Status::Panicked);
        assert!(
            check.message.contains("index out of bounds"),
            "{}",
            check.message
        );
    }

    #[test]
    fn a_hang_is_reported_at_the_limit() {
        let check = evaluate(
            "hangs",
            || std::thread::sleep(Duration::from_secs(30)),
            Duration::from_millis(200),
        );
        assert_eq!(check.status, Status::TimedOut);
    }

    #[test]
    fn the_macro_runs_the_block() {
        let check = crate::own_test!("macro", 1, {
            assert_eq!(vec!['<', '/', 'w', '>'].len(), EOW_LEN);
        });
        assert_eq!(check.status, Status::Passed);
    }

    const EOW_LEN: usize = crate::EOW.len();
}
