#!/usr/bin/env bash
# Grading benchmark: N generated submissions of lab 03 (default 100; right, untouched, wrong,
# panicking and non-compiling answers mixed) graded by `bpe-lab lab grade` in the sandbox,
# as an instructor would run it. Prints the wall time of the whole run, per-submission times
# (median, min, max, from the saved grades) and checks every grade against the one the
# generator expects. The table goes to bench-results/grade.md.
#
#   scripts/bench/grade.sh [N] [--threads J] [other lab grade flags]
#   scripts/bench/grade.sh [N] --scaling [other lab grade flags]
#
# --scaling grades the same N submissions three times, with --threads 1, 2 and 4, and prints one
# table: a row per job count with its wall time, the median time of one submission, and the
# speed-up over one job (wall of --threads 1 / wall of this run); every run's grades are checked.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
count=100
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then count=$1; shift; fi
scaling=0
flags=()
for arg in "$@"; do
    if [[ "$arg" == --scaling ]]; then scaling=1; else flags+=("$arg"); fi
done

# shellcheck source=scripts/lib/sandbox.sh
source scripts/lib/sandbox.sh
ensure_bwrap
# Grading needs only the command line (crates/cli without features), not the dataset readers: the same
# judge, without building polars and the downloader first.
cargo build --locked --quiet -p bpe-lab-cli --no-default-features --features fast-alloc --bin bpe-lab

work=$(mktemp -d "${TMPDIR:-/tmp}/bpe-lab-grade-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 scripts/bench/grade_submissions.py "$work" "$count"

# One graded run into $work/run-$1 with the flags after it; prints "start end" seconds.
run() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    target/debug/bpe-lab lab grade "$work/submissions" --lab 03-merge \
        --output "$work/run-$name/grades.csv" --feedback "$work/run-$name/feedback" "$@" >&2
    end=$(date +%s.%N)
    echo "$name $start $end"
}

runs=()
if ((scaling)); then
    for jobs in 1 2 4; do
        runs+=("$(run "$jobs" --threads "$jobs" ${flags[@]+"${flags[@]}"})")
    done
else
    runs+=("$(run given ${flags[@]+"${flags[@]}"})")
fi

mkdir -p bench-results
python3 - "$work" "$count" "$(nproc)" "${runs[@]}" <<'PY' | tee bench-results/grade.md
import csv, glob, json, os, statistics, sys
work, count, cores = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = [r.split() for r in sys.argv[4:]]
expected = json.load(open(os.path.join(work, "expected.json")))

def check(out):
    """Per-submission seconds and the grades that differ from the generator's."""
    rows = {r["student"]: r for r in csv.DictReader(open(os.path.join(out, "grades.csv")))}
    seconds = [json.load(open(p))["seconds"] for p in glob.glob(os.path.join(out, "feedback", "*", ".*.grade.json"))]
    wrong = []
    for student, want in expected.items():
        row = rows.get(student)
        if row is None:
            wrong.append(f"{student}: no row")
            continue
        for exercise in ("most_frequent_pair", "merge_pair_in_word"):
            column = next(k for k in row if k.endswith("/" + exercise) or k == exercise)
            got = float(row[column] or 0) > 0
            if got != want[exercise]:
                wrong.append(f"{student} {exercise} ({'/'.join(want['variants'])}): got {row[column]!r}")
    return seconds, wrong

scaling = runs[0][0] != "given"
if scaling:
    print("| submissions | cores | --threads | wall | per submission (wall / n) | one submission: median | min | max | speed-up over --threads 1 | grades as expected |")
    print("|---|---|---|---|---|---|---|---|---|---|")
else:
    print("| submissions | cores | wall | per submission (wall / n) | one submission: median | min | max | grades as expected |")
    print("|---|---|---|---|---|---|---|---|")
failed = False
first = None
for name, start, end in runs:
    seconds, wrong = check(os.path.join(work, f"run-{name}"))
    wall = float(end) - float(start)
    first = first or wall
    good = f"{count - len({w.split()[0] for w in wrong})}/{count}"
    times = f"{statistics.median(seconds):.2f} s | {min(seconds):.2f} s | {max(seconds):.2f} s"
    if scaling:
        print(f"| {count} | {cores} | {name} | {wall:.1f} s | {wall / count:.2f} s | {times} | {first / wall:.2f}× | {good} |")
    else:
        print(f"| {count} | {cores} | {wall:.1f} s | {wall / count:.2f} s | {times} | {good} |")
    for w in wrong:
        print(f"MISMATCH (--threads {name})", w, file=sys.stderr)
    failed = failed or bool(wrong)
sys.exit(1 if failed else 0)
PY
