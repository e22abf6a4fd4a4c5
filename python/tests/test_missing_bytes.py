"""`Encoding(...)` from ranks that lack some single bytes, as tiktoken takes them: built without
complaint; a text whose merging leaves a missing byte raises what tiktoken raises there (its
Rust panic, `pyo3_runtime.PanicException`, a BaseException but no Exception), every other text
encodes to tiktoken's ids, and ids that are no token fail to decode as in tiktoken."""

from __future__ import annotations

import pytest

import bpe_lab

PATTERN = r"""'s|\w+|\s+|[^\w\s]+"""


def ranks() -> dict[bytes, int]:
    # No "z" and no 0xff; "zz" and "xz" are tokens all the same.
    out = {bytes([b]): b for b in range(256) if b not in (ord("z"), 0xFF)}
    out.update({b"ab": 300, b"zz": 301, b"xz": 302, b"abz": 303})
    return out


def build(module):
    return module.Encoding("partial", pat_str=PATTERN, mergeable_ranks=ranks(),
                           special_tokens={"<|e|>": 400})


def result(call, *args, **kwargs):
    """("ok", value), or ("raised", module and name of the type, is it an Exception)."""
    try:
        value = call(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 - tiktoken's panic is a BaseException
        kind = type(e)
        return ("raised", f"{kind.__module__}.{kind.__name__}", isinstance(e, Exception))
    if isinstance(value, tuple):  # encode_with_unstable: completions as a set
        return ("ok", (value[0], {tuple(c) for c in value[1]}))
    return ("ok", value)


CALLS = [
    ("encode_ordinary", lambda e, t: e.encode_ordinary(t)),
    ("encode", lambda e, t: e.encode(t, allowed_special="all")),
    ("encode_ordinary_batch", lambda e, t: e.encode_ordinary_batch([t, "ab"], num_threads=2)),
    ("encode_batch", lambda e, t: e.encode_batch(["ab", t], allowed_special="all")),
    ("encode_with_unstable", lambda e, t: e.encode_with_unstable(t, allowed_special="all")),
    ("_encode_single_piece", lambda e, t: e._encode_single_piece(t)),
]
# Texts without a missing byte once merged ("zz", "xz", "abz" are tokens; "ÿ" is two bytes
# that both have ranks), and texts that need "z" or 0xff alone.
TEXTS = ["abc", "zz", "xz", "abz", "ÿ", "a<|e|>b", "", "az", "z", "a z", "zzz", "b\xff"]


def test_built_and_used_as_tiktoken_does():
    tiktoken = pytest.importorskip("tiktoken")
    ours, theirs = build(bpe_lab), build(tiktoken)
    assert ours.n_vocab == theirs.n_vocab
    assert ours.max_token_value == theirs.max_token_value
    seen = set()
    for text in TEXTS:
        for what, call in CALLS:
            if what == "_encode_single_piece" and not text:
                continue  # tiktoken panics on no bytes with any ranks; bpe_lab gives []
            want = result(call, theirs, text)
            assert result(call, ours, text) == want, (what, text)
            seen.add(want[0])
    # Both outcomes were exercised, and the failures are tiktoken's panic.
    assert seen == {"ok", "raised"}
    assert result(ours.encode_ordinary, "z") == ("raised", "pyo3_runtime.PanicException", False)
    for ids in ([0], [ord("z")], [301], [0xFF]):
        assert result(ours.decode_bytes, ids)[:2] == result(theirs.decode_bytes, ids)[:2], ids


def test_the_encoding_works_after_a_failure():
    enc = build(bpe_lab)
    with pytest.raises(BaseException) as raised:
        enc.encode_ordinary("a z")
    assert type(raised.value).__name__ == "PanicException"
    assert "single bytes" in str(raised.value)
    assert enc.encode_ordinary("abc") == [300, 99]
