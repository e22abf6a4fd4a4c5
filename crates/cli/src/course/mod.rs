//! The course tools: student versions from the sources with solutions
//! ([`release`]), executing notebooks with the real kernel ([`runner`]), reading the check
//! results ([`results`]), verifying every solution passes ([`verify`]), grading submissions
//! ([`grade`]) with feedback in Markdown and HTML ([`feedback`]) and checking the machine ([`doctor`]).

pub mod doctor;
pub mod execute;
pub mod executor;
pub mod exercise_name;
pub mod grade;
pub mod judge;
pub mod nbgrader_course;
pub mod notebook;
pub mod process;
pub mod release;
pub mod restore;
pub mod results;
pub mod runner;
pub mod verify;

/// The feedback files, owned by grading; kept at this path too.
pub use grade::feedback;
