//! The Africa Galore loader end to end against a local HTTP server (no internet): every way a
//! download can fail ends in a stated fallback or a clear error, a good cached copy is never
//! replaced by a bad download, and the cache is used without contacting the server.
//!
//! Configuration is passed explicitly ([`AfricaGalore::new`] reads no environment variable), so
//! the tests can run in parallel threads.

#![cfg(feature = "dataset")]

mod dataset_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bpe_lab::dataset::{AfricaGalore, DatasetError, DownloadFailure, Note, Source};
use dataset_support::{Reply, TestServer, dataset_json, unreachable_url};
use tempfile::TempDir;

/// A loader for `url` caching in `cache`, with limits small enough to keep the tests fast.
fn loader(url: &str, cache: &Path) -> AfricaGalore {
    AfricaGalore::new()
        .url(url)
        .cache_dir(cache)
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(2))
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
    assert_eq!(server.requests(), 2, "a timeout is retried once");
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
        assert_eq!(fs::read_dir(cache.path()).unwrap().count(), 1, "{reply:?}");
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
