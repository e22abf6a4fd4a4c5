"""Training from a chunk table file (`bpe-lab count --pattern`'s columns chunk, count,
pattern, special_tokens): the same encoding as training on the text the table counted, and
every disagreement between the table and the arguments refused as the CLI refuses it."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess

import pytest

import bpe_lab

TEXT = (
    "The cat's here, isn't it? ሰላም ዓለም 123456 ߒߞߏ\n"
    "  indented   spaces\t\tand tabs  \r\n"
    "cafe\u0301 nai\u0308ve 😀👍🏽 !!! \"quoted\", commas, and\r\n lines\n"
    "<|endoftext|>after the special<|endoftext|>\n"
    "again The cat's here, isn't it? ሰላም we'll see 3.14159\n"
)
SPECIALS = ["<|endoftext|>"]


def gpt4_regex() -> str:
    return bpe_lab.get_encoding("cl100k_base")._pat_str


def write_table(path, rows, regex, specials, header=("chunk", "count", "pattern", "special_tokens")):
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        for chunk, count in rows:
            out.writerow([chunk.decode("utf-8"), count, regex, json.dumps(specials)])


def from_text(vocab: int, pattern: str = "gpt4"):
    return bpe_lab.train_bytelevel([TEXT], vocab, pattern, special_tokens=SPECIALS)


def same(a, b) -> None:
    assert a._mergeable_ranks == b._mergeable_ranks
    assert a._special_tokens == b._special_tokens
    assert a._pat_str == b._pat_str


def test_a_table_of_known_content_trains_as_the_text(tmp_path):
    # Counted in two shards, cut before a line that starts with a letter; the second shard's
    # rows repeat chunks of the first, which the table lists again (summed on reading).
    cut = TEXT.index("\nagain") + 1
    rows = []
    for shard in (TEXT[:cut], TEXT[cut:]):
        rows += bpe_lab.count_chunks([shard], "gpt4", special_tokens=SPECIALS)
    path = tmp_path / "chunks.csv"
    write_table(path, rows, gpt4_regex(), SPECIALS)
    for vocab in (300, 400):
        same(bpe_lab.train_bytelevel_from_table(path, vocab), from_text(vocab))
        # The table's own pattern and specials, given again, are accepted.
        same(
            bpe_lab.train_bytelevel_from_table(
                str(path), vocab, "gpt4", special_tokens=SPECIALS, tie_break="first_seen"
            ),
            from_text(vocab),
        )


def test_a_table_that_disagrees_is_refused(tmp_path):
    rows = bpe_lab.count_chunks([TEXT], "gpt4", special_tokens=SPECIALS)
    path = tmp_path / "chunks.csv"
    write_table(path, rows, gpt4_regex(), SPECIALS)
    with pytest.raises(ValueError, match="pattern 'o200k' disagrees with the chunk table"):
        bpe_lab.train_bytelevel_from_table(path, 300, "o200k")
    with pytest.raises(ValueError, match="disagrees with the chunk table"):
        bpe_lab.train_bytelevel_from_table(path, 300, r"\w+|\s+")
    with pytest.raises(ValueError, match="special_tokens .* disagrees"):
        bpe_lab.train_bytelevel_from_table(path, 300, special_tokens=[])
    words = tmp_path / "words.csv"
    write_table(words, [(b"cat", 2)], gpt4_regex(), SPECIALS, header=("word", "count", "pattern", "special_tokens"))
    with pytest.raises(ValueError, match="counted by words, not chunks"):
        bpe_lab.train_bytelevel_from_table(words, 300)
    mixed = tmp_path / "mixed.csv"
    with open(mixed, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(("chunk", "count", "pattern", "special_tokens"))
        out.writerow(("a", 1, gpt4_regex(), "[]"))
        out.writerow(("b", 1, r"\w+", "[]"))
    with pytest.raises(ValueError, match="mixes chunks cut in 2 ways"):
        bpe_lab.train_bytelevel_from_table(mixed, 300)
    empty = tmp_path / "empty.csv"
    write_table(empty, [], gpt4_regex(), SPECIALS)
    with pytest.raises(ValueError, match="has no chunks"):
        bpe_lab.train_bytelevel_from_table(empty, 300)
    with pytest.raises(TypeError):
        bpe_lab.train_bytelevel_from_table(42, 300)
    # Nothing left in a bad state: the next call trains.
    same(bpe_lab.train_bytelevel_from_table(path, 300), from_text(300))


def _cli() -> str | None:
    found = os.environ.get("BPE_LAB_BIN") or shutil.which("bpe-lab")
    if found:
        return found
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for profile in ("debug", "release"):
        path = os.path.join(root, "target", profile, "bpe-lab")
        if os.access(path, os.X_OK):
            return path
    return None


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_the_clis_table_trains_as_the_text(tmp_path, suffix):
    cli = _cli()
    if cli is None:
        pytest.skip("no bpe-lab binary (build it, or set BPE_LAB_BIN)")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            try:
                import polars  # noqa: F401
            except ImportError:
                pytest.skip("reading Parquet needs pyarrow or polars")
    text = tmp_path / "text.txt"
    text.write_text(TEXT, encoding="utf-8", newline="")
    table = tmp_path / f"chunks{suffix}"
    subprocess.run([cli, "count", "--pattern", "gpt4", str(text), "--output", str(table)],
                   check=True, capture_output=True)
    rows, regex, specials = bpe_lab.read_chunk_table(table)
    assert specials == SPECIALS
    assert regex == gpt4_regex()
    assert rows == bpe_lab.count_chunks([TEXT], "gpt4", special_tokens=SPECIALS)
    same(bpe_lab.train_bytelevel_from_table(table, 350), from_text(350))
