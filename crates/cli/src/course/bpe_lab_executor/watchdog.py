"""Keeping the kernel on a leash: its limits (set in the child before it executes), evcxr's
user-code subprocess found and limited before each cell, and a watchdog process that kills
the kernel's process group when the executor goes away without cleaning up (SIGKILL, a
crash) — evcxr's user-code subprocess outlives the kernel otherwise (a `loop {}` would spin
on). The executor tells the watchdog "done" when it has cleaned up."""

import os
import resource
import signal
import subprocess
import sys


def log(message):
    print(message, file=sys.stderr, flush=True)


def set_limits(memory_mb):
    """The kernel's preexec_fn: memory limit, and die with the executor (Linux)."""

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


def parent_of(stat_text):
    """The parent pid in the text of /proc/PID/stat (the command may hold spaces and ')')."""
    return int(stat_text.rsplit(")", 1)[1].split()[1])


def user_code_processes(kernel_pid, proc="/proc"):
    """evcxr's user-code subprocesses: children of the kernel started with no arguments (cargo,
    rustc and evcxr's rustc wrapper always have some)."""
    found = []
    for entry in os.listdir(proc):
        if not entry.isdigit():
            continue
        try:
            with open(os.path.join(proc, entry, "stat"), "rb") as f:
                stat = f.read().decode("utf-8", "replace")
            if parent_of(stat) != kernel_pid:
                continue
            with open(os.path.join(proc, entry, "cmdline"), "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        argv = [a for a in argv if a]
        if len(argv) == 1 and os.path.basename(argv[0]).startswith(b"evcxr"):
            found.append(int(entry))
    return sorted(found)


def should_kill(first_line, rest):
    """The watchdog's decision from what the executor wrote to it: the group to kill (the first
    line), unless the executor said "done" before its end of the pipe closed. None: nothing."""
    try:
        pgid = int(first_line.strip() or 0)
    except ValueError:
        return None
    if pgid <= 1 or "done" in rest:
        return None
    return pgid


def watch(stdin):
    """The watchdog process's body: wait for the executor's pipe to close, then decide."""
    first = stdin.readline()
    rest = stdin.read()
    pgid = should_kill(first, rest)
    if pgid is not None:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass


# Run with `python -c`: the package may not be importable by the watchdog's own sys.path.
WATCHDOG = (
    "import sys; sys.path.insert(0, {parent!r}); "
    "from bpe_lab_executor.watchdog import watch; watch(sys.stdin)"
)


def start_watchdog(pgid):
    """Starts the watchdog for process group `pgid`, in a session of its own."""
    parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG.format(parent=parent)], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        watchdog.stdin.write(f"{pgid}\n".encode())
        watchdog.stdin.flush()
        return watchdog
    except OSError as e:
        log(f"warning: no watchdog for the kernel: {e}")
        return None


def stand_down(watchdog):
    """Tells the watchdog the executor cleaned up, and reaps it."""
    if watchdog is None:
        return
    try:
        watchdog.stdin.write(b"done\n")
        watchdog.stdin.close()
        watchdog.wait(timeout=5)
    except Exception:  # noqa: BLE001
        pass
