"""The production encodings by name (tiktoken's `get_encoding`), and models' encodings.

The rank files are the ones the library compiles in (from the crate that ships them): nothing is
downloaded. Each encoding is built once per process and shared, as tiktoken does.
"""

from __future__ import annotations

import threading

from bpe_lab import _bpe_lab
from bpe_lab.core import Encoding

_lock = threading.RLock()
ENCODINGS: dict[str, Encoding] = {}

# Encodings that are another one's ranks and pattern under their own name and specials, as
# tiktoken defines them: (base, special tokens).
_DERIVED: dict[str, tuple[str, dict[str, int]]] = {
    "gpt2": ("r50k_base", {"<|endoftext|>": 50256}),
    "p50k_edit": (
        "p50k_base",
        {
            "<|endoftext|>": 50256,
            "<|fim_prefix|>": 50281,
            "<|fim_middle|>": 50282,
            "<|fim_suffix|>": 50283,
        },
    ),
}


def list_encoding_names() -> list[str]:
    """The encodings `get_encoding` can build in this build."""
    base = list(_bpe_lab.encoding_names())
    # The library may already build a derived name itself: each name is listed once.
    return base + [name for name, (of, _) in _DERIVED.items() if of in base and name not in base]


def get_encoding(encoding_name: str) -> Encoding:
    """A production encoding by tiktoken's name; `ValueError` listing the names for any other."""
    if not isinstance(encoding_name, str):
        raise ValueError(f"Expected a string in get_encoding, got {type(encoding_name)}")
    if encoding_name in ENCODINGS:
        return ENCODINGS[encoding_name]
    with _lock:
        if encoding_name in ENCODINGS:
            return ENCODINGS[encoding_name]
        if encoding_name in _DERIVED:
            base_name, specials = _DERIVED[encoding_name]
            base = _bpe_lab.CoreBpe.openai(base_name)
            core = None if base is None else base.with_specials(encoding_name, specials)
        else:
            core = _bpe_lab.CoreBpe.openai(encoding_name)
        if core is None:
            raise ValueError(
                f"Unknown encoding {encoding_name!r}: the encodings are "
                f"{', '.join(list_encoding_names())}"
            )
        encoding = Encoding._from_core(core)
        ENCODINGS[encoding_name] = encoding
        return encoding


# Which encoding each model uses (tiktoken 0.14's table): exact names, then prefixes.
MODEL_TO_ENCODING: dict[str, str] = {
    "o1": "o200k_base",
    "o3": "o200k_base",
    "o4-mini": "o200k_base",
    "gpt-5": "o200k_base",
    "gpt-4.1": "o200k_base",
    "gpt-4o": "o200k_base",
    "gpt-4": "cl100k_base",
    "gpt-3.5-turbo": "cl100k_base",
    "gpt-3.5": "cl100k_base",
    "gpt-35-turbo": "cl100k_base",
    "davinci-002": "cl100k_base",
    "babbage-002": "cl100k_base",
    "text-embedding-ada-002": "cl100k_base",
    "text-embedding-3-small": "cl100k_base",
    "text-embedding-3-large": "cl100k_base",
    "text-davinci-003": "p50k_base",
    "text-davinci-002": "p50k_base",
    "text-davinci-001": "r50k_base",
    "text-curie-001": "r50k_base",
    "text-babbage-001": "r50k_base",
    "text-ada-001": "r50k_base",
    "davinci": "r50k_base",
    "curie": "r50k_base",
    "babbage": "r50k_base",
    "ada": "r50k_base",
    "code-davinci-002": "p50k_base",
    "code-davinci-001": "p50k_base",
    "code-cushman-002": "p50k_base",
    "code-cushman-001": "p50k_base",
    "davinci-codex": "p50k_base",
    "cushman-codex": "p50k_base",
    "text-davinci-edit-001": "p50k_edit",
    "code-davinci-edit-001": "p50k_edit",
    "text-similarity-davinci-001": "r50k_base",
    "text-similarity-curie-001": "r50k_base",
    "text-similarity-babbage-001": "r50k_base",
    "text-similarity-ada-001": "r50k_base",
    "text-search-davinci-doc-001": "r50k_base",
    "text-search-curie-doc-001": "r50k_base",
    "text-search-babbage-doc-001": "r50k_base",
    "text-search-ada-doc-001": "r50k_base",
    "code-search-babbage-code-001": "r50k_base",
    "code-search-ada-code-001": "r50k_base",
    "gpt2": "gpt2",
    "gpt-2": "gpt2",
}

MODEL_PREFIX_TO_ENCODING: dict[str, str] = {
    "o1-": "o200k_base",
    "o3-": "o200k_base",
    "o4-mini-": "o200k_base",
    "gpt-5": "o200k_base",
    "gpt-4.5-": "o200k_base",
    "gpt-4.1-": "o200k_base",
    "chatgpt-4o-": "o200k_base",
    "gpt-4o-": "o200k_base",
    "gpt-4-": "cl100k_base",
    "gpt-3.5-turbo-": "cl100k_base",
    "gpt-35-turbo-": "cl100k_base",
    "gpt-oss-": "o200k_harmony",
    "ft:gpt-4o": "o200k_base",
    "ft:gpt-4": "cl100k_base",
    "ft:gpt-3.5-turbo": "cl100k_base",
    "ft:davinci-002": "cl100k_base",
    "ft:babbage-002": "cl100k_base",
}


def encoding_name_for_model(model_name: str) -> str:
    """The name of a model's encoding; `KeyError` for a model not known."""
    if model_name in MODEL_TO_ENCODING:
        return MODEL_TO_ENCODING[model_name]
    for prefix, encoding_name in MODEL_PREFIX_TO_ENCODING.items():
        if model_name.startswith(prefix):
            return encoding_name
    raise KeyError(
        f"Could not automatically map {model_name} to a tokeniser. "
        "Please use `bpe_lab.get_encoding` to explicitly get the tokeniser you expect."
    ) from None


def encoding_for_model(model_name: str) -> Encoding:
    """A model's encoding; `KeyError` for a model not known."""
    return get_encoding(encoding_name_for_model(model_name))
