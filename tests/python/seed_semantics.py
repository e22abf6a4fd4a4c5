"""The behaviour of the course's Python originals run by Python itself, to check the Rust oracle and engine against it.

Reads a JSON list of cases on stdin and writes a JSON list of results on stdout. Each case is
{"kind": "train", "corpus": [[str]], "n": int}            -> the training problem (lexicographic ties)
    {"kind": "learn", "dataset": [str], "n": int}           -> the lab's learn_bpe (Counter)
    {"kind": "apply", "tokens": [str], "merges": [[a, b]]}  -> the apply-merges problem
"""
import json
import sys
from collections import Counter


def pair_counts(corpus):
    counts = Counter()
    for word in corpus:
        for i in range(len(word) - 1):
            counts[(word[i], word[i + 1])] += 1
    return counts


def merge_word(word, pair):
    out, i = [], 0
    while i < len(word):
        if i < len(word) - 1 and (word[i], word[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out


def train_lexicographic(corpus, n):
    merges = []
    for _ in range(n):
        counts = pair_counts(corpus)
        if not counts:
            break
        top = max(counts.values())
        pair = min(p for p, c in counts.items() if c == top)
        corpus = [merge_word(w, pair) for w in corpus]
        merges.append(pair)
    return merges, corpus


def learn_counter(dataset, n):
    corpus = [list(word) + ["</w>"] for paragraph in dataset for word in paragraph.split(" ")]
    merges = []
    for _ in range(n):
        counts = pair_counts(corpus)
        if not counts:
            break
        pair, _ = counts.most_common(1)[0]
        corpus = [merge_word(w, pair) for w in corpus]
        merges.append(pair)
    return merges, corpus


def apply_merges(tokens, merges):
    ranks = {}
    for i, pair in enumerate(merges):
        ranks.setdefault(tuple(pair), i)
    tokens = list(tokens)
    while True:
        best = None
        for i in range(len(tokens) - 1):
            r = ranks.get((tokens[i], tokens[i + 1]))
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            return tokens
        i = best[1]
        tokens[i : i + 2] = [tokens[i] + tokens[i + 1]]


def run(case):
    if case["kind"] == "train":
        merges, corpus = train_lexicographic(case["corpus"], case["n"])
        return {"merges": merges, "corpus": corpus}
    if case["kind"] == "learn":
        merges, corpus = learn_counter(case["dataset"], case["n"])
        return {"merges": merges, "corpus": corpus}
    if case["kind"] == "apply":
        return {"tokens": apply_merges(case["tokens"], case["merges"])}
    raise ValueError(f"unknown case kind {case['kind']!r}")


json.dump([run(c) for c in json.load(sys.stdin)], sys.stdout)
