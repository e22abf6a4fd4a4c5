#!/usr/bin/env python3
"""The Python side of tests/suite/openai_encodings.rs: OpenAI's encodings exactly as tiktoken's own
`tiktoken_ext.openai_public` constructors define them (patterns, special tokens, vocabulary
sizes), and tiktoken's model-name mapping, from local rank files only (nothing is downloaded).

Reads one JSON document on stdin:
  {"files": {"r50k_base.tiktoken": PATH, "vocab.bpe": PATH, ...}, "encodings": [NAME, ...],
   "texts": [TEXT, ...], "models": [MODEL, ...]}
tiktoken reads every file by URL; each URL's last part is looked up in "files" instead (its
hash check is skipped: the files are written from the crate that ships them). Prints
  {"encodings": [{"name", "pat_str", "special_tokens", "n_vocab", "encode", "ordinary"}],
   "models": {MODEL: ENCODING or null}}.
"""

import json
import sys

import tiktoken
import tiktoken.load
from tiktoken.model import encoding_name_for_model
from tiktoken_ext import openai_public


def main():
    request = json.load(sys.stdin)
    files = request["files"]

    def read_local(blobpath, expected_hash=None):
        with open(files[blobpath.rsplit("/", 1)[-1]], "rb") as f:
            return f.read()

    tiktoken.load.read_file_cached = read_local
    answers = []
    for name in request["encodings"]:
        spec = openai_public.ENCODING_CONSTRUCTORS[name]()
        encoding = tiktoken.Encoding(**spec)
        texts = request["texts"]
        answers.append(
            {
                "name": name,
                "pat_str": spec["pat_str"],
                "special_tokens": spec["special_tokens"],
                "n_vocab": encoding.n_vocab,
                "encode": [encoding.encode(t, allowed_special="all") for t in texts],
                "ordinary": [encoding.encode_ordinary(t) for t in texts],
            }
        )
    models = {}
    for model in request["models"]:
        try:
            models[model] = encoding_name_for_model(model)
        except KeyError:
            models[model] = None
    json.dump({"encodings": answers, "models": models}, sys.stdout)


if __name__ == "__main__":
    main()
