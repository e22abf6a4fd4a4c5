//! Stopping a command with Ctrl-C (SIGINT) or `kill` (SIGTERM) while it writes its output leaves
//! neither the output nor the hidden temporary it was being written to (issue 47, finding 9:
//! a 0-byte `.NAME.PID.N.tmp` was left), and the process still ends of that signal.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::cli::entries;

/// Starts `encode` writing `dir/out.txt` from a standard input left open, waits until its
/// temporary exists, sends `signal`, and returns how the process ended.
///
/// The child starts with `signal`'s default action, as a command started from a terminal has
/// it: a suite started in the background by a shell inherits SIGINT ignored, and bpe-lab, as a
/// Unix program should, leaves an ignored signal ignored.
fn stop_mid_write(dir: &Path, signal: libc::c_int) -> std::process::ExitStatus {
    use std::os::unix::process::CommandExt;
    let out = dir.join("out.txt");
    let mut command = Command::new(env!("CARGO_BIN_EXE_bpe-lab"));
    command
        .args(["encode", "--encoding", "r50k_base", "--ids", "--output"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: signal(2) is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::signal(signal, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"Morning in Lagos begins long before sunrise.\n")
        .unwrap();
    let started = Instant::now();
    while !entries(dir).iter().any(|n| n.starts_with(".out.txt.")) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no temporary appeared: {:?}",
            entries(dir)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a plain kill(2) of the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    // A process the signal did not end would wait for its input forever: fail instead.
    let sent = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if sent.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("signal {signal} did not end the process in 30 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    status
}

#[test]
fn a_signal_mid_write_leaves_no_temporary() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let status = stop_mid_write(dir.path(), signal);
        assert_eq!(status.signal(), Some(signal), "ended of the signal");
        assert_eq!(
            entries(dir.path()),
            Vec::<String>::new(),
            "signal {signal}: a file was left"
        );
    }
}
