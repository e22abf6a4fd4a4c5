#!/usr/bin/env bash
# What a student waits for (not a test: figures, not pass/fail).
#
#   scripts/bench/waits.sh [--runs N] [--notebook PATH]
#         fresh kernels on the machine's warm cache: kernel start, setup cell, one-line cells,
#         the first `let`, the dataset cell, an untyped `let`, then a whole notebook
#         (scripts/bench/waits.py), before and after side by side: stock evcxr_jupyter 0.22.0
#         (installed once into STOCK_ROOT, at the lab's optimisation level) with polars in the
#         kernel as every notebook had before, the lab's patched build (what scripts/lab setup
#         installs) with polars, and the patched build with the notebook's own lighter kernel,
#         their runs interleaved; runs
#         `scripts/lab setup` first, so the cache is warm
#   scripts/bench/waits.sh installed [--runs N] [--notebook PATH]
#         the same with the installed kernel only
#   scripts/bench/waits.sh deps [--runs N]
#         where the setup cell's and the first `let`'s seconds go: the same cells in fresh
#         kernels whose setup cell depends on more or less of bpe-lab's dependencies (the
#         notebooks' own, without reqwest, without polars), side by side (waits_deps.py)
#   scripts/bench/waits.sh fresh
#         from a fresh clone with nothing of the lab's installed: a clone of HEAD under WORK
#         with its own HOME (so its own evcxr cache, Jupyter kernel spec, pip cache) and
#         CARGO_HOME (so evcxr_jupyter is installed again), then `scripts/lab setup` and the
#         first notebook, each timed. Uses the machine's Rust toolchain and Debian packages
#         (lld, bubblewrap) as a student's machine would already have them after one setup.
#
# Environment: WORK (/tmp/bpe-waits-fresh) for the fresh mode; STOCK_ROOT
# (target/bench/evcxr-stock) where stock evcxr_jupyter is installed for the comparison. Results also go to bench-results/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
mkdir -p bench-results

if [ "${1:-}" = deps ]; then
    shift
    ./scripts/lab setup >&2
    .venv/bin/python scripts/bench/waits_deps.py "$@" | tee bench-results/waits-deps.md
    exit "${PIPESTATUS[0]}"
fi

if [ "${1:-}" = installed ]; then
    shift
    ./scripts/lab setup >&2
    .venv/bin/python scripts/bench/waits.py "$@" | tee bench-results/waits.md
    exit "${PIPESTATUS[0]}"
fi

if [ "${1:-}" != fresh ]; then
    ./scripts/lab setup >&2
    stock_root=${STOCK_ROOT:-$repo/target/bench/evcxr-stock}
    if [ ! -x "$stock_root/bin/evcxr_jupyter" ]; then
        echo "installing stock evcxr_jupyter 0.22.0 into $stock_root (once, ~5 minutes)" >&2
        CARGO_PROFILE_RELEASE_OPT_LEVEL=${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1} \
            cargo install evcxr_jupyter --version 0.22.0 --locked --root "$stock_root" >&2
    fi
    patched=$(command -v evcxr_jupyter)
    # Before: stock evcxr with polars in every kernel. Then the patch alone, then the patch
    # with the notebook's own lighter kernel: what each change brings.
    .venv/bin/python scripts/bench/waits.py --kernel "stock, polars=$stock_root/bin/evcxr_jupyter" \
        --kernel "patched, polars=$patched" --kernel "patched=$patched" \
        --polars "stock, polars" --polars "patched, polars" "$@" | tee bench-results/waits.md
    exit "${PIPESTATUS[0]}"
fi

WORK="${WORK:-/tmp/bpe-waits-fresh}"
cargo_bin="$(dirname "$(command -v cargo)")"
rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
rm -rf "$WORK"
mkdir -p "$WORK/home"
git clone --quiet "$repo" "$WORK/clone"
clone="$WORK/clone"
# A student's shell: only the toolchain on PATH, everything else fresh.
fresh_env=(env -i "PATH=$WORK/home/.cargo/bin:$cargo_bin:/usr/local/bin:/usr/bin:/bin"
    "HOME=$WORK/home" "CARGO_HOME=$WORK/home/.cargo" "RUSTUP_HOME=$rustup_home"
    "LANG=C.UTF-8" "TERM=dumb")

started=$SECONDS
"${fresh_env[@]}" bash -c "cd '$clone' && ./scripts/lab setup" 2>&1 | tee "$WORK/setup.log" >&2
setup_s=$((SECONDS - started))

first="$clone/notebooks/00-welcome.ipynb"
nb_started=$SECONDS
"${fresh_env[@]}" bash -c "cd '$clone' && .venv/bin/python crates/cli/src/course/bpe_lab_executor \
    --input '$first' --output '$WORK/00-welcome.out.ipynb'" >"$WORK/00-welcome.json"
nb_s=$((SECONDS - nb_started))

{
    echo "| from a fresh clone | seconds |"
    echo "|---|---|"
    # The step lines of scripts/lab: "[N] title" followed by "    (Ns; Ms in all)".
    awk '/^\[[0-9]+\] / {title=$0; sub(/^\[[0-9]+\] /, "", title); sub(/ \(.*$/, "", title)}
         /^    \([0-9]+s; / {s=$1; gsub(/[(s;]/, "", s); printf "| %s | %s |\n", title, s}' "$WORK/setup.log"
    echo "| scripts/lab setup, in all | $setup_s |"
    echo "| first notebook (00-welcome), kernel start to shutdown | $nb_s |"
    echo "| **fresh clone to the first executed notebook** | **$((setup_s + nb_s))** |"
} | tee bench-results/waits-fresh.md
