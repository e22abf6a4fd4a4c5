"""Shared fixtures: tiktoken itself as the reference, its rank files read from the copies the
`tiktoken-rs` crate ships (in cargo's registry), never downloaded; tiktoken checks their
hashes, so the reference is tiktoken's genuine files."""

from __future__ import annotations

import functools
import glob
import os

import pytest

import bpe_lab

# The encodings compared with tiktoken: every one both have.
ENCODINGS = [n for n in ("r50k_base", "p50k_base", "cl100k_base", "o200k_base", "gpt2", "p50k_edit",
                       "o200k_harmony")
             if n in bpe_lab.list_encoding_names()]


def _assets_dir() -> str | None:
    if os.environ.get("BPE_LAB_TIKTOKEN_ASSETS"):
        return os.environ["BPE_LAB_TIKTOKEN_ASSETS"]
    home = os.environ.get("CARGO_HOME") or os.path.join(os.path.expanduser("~"), ".cargo")
    found = sorted(glob.glob(os.path.join(home, "registry", "src", "*", "tiktoken-rs-*", "assets")))
    return found[-1] if found else None


def _need(reason: str):
    # Under ./scripts/test a missing reference is a failure, not a skip.
    if os.environ.get("BPE_LAB_REQUIRE_TIKTOKEN") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@functools.lru_cache(maxsize=None)
def _reference(name: str):
    import tiktoken
    import tiktoken.load

    assets = _assets_dir()
    if assets is None:
        return None
    original = tiktoken.load.read_file

    def local(blobpath: str) -> bytes:
        path = os.path.join(assets, blobpath.rsplit("/", 1)[-1])
        with open(path, "rb") as f:
            return f.read()

    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    tiktoken.load.read_file = local
    try:
        return tiktoken.get_encoding(name)
    finally:
        tiktoken.load.read_file = original


@pytest.fixture(params=ENCODINGS)
def pair(request):
    """(bpe_lab's encoding, tiktoken's) of one name."""
    try:
        import tiktoken  # noqa: F401
    except ImportError:
        _need("tiktoken is not installed (pip install tiktoken)")
    theirs = _reference(request.param)
    if theirs is None:
        _need("tiktoken-rs's rank files were not found in cargo's registry (set BPE_LAB_TIKTOKEN_ASSETS)")
    return bpe_lab.get_encoding(request.param), theirs


def outcome(call, *args, **kwargs):
    """What a call gave: ("ok", value) or ("error", exception type, message)."""
    try:
        return ("ok", call(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the point is to compare any exception
        return ("error", type(e).__name__, str(e))
