"""bpe_lab against tiktoken itself, behaviour for behaviour: ids, errors (type and message) and
decoded bytes, on generated and hostile text, for every encoding both have."""

from __future__ import annotations

import pickle
import random

import pytest

from conftest import _need, outcome

PIECES = [
    "hello", " world", "Hello", "HELLO", "don't", "I'LL", "we've", " 's", "1234567", "3.14159",
    "٣٤٥", "  ", "    ", "\t", "\n", "\r\n", "\n\n\n", " \n ", "!!!", "...", "?!", "/", "//",
    "😀", "👩‍👩‍👧‍👦", "🇫🇷", "e\u0301", "a\u0308\u0301", "\u0301", "ሰላም", "ኢትዮጵያ", "ߒߞߏ",
    "߁߂߃", "中文", "日本語のテキスト", "한국어", "Ελληνικά", "русский", "עברית", "العربية",
    "हिन्दी", "ไทย", "\u200b", "\u00a0", "\ufeff", "\x00", "\x7f", "\U0010ffff", "<|", "|>",
    "<|endoftext", "endoftext|>", "<<|endoftext|>>", "ǅ", "ʰ", "ǈ", "ﬁ", "ℕ", "Ⅻ",
]

HOSTILE = [
    "",
    " ",
    " " * 1000,
    " " * 1001 + "x",
    "\n" * 500,
    "\t \n \r\n" * 50,
    "0" * 1000,
    "1234567890" * 100,
    "a" * 5000,
    "😀" * 300,
    "e" + "\u0301" * 200,
    "ሰ" * 500,
    "ߒ" * 500 + "߁" * 50,
    "x" + "'s" * 200,
    "".join(chr(c) for c in range(32, 0x2FF)),
    "\u3000 \u3000\u2028\u2029\x85\x0b\x0c",
]

SURROGATES = [
    "\ud800",
    "a\udfffb",
    "\ud83d\ude00",  # a pair: tiktoken makes it the emoji
    "\ude00\ud83d",  # reversed: two replacement characters
    "x\ud800 \udc00y",
]


def generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40))) for _ in range(count)]


TEXTS = HOSTILE + generated(51, 300)


def test_ordinary_ids_and_bytes_agree(pair):
    ours, theirs = pair
    for text in TEXTS + SURROGATES:
        want = theirs.encode_ordinary(text)
        assert ours.encode_ordinary(text) == want, text
        assert ours.encode(text, disallowed_special=()) == want, text
        assert ours.decode_bytes(want) == theirs.decode_bytes(want)
        assert ours.decode(want) == theirs.decode(want)
        assert ours.decode_tokens_bytes(want) == theirs.decode_tokens_bytes(want)


def _sampled(specials: list[str]) -> list[str]:
    """Every special of a small set; of a large one (o200k_harmony reserves over a thousand),
    the named ones and every 128th reserved one: the test is quadratic in their number."""
    if len(specials) <= 16:
        return specials
    named = [s for s in specials if "reserved" not in s]
    reserved = [s for s in specials if "reserved" in s]
    return named + reserved[::128]


def test_special_tokens_in_every_position_and_setting(pair):
    ours, theirs = pair
    every = sorted(theirs.special_tokens_set)
    specials = _sampled(every)
    settings = [
        {},
        {"allowed_special": "all"},
        {"disallowed_special": ()},
        {"allowed_special": "all", "disallowed_special": ()},
        {"allowed_special": "all", "disallowed_special": "all"},
    ]
    for special in specials:
        others = set(specials) - {special}
        settings += [
            {"allowed_special": {special}},
            {"allowed_special": {special}, "disallowed_special": ()},
            {"allowed_special": set(others)},
            {"disallowed_special": {special}},
            {"disallowed_special": others},
            {"allowed_special": {"<|not_a_special|>", special}},
        ]
    texts = []
    for special in specials:
        texts += [
            special, special * 2, " " + special, special + " ", "a" + special + "b",
            "hello " + special + " world", special + "\n" + special, special[:-1], special[1:],
            "<" + special + ">", "  " + special + "  123",
        ]
    texts.append(" ".join(every))
    texts.append("".join(every))
    for text in texts:
        for setting in settings:
            want = outcome(theirs.encode, text, **setting)
            assert outcome(ours.encode, text, **setting) == want, (text, setting)
            if want[0] == "ok":
                assert ours.decode_bytes(want[1]) == theirs.decode_bytes(want[1])


def test_batches_agree(pair):
    ours, theirs = pair
    texts = generated(7, 60) + SURROGATES
    for threads in (1, 2, 8):
        assert ours.encode_ordinary_batch(texts, num_threads=threads) == theirs.encode_ordinary_batch(
            texts, num_threads=threads
        )
    special = sorted(theirs.special_tokens_set)[0]
    with_special = [t + special for t in texts[:10]]
    assert outcome(ours.encode_batch, with_special) == outcome(theirs.encode_batch, with_special)
    assert ours.encode_batch(with_special, allowed_special="all") == theirs.encode_batch(
        with_special, allowed_special="all"
    )
    ids = theirs.encode_ordinary_batch(texts)
    assert ours.decode_batch(ids) == theirs.decode_batch(ids)
    assert ours.decode_bytes_batch(ids) == theirs.decode_bytes_batch(ids)


def test_decoding_lossy_and_invalid_ids(pair):
    ours, theirs = pair
    cut = theirs.encode("😀 héllo ሰላም")
    pieces = [[i] for i in cut] + [cut[:1], cut[1:], cut[::-1]]
    for ids in pieces:
        for errors in ("replace", "ignore", "strict", "surrogateescape", "backslashreplace"):
            assert outcome(ours.decode, ids, errors=errors) == outcome(theirs.decode, ids, errors=errors)
        assert outcome(ours.decode_with_offsets, ids) == outcome(theirs.decode_with_offsets, ids)
    top = theirs.max_token_value
    holes = [i for i in range(top - 300, top + 3) if i not in theirs._special_token_values]
    for bad in [top + 1, top + 1000, 2**32 - 1, *holes[:5]]:
        assert outcome(ours.decode_single_token_bytes, bad) == outcome(theirs.decode_single_token_bytes, bad)
        assert outcome(ours.decode_bytes, [1, bad]) == outcome(theirs.decode_bytes, [1, bad])
        assert outcome(ours.decode, [bad]) == outcome(theirs.decode, [bad])
    for bad in [-1, 2**32, 2**70]:
        assert outcome(ours.decode_bytes, [bad])[:2] == outcome(theirs.decode_bytes, [bad])[:2]
        assert outcome(ours.decode_single_token_bytes, bad)[:2] == outcome(
            theirs.decode_single_token_bytes, bad
        )[:2]
    assert outcome(ours.decode, ["1"])[:2] == outcome(theirs.decode, ["1"])[:2]


def test_single_tokens_and_vocabulary_agree(pair):
    ours, theirs = pair
    assert ours.name == theirs.name
    assert ours.n_vocab == theirs.n_vocab
    assert ours.max_token_value == theirs.max_token_value
    assert ours.special_tokens_set == theirs.special_tokens_set
    assert ours.eot_token == theirs.eot_token
    assert ours._pat_str == theirs._pat_str
    assert ours._special_tokens == theirs._special_tokens
    assert ours.token_byte_values() == theirs.token_byte_values()
    for token in [0, 1, 255, 256, 1000, theirs.eot_token, theirs.max_token_value]:
        assert ours.is_special_token(token) == theirs.is_special_token(token)
        assert outcome(ours.decode_single_token_bytes, token) == outcome(
            theirs.decode_single_token_bytes, token
        )
    for piece in ["hello", b" world", b"\xff", "<|endoftext|>", "not one token at all", b"", ""]:
        assert outcome(ours.encode_single_token, piece) == outcome(theirs.encode_single_token, piece)


def test_pickling_keeps_the_encoding(pair):
    ours, theirs = pair
    again = pickle.loads(pickle.dumps(ours))
    assert again.encode("hello world<|endoftext|>", allowed_special="all") == theirs.encode(
        "hello world<|endoftext|>", allowed_special="all"
    )


def test_bytes_that_are_not_utf8_agree(pair):
    ours, theirs = pair
    rng = random.Random(5)
    samples = [b"", b"\xff", b" \xec\x8b\xa4\xed", b"hello \xe2\x82", b"  \n\n \xf0\x9f\x98", b"\x80abc"]
    for text in generated(9, 40):
        data = text.encode("utf-8")
        samples += [data, data[: max(0, len(data) - 1)], data + b"\xc3", bytes(rng.randrange(256) for _ in range(12))]
    for data in samples:
        assert ours._encode_bytes(data) == theirs._encode_bytes(data), data
        if data:  # tiktoken panics on no bytes; bpe_lab gives no ids (below)
            assert ours._encode_single_piece(data) == theirs._encode_single_piece(data), data
    assert ours._encode_single_piece(b"") == []


def test_encoding_names_are_tiktokens():
    """Every name tiktoken lists is listed, each once (a name listed twice was a bug)."""
    import bpe_lab

    try:
        import tiktoken
    except ImportError:
        _need("tiktoken is not installed (pip install tiktoken)")
    names = bpe_lab.list_encoding_names()
    assert len(names) == len(set(names)), names
    assert set(tiktoken.list_encoding_names()) <= set(names), names
