//! Reap what you start: after many sandboxed programs — ending by themselves, killed at their
//! deadline while their children sleep, cut at their output cap — the grader has no zombie
//! child and no sandbox process left. This test binary makes itself a child subreaper, as a
//! grader running as a container's first process is, so a sandbox killed in the wrong order
//! (its outer bubblewrap process before the sandbox's init) would leave the init here as a
//! `[bwrap] <defunct>` child. It runs in a process of its own (`support::alone`): nothing else
//! runs beside it, and no other test's children are counted as its own.
//!
//! The CI machines run the suite in a container entered from outside its PID namespace, where
//! the grader's session leader is invisible (getsid gives 0): the test runs once as started,
//! then again, as root, in a PID namespace of its own (`unshare --pid --fork --mount-proc`),
//! which is that situation.

use crate::support;

use bpe_lab_cli::course::process::sandbox::{Limits, Sandbox};
use bpe_lab_cli::course::process::{Ended, Sink, Supervised};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// (pid, state) of every process whose parent is this one.
fn children() -> Vec<(i32, char)> {
    let me = std::process::id() as i32;
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 1 && fields[1].parse::<i32>() == Ok(me) {
            let state = fields[0].chars().next().unwrap_or('?');
            found.push((
                entry.file_name().to_string_lossy().parse().unwrap_or(0),
                state,
            ));
        }
    }
    found
}

#[test]
fn fifty_sandboxed_programs_leave_no_zombie_and_no_process() {
    if !support::sandbox_available() {
        return;
    }
    let Some(_alone) = support::alone::here(module_path!(), TEST, &[]) else {
        return;
    };
    // SAFETY: prctl on this process.
    assert_eq!(
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) },
        0
    );
    let sandbox = Sandbox::detect(false).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    sandbox.prepare_scratch(scratch.path(), 0).unwrap();
    let run = |script: &str, stdout: Sink| {
        let mut c = sandbox.command(
            scratch.path(),
            0,
            Limits::worker(256),
            "/bin/sh",
            &["-c", script],
        );
        c.stdin(Stdio::null());
        Supervised::spawn(c, "sh", sandbox.tree(), stdout, Sink::keep(4096)).unwrap()
    };
    for i in 0..50 {
        match i % 3 {
            0 => {
                let done = run("echo done", Sink::keep(64)).finish(None, None);
                assert_eq!(done.stdout.text(), "done\n");
            }
            1 => {
                let sleeper = run(
                    "sleep 1000.6161 & sleep 1000.6161 & sleep 1000.6161",
                    Sink::keep(64),
                );
                let limit = Duration::from_millis(200);
                let ended = sleeper
                    .finish(Some(Instant::now() + limit), Some(limit))
                    .ended;
                assert_eq!(ended, Ended::TimedOut);
            }
            _ => {
                let flood = run("sleep 1000.6161 & yes", Sink::cut_at(64 << 10));
                let ended = flood.finish(None, None).ended;
                assert!(matches!(ended, Ended::OutputCap(_)), "{ended:?}");
            }
        }
        let left = children();
        assert!(left.is_empty(), "after program {i}: children left {left:?}");
    }
    let sleepers = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("1000.6161"))
        })
        .count();
    assert_eq!(sleepers, 0, "no process of a sandbox outlives it");
    // SAFETY: geteuid has no preconditions.
    if std::env::var_os(AGAIN).is_none() && unsafe { libc::geteuid() } == 0 {
        again_where_the_session_is_invisible();
    }
}

const TEST: &str = "fifty_sandboxed_programs_leave_no_zombie_and_no_process";

/// Set in the second run, which must not start a third.
const AGAIN: &str = "BPE_LAB_REAPING_IN_OWN_PID_NAMESPACE";

/// Runs this test again in a PID namespace of its own, where getsid(0) is 0.
fn again_where_the_session_is_invisible() {
    let name = support::alone::test_name(module_path!(), TEST);
    let alone = support::alone::command(&name);
    let out = std::process::Command::new("unshare")
        .args(["--pid", "--fork", "--mount-proc"])
        .arg(alone.get_program())
        .args(alone.get_args())
        .envs(alone.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env(AGAIN, "1")
        .output()
        .expect("unshare (util-linux) runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() && !text.contains("running 1 test") {
        // unshare itself could not make the namespace (a container without CAP_SYS_ADMIN):
        // the run above stands alone, and says so.
        eprintln!("second run skipped: unshare could not make a PID namespace: {text}");
        return;
    }
    assert!(
        out.status.success() && text.contains("1 passed"),
        "in a PID namespace of its own (session invisible):\n{text}"
    );
}
