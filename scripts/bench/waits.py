"""What a student waits for, measured with the real kernel (run by scripts/bench/waits.sh).

Each run starts a fresh kernel, as opening a notebook does, on whatever evcxr cache the machine
has (scripts/lab setup warms it), and executes a short notebook made of the lab's own cells:

    setup       the notebook's first cell (:cache, :opt, :dep bpe-lab)
    use         its `use` lines
    one line    `1 + 1`, `answer`, `let doubled: i32 = answer * 2;`, `doubled` (their median)
    first let   `let answer: i32 = 6 * 7;`: the first cell that binds a variable, where stock
                evcxr loads its rust-analyzer workspace, once per kernel
    untyped let `let tripled = answer * 3;` after the others: the lab's patched evcxr asks its
                analyser only for a variable without a written type
    dataset     the notebook's cell that loads Africa Galore
    after data  one line that reads the loaded data

Then it runs one real student notebook top to bottom (03-merge by default) in a fresh kernel.
Times come from the notebook runner (crates/cli/src/course/bpe_lab_executor): kernel start until the
kernel answers, then each cell from request to reply. The kernel's own log (cargo's
"Compiling ..." lines) is kept per run, and the number of crates cargo compiled or took from
evcxr's cache after the setup cell is reported: it should be zero for a one-line cell.

With --kernel LABEL=PATH (repeatable), each run goes round the given evcxr_jupyter binaries in
turn (a "rust" kernel spec of its own for each, through JUPYTER_PATH), so the machine's load
falls on all of them alike, and the table has one column per kernel: scripts/bench/waits.sh
compares stock evcxr 0.22.0 with the lab's patched build that way.

With --polars LABEL, that kernel runs the notebook as it was when every notebook's kernel
carried polars and the download (the `dataset` feature; see with_polars), so one table shows
what the patch and what the lighter kernels each bring.

Usage: python waits.py [--runs N] [--notebook notebooks/03-merge.ipynb] [--out DIR]
                       [--kernel LABEL=PATH ...] [--polars LABEL ...]
Prints a Markdown table of medians; exits 1 if any cell failed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "crates", "cli", "src", "course", "bpe_lab_executor")


def code_cells(path):
    nb = json.load(open(path, encoding="utf-8"))
    return nb, ["".join(c["source"]) for c in nb["cells"] if c.get("cell_type") == "code"]


def with_polars(text):
    """A notebook's text as it was when every kernel carried polars and the download: the
    `dataset` feature and the DataFrame loader instead of the plain-vector one."""
    return (text.replace('features = ["africa-galore"', 'features = ["dataset"')
            .replace("dataset::Rows", "dataset::Dataset")
            .replace("data: Rows", "data: Dataset")
            .replace("africa_galore_rows()", "africa_galore()"))


def notebook_with_polars(path, out_dir):
    nb = json.load(open(path, encoding="utf-8"))
    for cell in nb["cells"]:
        cell["source"] = with_polars("".join(cell["source"]))
    target = os.path.join(out_dir, "polars-" + os.path.basename(path))
    json.dump(nb, open(target, "w", encoding="utf-8"), indent=1)
    return target


def probe_notebook(notebook):
    nb, cells = code_cells(notebook)
    setup, uses = cells[0], cells[1]
    dataset = next(c for c in cells if "africa_galore" in c)
    sources = [
        ("setup", setup),
        ("use", uses),
        ("one line", "1 + 1"),
        # Stock evcxr loads its rust-analyzer workspace at the first cell that binds a variable;
        # the notebooks write their variables' types, as here.
        ("first let", "let answer: i32 = 6 * 7;"),
        ("one line", "answer"),
        ("one line", "let doubled: i32 = answer * 2;"),
        ("one line", "doubled"),
        ("dataset", dataset),
        ("after data", "data.paragraphs().len()"),
        # A variable without its type: the kernel asks its analyser (once per kernel it loads
        # the crate graph; stock evcxr has done so at the first `let`).
        ("untyped let", "let tripled = answer * 3;"),
    ]
    cells = [
        {"cell_type": "code", "id": f"w{i}", "metadata": {}, "execution_count": None,
         "outputs": [], "source": source}
        for i, (_, source) in enumerate(sources)
    ]
    probe = {"nbformat": 4, "nbformat_minor": 5, "metadata": nb["metadata"], "cells": cells}
    return probe, [label for label, _ in sources]


def kernel_spec(out_dir, label, evcxr):
    """A Jupyter data folder whose "rust" kernel is `evcxr`; returns the JUPYTER_PATH for it."""
    base = os.path.join(out_dir, "jupyter-" + label)
    spec = os.path.join(base, "kernels", "rust")
    os.makedirs(spec, exist_ok=True)
    with open(os.path.join(spec, "kernel.json"), "w", encoding="utf-8") as f:
        json.dump({"argv": [os.path.abspath(evcxr), "--control_file", "{connection_file}"],
                   "display_name": "Rust", "language": "rust",
                   "interrupt_mode": "message"}, f, indent=1)
    return base


def run(notebook, out_dir, name, jupyter_path=None):
    output = os.path.join(out_dir, name + ".ipynb")
    log = os.path.join(out_dir, name + ".kernel.log")
    env = dict(os.environ)
    if jupyter_path:
        env["JUPYTER_PATH"] = jupyter_path
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, RUNNER, "--input", notebook, "--output", output,
         "--cwd", os.path.join(ROOT, "notebooks"), "--kernel-log", log],
        stdout=subprocess.PIPE, check=False, env=env,
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
    parser.add_argument("--kernel", action="append", default=[], metavar="LABEL=PATH",
                        help="an evcxr_jupyter to measure (repeatable; default: the installed "
                             "\"rust\" kernel)")
    parser.add_argument("--polars", action="append", default=[], metavar="LABEL",
                        help="run this --kernel's notebooks with polars in the kernel, as before")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    kernels = []
    for item in args.kernel:
        label, _, path = item.partition("=")
        if not path or not os.access(path, os.X_OK):
            parser.error(f"--kernel {item}: expected LABEL=PATH of an evcxr_jupyter")
        kernels.append((label, kernel_spec(args.out, label, path)))
    if not kernels:
        kernels = [("seconds", None)]

    probe, labels = probe_notebook(args.notebook)
    probe_path = os.path.join(args.out, "probe.ipynb")
    json.dump(probe, open(probe_path, "w", encoding="utf-8"), indent=1)
    # Per kernel: (probe, whole notebook) to run.
    polars = set(args.polars)
    unknown = polars - {label for label, _ in kernels}
    if unknown:
        parser.error(f"--polars {sorted(unknown)[0]}: no --kernel has that label")
    inputs = {label: (notebook_with_polars(probe_path, args.out), notebook_with_polars(args.notebook, args.out))
              if label in polars else (probe_path, args.notebook) for label, _ in kernels}

    keys = ("kernel start", "setup", "use", "one line", "first let", "dataset", "after data",
            "untyped let")
    rows = {label: {key: [] for key in keys} for label, _ in kernels}
    later_crates = {label: [] for label, _ in kernels}
    whole = {label: [] for label, _ in kernels}
    slowest = {label: [] for label, _ in kernels}
    failed = []
    name = os.path.basename(args.notebook)[: -len(".ipynb")]
    # One uncounted run of the probe per kernel: whatever one kernel would take from evcxr's
    # cache that another put there is in it before the counted runs.
    for k, (kernel, jupyter_path) in enumerate(kernels):
        run(inputs[kernel][0], args.out, f"probe-{k}-warm", jupyter_path)
    for i in range(args.runs):
        for k, (kernel, jupyter_path) in enumerate(kernels):
            s = run(inputs[kernel][0], args.out, f"probe-{k}-{i}", jupyter_path)
            rows[kernel]["kernel start"].append(s["kernel_start_seconds"])
            one_line = []
            for label, cell in zip(labels, s["cells"]):
                if cell["status"] != "ok":
                    failed.append(f"{kernel} probe run {i}, {label}: {cell['status']} "
                                  f"{cell.get('error', '')}")
                (one_line if label == "one line" else rows[kernel][label]).append(cell["seconds"])
            rows[kernel]["one line"].append(median(one_line))
            later_crates[kernel].append(compiled_after_setup(s["log"]))
            print(f"{kernel} probe run {i + 1}/{args.runs}: setup {s['cells'][0]['seconds']:.1f} s, "
                  f"first let {s['cells'][3]['seconds']:.2f} s, one line {median(one_line):.2f} s",
                  file=sys.stderr)
        for k, (kernel, jupyter_path) in enumerate(kernels):
            s = run(inputs[kernel][1], args.out, f"{name}-{k}-{i}", jupyter_path)
            whole[kernel].append(s["wall"])
            bad = [c for c in s["cells"] if c["status"] != "ok"]
            failed += [f"{kernel} {name} run {i}, cell {c['index']}: {c['status']}" for c in bad]
            later = sorted(c["seconds"] for c in s["cells"][1:])
            slowest[kernel].append(later[-1] if later else 0.0)
            print(f"{kernel} {name} run {i + 1}/{args.runs}: {s['wall']:.1f} s", file=sys.stderr)

    labels_ = [label for label, _ in kernels]
    print(f"| wait (fresh kernel, warm cache; median of {args.runs}) | " + " | ".join(labels_) + " |")
    print("|---|" + "---|" * len(labels_))
    for key in keys:
        print(f"| {key} | " + " | ".join(f"{median(rows[k][key]):.2f}" for k in labels_) + " |")
    print("| crates cargo rebuilt after the setup cell | "
          + " | ".join(f"{median(later_crates[k]):.0f}" for k in labels_) + " |")
    print(f"| {name}, whole notebook (kernel start to shutdown) | "
          + " | ".join(f"{median(whole[k]):.1f}" for k in labels_) + " |")
    print(f"| {name}, slowest cell after setup | "
          + " | ".join(f"{median(slowest[k]):.2f}" for k in labels_) + " |")
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
