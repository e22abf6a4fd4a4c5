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
#         CARGO_HOME (so evcxr_jupyter is installed again), then `scripts/lab run` (a student's
#         way in without a display) until its first notebook is executed, and the kernel's
#         second part that it leaves building in the background, each timed. Uses the machine's Rust toolchain and Debian packages
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

# The student's way in on a machine without a display: scripts/lab (run mode), in a session of
# its own so that it can be stopped whole once the first notebook is executed. The second part of
# the kernel, which scripts/lab leaves building in the background, is waited for and timed too.
started=$SECONDS
"${fresh_env[@]}" setsid bash -c "cd '$clone' && ./scripts/lab run" >"$WORK/run.log" 2>&1 &
run_pid=$!
summary="$clone/target/lab/executed/00-welcome.json"
until python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$summary" 2>/dev/null; do
    if ! kill -0 "$run_pid" 2>/dev/null; then
        cat "$WORK/run.log" >&2
        echo "error: scripts/lab run ended before notebook 00 was executed (above)" >&2
        exit 1
    fi
    sleep 1
done
first_s=$((SECONDS - started))
kill -- "-$run_pid" 2>/dev/null || true
cp "$summary" "$WORK/00-welcome.json"
full_pid_file="$clone/target/lab/evcxr-install-full.pid"
while [ -f "$full_pid_file" ] && kill -0 "$(cat "$full_pid_file")" 2>/dev/null; do sleep 2; done
full_s=$((SECONDS - started))
cat "$WORK/run.log" >&2
python3 - "$WORK/00-welcome.json" <<'PYEOF' >&2
import json, sys
s = json.load(open(sys.argv[1]))
print("notebook 00:", ", ".join(f"cell {c['index']} {c['status']} {c['seconds']:.1f} s" for c in s["cells"]))
PYEOF

{
    echo "| from a fresh clone (\`./scripts/lab run\`) | seconds |"
    echo "|---|---|"
    # The step lines of scripts/lab: "[N] title" followed by "    (Ns; Ms in all)".
    awk '/^\[[0-9]+\] / {title=$0; sub(/^\[[0-9]+\] /, "", title); sub(/ \(.*$/, "", title)}
         /^    \([0-9]+s; / {s=$1; gsub(/[(s;]/, "", s); printf "| %s | %s |\n", title, s}' "$WORK/run.log"
    echo "| **fresh clone to the first executed notebook** | **$first_s** |"
    echo "| in the background: the kernel's second part (rust-analyzer) and the other notebooks' warm-up, done | $full_s |"
} | tee bench-results/waits-fresh.md
