//! A tiny HTTP server on 127.0.0.1 for the download tests: one canned reply for every request,
//! a count of the requests it received, and nothing else. It listens on a free port, serves
//! each connection on its own thread, and stops when dropped (or after a minute at most), so a
//! test never needs the internet and never leaves a server behind.

#![allow(dead_code)] // each test file uses a different part

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with this body and its exact Content-Length.
    Ok(Vec<u8>),
    /// 200 with this body, no Content-Length: the body ends when the connection closes.
    OkUnannounced(Vec<u8>),
    /// This status and a short text body.
    Status(u16, &'static str),
    /// Reads the request, then says nothing for this long before closing.
    Stall(Duration),
    /// 200 announcing `claimed` bytes, sending only `body`, then closing.
    Truncated { body: Vec<u8>, claimed: usize },
}

pub struct TestServer {
    port: u16,
    requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

/// Upper bound on a server's life, whatever the test does.
const MAX_LIFETIME: Duration = Duration::from_secs(60);

impl TestServer {
    pub fn start(reply: Reply) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let requests = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let accept = {
            let (requests, stop) = (requests.clone(), stop.clone());
            thread::spawn(move || {
                let started = Instant::now();
                while !stop.load(Ordering::SeqCst) && started.elapsed() < MAX_LIFETIME {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            let (reply, requests, stop) =
                                (reply.clone(), requests.clone(), stop.clone());
                            thread::spawn(move || serve(stream, &reply, &requests, &stop));
                        }
                        Err(_) => thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
        };
        TestServer {
            port,
            requests,
            stop,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT/africa_galore.json`
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/africa_galore.json", self.port)
    }

    /// How many requests arrived (counted once their headers were read).
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

/// A URL on 127.0.0.1 where nothing listens: a port that was free a moment ago.
pub fn unreachable_url() -> String {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("http://127.0.0.1:{port}/africa_galore.json")
}

fn serve(mut stream: TcpStream, reply: &Reply, requests: &AtomicUsize, stop: &AtomicBool) {
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    if !read_request_head(&mut stream) {
        return;
    }
    requests.fetch_add(1, Ordering::SeqCst);
    let head = |status: &str, length: Option<usize>| {
        let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
        if let Some(n) = length {
            head += &format!("Content-Length: {n}\r\n");
        }
        head + "\r\n"
    };
    // Write errors are ignored: the client may have given up (a timeout test), which is fine.
    let _ = match reply {
        Reply::Ok(body) => write_all(&mut stream, &head("200 OK", Some(body.len())), body),
        Reply::OkUnannounced(body) => write_all(&mut stream, &head("200 OK", None), body),
        Reply::Status(code, reason) => {
            let body = format!("{code} {reason}\n");
            let status = format!("{code} {reason}");
            write_all(
                &mut stream,
                &head(&status, Some(body.len())),
                body.as_bytes(),
            )
        }
        Reply::Stall(duration) => {
            let until = Instant::now() + *duration;
            while Instant::now() < until && !stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(10));
            }
            Ok(())
        }
        Reply::Truncated { body, claimed } => {
            write_all(&mut stream, &head("200 OK", Some(*claimed)), body)
        }
    };
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Both);
}

fn write_all(stream: &mut TcpStream, head: &str, body: &[u8]) -> std::io::Result<()> {
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

/// Reads up to the blank line that ends a request's headers (GET requests have no body).
fn read_request_head(stream: &mut TcpStream) -> bool {
    let mut seen = Vec::new();
    let mut byte = [0u8; 512];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(0) | Err(_) => return false,
            Ok(n) => seen.extend_from_slice(&byte[..n]),
        }
        if seen.len() > 64 * 1024 {
            return false;
        }
    }
    true
}

/// A small valid dataset: `n` objects in Africa Galore's schema.
pub fn dataset_json(n: usize) -> Vec<u8> {
    let items: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"category": "Test", "name": "Item {i}", "description": "Paragraph number {i} of the test set."}}"#
            )
        })
        .collect();
    format!("[{}]", items.join(",\n")).into_bytes()
}
