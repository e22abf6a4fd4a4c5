//! Letting a stuck student move on: later cells use the student's function when its check
//! passed, and the crate's reference otherwise, saying so.

use super::check::{Check, quietly};

/// `student()` when `check` passed and it runs without panicking, else `reference()`, with a
/// printed note saying which was used and why. Never panics because of the student's code, so
/// the variables a cell defines with it survive (evcxr drops them when a cell panics).
///
/// ```
/// use bpe_lab::lab::{Check, student_or_reference};
/// let not_done = Check::not_implemented_for_demo("initialize");
/// let words = student_or_reference(&not_done, || -> Vec<String> { todo!() }, || vec!["a".into()]);
/// assert_eq!(words, ["a"]);
/// ```
pub fn student_or_reference<T>(
    check: &Check,
    student: impl FnOnce() -> T,
    reference: impl FnOnce() -> T,
) -> T {
    if !check.passed() {
        println!(
            "ℹ Using the reference version of `{}`: yours has not passed its check yet ({}).",
            check.exercise,
            check.status.describe()
        );
        return reference();
    }
    match quietly(std::panic::AssertUnwindSafe(student)) {
        Ok(value) => value,
        Err(message) => {
            println!(
                "ℹ Using the reference version of `{}`: yours panicked here ({message}).",
                check.exercise
            );
            reference()
        }
    }
}
