//! The Africa Galore loader end to end against a local HTTP server (no internet): every way a
//! download can fail ends in a stated fallback or a clear error, a good cached copy is never
//! replaced by a bad download, and the cache is used without contacting the server.
//!
//! Configuration is passed explicitly ([`AfricaGalore::new`] reads no environment variable), so
//! the tests can run in parallel threads.

#![cfg(feature = "dataset")]

use crate::dataset_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bpe_lab::dataset::{
    AfricaGalore, DEFAULT_FAILURE_WINDOW, DatasetError, DownloadFailure, Note, Source,
};
use dataset_support::{Reply, TestServer, dataset_json, unreachable_url};
use tempfile::TempDir;

/// A loader for `url` caching in `cache`, with limits small enough to keep the tests fast. It
/// tries the download on every load (no failure memory), so each test sees each failure; the
/// memory has tests of its own below.
fn loader(url: &str, cache: &Path) -> AfricaGalore {
    AfricaGalore::new()
        .url(url)
        .cache_dir(cache)
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(2))
        .remember_failures(Duration::ZERO)
}

fn cache_path(loader: &AfricaGalore) -> PathBuf {
    loader.cache_path().expect("a cache directory was given")
}

/// The download failure a fallback to the stand-in reports (exactly one note, that one).
fn download_failure(loader: &AfricaGalore) -> DownloadFailure {
    let data = loader.load().expect("the stand-in is allowed");
    assert_eq!(data.provenance.source, Source::StandIn);
    assert_eq!(data.frame.height(), 40, "the stand-in has 40 paragraphs");
    match data.provenance.notes.as_slice() {
        [Note::DownloadFailed { failure, url }] => {
            assert_eq!(url, loader.download_url());
            failure.clone()
        }
        other => panic!("expected one download failure, got {other:?}"),
    }
}

#[test]
fn a_download_is_cached_and_the_cache_is_used_next_time() {
    let body = dataset_json(3);
    let server = TestServer::start(Reply::Ok(body.clone()));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let path = cache_path(&loader);

    let first = loader.load().unwrap();
    assert_eq!(
        first.provenance.source,
        Source::Download {
            url: server.url(),
            path: Some(path.clone())
        }
    );
    assert!(first.provenance.notes.is_empty());
    assert_eq!(first.frame.height(), 3);
    assert_eq!(first.paragraphs()[2], "Paragraph number 2 of the test set.");
    assert_eq!(
        fs::read(&path).unwrap(),
        body,
        "the bytes are cached as served"
    );
    assert_eq!(server.requests(), 1);

    let second = loader.load().unwrap();
    assert_eq!(second.provenance.source, Source::Cache { path });
    assert_eq!(second.frame, first.frame);
    assert_eq!(
        server.requests(),
        1,
        "the cache is used without asking the server"
    );
    // Only the cache file is left in the directory: no temporary file.
    assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 1);
}

/// What notebooks without polars load ([`AfricaGalore::load_rows`]) is the copy the DataFrame
/// loader gives: the same source, the same rows in the same order, names included.
#[test]
fn the_plain_rows_are_the_frames_rows() {
    let server = TestServer::start(Reply::Ok(dataset_json(3)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let frame = loader.load().unwrap();
    let rows = loader.load_rows().unwrap();
    assert_eq!(
        rows.provenance.source,
        Source::Cache {
            path: cache_path(&loader)
        },
        "the rows come from the copy the first load cached"
    );
    assert_eq!(server.requests(), 1);
    assert_eq!(rows.description, frame.paragraphs());
    assert_eq!(rows.paragraphs(), frame.paragraphs());
    assert_eq!(rows.names(), frame.names());
    assert_eq!(rows.len(), 3);

    let offline = AfricaGalore::new()
        .offline(true)
        .cache_dir(cache.path().join("empty"));
    let (frame, rows) = (offline.load().unwrap(), offline.load_rows().unwrap());
    assert!(rows.is_stand_in() && frame.is_stand_in());
    assert_eq!(rows.paragraphs(), frame.paragraphs());
    assert_eq!(rows.names(), frame.names());
    assert_eq!(rows.names().len(), 40, "every stand-in row has a name");
    assert_eq!(rows.provenance, frame.provenance);
}

#[test]
fn not_found_falls_back_to_the_stand_in_and_says_so() {
    let server = TestServer::start(Reply::Status(404, "Not Found"));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let data = loader.load().unwrap();
    let text = data.provenance.to_string();
    assert!(
        text.contains("download failed: the server answered 404 Not Found"),
        "{text}"
    );
    assert!(
        text.ends_with("used the bundled stand-in (not the real Africa Galore)"),
        "{text}"
    );
    assert_eq!(
        download_failure(&loader),
        DownloadFailure::Status {
            code: 404,
            reason: "Not Found".into()
        }
    );
    assert_eq!(
        server.requests(),
        2,
        "one request per load: a 404 is not retried"
    );
    assert!(!cache_path(&loader).exists(), "nothing is cached");
}

#[test]
fn a_server_error_is_retried_once() {
    let server = TestServer::start(Reply::Status(503, "Service Unavailable"));
    let cache = TempDir::new().unwrap();
    let failure = download_failure(&loader(&server.url(), cache.path()));
    assert!(matches!(failure, DownloadFailure::Status { code: 503, .. }));
    assert_eq!(server.requests(), 2);
}

#[test]
fn a_slow_server_times_out() {
    let server = TestServer::start(Reply::Stall(Duration::from_secs(20)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path()).timeout(Duration::from_millis(300));
    let started = Instant::now();
    let failure = download_failure(&loader);
    assert_eq!(
        failure,
        DownloadFailure::Timeout(Duration::from_millis(300))
    );
    assert_eq!(failure.to_string(), "timed out after 300 ms");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "gave up after {:?}",
        started.elapsed()
    );
    assert_eq!(
        server.requests(),
        1,
        "a timeout is not retried: a second try would double an offline student's wait"
    );
}

#[test]
fn a_body_that_is_not_json_is_rejected() {
    let server = TestServer::start(Reply::Ok(b"<html>\n<body>Moved</body>\n</html>".to_vec()));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    match download_failure(&loader) {
        DownloadFailure::NotJson { line, .. } => assert_eq!(line, 1),
        other => panic!("{other:?}"),
    }
    assert!(
        !cache_path(&loader).exists(),
        "invalid data is never cached"
    );
}

#[test]
fn json_of_the_wrong_shape_is_rejected() {
    for (body, expected) in [
        (
            &br#"{"description": "an object, not an array"}"#[..],
            "expected a JSON array of objects",
        ),
        (br#"["a string, not an object"]"#, "item 0 is a string"),
        (br#"[{"description": 42}]"#, "\"description\" is a number"),
        (b"[]", "an empty array"),
    ] {
        let server = TestServer::start(Reply::Ok(body.to_vec()));
        let cache = TempDir::new().unwrap();
        let loader = loader(&server.url(), cache.path());
        match download_failure(&loader) {
            DownloadFailure::WrongShape(why) => assert!(why.contains(expected), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(!cache_path(&loader).exists());
    }
}

#[test]
fn items_without_a_description_are_rejected() {
    let body = br#"[{"description": "fine"}, {"category": "Food", "text": "wrong field"}]"#;
    let server = TestServer::start(Reply::Ok(body.to_vec()));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let failure = download_failure(&loader);
    assert!(
        !cache_path(&loader).exists(),
        "invalid data is never cached"
    );
    match &failure {
        DownloadFailure::WrongShape(why) => {
            assert!(
                why.starts_with("item 1 has no \"description\" field"),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert!(
        failure
            .to_string()
            .starts_with("the file is not the dataset: item 1")
    );
}

#[test]
fn a_truncated_body_is_rejected() {
    let body = dataset_json(3);
    let half = body[..body.len() / 2].to_vec();
    let server = TestServer::start(Reply::Truncated {
        body: half.clone(),
        claimed: body.len(),
    });
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    assert_eq!(
        download_failure(&loader),
        DownloadFailure::Truncated {
            received: half.len() as u64,
            expected: Some(body.len() as u64)
        }
    );
    assert_eq!(server.requests(), 2, "a cut-off transfer is retried once");
    assert!(!cache_path(&loader).exists());
}

#[test]
fn an_oversize_body_is_rejected_by_its_announced_length() {
    let server = TestServer::start(Reply::Ok(dataset_json(50)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path()).max_bytes(1000);
    let announced = dataset_json(50).len() as u64;
    assert_eq!(
        download_failure(&loader),
        DownloadFailure::TooLarge {
            limit: 1000,
            announced: Some(announced)
        }
    );
    assert_eq!(server.requests(), 1, "too large is not retried");
}

#[test]
fn an_oversize_body_without_a_length_is_cut_off_while_reading() {
    let server = TestServer::start(Reply::OkUnannounced(dataset_json(50)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path()).max_bytes(1000);
    assert_eq!(
        download_failure(&loader),
        DownloadFailure::TooLarge {
            limit: 1000,
            announced: None
        }
    );
    assert!(!cache_path(&loader).exists());
}

#[test]
fn a_body_without_a_length_within_the_cap_is_accepted() {
    let server = TestServer::start(Reply::OkUnannounced(dataset_json(4)));
    let cache = TempDir::new().unwrap();
    let data = loader(&server.url(), cache.path()).load().unwrap();
    assert!(matches!(data.provenance.source, Source::Download { .. }));
    assert_eq!(data.frame.height(), 4);
}

#[test]
fn a_refused_connection_falls_back_to_the_stand_in() {
    let cache = TempDir::new().unwrap();
    let failure = download_failure(&loader(&unreachable_url(), cache.path()));
    assert!(
        matches!(failure, DownloadFailure::Connect(_)),
        "{failure:?}"
    );
}

#[test]
fn a_corrupt_cache_is_replaced_by_a_good_download() {
    let body = dataset_json(3);
    let server = TestServer::start(Reply::Ok(body.clone()));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let path = cache_path(&loader);
    fs::write(&path, b"[{\"description\": \"cut off").unwrap();

    let data = loader.load().unwrap();
    assert!(matches!(data.provenance.source, Source::Download { .. }));
    match data.provenance.notes.as_slice() {
        [Note::CacheUnusable { path: p, reason }] => {
            assert_eq!(p, &path);
            assert!(reason.starts_with("not valid JSON"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(fs::read(&path).unwrap(), body);
}

#[test]
fn a_corrupt_cache_and_no_download_give_the_stand_in_and_both_reasons() {
    let cache = TempDir::new().unwrap();
    let loader = loader(&unreachable_url(), cache.path());
    let path = cache_path(&loader);
    let corrupt = br#"[{"name": "no description here"}]"#;
    fs::write(&path, corrupt).unwrap();

    let data = loader.load().unwrap();
    assert_eq!(data.provenance.source, Source::StandIn);
    match data.provenance.notes.as_slice() {
        [
            Note::CacheUnusable { reason, .. },
            Note::DownloadFailed {
                failure: DownloadFailure::Connect(_),
                ..
            },
        ] => assert!(reason.contains("has no \"description\" field"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fs::read(&path).unwrap(),
        corrupt,
        "the file is left as it was"
    );
}

#[test]
fn a_cache_that_cannot_be_written_still_gives_the_download() {
    // Tests run as root, so permission bits would not stop a write: a cache directory under a
    // regular file cannot be created by anyone.
    let temp = TempDir::new().unwrap();
    let blocker = temp.path().join("not-a-directory");
    fs::write(&blocker, b"a file").unwrap();
    let server = TestServer::start(Reply::Ok(dataset_json(3)));
    let loader = loader(&server.url(), &blocker.join("cache"));

    let data = loader.load().unwrap();
    assert_eq!(
        data.provenance.source,
        Source::Download {
            url: server.url(),
            path: None
        }
    );
    assert_eq!(data.frame.height(), 3);
    match data.provenance.notes.as_slice() {
        [Note::NotCached { path, .. }] => assert_eq!(path, &cache_path(&loader)),
        other => panic!("{other:?}"),
    }
    assert!(
        data.provenance
            .to_string()
            .contains("could not be saved in the cache"),
    );
    assert_eq!(fs::read(&blocker).unwrap(), b"a file");
}

#[test]
fn a_good_cache_is_never_replaced_by_a_bad_download() {
    let good = dataset_json(2);
    let bad_replies = [
        Reply::Status(404, "Not Found"),
        Reply::Status(500, "Internal Server Error"),
        Reply::Ok(b"not json".to_vec()),
        Reply::Ok(br#"{"description": "wrong shape"}"#.to_vec()),
        Reply::Ok(br#"[{"text": "no description"}]"#.to_vec()),
        Reply::Truncated {
            body: dataset_json(3)[..40].to_vec(),
            claimed: dataset_json(3).len(),
        },
        Reply::Ok(dataset_json(500)),
        Reply::Stall(Duration::from_secs(20)),
    ];
    for reply in bad_replies {
        let server = TestServer::start(reply.clone());
        let cache = TempDir::new().unwrap();
        let loader = loader(&server.url(), cache.path())
            .refresh(true)
            .max_bytes(10_000)
            .timeout(Duration::from_millis(300));
        let path = cache_path(&loader);
        fs::write(&path, &good).unwrap();

        match loader.load() {
            Err(DatasetError::Download { url, failure }) => {
                assert_eq!(url, server.url());
                let message = DatasetError::Download { url, failure }.to_string();
                assert!(message.starts_with("could not download http://127.0.0.1:"));
            }
            other => panic!("{reply:?}: expected a download error, got {other:?}"),
        }
        assert_eq!(
            fs::read(&path).unwrap(),
            good,
            "{reply:?} changed the cache"
        );
        assert!(server.requests() >= 1, "{reply:?}: a refresh downloads");
        // Nothing but the cache file and the note that this download failed: no temporary.
        let mut names: Vec<String> = fs::read_dir(cache.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(names, [file.clone(), format!("{file}.failed")], "{reply:?}");
    }
}

#[test]
fn a_refresh_replaces_the_cache_with_a_good_download() {
    let server = TestServer::start(Reply::Ok(dataset_json(5)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path());
    let path = cache_path(&loader);
    fs::write(&path, dataset_json(2)).unwrap();

    assert!(matches!(
        loader.load().unwrap().provenance.source,
        Source::Cache { .. }
    ));
    assert_eq!(server.requests(), 0);

    let data = loader.clone().refresh(true).load().unwrap();
    assert!(matches!(data.provenance.source, Source::Download { .. }));
    assert_eq!(data.frame.height(), 5);
    assert_eq!(fs::read(&path).unwrap(), dataset_json(5));
    assert_eq!(server.requests(), 1);
}

#[test]
fn offline_uses_the_cache_or_the_stand_in_and_never_the_network() {
    let server = TestServer::start(Reply::Ok(dataset_json(3)));
    let cache = TempDir::new().unwrap();
    let loader = loader(&server.url(), cache.path()).offline(true);

    let data = loader.load().unwrap();
    assert_eq!(data.provenance.source, Source::StandIn);
    assert_eq!(data.provenance.notes, [Note::Offline]);
    assert_eq!(
        data.provenance.to_string(),
        "offline: no download was tried; used the bundled stand-in (not the real Africa Galore)"
    );

    fs::write(cache_path(&loader), dataset_json(3)).unwrap();
    let data = loader.load().unwrap();
    assert!(matches!(data.provenance.source, Source::Cache { .. }));
    assert_eq!(data.frame.height(), 3);
    assert_eq!(server.requests(), 0);

    let refresh = loader.clone().refresh(true).load().unwrap_err();
    assert!(matches!(refresh, DatasetError::Offline { .. }), "{refresh}");
    assert_eq!(server.requests(), 0);
}

#[test]
fn the_real_data_can_be_required() {
    let cache = TempDir::new().unwrap();
    let loader = loader(&unreachable_url(), cache.path()).allow_stand_in(false);
    match loader.load() {
        Err(DatasetError::Download {
            failure: DownloadFailure::Connect(_),
            ..
        }) => {}
        other => panic!("{other:?}"),
    }
    let offline = loader.offline(true).load().unwrap_err();
    assert!(matches!(offline, DatasetError::Offline { .. }), "{offline}");
}

#[test]
fn only_https_is_fetched_from_other_hosts() {
    // Refused before any connection is attempted, so no traffic leaves the machine.
    let cache = TempDir::new().unwrap();
    let loader = loader("http://dataset.invalid/africa_galore.json", cache.path());
    match download_failure(&loader) {
        DownloadFailure::BadUrl(why) => assert!(why.contains("only https"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A loader that remembers failures, as notebooks load the dataset.
fn remembering(url: &str, cache: &Path) -> AfricaGalore {
    loader(url, cache).remember_failures(DEFAULT_FAILURE_WINDOW)
}

#[test]
fn a_failed_download_is_remembered_and_not_waited_for_again() {
    let server = TestServer::start(Reply::Status(503, "Service Unavailable"));
    let cache = TempDir::new().unwrap();
    let loader = remembering(&server.url(), cache.path());

    let first = loader.load().unwrap();
    assert!(first.is_stand_in());
    assert!(matches!(
        first.provenance.notes.as_slice(),
        [Note::DownloadFailed { .. }]
    ));
    let asked = server.requests();
    assert_eq!(asked, 2, "a 503 is tried twice");

    // The next loads (the next notebooks) do not ask the server, and say why.
    for _ in 0..3 {
        let again = loader.load().unwrap();
        assert!(again.is_stand_in());
        match again.provenance.notes.as_slice() {
            [Note::RecentFailure { what, retry_in, .. }] => {
                assert_eq!(what, "the server answered 503 Service Unavailable");
                assert!(*retry_in <= DEFAULT_FAILURE_WINDOW && *retry_in > Duration::ZERO);
            }
            other => panic!("expected the remembered failure, got {other:?}"),
        }
        let line = again.provenance.headline();
        assert!(line.starts_with("Using the bundled stand-in"), "{line}");
        assert!(
            line.contains("503") && line.contains("retry_download"),
            "{line}"
        );
    }
    assert_eq!(
        server.requests(),
        asked,
        "no request while the failure is remembered"
    );

    // Asking for a retry asks the server again.
    let retried = loader.clone().retry_download(true).load().unwrap();
    assert!(matches!(
        retried.provenance.notes.as_slice(),
        [Note::DownloadFailed { .. }]
    ));
    assert_eq!(server.requests(), asked + 2);
}

#[test]
fn a_download_that_works_again_clears_the_memory() {
    let server = TestServer::start(Reply::Ok(dataset_json(3)));
    let cache = TempDir::new().unwrap();
    // Another URL failed: that is written beside its own cache file...
    let failing = remembering(&unreachable_url(), cache.path());
    assert!(failing.load().unwrap().is_stand_in());
    assert!(failure_marker_of(&failing).exists());

    // ...and does not hold back a URL that works.
    let working = remembering(&server.url(), cache.path());
    let data = working.load().unwrap();
    assert!(matches!(data.provenance.source, Source::Download { .. }));
    assert_eq!(
        data.provenance.headline(),
        "Using the real Africa Galore, downloaded just now and kept for next time."
    );

    // A failure remembered for the working URL (written as the loader writes it) is skipped
    // by a retry, and the successful retry forgets it.
    fs::remove_file(cache_path(&working)).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    fs::write(
        failure_marker_of(&working),
        format!("{now}\nearlier failure\n"),
    )
    .unwrap();
    let asked = server.requests();
    assert!(matches!(
        working.load().unwrap().provenance.notes.as_slice(),
        [Note::RecentFailure { .. }]
    ));
    assert_eq!(server.requests(), asked);
    let retried = working.clone().retry_download(true).load().unwrap();
    assert!(matches!(retried.provenance.source, Source::Download { .. }));
    assert!(!failure_marker_of(&working).exists());
    assert!(matches!(
        working.load().unwrap().provenance.source,
        Source::Cache { .. }
    ));
}

fn failure_marker_of(loader: &AfricaGalore) -> PathBuf {
    let path = cache_path(loader);
    path.with_file_name(format!(
        "{}.failed",
        path.file_name().unwrap().to_str().unwrap()
    ))
}

#[test]
fn the_real_data_when_required_is_always_tried() {
    let server = TestServer::start(Reply::Status(404, "Not Found"));
    let cache = TempDir::new().unwrap();
    let loader = remembering(&server.url(), cache.path());
    assert!(loader.load().unwrap().is_stand_in());
    assert!(failure_marker_of(&loader).exists());
    let asked = server.requests();
    let required = loader.clone().allow_stand_in(false).load().unwrap_err();
    assert!(
        matches!(required, DatasetError::Download { .. }),
        "{required}"
    );
    assert_eq!(
        server.requests(),
        asked + 1,
        "the memory never hides an error"
    );
}

#[test]
fn an_unreachable_server_costs_one_short_wait_in_all() {
    // Nothing listens on this port: refused at once, retried once, then remembered.
    let cache = TempDir::new().unwrap();
    let loader = remembering(&unreachable_url(), cache.path());
    let started = Instant::now();
    for _ in 0..7 {
        assert!(loader.load().unwrap().is_stand_in());
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "seven loads took {:?}",
        started.elapsed()
    );
    let line = loader.load().unwrap().provenance.headline();
    assert!(
        line.contains("a download failed") && line.contains("so none was tried"),
        "{line}"
    );
}

#[test]
fn offline_says_so_in_one_friendly_line() {
    let cache = TempDir::new().unwrap();
    let data = remembering(&unreachable_url(), cache.path())
        .offline(true)
        .load()
        .unwrap();
    assert_eq!(
        data.provenance.headline(),
        "Using the bundled stand-in, not the real Africa Galore: downloads are switched off \
         (BPE_LAB_OFFLINE). Everything works on it; only the numbers differ. For the real \
         data, unset BPE_LAB_OFFLINE to download it."
    );
}
