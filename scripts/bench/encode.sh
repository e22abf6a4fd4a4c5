#!/usr/bin/env bash
# Encoding throughput: `bpe-lab encode --ids` against Hugging Face tokenizers' encode_batch on
# the same tokenizer (`bpe-lab export --format hf`) and tiktoken on an equivalent byte-level
# rank table (built by encode.py), same machine, same run, and a check that all give identical
# ids. Prints a markdown table, also saved under bench-results/.
#
#   scripts/bench/encode.sh [FILE]     default FILE: /tmp/zipf48.txt, generated if missing
#
# Environment: MERGES (10000), RUNS (3), MB and SEED for the generated corpus (48, 1).
# Python packages go into .venv-bench/ at the repository root (gitignored), as compare.sh does.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
MERGES="${MERGES:-10000}"
RUNS="${RUNS:-3}"
MB="${MB:-48}"
SEED="${SEED:-1}"
file="${1:-/tmp/zipf${MB}.txt}"

[ -x /usr/bin/time ] || { echo "encode.sh: needs GNU time (apt-get install time)" >&2; exit 1; }

venv="$repo/.venv-bench"
[ -x "$venv/bin/python" ] || { echo "creating $venv ..." >&2; python3 -m venv "$venv"; }
"$venv/bin/python" -c 'import tokenizers, tiktoken' 2>/dev/null ||
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'tokenizers>=0.20' tiktoken

echo "building ..." >&2
# Without the dataset feature: encoding does not use it, and it would compile polars.
cargo build --release --quiet -p bpe-lab-cli --no-default-features --features fast-alloc
cargo build --release --quiet --no-default-features --example gen_corpus
bin="$repo/target/release/bpe-lab"

if [ ! -f "$file" ]; then
    echo "generating $file ($MB MB, seed $SEED) ..." >&2
    target/release/examples/gen_corpus --mb "$MB" --seed "$SEED" --out "$file"
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/bpe-encode-bench.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
echo "training $MERGES merges on $file and exporting ..." >&2
"$bin" train --input "$file" --merges "$MERGES" --output "$scratch/tokenizer.json" 2>/dev/null
"$bin" export --tokenizer "$scratch/tokenizer.json" --format hf --output "$scratch/hf.json" 2>/dev/null

mkdir -p bench-results
out="bench-results/encode-$(basename "$file" .txt)-${MERGES}.md"
"$venv/bin/python" scripts/bench/encode.py compare --bin "$bin" --file "$file" \
    --tokenizer "$scratch/tokenizer.json" --hf "$scratch/hf.json" --runs "$RUNS" \
    --scratch "$scratch" | tee "$out"
echo "saved $out" >&2
