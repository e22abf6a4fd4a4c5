#!/usr/bin/env bash
# Runs the engine benchmarks and saves the tables under bench-results/.
#
#   scripts/bench/engine.sh            full run (48 MB generated corpus; several minutes)
#   scripts/bench/engine.sh --quick    smoke run (~1 MB)
#
# BPE_BENCH_MB, BPE_BENCH_FILE and BPE_BENCH_SEED pass through (see benches/engine.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mkdir -p bench-results
name="engine"
[ "${1:-}" = "--quick" ] && name="engine-quick"
cargo bench --bench engine -- "$@" | tee "bench-results/$name.md"
echo "saved bench-results/$name.md" >&2
