//! The `bpe-lab` command and the course tools, in a package of their own over the `bpe-lab`
//! library: the compiler, not a convention, keeps the library from reaching up into them.
//!
//! - [`commands`]: one module per subcommand, mapping flags to library options and printing
//!   what the library returns.
//! - [`course`]: what runs the course: student versions of the notebooks, verifying them with
//!   the real kernel, grading submissions in a sandbox, feedback, the machine's check.
//!
//! Only what the binary and the tests call is public; the rest is `pub(crate)`.

#![warn(unreachable_pub)]

pub mod commands;
pub mod course;
