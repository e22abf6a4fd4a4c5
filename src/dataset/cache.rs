//! Where a downloaded copy is kept, and how it is written: whole or not at all.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::source::DEFAULT_URL;

/// The cache directory used when none is configured: the platform's user cache directory
/// (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%`
/// on Windows) followed by `bpe-lab`. `None` when the platform has none (no home directory).
pub fn default_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|dir| dir.join("bpe-lab"))
}

/// The cache file's name for a URL. The default URL gets a readable name; any other URL gets
/// its own file (named by a hash of the URL), so data from a test server or a mirror never
/// passes for the real dataset or for each other.
pub(crate) fn file_name(url: &str) -> String {
    if url == DEFAULT_URL {
        "africa_galore.json".to_owned()
    } else {
        format!("africa_galore-{:016x}.json", fnv1a(url.as_bytes()))
    }
}

/// Stores `bytes` at `path` in the cache, creating the cache directory if needed; written by
/// [`crate::files::write_atomically`], so a reader sees the old file or the new one.
#[cfg(feature = "download")]
pub(crate) fn store(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    crate::files::write_atomically(path, |out| out.write_all(bytes))
}

/// A failed download remembered beside the cache file, so the next load (the next notebook, a
/// minute later) does not spend the same wait on the same failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RecentFailure {
    /// How long ago it failed.
    pub age: Duration,
    /// What went wrong, in the words the failure was reported with.
    pub what: String,
}

/// Where the failure of downloading into `cache_file` is remembered: the same name plus
/// `.failed`, so each URL (each cache file) has its own.
pub(crate) fn failure_marker(cache_file: &Path) -> PathBuf {
    let mut name = cache_file.as_os_str().to_owned();
    name.push(".failed");
    PathBuf::from(name)
}

/// Records that a download failed `now` because of `what`. Best effort: a cache that cannot
/// be written only means the next load tries again.
#[cfg(feature = "download")]
pub(crate) fn remember_failure(marker: &Path, what: &str, now: SystemTime) {
    let secs = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    // One line each, so a reader never mistakes part of the reason for the time.
    let text = format!("{secs}\n{}\n", what.replace('\n', " "));
    let _ = store(marker, text.as_bytes());
}

/// The failure remembered at `marker` if it happened less than `window` before `now`. A
/// marker that is missing, unreadable, older, or dated in the future (a clock set back) counts
/// as none, so a broken marker can never keep the download switched off.
pub(crate) fn recent_failure(
    marker: &Path,
    window: Duration,
    now: SystemTime,
) -> Option<RecentFailure> {
    let text = fs::read_to_string(marker).ok()?;
    let mut lines = text.lines();
    let secs: u64 = lines.next()?.trim().parse().ok()?;
    let what = lines.next().unwrap_or("").to_owned();
    let at = UNIX_EPOCH + Duration::from_secs(secs);
    let age = now.duration_since(at).ok()?;
    (age < window).then_some(RecentFailure { age, what })
}

/// Forgets a remembered failure (after a download worked, or before a retry).
#[cfg(feature = "download")]
pub(crate) fn forget_failure(marker: &Path) {
    let _ = fs::remove_file(marker);
}

/// FNV-1a, 64 bits: stable across Rust versions and platforms (unlike `DefaultHasher`), which a
/// file name that must be found again next time needs.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_url_has_its_own_file() {
        assert_eq!(file_name(DEFAULT_URL), "africa_galore.json");
        let a = file_name("http://127.0.0.1:8000/a.json");
        let b = file_name("http://127.0.0.1:8000/b.json");
        assert_ne!(a, b);
        assert_eq!(a, file_name("http://127.0.0.1:8000/a.json"));
        // The published FNV-1a test vector, so the names stay the same across releases.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn a_failure_is_remembered_for_its_window_only() {
        let dir = tempfile::tempdir().unwrap();
        let marker = failure_marker(&dir.path().join("africa_galore.json"));
        assert_eq!(marker.file_name().unwrap(), "africa_galore.json.failed");
        let t0 = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let window = Duration::from_secs(600);
        assert_eq!(recent_failure(&marker, window, t0), None);

        remember_failure(&marker, "could not connect:\nrefused", t0);
        let later = t0 + Duration::from_secs(60);
        assert_eq!(
            recent_failure(&marker, window, later),
            Some(RecentFailure {
                age: Duration::from_secs(60),
                what: "could not connect: refused".into()
            })
        );
        // Expired, or dated after now (the clock went back): not a reason to skip.
        assert_eq!(recent_failure(&marker, window, t0 + window), None);
        assert_eq!(
            recent_failure(&marker, window, t0 - Duration::from_secs(1)),
            None
        );

        fs::write(&marker, "garbage").unwrap();
        assert_eq!(recent_failure(&marker, window, later), None);
        forget_failure(&marker);
        assert!(!marker.exists());
    }

    #[test]
    fn storing_creates_the_directory_and_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("f.json");
        store(&path, b"one").unwrap();
        store(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
