//! Grading submissions as a library session. Each notebook is identified and restored against
//! its released version, then every exercise is judged from outside — the student's code
//! compiled into a worker and called in a sandbox by the notebooks' own check engine
//! ([`super::judge`]). No student code runs in the grader's process, and one broken or hostile
//! submission never stops the others.
//!
//! The session ([`session`]) runs, in order: the labs ([`lab`]), the submissions
//! ([`submission`]), what `--resume` keeps ([`resume`]), the queue of jobs ([`queue`]), each
//! job's steps ([`job`]: read, [`identify`], restore, [`scratch`], judge, execute), and the
//! writes as each grade finishes ([`write`]: [`feedback`], the [`gradebook`], the
//! [`nbgrader_csv`]). Grades are typed records ([`record`], [`note`]), saved with serde; what
//! was not graded and whose doing that was is read from them ([`not_graded`]). A class too
//! large for one machine is graded in shards ([`shard`]) and joined again ([`merge`]).

pub mod digest;
pub mod error;
pub mod feedback;
pub mod gradebook;
pub mod identify;
pub mod job;
pub mod lab;
pub mod merge;
pub mod nbgrader_csv;
pub mod not_graded;
pub mod note;
pub mod queue;
pub mod record;
pub mod resume;
pub mod scratch;
pub mod session;
pub mod shard;
pub mod submission;
pub mod write;

pub use digest::digest;
pub use error::{GradeError, LabError, Output};
pub use gradebook::gradebook_csv;
pub use job::{GradeOptions, grade_one};
pub use lab::{Lab, LabExercise, labs};
pub use merge::{MergeError, MergeOptions, Merged, merge_shards};
pub use nbgrader_csv::{NBGRADER_CSV_COLUMNS, nbgrader_csv};
pub use not_graded::{NotGraded, Tally};
pub use note::{GradeNote, Ungradable, Whose};
pub use record::{ExerciseGrade, Grade};
pub use resume::{saved_grade, saved_grade_path};
pub use session::{EXECUTE_MEMORY_MB, Event, SessionOptions, Summary, grade_all};
pub use shard::{Shard, ShardError, ShardManifest, shard_of};
pub use submission::{Found, Submission, find_submissions};
