//! How the judge runs workers: the sandbox and the limits.

use crate::course::process::sandbox::Sandbox;
use std::time::Duration;

/// How the judge runs workers.
#[derive(Debug, Clone)]
pub(crate) struct JudgeOptions {
    pub(crate) sandbox: Sandbox,
    /// Memory per worker process, MiB.
    pub(crate) memory_mb: u64,
    /// Time for one exercise's check (all its calls), as the notebook's check has.
    pub(crate) check_limit: Duration,
    /// Time for compiling one worker.
    pub(crate) compile_limit: Duration,
}
