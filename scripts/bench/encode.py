#!/usr/bin/env python3
"""Times `bpe-lab encode --ids` against Hugging Face `encode_batch` and tiktoken; run through
encode.sh.

    encode.py compare --bin BPE_LAB --file TEXT --tokenizer T.json --hf HF.json --runs N --scratch DIR
        prints a markdown table and whether the ids are identical
    encode.py hf-encode HF.json TEXT [--out IDS.txt]
        the HF side, in its own process: prints one line of JSON with the encode time
    encode.py tiktoken-encode T.json TEXT [--threads N] [--out IDS.txt]
        the tiktoken side, likewise, on a byte-level rank table equivalent to T.json's merges

tiktoken ranks byte strings, not pairs: a pair merges when the bytes of the two tokens joined
are in the table, the lowest rank first, the leftmost on ties. The table mirrors the merges:
the 256 single bytes, then the multi-byte characters of the vocabulary (and their prefixes, so
their bytes join into them first), then each merge's result in merge order; the end-of-word
marker `</w>` is the byte 0x01, which the text must not contain, and each word becomes one
piece (`word` + 0x01, split by the pattern `[^\x01]*\x01`). Rewriting the text that way is not
timed. Joining by bytes is not the seed's rule in general (a merge list can hold `(a, bc)` but
not `(ab, c)`), which is why the tokens are compared, not assumed.

Every run is its own process under /usr/bin/time -v (peak RSS); runs of the tools are
interleaved so a slow spell of the machine hits all of them. bpe-lab is timed as a whole
process (start-up, loading the tokenizer, reading the text, encoding, writing the ids to a
file); HF only around the `encode_batch` call (tokenizer loaded and text read and split before,
ids not written), which favours HF.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def lines_of(text):
    """The lines as bpe-lab encode reads them: split at \\n, a trailing \\r dropped, no line
    after a final newline."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def hf_encode(tokenizer_json, path, out):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(tokenizer_json)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = lines_of(text)
    start = time.perf_counter()
    encodings = tokenizer.encode_batch(lines)
    secs = time.perf_counter() - start
    tokens = sum(len(e.ids) for e in encodings)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for e in encodings:
                f.write(" ".join(map(str, e.ids)))
                f.write("\n")
    print(json.dumps({"tokens": tokens, "bytes": len(text.encode()), "encode_s": secs}))


EOW_BYTE = "\x01"


def tiktoken_table(tokenizer_json):
    """The byte-level rank table mirroring a bpe-lab tokenizer file's merges, and for every
    rank the bpe-lab id of the same token (or None)."""
    with open(tokenizer_json, encoding="utf-8") as f:
        ours = json.load(f)

    def as_bytes(token):
        return token.replace("</w>", EOW_BYTE).encode("utf-8")

    ranks = {bytes([b]): b for b in range(256)}

    def rank(piece):
        if piece not in ranks:
            ranks[piece] = len(ranks)

    special = set(ours.get("special_tokens", []))
    for token in ours["vocab"]:
        if token in special or token == ours.get("unk_token"):
            continue
        for char in token.replace("</w>", EOW_BYTE):
            encoded = char.encode("utf-8")
            for end in range(2, len(encoded) + 1):
                rank(encoded[:end])
    for a, b in ours["merges"]:
        rank(as_bytes(a + b))
    to_ours = [None] * len(ranks)
    for i, token in enumerate(ours["vocab"]):
        if token in special or token == ours.get("unk_token"):
            continue
        r = ranks.get(as_bytes(token))
        if r is not None and to_ours[r] is None:
            to_ours[r] = i
    return ranks, to_ours


def tiktoken_encode(tokenizer_json, path, threads, out):
    import tiktoken

    ranks, to_ours = tiktoken_table(tokenizer_json)
    encoding = tiktoken.Encoding(
        name="bpe-lab", pat_str=r"[^\x01]*\x01", mergeable_ranks=ranks, special_tokens={})
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if EOW_BYTE in text:
        sys.exit("tiktoken-encode: the text contains the byte 0x01, the end-of-word marker here")
    lines = ["".join(word + EOW_BYTE for word in line.split(" ")) for line in lines_of(text)]
    start = time.perf_counter()
    if threads == 1:
        encoded = [encoding.encode_ordinary(line) for line in lines]
    else:
        encoded = encoding.encode_ordinary_batch(lines, num_threads=threads)
    secs = time.perf_counter() - start
    tokens = sum(len(ids) for ids in encoded)
    if out:
        with open(out, "w", encoding="utf-8") as f:
            for ids in encoded:
                f.write(" ".join(str(to_ours[r]) for r in ids))
                f.write("\n")
    print(json.dumps({"tokens": tokens, "bytes": len(text.encode()), "encode_s": secs}))


def measure(cmd, env=None, stdout_path=None):
    """Runs cmd under /usr/bin/time -v; returns (wall s, peak RSS MB, last JSON line of stdout)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        out = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
        start = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-v", "-o", timing.name, *cmd],
            stdout=out,
            stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        wall = time.perf_counter() - start
        if stdout_path:
            out.close()
        report = timing.read()
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-3000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    info = {}
    if not stdout_path:
        found = [l for l in proc.stdout.decode().splitlines() if l.startswith("{")]
        info = json.loads(found[-1]) if found else {}
    return wall, int(rss.group(1)) / 1024 if rss else float("nan"), info


def first_difference(a_path, b_path, text_lines):
    with open(a_path, encoding="utf-8") as a, open(b_path, encoding="utf-8") as b:
        for number, (x, y) in enumerate(zip(a, b), 1):
            if x != y:
                return f"line {number} ({text_lines[number - 1][:60]!r}): bpe-lab {x[:80]!r}, HF {y[:80]!r}"
    return "the outputs have different lengths"


def compare(args):
    me = os.path.abspath(__file__)
    py = sys.executable
    size = os.path.getsize(args.file)
    mb = size / 1e6
    with open(args.file, encoding="utf-8") as f:
        text_lines = lines_of(f.read())
    empty = sum(1 for line in text_lines if not line)
    with open(args.tokenizer, encoding="utf-8") as f:
        ours = json.load(f)
    import tokenizers

    ours_ids = os.path.join(args.scratch, "bpe-lab.ids")
    hf_ids = os.path.join(args.scratch, "hf.ids")
    tools = {
        "bpe-lab encode --ids (2 threads)": (
            [args.bin, "encode", "--tokenizer", args.tokenizer, "--input", args.file, "--ids", "--threads", "2"],
            None, ours_ids),
        "bpe-lab encode --ids --threads 1": (
            [args.bin, "encode", "--tokenizer", args.tokenizer, "--input", args.file, "--ids", "--threads", "1"],
            None, os.path.join(args.scratch, "bpe-lab-1.ids")),
        "HF encode_batch (2 threads)": ([py, me, "hf-encode", args.hf, args.file], None, None),
        "HF encode_batch (1 thread)": (
            [py, me, "hf-encode", args.hf, args.file], {"TOKENIZERS_PARALLELISM": "false"}, None),
        "tiktoken encode_ordinary_batch (2 threads)": (
            [py, me, "tiktoken-encode", args.tokenizer, args.file, "--threads", "2"], None, None),
        "tiktoken encode_ordinary (1 thread)": (
            [py, me, "tiktoken-encode", args.tokenizer, args.file, "--threads", "1"], None, None),
    }
    results = {name: [] for name in tools}
    for r in range(args.runs):
        for name, (cmd, env, out) in tools.items():
            print(f"  run {r + 1}/{args.runs}: {name}", file=sys.stderr, flush=True)
            results[name].append(measure(cmd, env, out))

    # The ids, written by HF outside the timed part, compared with bpe-lab's whole output.
    print("  writing HF's ids for the comparison", file=sys.stderr, flush=True)
    measure([py, me, "hf-encode", args.hf, args.file, "--out", hf_ids])
    with open(ours_ids, "rb") as a, open(hf_ids, "rb") as b:
        identical = a.read() == b.read()
    print("  writing tiktoken's ids for the comparison", file=sys.stderr, flush=True)
    tiktoken_ids = os.path.join(args.scratch, "tiktoken.ids")
    measure([py, me, "tiktoken-encode", args.tokenizer, args.file, "--out", tiktoken_ids])
    with open(ours_ids, "rb") as a, open(tiktoken_ids, "rb") as b:
        tiktoken_identical = a.read() == b.read()
    with open(ours_ids, "rb") as a, open(os.path.join(args.scratch, "bpe-lab-1.ids"), "rb") as b:
        threads_agree = a.read() == b.read()

    def seconds(name):
        rs = results[name]
        if not name.startswith("bpe-lab"):
            return [r[2]["encode_s"] for r in rs]
        return [r[0] for r in rs]

    hf_median = statistics.median(seconds("HF encode_batch (2 threads)"))
    tiktoken_median = statistics.median(seconds("tiktoken encode_ordinary_batch (2 threads)"))
    import tiktoken

    print("# Encoding: bpe-lab vs Hugging Face tokenizers and tiktoken, same merges\n")
    print(f"- text: {args.file}: {mb:.1f} MB, {len(text_lines)} lines ({empty} empty)")
    print(f"- tokenizer: {len(ours['merges'])} merges learned by `bpe-lab train` on that text, "
          f"{len(ours['vocab'])} tokens; HF side `bpe-lab export --format hf`")
    print(f"- machine: {os.cpu_count()} CPUs; tokenizers {tokenizers.__version__}, "
          f"tiktoken {tiktoken.__version__} (a byte-level rank table mirroring the merges, "
          f"`</w>` as the byte 0x01, one piece per word)")
    print(f"- bpe-lab: the whole process (start-up, loading the tokenizer, reading the text, "
          f"encoding, writing the ids to a file). HF and tiktoken: the encode call only "
          f"(loading, reading and splitting before it, ids not written). Median of {args.runs} "
          f"runs; peak RSS from /usr/bin/time -v.\n")
    print("| encoder | timed | s (median) | min–max | MB/s | peak RSS MB | speed vs HF encode_batch (2 threads) | vs tiktoken (2 threads) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in tools:
        s = seconds(name)
        med = statistics.median(s)
        timed = "whole process" if name.startswith("bpe-lab") else "encode call"
        print(f"| {name} | {timed} | {med:.2f} | {min(s):.2f}–{max(s):.2f} | {mb / med:.1f} | "
              f"{max(r[1] for r in results[name]):.0f} | {hf_median / med:.1f}× | "
              f"{tiktoken_median / med:.2f}× |")
    print()
    tokens = results["HF encode_batch (2 threads)"][-1][2]["tokens"]
    if identical:
        print(f"identical ids: yes ({tokens} ids on {len(text_lines)} lines, byte-for-byte the same output)")
    else:
        detail = first_difference(ours_ids, hf_ids, text_lines)
        note = " (the empty lines are the documented exception)" if empty else ""
        print(f"identical ids: NO{note}: first difference at {detail}")
    if tiktoken_identical:
        print("identical ids with tiktoken (mapped back to bpe-lab's ids): yes")
    else:
        detail = first_difference(ours_ids, tiktoken_ids, text_lines).replace("HF", "tiktoken")
        print(f"identical ids with tiktoken (mapped back to bpe-lab's ids): NO: first difference at {detail}")
    print(f"bpe-lab on 1 and 2 threads: {'same output' if threads_agree else 'DIFFERENT OUTPUT'}")
    if not (identical and threads_agree and tiktoken_identical) and not empty:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--bin", required=True)
    c.add_argument("--file", required=True)
    c.add_argument("--tokenizer", required=True)
    c.add_argument("--hf", required=True)
    c.add_argument("--runs", type=int, default=3)
    c.add_argument("--scratch", required=True)
    e = sub.add_parser("hf-encode")
    e.add_argument("tokenizer")
    e.add_argument("file")
    e.add_argument("--out")
    t = sub.add_parser("tiktoken-encode")
    t.add_argument("tokenizer")
    t.add_argument("file")
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--out")
    args = parser.parse_args()
    if args.command == "compare":
        compare(args)
    elif args.command == "tiktoken-encode":
        tiktoken_encode(args.tokenizer, args.file, args.threads, args.out)
    else:
        hf_encode(args.tokenizer, args.file, args.out)


if __name__ == "__main__":
    main()
