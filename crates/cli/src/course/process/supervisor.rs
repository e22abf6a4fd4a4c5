//! One supervised program: started with its output captured ([`super::capture`]), waited for
//! until a deadline, killed with everything it started, and reaped — every program the grader
//! starts goes through here, and none is left unwaited for (dropping a [`Supervised`] kills and
//! reaps it).
//!
//! Killing a sandbox in the right order matters. bubblewrap's outer process (the grader's
//! child) starts the sandbox's init in a session of its own (`--new-session`), so a signal to
//! the outer process's group does not reach it; killed first, the outer process leaves that
//! init an orphan, reparented to whichever ancestor reaps orphans (in a container, often the
//! grader itself, which then held `[bwrap] <defunct>` entries until it exited). So the sandbox's
//! init is killed first: the kernel kills every process in its PID namespace and reaps them, the
//! outer process sees its child end, reaps it and exits, and the grader reaps the outer process.
//! When the outer process has exited, nothing of the sandbox is left: its user's process count
//! is back to zero before the next program of the slot starts.
//!
//! Even so, bubblewrap's outer process exits as soon as the sandbox's init reports the
//! program's status, without waiting for that init to end: the init is orphaned on every run.
//! On a normal system the machine's init reaps it; but a grader that is itself the reaper of
//! orphans (the first process of a container, or a child subreaper) gets them as children, and
//! reaps them here ([`reap_orphaned_inits`]) — they are recognised as bubblewrap processes in
//! a session of their own, which the grader's own children never are.

use super::capture::{JOIN_GRACE, Reader, Sink};
use super::error::{ProcessError, Stream};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the started process is, for killing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tree {
    /// bubblewrap: its child is the sandbox's init, in a session of its own.
    Sandboxed,
    /// A program leading its own process group (started with `process_group(0)`).
    Group,
}

/// How long the outer bubblewrap process is given to see its sandbox end and exit.
const SANDBOX_EXIT_GRACE: Duration = Duration::from_secs(5);

/// Signals a started process's tree; shared with the output readers, which kill a program
/// whose output passes its cap at once. Signals are sent only while the process is not
/// reaped, so its pid cannot have been given to another process.
#[derive(Debug, Clone)]
struct Signaller {
    pid: i32,
    tree: Tree,
    reaped: Arc<Mutex<bool>>,
    /// The stream whose cap was passed, when one was.
    capped: Arc<Mutex<Option<Stream>>>,
}

/// The children of `pid`. From the kernel's per-thread `children` lists when it keeps them;
/// kernels built without CONFIG_PROC_CHILDREN (seen on the CI machines) have no such file, and
/// there every process's parent is read from `/proc/*/stat` instead.
fn children(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut listed = false;
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            listed = true;
            found.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    if listed {
        return found;
    }
    children_by_parent_field(pid)
}

/// The children of `pid`, from the parent field of every `/proc/*/stat` (the way without
/// CONFIG_PROC_CHILDREN).
fn children_by_parent_field(pid: i32) -> Vec<i32> {
    let Ok(all) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    all.flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&child| parent(child) == Some(pid))
        .collect()
}

/// The parent of `pid`, from /proc/PID/stat (whose command, in parentheses, may hold spaces
/// and parentheses itself: the fields after the last `)` are read).
fn parent(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// `pid` and every process under it.
fn tree_of(pid: i32) -> Vec<i32> {
    let mut found = vec![pid];
    let mut next = 0;
    while next < found.len() {
        let more = children(found[next]);
        found.extend(more);
        next += 1;
    }
    found
}

/// How long `pid` has waited, ready to run, for a CPU (the scheduler's `run_delay`, from
/// /proc/PID/schedstat), summed over its threads; zero when the kernel does not say.
fn waited_for_cpu(pid: i32) -> Duration {
    waited_in(&format!("/proc/{pid}/schedstat"))
}

/// The same for one thread of the grader itself.
pub(crate) fn thread_waited_for_cpu(tid: i32) -> Duration {
    waited_in(&format!("/proc/self/task/{tid}/schedstat"))
}

fn waited_in(schedstat: &str) -> Duration {
    let nanos = std::fs::read_to_string(schedstat)
        .ok()
        .and_then(|text| text.split_whitespace().nth(1)?.parse::<u64>().ok())
        .unwrap_or(0);
    Duration::from_nanos(nanos)
}

fn kill(pid: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

fn kill_group(pgid: i32) {
    // SAFETY: killpg has no memory-safety preconditions; an empty group gives ESRCH.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Whether orphans end up with this process: it is a child subreaper, or the first process
/// of its PID namespace.
fn reaps_orphans() -> bool {
    let mut flag: libc::c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int into `flag`; getpid has no preconditions.
    unsafe {
        libc::prctl(
            libc::PR_GET_CHILD_SUBREAPER,
            &mut flag as *mut libc::c_int,
            0,
            0,
            0,
        );
        flag != 0 || libc::getpid() == 1
    }
}

/// The state of `pid` when it is a sandbox's init: a `bwrap` process leading a session of its
/// own (bubblewrap's `--new-session`). The grader's own bubblewrap children lead only a
/// process group, never a session, so they are never taken for one.
fn sandbox_init_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    init_state_in(pid, &stat)
}

/// [`sandbox_init_state`] on the text of /proc/PID/stat: `pid (comm) state ppid pgrp session
/// …`. The session is compared with the process's own pid, not with the grader's session:
/// a grader whose session began outside its PID namespace (e.g. a container entered with
/// `docker exec`) gets 0 from getsid, which an earlier version compared with the wrong field
/// (the terminal, also 0) and so took every sandbox init for one of its own. The CI machine's
/// failure matched that exactly: the two zombies left were the probe's and the first
/// program's inits, and a PID namespace of its own reproduces it here.
fn init_state_in(pid: i32, stat: &str) -> Option<char> {
    let (head, rest) = stat.rsplit_once(')')?;
    if !head.ends_with("(bwrap") {
        return None;
    }
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let session: i32 = fields.get(3)?.parse().ok()?;
    (session == pid).then_some(state)
}

/// Reaps the sandbox inits that bubblewrap left to this process (when it is a reaper of
/// orphans), waiting up to `grace` for those still exiting.
pub(crate) fn reap_orphaned_inits(grace: Duration) {
    if !reaps_orphans() {
        return;
    }
    let until = Instant::now() + grace;
    loop {
        let me = std::process::id() as i32;
        let orphans: Vec<(i32, char)> = children(me)
            .into_iter()
            .filter_map(|pid| Some((pid, sandbox_init_state(pid)?)))
            .collect();
        let mut exiting = false;
        for (pid, state) in orphans {
            if state == 'Z' {
                // SAFETY: waitpid on one pid; another thread may have reaped it (ECHILD).
                unsafe {
                    libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL);
                }
            } else {
                exiting = true;
            }
        }
        if !exiting || Instant::now() >= until {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

impl Signaller {
    /// Kills what runs inside: the sandbox's init (and with it its whole PID namespace), or
    /// the program's process group.
    fn kill_inside(&self) {
        let Ok(reaped) = self.reaped.lock() else {
            return;
        };
        if *reaped {
            return;
        }
        match self.tree {
            Tree::Sandboxed => {
                let inits = children(self.pid);
                if inits.is_empty() {
                    // Not started yet, or already gone: bubblewrap's --die-with-parent ends
                    // whatever it was starting.
                    kill_group(self.pid);
                }
                for init in inits {
                    kill(init);
                }
            }
            Tree::Group => kill_group(self.pid),
        }
    }

    /// Kills the process's group itself (the outer bubblewrap process, or the program's group
    /// again: what was left of it).
    fn kill_group(&self) {
        if let Ok(reaped) = self.reaped.lock()
            && !*reaped
        {
            kill_group(self.pid);
        }
    }
}

/// How a supervised program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It ended by itself with this status.
    Exited(ExitStatus),
    /// It ran past the deadline and was killed.
    TimedOut,
    /// Its output on this stream passed the cap and it was killed.
    OutputCap(Stream),
}

/// A program that ended, and its output.
#[derive(Debug, Clone)]
pub struct Finished {
    pub(crate) program: String,
    pub tree: Tree,
    pub ended: Ended,
    /// The time limit it was given, for messages.
    pub(crate) limit: Option<Duration>,
    pub stdout: super::capture::Captured,
    pub stderr: super::capture::Captured,
    pub(crate) stdout_cap: usize,
    pub(crate) stderr_cap: usize,
}

impl Finished {
    /// `Ok` when it exited with status 0; otherwise what went wrong, the grader's trouble
    /// (a sandbox that could not start it) told from the program's doing.
    pub fn result(&self) -> Result<(), ProcessError> {
        let program = self.program.clone();
        match self.ended {
            Ended::Exited(status) if status.success() => Ok(()),
            Ended::Exited(status) => {
                if let Some(message) = sandbox_failure(self.tree, status, &self.stderr.text()) {
                    return Err(ProcessError::Sandbox { program, message });
                }
                match (status.code(), status.signal()) {
                    // bubblewrap reports its child's signal as 128 + signal.
                    (Some(code), _) if code > 128 && self.tree == Tree::Sandboxed => {
                        Err(ProcessError::Signal {
                            program,
                            signal: code - 128,
                        })
                    }
                    (Some(code), _) => Err(ProcessError::Exit { program, code }),
                    (None, Some(signal)) => Err(ProcessError::Signal { program, signal }),
                    (None, None) => Err(ProcessError::Exit { program, code: -1 }),
                }
            }
            Ended::TimedOut => Err(ProcessError::TimedOut {
                program,
                after: self.limit.unwrap_or_default(),
            }),
            Ended::OutputCap(stream) => Err(ProcessError::OutputCap {
                program,
                stream,
                cap: match stream {
                    Stream::Stdout => self.stdout_cap,
                    Stream::Stderr => self.stderr_cap,
                },
            }),
        }
    }
}

/// bubblewrap's or setpriv's own failure, from the status they exit with (bubblewrap: 1;
/// setpriv, when it cannot execute the program: 126, or 127 when it is missing) and their
/// last message, which they prefix with their name. The program's own code could print such
/// a line and exit so, but only to have itself regraded, never to earn points.
pub fn sandbox_failure(tree: Tree, status: ExitStatus, stderr: &str) -> Option<String> {
    if tree != Tree::Sandboxed || !matches!(status.code(), Some(1 | 126 | 127)) {
        return None;
    }
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    (last.starts_with("bwrap: ") || last.starts_with("setpriv: ")).then(|| last.to_owned())
}

/// A started program under watch.
pub struct Supervised {
    program: String,
    tree: Tree,
    child: Child,
    signaller: Signaller,
    readers: Vec<Reader>,
    stdout: Sink,
    stderr: Sink,
    limit: Option<Duration>,
    ended: Option<Ended>,
}

/// The buffer asked for each output pipe (see [`Supervised::spawn`]).
const PIPE_BYTES: libc::c_int = 1 << 20;

impl Supervised {
    /// Starts `command` (whose stdin the caller has set) with its stdout and stderr read into
    /// the sinks. `program` names it in messages.
    pub fn spawn(
        mut command: Command,
        program: &str,
        tree: Tree,
        stdout: Sink,
        stderr: Sink,
    ) -> Result<Supervised, ProcessError> {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .map_err(|e| ProcessError::spawn(program, e))?;
        let signaller = Signaller {
            pid: child.id() as i32,
            tree,
            reaped: Arc::default(),
            capped: Arc::default(),
        };
        let pipes = (child.stdout.take(), child.stderr.take());
        // A pipe holds 64 KiB by default: a program that prints a megabyte then waits for the
        // reader sixteen times, and on a busy machine each of those waits is a wait for a CPU,
        // for it and for the reader (a correct answer that prints a lot timed out under load).
        // One MiB (the most an unprivileged process may ask for) makes that one wait; where the
        // system refuses, the default stays and only speed is lost.
        for fd in [
            pipes.0.as_ref().map(std::os::fd::AsRawFd::as_raw_fd),
            pipes.1.as_ref().map(std::os::fd::AsRawFd::as_raw_fd),
        ]
        .into_iter()
        .flatten()
        {
            // SAFETY: fcntl on a pipe we own; F_SETPIPE_SZ only resizes its buffer.
            unsafe {
                libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES);
            }
        }
        let mut supervised = Supervised {
            program: program.to_owned(),
            tree,
            child,
            signaller,
            readers: Vec::new(),
            stdout,
            stderr,
            limit: None,
            ended: None,
        };
        let (Some(out), Some(err)) = pipes else {
            return Err(ProcessError::Io {
                what: format!("the output pipes of {program}"),
                source: std::io::Error::other("not piped"),
            });
        };
        // If a reader cannot be started, dropping `supervised` kills and reaps the program.
        supervised.read(Stream::Stdout, out)?;
        supervised.read(Stream::Stderr, err)?;
        Ok(supervised)
    }

    fn read(
        &mut self,
        stream: Stream,
        from: impl std::io::Read + Send + 'static,
    ) -> Result<(), ProcessError> {
        let sink = match stream {
            Stream::Stdout => &self.stdout,
            Stream::Stderr => &self.stderr,
        };
        let signaller = self.signaller.clone();
        let reader = Reader::start(stream, from, sink, move || {
            if let Ok(mut capped) = signaller.capped.lock() {
                capped.get_or_insert(stream);
            }
            signaller.kill_inside();
        })
        .map_err(|e| ProcessError::io(format!("a thread to read {stream}"), e))?;
        self.readers.push(reader);
        Ok(())
    }

    /// The kernel's ids of the grader's threads reading the program's output.
    pub(crate) fn reader_tids(&self) -> Vec<i32> {
        self.readers
            .iter()
            .map(|r| r.tid.load(std::sync::atomic::Ordering::Relaxed))
            .filter(|&tid| tid > 0)
            .collect()
    }

    /// How long each of the program's processes (those still running) and each of the
    /// grader's threads reading its output have waited for a CPU while ready to run, by
    /// process or thread id: time a busy machine took from it, not time it used.
    pub(crate) fn waited_for_cpu(&self) -> Vec<(i32, Duration)> {
        let mut waits: Vec<(i32, Duration)> = self
            .readers
            .iter()
            .map(|r| r.tid.load(std::sync::atomic::Ordering::Relaxed))
            .filter(|&tid| tid > 0)
            .map(|tid| (tid, thread_waited_for_cpu(tid)))
            .collect();
        if !self.signaller.reaped.lock().is_ok_and(|r| *r) {
            waits.extend(
                tree_of(self.child.id() as i32)
                    .into_iter()
                    .map(|pid| (pid, waited_for_cpu(pid))),
            );
        }
        waits
    }

    /// Whether it has ended (without reaping it: that is [`Supervised::wait_until`]'s).
    fn has_exited(&self) -> bool {
        // SAFETY: waitid writes into `info`, which we own; WNOWAIT leaves the child unreaped.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                self.child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }

    /// Blocks until the process exits or `until` passes (at most `slice`, so a caller can
    /// look at other things).
    fn block(&self, until: Option<Instant>) {
        let slice = Duration::from_millis(50);
        let wait = until.map_or(slice, |u| {
            u.saturating_duration_since(Instant::now()).min(slice)
        });
        // SAFETY: pidfd_open returns a new descriptor we own and close, or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, self.child.id() as i32, 0) } as i32;
        if fd < 0 {
            std::thread::sleep(wait.min(Duration::from_millis(2)));
            return;
        }
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd we own; then the descriptor is closed once.
        unsafe {
            libc::poll(&mut poll, 1, wait.as_millis() as i32);
            libc::close(fd);
        }
    }

    /// Reaps the exited process, after killing what it left behind in its group (not
    /// reaped yet, its pid still names the group).
    fn reap(&mut self) -> ExitStatus {
        if self.tree == Tree::Group {
            self.signaller.kill_group();
        }
        let mut reaped = self
            .signaller
            .reaped
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let status = loop {
            match self.child.wait() {
                Ok(status) => break status,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // Not our child any more (cannot happen: we never wait for -1); say "killed".
                Err(_) => break ExitStatus::from_raw(libc::SIGKILL),
            }
        };
        *reaped = true;
        drop(reaped);
        if self.tree == Tree::Sandboxed {
            reap_orphaned_inits(SANDBOX_EXIT_GRACE);
        }
        status
    }

    /// Waits until the process ends or `deadline` passes; then kills everything it started
    /// and reaps it. `limit` is the time it was given, for messages.
    pub(crate) fn wait_until(
        &mut self,
        deadline: Option<Instant>,
        limit: Option<Duration>,
    ) -> Ended {
        if let Some(ended) = self.ended {
            return ended;
        }
        self.limit = limit;
        let ended = loop {
            if self.has_exited() {
                let status = self.reap();
                let capped = self.signaller.capped.lock().ok().and_then(|c| *c);
                break match capped {
                    Some(stream) => Ended::OutputCap(stream),
                    None => Ended::Exited(status),
                };
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                self.kill();
                break Ended::TimedOut;
            }
            self.block(deadline);
        };
        self.ended = Some(ended);
        ended
    }

    /// Kills the process and everything it started, and reaps it.
    pub(crate) fn kill(&mut self) {
        if self.ended.is_some() || self.signaller.reaped.lock().is_ok_and(|r| *r) {
            return;
        }
        self.signaller.kill_inside();
        if self.tree == Tree::Sandboxed {
            // The outer process reaps the sandbox's init and exits by itself.
            let grace = Instant::now() + SANDBOX_EXIT_GRACE;
            while !self.has_exited() && Instant::now() < grace {
                self.block(Some(grace));
            }
        }
        self.signaller.kill_group();
        let status = self.reap();
        self.ended.get_or_insert(Ended::Exited(status));
    }

    /// Waits for the process to end by itself (until `deadline`, killed past it), joins its
    /// output readers and returns what it did.
    pub fn finish(mut self, deadline: Option<Instant>, limit: Option<Duration>) -> Finished {
        let ended = self.wait_until(deadline, limit);
        self.join_readers();
        Finished {
            program: self.program.clone(),
            tree: self.tree,
            ended,
            limit,
            stdout: self.stdout.captured(),
            stderr: self.stderr.captured(),
            stdout_cap: self.stdout.cap,
            stderr_cap: self.stderr.cap,
        }
    }

    /// Kills the process (if it still runs) and joins its readers: its sinks then hold all it
    /// wrote.
    pub fn stop(mut self) -> Ended {
        self.kill();
        self.join_readers();
        self.ended.unwrap_or(Ended::TimedOut)
    }

    fn join_readers(&mut self) {
        let by = Instant::now() + JOIN_GRACE;
        for reader in &mut self.readers {
            reader.join_by(by);
        }
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        self.kill();
        let by = Instant::now() + Duration::from_secs(1);
        for reader in &mut self.readers {
            reader.join_by(by);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{children, children_by_parent_field, init_state_in};

    #[test]
    fn both_ways_of_listing_children_find_the_same_ones() {
        let mut sleepers: Vec<std::process::Child> = (0..2)
            .map(|_| {
                std::process::Command::new("sleep")
                    .arg("30")
                    .spawn()
                    .unwrap()
            })
            .collect();
        let me = std::process::id() as i32;
        let ids: Vec<i32> = sleepers.iter().map(|c| c.id() as i32).collect();
        // Other tests of this binary start children too: compare only these two.
        let (by_field, listed) = (children_by_parent_field(me), children(me));
        for child in &mut sleepers {
            child.kill().unwrap();
            child.wait().unwrap();
        }
        for id in ids {
            assert!(by_field.contains(&id), "{id} not in {by_field:?}");
            assert!(listed.contains(&id), "{id} not in {listed:?}");
        }
    }

    #[test]
    fn a_sandbox_init_leads_its_own_session() {
        // pid (comm) state ppid pgrp session tty_nr …: the session is the fourth field after
        // the command, and the terminal (0 without one) the fifth.
        let zombie_init = "29004 (bwrap) Z 28992 29004 29004 0 -1 4194560 0 0";
        assert_eq!(init_state_in(29004, zombie_init), Some('Z'));
        let running_init = "29009 (bwrap) S 28992 29009 29009 0 -1 4194560 0 0";
        assert_eq!(init_state_in(29009, running_init), Some('S'));
    }

    #[test]
    fn the_graders_own_bubblewrap_and_other_programs_are_not_inits() {
        // The grader's child leads its process group (process_group(0)), in the grader's
        // session — also when that session is invisible here (0) and there is no terminal.
        let outer = "29001 (bwrap) S 28992 29001 0 0 -1 4194560 0 0";
        assert_eq!(init_state_in(29001, outer), None);
        let outer_seen_session = "29001 (bwrap) Z 28992 29001 28800 0 -1 4194560 0 0";
        assert_eq!(init_state_in(29001, outer_seen_session), None);
        let shell = "29010 (sh) Z 28992 29010 29010 0 -1 4194560 0 0";
        assert_eq!(init_state_in(29010, shell), None);
        let tricky = "29011 (x) (bwrap) Z 28992 29011 29011 0 -1";
        assert_eq!(
            init_state_in(29011, tricky),
            Some('Z'),
            "the last `)` ends the command"
        );
        assert_eq!(init_state_in(29012, "29012 (bwrap"), None);
    }
}
