//! proptest's settings for the integration tests: every failing case proptest finds is saved
//! beside the test file that found it (`tests/suite/byte_level.rs` saves to
//! `tests/suite/byte_level.proptest-regressions`) and replayed first on every later run.
//!
//! proptest's own default looks for the saved cases in a folder parallel to the crate root
//! (tests/proptest-regressions, which no longer exists); when the tests moved into `tests/suite/` the saved files
//! stayed beside them and silently stopped being read. Naming the place here, and
//! `habits::saved_proptest_cases_are_replayed` checking that each saved file is found, keeps
//! that from happening again.

use proptest::test_runner::{Config, FileFailurePersistence};

/// The extension of a saved-cases file, which sits beside its test file.
pub const EXTENSION: &str = "proptest-regressions";

/// proptest's settings with `cases` random cases per test, the saved ones read first.
pub fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(EXTENSION))),
        ..Config::default()
    }
}
