//! Grading submissions as a library session. Each notebook is identified and restored against
//! its released version, then every exercise is judged from outside — the student's code
//! compiled into a worker and called in a sandbox by the notebooks' own check engine
//! ([`super::judge`]). No student code runs in the grader's process, and one broken or hostile
//! submission never stops the others.
//!
//! The session ([`session`]) runs, in order: the labs ([`lab`]), the submissions ([`intake`]:
//! folders, notebooks or an LMS's zip download, one [`submission`] per student and lab), what `--resume` keeps ([`resume`]), the queue of jobs ([`queue`]), each
//! job's steps ([`job`]: read, [`identify`], restore, [`scratch`], judge, execute), and the
//! writes as each grade finishes ([`write`]: [`feedback`], the [`gradebook`], the
//! [`nbgrader_csv`]). Grades are typed records ([`record`], [`note`]), saved with serde; what
//! was not graded and whose doing that was is read from them ([`not_graded`]). A class too
//! large for one machine is graded in shards ([`shard`]) and joined again ([`merge`]). A
//! regrade of one student keeps the class's other rows ([`class`]); a saved grade records the
//! grading setup it was decided under ([`setup`]); the instructor's adjustments live in a file
//! of their own and are applied to every gradebook and feedback page written ([`adjustments`]).

pub(crate) mod adjustments;
pub(crate) mod class;
pub(crate) mod clock;
pub(crate) mod csv_records;
pub(crate) mod digest;
pub(crate) mod error;
pub(crate) mod export;
pub(crate) mod feedback;
pub(crate) mod gradebook;
pub(crate) mod graded_notebook;
pub(crate) mod identify;
pub(crate) mod intake;
pub(crate) mod job;
pub(crate) mod lateness;
pub(crate) mod merge;
pub(crate) mod nbgrader_csv;
pub(crate) mod not_graded;
pub(crate) mod note;
pub(crate) mod outcome;
pub(crate) mod queue;
pub(crate) mod record;
pub(crate) mod resume;
pub(crate) mod scratch;
pub(crate) mod session;
pub(crate) mod setup;
pub(crate) mod shard;
pub(crate) mod submission;
pub(crate) mod summary;
pub(crate) mod summary_html;
pub(crate) mod write;

pub(crate) use error::{GradeError, Output};
pub(crate) use merge::{MergeError, MergeOptions, merge_shards};
pub(crate) use not_graded::Tally;
pub(crate) use note::Whose;
pub(crate) use session::{Event, SessionOptions, Summary, grade_all};
pub(crate) use shard::Shard;
