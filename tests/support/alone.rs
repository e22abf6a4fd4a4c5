//! Tests that change what the whole process shares — an environment variable every check
//! reads, the child-subreaper flag, the children the process reaps — cannot run beside the
//! other tests of a binary that holds them all. Such a test starts this binary again with only
//! itself selected and waits for it: its body runs in that child, alone.
//!
//! ```ignore
//! #[test]
//! fn shortens_the_limit() {
//!     let Some(_alone) = alone::here(module_path!(), "shortens_the_limit", &[(VAR, "1")]) else {
//!         return; // the parent: the child passed
//!     };
//!     unsafe { std::env::set_var(VAR, "1") }; // the child: nothing else runs here
//! }
//! ```

use std::process::Command;

/// Set in the child to the name of the one test it runs.
pub const ALONE_ENV: &str = "BPE_LAB_TEST_ALONE";

/// The name libtest gives test `function` of the module whose `module_path!()` is `module`
/// (the crate's name left out): what `--exact` selects.
pub fn test_name(module: &str, function: &str) -> String {
    match module.split_once("::") {
        Some((_, path)) => format!("{path}::{function}"),
        None => function.to_owned(),
    }
}

/// Proof that the caller runs in a process of its own.
pub struct Alone(());

/// In the child started for this test: `Some`, run the body. Otherwise starts that child (with
/// `env` set), fails this test if the child did not run exactly this one test and pass it, and
/// returns `None`.
pub fn here(module: &str, function: &str, env: &[(&str, &str)]) -> Option<Alone> {
    let name = test_name(module, function);
    if std::env::var(ALONE_ENV).as_deref() == Ok(name.as_str()) {
        return Some(Alone(()));
    }
    let mut child = command(&name);
    for (key, value) in env {
        child.env(key, value);
    }
    let out = child.output().expect("the test binary starts again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{name}, run alone in a process of its own:\n{text}"
    );
    None
}

/// This binary, selecting only the test `name` and marking the process as its own.
pub fn command(name: &str) -> Command {
    let mut child = Command::new(std::env::current_exe().expect("the test binary's path"));
    child
        .args(["--exact", name, "--nocapture", "--test-threads", "1"])
        .env(ALONE_ENV, name);
    child
}
