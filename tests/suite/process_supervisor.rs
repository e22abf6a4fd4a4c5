//! The process supervisor against real programs: floods, forks that sleep, output that ends
//! as its program exits, programs that cannot be started, and the machine out of processes.
//! The sandboxed cases need bubblewrap (required when BPE_LAB_SANDBOX_TESTS is set).

use crate::support;

use support::sandbox_available;

use bpe_lab_cli::course::process::sandbox::{Limits, Sandbox};
use bpe_lab_cli::course::process::supervisor::{Ended, Finished, sandbox_failure};
use bpe_lab_cli::course::process::{ProcessError, Sink, Stream, Supervised, Tree};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn group(program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args).stdin(Stdio::null()).process_group(0);
    c
}

/// Live `sleep` processes whose command line contains `needle`.
fn processes_with(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
                let text = String::from_utf8_lossy(&c);
                text.starts_with("sleep\0") && text.contains(needle)
            })
        })
        .count()
}

#[test]
fn a_flood_is_cut_as_soon_as_it_passes_the_cap() {
    let started = Instant::now();
    let child = Supervised::spawn(
        group("/usr/bin/yes", &["flood"]),
        "yes",
        Tree::Group,
        Sink::cut_at(1 << 20),
        Sink::keep(1024),
    )
    .unwrap();
    let finished = child.finish(
        Some(Instant::now() + Duration::from_secs(60)),
        Some(Duration::from_secs(60)),
    );
    assert_eq!(finished.ended, Ended::OutputCap(Stream::Stdout));
    eprintln!(
        "a flood of `yes` cut at 1 MiB after {:?}",
        started.elapsed()
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "cut at the cap, not at the time limit: {:?}",
        started.elapsed()
    );
    assert_eq!(finished.stdout.kept.len(), 1 << 20);
    assert!(finished.stdout.cut());
    let error = finished.result().unwrap_err();
    assert!(matches!(
        error,
        ProcessError::OutputCap {
            stream: Stream::Stdout,
            ..
        }
    ));
    assert!(!error.is_infrastructure());
}

#[test]
fn a_program_that_forks_and_sleeps_dies_with_its_whole_group_at_the_deadline() {
    let marker = "1000.4242";
    let child = Supervised::spawn(
        group(
            "/bin/sh",
            &[
                "-c",
                &format!("sleep {marker} & sleep {marker} & echo started; sleep {marker}"),
            ],
        ),
        "sh",
        Tree::Group,
        Sink::keep(1024),
        Sink::keep(1024),
    )
    .unwrap();
    let finished = child.finish(
        Some(Instant::now() + Duration::from_millis(500)),
        Some(Duration::from_millis(500)),
    );
    assert_eq!(finished.ended, Ended::TimedOut);
    assert_eq!(finished.stdout.text(), "started\n");
    assert!(matches!(
        finished.result(),
        Err(ProcessError::TimedOut { .. })
    ));
    // SIGKILL is delivered at once, but a process leaves /proc when its parent reaps it.
    let by = Instant::now() + Duration::from_secs(10);
    while processes_with(marker) > 0 && Instant::now() < by {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_with(marker),
        0,
        "no sleeper outlives the deadline"
    );
}

#[test]
fn the_last_line_of_a_megabyte_of_compiler_messages_arrives() {
    // rustc writes its messages and exits at once; the readers are joined, not waited for.
    let dir = tempfile::tempdir().unwrap();
    let mut source = String::from("fn main() {\n");
    for i in 0..5000 {
        source.push_str(&format!("    let _ = an_undefined_name_{i};\n"));
    }
    source.push_str("}\n");
    std::fs::write(dir.path().join("main.rs"), source).unwrap();
    for _ in 0..3 {
        let mut c = group(
            "rustc",
            &["--color", "never", "--error-format", "human", "main.rs"],
        );
        c.current_dir(dir.path());
        let messages = Sink::keep(16 << 20);
        let child =
            Supervised::spawn(c, "rustc", Tree::Group, messages.clone(), messages.clone()).unwrap();
        let finished = child.finish(None, None);
        let text = finished.stdout.text();
        assert!(
            text.len() > 1 << 20,
            "a megabyte of messages: {}",
            text.len()
        );
        let last: Vec<&str> = text
            .lines()
            .rev()
            .filter(|l| !l.trim().is_empty())
            .take(2)
            .collect();
        assert_eq!(
            last,
            [
                "For more information about this error, try `rustc --explain E0425`.",
                "error: aborting due to 5000 previous errors",
            ],
            "the last lines arrived"
        );
        assert!(matches!(
            finished.result(),
            Err(ProcessError::Exit { code: 1, .. })
        ));
    }
}

#[test]
fn a_program_that_is_not_there_is_the_graders_trouble() {
    let error = Supervised::spawn(
        group("/nonexistent/bpe-lab-program", &[]),
        "the worker",
        Tree::Group,
        Sink::keep(16),
        Sink::keep(16),
    )
    .err()
    .expect("no such program");
    assert!(matches!(error, ProcessError::Spawn { .. }), "{error:?}");
    assert!(error.is_infrastructure());
    assert!(!error.is_transient());
}

/// Run by the test below in a child process of its own: with a process limit this process
/// already passes, starting a program fails with EAGAIN.
#[test]
fn eagain_child() {
    if std::env::var_os("BPE_LAB_EAGAIN_CHILD").is_none() {
        return;
    }
    // SAFETY: plain system calls on this process.
    unsafe {
        if libc::geteuid() == 0 {
            // Root ignores RLIMIT_NPROC: become a user of our own, far from real ones.
            let uid = 2_100_000_000;
            assert_eq!(libc::setresgid(uid, uid, uid), 0);
            assert_eq!(libc::setresuid(uid, uid, uid), 0);
        }
        let limit = libc::rlimit {
            rlim_cur: 1,
            rlim_max: 1,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_NPROC, &limit), 0);
    }
    let error = Supervised::spawn(
        group("/bin/true", &[]),
        "true",
        Tree::Group,
        Sink::keep(16),
        Sink::keep(16),
    )
    .err()
    .expect("no process slot left");
    assert!(matches!(error, ProcessError::Exhausted { .. }), "{error:?}");
    assert!(error.is_infrastructure() && error.is_transient());
    println!("EAGAIN-CHILD-OK");
}

#[test]
fn a_machine_out_of_processes_is_the_graders_trouble() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &support::alone::test_name(module_path!(), "eagain_child"),
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("BPE_LAB_EAGAIN_CHILD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("EAGAIN-CHILD-OK"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `sh -c` in the sandbox of `slot`, its stdout and stderr kept, on a scratch folder that
/// lives as long as the sandbox's owner keeps it.
fn in_sandbox(
    sandbox: &Sandbox,
    slot: usize,
    limits: Limits,
    script: &str,
) -> (Supervised, tempfile::TempDir) {
    let scratch = tempfile::tempdir().unwrap();
    sandbox.prepare_scratch(scratch.path(), slot).unwrap();
    let mut c = sandbox.command(scratch.path(), slot, limits, "/bin/sh", &["-c", script]);
    c.stdin(Stdio::null());
    let child =
        Supervised::spawn(c, "sh", sandbox.tree(), Sink::keep(4096), Sink::keep(4096)).unwrap();
    (child, scratch)
}

fn run_in_sandbox(sandbox: &Sandbox, slot: usize, script: &str) -> Finished {
    let (child, _scratch) = in_sandbox(sandbox, slot, Limits::worker(256), script);
    child.finish(None, None)
}

#[test]
fn sandboxes_die_whole_and_two_graders_never_share_a_user() {
    if !sandbox_available() {
        return;
    }
    let first = Sandbox::detect(false).unwrap();
    let second = Sandbox::detect(false).unwrap();
    // A compile in the first grader's slot 0 — rustc may have 96 processes and threads — holds
    // more than a worker's 16...
    let marker = "1000.5151";
    let (bomb, _bomb_scratch) = in_sandbox(
        &first,
        0,
        Limits::compile(256),
        &format!("i=0; while [ $i -lt 24 ]; do sleep {marker} & i=$((i+1)); done; wait"),
    );
    let by = Instant::now() + Duration::from_secs(20);
    while processes_with(marker) < 24 && Instant::now() < by {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(processes_with(marker), 24, "the sleepers started");
    // ...yet the second grader's slot 0 starts its programs.
    let other = run_in_sandbox(&second, 0, "echo fine");
    assert_eq!(other.result().map_err(|e| e.to_string()), Ok(()));
    assert_eq!(other.stdout.text(), "fine\n");
    if first.uids.is_some() {
        // ...so a worker of the same user cannot start: setpriv changes to the user, and the
        // kernel fails its execve with EAGAIN — what the issue saw when two graders shared
        // users, now told apart as the grader's trouble.
        let same = run_in_sandbox(&first, 0, "echo never");
        let error = same.result().unwrap_err();
        assert!(
            error.is_infrastructure() && error.is_transient(),
            "{error:?} {}",
            same.stderr.text()
        );
        assert!(
            sandbox_failure(
                same.tree,
                match same.ended {
                    Ended::Exited(s) => s,
                    other => panic!("{other:?}"),
                },
                &same.stderr.text()
            )
            .is_some()
        );
    }
    // Killed, the bomb's sandbox takes every process in it along, and the user is free again.
    let ended = bomb.stop();
    assert!(matches!(ended, Ended::Exited(_)), "{ended:?}");
    assert_eq!(
        processes_with(marker),
        0,
        "the sandbox died whole before stop returned"
    );
    let again = run_in_sandbox(&first, 0, "echo again");
    assert_eq!(again.stdout.text(), "again\n");
}

#[test]
fn a_worker_the_sandbox_cannot_start_is_not_graded_rather_than_crashed() {
    use bpe_lab::lab::check::Reply;
    use bpe_lab_cli::course::judge::worker::Worker;
    if !sandbox_available() {
        return;
    }
    let sandbox = Sandbox::detect(false).unwrap();
    // A worker that exits without answering: the student's doing, "crashed".
    let scratch = tempfile::tempdir().unwrap();
    sandbox.prepare_scratch(scratch.path(), 1).unwrap();
    let worker_file = scratch.path().join("worker");
    std::fs::write(&worker_file, "#!/bin/sh\nexit 3\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&worker_file, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let deadline = || Instant::now() + Duration::from_secs(30);
    let mut worker = Worker::new(&sandbox, scratch.path(), 1, 256);
    let reply = worker.call(b"x".to_vec(), deadline());
    assert!(
        matches!(&reply, Reply::Crashed(why) if why.contains("exited with code 3")),
        "{reply:?}"
    );
    assert!(worker.trouble().is_none());
    drop(worker);
    if sandbox.uids.is_none() {
        return; // the process limit needs a user of the slot's own (the grader as root)
    }
    // The slot's user held past a worker's process limit (a compile of another grader, as
    // before users were claimed): setpriv cannot execute the worker. Retried, then the
    // grader's trouble — never the student's crash.
    let marker = "1000.7373";
    let (hog, _hog_scratch) = in_sandbox(
        &sandbox,
        1,
        Limits::compile(256),
        &format!("i=0; while [ $i -lt 24 ]; do sleep {marker} & i=$((i+1)); done; wait"),
    );
    let by = Instant::now() + Duration::from_secs(20);
    while processes_with(marker) < 24 && Instant::now() < by {
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut worker = Worker::new(&sandbox, scratch.path(), 1, 256);
    let started = Instant::now();
    let reply = worker.call(b"x".to_vec(), deadline());
    assert!(
        matches!(&reply, Reply::Crashed(why) if why.starts_with("not graded")),
        "{reply:?}"
    );
    let trouble = worker.trouble().expect("the grader's trouble is kept");
    assert!(
        trouble.is_infrastructure() && trouble.is_transient(),
        "{trouble}"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "retried with back-off before giving up"
    );
    // Later calls are not attempted: the exercise is not graded.
    assert!(
        matches!(worker.call(b"x".to_vec(), deadline()), Reply::Crashed(w) if w.starts_with("not graded"))
    );
    hog.stop();
    assert_eq!(processes_with(marker), 0);
}

/// The sandbox's writable space is bounded in total, not only file by file: a worker writing
/// 1 MiB files in a loop (each under the per-file limit) fills its private `/tmp` and stops
/// there; nothing else inside is writable (bubblewrap's own root and `/dev`, in-memory file
/// systems of no fixed size, are read-only), and the host's scratch directory is untouched.
#[test]
fn a_worker_filling_its_scratch_stops_at_the_total_and_writes_nowhere_else() {
    if !sandbox_available() {
        return;
    }
    use bpe_lab_cli::course::process::sandbox::WORKER_SCRATCH_BYTES;
    let sandbox = Sandbox::detect(false).unwrap();
    let script = "i=0; while head -c 1048576 /dev/zero > /tmp/f$i; do i=$((i+1)); \
                  [ $i -gt 200 ] && break; done; echo files $i; \
                  for d in / /dev /dev/shm /etc /scratch /rust; do \
                  echo x > $d/probe 2>/dev/null && echo wrote $d; done; echo done";
    let (child, scratch) = in_sandbox(&sandbox, 0, Limits::worker(256), script);
    let finished = child.finish(Some(Instant::now() + Duration::from_secs(60)), None);
    let out = finished.stdout.text();
    let files: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("files "))
        .unwrap_or_else(|| panic!("{out} {}", finished.stderr.text()))
        .parse()
        .unwrap();
    // Exactly the total fits (an in-memory file system keeps its own records elsewhere); the
    // next file is cut short.
    assert_eq!(files, WORKER_SCRATCH_BYTES >> 20, "files of 1 MiB:\n{out}");
    assert!(
        finished.stderr.text().contains("No space left on device"),
        "{}",
        finished.stderr.text()
    );
    assert!(!out.contains("wrote"), "wrote outside its scratch:\n{out}");
    assert!(out.ends_with("done\n"), "{out}");
    assert_eq!(std::fs::read_dir(scratch.path()).unwrap().count(), 0);
}

/// A build writes in a private in-memory scratch of a fixed size and copies only its product
/// to the host: a build writing more than that fails (its own doing), the host directory gets
/// nothing of it, and a product that cannot be copied out exits with COPY_OUT_FAILED (the
/// grader's disk, never the build's).
#[test]
fn a_build_writes_in_bounded_memory_and_only_its_product_reaches_the_host() {
    if !sandbox_available() {
        return;
    }
    use bpe_lab_cli::course::process::sandbox::COPY_OUT_FAILED;
    let sandbox = Sandbox::detect(false).unwrap();
    let build = |script: &str, bytes: u64| {
        let scratch = tempfile::tempdir().unwrap();
        sandbox.prepare_scratch(scratch.path(), 0).unwrap();
        let mut c = sandbox.build_command(
            scratch.path(),
            0,
            Limits::worker(256),
            bytes,
            "product",
            "/bin/sh",
            &["-c", script],
        );
        c.stdin(Stdio::null());
        let child =
            Supervised::spawn(c, "sh", sandbox.tree(), Sink::keep(4096), Sink::keep(4096)).unwrap();
        let finished = child.finish(Some(Instant::now() + Duration::from_secs(60)), None);
        let mut files: Vec<String> = std::fs::read_dir(scratch.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        (finished, files)
    };
    // A build that leaves temporary files behind: only the product lands.
    let (ok, files) = build(
        "head -c 3000000 /dev/zero > temp.o && echo made > product",
        8 << 20,
    );
    assert_eq!(ok.result().map_err(|e| e.to_string()), Ok(()));
    assert_eq!(files, vec!["product".to_owned()]);
    // A build past its total: stopped by its own "No space left on device".
    let (full, files) = build(
        "head -c 9000000 /dev/zero > temp.o && echo made > product",
        8 << 20,
    );
    assert!(
        matches!(full.result(), Err(ProcessError::Exit { code: 1, .. })),
        "{:?}",
        full.result()
    );
    assert!(full.stderr.text().contains("No space left on device"));
    assert!(files.is_empty(), "{files:?}");
    // A product the host cannot take (here: a directory where a file must go).
    if sandbox.confined() {
        let (stuck, _) = build("mkdir product", 8 << 20);
        assert!(
            matches!(stuck.result(), Err(ProcessError::Exit { code, .. }) if code == COPY_OUT_FAILED),
            "{:?} {}",
            stuck.result(),
            stuck.stderr.text()
        );
    }
}
