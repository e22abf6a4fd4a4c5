"""A kernel that never becomes ready is killed and started again (execute.Runner.start_kernel),
with a stand-in kernel (fake_kernel.py) that hangs on its first starts."""

import json
import os
import subprocess
import sys

from conftest import PACKAGE_PARENT

HERE = os.path.dirname(os.path.abspath(__file__))


def run_executor(tmp_path, hang, attempts):
    spec = tmp_path / "jupyter" / "kernels" / "fake"
    spec.mkdir(parents=True)
    counter = tmp_path / "starts"
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, os.path.join(HERE, "fake_kernel.py"), "{connection_file}"],
        "display_name": "Fake", "language": "fake",
        "env": {"FAKE_KERNEL_COUNTER": str(counter), "FAKE_KERNEL_HANG": str(hang)},
    }))
    nb = tmp_path / "nb.ipynb"
    nb.write_text(json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": "markdown", "id": "a", "metadata": {}, "source": "no code"}],
    }))
    env = dict(os.environ, JUPYTER_PATH=str(tmp_path / "jupyter"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    run = subprocess.run(
        [sys.executable, os.path.join(PACKAGE_PARENT, "bpe_lab_executor"), "--input", str(nb),
         "--output", str(tmp_path / "out.ipynb"), "--kernel", "fake", "--startup-timeout", "2",
         "--start-attempts", str(attempts)],
        env=env, capture_output=True, text=True, timeout=120)
    pids = [int(line) for line in counter.read_text().split()] if counter.exists() else []
    return run, pids


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is gone for our purposes
        return f.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_kernel_that_never_answers_is_started_again(tmp_path):
    run, pids = run_executor(tmp_path, hang=1, attempts=3)
    assert run.returncode == 0, run.stderr
    assert len(pids) == 2, run.stderr
    assert "did not become ready" in run.stderr and "starting it again (2 of 3)" in run.stderr
    assert not any(alive(pid) for pid in pids)


def test_after_the_last_attempt_the_run_reports_the_kernel(tmp_path):
    run, pids = run_executor(tmp_path, hang=5, attempts=2)
    assert run.returncode == 3, run.stderr
    assert len(pids) == 2
    summary = json.loads(run.stdout)
    assert "did not become ready (2 starts)" in summary["stopped"]
    assert not any(alive(pid) for pid in pids)
