"""Where the setup cell's and the first `let`'s seconds go: the same three cells run in fresh
kernels whose setup cell asks for more or less of bpe-lab's dependencies, side by side in one
run (run by scripts/bench/waits.sh deps).

Stock evcxr 0.22 runs rust-analyzer inside the kernel to learn the types of `let` variables.
When the setup cell's `:dep` changes the kernel's Cargo.toml, it loads the source of every crate
the kernel depends on (the setup cell pays); at the first cell that binds a variable it
resolves their names and macros (the first `let` pays). The lab's patched evcxr (kernel/) asks
it only for a variable without a written type (the untyped let pays, once). Both grow with the
dependency graph, and so does every cell's cargo build, so the variants below differ only in
what the setup cell depends on:

    lab           the notebooks' setup cell: bpe-lab with `dataset` (polars core + reqwest)
    no download   bpe-lab's engine + polars as the notebooks build it, without reqwest
    engine only   bpe-lab without `dataset`: no polars, no reqwest

Each variant is built once into evcxr's cache before timing (its first run is not counted).
Runs go round the variants in turn, so the machine's load falls on all of them alike.

Usage: python waits_deps.py [--runs N] [--out DIR]
Prints a Markdown table of medians; exits 1 if any cell failed.
"""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waits import ROOT, run  # noqa: E402

ENGINE = ':dep bpe-lab = { path = "..", default-features = false }'
VARIANTS = [
    ("lab", ':dep bpe-lab = { path = "..", default-features = false, features = ["dataset"] }'),
    ("no download", ENGINE + '\n:dep polars = { version = "0.55", default-features = false, '
                             'features = ["fmt"] }'),
    ("engine only", ENGINE),
]
CELLS = [("one line", "1 + 1"), ("first let", "let answer: i32 = 6 * 7;"),
         ("next let", "let text: String = answer.to_string();"),
         ("untyped let", "let tripled = answer * 3;")]


def notebook(setup):
    meta = json.load(open(os.path.join(ROOT, "notebooks", "00-welcome.ipynb")))["metadata"]
    sources = [":cache 2048\n:opt 0\n" + setup] + [source for _, source in CELLS]
    cells = [{"cell_type": "code", "id": f"d{i}", "metadata": {}, "execution_count": None,
              "outputs": [], "source": source} for i, source in enumerate(sources)]
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": meta, "cells": cells}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "bench", "waits-deps"))
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    paths = {}
    for i, (name, setup) in enumerate(VARIANTS):
        paths[name] = os.path.join(args.out, f"variant-{i}.ipynb")
        json.dump(notebook(setup), open(paths[name], "w", encoding="utf-8"), indent=1)

    labels = ["kernel start", "setup"] + [label for label, _ in CELLS]
    times = {name: {label: [] for label in labels} for name, _ in VARIANTS}
    failed = []
    for i in range(-1, args.runs):  # run -1 fills evcxr's cache; it is not counted
        for v, (name, _) in enumerate(VARIANTS):
            s = run(paths[name], args.out, f"variant-{v}-run-{i + 1}")
            bad = [c for c in s["cells"] if c["status"] != "ok"]
            failed += [f"{name}, cell {c['index']}: {c['status']}" for c in bad]
            if i < 0:
                continue
            times[name]["kernel start"].append(s["kernel_start_seconds"])
            for label, cell in zip(labels[1:], s["cells"]):
                times[name][label].append(cell["seconds"])
            print(f"run {i + 1}/{args.runs} {name}: setup {s['cells'][0]['seconds']:.1f} s, "
                  f"first let {s['cells'][2]['seconds']:.1f} s", file=sys.stderr)

    names = [name for name, _ in VARIANTS]
    print(f"| fresh kernel, warm cache (median of {args.runs}) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for label in labels:
        cells = [f"{statistics.median(times[n][label]):.2f}" for n in names]
        print(f"| {label} | " + " | ".join(cells) + " |")
    for line in failed:
        print("FAILED", line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
