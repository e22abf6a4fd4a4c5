//! A student's exercise as a program of its own: the student's items, a stand-in `bpe_lab`
//! that offers only the steps taught before the exercise, and the harness — compiled with
//! rustc in the sandbox, then started there to answer the grader's calls.

use super::extract::{Namespace, Piece};
use crate::instructor::process::capture::{Captured, Sink};
use crate::instructor::process::error::ProcessError;
use crate::instructor::process::retry::retrying;
use crate::instructor::process::sandbox::{
    BUILD_TOOL_MISSING, COMPILE_SCRATCH_BYTES, COPY_OUT_FAILED, Limits, OUT, SCRATCH, Sandbox,
    WORKER_SCRATCH_BYTES,
};
use crate::instructor::process::supervisor::{self, Ended, Supervised};
use crate::lab::check::{Exercise, Reply};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const STEPS: &str = include_str!("../../bpe/steps.rs");
const WIRE: &str = include_str!("../../lab/check/wire.rs");
const CALLS: &str = include_str!("../../lab/check/calls.rs");
const HARNESS: &str = include_str!("harness.rs");

/// Bytes of a student's printed output kept for the feedback, per stream.
pub const OUTPUT_KEPT: usize = 8 * 1024;
/// The largest answer a worker may send.
const LARGEST_REPLY: u64 = 64 << 20;
/// Times a worker is restarted after dying before the grader gives up on it.
const MOST_STARTS: usize = 25;

/// Where each student item landed in the generated file, to point compiler messages back at
/// the student's cells.
#[derive(Debug, Clone, Default)]
pub struct LineMap {
    /// (first line in main.rs, last line, cell number shown to people, cell id, first line in
    /// the cell)
    spans: Vec<(usize, usize, usize, String, usize)>,
}

impl LineMap {
    /// Rewrites `main.rs:LINE:COL` in compiler output as `cell N (id), line L:COL`.
    pub fn translate(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find("main.rs:") {
            out.push_str(&rest[..at]);
            let after = &rest[at + "main.rs:".len()..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let found = after[..digits].parse::<usize>().ok().and_then(|line| {
                self.spans
                    .iter()
                    .find(|s| s.0 <= line && line <= s.1)
                    .map(|s| format!("cell {} ({}), line {}", s.2, s.3, s.4 + line - s.0))
            });
            match found {
                Some(place) => out.push_str(&place),
                None => {
                    out.push_str("main.rs:");
                    out.push_str(&after[..digits]);
                }
            }
            rest = &after[digits..];
        }
        out.push_str(rest);
        out
    }
}

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The stand-in for the crate inside a worker: `EOW`, the notebooks' prelude, and the steps
/// taught before `exercise`. The steps' code sits in a private module, so the exercise's own
/// answer is not reachable by any path.
fn crate_stand_in(exercise: Exercise) -> String {
    let allowed = |step: Exercise| exercise.may_use(step);
    let mut out =
        String::from("#[allow(dead_code, unused_imports)]\nmod bpe_lab {\n    mod steps {\n");
    out.push_str(STEPS);
    out.push_str("\n    }\n    pub use steps::EOW;\n");
    for (step, name) in [
        (Exercise::BpeInitialize, "bpe_initialize"),
        (Exercise::GetPairFrequencies, "get_pair_frequencies"),
        (Exercise::MergePairInWord, "merge_pair_in_word"),
        (Exercise::ApplyMerges, "apply_merges"),
    ] {
        if allowed(step) {
            let _ = writeln!(out, "    pub use steps::{name};");
        }
    }
    out.push_str(
        "    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]\n    pub enum TieBreak { #[default] Lexicographic, FirstSeen }\n    pub mod lab {\n        pub mod prelude {\n            pub use super::super::steps::EOW;\n            pub use std::collections::{BTreeMap, BTreeSet, HashMap};\n            pub use std::time::{Duration, Instant};\n        }\n",
    );
    // The references a notebook offers under `bpe_lab::lab::reference::`, those taught
    // before the exercise only.
    let references: Vec<&str> = [
        Exercise::MostFrequentPair,
        Exercise::ByteInitialize,
        Exercise::CountPairsInChunks,
        Exercise::MergeIds,
        Exercise::TrainByteBpe,
        Exercise::DecodeIds,
    ]
    .into_iter()
    .filter(|&step| allowed(step))
    .map(Exercise::name)
    .collect();
    if !references.is_empty() {
        let _ = writeln!(
            out,
            "        pub mod reference {{\n            pub use super::super::steps::{{{}}};\n        }}",
            references.join(", ")
        );
    }
    out.push_str("    }\n}\n");
    out
}

/// The worker's source for `exercise` from the student's `pieces`, and where they landed.
pub fn source(exercise: Exercise, pieces: &[Piece]) -> (String, LineMap) {
    let mut text = String::from(
        "// A grading worker generated by bpe-lab: the student's definitions, the steps the\n// exercise may use, and the harness that answers the grader.\n#![allow(warnings)]\n#[allow(unused_imports)]\nuse bpe_lab::lab::prelude::*;\n",
    );
    text.push_str(&crate_stand_in(exercise));
    let mut map = LineMap::default();
    for piece in pieces {
        let _ = writeln!(text, "// cell {} ({})", piece.cell + 1, piece.cell_id);
        let first = text.lines().count() + 1;
        text.push_str(&piece.text);
        text.push('\n');
        let last = text.lines().count();
        map.spans.push((
            first,
            last,
            piece.cell + 1,
            piece.cell_id.clone(),
            piece.line,
        ));
    }
    let _ = write!(
        text,
        "mod __bpe_lab_worker {{\n    pub mod wire {{\n{WIRE}\n    }}\n    pub mod calls {{\n{CALLS}\n    }}\n    pub mod harness {{\n{HARNESS}\n    }}\n}}\n\
         fn main() {{\n    __bpe_lab_worker::harness::serve(|request| {{\n        let args: __bpe_lab_worker::calls::{camel}Args =\n            __bpe_lab_worker::wire::decode(request).expect(\"a request from the grader\");\n        __bpe_lab_worker::wire::encode(&__bpe_lab_worker::calls::{name}(&{name}, &args))\n    }});\n}}\n",
        camel = camel(exercise.name()),
        name = exercise.name(),
    );
    (text, map)
}

/// Whether `pieces` define the exercise's function.
pub fn defines(pieces: &[Piece], exercise: Exercise) -> bool {
    pieces
        .iter()
        .any(|p| p.name == Some((Namespace::Value, exercise.name().to_owned())))
}

/// What compiling a worker gave.
#[derive(Debug)]
pub enum Compiled {
    Ok(PathBuf),
    /// The compiler's messages, pointed at the student's cells.
    Failed(String),
}

/// Bytes of compiler messages kept.
const MESSAGES_KEPT: usize = 32 * 1024;

/// A compiler message that says the machine, not the code, failed: rustc could not start a
/// thread or the linker for want of a process slot. (Out of memory is not one: a compile-time
/// bomb causes it.) Only rustc's own `error:` lines count, never a quoted source line.
fn compiler_lacked_room(messages: &str) -> Option<&str> {
    messages.lines().find(|l| {
        l.starts_with("error")
            && (l.contains("(os error 11)") || l.contains("Resource temporarily unavailable"))
    })
}

/// Compiles `source` into `scratch`/worker inside the sandbox. `Err` is the grader's own
/// trouble (the compiler could not be started or ran out of process slots), after retries.
pub fn compile(
    sandbox: &Sandbox,
    scratch: &Path,
    slot: usize,
    source: &str,
    map: &LineMap,
    memory_mb: u64,
    time_limit: Duration,
) -> Result<Compiled, ProcessError> {
    let main = scratch.join("main.rs");
    let _ = std::fs::remove_file(scratch.join("worker"));
    std::fs::write(&main, source).map_err(|e| ProcessError::io(main.display().to_string(), e))?;
    retrying(|| compile_once(sandbox, scratch, slot, map, memory_mb, time_limit))
}

fn compile_once(
    sandbox: &Sandbox,
    scratch: &Path,
    slot: usize,
    map: &LineMap,
    memory_mb: u64,
    time_limit: Duration,
) -> Result<Compiled, ProcessError> {
    let output = format!("{SCRATCH}/worker");
    let input = format!("{OUT}/main.rs");
    let mut command = sandbox.build_command(
        scratch,
        slot,
        Limits::compile(memory_mb),
        COMPILE_SCRATCH_BYTES,
        "worker",
        "/rust/bin/rustc",
        &[
            "--edition",
            "2021",
            "--crate-name",
            "worker",
            "--color",
            "never",
            "-C",
            "opt-level=0",
            "-C",
            "debuginfo=0",
            "-o",
            &output,
            &input,
        ],
    );
    command.stdin(Stdio::null());
    // One record for both streams, in the order they came.
    let messages = Sink::keep(MESSAGES_KEPT);
    let child = Supervised::spawn(
        command,
        "the compiler",
        sandbox.tree(),
        messages.clone(),
        messages.clone(),
    )?;
    let finished = child.finish(Some(Instant::now() + time_limit), Some(time_limit));
    let text = map.translate(
        &finished
            .stdout
            .text()
            .replace(&format!("{SCRATCH}/"), "")
            .replace(&format!("{OUT}/"), ""),
    );
    match finished.result() {
        Ok(()) if scratch.join("worker").is_file() => Ok(Compiled::Ok(scratch.join("worker"))),
        Ok(()) => Ok(Compiled::Failed(text)),
        Err(e) if e.is_infrastructure() => Err(e),
        // The compiler succeeded but its worker could not be written to the grader's disk.
        Err(ProcessError::Exit {
            code: COPY_OUT_FAILED,
            ..
        }) if sandbox.confined() => Err(ProcessError::Io {
            what: format!(
                "copying the compiled worker to the grader's scratch directory {}",
                scratch.display()
            ),
            source: std::io::Error::other(last_line(&text)),
        }),
        // The compiler is not in the sandbox: the toolchain is gone from under the grader.
        Err(ProcessError::Exit {
            code: BUILD_TOOL_MISSING,
            ..
        }) if sandbox.confined() => Err(ProcessError::Sandbox {
            program: "the compiler".to_owned(),
            message: format!(
                "{} (the toolchain {} seen as /rust)",
                last_line(&text),
                sandbox.sysroot.display()
            ),
        }),
        Err(ProcessError::TimedOut { .. }) => Ok(Compiled::Failed(format!(
            "compiling took longer than {} s and was stopped\n{text}",
            time_limit.as_secs()
        ))),
        Err(e) => match compiler_lacked_room(&text) {
            Some(line) => Err(ProcessError::Exhausted {
                what: format!("compiling ({e})"),
                source: std::io::Error::other(line.to_owned()),
            }),
            None => Ok(Compiled::Failed(over_a_limit(&e, &text))),
        },
    }
}

/// The last line of `text` that says something.
fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message")
        .trim()
        .to_owned()
}

/// The compiler's messages, led by the limit the code ran into when it ran into one: the
/// scratch space of a compilation, or the size of one file. Both are the code's doing (a
/// compile-time bomb): the sandbox's scratch is private, in memory and of a fixed size.
fn over_a_limit(error: &ProcessError, text: &str) -> String {
    let xfsz = matches!(error, ProcessError::Signal { signal, .. } if *signal == libc::SIGXFSZ)
        || matches!(error, ProcessError::Exit { code, .. } if *code == 128 + libc::SIGXFSZ);
    let file = Limits::compile(0).file_size >> 20;
    let why = if text.contains("No space left on device") {
        format!(
            "compiling this code wrote more than {} MiB, the most a compilation may write, \
             and was stopped\n",
            COMPILE_SCRATCH_BYTES >> 20
        )
    } else if xfsz {
        format!(
            "compiling this code tried to write a file larger than {file} MiB, the largest a \
             compilation may write, and was stopped\n"
        )
    } else {
        String::new()
    };
    format!("{why}{text}")
}

/// A panic message, with what limit was met when the student's code filled its scratch space
/// (its own doing: the space is private, in memory and of a fixed size).
fn wrote_too_much(message: String) -> String {
    if message.contains("No space left on device") {
        format!(
            "{message} (graded code may write at most {} MiB in all, in {})",
            WORKER_SCRATCH_BYTES >> 20,
            crate::instructor::process::sandbox::TMP
        )
    } else {
        message
    }
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two new descriptors into `fds`, which we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

struct Running {
    child: Supervised,
    requests: std::fs::File,
    replies: Receiver<Result<(u8, Vec<u8>), String>>,
    /// Whether this run of the worker answered at least once (then it surely started).
    answered: bool,
    /// The kernel's id of the thread reading its answers (0 until it runs).
    replies_tid: Arc<std::sync::atomic::AtomicI32>,
}

/// Time a busy machine kept a worker's calls waiting for a CPU, per process of its sandbox and
/// per thread of the grader serving it (reading its output and answers, calling it). The time
/// owed is the longest wait of any one process of the sandbox plus the longest of any one
/// thread of the grader: the two sides of the pipe stall each other, while within one side
/// waits happen at the same moments (a sum would count a moment many times, and a program of
/// many threads would earn time by itself).
#[derive(Debug, Default)]
struct Waits {
    seen: std::collections::HashMap<i32, Waited>,
}

/// One process or thread as [`Waits`] last read it.
#[derive(Debug)]
struct Waited {
    /// A thread of the grader (else a process of the sandbox).
    grader: bool,
    /// What it had waited in all when last read.
    last: Duration,
    /// What it waited while the calls ran.
    counted: Duration,
}

impl Waits {
    /// Reads what `running` and the calling thread have waited so far.
    fn count(&mut self, running: &Running) {
        let graders: Vec<i32> = running.child.reader_tids();
        let mut now: Vec<(i32, bool, Duration)> = running
            .child
            .waited_for_cpu()
            .into_iter()
            .map(|(id, waited)| (id, graders.contains(&id), waited))
            .collect();
        let replies = running
            .replies_tid
            .load(std::sync::atomic::Ordering::Relaxed);
        // SAFETY: gettid has no preconditions.
        let me = unsafe { libc::gettid() };
        for tid in [replies, me] {
            if tid > 0 {
                now.push((tid, true, supervisor::thread_waited_for_cpu(tid)));
            }
        }
        for (id, grader, waited) in now {
            let seen = self.seen.entry(id).or_insert(Waited {
                grader,
                last: waited,
                counted: Duration::ZERO,
            });
            seen.counted += waited.saturating_sub(seen.last);
            seen.last = waited;
        }
    }

    /// The longest wait of a process of the sandbox plus the longest of a grader's thread.
    fn owed(&self) -> Duration {
        let longest = |grader: bool| {
            self.seen
                .values()
                .filter(|w| w.grader == grader)
                .map(|w| w.counted)
                .max()
                .unwrap_or_default()
        };
        longest(false) + longest(true)
    }
}

/// One try at a call: the student's program's answer, or the grader's own trouble.
enum Attempt {
    Reply(Reply<Vec<u8>>),
    Trouble(ProcessError),
}

/// A compiled worker, started on demand and restarted after it dies.
pub struct Worker<'a> {
    sandbox: &'a Sandbox,
    scratch: PathBuf,
    slot: usize,
    memory_mb: u64,
    running: Option<Running>,
    starts: usize,
    /// Time the machine kept the worker waiting for a CPU during calls that ran out of time,
    /// given back to it: a time limit measures the student's code, not the machine's load.
    given_back: Duration,
    /// Time the machine kept the worker's calls waiting, counted as the calls go.
    waits: Waits,
    /// The most time given back in all (a program of many busy threads waits for CPUs by
    /// itself; past this it is timed out all the same).
    patience: Duration,
    /// The grader's own trouble that stopped it from grading (after retries), if any.
    trouble: Option<ProcessError>,
    /// What the student's code printed on stdout and stderr, across all runs.
    pub stdout: Arc<Mutex<Captured>>,
    pub stderr: Arc<Mutex<Captured>>,
}

/// Reads the worker's framed replies from `from` until it closes.
fn read_replies(mut from: std::fs::File, sender: mpsc::Sender<Result<(u8, Vec<u8>), String>>) {
    loop {
        let mut head = [0u8; 9];
        if from.read_exact(&mut head).is_err() {
            return; // the worker is gone
        }
        let mut length = [0u8; 8];
        length.copy_from_slice(&head[1..]);
        let length = u64::from_le_bytes(length);
        if length > LARGEST_REPLY {
            let _ = sender.send(Err(format!("an answer of {length} bytes (too large)")));
            return;
        }
        let mut body = Vec::new();
        if (&mut from).take(length).read_to_end(&mut body).is_err() || body.len() as u64 != length {
            return;
        }
        if sender.send(Ok((head[0], body))).is_err() {
            return;
        }
    }
}

/// Gives the started worker `request` as fd 3 and `reply` as fd 4.
fn pass_descriptors(command: &mut Command, request: &OwnedFd, reply: &OwnedFd) {
    let (child_in, child_out) = (request.as_raw_fd(), reply.as_raw_fd());
    // SAFETY: only fcntl, dup2 and close, which are async-signal-safe.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, move || {
            // Move both ends above 3 and 4 first, so neither dup2 overwrites the other.
            let a = libc::fcntl(child_in, libc::F_DUPFD, 10);
            let b = libc::fcntl(child_out, libc::F_DUPFD, 10);
            if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(a);
            libc::close(b);
            Ok(())
        });
    }
}

impl<'a> Worker<'a> {
    /// A worker for the binary `scratch`/worker.
    pub fn new(sandbox: &'a Sandbox, scratch: &Path, slot: usize, memory_mb: u64) -> Worker<'a> {
        Worker {
            sandbox,
            scratch: scratch.to_owned(),
            slot,
            memory_mb,
            running: None,
            starts: 0,
            given_back: Duration::ZERO,
            waits: Waits::default(),
            patience: Duration::ZERO,
            trouble: None,
            stdout: Arc::default(),
            stderr: Arc::default(),
        }
    }

    /// Gives calls that run out of time back the time the machine kept the worker waiting for
    /// a CPU, up to `patience` in all.
    pub fn with_patience(mut self, patience: Duration) -> Worker<'a> {
        self.patience = patience;
        self
    }

    /// Time given back to calls so far (see [`Worker::with_patience`]).
    pub fn given_back(&self) -> Duration {
        self.given_back
    }

    /// The grader's own trouble that kept it from grading, if there was any: the exercise is
    /// then not graded, whatever the check made of the calls.
    pub fn trouble(&self) -> Option<&ProcessError> {
        self.trouble.as_ref()
    }

    fn sink(into: &Arc<Mutex<Captured>>) -> Sink {
        Sink {
            into: Arc::clone(into),
            cap: OUTPUT_KEPT,
            kill_past_cap: false,
        }
    }

    fn start(&mut self) -> Result<(), ProcessError> {
        let pipes = |what| move |e| ProcessError::io(format!("a pipe to the worker ({what})"), e);
        let (request_read, request_write) = pipe().map_err(pipes("requests"))?;
        let (reply_read, reply_write) = pipe().map_err(pipes("replies"))?;
        // Room for a whole request, so writing one never waits on a stuck worker.
        // SAFETY: fcntl on a descriptor we own.
        unsafe {
            libc::fcntl(request_write.as_raw_fd(), libc::F_SETPIPE_SZ, 1 << 20);
        }
        let mut command = self.sandbox.command(
            &self.scratch,
            self.slot,
            Limits::worker(self.memory_mb),
            &format!("{SCRATCH}/worker"),
            &[],
        );
        pass_descriptors(&mut command, &request_read, &reply_write);
        command.stdin(Stdio::null());
        let child = Supervised::spawn(
            command,
            "the worker",
            self.sandbox.tree(),
            Worker::sink(&self.stdout),
            Worker::sink(&self.stderr),
        )?;
        drop(request_read);
        drop(reply_write);
        let (sender, replies) = mpsc::channel();
        let from_worker = std::fs::File::from(reply_read);
        let replies_tid = Arc::new(std::sync::atomic::AtomicI32::new(0));
        let tid = Arc::clone(&replies_tid);
        std::thread::Builder::new()
            .name("bpe-lab worker replies".to_owned())
            .spawn(move || {
                // SAFETY: gettid has no preconditions.
                tid.store(
                    unsafe { libc::gettid() },
                    std::sync::atomic::Ordering::Relaxed,
                );
                read_replies(from_worker, sender)
            })
            .map_err(|e| ProcessError::io("a thread to read the worker's answers", e))?;
        self.starts += 1;
        self.running = Some(Running {
            child,
            requests: std::fs::File::from(request_write),
            replies,
            answered: false,
            replies_tid,
        });
        Ok(())
    }

    /// Ends the running worker: given `grace` to exit by itself once its requests are closed,
    /// then killed; its output readers joined.
    fn stop(&mut self, grace: Duration) -> Option<(Ended, bool)> {
        let mut running = self.running.take()?;
        drop(running.requests);
        let ended = running
            .child
            .wait_until(Some(Instant::now() + grace), Some(grace));
        running.child.stop();
        Some((ended, running.answered))
    }

    /// Why the worker died, from its exit status and the end of its stderr — or the grader's
    /// trouble, when the sandbox never started it.
    fn death(&mut self) -> Attempt {
        let Some((ended, answered)) = self.stop(Duration::from_millis(200)) else {
            return Attempt::Reply(Reply::Crashed("the worker is not running".to_owned()));
        };
        let stderr = self.stderr.lock().map(|c| c.text()).unwrap_or_default();
        use super::death::{Ending, why};
        let ending = match ended {
            Ended::Exited(status) => {
                if !answered
                    && let Some(message) = crate::instructor::process::supervisor::sandbox_failure(
                        self.sandbox.tree(),
                        status,
                        &stderr,
                    )
                {
                    return Attempt::Trouble(ProcessError::Sandbox {
                        program: "the worker".to_owned(),
                        message,
                    });
                }
                use std::os::unix::process::ExitStatusExt;
                Ending::Exited {
                    code: status.code(),
                    signal: status.signal(),
                }
            }
            Ended::TimedOut | Ended::OutputCap(_) => Ending::StoppedAnswering,
        };
        let why = why(ending, &stderr, self.memory_mb);
        Attempt::Reply(Reply::Crashed(why))
    }

    /// Calls the student's function with encoded `args`, waiting until `deadline` at most.
    /// The grader's own trouble (no process slot, a sandbox that would not start) is retried
    /// with back-off; if it lasts, the call is reported crashed and [`Worker::trouble`] says
    /// why, so the exercise is not graded rather than failed.
    pub fn call(&mut self, args: Vec<u8>, deadline: Instant) -> Reply<Vec<u8>> {
        if let Some(trouble) = &self.trouble {
            return Reply::Crashed(format!("not graded: {trouble}"));
        }
        let mut pauses = crate::instructor::process::retry::PAUSES.iter();
        loop {
            match self.call_once(&args, deadline) {
                Attempt::Reply(reply) => return reply,
                Attempt::Trouble(e) => match pauses.next() {
                    Some(pause) if e.is_transient() && Instant::now() + *pause < deadline => {
                        std::thread::sleep(*pause)
                    }
                    _ => {
                        let reply = Reply::Crashed(format!("not graded: {e}"));
                        self.trouble = Some(e);
                        return reply;
                    }
                },
            }
        }
    }

    fn call_once(&mut self, args: &[u8], deadline: Instant) -> Attempt {
        if self.running.is_none() {
            if self.starts >= MOST_STARTS {
                return Attempt::Reply(Reply::Crashed(format!(
                    "the program died {MOST_STARTS} times; the grader stopped restarting it"
                )));
            }
            if let Err(e) = self.start() {
                return Attempt::Trouble(e);
            }
        }
        let Some(running) = self.running.as_mut() else {
            return Attempt::Reply(Reply::Crashed("the worker is not running".to_owned()));
        };
        let mut frame = (args.len() as u64).to_le_bytes().to_vec();
        frame.extend_from_slice(args);
        if running.requests.write_all(&frame).is_err() {
            return self.death();
        }
        let reply = loop {
            let wait = (deadline + self.given_back).saturating_duration_since(Instant::now());
            let reply = running.replies.recv_timeout(wait);
            self.waits.count(running);
            if !matches!(reply, Err(RecvTimeoutError::Timeout)) {
                break reply;
            }
            // Out of time: but if the machine kept the worker (or the grader's threads serving
            // it) from running during this check, that time was not the student's; give it
            // back, up to the patience, and wait on.
            let owed = self
                .waits
                .owed()
                .saturating_sub(self.given_back)
                .min(self.patience.saturating_sub(self.given_back));
            if owed < Duration::from_millis(20) {
                break reply;
            }
            self.given_back += owed;
        };
        if reply.is_ok() {
            running.answered = true;
        }
        Attempt::Reply(match reply {
            Ok(Ok((0, body))) => Reply::Returned(body),
            Ok(Ok((_, body))) => {
                Reply::Panicked(wrote_too_much(String::from_utf8_lossy(&body).into_owned()))
            }
            Ok(Err(problem)) => {
                self.stop(Duration::from_millis(200));
                Reply::Crashed(problem)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.stop(Duration::ZERO);
                Reply::TimedOut
            }
            Err(RecvTimeoutError::Disconnected) => return self.death(),
        })
    }

    /// Ends the worker's process (and anything it started) and lets its output be read.
    pub fn finish(&mut self) {
        self.stop(Duration::ZERO);
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_lines_point_at_cells() {
        let map = LineMap {
            spans: vec![(40, 45, 12, "03-best-solution".into(), 3)],
        };
        assert_eq!(
            map.translate("error at main.rs:42:7 and main.rs:90:1"),
            "error at cell 12 (03-best-solution), line 5:7 and main.rs:90:1"
        );
    }

    #[test]
    fn the_stand_in_offers_only_earlier_steps() {
        let merge = crate_stand_in(Exercise::MergePairInWord);
        assert!(merge.contains("pub use steps::get_pair_frequencies;"));
        assert!(!merge.contains("pub use steps::merge_pair_in_word;"));
        let encode = crate_stand_in(Exercise::Encode);
        assert!(encode.contains("pub use steps::apply_merges;"));
        assert_eq!(camel("merge_pair_in_word"), "MergePairInWord");
    }
}
