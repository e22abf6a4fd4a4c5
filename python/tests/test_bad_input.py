"""Bad input as a Python user expects it (issue 51, deliverable 6): wrong types raise TypeError,
unknown names and bad values ValueError naming what is wrong, and after any of them the next
call works."""

from __future__ import annotations

import pytest

import bpe_lab

TEXT = ["the cat sat on the mat", "the dog ate the cat's hat"] * 20


def still_works():
    enc = bpe_lab.get_encoding("cl100k_base")
    assert enc.encode("hello world") == [15339, 1917]
    assert bpe_lab.train_bytelevel(TEXT, 260).n_vocab == 260


def test_unknown_encoding_lists_the_names():
    with pytest.raises(ValueError) as error:
        bpe_lab.get_encoding("cl200k_base")
    for name in ("r50k_base", "cl100k_base", "o200k_base"):
        assert name in str(error.value)
    assert "cl200k_base" in str(error.value)
    with pytest.raises(ValueError):
        bpe_lab.get_encoding(100)
    with pytest.raises(KeyError):
        bpe_lab.encoding_for_model("no-such-model")
    assert bpe_lab.encoding_for_model("gpt-4").name == "cl100k_base"
    still_works()


@pytest.mark.parametrize(
    "call",
    [
        lambda enc: enc.encode(b"bytes"),
        lambda enc: enc.encode(None),
        lambda enc: enc.encode_ordinary(42),
        lambda enc: enc.encode_ordinary_batch("not a list"),
        lambda enc: enc.encode_ordinary_batch(["ok", 3]),
        lambda enc: enc.decode("123"),
        lambda enc: enc.decode([1.5]),
        lambda enc: enc.decode_bytes([None]),
        lambda enc: enc.decode_single_token_bytes("1"),
        lambda enc: enc.encode_single_token(5),
        lambda enc: enc.encode("x", allowed_special={1}),
    ],
)
def test_wrong_types_raise_type_error(call):
    enc = bpe_lab.get_encoding("o200k_base")
    with pytest.raises(TypeError):
        call(enc)
    still_works()


def test_ids_out_of_range_raise_as_tiktoken_does():
    enc = bpe_lab.get_encoding("r50k_base")
    with pytest.raises(OverflowError):
        enc.decode([-1])
    with pytest.raises(KeyError, match="Invalid token for decoding: 60000"):
        enc.decode([60000])
    with pytest.raises(KeyError):
        enc.decode_single_token_bytes(50257)
    with pytest.raises(ValueError, match="disallowed special token '<|endoftext|>'"):
        enc.encode("a<|endoftext|>")
    still_works()


@pytest.mark.parametrize("pattern", [r"(unclosed", r"[z-a]", r"\p{NoSuchClass}"])
def test_bad_regex_is_a_value_error_with_the_regex_error(pattern):
    with pytest.raises(ValueError, match="not a valid regex"):
        bpe_lab.train_bytelevel(TEXT, 300, pattern=pattern)
    ranks = {bytes([b]): b for b in range(256)}
    with pytest.raises(ValueError, match="not a valid regex"):
        bpe_lab.Encoding("bad", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    still_works()


def test_a_pattern_matching_nothing_or_the_empty_string_is_refused():
    with pytest.raises(ValueError, match="empty string"):
        bpe_lab.train_bytelevel(TEXT, 300, pattern=r"\d*")
    with pytest.raises(ValueError, match="matches nothing"):
        bpe_lab.train_bytelevel(TEXT, 300, pattern=r"\d+")
    still_works()


@pytest.mark.parametrize("size", [0, 1, 255, -5])
def test_vocabulary_below_256_is_refused(size):
    with pytest.raises(ValueError, match="at least 256"):
        bpe_lab.train_bytelevel(TEXT, size)
    still_works()


def test_training_arguments_of_the_wrong_type():
    with pytest.raises(TypeError, match="single str"):
        bpe_lab.train_bytelevel("one long string", 300)
    with pytest.raises(TypeError):
        bpe_lab.train_bytelevel(42, 300)
    with pytest.raises(TypeError, match="must hold str"):
        bpe_lab.train_bytelevel(["fine", b"bytes"], 300)
    with pytest.raises(TypeError, match="vocab_size must be an int"):
        bpe_lab.train_bytelevel(TEXT, "300")
    with pytest.raises(TypeError, match="vocab_size must be an int"):
        bpe_lab.train_bytelevel(TEXT, 300.0)
    with pytest.raises(TypeError):
        bpe_lab.train_bytelevel(TEXT, 300, pattern=3)
    with pytest.raises(TypeError):
        bpe_lab.train_bytelevel(TEXT, 300, special_tokens="<|eot|>")
    with pytest.raises(TypeError):
        bpe_lab.train_bytelevel(TEXT, 300, progress="yes")
    with pytest.raises(ValueError, match="tie_break"):
        bpe_lab.train_bytelevel(TEXT, 300, tie_break="random")
    with pytest.raises(ValueError, match="empty"):
        bpe_lab.train_bytelevel(TEXT, 300, special_tokens=[""])
    with pytest.raises(ValueError, match="twice"):
        bpe_lab.train_bytelevel(TEXT, 300, special_tokens=["<a>", "<a>"])
    with pytest.raises(ValueError, match="nothing to train on"):
        bpe_lab.train_bytelevel(["", "   ", "\n"], 300)
    with pytest.raises(ValueError, match="nothing to train on"):
        bpe_lab.train_bytelevel([], 300)
    with pytest.raises(TypeError):
        bpe_lab.train_lab("a paragraph", 10)
    with pytest.raises(ValueError, match="negative"):
        bpe_lab.train_lab(["a b"], -1)
    still_works()


def test_an_iterator_that_raises_leaves_nothing_broken():
    def failing():
        yield "the cat sat"
        raise RuntimeError("the corpus reader broke")

    with pytest.raises(RuntimeError, match="corpus reader broke"):
        bpe_lab.train_bytelevel(failing(), 300)
    still_works()


def test_a_progress_callback_that_raises_is_raised_after_training():
    def progress(done, total):
        raise ZeroDivisionError("in the callback")

    with pytest.raises(ZeroDivisionError, match="in the callback"):
        bpe_lab.train_bytelevel(TEXT, 270, progress=progress)
    still_works()


def test_bad_ranks_are_refused():
    ranks = {bytes([b]): b for b in range(256)}
    # Ranks without every single byte are tiktoken's to accept (test_missing_bytes.py).
    with pytest.raises(ValueError):
        bpe_lab.Encoding("x", pat_str=r"\w+", mergeable_ranks=ranks, special_tokens={"a": 300})
    with pytest.raises(TypeError):
        bpe_lab.Encoding("x", pat_str=r"\w+", mergeable_ranks={"a": 0}, special_tokens={})
    with pytest.raises(TypeError):
        bpe_lab.Encoding("x", pat_str=r"\w+", mergeable_ranks=ranks, special_tokens={1: 300})
    still_works()
