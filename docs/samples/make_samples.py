#!/usr/bin/env python3
"""Writes docs/samples/submissions/<student>/03-merge.ipynb from the released notebook
notebooks/03-merge.ipynb, each with its own answers in the two solution cells (and, for one,
an edited check cell). Run from the repository root after `bpe-lab lab release` changes
notebook 03; `tests/suite/docs_walkthrough.rs` grades the result."""
import json
import pathlib

BEST_RIGHT = """fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut entries: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    entries.first().map(|(p, c)| ((*p).clone(), **c))
}"""

# Ties go to the largest pair instead of the smallest: wrong whenever two pairs tie.
BEST_WRONG_TIES = """fn most_frequent_pair(pair_freqs: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    let mut entries: Vec<(&(String, String), &usize)> = pair_freqs.iter().collect();
    entries.sort_by(|a, b| b.1.cmp(a.1).then(b.0.cmp(a.0)));
    entries.first().map(|(p, c)| ((*p).clone(), **c))
}"""

# Ends the process it runs in: in a notebook the kernel dies; in grading, the worker.
BEST_EXITS = """fn most_frequent_pair(_: &HashMap<(String, String), usize>) -> Option<((String, String), usize)> {
    std::process::exit(0)
}"""

MERGE_RIGHT = """fn merge_pair_in_word(word: &[String], pair: &(String, String)) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < word.len() {
        if i + 1 < word.len() && word[i] == pair.0 && word[i + 1] == pair.1 {
            out.push(format!("{}{}", pair.0, pair.1));
            i += 2;
        } else {
            out.push(word[i].clone());
            i += 1;
        }
    }
    out
}"""

# Misses an occurrence at the very end of a word.
MERGE_WRONG = MERGE_RIGHT.replace("if i + 1 < word.len()", "if i + 2 < word.len()")

# Right, but prints markup once (the feedback page must show it as text, not run it).
MERGE_PRINTS = MERGE_RIGHT.replace(
    "{\n    let mut out",
    '{\n    static ONCE: std::sync::Once = std::sync::Once::new();\n'
    '    ONCE.call_once(|| println!("<script>alert(1)</script>"));\n    let mut out',
    1,
)

SAMPLES = {
    # student: (most_frequent_pair, merge_pair_in_word, edit the merge check cell)
    "amara": (BEST_RIGHT, MERGE_RIGHT, False),
    "bayo": (BEST_WRONG_TIES, MERGE_WRONG, False),
    "chidi": (None, None, False),
    "dele": (BEST_EXITS, MERGE_PRINTS, True),
}


def text(source):
    return source if isinstance(source, str) else "".join(source)


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    released = json.loads((root / "notebooks" / "03-merge.ipynb").read_text())
    out = root / "docs" / "samples" / "submissions"
    for student, (best, merge, edit_check) in SAMPLES.items():
        nb = json.loads(json.dumps(released))
        for cell in nb["cells"]:
            meta = cell["metadata"].get("nbgrader", {})
            src = text(cell["source"])
            if meta.get("solution") and "fn most_frequent_pair(" in src and best:
                cell["source"] = best
            if meta.get("solution") and "fn merge_pair_in_word(" in src and merge:
                cell["source"] = merge
            if edit_check and cell.get("id") == "03-merge-check":
                # A protected cell replaced by one that claims a pass: grading restores it.
                cell["source"] = 'println!("✅ merge_pair_in_word: all cases passed");'
        (out / student).mkdir(parents=True, exist_ok=True)
        (out / student / "03-merge.ipynb").write_text(
            json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
        )


if __name__ == "__main__":
    main()
