"""`Encoding`: tiktoken's `Encoding`, argument for argument, on bpe-lab's byte-level tokenizer.

The argument rules are tiktoken's and live here, as tiktoken keeps them in its own `core.py`:
`allowed_special="all"`, the check that refuses a disallowed special token (a `ValueError`
naming it), and the answer to a `str` holding lone surrogates (re-encoded with
`surrogatepass`, then `replace`). Everything else is one call into the compiled module, which
releases the GIL while the library works.
"""

from __future__ import annotations

import functools
import re
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, AbstractSet, Collection, Literal, NoReturn, Sequence

from bpe_lab import _bpe_lab

if TYPE_CHECKING:
    import os

    import numpy as np
    import numpy.typing as npt


def _without_surrogates(text: str) -> str:
    # A lone surrogate has no UTF-8; tiktoken turns surrogate pairs into their character and
    # every other surrogate into U+FFFD, and so do we, so that the ids agree.
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


class Encoding:
    """A byte-level BPE encoding: ranks, a split pattern and special tokens (tiktoken's API)."""

    def __init__(
        self,
        name: str,
        *,
        pat_str: str,
        mergeable_ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        explicit_n_vocab: int | None = None,
    ):
        self.name = name
        self._pat_str = pat_str
        self._mergeable_ranks_given = mergeable_ranks
        self._special_tokens = special_tokens
        self.max_token_value = max(
            max(mergeable_ranks.values()), max(special_tokens.values(), default=0)
        )
        if explicit_n_vocab:
            assert len(mergeable_ranks) + len(special_tokens) == explicit_n_vocab
            assert self.max_token_value == explicit_n_vocab - 1
        self._special_token_values = set(special_tokens.values())
        self._core_bpe = _bpe_lab.CoreBpe(name, mergeable_ranks, special_tokens, pat_str)

    @classmethod
    def _from_core(cls, core: _bpe_lab.CoreBpe) -> Encoding:
        """An encoding around a tokenizer the library built (a production encoding, a trained
        one): its ranks stay in Rust until someone asks for `_mergeable_ranks`."""
        self = cls.__new__(cls)
        self.name = core.name
        self._pat_str = core.pattern
        self._mergeable_ranks_given = None
        self._special_tokens = core.special_tokens()
        self._core_bpe = core
        self.max_token_value = core.n_vocab - 1
        self._special_token_values = set(self._special_tokens.values())
        return self

    @property
    def _mergeable_ranks(self) -> dict[bytes, int]:
        if self._mergeable_ranks_given is None:
            self._mergeable_ranks_given = self._core_bpe.mergeable_ranks()
        return self._mergeable_ranks_given

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"

    # Encoding

    def encode_ordinary(self, text: str) -> list[int]:
        """The ids of `text`, special tokens encoded as the text they are."""
        try:
            return self._core_bpe.encode_ordinary(text)
        except UnicodeEncodeError:
            return self._core_bpe.encode_ordinary(_without_surrogates(text))

    def _check_special(
        self,
        text: str,
        allowed_special: Literal["all"] | AbstractSet[str],
        disallowed_special: Literal["all"] | Collection[str],
    ) -> AbstractSet[str]:
        """tiktoken's rules: the allowed set, after refusing a disallowed token in `text`."""
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - allowed_special
        if disallowed_special:
            if not isinstance(disallowed_special, frozenset):
                disallowed_special = frozenset(disallowed_special)
            match = _special_token_regex(disallowed_special).search(text)
            if match:
                raise_disallowed_special_token(match.group())
        return allowed_special

    def encode(
        self,
        text: str,
        *,
        allowed_special: Literal["all"] | AbstractSet[str] = set(),  # noqa: B006
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> list[int]:
        """The ids of `text`. A special token in `allowed_special` ("all": every one) becomes
        its id; one in `disallowed_special` (by default every one not allowed) raises
        `ValueError`; any other is encoded as ordinary text."""
        allowed = self._check_special(text, allowed_special, disallowed_special)
        try:
            return self._core_bpe.encode(text, list(allowed))
        except UnicodeEncodeError:
            return self._core_bpe.encode(_without_surrogates(text), list(allowed))

    def encode_with_unstable(
        self,
        text: str,
        *,
        allowed_special: Literal["all"] | AbstractSet[str] = set(),  # noqa: B006
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> tuple[list[int], list[list[int]]]:
        """The ids of `text` that more text cannot change, and every way the rest may be
        encoded once the text goes on (lists of ids, in no particular order). The special
        tokens are treated as in `encode`."""
        allowed = self._check_special(text, allowed_special, disallowed_special)
        return self._core_bpe.encode_with_unstable(text, list(allowed))

    def encode_to_numpy(
        self,
        text: str,
        *,
        allowed_special: Literal["all"] | AbstractSet[str] = set(),  # noqa: B006
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> npt.NDArray[np.uint32]:
        """`encode` as a numpy array of uint32 (needs numpy)."""
        import numpy as np

        ids = self.encode(
            text, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
        return np.array(ids, dtype=np.uint32)

    def encode_ordinary_batch(self, text: list[str], *, num_threads: int = 8) -> list[list[int]]:
        """`encode_ordinary` of each text, on `num_threads` threads of the library's own (the
        GIL released throughout)."""
        try:
            return self._core_bpe.encode_ordinary_batch(text, num_threads)
        except UnicodeEncodeError:
            fixed = [_without_surrogates(t) if isinstance(t, str) else t for t in text]
            return self._core_bpe.encode_ordinary_batch(fixed, num_threads)

    def encode_batch(
        self,
        text: list[str],
        *,
        num_threads: int = 8,
        allowed_special: Literal["all"] | AbstractSet[str] = set(),  # noqa: B006
        disallowed_special: Literal["all"] | Collection[str] = "all",
    ) -> list[list[int]]:
        """`encode` of each text, on `num_threads` threads."""
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - allowed_special
        if not isinstance(disallowed_special, frozenset):
            disallowed_special = frozenset(disallowed_special)
        encoder = functools.partial(
            self.encode, allowed_special=allowed_special, disallowed_special=disallowed_special
        )
        with ThreadPoolExecutor(num_threads) as pool:
            return list(pool.map(encoder, text))

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of one token's text or bytes (special tokens too); `KeyError` if none."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        return self._core_bpe.encode_single_token(text_or_bytes)

    # Decoding

    def decode_bytes(self, tokens: Sequence[int]) -> bytes:
        """The bytes of `tokens`; `KeyError` for an id that is no token."""
        return self._core_bpe.decode_bytes(tokens)

    def decode(self, tokens: Sequence[int], errors: str = "replace") -> str:
        """The text of `tokens`; bytes that are not UTF-8 are handled as `errors` says
        (`bytes.decode`'s argument; by default U+FFFD replaces them)."""
        return self._core_bpe.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one id (a special token's text too); `KeyError` if none."""
        return self._core_bpe.decode_single_token_bytes(token)

    def decode_tokens_bytes(self, tokens: Sequence[int]) -> list[bytes]:
        """Each id's bytes."""
        return [self.decode_single_token_bytes(token) for token in tokens]

    def decode_with_offsets(self, tokens: Sequence[int]) -> tuple[str, list[int]]:
        """The text of `tokens` and, for each, the index of the character where it starts (the
        character holding its first byte when a token starts inside a character). Raises
        `UnicodeDecodeError` when the bytes are not UTF-8."""
        pieces = self.decode_tokens_bytes(tokens)
        offsets = []
        chars = 0
        for piece in pieces:
            starts_inside = bool(piece) and 0x80 <= piece[0] < 0xC0
            offsets.append(max(0, chars - starts_inside))
            # A character starts at every byte that is not a continuation byte.
            chars += sum(1 for b in piece if not 0x80 <= b < 0xC0)
        return b"".join(pieces).decode("utf-8", errors="strict"), offsets

    def decode_batch(
        self, batch: Sequence[Sequence[int]], *, errors: str = "replace", num_threads: int = 8
    ) -> list[str]:
        """`decode` of each list of ids."""
        decoder = functools.partial(self.decode, errors=errors)
        with ThreadPoolExecutor(num_threads) as pool:
            return list(pool.map(decoder, batch))

    def decode_bytes_batch(
        self, batch: Sequence[Sequence[int]], *, num_threads: int = 8
    ) -> list[bytes]:
        """`decode_bytes` of each list of ids."""
        with ThreadPoolExecutor(num_threads) as pool:
            return list(pool.map(self.decode_bytes, batch))

    # The rest

    def token_byte_values(self) -> list[bytes]:
        """Every ordinary token's bytes, sorted."""
        return self._core_bpe.token_byte_values()

    @property
    def eot_token(self) -> int:
        return self._special_tokens["<|endoftext|>"]

    @functools.cached_property
    def special_tokens_set(self) -> set[str]:
        return set(self._special_tokens.keys())

    def is_special_token(self, token: int) -> bool:
        assert isinstance(token, int)
        return token in self._special_token_values

    @property
    def n_vocab(self) -> int:
        """One past the highest id (`max_token_value + 1`)."""
        return self.max_token_value + 1

    # Files

    def save_tiktoken(self, path: str | os.PathLike[str]) -> str:
        """Writes the ranks as a tiktoken rank file at `path`, and the pattern and special
        tokens (what `Encoding(...)` needs beside it) as JSON at `path` + ".json"; returns
        that second path."""
        return self._core_bpe.save_tiktoken(path)

    def save_hf(self, path: str | os.PathLike[str]) -> None:
        """Writes a Hugging Face `tokenizer.json` that gives the same ids."""
        self._core_bpe.save_hf(path)

    # Pickling: a registered encoding by its name, any other by its parts.

    # tiktoken's private helpers, which its own tests use.

    def _encode_single_piece(self, text_or_bytes: str | bytes) -> list[int]:
        """The ids of a text or bytes taken as one chunk, without the split pattern."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        return self._core_bpe.encode_single_piece(text_or_bytes)

    def _encode_bytes(self, text: bytes) -> list[int]:
        """The ids of bytes that may not be UTF-8, as tiktoken gives them: the valid prefix
        encoded as text, except that its last chunk (with the whitespace-only tokens before
        it) is merged again together with the invalid rest, as one piece."""
        try:
            return self.encode_ordinary(text.decode("utf-8"))
        except UnicodeDecodeError as e:
            end = e.start
        valid = text[:end].decode("utf-8")
        tokens = self.encode_ordinary(valid)
        last = self._core_bpe.last_chunk_len(valid)
        encoded = valid.encode("utf-8")
        in_last = len(self._core_bpe.encode_single_piece(encoded[len(encoded) - last :])) if last else 0

        def all_space(token: int) -> bool:
            return all(b in b" \n\t" for b in self.decode_single_token_bytes(token))

        # A split before trailing whitespace can disappear once more bytes follow, so the
        # whitespace tokens before the last chunk are merged again too.
        if in_last and all_space(tokens[-in_last]):
            while in_last < len(tokens) and all_space(tokens[-in_last - 1]):
                in_last += 1
        rest = text[end:]
        if tokens and in_last:
            rest = self.decode_bytes(tokens[-in_last:]) + rest
            tokens = tokens[:-in_last]
        if rest:
            tokens += self._core_bpe.encode_single_piece(rest)
        return tokens

    def __getstate__(self) -> object:
        from bpe_lab import registry

        if self is registry.ENCODINGS.get(self.name):
            return self.name
        return {
            "name": self.name,
            "pat_str": self._pat_str,
            "mergeable_ranks": self._mergeable_ranks,
            "special_tokens": self._special_tokens,
        }

    def __setstate__(self, value: object) -> None:
        from bpe_lab import registry

        if isinstance(value, str):
            self.__dict__ = registry.get_encoding(value).__dict__
            return
        self.__init__(**value)


@functools.lru_cache(maxsize=128)
def _special_token_regex(tokens: frozenset[str]) -> re.Pattern[str]:
    inner = "|".join(re.escape(token) for token in tokens)
    return re.compile(f"({inner})")


def raise_disallowed_special_token(token: str) -> NoReturn:
    # tiktoken's message, word for word: code that matches on it keeps working.
    raise ValueError(
        f"Encountered text corresponding to disallowed special token {token!r}.\n"
        "If you want this text to be encoded as a special token, "
        f"pass it to `allowed_special`, e.g. `allowed_special={{{token!r}, ...}}`.\n"
        f"If you want this text to be encoded as normal text, disable the check for this token "
        f"by passing `disallowed_special=(enc.special_tokens_set - {{{token!r}}})`.\n"
        "To disable this check for all special tokens, pass `disallowed_special=()`.\n"
    )
