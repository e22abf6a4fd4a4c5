//! The course tools: student versions from the sources with solutions ([`release`]),
//! verifying every solution passes ([`verify`]), grading submissions ([`grade`]) with feedback
//! in Markdown and HTML ([`grade::feedback`]), checking the machine ([`doctor`]).
//!
//! Three modules run notebooks, each named for where: [`run_local`] runs one with the real
//! kernel on this machine (verify, the doctor), [`run_sandboxed`] runs a restored submission in
//! the grader's sandbox (`lab grade --execute`), and both start the [`executor`], the embedded
//! Python package that drives Jupyter and reports each cell ([`results`] reads the checks'
//! results out of it).

pub(crate) mod cell_match;
pub(crate) mod crate_path;
pub(crate) mod doctor;
pub(crate) mod doctor_grading;
pub mod executor;
pub(crate) mod exercise_name;
pub(crate) mod grade;
pub(crate) mod graded_exercise;
pub(crate) mod handout;
pub(crate) mod handout_manifest;
pub mod judge;
pub(crate) mod nbgrader_course;
pub(crate) mod notebook;
pub(crate) mod own_tests;
pub mod process;
pub mod release;
pub(crate) mod release_record;
pub(crate) mod restore;
pub(crate) mod results;
pub mod run_local;
pub mod run_sandboxed;
pub(crate) mod verify;
