"""Training from Python: byte-level BPE from an iterator of texts, and the lab's trainer."""

from __future__ import annotations

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
