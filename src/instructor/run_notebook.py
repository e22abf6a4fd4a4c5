"""Execute a Jupyter notebook headless with its real kernel and report what each code cell did.

Usage:
    python run_notebook.py --input IN.ipynb --output OUT.ipynb [--kernel NAME] [--cwd DIR]
        [--cell-timeout S] [--total-timeout S] [--startup-timeout S] [--memory-mb MB]
        [--user-memory-mb MB] [--kernel-log PATH]
        [--env KEY=VALUE]...
    python run_notebook.py --prepare-kernel-tmp DIR

The second form only prepares DIR as the TMPDIR of kernels someone else starts (JupyterLab):
the cargo settings under "the kernel's build" below, and evcxr's cache fixed up.

The code cells of IN run in order in one kernel (NAME, else the notebook's
metadata.kernelspec.name, else "rust") started in DIR (default: IN's directory), so relative
paths such as `:dep bpe-lab = { path = ".." }` resolve against it. A cell that fails does not
stop the run. A cell that runs past --cell-timeout is interrupted (evcxr kills its user-code
subprocess and the kernel carries on); if the kernel does not answer the interrupt within
10 s, the run stops there. Past --total-timeout, or when the kernel dies, the remaining cells
are not run. OUT is written atomically with every output collected so far, whatever happened.

How evcxr's failures show: a compile error is an "error" output (ename "Error", evalue the
message) and an error reply; std::process::exit(n), an abort (out of memory) or the runner's
interrupt kill evcxr's user-code subprocess: an "error" output "Subprocess terminated with
status: ..." (variables are lost, later cells run in a new subprocess). A panic is caught by
evcxr, which prints it on stderr and replies "ok": the runner finds "thread '...' panicked at"
in the cell's stderr and reports the cell as an error ("panic: MESSAGE ...").

--memory-mb limits the kernel and all it starts (rust-analyzer inside the kernel, cargo, rustc),
so it must leave room for them; --user-memory-mb limits only the code of the cells.

stdout gets exactly one JSON object, at the end:
    {"notebook", "output", "kernel", "seconds", "kernel_start_seconds", "stopped": null | reason,
     "cells": [{"index", "id", "status": "ok" | "error" | "timeout" | "not_run", "seconds",
                "error"?, "reason"?}]}
Progress goes to stderr.

Exit codes: 0 the notebook ran (whatever its cells did); 2 bad usage, or IN unreadable or not a
notebook; 3 the kernel could not be started (the JSON object is still printed, every cell
not_run); 130 / 143 stopped by SIGINT / SIGTERM (OUT and the JSON object are still written).

This file is embedded in the bpe-lab binary and may be run as `python -c SOURCE ARGS`: it does
not rely on __file__. It needs nbclient, nbformat and jupyter_client (scripts/python-requirements.txt).
"""

import argparse
import asyncio
import json
import os
import queue
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import warnings

EXIT_USAGE = 2
EXIT_KERNEL = 3
INTERRUPT_GRACE_SECONDS = 10.0
IOPUB_DRAIN_SECONDS = 10.0
SHUTDOWN_GRACE_SECONDS = 10.0
LATE_OUTPUT_SECONDS = float(os.environ.get("RUN_NOTEBOOK_LATE_OUTPUT_SECONDS", "0.3"))
DEBUG = bool(os.environ.get("RUN_NOTEBOOK_DEBUG"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


class Usage(Exception):
    """Bad arguments or an unreadable notebook: exit 2 with this message."""


class Stop(Exception):
    """A signal asked the runner to stop."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def log(message):
    print(message, file=sys.stderr, flush=True)


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="run_notebook.py",
        description="Execute a notebook with its kernel; print a JSON summary of its cells.",
    )
    parser.add_argument("--input", required=True, help="the notebook to run")
    parser.add_argument("--output", required=True, help="where to write the executed notebook")
    parser.add_argument("--kernel", help='kernel name (default: the notebook\'s, else "rust")')
    parser.add_argument("--cwd", help="the kernel's working directory (default: IN's directory)")
    parser.add_argument("--cell-timeout", type=float, default=300.0, metavar="SECONDS")
    parser.add_argument("--total-timeout", type=float, default=3600.0, metavar="SECONDS")
    parser.add_argument("--startup-timeout", type=float, default=120.0, metavar="SECONDS")
    parser.add_argument(
        "--memory-mb", type=int, metavar="MB",
        help="address-space limit (RLIMIT_AS) of the kernel and everything it starts",
    )
    parser.add_argument(
        "--user-memory-mb", type=int, metavar="MB",
        help="address-space limit (RLIMIT_AS) of evcxr's user-code subprocess only, set with "
        "prlimit before each cell (Linux); the kernel, cargo and rustc stay unlimited",
    )
    parser.add_argument(
        "--kernel-log", metavar="PATH",
        help="keep the kernel's own stdout and stderr (cargo's progress, evcxr's messages) in "
        "PATH; by default they are dropped, but their last lines are shown if the kernel dies",
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE",
        help="add to the kernel's environment (repeatable)",
    )
    args = parser.parse_args(argv)
    for name in ("cell_timeout", "total_timeout", "startup_timeout"):
        if not getattr(args, name) > 0:
            parser.error(f"--{name.replace('_', '-')} must be a positive number of seconds")
    for name in ("memory_mb", "user_memory_mb"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            parser.error(f"--{name.replace('_', '-')} must be a positive number of megabytes")
    if args.user_memory_mb is not None and not hasattr(resource, "prlimit"):
        parser.error("--user-memory-mb needs Linux (resource.prlimit)")
    env = {}
    for item in args.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--env expects KEY=VALUE, got {item!r}")
        env[key] = value
    args.env = env
    if args.cwd is not None and not os.path.isdir(args.cwd):
        parser.error(f"--cwd {args.cwd}: not a directory")
    return args


def load_notebook(path):
    import nbformat

    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise Usage(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Usage(f"{path}: not UTF-8 text: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise Usage(f"{path}: not JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise Usage(f"{path}: not a notebook (no 'cells' list)")
    if data.get("nbformat") != 4:
        raise Usage(f"{path}: not a version 4 notebook (nbformat is {data.get('nbformat')!r})")
    try:
        with warnings.catch_warnings():
            # Cells without ids (nbformat < 4.5) are fine here; report them with "id": null.
            warnings.simplefilter("ignore")
            # reads() also joins sources and outputs stored as lists of lines, as on disk.
            nb = nbformat.reads(text, as_version=4)
            nbformat.validate(nb)
    except nbformat.ValidationError as e:
        first = str(e.message if hasattr(e, "message") else e).splitlines()[0]
        where = "/".join(str(p) for p in getattr(e, "absolute_path", []) or [])
        raise Usage(f"{path}: not a valid notebook: {first}" + (f" (at {where})" if where else "")) from None
    return nb


def kernel_specs():
    from jupyter_client.kernelspec import KernelSpecManager

    try:
        return KernelSpecManager().find_kernel_specs()
    except Exception:  # noqa: BLE001 - only used for a message
        return {}


def check_kernel(name):
    """The kernelspec of `name`, or raise with a message saying which kernelspecs exist."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        return KernelSpecManager().get_kernel_spec(name)
    except NoSuchKernel:
        specs = kernel_specs()
        have = ", ".join(f"{k} ({v})" for k, v in sorted(specs.items())) or "none"
        hint = ' (`evcxr_jupyter --install` installs the "rust" kernel)' if name == "rust" else (
            ' (`evcxr_jupyter --install` installs "rust")'
        )
        raise RuntimeError(f"no such kernelspec: {name!r}{hint}; kernelspecs found: {have}") from None


def short_error(ename, evalue, traceback, limit_lines=6, limit_chars=1200):
    lines = []
    head = ": ".join(x for x in (ename, evalue) if x)
    if head:
        lines.extend(ANSI.sub("", head).splitlines()[:limit_lines])
    seen = {line.strip() for line in lines} | {ANSI.sub("", evalue or "").strip()}
    for entry in traceback or []:
        for line in ANSI.sub("", entry).splitlines():
            if line.strip() and line.strip() not in seen:
                seen.add(line.strip())
                lines.append(line)
            if len(lines) >= limit_lines:
                break
        if len(lines) >= limit_lines:
            break
    text = "\n".join(lines).strip()
    return text[:limit_chars] + ("..." if len(text) > limit_chars else "")


PANIC = re.compile(r"thread '([^']*)'(?: \(\d+\))? panicked at ([^\n]*?):?\n([^\n]*)")


def find_panic(cell):
    """A short description of the first Rust panic reported on the cell's stderr, or None."""
    m = PANIC.search(stderr_text(cell))
    if not m:
        return None
    return f"panic: {m.group(3).strip()}\n(thread '{m.group(1)}' panicked at {m.group(2)})"


OOM = re.compile(r"memory allocation of \d+ bytes failed")


def find_oom(cell):
    """Rust's out-of-memory abort message on the cell's stderr, or None."""
    m = OOM.search(stderr_text(cell))
    return m.group(0) + " (out of memory)" if m else None


def stderr_text(cell):
    return ANSI.sub("", "".join(o.get("text", "") for o in cell.outputs
                                if o.get("output_type") == "stream" and o.get("name") == "stderr"))


def coalesce_streams(cell):
    """Merge consecutive stream outputs of the same name: evcxr sends one message per line."""
    merged = []
    for output in cell.outputs:
        if (output.get("output_type") == "stream" and merged
                and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == output.get("name")):
            merged[-1]["text"] += output["text"]
        else:
            merged.append(output)
    cell.outputs = merged


def set_limits(memory_mb):
    """The kernel's preexec_fn: memory limit, and die with the runner (Linux)."""

    def preexec():
        if memory_mb is not None:
            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                PR_SET_PDEATHSIG = 1
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            except Exception:  # noqa: BLE001 - best effort
                pass

    return preexec


def user_code_processes(kernel_pid):
    """evcxr's user-code subprocesses: children of the kernel started with no arguments (cargo,
    rustc and evcxr's rustc wrapper always have some)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid != kernel_pid:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        argv = [a for a in argv if a]
        if len(argv) == 1 and os.path.basename(argv[0]).startswith(b"evcxr"):
            found.append(int(entry))
    return found


# A separate process, in its own session, that SIGKILLs the kernel's process group when the
# runner goes away without cleaning up (SIGKILL, a crash): evcxr's user-code subprocess outlives
# the kernel otherwise (a `loop {}` would spin on). The runner says "done" when it has cleaned up.
WATCHDOG = r"""
import os, signal, sys
pgid = int(sys.stdin.readline() or 0)
rest = sys.stdin.read()
if pgid > 1 and "done" not in rest:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
"""


def start_watchdog(pgid):
    import subprocess

    try:
        watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        watchdog.stdin.write(f"{pgid}\n".encode())
        watchdog.stdin.flush()
        return watchdog
    except OSError as e:
        log(f"warning: no watchdog for the kernel: {e}")
        return None


# -- the kernel's build: what makes a new kernel reuse the last one's work ------------------------

# Cargo configuration for the kernel's builds, written to <kernel TMPDIR>/.cargo/config.toml
# (cargo looks for it from evcxr's build folder upwards). evcxr's `:cache` keeps compiled crates
# keyed by rustc's command line but skips incremental builds, and cargo builds every path
# dependency incrementally: without this, bpe-lab was compiled again in every new kernel. With
# incremental compilation off for bpe-lab, and BPE_LAB_KERNEL_CACHE telling bpe-lab's build.rs to
# put a digest of its sources on that command line, the cache reuses bpe-lab exactly when its
# sources are unchanged. `scripts/lab open` gives JupyterLab's kernels the same file.
KERNEL_CARGO_CONFIG = """\
# Written by bpe-lab (src/instructor/run_notebook.py) for the lab's evcxr kernels.
[profile.dev.package.bpe-lab]
incremental = false

[env]
BPE_LAB_KERNEL_CACHE = "1"
"""


def write_kernel_cargo_config(tmpdir):
    os.makedirs(os.path.join(tmpdir, ".cargo"), exist_ok=True)
    with open(os.path.join(tmpdir, ".cargo", "config.toml"), "w", encoding="utf-8") as f:
        f.write(KERNEL_CARGO_CONFIG)


def evcxr_cache_dir(env):
    """Where evcxr keeps its `:cache` (Rust's dirs::cache_dir() + "evcxr")."""
    if sys.platform == "darwin":
        return os.path.join(env.get("HOME") or os.path.expanduser("~"), "Library", "Caches", "evcxr")
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return os.path.join(base, "evcxr")


def forget_old_build_folders(cache_dir):
    """Drop, from the dependency lists evcxr cached, files in the build folder of the kernel that
    compiled them; returns how many lists changed.

    A crate that includes a file its build script generated (serde_core, rustversion) lists that
    file, under the compiling kernel's own temporary build folder, in its dep-info. On a cache
    hit evcxr hands cargo that list unchanged; the folder is gone, so cargo finds the crate stale
    at every later cell and rebuilds it and everything above it (polars, reqwest, bpe-lab): 2-3 s
    per one-line cell. Those generated files are rebuilt by every kernel from the same registry
    sources, so forgetting them loses nothing cargo needs. Safe to run while kernels use the
    cache: each file is replaced atomically, and a list that was already fixed is left alone.
    """
    changed = 0
    try:
        entries = os.listdir(cache_dir)
    except OSError:
        return 0
    for entry in entries:
        folder = os.path.join(cache_dir, entry)
        try:
            artifacts = open(os.path.join(folder, "stderr"), encoding="utf-8").read()
        except OSError:
            continue
        for line in artifacts.splitlines():
            try:
                artifact = json.loads(line)
            except ValueError:
                continue
            if artifact.get("emit") != "dep-info" or "/target/" not in artifact.get("artifact", ""):
                continue
            old_build = artifact["artifact"].split("/target/", 1)[0] + "/target/"
            path = os.path.join(folder, os.path.basename(artifact["artifact"]))
            changed += rewrite_dep_info(path, old_build)
    return changed


def rewrite_dep_info(path, old_build):
    try:
        text = open(path, encoding="utf-8").read()
    except (OSError, UnicodeDecodeError):
        return 0
    if "\\ " in text:  # escaped spaces: paths cannot be split on spaces; leave it as it is
        return 0
    lines = []
    for line in text.split("\n"):
        if line.startswith("#"):
            lines.append(line)
        elif line.endswith(":") and line[:-1].startswith(old_build):
            continue  # the empty rule make needs for a dependency we drop
        elif ": " in line:
            target, _, deps = line.partition(": ")
            kept = [d for d in deps.split(" ") if d and not d.startswith(old_build)]
            lines.append(target + ":" + "".join(" " + d for d in kept))
        else:
            lines.append(line)
    new = "\n".join(lines)
    if new == text:
        return 0
    fd, tmp = tempfile.mkstemp(prefix=".bpe-lab-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(new)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        return 0
    return 1


def write_atomically(nb, path):
    import nbformat

    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    text = nbformat.writes(nb)
    fd, tmp = tempfile.mkstemp(prefix=".run_notebook-", suffix=".ipynb.tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if not text.endswith("\n"):
                f.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Runner:
    def __init__(self, args, nb, kernel_name, cwd):
        self.args = args
        self.nb = nb
        self.kernel_name = kernel_name
        self.cwd = cwd
        self.km = None
        self.kc = None
        self.pgid = None
        self.watchdog = None
        self.kernel_log = None
        self.kernel_tmp = None
        self.evcxr_cache = None
        self.client = None
        self.stopped = None
        self.kernel_start_seconds = None
        self.current = None
        self.started = time.monotonic()
        self.deadline = self.started + args.total_timeout
        self.code_cells = [
            (index, cell) for index, cell in enumerate(nb.cells) if cell.get("cell_type") == "code"
        ]
        self.results = {
            index: {"index": index, "id": cell.get("id"), "status": "not_run", "seconds": 0.0}
            for index, cell in self.code_cells
        }
        for _, cell in self.code_cells:
            cell.outputs = []
            cell.execution_count = None

    # -- kernel ---------------------------------------------------------------------------

    async def start_kernel(self):
        from jupyter_client.manager import AsyncKernelManager
        from nbclient import NotebookClient

        check_kernel(self.kernel_name)
        env = dict(os.environ)
        env.update(self.args.env)
        # evcxr builds in a folder under TMPDIR (about 900 MB with the crate) and leaves it
        # behind when its kernel is stopped: give it one of ours and remove it at shutdown.
        self.kernel_tmp = tempfile.mkdtemp(prefix="run_notebook-kernel-")
        env["TMPDIR"] = self.kernel_tmp
        write_kernel_cargo_config(self.kernel_tmp)
        self.evcxr_cache = evcxr_cache_dir(env)
        forget_old_build_folders(self.evcxr_cache)
        t0 = time.monotonic()
        self.km = AsyncKernelManager(kernel_name=self.kernel_name)
        # The kernel's own output (cargo's "Compiling ..." lines among it) goes to a log, not to
        # our stdout, which carries only the JSON summary.
        if self.args.kernel_log:
            self.kernel_log = open(self.args.kernel_log, "w+b")
        else:
            self.kernel_log = tempfile.TemporaryFile(prefix="run_notebook-kernel-")
        await self.km.start_kernel(
            cwd=self.cwd, env=env, preexec_fn=set_limits(self.args.memory_mb),
            stdout=self.kernel_log.fileno(), stderr=self.kernel_log.fileno(),
        )
        self.pgid = getattr(self.km.provisioner, "pgid", None)
        if self.pgid and self.pgid != os.getpgrp():
            self.watchdog = start_watchdog(self.pgid)
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            await self.kc.wait_for_ready(timeout=self.args.startup_timeout)
        except RuntimeError as e:
            raise RuntimeError(f"kernel {self.kernel_name!r} did not become ready: {e}") from None
        self.kc.allow_stdin = False
        self.kernel_start_seconds = round(time.monotonic() - t0, 2)
        # nbclient turns IOPub messages into notebook outputs (streams, display data, errors,
        # clear_output, update_display_data) exactly as `jupyter nbconvert --execute` does.
        self.client = NotebookClient(self.nb, km=self.km, kernel_name=self.kernel_name)
        self.client.kc = self.kc
        log(f"kernel {self.kernel_name} started in {self.kernel_start_seconds:.1f} s "
            f"(pid {self.km.provisioner.pid}, cwd {self.cwd})")

    def show_kernel_log(self, lines=15):
        """The last lines the kernel printed, to stderr: why it died or did not start."""
        if self.kernel_log is None:
            return
        try:
            self.kernel_log.flush()
            self.kernel_log.seek(0)
            tail = self.kernel_log.read().decode("utf-8", "replace").splitlines()
        except (OSError, ValueError):
            return
        tail = [line for line in tail if not line.lstrip().startswith("Compiling ")][-lines:]
        if tail:
            log("the kernel's last output:\n  " + "\n  ".join(tail))

    async def kernel_alive(self):
        try:
            return bool(await self.km.is_alive())
        except Exception:  # noqa: BLE001
            return False

    async def exit_code(self):
        process = getattr(self.km.provisioner, "process", None) if self.km else None
        return process.poll() if process is not None else None

    async def shutdown(self):
        """Ask the kernel to shut down, then make sure it and its children are gone."""
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:  # noqa: BLE001
                pass
        if self.km is not None and self.km.has_kernel:
            try:
                await asyncio.wait_for(self.km.shutdown_kernel(now=False), SHUTDOWN_GRACE_SECONDS + 5)
            except BaseException:  # noqa: BLE001 - fall back to killing below
                pass
        self.kill_group()
        if self.kernel_tmp is not None:
            shutil.rmtree(self.kernel_tmp, ignore_errors=True)
            self.kernel_tmp = None
        if self.evcxr_cache is not None:
            # What this kernel added to the cache, fixed before the next kernel uses it.
            forget_old_build_folders(self.evcxr_cache)

    def kill_group(self):
        """SIGKILL what is left of the kernel's process group (evcxr's subprocess, cargo, rustc)."""
        provisioner = getattr(self.km, "provisioner", None)
        process = getattr(provisioner, "process", None)
        # The kernel leads its own session and process group (jupyter_client starts it with
        # start_new_session), so its group id is its pid.
        pgid = self.pgid or getattr(provisioner, "pgid", None) or getattr(process, "pid", None)
        if process is not None and process.poll() is None:
            try:
                process.kill()
            except OSError:
                pass
        if pgid and pgid != os.getpgrp():
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
        if process is not None:
            try:
                process.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
        if self.watchdog is not None:
            try:
                self.watchdog.stdin.write(b"done\n")
                self.watchdog.stdin.close()
                self.watchdog.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
            self.watchdog = None

    # -- cells ----------------------------------------------------------------------------

    async def poll_iopub(self, msg_id, cell, index):
        """Turn the cell's IOPub messages into outputs until the kernel goes idle, then keep
        listening for LATE_OUTPUT_SECONDS: evcxr relays its subprocess's stdout and stderr from
        another thread, so a line printed just before the cell ended can arrive after idle (it
        would otherwise be sent with the next cell's header)."""
        from nbclient.exceptions import CellExecutionComplete

        idle_at = None
        while True:
            if idle_at is None:
                msg = await self.kc.iopub_channel.get_msg(timeout=None)
            else:
                remaining = idle_at + LATE_OUTPUT_SECONDS - time.monotonic()
                if remaining <= 0:
                    return
                try:
                    msg = await self.kc.iopub_channel.get_msg(timeout=remaining)
                except queue.Empty:
                    return
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if idle_at is not None and DEBUG:
                log(f"debug: late {msg['msg_type']} {time.monotonic() - idle_at:.3f} s after idle")
            try:
                self.client.process_message(msg, cell, index)
            except CellExecutionComplete:
                idle_at = time.monotonic()

    async def wait_reply(self, msg_id, until):
        """The execute_reply of msg_id; None at `until`; raises DeadKernel when the kernel dies."""
        while True:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return None
            try:
                msg = await self.kc.shell_channel.get_msg(timeout=min(1.0, remaining))
            except queue.Empty:
                if not await self.kernel_alive():
                    raise DeadKernel() from None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    def limit_user_code(self):
        """--user-memory-mb: evcxr restarts its subprocess after a crash or an interrupt, so the
        limit is (re)applied to whatever subprocess is there before each cell."""
        if self.args.user_memory_mb is None:
            return
        limit = self.args.user_memory_mb * 1024 * 1024
        pids = user_code_processes(self.km.provisioner.pid)
        for pid in pids:
            try:
                resource.prlimit(pid, resource.RLIMIT_AS, (limit, limit))
            except OSError as e:
                log(f"warning: cannot limit the memory of process {pid}: {e}")
        if not pids and DEBUG:
            log("debug: no user-code subprocess found to limit")

    async def run_cell(self, index, cell):
        result = self.results[index]
        if not cell.source.strip():
            result.update(status="ok", reason="empty cell, not sent to the kernel")
            return
        self.limit_user_code()
        cell.metadata["execution"] = {}
        self.client.clear_before_next_output = False
        t0 = time.monotonic()
        limit_by_total = t0 + self.args.cell_timeout > self.deadline
        until = min(t0 + self.args.cell_timeout, self.deadline)
        msg_id = self.kc.execute(cell.source, store_history=True, allow_stdin=False, stop_on_error=False)
        iopub = asyncio.ensure_future(self.poll_iopub(msg_id, cell, index))
        try:
            try:
                reply = await self.wait_reply(msg_id, until)
            except DeadKernel:
                from nbformat.v4 import new_output

                code = await self.exit_code()
                self.show_kernel_log()
                result.update(
                    status="error",
                    error=f"the kernel died while running this cell (exit code {code})",
                )
                cell.outputs.append(new_output(
                    "error", ename="KernelDied", evalue=result["error"], traceback=[]))
                self.stopped = f"the kernel died (exit code {code})"
                return
            if reply is None:
                await self.handle_timeout(index, cell, msg_id, limit_by_total, result)
                await self.drain(iopub, 2.0)
                return
            result["seconds"] = round(time.monotonic() - t0, 2)
            await self.drain(iopub, IOPUB_DRAIN_SECONDS + LATE_OUTPUT_SECONDS)
            self.record(cell, reply, result)
        finally:
            coalesce_streams(cell)
            if not result["seconds"]:
                result["seconds"] = round(time.monotonic() - t0, 2)
            if not iopub.done():
                iopub.cancel()

    async def drain(self, iopub, seconds):
        try:
            await asyncio.wait_for(asyncio.shield(iopub), seconds)
        except asyncio.TimeoutError:
            pass
        except Exception as e:  # noqa: BLE001
            log(f"warning: reading the cell's outputs failed: {e!r}")

    async def handle_timeout(self, index, cell, msg_id, limit_by_total, result):
        from nbformat.v4 import new_output

        if limit_by_total:
            why = f"total time limit ({self.args.total_timeout:g} s) reached while this cell ran"
        else:
            why = f"cell time limit ({self.args.cell_timeout:g} s) exceeded"
        result.update(status="timeout", reason=why)
        try:
            await self.km.interrupt_kernel()
        except Exception as e:  # noqa: BLE001
            log(f"warning: interrupting the kernel failed: {e!r}")
        try:
            reply = await self.wait_reply(msg_id, time.monotonic() + INTERRUPT_GRACE_SECONDS)
        except DeadKernel:
            reply = None
        cell.outputs.append(
            new_output("error", ename="Timeout", evalue=f"{why}; the notebook runner interrupted it",
                       traceback=[])
        )
        if limit_by_total:
            self.stopped = "total time limit"
        elif reply is None:
            self.stopped = "kernel stopped after a timeout"

    def record(self, cell, reply, result):
        content = reply.get("content", {})
        coalesce_streams(cell)
        errors = [o for o in cell.outputs if o.get("output_type") == "error"]
        panic = find_panic(cell)
        if errors:
            e = errors[0]
            text = short_error(e.get("ename"), e.get("evalue"), e.get("traceback"))
            # "Subprocess terminated with status: signal: 6 (SIGABRT)" says little by itself:
            # add what the user code printed on its way down.
            hints = [h for h in (panic, find_oom(cell)) if h]
            result.update(status="error", error="\n".join([text] + hints))
        elif content.get("status") == "error":
            result.update(
                status="error",
                error=short_error(content.get("ename"), content.get("evalue"), content.get("traceback"))
                or "the kernel replied with status error",
            )
        elif panic:
            # evcxr catches a panic in user code (catch_unwind), prints the panic message and
            # backtrace on stderr and replies "ok": the panic is only visible in stderr.
            result.update(status="error", error=panic)
        elif content.get("status") == "aborted":
            result.update(status="error", error="the kernel aborted this cell")
        else:
            result["status"] = "ok"
        if "execution_count" in content and content["execution_count"] is not None:
            cell.execution_count = content["execution_count"]

    async def run(self):
        total = len(self.code_cells)
        for number, (index, cell) in enumerate(self.code_cells, 1):
            if self.stopped is None and time.monotonic() >= self.deadline:
                self.stopped = "total time limit"
            if self.stopped is not None:
                break
            self.current = index
            await self.run_cell(index, cell)
            result = self.results[index]
            detail = ""
            if result.get("error"):
                detail = ": " + result["error"].splitlines()[0][:160]
            elif result.get("reason") and result["status"] != "ok":
                detail = ": " + result["reason"]
            log(f"cell {number}/{total} {result['status']} {result['seconds']:.1f} s{detail}")
            self.current = None
        self.mark_not_run()

    def mark_not_run(self):
        if self.stopped is None:
            return
        for result in self.results.values():
            if result["status"] == "not_run" and "reason" not in result:
                result["reason"] = self.stopped

    def summary(self, input_path, output_path):
        return {
            "notebook": input_path,
            "output": output_path,
            "kernel": self.kernel_name,
            "seconds": round(time.monotonic() - self.started, 2),
            "kernel_start_seconds": self.kernel_start_seconds,
            "stopped": self.stopped,
            "cells": [self.results[index] for index, _ in self.code_cells],
        }


class DeadKernel(Exception):
    pass


async def main_async(runner):
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    received = []

    def on_signal(signum):
        if not received:
            received.append(signum)
            task.cancel()

    handled = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    for sig in handled:
        loop.add_signal_handler(sig, on_signal, sig)
    code = 0
    try:
        try:
            await runner.start_kernel()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001
            runner.show_kernel_log()
            runner.stopped = "kernel could not be started"
            runner.mark_not_run()
            runner.stopped = f"kernel could not be started: {e}"
            log(f"{runner.args.input}: {runner.stopped}")
            return EXIT_KERNEL
        await runner.run()
    except asyncio.CancelledError:
        if not received:
            raise
        name = signal.Signals(received[0]).name
        runner.stopped = f"runner stopped by {name}"
        if runner.current is not None:
            runner.results[runner.current].update(status="not_run", reason=f"stopped by {name} while running")
        runner.mark_not_run()
        code = 128 + received[0]
    finally:
        # The kernel's process group is SIGKILLed at the end of shutdown() whatever happens.
        try:
            await runner.shutdown()
        except BaseException:  # noqa: BLE001
            runner.kill_group()
        for sig in handled:
            loop.remove_signal_handler(sig)
    return code


def prepare_kernel_tmp(tmpdir):
    """For kernels started by someone else (JupyterLab from `scripts/lab open`, Binder): the
    same build set-up as ours, in the TMPDIR they will be given."""
    write_kernel_cargo_config(tmpdir)
    fixed = forget_old_build_folders(evcxr_cache_dir(os.environ))
    log(f"{tmpdir}: kernel build settings written; {fixed} cached dependency lists fixed")
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == "--prepare-kernel-tmp":
        return prepare_kernel_tmp(argv[1])
    try:
        args = parse_args(argv)
        nb = load_notebook(args.input)
    except Usage as e:
        log(str(e))
        return EXIT_USAGE
    kernel_name = args.kernel or (nb.metadata.get("kernelspec") or {}).get("name") or "rust"
    cwd = os.path.abspath(args.cwd) if args.cwd else os.path.dirname(os.path.abspath(args.input))
    runner = Runner(args, nb, kernel_name, cwd)
    code = 1
    try:
        code = asyncio.run(main_async(runner))
    except BaseException as e:  # noqa: BLE001 - report, kill, write what we have
        import traceback

        traceback.print_exc()
        runner.kill_group()
        runner.stopped = f"runner error: {e!r}"
        runner.mark_not_run()
        code = 130 if isinstance(e, KeyboardInterrupt) else 1
    if runner.kernel_tmp is not None:
        shutil.rmtree(runner.kernel_tmp, ignore_errors=True)
    if code != EXIT_KERNEL:
        try:
            write_atomically(nb, args.output)
        except OSError as e:
            log(f"{args.output}: cannot write: {e}")
            runner.stopped = (runner.stopped + "; " if runner.stopped else "") + f"output not written: {e}"
    print(json.dumps(runner.summary(args.input, args.output), indent=1), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
