//! `bpe-lab dataset`, run as a user would: the built binary with its cache in a temp dir and
//! its URL pointed at a local server or at a port where nothing listens. The environment is
//! set on the child process only.

#![cfg(feature = "dataset")]

use crate::dataset_support;

use std::path::Path;
use std::process::{Command, Output};

use dataset_support::{Reply, TestServer, dataset_json, unreachable_url};
use serde_json::Value;
use tempfile::TempDir;

const STAND_IN: &str = "source: bundled stand-in (not the real Africa Galore)\n";

/// `bpe-lab dataset ARGS` with the cache in `cache` and the download from `url`.
fn dataset(cache: &Path, url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .arg("dataset")
        .args(args)
        .env("BPE_LAB_CACHE_DIR", cache)
        .env("BPE_LAB_DATASET_URL", url)
        .env_remove("BPE_LAB_OFFLINE")
        .output()
        .expect("the bpe-lab binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn offline_says_it_used_the_stand_in_and_counts_40_paragraphs() {
    let cache = TempDir::new().unwrap();
    let out = dataset(cache.path(), &unreachable_url(), &["--offline"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with(STAND_IN), "{text}");
    assert!(
        text.contains("note: offline: no download was tried\n"),
        "{text}"
    );
    assert!(text.contains("paragraphs: 40\n"), "{text}");
    assert!(text.contains("unique words: "), "{text}");
    assert!(stderr(&out).is_empty());
}

#[test]
fn the_offline_environment_variable_works_like_the_flag() {
    let cache = TempDir::new().unwrap();
    let server = TestServer::start(Reply::Ok(dataset_json(3)));
    let out = Command::new(env!("CARGO_BIN_EXE_bpe-lab"))
        .args(["dataset"])
        .env("BPE_LAB_CACHE_DIR", cache.path())
        .env("BPE_LAB_DATASET_URL", server.url())
        .env("BPE_LAB_OFFLINE", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with(STAND_IN));
    assert_eq!(server.requests(), 0);
}

#[test]
fn json_output_is_one_object() {
    let cache = TempDir::new().unwrap();
    let out = dataset(cache.path(), &unreachable_url(), &["--offline", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["source"], "stand_in");
    assert_eq!(
        report["description"],
        "bundled stand-in (not the real Africa Galore)"
    );
    assert_eq!(report["paragraphs"], 40);
    assert!(report["path"].is_null() && report["url"].is_null());
    assert_eq!(report["notes"][0], "offline: no download was tried");
    for key in ["words", "unique_words", "characters"] {
        assert!(report[key].as_u64().unwrap() > 0, "{key}");
    }
}

#[test]
fn a_download_is_reported_then_the_cache_is_used() {
    let cache = TempDir::new().unwrap();
    let server = TestServer::start(Reply::Ok(dataset_json(3)));

    let first = dataset(cache.path(), &server.url(), &["--json"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let report: Value = serde_json::from_str(&stdout(&first)).unwrap();
    assert_eq!(report["source"], "download");
    assert_eq!(report["url"], server.url().as_str());
    assert_eq!(report["paragraphs"], 3);
    let cached = report["path"].as_str().unwrap().to_owned();
    assert!(Path::new(&cached).starts_with(cache.path()));
    assert_eq!(std::fs::read(&cached).unwrap(), dataset_json(3));

    let second = dataset(cache.path(), &server.url(), &[]);
    assert_eq!(second.status.code(), Some(0));
    let text = stdout(&second);
    assert!(
        text.starts_with(&format!("source: cached copy at {cached}\n")),
        "{text}"
    );
    assert!(text.contains("paragraphs: 3\n"));
    assert_eq!(server.requests(), 1);
}

#[test]
fn a_failed_download_falls_back_and_says_why() {
    let cache = TempDir::new().unwrap();
    let url = unreachable_url();
    let out = dataset(cache.path(), &url, &[]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with(STAND_IN), "{text}");
    assert!(
        text.contains("note: download failed: could not connect: "),
        "{text}"
    );
    assert!(text.contains(&format!("({url})\n")), "{text}");
}

#[test]
fn refresh_fails_with_exit_1_when_it_cannot_download() {
    let cache = TempDir::new().unwrap();
    let server = TestServer::start(Reply::Status(404, "Not Found"));
    let out = dataset(cache.path(), &server.url(), &["--refresh"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "error: could not download {}: the server answered 404 Not Found",
            server.url()
        )),
        "{err}"
    );
}

#[test]
fn refresh_downloads_even_with_a_cached_copy() {
    let cache = TempDir::new().unwrap();
    let server = TestServer::start(Reply::Ok(dataset_json(4)));
    assert_eq!(
        dataset(cache.path(), &server.url(), &[]).status.code(),
        Some(0)
    );
    let out = dataset(cache.path(), &server.url(), &["--refresh"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("source: download from "));
    assert_eq!(server.requests(), 2);
}

#[test]
fn refresh_and_offline_contradict_each_other() {
    let cache = TempDir::new().unwrap();
    let out = dataset(
        cache.path(),
        &unreachable_url(),
        &["--refresh", "--offline"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot be used with"));
}
