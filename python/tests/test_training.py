"""Training from Python: byte-level from an iterator (against a literal loop written here),
from chunk counts of shards, the lab's character-level trainer (against the lab's literal
algorithm), progress, and the exports read back by tiktoken."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

import bpe_lab

# A pattern Python's `re` and the library's regex engine split alike on this text.
PATTERN = r" ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+"
CORPUS = [
    "the cat sat on the mat; the cat ate the rat.",
    "a mat, a hat, a cat: 123 123 1234!",
    "low lower lowest slow slower flow flower",
    "aaa aaaa aaaaa ababab baba abab",
] * 3


def literal_byte_level(texts, num_merges, pattern):
    """Byte-level BPE the slow, obvious way: count every adjacent pair over every chunk, take
    the most frequent (ties: the pair met first reading the chunks in order), merge it
    everywhere left to right; tokens are byte strings."""
    chunks = [list(m.encode()) for t in texts for m in re.findall(pattern, t)]
    chunks = [[bytes([b]) for b in c] for c in chunks]
    merges = []
    for _ in range(num_merges):
        counts: dict = {}
        for chunk in chunks:
            for pair in zip(chunk, chunk[1:]):
                counts[pair] = counts.get(pair, 0) + 1
        if not counts:
            break
        best = max(counts, key=counts.get)  # the first of the most frequent, in dict order
        merges.append(best)
        for i, chunk in enumerate(chunks):
            out, j = [], 0
            while j < len(chunk):
                if j + 1 < len(chunk) and (chunk[j], chunk[j + 1]) == best:
                    out.append(chunk[j] + chunk[j + 1])
                    j += 2
                else:
                    out.append(chunk[j])
                    j += 1
            chunks[i] = out
    return merges


def test_byte_level_training_equals_the_literal_loop():
    num_merges = 40
    enc = bpe_lab.train_bytelevel(iter(CORPUS), 256 + num_merges, pattern=PATTERN)
    want = literal_byte_level(CORPUS, num_merges, PATTERN)
    tokens = [enc.decode_single_token_bytes(256 + i) for i in range(enc.n_vocab - 256)]
    assert tokens == [a + b for a, b in want]
    for text in CORPUS:
        assert enc.decode(enc.encode_ordinary(text)) == text


def test_training_streams_the_iterator(monkeypatch):
    """Texts reach the library in batches as they are pulled, never all at once: when each
    batch is counted, the iterator has given only that batch's texts and those before."""
    import bpe_lab.train as train

    pulled = []
    batches = []

    class Recording:
        def __init__(self, *args):
            self.inner = bpe_lab._bpe_lab.ByteLevelTrainer(*args)

        def add(self, texts):
            batches.append((len(texts), len(pulled)))
            self.inner.add(texts)

        def train(self, *args):
            return self.inner.train(*args)

    class Native:
        ByteLevelTrainer = Recording

    monkeypatch.setattr(train, "_bpe_lab", Native)
    monkeypatch.setattr(train, "_BATCH_TEXTS", 100)

    def texts():
        for i, text in enumerate(CORPUS * 100):
            pulled.append(i)
            yield text

    streamed = bpe_lab.train_bytelevel(texts(), 300, pattern="gpt4")
    assert len(batches) == len(CORPUS)  # 1,200 texts in batches of 100
    counted = 0
    for size, pulled_then in batches:
        counted += size
        assert pulled_then == counted
    monkeypatch.undo()
    whole = bpe_lab.train_bytelevel(CORPUS * 100, 300, pattern="gpt4")
    assert streamed.token_byte_values() == whole.token_byte_values()


def test_shards_counted_apart_train_to_the_same_merges():
    shards = [CORPUS[i::3] for i in range(3)]
    ordered = [t for shard in shards for t in shard]
    counts = []
    for shard in shards:
        counts += bpe_lab.count_chunks(shard, pattern="o200k")
    from_counts = bpe_lab.train_bytelevel_from_counts(counts, 320, pattern="o200k")
    from_text = bpe_lab.train_bytelevel(ordered, 320, pattern="o200k")
    assert from_counts.token_byte_values() == from_text.token_byte_values()
    assert [from_counts.decode_single_token_bytes(i) for i in range(from_counts.n_vocab)] == [
        from_text.decode_single_token_bytes(i) for i in range(from_text.n_vocab)
    ]
    summed = Counter()
    for chunk, n in counts:
        summed[chunk] += n
    assert sum(summed.values()) == sum(n for _, n in bpe_lab.count_chunks(ordered, pattern="o200k"))


def test_special_tokens_are_never_trained_on_and_come_last():
    texts = ["ab<|eot|>ab<|eot|>ab"] * 5
    enc = bpe_lab.train_bytelevel(texts, 260, special_tokens=["<|eot|>", "<|pad|>"])
    assert enc._special_tokens == {"<|eot|>": enc.n_vocab - 2, "<|pad|>": enc.n_vocab - 1}
    ids = enc.encode(texts[0], allowed_special="all")
    assert ids.count(enc.n_vocab - 2) == 2
    merged = [enc.decode_single_token_bytes(i) for i in range(256, enc.n_vocab - 2)]
    assert merged == [b"ab"]
    with pytest.raises(ValueError, match="disallowed special token"):
        enc.encode(texts[0])


def test_progress_callback_and_tqdm():
    seen = []
    bpe_lab.train_bytelevel(CORPUS, 280, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == 24
    bpe_lab.train_bytelevel(CORPUS, 280, progress=True)


def test_exports_read_back_by_tiktoken(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    import tiktoken.load

    enc = bpe_lab.train_bytelevel(CORPUS, 300, pattern="gpt4", special_tokens=["<|eot|>"])
    sidecar = enc.save_tiktoken(tmp_path / "mine.tiktoken")
    side = json.loads(open(sidecar).read())
    theirs = tiktoken.Encoding(
        "mine",
        pat_str=side["pat_str"],
        mergeable_ranks=tiktoken.load.load_tiktoken_bpe(str(tmp_path / "mine.tiktoken")),
        special_tokens=side["special_tokens"],
    )
    for text in CORPUS + ["unseen words: zebra 9876 <|eot|>!"]:
        assert theirs.encode(text, allowed_special="all") == enc.encode(text, allowed_special="all")
    enc.save_hf(tmp_path / "tokenizer.json")
    hf = json.loads((tmp_path / "tokenizer.json").read_text())
    assert hf["model"]["type"] == "BPE"
    assert len(hf["model"]["vocab"]) == enc.n_vocab


def literal_lab(paragraphs, num_merges):
    """The lab's algorithm, literally: words split on " ", characters + "</w>", most frequent
    pair, ties to the smallest pair."""
    corpus = [list(w) + ["</w>"] for p in paragraphs for w in p.split(" ")]
    merges = []
    for _ in range(num_merges):
        counts = Counter(pair for word in corpus for pair in zip(word, word[1:]))
        if not counts:
            break
        top = max(counts.values())
        best = min(p for p, n in counts.items() if n == top)
        merges.append(best)
        new = []
        for word in corpus:
            out, j = [], 0
            while j < len(word):
                if j + 1 < len(word) and (word[j], word[j + 1]) == best:
                    out.append(word[j] + word[j + 1])
                    j += 2
                else:
                    out.append(word[j])
                    j += 1
            new.append(out)
        corpus = new
    return merges


def test_lab_trainer_equals_the_lab_and_round_trips(tmp_path):
    paragraphs = ["the lowest tower", "the slow  flower", "low lower lowest"]
    lab = bpe_lab.train_lab(paragraphs, 12)
    assert lab.merges == literal_lab(paragraphs, 12)
    text = "the slow  tower"
    assert lab.decode(lab.encode(text)) == text
    assert lab.tokenize("low")[-1].endswith("</w>")
    assert lab.vocab[1] == "<UNK>"
    lab.save(tmp_path / "lab.json")
    assert bpe_lab.LabTokenizer.load(tmp_path / "lab.json").merges == lab.merges
    lab.save_hf(tmp_path / "tokenizer.json")
    assert json.loads((tmp_path / "tokenizer.json").read_text())["model"]["type"] == "BPE"
    first_seen = bpe_lab.train_lab(paragraphs, 12, tie_break="first_seen")
    assert len(first_seen.merges) == 12
