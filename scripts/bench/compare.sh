#!/usr/bin/env bash
# Times bpe-lab against the other BPE trainers on PyPI (Hugging Face tokenizers, sentencepiece,
# rustbpe, ffbpe, bpeasy, and YouTokenToMe when it builds), training and encoding, and prints
# markdown tables (also saved under bench-results/).
#
#   scripts/bench/compare.sh [FILE]        default FILE: /tmp/zipf48.txt, generated if missing
#
# Environment: MERGES (30000), RUNS (3), ENCODE_MERGES (10000; 0 leaves the encoding table out),
# MEMORY (warm; or cold, as-is: the state of free memory before each run, see compare.py),
# MB and SEED for the generated corpus (48, 1). Python packages go into .venv-bench/ at the repository root (gitignored).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
MERGES="${MERGES:-30000}"
RUNS="${RUNS:-3}"
ENCODE_MERGES="${ENCODE_MERGES:-10000}"
MB="${MB:-48}"
MEMORY="${MEMORY:-warm}"
SEED="${SEED:-1}"
file="${1:-/tmp/zipf${MB}.txt}"

[ -x /usr/bin/time ] || { echo "compare.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

venv="$repo/.venv-bench"
if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv ..." >&2
    python3 -m venv "$venv"
fi
# pip is quick when they are already there; versions are printed in the report.
"$venv/bin/pip" install --quiet --disable-pip-version-check tokenizers sentencepiece rustbpe ffbpe bpeasy
# YouTokenToMe has no wheel for current Pythons; its source build needs Cython (2.x) and a C++
# compiler and is left out when it fails.
"$venv/bin/python" -c 'import youtokentome' 2>/dev/null || {
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'cython<3' setuptools wheel &&
        "$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation youtokentome
} || echo "compare.sh: YouTokenToMe did not build; it is left out" >&2

echo "building ..." >&2
# The CLI when it builds (compare.py uses `bpe-lab train` if it exists), and the examples;
# without the dataset feature, which training from a file does not use and which would
# compile polars.
cargo build --release --quiet -p bpe-lab-cli --no-default-features --features fast-alloc ||
    echo "compare.sh: CLI build failed; timing the library example" >&2
cargo build --release --quiet --no-default-features --example gen_corpus --example train_file --example encode_file

if [ ! -f "$file" ]; then
    echo "generating $file ($MB MB, seed $SEED) ..." >&2
    target/release/examples/gen_corpus --mb "$MB" --seed "$SEED" --out "$file"
fi

mkdir -p bench-results
out="bench-results/compare-$(basename "$file" .txt)-${MERGES}-${MEMORY}.md"
"$venv/bin/python" scripts/bench/compare.py compare --file "$file" --merges "$MERGES" \
    --runs "$RUNS" --encode-merges "$ENCODE_MERGES" --memory "$MEMORY" --repo "$repo" | tee "$out"
echo "saved $out" >&2
