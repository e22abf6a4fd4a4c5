"""The lists of ids the package returns: plain `int`s equal to the ids, a new list each call
(the package shares one `int` object per id between lists, which must not show), and ids past
the shared range (an `Encoding` numbering its tokens sparsely) as right as the others."""

from __future__ import annotations

import bpe_lab

PATTERN = r"""\w+|\s+|[^\w\s]+"""


def sparse() -> bpe_lab.Encoding:
    ranks = {bytes([b]): b for b in range(256)}
    # Ranks far past the first few million ids, and a special token past them.
    ranks[b"ab"] = 5_000_000
    ranks[b"abc"] = 5_000_001
    return bpe_lab.Encoding("sparse", pat_str=PATTERN, mergeable_ranks=ranks,
                            special_tokens={"<|end|>": 9_000_000})


def test_a_returned_list_is_the_callers_own():
    enc = bpe_lab.get_encoding("cl100k_base")
    first = enc.encode_ordinary("hello world, hello again")
    expected = list(first)
    first[0] = -1
    first.append(7)
    assert enc.encode_ordinary("hello world, hello again") == expected
    batch = enc.encode_ordinary_batch(["hello world", "hello world"], num_threads=2)
    batch[0][0] = -1
    assert batch[1] == enc.encode_ordinary("hello world")
    assert enc.encode_ordinary_batch(["hello world"])[0] == enc.encode_ordinary("hello world")


def test_ids_are_plain_ints_equal_to_the_ranks():
    enc = bpe_lab.get_encoding("cl100k_base")
    ids = enc.encode("a<|endoftext|>b", allowed_special="all")
    assert all(type(i) is int for i in ids)
    assert ids == [64, 100257, 65]
    assert enc.decode(ids) == "a<|endoftext|>b"


def test_ids_past_the_shared_range_come_out_right():
    enc = sparse()
    assert enc.encode_ordinary("abc ab a") == [5_000_001, 32, 5_000_000, 32, 97]
    assert enc.encode("abc<|end|>", allowed_special={"<|end|>"}) == [5_000_001, 9_000_000]
    assert enc.encode_ordinary_batch(["ab", "abc"]) == [[5_000_000], [5_000_001]]
