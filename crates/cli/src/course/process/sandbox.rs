//! Where student code runs: bubblewrap (`bwrap`) with a read-only view of the system and the
//! Rust toolchain only — not the project, not the home directory —, a private in-memory
//! scratch space of a fixed size as the only place it may write (so what a submission writes
//! is bounded in total, not only file by file, and never reaches the grader's disk except a
//! compiled worker, copied out), no network, its own PID namespace (it cannot see or signal
//! the grader), and resource limits. When the grader runs as root, the code inside runs as a user id of its own
//! per grading slot, from a block no other grader holds ([`super::uids`]), so the process limit
//! holds (root is exempt from it) and a fork bomb in one slot — or in another grader — cannot
//! starve another.
//!
//! The limits are set on bubblewrap before it executes (root ignores RLIMIT_NPROC), inherited
//! by setpriv, and take effect for the process count when setpriv changes to the slot's user:
//! the kernel then checks the user's count at the next execve, which fails with EAGAIN if the
//! user already has that many processes and threads. That is why a slot's user must be its
//! own, and empty when a program starts: [`super::supervisor`] reaps a sandbox whole.

use super::capture::Sink;
use super::error::ProcessError;
use super::supervisor::{Finished, Supervised, Tree};
use super::uids::UidBlock;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Limits on what one sandboxed program may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Address space per process, bytes.
    pub(crate) memory: u64,
    /// CPU seconds per process.
    pub(crate) cpu_seconds: u64,
    /// Processes and threads of the sandbox's user.
    pub(crate) processes: u64,
    /// Largest file it may write, bytes.
    pub(crate) file_size: u64,
    pub(crate) open_files: u64,
}

impl Limits {
    /// For rustc and the linker compiling a worker.
    pub fn compile(memory_mb: u64) -> Limits {
        Limits {
            memory: memory_mb.max(4096) << 20,
            cpu_seconds: 120,
            processes: 96,
            file_size: 256 << 20,
            open_files: 1024,
        }
    }

    /// For a worker answering the grader's calls.
    pub fn worker(memory_mb: u64) -> Limits {
        Limits {
            memory: memory_mb << 20,
            cpu_seconds: 120,
            processes: 16,
            file_size: 16 << 20,
            open_files: 64,
        }
    }
}

/// The most a worker may write in all (its private `/tmp`, in memory): a program that fills it
/// gets "No space left on device" and fails its own exercise, nobody else's.
pub const WORKER_SCRATCH_BYTES: u64 = 64 << 20;

/// The most a compilation may write in all: rustc's object files, the linker's and the worker
/// itself (a worker of lab 03 is about 4 MiB). A compile-time bomb that writes more fails to
/// compile; it never fills the grader's disk.
pub(crate) const COMPILE_SCRATCH_BYTES: u64 = 512 << 20;

/// The exit status of a build whose product could not be copied out of the sandbox into the
/// grader's scratch directory: the grader's own disk failed it (rustc, the only other program
/// of a build, exits with 0, 1, 101 or 128 + a signal).
pub const COPY_OUT_FAILED: i32 = 75;

/// The exit status of a build whose program (the compiler) is not there to execute inside the
/// sandbox: the toolchain went from under the grader, its trouble and never the code's. Tested
/// before the program runs, so nothing the code does can give it.
pub(crate) const BUILD_TOOL_MISSING: i32 = 74;

/// Where the host's scratch directory appears inside a build's sandbox.
pub(crate) const OUT: &str = "/out";

/// Where a worker's private in-memory scratch appears inside.
pub(crate) const TMP: &str = "/tmp";

/// How student code is confined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Confinement {
    /// bubblewrap at this path.
    Bubblewrap(PathBuf),
    /// No sandbox: the instructor asked for it explicitly (`--no-sandbox`). Limits still apply.
    Unconfined,
}

/// A way to start programs on student code.
#[derive(Debug, Clone)]
pub struct Sandbox {
    pub(crate) confinement: Confinement,
    /// The Rust toolchain's sysroot (`rustc --print sysroot`), seen as `/rust` inside.
    pub(crate) sysroot: PathBuf,
    /// When the grader is root: the block of user ids its sandboxes run as (one per slot).
    pub uids: Option<UidBlock>,
}

/// Where the scratch directory appears inside the sandbox.
pub(crate) const SCRATCH: &str = "/scratch";

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// One thing a sandbox sees, applied in order (a later mount may sit inside an earlier one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mount {
    /// A host path, read-only, at a path inside.
    ReadOnly(PathBuf, PathBuf),
    /// A host path, writable, at a path inside.
    Writable(PathBuf, PathBuf),
    /// An empty private file system in memory, at most this many bytes.
    Empty(PathBuf, u64),
    /// An empty directory the sandbox's user may write, inside an in-memory mount (anywhere
    /// else it is read-only: the sandbox's root is).
    Directory(PathBuf),
}

impl Mount {
    fn inside(&self) -> &Path {
        match self {
            Mount::ReadOnly(_, inside)
            | Mount::Writable(_, inside)
            | Mount::Empty(inside, _)
            | Mount::Directory(inside) => inside,
        }
    }
}

/// What a sandboxed program sees beyond the read-only system (`/usr`, the loader's links,
/// a bare `/etc`, `/proc`, `/dev`): its mounts, environment and working directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct View {
    pub(crate) mounts: Vec<Mount>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) cwd: String,
}

impl View {
    /// Nothing mounted yet; the program starts in `cwd`.
    pub(crate) fn new(cwd: &str) -> View {
        View {
            mounts: Vec::new(),
            env: Vec::new(),
            cwd: cwd.to_owned(),
        }
    }

    pub(crate) fn mount(mut self, mount: Mount) -> View {
        self.mounts.push(mount);
        self
    }

    pub(crate) fn env(mut self, key: &str, value: &str) -> View {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Where a path inside is on the host, through the innermost mount holding it.
    fn on_host(&self, inside: &str) -> String {
        let path = Path::new(inside);
        let found = self.mounts.iter().rev().find_map(|m| match m {
            Mount::ReadOnly(host, at) | Mount::Writable(host, at) => {
                path.strip_prefix(at).ok().map(|rest| host.join(rest))
            }
            Mount::Empty(..) | Mount::Directory(_) => None,
        });
        match found {
            Some(host) => host.display().to_string(),
            None => inside.to_owned(),
        }
    }

    /// bubblewrap's arguments for the mounts. Directories bubblewrap must create on the way to
    /// a mount point are made 0755 (its default, 0700, would hide them from the sandbox's
    /// user), except mount points themselves and what a bound host folder already has.
    fn add_mounts(&self, c: &mut Command) {
        let mut made: Vec<PathBuf> = Vec::new();
        for (i, mount) in self.mounts.iter().enumerate() {
            let inside = mount.inside();
            let ancestors: Vec<&Path> = inside.ancestors().skip(1).collect();
            for dir in ancestors.into_iter().rev() {
                let exists = self.mounts[..i].iter().any(|m| match m {
                    Mount::ReadOnly(_, at) | Mount::Writable(_, at) => dir.starts_with(at),
                    Mount::Empty(at, _) | Mount::Directory(at) => dir == at,
                });
                if dir == Path::new("/") || exists || made.iter().any(|d| d == dir) {
                    continue;
                }
                c.args(["--perms", "0755", "--dir"]).arg(dir);
                made.push(dir.to_owned());
            }
            match mount {
                Mount::ReadOnly(host, at) => {
                    c.arg("--ro-bind").arg(host).arg(at);
                }
                Mount::Writable(host, at) => {
                    c.arg("--bind").arg(host).arg(at);
                }
                Mount::Directory(at) => {
                    c.args(["--perms", "01777", "--dir"]).arg(at);
                }
                Mount::Empty(at, bytes) => {
                    // Writable by the sandbox's own user, whoever owns the mount.
                    c.args(["--perms", "01777", "--size"])
                        .arg(bytes.to_string())
                        .arg("--tmpfs")
                        .arg(at);
                }
            }
        }
    }
}

impl Sandbox {
    /// Finds the toolchain and bubblewrap and tries a sandbox once. `allow_unconfined` (the
    /// `--no-sandbox` flag) turns a missing or broken bubblewrap into unconfined runs; without
    /// it that is an error saying what to do.
    pub fn detect(allow_unconfined: bool) -> Result<Sandbox, ProcessError> {
        let sysroot = Command::new("rustc")
            .args(["--print", "sysroot"])
            .output()
            .map_err(|e| ProcessError::spawn("rustc (grading compiles student code with it)", e))?;
        if !sysroot.status.success() {
            return Err(ProcessError::Sandbox {
                program: "rustc --print sysroot".to_owned(),
                message: String::from_utf8_lossy(&sysroot.stderr).trim().to_owned(),
            });
        }
        let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
        if allow_unconfined {
            return Ok(Sandbox {
                confinement: Confinement::Unconfined,
                sysroot,
                uids: None,
            });
        }
        let Some(bwrap) = find_program("bwrap") else {
            return Err(ProcessError::Sandbox {
                program: "bwrap".to_owned(),
                message: "bubblewrap (bwrap) is not installed, so student code cannot be \
                          sandboxed. Install it (Debian/Ubuntu: apt-get install bubblewrap; \
                          ./scripts/lab setup does it when run as root), or pass --no-sandbox \
                          to run student code unconfined (only for code you trust)."
                    .to_owned(),
            });
        };
        let uids = if is_root() {
            Some(super::uids::claim()?)
        } else {
            None
        };
        let sandbox = Sandbox {
            confinement: Confinement::Bubblewrap(bwrap),
            sysroot,
            uids,
        };
        let scratch = tempfile::Builder::new()
            .prefix("bpe-lab-probe-")
            .tempdir()
            .map_err(|e| ProcessError::io("a temporary directory for the sandbox probe", e))?;
        sandbox.prepare_scratch(scratch.path(), 0)?;
        let mut probe =
            sandbox.command(scratch.path(), 0, Limits::worker(256), "/usr/bin/true", &[]);
        probe.stdin(Stdio::null());
        let finished = sandbox.run(probe, "the sandbox probe", None)?;
        if let Err(e) = finished.result() {
            return Err(ProcessError::Sandbox {
                program: "bwrap".to_owned(),
                message: format!(
                    "bubblewrap cannot create a sandbox here ({e}: {}). Check that user \
                     namespaces are allowed (sysctl kernel.unprivileged_userns_clone=1) or run \
                     as root, or pass --no-sandbox to run student code unconfined (only for \
                     code you trust).",
                    finished.stderr.text().trim()
                ),
            });
        }
        Ok(sandbox)
    }

    /// How a command of this sandbox is killed.
    pub fn tree(&self) -> Tree {
        match self.confinement {
            Confinement::Bubblewrap(_) => Tree::Sandboxed,
            Confinement::Unconfined => Tree::Group,
        }
    }

    /// Runs `command` (made by [`Sandbox::command`]) to its end, or until `limit`, keeping
    /// 64 KiB of each stream.
    pub(crate) fn run(
        &self,
        command: Command,
        program: &str,
        limit: Option<std::time::Duration>,
    ) -> Result<Finished, ProcessError> {
        let child = Supervised::spawn(
            command,
            program,
            self.tree(),
            Sink::keep(64 << 10),
            Sink::keep(64 << 10),
        )?;
        Ok(child.finish(limit.map(|l| std::time::Instant::now() + l), limit))
    }

    /// Whether student code is confined.
    pub fn confined(&self) -> bool {
        matches!(self.confinement, Confinement::Bubblewrap(_))
    }

    /// Makes `dir` usable as a scratch directory by `slot`'s user: reachable, and its own.
    pub fn prepare_scratch(&self, dir: &Path, slot: usize) -> Result<(), ProcessError> {
        use std::os::unix::fs::PermissionsExt;
        let fail = |e: std::io::Error| ProcessError::io(dir.display().to_string(), e);
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).map_err(fail)?;
        if let Some(uid) = self.uid(slot) {
            std::os::unix::fs::chown(dir, Some(uid), Some(uid)).map_err(fail)?;
        }
        Ok(())
    }

    fn uid(&self, slot: usize) -> Option<u32> {
        self.uids.as_ref().map(|block| block.uid(slot))
    }

    /// A command running `program` (a path as seen inside) on `scratch`, read-only, which is
    /// the working directory, with the toolchain at `/rust` and a private in-memory `/tmp` of
    /// [`WORKER_SCRATCH_BYTES`] as the only place it may write. The command starts its own
    /// process group; stdio is left to the caller.
    pub fn command(
        &self,
        scratch: &Path,
        slot: usize,
        limits: Limits,
        program: &str,
        args: &[&str],
    ) -> Command {
        let mut view = View::new(SCRATCH)
            .mount(Mount::ReadOnly(
                self.sysroot.clone(),
                PathBuf::from("/rust"),
            ))
            .mount(Mount::ReadOnly(scratch.to_owned(), PathBuf::from(SCRATCH)))
            .env("PATH", "/rust/bin:/usr/bin");
        if self.confined() {
            view = view
                .mount(Mount::Empty(PathBuf::from(TMP), WORKER_SCRATCH_BYTES))
                .env("TMPDIR", TMP)
                .env("HOME", TMP);
        }
        self.command_in(&view, slot, limits, program, args)
    }

    /// A command building `product` on `scratch`: `program` runs in a private in-memory
    /// `/scratch` of at most `bytes` (its working directory, `TMPDIR` and `HOME`), with the
    /// host's `scratch` at [`OUT`] for its input; when it succeeds, `/scratch/<product>` is
    /// copied to `scratch`, and a copy that fails exits with [`COPY_OUT_FAILED`]. So what a
    /// build writes is bounded in total, and only its product reaches the grader's disk.
    /// Unconfined (no in-memory mounts there), `program` runs on `scratch` itself, seen at both
    /// paths.
    #[allow(clippy::too_many_arguments)]
    pub fn build_command(
        &self,
        scratch: &Path,
        slot: usize,
        limits: Limits,
        bytes: u64,
        product: &str,
        program: &str,
        args: &[&str],
    ) -> Command {
        let toolchain = Mount::ReadOnly(self.sysroot.clone(), PathBuf::from("/rust"));
        let out = Mount::Writable(scratch.to_owned(), PathBuf::from(OUT));
        let env = |view: View| {
            view.env("PATH", "/rust/bin:/usr/bin")
                .env("TMPDIR", SCRATCH)
                .env("HOME", SCRATCH)
        };
        if !self.confined() {
            let view = env(View::new(SCRATCH)
                .mount(toolchain)
                .mount(Mount::Writable(scratch.to_owned(), PathBuf::from(SCRATCH)))
                .mount(out));
            return self.command_in(&view, slot, limits, program, args);
        }
        let view = env(View::new(SCRATCH)
            .mount(toolchain)
            .mount(Mount::Empty(PathBuf::from(SCRATCH), bytes))
            .mount(out));
        let script = format!(
            "product=\"$1\"; shift; \
             [ -x \"$1\" ] || {{ echo \"failed to execute $1: not there\" >&2; exit {BUILD_TOOL_MISSING}; }}; \
             \"$@\" || exit $?; \
             cp \"{SCRATCH}/$product\" \"{OUT}/$product\" || exit {COPY_OUT_FAILED}"
        );
        let mut shell: Vec<&str> = vec!["-c", &script, "sh", product, program];
        shell.extend_from_slice(args);
        self.command_in(&view, slot, limits, "/bin/sh", &shell)
    }

    /// A command running `program` (a path as seen inside) in `view`. Unconfined, the view's
    /// paths are translated back to the host's (a [`Mount::Empty`] has no host side, so such a
    /// view needs the sandbox).
    pub(crate) fn command_in(
        &self,
        view: &View,
        slot: usize,
        limits: Limits,
        program: &str,
        args: &[&str],
    ) -> Command {
        let mut command = match &self.confinement {
            Confinement::Unconfined => unconfined(view, program, args),
            Confinement::Bubblewrap(bwrap) => {
                let mut c = Command::new(bwrap);
                self.add_bubblewrap_args(&mut c, view, slot);
                c.arg(program);
                c.args(args);
                c
            }
        };
        command.process_group(0);
        // With no sandbox and no user of its own, a process limit would count every process
        // of the instructor's account: leave it to the sandboxed case.
        set_limits(
            &mut command,
            limits,
            self.uid(slot).map(|_| limits.processes),
        );
        command
    }

    /// bubblewrap's arguments up to the program: the read-only system, the view, the
    /// namespaces, and (as root) setpriv to the slot's own user.
    fn add_bubblewrap_args(&self, c: &mut Command, view: &View, slot: usize) {
        c.args(["--ro-bind", "/usr", "/usr"]);
        for link in ["bin", "lib", "lib64", "sbin"] {
            let host = Path::new("/").join(link);
            match std::fs::read_link(&host) {
                Ok(target) => {
                    c.arg("--symlink").arg(target).arg(&host);
                }
                Err(_) if host.is_dir() => {
                    c.arg("--ro-bind").arg(&host).arg(&host);
                }
                Err(_) => {}
            }
        }
        // The linker is found through Debian's alternatives; nothing else of /etc is
        // needed, and a made-up /etc must be readable by the sandbox's user.
        c.args(["--perms", "0755", "--dir", "/etc"]);
        c.args(["--ro-bind-try", "/etc/alternatives", "/etc/alternatives"]);
        c.args(["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]);
        c.args(["--ro-bind-try", "/etc/hosts", "/etc/hosts"]);
        c.args(["--proc", "/proc", "--dev", "/dev"]);
        view.add_mounts(c);
        // Nothing else is writable: bubblewrap's own root and /dev are in-memory file systems
        // of no fixed size, which a sandbox in a user namespace owns and could fill.
        c.args(["--remount-ro", "/dev", "--remount-ro", "/"]);
        c.arg("--chdir").arg(&view.cwd);
        c.args([
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
        ]);
        c.args(["--unshare-cgroup-try", "--hostname", "sandbox"]);
        if self.uids.is_none() {
            c.arg("--unshare-user");
        }
        c.args(["--die-with-parent", "--new-session", "--clearenv"]);
        for (key, value) in &view.env {
            c.arg("--setenv").arg(key).arg(value);
        }
        if let Some(uid) = self.uid(slot) {
            // Root's processes ignore RLIMIT_NPROC: drop to the slot's own user inside.
            let uid = uid.to_string();
            c.args(["--cap-add", "CAP_SETUID,CAP_SETGID", "/usr/bin/setpriv"]);
            c.arg(format!("--reuid={uid}"))
                .arg(format!("--regid={uid}"));
            c.args([
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--",
            ]);
        }
    }
}

/// `program` run directly, the view's paths and environment translated to the host's.
fn unconfined(view: &View, program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(view.on_host(program));
    c.args(args.iter().map(|a| view.on_host(a)));
    c.current_dir(view.on_host(&view.cwd));
    c.env_clear();
    for (key, value) in &view.env {
        // Values may be search paths (PATH): translate each entry.
        let entries: Vec<String> = value.split(':').map(|v| view.on_host(v)).collect();
        c.env(key, entries.join(":"));
    }
    c
}

/// Sets `limits` on what `command` starts, in the child before it executes (inherited by
/// bubblewrap, setpriv and the program), and the process limit when there is one.
fn set_limits(command: &mut Command, limits: Limits, processes: Option<u64>) {
    let rlimits = [
        (libc::RLIMIT_AS, limits.memory),
        (libc::RLIMIT_CPU, limits.cpu_seconds),
        (libc::RLIMIT_FSIZE, limits.file_size),
        (libc::RLIMIT_NOFILE, limits.open_files),
        (libc::RLIMIT_CORE, 0),
    ];
    // SAFETY: the closure only calls setrlimit, which is async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            for (resource, value) in rlimits {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if let Some(n) = processes {
                let limit = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                libc::setrlimit(libc::RLIMIT_NPROC, &limit);
            }
            Ok(())
        });
    }
}
