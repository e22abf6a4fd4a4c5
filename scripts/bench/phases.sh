#!/usr/bin/env bash
# Where training's time goes: reading, word counting, the pair index and the merge loop, each
# beside a floor measured in the same run (examples/phases.rs says what each floor is). Prints
# a markdown table, also saved under bench-results/.
#
#   scripts/bench/phases.sh [FILE]        default FILE: /tmp/zipf48.txt, generated if missing
#
# Environment: MERGES (30000), RUNS (3), MB and SEED for the generated corpus (48, 1).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
MERGES="${MERGES:-30000}"
RUNS="${RUNS:-3}"
MB="${MB:-48}"
SEED="${SEED:-1}"
file="${1:-/tmp/zipf${MB}.txt}"

echo "building ..." >&2
# The engine alone: the dataset and CLI features would only add to the build.
cargo build --release --quiet -p bpe-lab --no-default-features --features fast-alloc --example phases --example gen_corpus

if [ ! -f "$file" ]; then
    echo "generating $file ($MB MB, seed $SEED) ..." >&2
    target/release/examples/gen_corpus --mb "$MB" --seed "$SEED" --out "$file"
fi

mkdir -p bench-results
out="bench-results/phases-$(basename "$file" .txt)-${MERGES}.md"
target/release/examples/phases "$file" "$MERGES" "$RUNS" | tee "$out"
echo "saved $out" >&2
