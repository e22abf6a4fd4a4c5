#!/usr/bin/env bash
# Grading benchmark: N generated submissions of lab 03 (default 100; right, untouched, wrong,
# panicking and non-compiling answers mixed) graded by `bpe-lab lab grade` in the sandbox,
# as an instructor would run it. Prints the wall time of the whole run, per-submission times
# (median, min, max, from the saved grades) and checks every grade against the one the
# generator expects. The table goes to bench-results/grade.md.
#
#   scripts/bench/grade.sh [N] [--jobs J] [other lab grade flags]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
count=100
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then count=$1; shift; fi

# shellcheck source=scripts/lib/sandbox.sh
source scripts/lib/sandbox.sh
ensure_bwrap
cargo build --locked --quiet --bin bpe-lab

work=$(mktemp -d "${TMPDIR:-/tmp}/bpe-lab-grade-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 scripts/bench/grade_submissions.py "$work" "$count"

start=$(date +%s.%N)
target/debug/bpe-lab lab grade "$work/submissions" --lab 03-merge \
    --out "$work/grades.csv" --feedback "$work/feedback" "$@"
end=$(date +%s.%N)

mkdir -p bench-results
python3 - "$work" "$start" "$end" "$count" "$(nproc)" <<'PY' | tee bench-results/grade.md
import csv, glob, json, os, statistics, sys
work, start, end, count, cores = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
expected = json.load(open(os.path.join(work, "expected.json")))
rows = {r["student"]: r for r in csv.DictReader(open(os.path.join(work, "grades.csv")))}
seconds = [json.load(open(p))["seconds"] for p in glob.glob(os.path.join(work, "feedback", "*", ".*.grade.json"))]
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
wall = end - start
print(f"| submissions | cores | wall | per submission (wall / n) | one submission: median | min | max | grades as expected |")
print(f"|---|---|---|---|---|---|---|---|")
print(f"| {count} | {cores} | {wall:.1f} s | {wall / count:.2f} s | {statistics.median(seconds):.2f} s | {min(seconds):.2f} s | {max(seconds):.2f} s | {count - len({w.split()[0] for w in wrong})}/{count} |")
for w in wrong:
    print("MISMATCH", w, file=sys.stderr)
sys.exit(1 if wrong else 0)
PY
