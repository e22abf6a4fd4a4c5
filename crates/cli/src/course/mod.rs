//! The course tools: student versions from the sources with solutions
//! ([`release`]), executing notebooks with the real kernel ([`runner`]), reading the check
//! results ([`results`]), verifying every solution passes ([`verify`]), grading submissions
//! ([`grade`]) with feedback in Markdown and HTML ([`feedback`]) and checking the machine ([`doctor`]).

pub(crate) mod doctor;
pub mod execute;
pub mod executor;
pub(crate) mod exercise_name;
pub(crate) mod grade;
pub mod judge;
pub(crate) mod nbgrader_course;
pub(crate) mod notebook;
pub mod process;
pub mod release;
pub(crate) mod restore;
pub(crate) mod results;
pub mod runner;
pub(crate) mod verify;
