#!/usr/bin/env python3
"""The Hugging Face side of tests/suite/hf_parity.rs: encodes texts with exported tokenizer.json files.

Reads one JSON document on stdin: a list of jobs {"tokenizer": PATH, "texts": [...]}. For each
job, loads PATH with `tokenizers.Tokenizer.from_file` and answers, per text, the ids of
`encode` (one text at a time), the ids of `encode_batch` (all texts at once) and `decode` of
those ids. Prints {"version": tokenizers.__version__, "jobs": [{"encode", "batch", "decode"}]}.
"""

import json
import sys

import tokenizers
from tokenizers import Tokenizer


def main():
    jobs = json.load(sys.stdin)
    answers = []
    for job in jobs:
        tokenizer = Tokenizer.from_file(job["tokenizer"])
        texts = job["texts"]
        single = [tokenizer.encode(text).ids for text in texts]
        batch = [e.ids for e in tokenizer.encode_batch(texts)]
        # decode([]) is "" in bpe-lab; HF's Fuse decoder on no tokens is also "".
        decoded = [tokenizer.decode(ids) for ids in single]
        answers.append({"encode": single, "batch": batch, "decode": decoded})
    json.dump({"version": tokenizers.__version__, "jobs": answers}, sys.stdout)


if __name__ == "__main__":
    main()
