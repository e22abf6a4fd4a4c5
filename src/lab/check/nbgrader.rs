//! Checks under nbgrader. nbgrader scores a test cell by whether it ended with an error, and a
//! check that did not pass is ordinary output — so under nbgrader's autograde or validate
//! (which put `NBGRADER_EXECUTION` in the kernel's environment) a check that did not pass ends
//! its cell with an error after showing its result. In evcxr, the one way a running cell
//! produces an error output is its code process ending: a panic is only printed and a `?` on
//! an `Err` only prints the error. The functions and types the student defined survive (evcxr
//! keeps them and starts a new process); variables do not, which no later check needs.
//! Outside nbgrader nothing changes for students.

use super::result::Check;
use std::io::Write as _;

/// The variable nbgrader sets while it executes notebooks.
pub const EXECUTION_ENV: &str = "NBGRADER_EXECUTION";

/// Whether nbgrader is grading or validating this kernel's notebook.
pub fn grading() -> bool {
    matches!(
        std::env::var(EXECUTION_ENV).as_deref(),
        Ok("autograde" | "validate")
    )
}

/// The exit status a check that did not pass ends the cell's process with under nbgrader.
pub const FAILED_EXIT: i32 = 1;

/// Under nbgrader, ends the cell with an error when `check` did not pass (its result is
/// already shown); otherwise returns.
pub(super) fn end_cell_unless_passed(check: &Check) {
    if check.passed() || !grading() {
        return;
    }
    eprintln!(
        "{} did not pass ({}): ending the cell with an error so that nbgrader scores it 0",
        check.exercise,
        check.status.as_str()
    );
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // evcxr forwards the process's output from threads of its own and reports the process's
    // end as soon as it sees it: on a busy machine the end came first and the result above
    // never reached the notebook (an nbgrader feedback page without it). A second is time
    // enough for those threads, and is spent only on a check that did not pass, under
    // nbgrader.
    std::thread::sleep(std::time::Duration::from_secs(1));
    std::process::exit(FAILED_EXIT);
}
