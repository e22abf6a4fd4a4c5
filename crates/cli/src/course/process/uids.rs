//! The user ids a grader's sandboxes run as, when it runs as root: a block of
//! [`SLOTS_PER_BLOCK`] ids that no other grader on the machine holds at the same time.
//!
//! Why a block of its own: RLIMIT_NPROC counts every process and thread of a *user*, machine
//! wide. With fixed ids (2 000 000 000 + slot), two graders running at once — an instructor's
//! run and a test suite beside it — shared each slot's user: a fork bomb graded by one filled
//! the user's 16 processes, and the other's setpriv then failed to execute its worker
//! ("Resource temporarily unavailable": the kernel defers the process-limit check of a
//! set*uid to the next execve) for every case of a correct exercise. A block is held with an
//! exclusive `flock` on a lock file, so it is given back when the grader exits, however it
//! exits; and a block some process already runs as (a grader of an older version, which took
//! no lock) is passed over.

use super::error::ProcessError;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// User ids far from any real account's.
pub(crate) const BASE_UID: u32 = 2_000_000_000;
/// Grading slots a block holds (`lab grade --threads` is at most 64).
pub(crate) const SLOTS_PER_BLOCK: u32 = 64;
/// Blocks there are to claim: graders that may run at once on one machine.
const BLOCKS: u32 = 4096;

/// A block of user ids held by this process while any clone of it lives.
#[derive(Debug, Clone)]
pub struct UidBlock {
    pub(crate) first: u32,
    /// The locked file; the lock goes with the last clone (or the process).
    _lock: Arc<File>,
}

impl UidBlock {
    /// The user id of grading slot `slot`.
    pub(crate) fn uid(&self, slot: usize) -> u32 {
        self.first + (slot as u32 % SLOTS_PER_BLOCK)
    }
}

/// Where the lock files live: root's own `/run` when there is one (no other user can plant a
/// link there), else the temporary directory.
fn lock_dir() -> PathBuf {
    let run = Path::new("/run");
    if run.is_dir() {
        run.join("bpe-lab")
    } else {
        std::env::temp_dir().join("bpe-lab-uids")
    }
}

/// Whether a process runs as a user id in `ids` (real, effective, saved or file-system).
fn in_use(ids: std::ops::Range<u32>) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        std::fs::read_to_string(entry.path().join("status")).is_ok_and(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .is_some_and(|uids| {
                    uids.split_whitespace()
                        .filter_map(|u| u.parse::<u32>().ok())
                        .any(|u| ids.contains(&u))
                })
        })
    })
}

/// Claims the first free block under `dir`: unlocked there, and with no process running as
/// one of its ids (`in_use` says; [`claim`] asks `/proc`, tests ask a stand-in so that they do
/// not depend on which sandboxes other graders — or the test suite's own — run right now).
pub(crate) fn claim_in(
    dir: &Path,
    in_use: impl Fn(std::ops::Range<u32>) -> bool,
) -> Result<UidBlock, ProcessError> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| ProcessError::io(dir.display().to_string(), e))?;
    for block in 0..BLOCKS {
        let path = dir.join(format!("uids-{block}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&path)
            .map_err(|e| ProcessError::io(path.display().to_string(), e))?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            continue;
        }
        let first = BASE_UID + block * SLOTS_PER_BLOCK;
        if in_use(first..first + SLOTS_PER_BLOCK) {
            continue; // the lock goes with `file`
        }
        return Ok(UidBlock {
            first,
            _lock: Arc::new(file),
        });
    }
    Err(ProcessError::Exhausted {
        what: format!("claiming sandbox user ids in {}", dir.display()),
        source: std::io::Error::from_raw_os_error(libc::EAGAIN),
    })
}

/// Claims a block for this grader.
pub(crate) fn claim() -> Result<UidBlock, ProcessError> {
    claim_in(&lock_dir(), in_use)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nobody(_: std::ops::Range<u32>) -> bool {
        false
    }

    #[test]
    fn two_claims_at_once_get_different_blocks_and_a_freed_block_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let a = claim_in(dir.path(), nobody).unwrap();
        let b = claim_in(dir.path(), nobody).unwrap();
        assert_ne!(a.first, b.first);
        assert_ne!(a.uid(3), b.uid(3));
        let a_clone = a.clone();
        let a_first = a.first;
        drop(a);
        // Still held by the clone: a third claim gets neither block.
        let c = claim_in(dir.path(), nobody).unwrap();
        assert!(c.first != a_first && c.first != b.first);
        drop(a_clone);
        assert_eq!(claim_in(dir.path(), nobody).unwrap().first, a_first);
    }

    #[test]
    fn a_block_some_process_runs_as_is_passed_over() {
        let dir = tempfile::tempdir().unwrap();
        let busy = BASE_UID..BASE_UID + SLOTS_PER_BLOCK;
        let claimed = claim_in(dir.path(), |ids| ids == busy).unwrap();
        assert_eq!(claimed.first, BASE_UID + SLOTS_PER_BLOCK);
    }

    #[test]
    fn claims_from_many_threads_at_once_never_share_a_block() {
        let dir = tempfile::tempdir().unwrap();
        let firsts: Vec<u32> = std::thread::scope(|scope| {
            let claims: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| claim_in(dir.path(), nobody).unwrap()))
                .collect();
            let blocks: Vec<UidBlock> = claims.into_iter().map(|c| c.join().unwrap()).collect();
            blocks.iter().map(|b| b.first).collect()
        });
        let mut distinct = firsts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), firsts.len(), "blocks shared: {firsts:?}");
    }
}
