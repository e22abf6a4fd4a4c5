"""What a student waits for, measured with the real kernel (run by scripts/bench/waits.sh).

Each run starts a fresh kernel, as opening a notebook does, on whatever evcxr cache the machine
has (scripts/lab setup warms it), and executes a short notebook made of the lab's own cells:

    setup       the first cell of every notebook (:cache, :opt, :dep bpe-lab)
    use         the `use` lines of notebook 00
    one line    `1 + 1`, `answer`, `let doubled = answer * 2;`, `doubled` (their median)
    first let   `let answer = 6 * 7;`: the first cell that binds a variable, where evcxr loads
                its rust-analyzer workspace, once per kernel
    dataset     notebook 00's cell that loads Africa Galore
    after data  one line that reads the loaded frame

Then it runs one real student notebook top to bottom (03-merge by default) in a fresh kernel.
Times come from the notebook runner (src/instructor/bpe_lab_executor): kernel start until the
kernel answers, then each cell from request to reply. The kernel's own log (cargo's
"Compiling ..." lines) is kept per run, and the number of crates cargo compiled or took from
evcxr's cache after the setup cell is reported: it should be zero for a one-line cell.

Usage: python waits.py [--runs N] [--notebook notebooks/03-merge.ipynb] [--out DIR]
Prints a Markdown table; exits 1 if any cell failed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "src", "instructor", "bpe_lab_executor")


def code_cells(path):
    nb = json.load(open(path, encoding="utf-8"))
    return nb, ["".join(c["source"]) for c in nb["cells"] if c.get("cell_type") == "code"]


def probe_notebook(welcome):
    nb, cells = code_cells(welcome)
    setup, uses = cells[0], cells[1]
    dataset = next(c for c in cells if "africa_galore()" in c)
    sources = [
        ("setup", setup),
        ("use", uses),
        ("one line", "1 + 1"),
        # evcxr loads its rust-analyzer workspace at the first cell that binds a variable.
        ("first let", "let answer = 6 * 7;"),
        ("one line", "answer"),
        ("one line", "let doubled = answer * 2;"),
        ("one line", "doubled"),
        ("dataset", dataset),
        ("after data", "data.frame.height()"),
    ]
    cells = [
        {"cell_type": "code", "id": f"w{i}", "metadata": {}, "execution_count": None,
         "outputs": [], "source": source}
        for i, (_, source) in enumerate(sources)
    ]
    probe = {"nbformat": 4, "nbformat_minor": 5, "metadata": nb["metadata"], "cells": cells}
    return probe, [label for label, _ in sources]


def run(notebook, out_dir, name):
    output = os.path.join(out_dir, name + ".ipynb")
    log = os.path.join(out_dir, name + ".kernel.log")
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, RUNNER, "--input", notebook, "--output", output,
         "--cwd", os.path.join(ROOT, "notebooks"), "--kernel-log", log],
        stdout=subprocess.PIPE, check=False,
    )
    wall = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"{notebook}: the runner exited {proc.returncode}")
    summary = json.loads(proc.stdout)
    summary["wall"] = wall
    json.dump(summary, open(os.path.join(out_dir, name + ".json"), "w"), indent=1)
    summary["log"] = log
    return summary


def compiled_after_setup(log_path):
    """Crates cargo built (or took from evcxr's cache) after the first cell's build."""
    text = open(log_path, encoding="utf-8", errors="replace").read()
    builds = text.split("Finished")
    return sum(part.count("Compiling ") for part in builds[1:])


def median(values):
    return statistics.median(values) if values else float("nan")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--notebook", default=os.path.join(ROOT, "notebooks", "03-merge.ipynb"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "bench", "waits"))
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)

    probe, labels = probe_notebook(os.path.join(ROOT, "notebooks", "00-welcome.ipynb"))
    probe_path = os.path.join(args.out, "probe.ipynb")
    json.dump(probe, open(probe_path, "w", encoding="utf-8"), indent=1)

    rows = {key: [] for key in
            ("kernel start", "setup", "use", "one line", "first let", "dataset", "after data")}
    later_crates, failed = [], []
    for i in range(args.runs):
        s = run(probe_path, args.out, f"probe-{i}")
        rows["kernel start"].append(s["kernel_start_seconds"])
        one_line = []
        for label, cell in zip(labels, s["cells"]):
            if cell["status"] != "ok":
                failed.append(f"probe run {i}, {label}: {cell['status']} {cell.get('error', '')}")
            (one_line if label == "one line" else rows[label]).append(cell["seconds"])
        rows["one line"].append(median(one_line))
        later_crates.append(compiled_after_setup(s["log"]))
        print(f"probe run {i + 1}/{args.runs}: setup {s['cells'][0]['seconds']:.1f} s, "
              f"one line {median(one_line):.2f} s", file=sys.stderr)

    whole, slowest = [], []
    name = os.path.basename(args.notebook)[: -len(".ipynb")]
    for i in range(args.runs):
        s = run(args.notebook, args.out, f"{name}-{i}")
        whole.append(s["wall"])
        bad = [c for c in s["cells"] if c["status"] != "ok"]
        failed += [f"{name} run {i}, cell {c['index']}: {c['status']}" for c in bad]
        later = sorted(c["seconds"] for c in s["cells"][1:])
        slowest.append(later[-1] if later else 0.0)
        print(f"{name} run {i + 1}/{args.runs}: {s['wall']:.1f} s", file=sys.stderr)

    print(f"| wait (fresh kernel, warm cache; median of {args.runs}) | seconds |")
    print("|---|---|")
    for key, values in rows.items():
        print(f"| {key} | {median(values):.2f} |")
    print(f"| crates cargo rebuilt after the setup cell | {median(later_crates):.0f} |")
    print(f"| {name}, whole notebook (kernel start to shutdown) | {median(whole):.1f} |")
    print(f"| {name}, slowest cell after setup | {median(slowest):.2f} |")
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
