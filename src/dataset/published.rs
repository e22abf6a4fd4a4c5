//! Where the lab publishes Africa Galore, and how far a download of it may go: the defaults the
//! loader starts from, the cache names its file after, and the downloader obeys.

use std::time::Duration;

/// Where the lab publishes Africa Galore.
pub const DEFAULT_URL: &str =
    "https://storage.googleapis.com/dm-educational/assets/ai_foundations/africa_galore.json";

/// How long the download waits to connect, by default. Short: a reachable server answers
/// within a second, and an offline student should not wait for one that will not. The docs
/// state this figure; a test compares them.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long the whole download may take, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest download accepted, by default: the real file is a few hundred kilobytes;
/// anything this large is not it.
pub const DEFAULT_MAX_BYTES: u64 = 64 * 1024 * 1024;

/// How long a download may wait and how much it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    pub connect_timeout: Duration,
    pub timeout: Duration,
    pub max_bytes: u64,
}
