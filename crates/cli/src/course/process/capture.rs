//! A program's output read on a thread of its own and kept up to a cap, so a flood costs
//! memory only up to the cap and never blocks the program on a full pipe. The thread is
//! joined by its handle: whoever reads the output after the program ended has all of it (a
//! compiler's last message included), never what happened to arrive before a pause.

use super::error::Stream;
use std::fmt::Write as _;
use std::io::Read;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Output of a program, kept up to a size, with the total seen.
#[derive(Debug, Default, Clone)]
pub struct Captured {
    pub kept: Vec<u8>,
    pub(crate) total: u64,
}

impl Captured {
    /// The kept text, saying how much more there was.
    pub fn text(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.kept).into_owned();
        if self.total > self.kept.len() as u64 {
            let _ = write!(
                text,
                "\n… ({} more bytes not kept)",
                self.total - self.kept.len() as u64
            );
        }
        text
    }

    /// Whether more came than was kept.
    pub fn cut(&self) -> bool {
        self.total > self.kept.len() as u64
    }
}

/// Where one stream goes: a shared record (a worker restarted keeps adding to the same one)
/// and how much of it to keep.
#[derive(Debug, Clone)]
pub struct Sink {
    pub(crate) into: Arc<Mutex<Captured>>,
    pub(crate) cap: usize,
    /// Kill the program as soon as the record passes the cap, instead of dropping the rest.
    pub(crate) kill_past_cap: bool,
}

impl Sink {
    /// A fresh record keeping `cap` bytes.
    pub fn keep(cap: usize) -> Sink {
        Sink {
            into: Arc::default(),
            cap,
            kill_past_cap: false,
        }
    }

    /// A fresh record keeping `cap` bytes, whose program is killed when it writes more.
    pub fn cut_at(cap: usize) -> Sink {
        Sink {
            kill_past_cap: true,
            ..Sink::keep(cap)
        }
    }

    /// What was captured so far.
    pub(crate) fn captured(&self) -> Captured {
        self.into.lock().map(|c| c.clone()).unwrap_or_default()
    }
}

/// A reading thread.
pub(crate) struct Reader {
    /// The thread's id in the kernel, once it runs (0 before): to ask how long it waited.
    pub(crate) tid: Arc<std::sync::atomic::AtomicI32>,
    handle: Option<JoinHandle<()>>,
    done: Receiver<()>,
}

impl Reader {
    /// Starts reading `from` into `sink`; `past_cap` is called once, on the thread, when the
    /// record passes the cap of a sink that asks for it.
    pub(crate) fn start(
        stream: Stream,
        mut from: impl Read + Send + 'static,
        sink: &Sink,
        past_cap: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<Reader> {
        let (tell, done) = mpsc::channel();
        let sink = sink.clone();
        let tid = Arc::new(std::sync::atomic::AtomicI32::new(0));
        let my_tid = Arc::clone(&tid);
        let handle = std::thread::Builder::new()
            .name(format!("bpe-lab {stream}"))
            .spawn(move || {
                // SAFETY: gettid has no preconditions.
                my_tid.store(
                    unsafe { libc::gettid() },
                    std::sync::atomic::Ordering::Relaxed,
                );
                let mut past_cap = Some(past_cap);
                // As large as the pipe (supervisor.rs): one read empties it.
                let mut buffer = vec![0u8; 1 << 20];
                loop {
                    let n = match from.read(&mut buffer) {
                        Ok(0) => break,
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => break,
                    };
                    let over = match sink.into.lock() {
                        Ok(mut c) => {
                            let room = sink.cap.saturating_sub(c.kept.len()).min(n);
                            c.kept.extend_from_slice(&buffer[..room]);
                            c.total += n as u64;
                            c.total > sink.cap as u64
                        }
                        Err(_) => false,
                    };
                    if over
                        && sink.kill_past_cap
                        && let Some(kill) = past_cap.take()
                    {
                        kill();
                    }
                }
                let _ = tell.send(());
            })?;
        Ok(Reader {
            tid,
            handle: Some(handle),
            done,
        })
    }

    /// Joins the thread once its pipe has closed, waiting until `deadline` at most (a process
    /// outside the program's reach may hold the pipe: then the thread is left to end with it,
    /// and what it read so far stands). Returns whether it was joined.
    pub(crate) fn join_by(&mut self, deadline: Instant) -> bool {
        let Some(handle) = self.handle.take() else {
            return true;
        };
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.done.recv_timeout(wait) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => {
                let _ = handle.join();
                true
            }
            Err(RecvTimeoutError::Timeout) => {
                self.handle = Some(handle);
                false
            }
        }
    }
}

/// How long readers are given to finish after their program ended and everything it
/// started was killed: the pipes are closed by then, so only a thread that was not scheduled
/// yet is waited for.
pub(crate) const JOIN_GRACE: Duration = Duration::from_secs(10);
