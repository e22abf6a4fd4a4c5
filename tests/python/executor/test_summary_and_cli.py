"""The summary's format, the command line, and the package started the way bpe-lab starts it."""

import json
import os
import subprocess
import sys
import types

import pytest

from bpe_lab_executor import cli, summary
from conftest import PACKAGE_PARENT

PACKAGE = os.path.join(PACKAGE_PARENT, "bpe_lab_executor")


def test_the_summary_has_the_fields_bpe_lab_reads():
    cells = [(0, {"id": "a"}), (3, {"id": None})]
    results = summary.new_results(cells)
    results[0].update(status="ok", seconds=1.234)
    summary.mark_not_run(results, "output limit")
    text = summary.dumps(summary.summary(
        notebook="in.ipynb", output="out.ipynb", kernel="rust", seconds=2.345,
        kernel_start_seconds=1.0, stopped="output limit", results=results, order=[0, 3],
    ))
    value = json.loads(text)
    assert value["seconds"] == 2.35 and value["stopped"] == "output limit"
    assert value["cells"] == [
        {"index": 0, "id": "a", "status": "ok", "seconds": 1.234},
        {"index": 3, "id": None, "status": "not_run", "seconds": 0.0, "reason": "output limit"},
    ]
    assert text.startswith("{\n"), "bpe-lab finds the summary at a line starting with {"


def test_a_run_that_did_not_stop_gives_no_reasons():
    results = summary.new_results([(1, {"id": "x"})])
    summary.mark_not_run(results, None)
    assert "reason" not in results[1]


def test_progress_lines_name_the_first_line_of_an_error():
    line = summary.progress_line(2, 5, {"status": "error", "seconds": 1.25, "error": "boom\nmore"})
    assert line == "cell 2/5 error 1.2 s: boom"
    assert summary.progress_line(1, 1, {"status": "timeout", "seconds": 3, "reason": "cell time limit"}) == (
        "cell 1/1 timeout 3.0 s: cell time limit"
    )


def test_bad_arguments_are_refused():
    with pytest.raises(SystemExit):
        cli.parse_args(["--input", "a", "--output", "b", "--output-limit", "0"])
    with pytest.raises(SystemExit):
        cli.parse_args(["--input", "a", "--output", "b", "--env", "novalue"])
    args = cli.parse_args(["--input", "a", "--output", "b", "--env", "K=v=w", "--output-limit", "9"])
    assert args.env == {"K": "v=w"} and args.output_limit == 9


def run_package(*args):
    return subprocess.run([sys.executable, PACKAGE, *args], capture_output=True, text=True, timeout=120)


def test_the_package_runs_as_a_folder_and_refuses_what_is_not_a_notebook(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text('{"cells": "no"}')
    done = run_package("--input", str(bad), "--output", str(tmp_path / "out.ipynb"))
    assert done.returncode == cli.EXIT_USAGE
    assert "not a notebook" in done.stderr
    assert done.stdout == ""


def test_kernel_tmp_preparation_writes_the_cargo_settings(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, PACKAGE, "--prepare-kernel-tmp", str(tmp_path / "k")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "k" / ".cargo" / "config.toml").is_file()


def test_the_output_cap_is_counted_as_messages_arrive():
    nbformat = pytest.importorskip("nbformat")
    from bpe_lab_executor.execute import Runner

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("println!(\"x\");")])
    args = types.SimpleNamespace(total_timeout=10.0, output_limit=100)
    runner = Runner(args, nb, "rust", ".")
    line = {"msg_type": "stream", "content": {"text": "x" * 60}}
    runner.count_output(line)
    assert not runner.flooded
    runner.count_output(line)
    assert runner.flooded and runner.output_bytes == 120
    unlimited = Runner(types.SimpleNamespace(total_timeout=10.0, output_limit=None), nb, "rust", ".")
    unlimited.count_output({"msg_type": "stream", "content": {"text": "x" * 10**6}})
    assert not unlimited.flooded
