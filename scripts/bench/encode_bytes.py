#!/usr/bin/env python3
"""Encoding one whole text with OpenAI's encodings: bpe-lab's command as a whole process
against the libraries in-process, on 1 and 2 threads, ids compared before anything is timed.
Run through encode_bytes.sh, which builds, installs and writes the files this reads.

    encode_bytes.py compare --bin BPE_LAB --peers ENCODE_PEERS --file TEXT --encoding NAME
        --ranks R.tiktoken --pattern P.txt --hf HF.json --scratch DIR [--runs 5]

Who is timed, and how:
- bpe-lab: `bpe-lab encode --encoding NAME --input TEXT --ids --threads N > IDS`, the whole
  process, wall time from start to exit: start-up, loading the encoding, reading the text,
  encoding, writing every id as text into a file. (Its ids are checked once written with
  `--output IDS` too.)
- Python tiktoken (the rank file read out of tiktoken-rs, nothing downloaded): the call only,
  `encode_ordinary(text)` on the whole text for 1 thread, `encode_ordinary_batch(blocks,
  num_threads=2)` for 2.
- tiktoken-rs and bpe-openai (examples/encode_peers.rs): the call only, the whole text on one
  thread, the same blocks from a shared counter on two.
- Hugging Face tokenizers (the encoding exported by bpe-lab as tokenizer.json): the call only,
  `encode(text)` for 1 thread, `encode_batch(blocks)` with RAYON_NUM_THREADS=2 for 2.

The blocks are about 1000 lines each, every one cut just before a line that starts with an
ASCII letter: no chunk of these patterns crosses such a place, so the blocks' ids joined are
the whole text's (checked, like everything else). The reference ids are Python tiktoken's
`encode_ordinary` of the whole text; a tool whose ids differ is reported and not timed. Runs
are interleaved (every tool once, then again, the order turned by one each round) so a slow
spell of the machine hits all; the figure is the median of the runs.
"""

import argparse
import array
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def read_text(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def block_cuts(text, lines_per_block=1000):
    """Byte offsets 0 = c0 < c1 < ... < cn = len(bytes): blocks of about lines_per_block lines,
    each cut before a line that starts with an ASCII letter."""
    data = text.encode("utf-8")
    cuts = [0]
    line_starts = [m.end() for m in re.finditer(rb"\n", data)]
    count = 0
    for start in line_starts:
        count += 1
        if count >= lines_per_block and start < len(data) and chr(data[start]).isascii() \
                and chr(data[start]).isalpha():
            cuts.append(start)
            count = 0
    cuts.append(len(data))
    return cuts


def blocks_of(text, cuts):
    data = text.encode("utf-8")
    return [data[a:b].decode("utf-8") for a, b in zip(cuts, cuts[1:])]


def tiktoken_encoding(ranks_path, pattern_path):
    import base64
    import tiktoken

    ranks = {}
    with open(ranks_path, "rb") as f:
        for line in f:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    with open(pattern_path, encoding="utf-8") as f:
        pattern = f.read()
    return tiktoken.Encoding(name="bench", pat_str=pattern, mergeable_ranks=ranks,
                             special_tokens={})


# ------------------------------------------------------------------ children (one process each)


def child_tiktoken(ranks, pattern, path, cuts_path, check_out):
    encoding = tiktoken_encoding(ranks, pattern)
    text = read_text(path)
    with open(cuts_path) as f:
        blocks = blocks_of(text, json.load(f))
    if check_out:
        whole = encoding.encode_ordinary(text)
        batch = [i for ids in encoding.encode_ordinary_batch(blocks, num_threads=2) for i in ids]
        with open(check_out, "wb") as f:
            array.array("I", whole).tofile(f)
        print(json.dumps({"batch_equal": batch == whole, "tokens": len(whole)}))
        return
    cpu, start = time.process_time(), time.perf_counter()
    encoding.encode_ordinary(text)
    one, one_cpu = time.perf_counter() - start, time.process_time() - cpu
    cpu, start = time.process_time(), time.perf_counter()
    encoding.encode_ordinary_batch(blocks, num_threads=2)
    two, two_cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"tiktoken/1": one, "tiktoken/2": two,
                      "cpu": {"tiktoken/1": one_cpu, "tiktoken/2": two_cpu}}))


def child_hf(hf_json, path, cuts_path, reference, threads):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(hf_json)
    text = read_text(path)
    with open(cuts_path) as f:
        blocks = blocks_of(text, json.load(f))
    if reference:
        ref = array.array("I")
        with open(reference, "rb") as f:
            ref.frombytes(f.read())
        ref = ref.tolist()
        whole = tokenizer.encode(text, add_special_tokens=False).ids
        batch = [i for e in tokenizer.encode_batch(blocks, add_special_tokens=False) for i in e.ids]
        print(json.dumps({"hf/1": whole == ref, "hf/2": batch == ref}))
        return
    start = time.perf_counter()
    if threads == 1:
        tokenizer.encode(text, add_special_tokens=False)
    else:
        tokenizer.encode_batch(blocks, add_special_tokens=False)
    print(json.dumps({f"hf/{threads}": time.perf_counter() - start}))


# ------------------------------------------------------------------ the comparison


CHILD_CPU = []


def run(cmd, env=None, stdout_path=None):
    """Runs cmd; returns (wall seconds, the last JSON line of its stdout or None). With
    stdout_path, its standard output goes to that file. The child's CPU seconds (user and
    system) are appended to CHILD_CPU."""
    import resource

    out = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CHILD_CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if stdout_path:
        out.close()
        proc.stdout = b""
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.decode()[-3000:]}")
    found = [l for l in proc.stdout.decode().splitlines() if l.startswith("{")]
    return wall, (json.loads(found[-1]) if found else None)


def compare(args):
    me = os.path.abspath(__file__)
    py = sys.executable
    text = read_text(args.file)
    size = len(text.encode("utf-8"))
    cuts = block_cuts(text)
    cuts_path = os.path.join(args.scratch, "blocks.json")
    with open(cuts_path, "w") as f:
        json.dump(cuts, f)
    reference = os.path.join(args.scratch, f"{args.encoding}.u32")

    # 1. The ids, before any timing.
    print("  reference ids (Python tiktoken, whole text)", file=sys.stderr, flush=True)
    _, info = run([py, me, "tiktoken", args.ranks, args.pattern, args.file, cuts_path,
                   "--check-out", reference])
    tokens = info["tokens"]
    ref = array.array("I")
    with open(reference, "rb") as f:
        ref.frombytes(f.read())
    ref_text = " ".join(map(str, ref)) + "\n"
    verdicts = {"tiktoken/1": None,
                "tiktoken/2": None if info["batch_equal"] else "the blocks' ids differ"}
    for threads in (1, 2):
        out = os.path.join(args.scratch, f"bpe-lab-{threads}.ids")
        run([args.bin, "encode", "--encoding", args.encoding, "--input", args.file, "--ids",
             "--threads", str(threads), "--output", out])
        with open(out, encoding="utf-8") as f:
            same = f.read() == ref_text
        verdicts[f"bpe-lab/{threads}"] = None if same else "ids differ from tiktoken's"
    _, peers = run([args.peers, args.file, "--encoding", args.encoding, "--ids", reference,
                    "--blocks", cuts_path, "--runs", "1"])
    for key, value in peers["results"].items():
        verdicts[key] = value.get("not_timed")
    if args.hf:
        _, hf = run([py, me, "hf", args.hf, args.file, cuts_path, "--reference", reference])
        for key, same in hf.items():
            verdicts[key] = None if same else "ids differ from tiktoken's"
    del ref, ref_text

    # 2. The timings, interleaved.
    times = {key: [] for key, why in verdicts.items() if why is None}
    cpu = {"bpe-lab/1": [], "bpe-lab/2": [], "tiktoken/1": [], "tiktoken/2": []}
    def time_bpe_lab(threads):
        key = f"bpe-lab/{threads}"
        if key in times:
            out = os.path.join(args.scratch, "timed.ids")
            wall, _ = run([args.bin, "encode", "--encoding", args.encoding, "--input",
                           args.file, "--ids", "--threads", str(threads)], stdout_path=out)
            times[key].append(wall)
            cpu[key].append(CHILD_CPU[-1])

    def time_tiktoken():
        _, t = run([py, me, "tiktoken", args.ranks, args.pattern, args.file, cuts_path])
        for key, secs in t.items():
            if key in times:
                times[key].append(secs)
        for key, secs in t["cpu"].items():
            cpu[key].append(secs)

    def time_rust_peers():
        _, p = run([args.peers, args.file, "--encoding", args.encoding, "--ids", reference,
                    "--blocks", cuts_path, "--runs", "1"])
        for key, value in p["results"].items():
            if key in times:
                times[key].extend(value["seconds"])

    def time_hf(threads):
        if args.hf and f"hf/{threads}" in times:
            _, h = run([py, me, "hf", args.hf, args.file, cuts_path, "--threads", str(threads)],
                       env={"RAYON_NUM_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "true"})
            times[f"hf/{threads}"].append(h[f"hf/{threads}"])

    # Each round runs every tool once; the order turns by one each round, so no tool always
    # follows the same one (a process started right after HF freed its 2 GB pays for the
    # kernel handing that memory out again).
    steps = [lambda: time_bpe_lab(1), lambda: time_bpe_lab(2), time_tiktoken,
             time_rust_peers, lambda: time_hf(1), lambda: time_hf(2)]
    for r in range(args.runs):
        print(f"  run {r + 1}/{args.runs}", file=sys.stderr, flush=True)
        for step in steps[r % len(steps):] + steps[:r % len(steps)]:
            step()

    # 3. The table.
    import tiktoken
    import tokenizers

    median = {key: statistics.median(ts) for key, ts in times.items() if ts}
    names = [("bpe-lab", "bpe-lab encode (whole process)"),
             ("tiktoken", "tiktoken (Python), encode call"),
             ("tiktoken-rs", "tiktoken-rs 0.12, encode call"),
             ("bpe-openai", "bpe-openai 0.3, encode call"),
             ("hf", "HF tokenizers, encode call")]
    print(f"### `{args.encoding}`: {size / 1e6:.1f} MB, {tokens:,} ids\n")
    print(f"- text: {os.path.basename(args.file)}; {os.cpu_count()} CPUs; tiktoken "
          f"{tiktoken.__version__}, tokenizers {tokenizers.__version__}; median of {args.runs} "
          f"runs (min–max)\n")
    print("| encoder | 1 thread s | MB/s | 2 threads s | MB/s | bpe-lab's speed, 1 / 2 threads |")
    print("|---|---|---|---|---|---|")
    for key, label in names:
        cells = []
        for threads in (1, 2):
            k = f"{key}/{threads}"
            if k not in verdicts:
                cells += ["—", "—"]
            elif verdicts[k] is not None:
                cells += [f"not timed: {verdicts[k]}", "—"]
            else:
                ts = times[k]
                cells += [f"{median[k]:.3f} ({min(ts):.3f}–{max(ts):.3f})",
                          f"{size / 1e6 / median[k]:.1f}"]
        ratios = []
        for threads in (1, 2):
            k, ours = f"{key}/{threads}", f"bpe-lab/{threads}"
            ratios.append(f"{median[k] / median[ours]:.2f}×" if k in median and ours in median
                          else "—")
        if key == "bpe-lab":
            ratios = ["1.00×", "1.00×"]
        print(f"| {label} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} | "
              f"{ratios[0]} / {ratios[1]} |")
    print()
    if all(cpu.values()):
        c = {k: statistics.median(v) for k, v in cpu.items()}
        print("CPU seconds (user + system; median), which the machine's other work disturbs "
              "less than wall time: bpe-lab's whole process "
              f"{c['bpe-lab/1']:.3f} / {c['bpe-lab/2']:.3f} on 1 / 2 threads, tiktoken's call "
              f"{c['tiktoken/1']:.3f} / {c['tiktoken/2']:.3f}; tiktoken ÷ bpe-lab "
              f"{c['tiktoken/1'] / c['bpe-lab/1']:.2f}× / {c['tiktoken/2'] / c['bpe-lab/2']:.2f}×.\n")
    wrong = [k for k in ("bpe-lab/1", "bpe-lab/2") if verdicts.get(k)]
    if wrong:
        print(f"bpe-lab's ids differ from tiktoken's: {wrong}")
        sys.exit(1)
    print("ids: bpe-lab's output on 1 and 2 threads equals Python tiktoken's encode_ordinary of "
          "the whole text; the other rows were checked the same way before timing.")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    for name in ("--bin", "--peers", "--file", "--encoding", "--ranks", "--pattern",
                 "--scratch"):
        c.add_argument(name, required=True)
    c.add_argument("--hf")
    c.add_argument("--runs", type=int, default=5)
    t = sub.add_parser("tiktoken")
    t.add_argument("ranks")
    t.add_argument("pattern")
    t.add_argument("file")
    t.add_argument("cuts")
    t.add_argument("--check-out")
    h = sub.add_parser("hf")
    h.add_argument("hf")
    h.add_argument("file")
    h.add_argument("cuts")
    h.add_argument("--reference")
    h.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.command == "compare":
        compare(args)
    elif args.command == "tiktoken":
        child_tiktoken(args.ranks, args.pattern, args.file, args.cuts, args.check_out)
    else:
        child_hf(args.hf, args.file, args.cuts, args.reference, args.threads)


if __name__ == "__main__":
    main()
