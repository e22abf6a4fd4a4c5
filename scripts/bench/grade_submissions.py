#!/usr/bin/env python3
"""Writes N generated submissions of lab 03 for the grading benchmark (scripts/bench/grade.sh).

Each submission is the released student notebook with both solution cells filled by one of a
few variants per exercise — right, untouched, wrong on ties or on overlaps, panicking, not
compiling — chosen by the submission's number, so a run is reproducible, into
OUT_DIR/submissions/<student>/. Beside that folder it writes expected.json: the points each submission must get, which the benchmark
compares with the gradebook, so a fast run that grades wrongly does not pass for fast.

    grade_submissions.py OUT_DIR [N]
"""

import json
import os
import sys

LAB = "03-merge"

# (name, body between the solution markers, passes the check)
BEST = [
    ("right", None, True),
    ("untouched", "    todo!()\n", False),
    (
        "largest_on_ties",
        "    let mut best: Option<(&(String, String), usize)> = None;\n"
        "    for (pair, &count) in pair_freqs {\n"
        "        if best.map_or(true, |(p, c)| count > c || (count == c && pair > p)) {\n"
        "            best = Some((pair, count));\n"
        "        }\n"
        "    }\n"
        "    best.map(|(p, c)| (p.clone(), c))\n",
        False,
    ),
    ("panics", "    panic!(\"{} pairs\", pair_freqs.len())\n", False),
]

MERGE = [
    ("right", None, True),
    ("untouched", "    todo!()\n", False),
    (
        "first_only",
        "    let mut out = word.to_vec();\n"
        "    if let Some(i) = (0..word.len().saturating_sub(1))\n"
        "        .find(|&i| word[i] == pair.0 && word[i + 1] == pair.1)\n"
        "    {\n"
        "        out.splice(i..i + 2, [format!(\"{}{}\", pair.0, pair.1)]);\n"
        "    }\n"
        "    out\n",
        False,
    ),
    ("does_not_compile", "    word.len()\n", False),
]


def source(cell):
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def with_body(text, body):
    """The instructor's cell with the solution replaced by `body` (None keeps it)."""
    lines = text.splitlines(keepends=True)
    begin = next(i for i, l in enumerate(lines) if "BEGIN SOLUTION" in l)
    end = next(i for i, l in enumerate(lines) if "END SOLUTION" in l)
    middle = lines[begin + 1 : end] if body is None else [body]
    return "".join(lines[:begin] + middle + lines[end + 1 :])


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "instructor", LAB + ".ipynb")) as f:
        solutions = {c.get("id"): source(c) for c in json.load(f)["cells"]}
    with open(os.path.join(root, "notebooks", LAB + ".ipynb")) as f:
        student = json.load(f)

    os.makedirs(out, exist_ok=True)
    expected = {}
    for n in range(count):
        # Weighted towards right answers, as in a real class; every pairing occurs.
        best = BEST[0] if n % 3 == 0 else BEST[n % len(BEST)]
        merge = MERGE[0] if n % 2 == 0 else MERGE[(n // 2) % len(MERGE)]
        nb = json.loads(json.dumps(student))
        for cell in nb["cells"]:
            cid = cell.get("id", "")
            if cid == "03-best-solution":
                cell["source"] = with_body(solutions[cid], best[1])
            elif cid == "03-merge-solution":
                cell["source"] = with_body(solutions[cid], merge[1])
        student_name = f"s{n:03d}"
        folder = os.path.join(out, "submissions", student_name)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, LAB + ".ipynb"), "w") as f:
            json.dump(nb, f, indent=1)
        expected[student_name] = {
            "variants": [best[0], merge[0]],
            "most_frequent_pair": best[2],
            "merge_pair_in_word": merge[2],
        }
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main()
