#!/usr/bin/env python3
"""Times bpe-lab against every fast BPE trainer we can install from PyPI on one corpus file:
Hugging Face tokenizers, sentencepiece, rustbpe, ffbpe, bpeasy and (when it installs)
YouTokenToMe.

Run through compare.sh, which makes the venv and builds the Rust side. Directly:

    compare.py compare --file F --merges 30000 --runs 3 --encode-merges 10000 --repo ROOT
        [--memory warm|cold|as-is]

prints two markdown tables (training, encoding). Every measured run is its own process under
/usr/bin/time -v, so each has its own peak RSS; wall time is taken around the process here.
Runs of the different tools are interleaved, so a slow spell of the machine hits all of them.

The other subcommands are the Python sides that `compare` runs as child processes:
    hf-train FILE VOCAB_SIZE OUT.json
    spm-train FILE VOCAB_SIZE PREFIX
    peer-train TOOL FILE MERGES SCRATCH     TOOL: rustbpe, ffbpe, ffbpe-words, bpeasy, yttm
    hf-encode TOKENIZER.json FILE [--fast]
Each prints one line of JSON on stdout.

rustbpe, ffbpe and bpeasy learn byte-level merges (vocab_size = 256 + merges) and split text
with a regular expression; they are given words as the lab makes them (runs of non-spaces):
rustbpe and bpeasy as a pattern, ffbpe as its PreTokenizer's pat_str ("ffbpe, words as the
lab's"). ffbpe also runs a second time with its own GPT-style pre-tokenizer, which splits
punctuation and digits off words, so it learns from other, shorter words than the rest.
YouTokenToMe learns on characters of whitespace-split words, like bpe-lab.
Timings are whole processes, so each tool's own reading and splitting is included.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

EOW = "</w>"


# ---------------------------------------------------------------- children


def hf_train(path, vocab_size, out):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    # Words as the lab makes them: split on whitespace (the corpus has single spaces only, so
    # this is the lab's split(" ")), characters, "</w>" marking the end of a word.
    tokenizer = Tokenizer(models.BPE(end_of_word_suffix=EOW))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=0,
        show_progress=False,
        special_tokens=[],
        end_of_word_suffix=EOW,
    )
    tokenizer.train([path], trainer)
    tokenizer.save(out)
    print(json.dumps({"merges": len(hf_merges(out))}))


def hf_merges(tokenizer_json):
    """The merge list of a saved HF BPE tokenizer as (left, right) pairs, either JSON layout."""
    with open(tokenizer_json, encoding="utf-8") as f:
        merges = json.load(f)["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in merges]


def spm_train(path, vocab_size, prefix):
    import sentencepiece as spm

    spm.SentencePieceTrainer.train(
        input=path,
        model_prefix=prefix,
        model_type="bpe",
        vocab_size=vocab_size,
        character_coverage=1.0,  # keep every character, as the other two do
        normalization_rule_name="identity",  # no NFKC pass: the others do not normalize
        input_sentence_size=1 << 30,  # use every line, no sampling
        max_sentence_length=1 << 20,
        num_threads=2,
        minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
    # Learned pieces: everything longer than one character except the meta pieces.
    learned = sum(
        1
        for i in range(sp.get_piece_size())
        if not (sp.is_unknown(i) or sp.is_control(i)) and len(sp.id_to_piece(i)) > 1
    )
    print(json.dumps({"merges": learned, "pieces": sp.get_piece_size()}))


# Words as the lab makes them, for the tools that take a pre-tokenizing pattern.
WORD_PATTERN = r"[^ \n]+"
PEERS = {
    "rustbpe": "rustbpe (Karpathy, nanochat)",
    "ffbpe": "ffbpe (its own pre-tokenizer)",
    "ffbpe-words": "ffbpe (words as the lab's)",
    "bpeasy": "bpeasy",
    "yttm": "YouTokenToMe",
}


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                yield line


def peer_train(tool, path, merges, scratch):
    if tool == "rustbpe":
        import rustbpe

        tokenizer = rustbpe.Tokenizer()
        tokenizer.train_from_iterator(lines_of(path), 256 + merges, pattern=WORD_PATTERN)
        learned = tokenizer.vocab_size - 256
    elif tool == "ffbpe":
        import ffbpe

        model = ffbpe.train_bpe(lines_of(path), vocab_size=256 + merges)
        learned = len(model.vocab) - 256
    elif tool == "ffbpe-words":
        import ffbpe

        # What ffbpe.train_bpe does, with the lab's words instead of its default pattern.
        counter = ffbpe.PreTokenizer([], pat_str=WORD_PATTERN).word_counter()
        counter.add_source(lines_of(path), max_records=4096, max_bytes=64 << 20, prefetch=1)
        trainer = ffbpe.BpeTrainer([], unit="byte")
        trainer.add_word_counter(counter)
        trainer.train(256 + merges)
        learned = len(trainer.validate_model().vocab) - 256
    elif tool == "bpeasy":
        import bpeasy

        vocab = bpeasy.train_bpe(lines_of(path), WORD_PATTERN, 1 << 16, 256 + merges)
        learned = len(vocab) - 256
    elif tool == "yttm":
        import youtokentome as yttm

        # YouTokenToMe reads the file itself; its vocabulary holds the characters, 4 special
        # tokens and the merges.
        chars = len(corpus_stats(path)["chars"])
        yttm.BPE.train(data=path, model=os.path.join(scratch, "yttm.model"),
                       vocab_size=chars + 4 + merges, n_threads=2)
        learned = merges
    else:
        sys.exit(f"unknown tool {tool}")
    print(json.dumps({"merges": learned}))


def peers_available():
    """The peers whose Python package imports here."""
    modules = {"rustbpe": "rustbpe", "ffbpe": "ffbpe", "ffbpe-words": "ffbpe", "bpeasy": "bpeasy",
               "yttm": "youtokentome"}
    found = []
    for tool, module in modules.items():
        try:
            __import__(module)
            found.append(tool)
        except ImportError:
            print(f"  {PEERS[tool]}: not installed, left out", file=sys.stderr)
    return found


def hf_encode(tokenizer_json, path, fast):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(tokenizer_json)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [line for line in text.split("\n") if line]
    start = time.perf_counter()
    encodings = (tokenizer.encode_batch_fast if fast else tokenizer.encode_batch)(lines)
    secs = time.perf_counter() - start
    tokens = sum(len(e.ids) for e in encodings)
    print(json.dumps({"tokens": tokens, "bytes": len(text.encode()), "encode_s": secs}))


# ---------------------------------------------------------------- measuring


def measure(cmd, env=None):
    """Runs cmd once under /usr/bin/time -v; returns (wall seconds, peak RSS MB, last JSON line)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as timing:
        start = time.perf_counter()
        proc = subprocess.run(
            ["/usr/bin/time", "-v", "-o", timing.name, *cmd],
            capture_output=True,
            text=True,
            env={**os.environ, **(env or {})},
        )
        wall = time.perf_counter() - start
        report = timing.read()
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    return wall, int(rss.group(1)) / 1024 if rss else float("nan"), json.loads(lines[-1]) if lines else {}


def corpus_stats(path):
    """Lines, the character alphabet and the characters that end a word (not timed)."""
    chars, last_chars, lines, words = set(), set(), 0, 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            lines += 1
            chars.update(line)
            for word in line.split():
                words += 1
                last_chars.add(word[-1])
    chars.discard(" ")
    return {"lines": lines, "words": words, "chars": chars, "last_chars": last_chars}


def fmt_secs(s):
    return f"{s:.2f}" if s < 100 else f"{s:.0f}"


# What state the machine's free memory is in when each measured run starts (--memory).
#
# Why it matters: these machines are virtual machines whose kernel reports free memory to the host
# (free page reporting, in 2 MB blocks, soon after they are freed), and the host takes them back.
# A page a process then touches for the first time costs a fault on the host as well as in the
# guest: one to two milliseconds per megabyte. `bpe-lab train` on Linux documentation took
# 1.32-1.48 s after 6 s of idle and 1.03-1.09 s right after another process had touched and freed
# a gigabyte, the same binary on the same file. Left alone, each tool's time depends on how long
# the machine idled before it and how much the tool before it freed: the largest of the noise
# earlier comparisons saw. So every run starts from the same state:
#   warm   (default) the same command runs once, unmeasured, right before: the measured run
#          finds the memory it needs just freed, whatever the tool's allocator asks for. Best
#          effort: the kernel may report those pages within moments, and nothing in user space
#          prevents it, so a run can still pay (it shows in min-max). Touching and freeing a
#          fixed 1.5 GB instead warmed bpe-lab's 2 MB pages in one hour and not in the next;
#   cold   the run waits 4 s first, so all free memory has been handed back to the host: what
#          a first run on such a machine pays, in proportion to the memory the tool touches;
#   as-is  neither (as before 2026-11-25).
MEMORY_STATES = ("warm", "cold", "as-is")
COLD_WAIT_S = 4.0


def settle_memory(state, cmd, env):
    """Leaves free memory in `state` (see MEMORY_STATES) before a measured run of cmd."""
    if state == "warm":
        subprocess.run(cmd, capture_output=True, env={**os.environ, **(env or {})})
    elif state == "cold":
        time.sleep(COLD_WAIT_S)


def run_interleaved(tools, runs, memory="warm"):
    """tools: {name: (cmd, env)}. Returns {name: [(wall, rss, info), ...]}."""
    results = {name: [] for name in tools}
    for r in range(runs):
        for name, (cmd, env) in tools.items():
            print(f"  run {r + 1}/{runs}: {name}", file=sys.stderr, flush=True)
            settle_memory(memory, cmd, env)
            results[name].append(measure(cmd, env))
    return results


def our_train_command(repo, path, merges, scratch):
    """`bpe-lab train` when the CLI has that command, else the library through an example."""
    cli = os.path.join(repo, "target/release/bpe-lab")
    if os.path.exists(cli):
        probe = subprocess.run([cli, "train", "--help"], capture_output=True, text=True)
        if probe.returncode == 0 and "--merges" in probe.stdout:
            out = os.path.join(scratch, "ours.json")
            cmd = [cli, "train", "--input", path, "--merges", str(merges), "--output", out]
            return "bpe-lab train (CLI)", cmd, out
    example = os.path.join(repo, "target/release/examples/train_file")
    return "bpe-lab (examples/train_file)", [example, path, str(merges)], None


def compare(args, scratch):
    """Prints the training and encoding tables; scratch is a directory for models and merges."""
    path, n = os.path.abspath(args.file), args.merges
    py = sys.executable
    me = os.path.abspath(__file__)

    stats = corpus_stats(path)
    size_mb = os.path.getsize(path) / 1e6
    # HF's initial vocabulary: every character, plus every word-final character with "</w>"
    # attached (HF glues the suffix to the last character). Its vocab_size counts both.
    hf_initial = len(stats["chars"]) + len(stats["last_chars"])
    # sentencepiece: <unk>, <s>, </s>, every character and "▁" (its word-boundary mark).
    spm_initial = 3 + len(stats["chars"] | {"▁"})

    print(f"# bpe-lab vs the other BPE trainers\n")
    print(f"- corpus: {path}: {size_mb:.1f} MB, {stats['lines']} lines, {stats['words']} words, "
          f"{len(stats['chars'])} distinct characters")
    peers = peers_available()
    versions = ", ".join(f"{m} {version(m)}" for m in
                         ["tokenizers", "sentencepiece", "rustbpe", "ffbpe", "bpeasy", "youtokentome"]
                         if version(m) != "?")
    print(f"- machine: {os.cpu_count()} CPUs; {versions}")
    print(f"- each run is a separate process; wall = whole process (start-up, reading, training, "
          f"writing the result), median of {args.runs}; peak RSS from /usr/bin/time -v (max over runs)")
    print(f"- free memory before each run: {args.memory} (see MEMORY_STATES in compare.py)")
    print()

    ours_name, ours_cmd, ours_out = our_train_command(args.repo, path, n, scratch)
    tools = {
        ours_name: (ours_cmd, None),
        "HF tokenizers BpeTrainer": (
            [py, me, "hf-train", path, str(hf_initial + n), os.path.join(scratch, "hf.json")], None),
        "sentencepiece BPE": (
            [py, me, "spm-train", path, str(spm_initial + n), os.path.join(scratch, "spm")], None),
    }
    for tool in peers:
        tools[PEERS[tool]] = ([py, me, "peer-train", tool, path, str(n), scratch], None)
    print(f"## Training, {n} merges\n", flush=True)
    print(f"HF: vocab_size = {hf_initial} initial symbols + {n}, WhitespaceSplit, "
          f"end_of_word_suffix \"</w>\", 2 threads (rayon). sentencepiece: vocab_size = "
          f"{spm_initial} (meta + characters) + {n}, character_coverage 1.0, identity "
          f"normalization, all lines, num_threads 2; its \"merges learned\" counts pieces longer "
          f"than one character. bpe-lab: lexicographic tie-break, word counting on 2 threads, "
          f"merge loop on 1. rustbpe, bpeasy: byte-level, vocab_size 256 + {n}, words split by "
          f"`{WORD_PATTERN}`; ffbpe: byte-level, vocab_size 256 + {n}, words split by "
          f"`{WORD_PATTERN}` (\"words as the lab's\") or by its own pre-tokenizer; "
          f"YouTokenToMe: characters + 4 special + {n}, 2 threads.\n")
    results = run_interleaved(tools, args.runs, args.memory)
    if ours_out:  # the CLI prints no JSON; count the merges in the file it wrote
        with open(ours_out, encoding="utf-8") as f:
            learned = len(json.load(f)["merges"])
        results[ours_name] = [(wall, rss, {"merges": learned}) for wall, rss, _ in results[ours_name]]
    medians = {name: statistics.median(r[0] for r in rs) for name, rs in results.items()}
    # The one tool that learns from other words than the rest (see the module docs).
    other_words = {PEERS["ffbpe"]}
    print("| tool | merges learned | wall s (median) | min–max | peak RSS MB | vs fastest other "
          "| vs fastest other on the same words |")
    print("|---|---|---|---|---|---|---|")
    for name, rs in results.items():
        walls = [r[0] for r in rs]
        fastest_other = min(m for other, m in medians.items() if other != name)
        same_words = [m for other, m in medians.items() if other != name and other not in other_words]
        vs_same = "—" if name in other_words or not same_words else f"{medians[name] / min(same_words):.2f}×"
        merges = rs[-1][2].get("merges", "?")
        print(f"| {name} | {merges} | {fmt_secs(medians[name])} | "
              f"{fmt_secs(min(walls))}–{fmt_secs(max(walls))} | {max(r[1] for r in rs):.0f} | "
              f"{medians[name] / fastest_other:.2f}× | {vs_same} |")
    print(flush=True)

    if not args.encode_merges:
        return  # ENCODE_MERGES=0: training only (encode.sh has the fuller encoding comparison)
    # Encoding: HF trains the vocabulary once (not timed); bpe-lab gets the same merges, with
    # (c, "</w>") merges ranked first so its words (chars, "</w>") start where HF's do (chars,
    # last char + "</w>"). The apply-merges problem's rule and HF's BPE then give the same tokens.
    m = args.encode_merges
    print(f"## Encoding, {m}-merge vocabulary trained by HF\n", flush=True)
    print("  training the HF vocabulary for encoding...", file=sys.stderr, flush=True)
    hf_json = os.path.join(scratch, f"hf{m}.json")
    measure([py, me, "hf-train", path, str(hf_initial + m), hf_json])
    ours_merges = [(c, EOW) for c in sorted(stats["last_chars"])] + hf_merges(hf_json)
    merges_json = os.path.join(scratch, "merges.json")
    with open(merges_json, "w", encoding="utf-8") as f:
        json.dump(ours_merges, f, ensure_ascii=False)
    encoder = os.path.join(args.repo, "target/release/examples/encode_file")
    tools = {
        "bpe-lab Encoder (1 thread)": ([encoder, merges_json, path], None),
        "HF encode_batch (2 threads)": ([py, me, "hf-encode", hf_json, path], None),
        "HF encode_batch (1 thread)": (
            [py, me, "hf-encode", hf_json, path], {"TOKENIZERS_PARALLELISM": "false"}),
        "HF encode_batch_fast (2 threads)": ([py, me, "hf-encode", hf_json, path, "--fast"], None),
    }
    print("bpe-lab: `Encoder::encode_paragraph_into` per line (examples/encode_file). HF: "
          "`Tokenizer.encode_batch` on the list of lines. Encode time is measured inside each "
          "process around the encoding call only (no start-up, file reading or vocabulary "
          "loading); MB/s = corpus bytes / encode time.\n")
    results = run_interleaved(tools, args.runs, args.memory)
    enc = {name: statistics.median(r[2]["encode_s"] for r in rs) for name, rs in results.items()}
    ours_time = enc["bpe-lab Encoder (1 thread)"]
    print("| encoder | encode s (median) | MB/s | tokens | process wall s | peak RSS MB | time / bpe-lab |")
    print("|---|---|---|---|---|---|---|")
    for name, rs in results.items():
        info = rs[-1][2]
        print(f"| {name} | {enc[name]:.3f} | {info['bytes'] / 1e6 / enc[name]:.1f} | {info['tokens']} | "
              f"{fmt_secs(statistics.median(r[0] for r in rs))} | {max(r[1] for r in rs):.0f} | "
              f"{enc[name] / ours_time:.2f}× |")
    tokens = {rs[-1][2]["tokens"] for rs in results.values()}
    print(f"\nsame token count from every encoder: {'yes' if len(tokens) == 1 else 'NO: ' + str(tokens)}")


def version(module):
    try:
        return __import__(module).__version__
    except Exception:
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compare")
    c.add_argument("--file", required=True)
    c.add_argument("--merges", type=int, default=30000)
    c.add_argument("--runs", type=int, default=3)
    c.add_argument("--encode-merges", type=int, default=10000)
    c.add_argument("--memory", choices=MEMORY_STATES, default="warm",
                   help="free memory's state before each run (see MEMORY_STATES)")
    c.add_argument("--repo", default=os.path.abspath(os.path.join(os.path.dirname(__file__), "../..")))
    t = sub.add_parser("hf-train")
    t.add_argument("file")
    t.add_argument("vocab_size", type=int)
    t.add_argument("out")
    s = sub.add_parser("spm-train")
    s.add_argument("file")
    s.add_argument("vocab_size", type=int)
    s.add_argument("prefix")
    p = sub.add_parser("peer-train")
    p.add_argument("tool", choices=sorted(PEERS))
    p.add_argument("file")
    p.add_argument("merges", type=int)
    p.add_argument("scratch")
    e = sub.add_parser("hf-encode")
    e.add_argument("tokenizer")
    e.add_argument("file")
    e.add_argument("--fast", action="store_true")
    args = parser.parse_args()
    if args.command == "compare":
        scratch = tempfile.mkdtemp(prefix="bpe-compare-")
        try:
            compare(args, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    elif args.command == "hf-train":
        hf_train(args.file, args.vocab_size, args.out)
    elif args.command == "spm-train":
        spm_train(args.file, args.vocab_size, args.prefix)
    elif args.command == "peer-train":
        peer_train(args.tool, args.file, args.merges, args.scratch)
    else:
        hf_encode(args.tokenizer, args.file, args.fast)


if __name__ == "__main__":
    main()
