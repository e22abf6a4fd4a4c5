//! Watching a sandboxed program from outside: its output drained on threads and kept up to a
//! size (so a flood costs memory only up to the cap and never blocks the program on a full
//! pipe), and a wait that ends at a deadline by killing the program's whole process group.

use super::sandbox::kill_group;
use std::fmt::Write as _;
use std::io::Read;
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Output of a program, kept up to a size, with the total seen.
#[derive(Debug, Default)]
pub struct Captured {
    pub kept: Vec<u8>,
    pub total: u64,
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
}

/// Drains `from` into `into`, keeping the first `limit` bytes.
pub fn drain(mut from: impl Read + Send + 'static, into: Arc<Mutex<Captured>>, limit: usize) {
    std::thread::spawn(move || {
        let mut buffer = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buffer) {
            if n == 0 {
                break;
            }
            if let Ok(mut c) = into.lock() {
                let room = limit.saturating_sub(c.kept.len()).min(n);
                c.kept.extend_from_slice(&buffer[..room]);
                c.total += n as u64;
            }
        }
    });
}

/// Waits for `child` at most `limit`, killing its process group after that. Returns its exit
/// status, or `None` when it had to be killed.
pub fn wait_at_most(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                kill_group(child.id());
                let _ = child.wait();
                return None;
            }
        }
    }
}
