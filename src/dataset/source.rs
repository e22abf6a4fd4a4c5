//! Where the Africa Galore dataset comes from: a valid cached copy, else a download (validated,
//! then cached), else the bundled stand-in — and a record of which one it was and why.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

#[cfg(feature = "download")]
use super::download;
use super::error::{DatasetError, DownloadFailure};
use super::formats::{JsonProblem, Records, TEXT_COLUMN, records_from_json_slice};
use super::published::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, DEFAULT_URL, Limits,
};
use super::{STAND_IN_JSON, cache};
use crate::files::describe_io_error as describe_io;

/// Environment variable: the cache directory (default: the user cache directory + `bpe-lab`).
pub const CACHE_DIR_ENV: &str = "BPE_LAB_CACHE_DIR";
/// Environment variable: the URL to download from instead of [`DEFAULT_URL`].
pub const URL_ENV: &str = "BPE_LAB_DATASET_URL";
/// Environment variable: `1` (or `true`, `yes`, `on`) keeps off the network.
pub const OFFLINE_ENV: &str = "BPE_LAB_OFFLINE";

/// How long a failed download is remembered by default: long enough that the seven notebooks
/// of a session pay for an unreachable server once, short enough that a student who comes
/// back online gets the real data without doing anything.
pub const DEFAULT_FAILURE_WINDOW: Duration = Duration::from_secs(10 * 60);
/// Which copy of the dataset was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A copy downloaded earlier, read from the cache.
    Cache { path: PathBuf },
    /// Downloaded just now; `path` is where it was cached, `None` if it could not be (see the
    /// notes).
    Download { url: String, path: Option<PathBuf> },
    /// The original stand-in bundled with the crate: the same schema, different text.
    StandIn,
}

impl Source {
    /// Whether this is the bundled stand-in rather than the real dataset.
    pub fn is_stand_in(&self) -> bool {
        matches!(self, Source::StandIn)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Cache { path } => write!(f, "cached copy at {}", path.display()),
            Source::Download {
                url,
                path: Some(path),
            } => write!(f, "download from {url} (cached at {})", path.display()),
            Source::Download { url, path: None } => {
                write!(f, "download from {url} (not cached)")
            }
            Source::StandIn => f.write_str("bundled stand-in (not the real Africa Galore)"),
        }
    }
}

/// Something that happened on the way to the [`Source`]: a step that was skipped or failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// The network was switched off (the builder's `offline` or `BPE_LAB_OFFLINE`).
    Offline,
    /// A cached copy exists but could not be used; it was left as it is.
    CacheUnusable { path: PathBuf, reason: String },
    /// The download failed.
    DownloadFailed {
        url: String,
        failure: DownloadFailure,
    },
    /// The download worked but could not be saved in the cache.
    NotCached { path: PathBuf, reason: String },
    /// There is no cache directory (no home directory, and none configured).
    NoCacheDir,
    /// There is no cached copy, and this build of bpe-lab cannot download one: it was built
    /// without the `download` feature, as the lab's lighter notebooks are (they read the copy
    /// that a notebook with the full `dataset` feature, or `bpe-lab dataset`, downloaded).
    CannotDownload,
    /// A download failed a short while ago, so none was tried this time (see
    /// [`AfricaGalore::remember_failures`] and [`AfricaGalore::retry_download`]).
    RecentFailure {
        url: String,
        /// How long ago it failed.
        age: Duration,
        /// What went wrong then.
        what: String,
        /// When the download will be tried again on its own.
        retry_in: Duration,
        /// The file that remembers the failure; deleting it also allows a new try.
        marker: PathBuf,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Offline => f.write_str("offline: no download was tried"),
            Note::CacheUnusable { path, reason } => {
                write!(
                    f,
                    "the cached copy at {} is unusable: {reason}",
                    path.display()
                )
            }
            Note::DownloadFailed { url, failure } => {
                write!(f, "download failed: {failure} ({url})")
            }
            Note::NotCached { path, reason } => write!(
                f,
                "the download could not be saved in the cache at {}: {reason}",
                path.display()
            ),
            Note::CannotDownload => f.write_str(
                "no download was tried: this build reads downloaded copies but cannot download \
                 (bpe-lab's `download` feature)",
            ),
            Note::NoCacheDir => write!(
                f,
                "no cache directory is known (set {CACHE_DIR_ENV} to keep a downloaded copy)"
            ),
            Note::RecentFailure {
                url,
                age,
                what,
                retry_in,
                marker,
            } => write!(
                f,
                "not downloaded: the last try failed {} ago ({what}; {url}); the next try \
                 comes in {} (or now, with retry_download or by deleting {})",
                minutes(*age),
                minutes(*retry_in),
                marker.display()
            ),
        }
    }
}

/// The source of a loaded dataset and what happened on the way.
///
/// Its `Display` says both, problems first:
/// `download failed: timed out after 10 s (https://…); used the bundled stand-in (not the real
/// Africa Galore)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub source: Source,
    pub notes: Vec<Note>,
}

impl Provenance {
    pub fn is_stand_in(&self) -> bool {
        self.source.is_stand_in()
    }

    /// One friendly line for a notebook: which copy is in use and, for the stand-in, why and
    /// how to get the real data. The [`Display`](fmt::Display) form keeps every detail.
    ///
    /// ```
    /// use bpe_lab::dataset::{Note, Provenance, Source};
    /// let offline = Provenance { source: Source::StandIn, notes: vec![Note::Offline] };
    /// assert!(offline.headline().starts_with("Using the bundled stand-in"));
    /// ```
    pub fn headline(&self) -> String {
        let why = self.notes.iter().find_map(|note| match note {
            Note::Offline => Some(format!("downloads are switched off ({OFFLINE_ENV})")),
            Note::DownloadFailed { failure, .. } => Some(format!(
                "the download did not work ({})",
                failure.in_plain_words()
            )),
            Note::RecentFailure { age, what, .. } => Some(format!(
                "a download failed {} ago ({what}), so none was tried",
                minutes(*age)
            )),
            Note::CannotDownload => Some("no copy has been downloaded yet".to_owned()),
            _ => None,
        });
        match &self.source {
            Source::Cache { .. } => {
                "Using the real Africa Galore (the copy downloaded earlier).".to_owned()
            }
            Source::Download { path: Some(_), .. } => {
                "Using the real Africa Galore, downloaded just now and kept for next time."
                    .to_owned()
            }
            Source::Download { path: None, .. } => {
                "Using the real Africa Galore, downloaded just now (it could not be kept, so \
                 the next load downloads it again)."
                    .to_owned()
            }
            Source::StandIn => {
                let why = why.unwrap_or_else(|| "there is no cached copy".to_owned());
                // The call the reader's own kernel has: notebook 00's (with the download but
                // without polars) has only the plain rows.
                let retry = if cfg!(feature = "dataset") {
                    "`bpe_lab::dataset::AfricaGalore::from_env().retry_download(true).load()`"
                } else {
                    "`bpe_lab::dataset::AfricaGalore::from_env().retry_download(true).load_rows()`"
                };
                let how = if self.notes.contains(&Note::Offline) {
                    format!("unset {OFFLINE_ENV} to download it")
                } else if self.notes.contains(&Note::CannotDownload) {
                    "run notebook 01 once online (it downloads the dataset and keeps it), then \
                     this cell again"
                        .to_owned()
                } else if let Some(retry_in) = self.notes.iter().find_map(|note| match note {
                    Note::RecentFailure { retry_in, .. } => Some(*retry_in),
                    _ => None,
                }) {
                    format!(
                        "once online, run {retry}, or just wait: loads try again by themselves \
                         in {}",
                        minutes(retry_in)
                    )
                } else {
                    format!("once online, run {retry}")
                };
                format!(
                    "Using the bundled stand-in, not the real Africa Galore: {why}. \
                     Everything works on it; only the numbers differ. For the real data, {how}."
                )
            }
        }
    }
}

/// `40 s`, `3 min`: a time as a person would say it, in whole minutes above one (rounded
/// down, so a failure 9 min 38 s ago is not said to be 10 minutes old).
fn minutes(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 60 {
        format!("{secs} s")
    } else {
        format!("{} min", secs / 60)
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for note in &self.notes {
            write!(f, "{note}; ")?;
        }
        write!(f, "used the {}", self.source)
    }
}

/// Loads Africa Galore: a valid cached copy; else a download over HTTPS (with timeouts, a size
/// cap and one retry), validated as an array of objects with a string `description` before it
/// is written to the cache (atomically); else the bundled stand-in. A good cached copy is never
/// replaced by a bad download, and every failure on the way is kept in the result's
/// [`Provenance`] instead of being swallowed.
///
/// [`AfricaGalore::new`] reads no environment variables (tests and notebooks can be explicit);
/// [`AfricaGalore::from_env`] applies `BPE_LAB_CACHE_DIR`, `BPE_LAB_DATASET_URL` and
/// `BPE_LAB_OFFLINE`.
///
/// ```
/// use bpe_lab::dataset::{AfricaGalore, Source};
/// let data = AfricaGalore::new()
///     .offline(true)
///     .cache_dir("/nonexistent/bpe-lab-doc-example")
///     .load()?;
/// assert_eq!(data.provenance.source, Source::StandIn);
/// assert_eq!(data.frame.height(), 40);
/// println!("{}", data.provenance); // offline: no download was tried; used the bundled stand-in …
/// # Ok::<(), bpe_lab::dataset::DatasetError>(())
/// ```
#[derive(Debug, Clone)]
pub struct AfricaGalore {
    url: String,
    cache_dir: Option<PathBuf>,
    offline: bool,
    refresh: bool,
    allow_stand_in: bool,
    failure_window: Duration,
    retry_download: bool,
    limits: Limits,
}

impl Default for AfricaGalore {
    fn default() -> Self {
        AfricaGalore {
            url: DEFAULT_URL.to_owned(),
            cache_dir: cache::default_cache_dir(),
            offline: false,
            refresh: false,
            allow_stand_in: true,
            failure_window: DEFAULT_FAILURE_WINDOW,
            retry_download: false,
            limits: Limits {
                connect_timeout: DEFAULT_CONNECT_TIMEOUT,
                timeout: DEFAULT_TIMEOUT,
                max_bytes: DEFAULT_MAX_BYTES,
            },
        }
    }
}

impl AfricaGalore {
    /// The defaults: [`DEFAULT_URL`], the user cache directory, online, the stand-in allowed,
    /// 3 s to connect, 30 s in all, at most 64 MiB, a failed download remembered for 10
    /// minutes. No environment variable is read.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`AfricaGalore::new`] with the environment applied: `BPE_LAB_CACHE_DIR` (a directory),
    /// `BPE_LAB_DATASET_URL` (a URL), `BPE_LAB_OFFLINE` (offline unless empty, `0`, `false`,
    /// `no` or `off`). Empty values are ignored.
    pub fn from_env() -> Self {
        let var = |name| std::env::var(name).ok().filter(|v| !v.is_empty());
        let mut loader = Self::new();
        if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|v| !v.is_empty()) {
            loader.cache_dir = Some(PathBuf::from(dir));
        }
        if let Some(url) = var(URL_ENV) {
            loader.url = url;
        }
        if let Some(value) = var(OFFLINE_ENV) {
            loader.offline = !matches!(
                value.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no" | "off"
            );
        }
        loader
    }

    /// Download from this URL instead (https; plain http only to 127.0.0.1 or localhost).
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = url.into();
        self
    }

    /// Keep the downloaded copy in this directory.
    pub fn cache_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cache_dir = Some(dir.into());
        self
    }

    /// Never use the network: a cached copy, else the stand-in.
    pub fn offline(mut self, offline: bool) -> Self {
        self.offline = offline;
        self
    }

    /// Ignore the cache and download; a failed download is then an error (the stand-in is not
    /// used, and the cached copy is left as it was).
    #[doc(alias = "require_download")]
    pub fn refresh(mut self, refresh: bool) -> Self {
        self.refresh = refresh;
        self
    }

    /// Whether the stand-in may be used when there is no cached copy and the download fails
    /// (default `true`). With `false` that is an error: for work that must run on the real data.
    pub fn allow_stand_in(mut self, allow: bool) -> Self {
        self.allow_stand_in = allow;
        self
    }

    /// How long a failed download is remembered (default 10 minutes): until then, loads skip
    /// the download and use the cached copy or the stand-in at once, saying so. `Duration::ZERO`
    /// tries every time. The memory is a small file beside the cached copy.
    pub fn remember_failures(mut self, window: Duration) -> Self {
        self.failure_window = window;
        self
    }

    /// Try the download this time even if one failed recently (the network is back).
    pub fn retry_download(mut self, retry: bool) -> Self {
        self.retry_download = retry;
        self
    }

    /// How long to wait for a connection (default 3 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.limits.connect_timeout = timeout;
        self
    }

    /// How long the whole download may take, per attempt (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.limits.timeout = timeout;
        self
    }

    /// The largest download accepted, in bytes (default 64 MiB).
    pub fn max_bytes(mut self, max_bytes: u64) -> Self {
        self.limits.max_bytes = max_bytes;
        self
    }

    /// The URL that would be downloaded.
    pub fn download_url(&self) -> &str {
        &self.url
    }

    /// Whether the network is switched off.
    pub fn is_offline(&self) -> bool {
        self.offline
    }

    /// The file a downloaded copy is cached in (one file per URL), if there is a cache
    /// directory.
    pub fn cache_path(&self) -> Option<PathBuf> {
        let dir = self.cache_dir.as_ref()?;
        Some(dir.join(cache::file_name(&self.url)))
    }

    /// The loaded copy as records, and where it came from: what [`AfricaGalore::load`]
    /// (frames.rs) and [`AfricaGalore::load_rows`] (rows.rs) turn into their own shapes.
    pub(crate) fn load_records(&self) -> Result<(Records, Provenance), DatasetError> {
        let mut notes = Vec::new();
        let cache_path = self.cache_path();
        if cache_path.is_none() {
            notes.push(Note::NoCacheDir);
        }

        if !self.refresh
            && let Some(path) = &cache_path
        {
            match read_cached(path) {
                Ok(Some(records)) => {
                    return Ok(found(records, Source::Cache { path: path.clone() }, notes));
                }
                Ok(None) => {}
                Err(reason) => notes.push(Note::CacheUnusable {
                    path: path.clone(),
                    reason,
                }),
            }
        }

        if self.offline {
            if self.refresh {
                return Err(offline_error(
                    "a refresh downloads the dataset, but the network is switched off",
                ));
            }
            if !self.allow_stand_in {
                return Err(offline_error(
                    "the real dataset was required, but there is no valid cached copy and the \
                     network is switched off",
                ));
            }
            notes.push(Note::Offline);
        } else if let Some(note) = self.recent_failure() {
            notes.push(note);
            // What to do about it differs: such a build never tries again by itself.
            #[cfg(not(feature = "download"))]
            notes.push(Note::CannotDownload);
        } else if let Some(found) = self.download_and_cache(cache_path, &mut notes)? {
            return Ok(found);
        }

        // Reached only when the stand-in is allowed: every other way out returned above.
        Ok(found(stand_in_records(), Source::StandIn, notes))
    }

    /// Downloads the dataset and caches it (remembering a failure beside the cache): the
    /// dataset, or `None` with a note when the stand-in may stand in, or the failure when the
    /// real data was required.
    #[cfg(feature = "download")]
    fn download_and_cache(
        &self,
        cache_path: Option<PathBuf>,
        notes: &mut Vec<Note>,
    ) -> Result<Option<(Records, Provenance)>, DatasetError> {
        let marker = cache_path.as_deref().map(cache::failure_marker);
        match self.download() {
            Ok((bytes, records)) => {
                if let Some(marker) = &marker {
                    cache::forget_failure(marker);
                }
                let path = cache_path.and_then(|path| match cache::store(&path, &bytes) {
                    Ok(()) => Some(path),
                    Err(e) => {
                        notes.push(Note::NotCached {
                            path,
                            reason: describe_io(&e),
                        });
                        None
                    }
                });
                let source = Source::Download {
                    url: self.url.clone(),
                    path,
                };
                Ok(Some(found(records, source, std::mem::take(notes))))
            }
            Err(failure) => {
                if let Some(marker) = &marker {
                    // Kept in plain words: it is what the next notebooks show.
                    let what = failure.in_plain_words();
                    cache::remember_failure(marker, &what, SystemTime::now());
                }
                if self.refresh || !self.allow_stand_in {
                    return Err(DatasetError::Download {
                        url: self.url.clone(),
                        failure,
                    });
                }
                notes.push(Note::DownloadFailed {
                    url: self.url.clone(),
                    failure,
                });
                Ok(None)
            }
        }
    }

    /// Without the `download` feature there is nothing to try: the stand-in, saying why, or an
    /// error when the real data was required.
    #[cfg(not(feature = "download"))]
    fn download_and_cache(
        &self,
        _cache_path: Option<PathBuf>,
        notes: &mut Vec<Note>,
    ) -> Result<Option<(Records, Provenance)>, DatasetError> {
        if self.refresh || !self.allow_stand_in {
            return Err(DatasetError::Offline {
                reason: "the real dataset was required, but there is no valid cached copy and \
                         this build of bpe-lab cannot download (its `download` feature is off)"
                    .to_owned(),
            });
        }
        notes.push(Note::CannotDownload);
        Ok(None)
    }

    /// The remembered failure that lets this load skip the download, if any. Only a load that
    /// may fall back to the stand-in skips: one that needs the real data (refresh, or the
    /// stand-in not allowed) always tries, and `retry_download` always tries.
    fn recent_failure(&self) -> Option<Note> {
        if self.refresh || self.retry_download || !self.allow_stand_in {
            return None;
        }
        let marker = cache::failure_marker(&self.cache_path()?);
        let recent = cache::recent_failure(&marker, self.failure_window, SystemTime::now())?;
        Some(Note::RecentFailure {
            url: self.url.clone(),
            retry_in: self.failure_window.saturating_sub(recent.age),
            age: recent.age,
            what: recent.what,
            marker,
        })
    }

    /// The body at the URL, validated; the bytes are what gets cached, unchanged.
    #[cfg(feature = "download")]
    fn download(&self) -> Result<(Vec<u8>, Records), DownloadFailure> {
        let bytes = download::fetch(&self.url, self.limits)?;
        let records = validate(&bytes).map_err(|problem| match problem {
            JsonProblem::Syntax {
                line,
                column,
                message,
            } => DownloadFailure::NotJson {
                line,
                column,
                message,
            },
            JsonProblem::Shape(why) => DownloadFailure::WrongShape(why),
        })?;
        Ok((bytes, records))
    }
}

fn offline_error(reason: &str) -> DatasetError {
    DatasetError::Offline {
        reason: format!("{reason} (the offline option or {OFFLINE_ENV})"),
    }
}

fn found(records: Records, source: Source, notes: Vec<Note>) -> (Records, Provenance) {
    (records, Provenance { source, notes })
}

/// The dataset's shape: a JSON array of objects with a string `description`, at least one.
fn validate(bytes: &[u8]) -> Result<Records, JsonProblem> {
    let records = records_from_json_slice(bytes, TEXT_COLUMN)?;
    if records.is_empty() {
        return Err(JsonProblem::Shape(
            "an empty array (expected at least one paragraph)".to_owned(),
        ));
    }
    Ok(records)
}

/// The cached copy: `Ok(None)` when there is none, `Err(reason)` when it is there but unusable.
fn read_cached(path: &Path) -> Result<Option<Records>, String> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        // No file, or a path through something that is not a directory: no cached copy (a
        // cache that cannot be written is reported when the download is saved).
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(describe_io(&e)),
    };
    validate(&bytes).map(Some).map_err(|problem| match problem {
        JsonProblem::Syntax {
            line,
            column,
            message,
        } => format!("not valid JSON (line {line}, column {column}: {message})"),
        JsonProblem::Shape(why) => format!("not the dataset: {why}"),
    })
}

fn stand_in_records() -> Records {
    validate(STAND_IN_JSON.as_bytes()).expect("the bundled stand-in is valid (tested)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_is_the_dataset_shape() {
        let records = stand_in_records();
        assert_eq!(records.text.len(), 40);
        assert!(records.has_category && records.has_name);
        assert!(records.name.iter().all(Option::is_some));
    }

    #[test]
    fn times_are_said_in_whole_minutes_rounded_down() {
        assert_eq!(minutes(Duration::from_secs(22)), "22 s");
        assert_eq!(minutes(Duration::from_secs(578)), "9 min");
        assert_eq!(minutes(Duration::from_secs(600)), "10 min");
    }

    /// A notebook built without downloading is told where the real data comes from, never to
    /// call a loader it does not have or to wait for a retry that never comes.
    #[test]
    fn a_build_that_cannot_download_points_to_one_that_can() {
        let headline = Provenance {
            source: Source::StandIn,
            notes: vec![
                Note::RecentFailure {
                    url: DEFAULT_URL.to_owned(),
                    age: Duration::from_secs(50),
                    what: "no network".to_owned(),
                    retry_in: Duration::from_secs(550),
                    marker: PathBuf::from("/c/africa_galore.json.failed"),
                },
                Note::CannotDownload,
            ],
        }
        .headline();
        assert_eq!(
            headline,
            "Using the bundled stand-in, not the real Africa Galore: a download failed 50 s ago \
             (no network), so none was tried. Everything works on it; only the numbers differ. \
             For the real data, run notebook 01 once online (it downloads the dataset and keeps \
             it), then this cell again."
        );
        let never = Provenance {
            source: Source::StandIn,
            notes: vec![Note::CannotDownload],
        };
        assert!(never.headline().contains("no copy has been downloaded yet"));
    }

    #[test]
    fn the_stand_in_says_so() {
        let text = Provenance {
            source: Source::StandIn,
            notes: vec![Note::DownloadFailed {
                url: "https://x.test/a.json".into(),
                failure: DownloadFailure::Timeout(Duration::from_secs(10)),
            }],
        }
        .to_string();
        assert_eq!(
            text,
            "download failed: timed out after 10 s (https://x.test/a.json); \
             used the bundled stand-in (not the real Africa Galore)"
        );
    }
}
