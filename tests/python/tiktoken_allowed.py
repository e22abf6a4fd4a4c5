#!/usr/bin/env python3
"""The Python side of tests/suite/encode_features.rs: tiktoken's `encode` with a chosen set of
allowed special tokens, and its ids cut to the first N, from a local rank file.

Reads one JSON document on stdin:
  {"rank_file", "sidecar": {"name", "pat_str", "special_tokens"},
   "cases": [{"text", "allowed": [TOKEN, ...] or "all", "as_text": bool, "max": N or null}]}
and prints {"answers": [{"ids": [...]} or {"error": "disallowed"}, ...]}: per case
`encode(text, allowed_special=set(allowed), disallowed_special=() if as_text else "all")`,
then `[:max]`.
"""

import json
import sys

import tiktoken
from tiktoken.load import load_tiktoken_bpe


def main():
    request = json.load(sys.stdin)
    sidecar = request["sidecar"]
    encoding = tiktoken.Encoding(
        sidecar["name"],
        pat_str=sidecar["pat_str"],
        mergeable_ranks=load_tiktoken_bpe(request["rank_file"]),
        special_tokens=sidecar["special_tokens"],
    )
    answers = []
    for case in request["cases"]:
        allowed = case["allowed"] if case["allowed"] == "all" else set(case["allowed"])
        disallowed = () if case["as_text"] else "all"
        try:
            ids = encoding.encode(
                case["text"], allowed_special=allowed, disallowed_special=disallowed
            )
        except ValueError:
            answers.append({"error": "disallowed"})
            continue
        if case["max"] is not None:
            ids = ids[: case["max"]]
        answers.append({"ids": ids})
    json.dump({"answers": answers}, sys.stdout)


if __name__ == "__main__":
    main()
