//! Scratch directories for workers, outside the project: one root per session, one directory
//! per submission under it, each prepared for the sandbox user of its grading slot.

use super::error::GradeError;
use super::note::Ungradable;
use crate::course::process::sandbox::Sandbox;
use std::path::Path;
use tempfile::TempDir;

/// The session's scratch root, prepared for slot 0 and open to every slot's user.
pub(crate) fn scratch_root(sandbox: &Sandbox) -> Result<TempDir, GradeError> {
    let root = tempfile::Builder::new()
        .prefix("bpe-lab-grade-")
        .tempdir()
        .map_err(|e| GradeError::Scratch {
            problem: e.to_string(),
        })?;
    sandbox
        .prepare_scratch(root.path(), 0)
        .map_err(|e| GradeError::Scratch {
            problem: e.to_string(),
        })?;
    // Each slot's sandbox user must reach its own scratch directory under this one.
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o711));
    }
    Ok(root)
}

/// One submission's scratch directory under `root`, for slot `slot`.
pub(crate) fn job_scratch(
    root: &Path,
    sandbox: &Sandbox,
    slot: usize,
) -> Result<TempDir, Ungradable> {
    let trouble = |problem: String| Ungradable::Scratch {
        dir: root.to_owned(),
        problem,
    };
    let dir = tempfile::Builder::new()
        .prefix("bpe-lab-worker-")
        .tempdir_in(root)
        .map_err(|e| trouble(e.to_string()))?;
    sandbox
        .prepare_scratch(dir.path(), slot)
        .map_err(|e| trouble(e.to_string()))?;
    Ok(dir)
}
