#!/usr/bin/env bash
# Encoding one whole multilingual text with OpenAI's encodings: `bpe-lab encode` as a whole
# process against Python tiktoken, tiktoken-rs, bpe-openai and Hugging Face tokenizers
# in-process, on 1 and 2 threads, ids compared before timing (scripts/bench/encode_bytes.py
# says who is timed how). Prints a markdown table per encoding, also saved under
# bench-results/.
#
#   scripts/bench/encode_bytes.sh [ENCODING...]      default: cl100k_base o200k_base
#
# Environment: RUNS (5), MB (11) and SEED (1) for the text. Everything is made here, nothing
# downloaded but the Python packages: a venv in target/bench-venv (tiktoken, tokenizers), the
# text in target/bench/ (examples/gen_corpus.rs's English-like text, Python's documentation
# topics and generated paragraphs in nine scripts: scripts/bench/multilingual_text.py), the
# rank files read out of the tiktoken-rs crate.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
RUNS="${RUNS:-5}"
MB="${MB:-11}"
SEED="${SEED:-1}"
encodings=("$@")
[ ${#encodings[@]} -gt 0 ] || encodings=(cl100k_base o200k_base)


venv="$repo/target/bench-venv"
[ -x "$venv/bin/python" ] || { echo "creating $venv ..." >&2; python3 -m venv "$venv"; }
"$venv/bin/python" -c 'import tokenizers, tiktoken' 2>/dev/null ||
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'tokenizers>=0.20' 'tiktoken>=0.9'

echo "building ..." >&2
# Without the dataset feature (polars): encoding does not use it.
cargo build --release --quiet -p bpe-lab-cli --no-default-features --features fast-alloc,openai
cargo build --release --quiet -p bpe-lab --no-default-features --features bench-peers \
    --example encode_peers --example gen_corpus
bin="$repo/target/release/bpe-lab"
peers="$repo/target/release/examples/encode_peers"

work="$repo/target/bench"
mkdir -p "$work" bench-results
text="$work/multilingual-${MB}mb-seed${SEED}.txt"
if [ ! -f "$text" ]; then
    echo "writing $text ..." >&2
    target/release/examples/gen_corpus --mb "$(python3 -c "print($MB / 3)")" --seed "$SEED" \
        --out "$work/zipf-part.txt" 2>/dev/null
    "$venv/bin/python" scripts/bench/multilingual_text.py "$text" --mb "$MB" --seed "$SEED" \
        --zipf "$work/zipf-part.txt"
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/bpe-encode-bytes.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
for encoding in "${encodings[@]}"; do
    for what in ranks pattern hf; do
        "$peers" "$text" --encoding "$encoding" --write-$what "$scratch/$encoding.$what"
    done
    out="bench-results/encode-bytes-$encoding.md"
    "$venv/bin/python" scripts/bench/encode_bytes.py compare --bin "$bin" --peers "$peers" \
        --file "$text" --encoding "$encoding" --ranks "$scratch/$encoding.ranks" \
        --pattern "$scratch/$encoding.pattern" --hf "$scratch/$encoding.hf" \
        --scratch "$scratch" --runs "$RUNS" | tee "$out"
    echo "saved $out" >&2
done
