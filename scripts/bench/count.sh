#!/usr/bin/env bash
# Benchmarks counting and training from a table (not a test: figures, not pass/fail).
#
#   scripts/bench/count.sh              all three parts
#   scripts/bench/count.sh count        counting the 48 MB corpus vs `tr | sort | uniq -c`
#   scripts/bench/count.sh capped       counting a corpus BIG_MB large under a CAP_MB memory cap
#   scripts/bench/count.sh train        training from tables of 1, 5 and 20 million distinct words
#
# Environment: MB (48) and SEED (1) of the corpus (examples/gen_corpus), BIG_MB (2048) and
# CAP_MB (512) for the capped run (the cap is `ulimit -v`, address space, on the counting
# process only), SIZES ("1 5 20", millions of distinct words), MERGES (30000), WORK (/tmp/bpe-count-bench).
# Every run is a separate process under /usr/bin/time -v: wall time and peak RSS.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
MB="${MB:-48}"
SEED="${SEED:-1}"
BIG_MB="${BIG_MB:-2048}"
CAP_MB="${CAP_MB:-512}"
SIZES="${SIZES:-1 5 20}"
MERGES="${MERGES:-30000}"
WORK="${WORK:-/tmp/bpe-count-bench}"
what="${1:-all}"

[ -x /usr/bin/time ] || { echo "count.sh: needs GNU time (apt-get install time)" >&2; exit 1; }
mkdir -p "$WORK"
echo "building (release) ..." >&2
cargo build --release --quiet --bin bpe-lab --example gen_corpus
bin="$repo/target/release/bpe-lab"
gen="$repo/target/release/examples/gen_corpus"

# timed LABEL MB COMMAND...: runs COMMAND under /usr/bin/time -v, prints a markdown row.
timed() {
    local label="$1" mb="$2"; shift 2
    local log="$WORK/time.log"
    /usr/bin/time -v -o "$log" "$@" >/dev/null
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$log")
    if [ "$mb" = "-" ]; then
        printf '| %s | %.2f | – | %s MB |\n' "$label" "$wall" "$rss"
    else
        printf '| %s | %.2f | %.1f | %s MB |\n' "$label" "$wall" "$(echo "$mb / $wall" | bc -l)" "$rss"
    fi
}

corpus() { # corpus MB SEED PATH: the generated Zipfian corpus, made once
    [ -f "$3" ] || { echo "generating $3 ($1 MB) ..." >&2; "$gen" --mb "$1" --seed "$2" --out "$3"; }
}

if [ "$what" = all ] || [ "$what" = count ]; then
    file="/tmp/zipf${MB}.txt"
    corpus "$MB" "$SEED" "$file"
    mb=$(echo "$(stat -c %s "$file") / 1000000" | bc -l)
    cat "$file" >/dev/null # in the page cache for every run alike
    echo
    echo "Counting $file ($(printf %.1f "$mb") MB):"
    echo
    echo "| command | wall s | MB/s | peak RSS |"
    echo "|---|---|---|---|"
    timed "bpe-lab count → Parquet" "$mb" "$bin" count "$file" --output "$WORK/counts.parquet"
    timed "bpe-lab count → CSV" "$mb" "$bin" count "$file" --output "$WORK/counts.csv"
    timed "LC_ALL=C tr ' ' '\\\\n' \\| sort \\| uniq -c" "$mb" \
        bash -c "LC_ALL=C tr ' ' '\n' < '$file' | LC_ALL=C sort | uniq -c > '$WORK/uniq.txt'"
    timed "bpe-lab train --input (30,000 merges)" "$mb" "$bin" train --input "$file" --merges "$MERGES" --output "$WORK/t1.json"
    timed "bpe-lab train --word-counts (30,000 merges)" - "$bin" train --word-counts "$WORK/counts.parquet" --merges "$MERGES" --output "$WORK/t2.json"
    cmp <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["merges"])' "$WORK/t1.json") \
        <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["merges"])' "$WORK/t2.json") \
        && echo && echo "(the two tokenizers have the same merges)"
fi

if [ "$what" = all ] || [ "$what" = capped ]; then
    # Memory follows the distinct words, not the bytes: a generated shard keeps inventing words
    # (3.1 M distinct per 512 MB, 11.6 M in 2 GB of four seeds, 1.6 GB of table), so the corpus
    # here is the 48 MB corpus again and again (links, one file each, BIG_MB in all), whose
    # 904 k distinct words fit the cap while its bytes are several times larger than it.
    base="/tmp/zipf${MB}.txt"
    corpus "$MB" "$SEED" "$base"
    dir="$WORK/repeated"; rm -rf "$dir"; mkdir -p "$dir"
    shards=$(( (BIG_MB + MB - 1) / MB ))
    for i in $(seq 1 "$shards"); do ln -s "$base" "$dir/part-$(printf %03d "$i").txt"; done
    mb=$(( shards * $(stat -c %s "$base") / 1000000 ))
    echo
    echo "Counting $mb MB in $shards files with the address space capped at $CAP_MB MB (ulimit -v):"
    echo
    echo "| command | wall s | MB/s | peak RSS |"
    echo "|---|---|---|---|"
    timed "bpe-lab count (cap $CAP_MB MB)" "$mb" \
        bash -c "ulimit -v $((CAP_MB * 1024)); exec '$bin' count '$dir/*.txt' --output '$WORK/big.parquet'"
    timed "sort | uniq -c (sort -S ${CAP_MB}M)" "$mb" \
        bash -c "LC_ALL=C cat '$dir'/*.txt | LC_ALL=C tr ' ' '\n' | LC_ALL=C sort -S ${CAP_MB}M -T '$WORK' | uniq -c > '$WORK/big-uniq.txt'"
fi

if [ "$what" = all ] || [ "$what" = train ]; then
    echo
    echo "Training $MERGES merges from tables of distinct words (each word 1–8 letters of a"
    echo "26-letter alphabet plus digits, counts Zipfian):"
    echo
    echo "| distinct words | table MB | wall s | peak RSS |"
    echo "|---|---|---|---|"
    for m in $SIZES; do
        table="$WORK/table-${m}m.parquet"
        if [ ! -f "$table" ]; then
            python3 - "$m" "$WORK/table-${m}m.csv" <<'PY'
import random, sys
n = int(sys.argv[1]) * 1_000_000
random.seed(n)
letters = "etaoinshrdlucmfwypvbgkjqxz"
with open(sys.argv[2], "w") as out:
    out.write("word,count\n")
    for i in range(n):
        # A readable random stem and the row number: every word distinct, English-ish letters.
        stem = "".join(random.choices(letters, k=random.randint(1, 8)))
        out.write(f"{stem}{i},{max(1, int(1_000_000 / (i + 1)))}\n")
PY
            "$bin" count --sum "$WORK/table-${m}m.csv" --output "$table" 2>/dev/null
            rm -f "$WORK/table-${m}m.csv"
        fi
        row=$(timed "x" - "$bin" train --word-counts "$table" --merges "$MERGES" --output "$WORK/t.json" 2>/dev/null)
        printf '| %s M | %s | %s | %s |\n' "$m" "$(du -m "$table" | cut -f1)" \
            "$(echo "$row" | cut -d'|' -f3 | xargs)" "$(echo "$row" | cut -d'|' -f5 | xargs)"
    done
fi
