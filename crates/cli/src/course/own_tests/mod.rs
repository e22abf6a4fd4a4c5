//! Instructors' own exercises: a test cell of Rust written beside a solution cell, marked
//! `{"bpe_lab": {"own_test": "<exercise>"}}` in its metadata, holding named tests with their
//! points (`own_test!("name", 2, { asserts })`, [`bpe_lab::lab::own_test`]), some of them
//! between `// BEGIN HIDDEN TESTS` and `// END HIDDEN TESTS`.
//!
//! [`cell`] reads such a cell and takes its hidden part out for the student edition;
//! [`judge`] grades it the way a built-in exercise is graded: the tests, hidden ones included
//! and taken from the instructor's source, compiled into the student's worker and run in the
//! sandbox, each test's result coming back over the worker's reply channel.

pub(crate) mod cell;
pub(crate) mod judge;
pub(crate) mod new_lab;

pub(crate) use cell::{OwnTestCell, strip_hidden};
