//! Fetching the dataset over HTTPS: bounded in time (connect and total timeouts) and in size
//! (a cap checked against Content-Length first and while reading), retried once when the
//! failure may pass, and never accepting a partial body.

use std::io::{self, Read};
use std::net::IpAddr;
use std::time::{Duration, Instant};

use reqwest::Url;
use reqwest::blocking::{Client, Response};

use super::error::{DownloadFailure, is_name_lookup};
use super::source::Limits;

/// Pause before the one retry: long enough for a dropped connection or a restarting server to
/// come back, short enough not to be noticed.
const RETRY_DELAY: Duration = Duration::from_millis(200);

/// The body at `url`, whole. A quick failure that may pass (a refused or reset connection, a
/// cut-off body, a 5xx, 408 or 429 answer) is tried once more; the second failure is the one
/// reported. A timeout or a name that cannot be looked up is not retried: trying again would
/// only double the wait of someone who is offline.
pub(crate) fn fetch(url: &str, limits: Limits) -> Result<Vec<u8>, DownloadFailure> {
    let url = checked_url(url)?;
    let client = Client::builder()
        .connect_timeout(limits.connect_timeout)
        .timeout(limits.timeout)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            if attempt.previous().len() >= 10 {
                attempt.error("more than 10 redirects")
            } else if let Err(failure) = allowed(attempt.url()) {
                attempt.error(format!(
                    "redirected to a URL that is not fetched: {failure}"
                ))
            } else {
                attempt.follow()
            }
        }))
        .user_agent(concat!("bpe-lab/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| DownloadFailure::Http(format!("cannot set up the HTTP client: {e}")))?;

    match fetch_once(&client, &url, limits) {
        Err(failure) if is_transient(&failure) => {
            std::thread::sleep(RETRY_DELAY);
            fetch_once(&client, &url, limits)
        }
        result => result,
    }
}

fn fetch_once(client: &Client, url: &Url, limits: Limits) -> Result<Vec<u8>, DownloadFailure> {
    let started = Instant::now();
    let response = client
        .get(url.clone())
        .send()
        .map_err(|e| failure(&e, limits))?;
    let status = response.status();
    if !status.is_success() {
        return Err(DownloadFailure::Status {
            code: status.as_u16(),
            reason: status.canonical_reason().unwrap_or_default().to_owned(),
        });
    }
    let announced = response.content_length();
    if let Some(size) = announced.filter(|&size| size > limits.max_bytes) {
        return Err(DownloadFailure::TooLarge {
            limit: limits.max_bytes,
            announced: Some(size),
        });
    }
    read_body(response, announced, started, limits)
}

/// Reads the body up to the cap. The reqwest timeout already covers the body; the deadline
/// check here also stops a server that trickles bytes just fast enough to never time out.
fn read_body(
    mut response: Response,
    announced: Option<u64>,
    started: Instant,
    limits: Limits,
) -> Result<Vec<u8>, DownloadFailure> {
    let capacity = announced.unwrap_or(0).min(limits.max_bytes) as usize;
    let mut body = Vec::with_capacity(capacity);
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match response.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                if body.len() as u64 + n as u64 > limits.max_bytes {
                    return Err(DownloadFailure::TooLarge {
                        limit: limits.max_bytes,
                        announced,
                    });
                }
                body.extend_from_slice(&chunk[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if is_timeout(&e) => return Err(DownloadFailure::Timeout(limits.timeout)),
            // Any other error mid-body (the connection closed before Content-Length bytes, a
            // reset) leaves an incomplete file, which is what the user needs to know.
            Err(_) => {
                return Err(DownloadFailure::Truncated {
                    received: body.len() as u64,
                    expected: announced,
                });
            }
        }
        if started.elapsed() > limits.timeout {
            return Err(DownloadFailure::Timeout(limits.timeout));
        }
    }
    match announced {
        Some(expected) if (body.len() as u64) < expected => Err(DownloadFailure::Truncated {
            received: body.len() as u64,
            expected: Some(expected),
        }),
        _ => Ok(body),
    }
}

/// The URL, if it is one this loader fetches: https anywhere, plain http only to this machine
/// (the tests' local server), since the data should not be altered on the way.
fn checked_url(url: &str) -> Result<Url, DownloadFailure> {
    let parsed =
        Url::parse(url).map_err(|e| DownloadFailure::BadUrl(format!("not a URL ({e}): {url}")))?;
    allowed(&parsed).map(|()| parsed)
}

fn allowed(url: &Url) -> Result<(), DownloadFailure> {
    let loopback = url.host_str().is_some_and(|host| {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        host.eq_ignore_ascii_case("localhost")
            || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    });
    match url.scheme() {
        "https" => Ok(()),
        "http" if loopback => Ok(()),
        _ => Err(DownloadFailure::BadUrl(format!(
            "only https URLs are fetched (plain http only from 127.0.0.1 or localhost): {url}"
        ))),
    }
}

fn is_transient(failure: &DownloadFailure) -> bool {
    match failure {
        DownloadFailure::Connect(why) => !is_name_lookup(why),
        DownloadFailure::Truncated { .. } | DownloadFailure::Http(_) => true,
        DownloadFailure::Status { code, .. } => *code >= 500 || *code == 408 || *code == 429,
        _ => false,
    }
}

/// A reqwest error in the words of [`DownloadFailure`].
fn failure(e: &reqwest::Error, limits: Limits) -> DownloadFailure {
    if e.is_timeout() {
        if e.is_connect() {
            DownloadFailure::ConnectTimeout(limits.connect_timeout)
        } else {
            DownloadFailure::Timeout(limits.timeout)
        }
    } else if e.is_connect() {
        DownloadFailure::Connect(root_cause(e))
    } else if e.is_redirect() {
        DownloadFailure::BadUrl(root_cause(e))
    } else {
        DownloadFailure::Http(root_cause(e))
    }
}

/// reqwest's own message ("error sending request for url …") says little; the innermost
/// cause ("Connection refused (os error 111)") says what happened.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

fn is_timeout(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::TimedOut
        || e.get_ref()
            .and_then(|inner| inner.downcast_ref::<reqwest::Error>())
            .is_some_and(reqwest::Error::is_timeout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offline_failures_are_not_retried_and_read_plainly() {
        let lookup = DownloadFailure::Connect(
            "failed to lookup address information: Name or service not known".into(),
        );
        assert!(!is_transient(&lookup));
        assert_eq!(
            lookup.in_plain_words(),
            "no network: the server's name could not be looked up"
        );
        assert!(!is_transient(&DownloadFailure::Timeout(
            Duration::from_secs(1)
        )));
        assert!(!is_transient(&DownloadFailure::ConnectTimeout(
            Duration::from_secs(1)
        )));
        let refused = DownloadFailure::Connect("Connection refused (os error 111)".into());
        assert!(is_transient(&refused));
        assert_eq!(
            refused.in_plain_words(),
            "the server refused the connection"
        );
    }

    #[test]
    fn only_https_or_loopback_http() {
        assert!(checked_url("https://example.org/a.json").is_ok());
        assert!(checked_url("http://127.0.0.1:9/a.json").is_ok());
        assert!(checked_url("http://localhost:9/a.json").is_ok());
        assert!(checked_url("http://[::1]:9/a.json").is_ok());
        assert!(matches!(
            checked_url("http://example.org/a.json"),
            Err(DownloadFailure::BadUrl(_))
        ));
        assert!(matches!(
            checked_url("ftp://127.0.0.1/a.json"),
            Err(DownloadFailure::BadUrl(_))
        ));
        assert!(matches!(
            checked_url("not a url"),
            Err(DownloadFailure::BadUrl(_))
        ));
    }
}
