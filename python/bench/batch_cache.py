#!/usr/bin/env python3
"""The chunk cache across a batch (issue 51): `encode_ordinary_batch` of many short texts with
one cache per thread, against each text encoded on its own (a fresh cache per text, which is
what the library's batch did before), and tiktoken's batch beside them.

    python python/bench/batch_cache.py [--runs 7] [--encoding cl100k_base] [--docs 20000]

The texts are Python's pydoc topics (shipped with Python) cut into lines, the first --docs
non-empty ones, repeated if there are fewer. Ids are compared before anything is timed; each
figure is the median of --runs runs after one warm-up, wall clock, in this process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def texts(count: int) -> list[str]:
    import pydoc_data.topics

    lines = [
        line + "\n"
        for topic in pydoc_data.topics.topics.values()
        for line in topic.split("\n")
        if line.strip()
    ]
    while len(lines) < count:
        lines += lines
    return lines[:count]


def median_seconds(job, runs: int) -> float:
    job()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--encoding", default="cl100k_base")
    parser.add_argument("--docs", type=int, default=20000)
    args = parser.parse_args()

    import bpe_lab

    sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "tests"))
    from conftest import _reference

    ours = bpe_lab.get_encoding(args.encoding)
    theirs = _reference(args.encoding)
    docs = texts(args.docs)
    chars = sum(len(d) for d in docs)
    want = [ours.encode_ordinary(d) for d in docs]
    assert ours.encode_ordinary_batch(docs, num_threads=2) == want
    if theirs is not None:
        assert theirs.encode_ordinary_batch(docs, num_threads=2) == want

    def alone(threads: int):
        if threads == 1:
            return lambda: [ours.encode_ordinary(d) for d in docs]
        return lambda: list(ThreadPoolExecutor(threads).map(ours.encode_ordinary, docs))

    print(f"{len(docs)} texts, {chars / len(docs):.0f} characters each on average, "
          f"{args.encoding}, median of {args.runs} runs\n")
    print("| threads | each text alone (fresh cache) | batch, one cache per thread | ratio | tiktoken batch |")
    print("|---|---|---|---|---|")
    for threads in (1, 2):
        before = median_seconds(alone(threads), args.runs)
        after = median_seconds(lambda: ours.encode_ordinary_batch(docs, num_threads=threads), args.runs)
        tik = (median_seconds(lambda: theirs.encode_ordinary_batch(docs, num_threads=threads), args.runs)
               if theirs is not None else float("nan"))
        print(f"| {threads} | {before * 1000:.1f} ms | {after * 1000:.1f} ms | "
              f"{before / after:.2f}× | {tik * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
