"""The watchdog's decisions, and the kernel's user-code process found on a fake /proc."""

import os
import signal
import subprocess
import sys
import time

from bpe_lab_executor import watchdog


def test_the_group_is_killed_unless_the_executor_said_done():
    assert watchdog.should_kill("1234\n", "") == 1234
    assert watchdog.should_kill("1234\n", "noise") == 1234
    assert watchdog.should_kill("1234\n", "done\n") is None
    # Never the whole machine or a made-up group.
    assert watchdog.should_kill("1\n", "") is None
    assert watchdog.should_kill("0\n", "") is None
    assert watchdog.should_kill("\n", "") is None
    assert watchdog.should_kill("not a number\n", "") is None


def test_the_parent_is_read_past_a_command_with_spaces_and_parentheses():
    assert watchdog.parent_of("42 (a (b) c) S 17 42 42 0 -1") == 17


def fake_process(proc, pid, ppid, argv, name="evcxr"):
    d = proc / str(pid)
    d.mkdir()
    (d / "stat").write_text(f"{pid} ({name}) S {ppid} {pid} {pid} 0 -1 0\n")
    (d / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")


def test_the_user_code_process_is_the_kernels_child_without_arguments(tmp_path):
    fake_process(tmp_path, 10, 1, ["/usr/bin/evcxr_jupyter", "--control_file", "x"])
    fake_process(tmp_path, 11, 10, ["/tmp/evcxr-xyz/evcxr"])  # user code
    fake_process(tmp_path, 12, 10, ["/rust/bin/cargo", "build"])
    fake_process(tmp_path, 13, 10, ["/tmp/evcxr-xyz/evcxr", "--rustc-wrapper"])
    fake_process(tmp_path, 14, 99, ["/tmp/evcxr-other/evcxr"])  # another kernel's
    (tmp_path / "self").mkdir()
    (tmp_path / "15").mkdir()  # gone while we looked
    assert watchdog.user_code_processes(10, proc=str(tmp_path)) == [11]


def run_watchdog(pgid, message):
    child = subprocess.Popen(
        [sys.executable, "-c", watchdog.WATCHDOG.format(parent=os.path.dirname(os.path.dirname(watchdog.__file__)))],
        stdin=subprocess.PIPE,
    )
    child.stdin.write(f"{pgid}\n{message}".encode())
    child.stdin.close()
    assert child.wait(timeout=30) == 0


def test_a_watchdog_kills_the_group_when_the_executor_goes_away():
    victim = subprocess.Popen(["sleep", "1000"], start_new_session=True)
    try:
        run_watchdog(victim.pid, "")
        assert victim.wait(timeout=10) == -signal.SIGKILL
    finally:
        victim.kill()
        victim.wait()


def test_a_watchdog_told_done_leaves_the_group_alone():
    victim = subprocess.Popen(["sleep", "1000"], start_new_session=True)
    try:
        run_watchdog(victim.pid, "done\n")
        time.sleep(0.2)
        assert victim.poll() is None
    finally:
        victim.kill()
        victim.wait()
