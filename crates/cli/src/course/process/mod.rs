//! Every program the grader starts — the judge's compilers and workers, `--execute`'s kernels,
//! verify's and the doctor's notebook runs — goes through this one supervisor: the sandbox's
//! view and limits ([`sandbox`]) under user ids no other grader holds ([`uids`]), output
//! captured up to a cap on threads that are joined ([`capture`]), a deadline, the whole tree
//! killed and every child reaped ([`supervisor`]), and errors that tell the grader's own
//! trouble from the program's doing ([`error`]).

pub(crate) mod capture;
pub(crate) mod error;
pub(crate) mod retry;
pub mod sandbox;
pub mod supervisor;
pub(crate) mod uids;

pub use capture::Captured;
pub use capture::Sink;
pub use error::{ProcessError, Stream};
pub use sandbox::{Limits, Sandbox};
pub use supervisor::{Ended, Finished, Supervised, Tree};
