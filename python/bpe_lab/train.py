"""Training from Python: byte-level BPE from an iterator of texts, and the lab's trainer."""

from __future__ import annotations

import csv
import json
import os
import sys
from typing import Callable, Iterable, Mapping, Union

from bpe_lab import _bpe_lab
from bpe_lab.core import Encoding

# The names `pattern=` takes (anything else is a regular expression).
PATTERN_NAMES = ("gpt2", "r50k_base", "gpt4", "cl100k", "cl100k_base", "o200k", "o200k_base")

# Texts are handed to the library in batches of about this many characters: enough to keep
# every core busy, small enough that the corpus is never held whole.
_BATCH_CHARS = 4 << 20
_BATCH_TEXTS = 8192

Progress = Union[bool, Callable[[int, int], object], None]


def _check_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return value


def _check_texts(texts: object, what: str) -> None:
    if isinstance(texts, (str, bytes)):
        raise TypeError(
            f"{what} must be an iterable of str (one text per item), not a single "
            f"{type(texts).__name__}; wrap it in a list"
        )
    if not hasattr(texts, "__iter__"):
        raise TypeError(f"{what} must be an iterable of str, not {type(texts).__name__}")


def _special_list(special_tokens: Iterable[str]) -> list[str]:
    if isinstance(special_tokens, str):
        raise TypeError("special_tokens must be a collection of str, not a single str")
    specials = list(special_tokens)
    for s in specials:
        if not isinstance(s, str):
            raise TypeError(f"special_tokens must hold str, not {type(s).__name__}: {s!r}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"special_tokens lists a token twice: {specials!r}")
    return specials


def _progress_callback(progress: Progress) -> tuple[Callable[[int, int], object] | None, object]:
    """The callback for `progress=` and what to close when training ends."""
    if progress is None or progress is False:
        return None, None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:

            def plain(done: int, total: int) -> None:
                print(f"\rmerges: {done}/{total}", end="\n" if done == total else "", file=sys.stderr)

            return plain, None
        bar = tqdm(total=0, unit="merge", desc="training")

        def update(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        return update, bar
    if callable(progress):
        return progress, None
    raise TypeError(f"progress must be True, False, None or a callable, not {type(progress).__name__}")


def _batches(texts: Iterable[str]):
    batch: list[str] = []
    chars = 0
    for text in texts:
        batch.append(text)
        chars += len(text) if isinstance(text, str) else 0
        if chars >= _BATCH_CHARS or len(batch) >= _BATCH_TEXTS:
            yield batch
            batch, chars = [], 0
    if batch:
        yield batch


def _trainer(pattern: str, special_tokens: Iterable[str]) -> tuple[_bpe_lab.ByteLevelTrainer, list[str]]:
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a pattern name or a regex str, not {type(pattern).__name__}")
    specials = _special_list(special_tokens)
    trainer = _bpe_lab.ByteLevelTrainer(pattern, pattern not in PATTERN_NAMES, specials)
    return trainer, specials


def _num_merges(vocab_size: object, specials: list[str]) -> int:
    vocab_size = _check_int(vocab_size, "vocab_size")
    if vocab_size < 256:
        raise ValueError(
            f"vocab_size must be at least 256 (one token for each byte value), not {vocab_size}"
        )
    if vocab_size < 256 + len(specials):
        raise ValueError(
            f"vocab_size {vocab_size} leaves no room for the 256 bytes and the "
            f"{len(specials)} special tokens"
        )
    return vocab_size - 256 - len(specials)


def _finish(trainer, name, num_merges, tie_break, progress) -> Encoding:
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")
    if not isinstance(tie_break, str):
        raise TypeError(f"tie_break must be a str, not {type(tie_break).__name__}")
    callback, bar = _progress_callback(progress)
    try:
        core = trainer.train(name, num_merges, tie_break, callback)
    finally:
        if bar is not None:
            bar.close()
    return Encoding._from_core(core)


def train_bytelevel(
    texts: Iterable[str],
    vocab_size: int,
    pattern: str = "o200k",
    *,
    special_tokens: Iterable[str] = (),
    progress: Progress = None,
    tie_break: str = "first_seen",
    name: str = "bpe-lab",
) -> Encoding:
    """Trains a byte-level BPE encoding on `texts` (any iterable of str, read once, as it
    comes: each text is split by the pattern and its chunks counted, then dropped).

    - `vocab_size`: the number of ids, the 256 bytes and `special_tokens` included (at least
      256); training may stop earlier when no pair is left.
    - `pattern`: `"gpt2"`, `"gpt4"` (`cl100k_base`'s), `"o200k"` or a regular expression
      (fancy-regex syntax, as tiktoken's); no chunk crosses a match boundary or a text.
    - `special_tokens`: never trained on (texts are cut at them); ids after the merged tokens.
    - `progress`: `True` for a tqdm bar (a plain line without tqdm), or a callable
      `(merges_done, merges_wanted)`.
    - `tie_break`: `"first_seen"` (minbpe's rule) or `"lexicographic"`.

    Returns an `Encoding`: ids 0-255 the bytes, then the merges in the order learned.
    """
    _check_texts(texts, "texts")
    trainer, specials = _trainer(pattern, special_tokens)
    num_merges = _num_merges(vocab_size, specials)
    for batch in _batches(texts):
        try:
            trainer.add(batch)
        except TypeError:
            for i, text in enumerate(batch):
                if not isinstance(text, str):
                    raise TypeError(
                        f"texts must hold str, but an item is {type(text).__name__}: {text!r:.80}"
                    ) from None
            raise
    return _finish(trainer, name, num_merges, tie_break, progress)


def count_chunks(
    texts: Iterable[str], pattern: str = "o200k", *, special_tokens: Iterable[str] = ()
) -> list[tuple[bytes, int]]:
    """The chunks of `texts` under `pattern` with their counts, in order of first appearance:
    what a shard contributes to `train_bytelevel_from_counts`."""
    _check_texts(texts, "texts")
    trainer, _ = _trainer(pattern, special_tokens)
    for batch in _batches(texts):
        trainer.add(batch)
    return trainer.counts()


def train_bytelevel_from_counts(
    counts: Iterable[tuple[bytes | str, int]] | Mapping[bytes | str, int],
    vocab_size: int,
    pattern: str = "o200k",
    *,
    special_tokens: Iterable[str] = (),
    progress: Progress = None,
    tie_break: str = "first_seen",
    name: str = "bpe-lab",
) -> Encoding:
    """Trains as `train_bytelevel` does, from chunk counts made elsewhere (`count_chunks` of
    each shard, listed one after the other): a chunk listed again has its counts summed. With
    the shards in the text's order this gives exactly the merges of training on the text."""
    items = counts.items() if isinstance(counts, Mapping) else counts
    pairs = []
    for item in items:
        try:
            chunk, count = item
        except (TypeError, ValueError):
            raise TypeError(f"counts must hold (chunk, count) pairs, not {item!r:.80}") from None
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8")
        if not isinstance(chunk, bytes):
            raise TypeError(f"a chunk must be bytes or str, not {type(chunk).__name__}")
        count = _check_int(count, "a chunk's count")
        if count < 0:
            raise ValueError(f"a chunk's count must not be negative: {chunk!r} has {count}")
        pairs.append((chunk, count))
    trainer, specials = _trainer(pattern, special_tokens)
    num_merges = _num_merges(vocab_size, specials)
    trainer.add_counts(pairs)
    return _finish(trainer, name, num_merges, tie_break, progress)


def read_chunk_table(path: str | os.PathLike[str]) -> tuple[list[tuple[bytes, int]], str, list[str]]:
    """A chunk table as `bpe-lab count --pattern` writes it (CSV, or Parquet when pyarrow,
    polars or pandas is installed): its rows `(chunk bytes, count)` in order, the split
    pattern's regular expression and the special tokens its text was cut at."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        parquet = f.read(4) == b"PAR1"
    columns = _parquet_columns(path) if parquet else _csv_columns(path)
    if "word" in columns and "chunk" not in columns:
        raise ValueError(
            f"{path!r} was counted by words, not chunks: byte-level training reads a chunk "
            "table; count with a pattern (`bpe-lab count --pattern NAME ...`)"
        )
    missing = [c for c in ("chunk", "count", "pattern", "special_tokens") if c not in columns]
    if missing:
        raise ValueError(
            f"{path!r} is not a chunk table: it has no column {', '.join(missing)} (a chunk "
            "table has the columns chunk, count, pattern, special_tokens)"
        )
    chunks, counts = columns["chunk"], columns["count"]
    if not chunks:
        raise ValueError(f"{path!r} has no chunks: the table has no rows")
    split = set(zip(columns["pattern"], columns["special_tokens"]))
    if len(split) != 1:
        raise ValueError(
            f"{path!r} mixes chunks cut in {len(split)} ways (its pattern and special_tokens "
            "columns differ between rows): sum tables of one pattern only"
        )
    regex, specials_json = split.pop()
    try:
        specials = json.loads(specials_json)
    except (TypeError, ValueError):
        specials = None
    if not isinstance(specials, list) or not all(isinstance(s, str) for s in specials):
        raise ValueError(
            f"{path!r}: the special_tokens column must hold a JSON array of strings, not "
            f"{specials_json!r:.80}"
        )
    rows = []
    for chunk, count in zip(chunks, counts):
        if chunk is None or count is None:
            raise ValueError(f"{path!r} has a row with no chunk or no count")
        count = int(count)
        if count < 0:
            raise ValueError(f"{path!r}: a chunk's count must not be negative: {chunk!r} has {count}")
        rows.append((chunk.encode("utf-8"), count))
    return rows, regex, specials


def _csv_columns(path: str) -> dict[str, list]:
    # newline="": a chunk may hold "\r\n", quoted; the csv module reads it whole.
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{path!r} is empty: a chunk table has a header line")
        columns: dict[str, list] = {name: [] for name in header}
        for line, row in enumerate(reader, start=2):
            if len(row) != len(header):
                raise ValueError(f"{path!r} line {line}: {len(row)} fields, the header has {len(header)}")
            for name, value in zip(header, row):
                columns[name].append(value)
    return columns


def _parquet_columns(path: str) -> dict[str, list]:
    try:
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pydict()
    except ImportError:
        pass
    try:
        import polars as pl

        return pl.read_parquet(path).to_dict(as_series=False)
    except ImportError:
        pass
    try:
        import pandas as pd

        return pd.read_parquet(path).to_dict(orient="list")
    except ImportError:
        raise ImportError(
            f"reading the Parquet table {path!r} needs pyarrow, polars or pandas (pip install "
            "pyarrow); or write the table as CSV (`bpe-lab count ... --output table.csv`)"
        ) from None


def train_bytelevel_from_table(
    path: str | os.PathLike[str],
    vocab_size: int,
    pattern: str | None = None,
    *,
    special_tokens: Iterable[str] | None = None,
    progress: Progress = None,
    tie_break: str = "first_seen",
    name: str = "bpe-lab",
) -> Encoding:
    """Trains as `train_bytelevel` does, from a chunk table file (`bpe-lab count --pattern`,
    summed with `count --sum` or by the Spark job; see `read_chunk_table`), with the table's
    pattern and special tokens: training on the text the table counted gives the same
    encoding. `pattern` and `special_tokens`, when given, must be the table's (a `ValueError`
    says how they disagree), as `bpe-lab train --byte-level --word-counts` requires."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    rows, regex, specials = read_chunk_table(path)
    shown = os.fspath(path)
    if pattern is not None:
        if not isinstance(pattern, str):
            raise TypeError(f"pattern must be a pattern name or a regex str, not {type(pattern).__name__}")
        same, table_pattern = _bpe_lab.same_pattern(pattern, pattern not in PATTERN_NAMES, regex)
        if not same:
            raise ValueError(
                f"pattern {pattern!r} disagrees with the chunk table {shown!r}, which was split "
                f"with pattern {table_pattern}: leave out pattern= (the table's is used), or "
                f"count again with {pattern!r}"
            )
    if special_tokens is not None:
        asked = _special_list(special_tokens)
        if asked != specials:
            raise ValueError(
                f"special_tokens {asked!r} disagrees with the chunk table {shown!r}, whose text "
                f"was cut at the special tokens {specials!r}: leave out special_tokens= (the "
                "table's are used), or count again with them"
            )
    trainer, specials = _trainer(regex, specials)
    num_merges = _num_merges(vocab_size, specials)
    trainer.add_counts(rows)
    return _finish(trainer, name, num_merges, tie_break, progress)


def train_lab(
    paragraphs: Iterable[str], num_merges: int, *, tie_break: str = "lexicographic"
) -> _bpe_lab.LabTokenizer:
    """The lab's character-level trainer: each paragraph split on single spaces, each word
    its characters and `</w>`, `num_merges` merges (ties: `"lexicographic"`, the seed's rule,
    or `"first_seen"`, the DeepMind lab's `Counter.most_common`)."""
    _check_texts(paragraphs, "paragraphs")
    paragraphs = list(paragraphs)
    for p in paragraphs:
        if not isinstance(p, str):
            raise TypeError(f"paragraphs must hold str, not {type(p).__name__}")
    num_merges = _check_int(num_merges, "num_merges")
    if num_merges < 0:
        raise ValueError(f"num_merges must not be negative, not {num_merges}")
    if not isinstance(tie_break, str):
        raise TypeError(f"tie_break must be a str, not {type(tie_break).__name__}")
    return _bpe_lab.LabTokenizer.train(paragraphs, num_merges, tie_break)
