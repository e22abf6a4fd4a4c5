//! How the judge runs workers: the sandbox and the limits.

use crate::course::process::sandbox::Sandbox;
use std::time::Duration;

/// How the judge runs workers.
#[derive(Debug, Clone)]
pub struct JudgeOptions {
    pub sandbox: Sandbox,
    /// Memory per worker process, MiB.
    pub memory_mb: u64,
    /// Time for one exercise's check (all its calls), as the notebook's check has.
    pub check_limit: Duration,
    /// Time for compiling one worker.
    pub compile_limit: Duration,
}
