#!/usr/bin/env python3
"""Byte-level BPE training side by side: a GPT-4-split tokenizer by bpe-lab, rustbpe, Hugging
Face and minbpe's loop. (Encoding is measured on one whole text by encode_bytes.sh.)

    bytelevel.py --file F --repo ROOT [--vocab 32768] [--runs 3] [--memory warm|cold|as-is]
        [--minbpe-seconds 120]

Training (each tool its own process under /usr/bin/time -v, interleaved, memory settled as in
compare.py): `bpe-lab train --byte-level --pattern gpt4` on the whole file; rustbpe (nanochat's
trainer; its default pattern is GPT-4's) and Hugging Face's BpeTrainer with a Split on GPT-4's
pattern and ByteLevel, both given the file's lines; minbpe-style pure Python (minbpe's
RegexTokenizer loop, written out here) on the whole file with a time limit, reporting how many
merges it learned if it does not finish. Vocabulary = 256 bytes + merges (+ one special token
for bpe-lab, which it does not count).

The child subcommands (run by the parent):
    rustbpe-train FILE VOCAB          hf-train FILE VOCAB OUT
    minbpe-train FILE VOCAB SECONDS
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import MEMORY_STATES, fmt_secs, measure, run_interleaved  # noqa: E402

GPT4 = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""


def lines_of(path):
    # newline="": the lines exactly as the Rust side cuts them (split_inclusive on "\n").
    with open(path, encoding="utf-8", newline="") as f:
        for line in f:
            yield line


# ------------------------------------------------------------------ children


def rustbpe_train(path, vocab):
    import rustbpe

    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator(lines_of(path), vocab, pattern=GPT4)
    print(json.dumps({"vocab": tokenizer.vocab_size}))


def hf_train(path, vocab, out):
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    # Oniguruma reads {1,3}+ as a repetition: the atomic group is the possessive meaning.
    pattern = GPT4.replace(r"\p{N}{1,3}+", r"(?>\p{N}{1,3})")
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    trainer = trainers.BpeTrainer(
        vocab_size=vocab, min_frequency=0, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(lines_of(path), trainer)
    tokenizer.save(out)
    print(json.dumps({"vocab": tokenizer.get_vocab_size()}))


def minbpe_train(path, vocab, seconds):
    """minbpe's RegexTokenizer.train, literally, stopped after `seconds`."""
    import regex

    started = time.perf_counter()
    text = open(path, encoding="utf-8").read()
    ids = [list(chunk.encode("utf-8")) for chunk in regex.findall(GPT4, text)]
    merges = 0
    for i in range(vocab - 256):
        if time.perf_counter() - started > seconds:
            break
        stats = {}
        for chunk in ids:
            for pair in zip(chunk, chunk[1:]):
                stats[pair] = stats.get(pair, 0) + 1
        if not stats:
            break
        pair = max(stats, key=stats.get)
        idx = 256 + i
        new_ids = []
        for chunk in ids:
            out, j = [], 0
            while j < len(chunk):
                if j < len(chunk) - 1 and chunk[j] == pair[0] and chunk[j + 1] == pair[1]:
                    out.append(idx)
                    j += 2
                else:
                    out.append(chunk[j])
                    j += 1
            new_ids.append(out)
        ids = new_ids
        merges += 1
    print(json.dumps({"vocab": 256 + merges, "finished": merges == vocab - 256}))


# ------------------------------------------------------------------ parent


def main():
    if len(sys.argv) > 1 and sys.argv[1] in CHILDREN:
        name, args = sys.argv[1], sys.argv[2:]
        return CHILDREN[name](*args)
    p = argparse.ArgumentParser()
    p.add_argument("--file", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--vocab", type=int, default=32768)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--minbpe-seconds", type=float, default=120.0)
    p.add_argument("--memory", choices=MEMORY_STATES, default="warm")
    args = p.parse_args()
    me = os.path.abspath(__file__)
    py = sys.executable
    bpe_lab = os.path.join(args.repo, "target/release/bpe-lab")
    scratch = tempfile.mkdtemp(prefix="bytelevel-bench-")
    size = os.path.getsize(args.file)
    print(f"corpus {args.file}: {size / 1e6:.1f} MB; vocabulary {args.vocab}", file=sys.stderr)

    merges = args.vocab - 256
    tools = {
        "bpe-lab train --byte-level (gpt4)": ([
            bpe_lab, "train", "--byte-level", "--pattern", "gpt4", "--tie-break",
            "first-seen", "--input", args.file, "--merges", str(merges), "--output",
            os.path.join(scratch, "ours.json")], None),
        "rustbpe (nanochat)": ([py, me, "rustbpe-train", args.file, str(args.vocab)], None),
        "Hugging Face BpeTrainer, ByteLevel (2 threads)": ([
            py, me, "hf-train", args.file, str(args.vocab),
            os.path.join(scratch, "hf.json")], None),
    }
    results = run_interleaved(tools, args.runs, args.memory)
    print(f"\n| tool (vocabulary {args.vocab}, {args.memory} memory) | s (min-max) | peak RSS |")
    print("|---|---|---|")
    medians = {}
    for name, runs in results.items():
        walls = [w for w, _, _ in runs]
        rss = statistics.median([r for _, r, _ in runs])
        medians[name] = statistics.median(walls)
        print(f"| {name} | {fmt_secs(medians[name])} ({fmt_secs(min(walls))}-"
              f"{fmt_secs(max(walls))}) | {rss:.0f} MB |")
    wall, rss, info = measure([py, me, "minbpe-train", args.file, str(args.vocab),
                               str(args.minbpe_seconds)])
    done = "finished" if info.get("finished") else (
        f"stopped at {args.minbpe_seconds:.0f} s: {info.get('vocab', 256) - 256} merges")
    print(f"| minbpe-style Python (1 run) | {fmt_secs(wall)} ({done}) | {rss:.0f} MB |")
    ours = medians["bpe-lab train --byte-level (gpt4)"]
    peers = {k: v for k, v in medians.items() if not k.startswith("bpe-lab")}
    fastest = min(peers, key=peers.get)
    print(f"\nbpe-lab / fastest peer ({fastest}): {ours / peers[fastest]:.2f}x")



CHILDREN = {
    "rustbpe-train": lambda f, v: rustbpe_train(f, int(v)),
    "hf-train": lambda f, v, o: hf_train(f, int(v), o),
    "minbpe-train": lambda f, v, s: minbpe_train(f, int(v), float(s)),
}

if __name__ == "__main__":
    main()
