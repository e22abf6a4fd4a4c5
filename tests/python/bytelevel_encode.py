#!/usr/bin/env python3
"""The Python side of tests/suite/bytelevel_parity.rs: encodes texts with tiktoken and with Hugging
Face tokenizers, from local files only (nothing is downloaded).

Reads one JSON document on stdin: a list of jobs, each
  {"kind": "tiktoken", "rank_file", "name", "pat_str", "special_tokens", "texts"} or
  {"kind": "hf", "tokenizer", "texts"}.
For tiktoken it answers, per text, `encode(text, allowed_special="all")`, the same through
`encode_batch(..., num_threads=2)`, `encode_ordinary` and `decode`; for Hugging Face `encode`,
`encode_batch` and `decode`. Prints {"jobs": [...]}.
"""

import json
import sys


def tiktoken_job(job):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    ranks = load_tiktoken_bpe(job["rank_file"])
    encoding = tiktoken.Encoding(
        job["name"],
        pat_str=job["pat_str"],
        mergeable_ranks=ranks,
        special_tokens=job["special_tokens"],
    )
    texts = job["texts"]
    encode = [encoding.encode(t, allowed_special="all") for t in texts]
    batch = encoding.encode_batch(texts, num_threads=2, allowed_special="all")
    ordinary = [encoding.encode_ordinary(t) for t in texts]
    decode = [encoding.decode(ids) for ids in encode]
    return {"encode": encode, "batch": batch, "ordinary": ordinary, "decode": decode}


def hf_job(job):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(job["tokenizer"])
    texts = job["texts"]
    encode = [tokenizer.encode(t).ids for t in texts]
    batch = [e.ids for e in tokenizer.encode_batch(texts)]
    decode = [tokenizer.decode(ids, skip_special_tokens=False) for ids in encode]
    return {"encode": encode, "batch": batch, "decode": decode}


def main():
    jobs = json.load(sys.stdin)
    answers = [tiktoken_job(j) if j["kind"] == "tiktoken" else hf_job(j) for j in jobs]
    json.dump({"jobs": answers}, sys.stdout)


if __name__ == "__main__":
    main()
