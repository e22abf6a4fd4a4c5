#!/usr/bin/env python3
"""The Python side of tests/suite/hf_import_parity.rs: tokenizer.json files built by the
`tokenizers` library's own trainers in the shapes it writes by default, and their ids.

Reads one JSON document on stdin: {"dir", "training", "specials", "vocab_size", "texts",
"gpt2": {"vocab", "merges"}}. Trains, on the lines of "training", one tokenizer per shape below
(and builds GPT-2's own from its released `encoder.json` and `vocab.bpe`), saves each as
DIR/SHAPE.json, and answers, per shape, `encode(text).ids` and
`decode(ids, skip_special_tokens=False)` for every text. Prints {"shapes": [{"shape", "path",
"encode", "decode"}]}. Shapes bpe-lab must refuse are saved too, with empty answers.
"""

import json
import sys

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers
from tokenizers.implementations import ByteLevelBPETokenizer

LLAMA3 = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def trainer(request):
    return trainers.BpeTrainer(
        vocab_size=request["vocab_size"],
        special_tokens=request["specials"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )


def byte_level_bpe(request, add_prefix_space=False):
    t = ByteLevelBPETokenizer(add_prefix_space=add_prefix_space)
    t.train_from_iterator(
        request["training"],
        vocab_size=request["vocab_size"],
        special_tokens=request["specials"],
        show_progress=False,
    )
    return t._tokenizer


def gpt2_shaped(request, ignore_merges=False):
    t = Tokenizer(models.BPE(ignore_merges=ignore_merges))
    t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    t.decoder = decoders.ByteLevel()
    t.train_from_iterator(request["training"], trainer(request))
    return t


def llama3_shaped(request):
    t = Tokenizer(models.BPE(ignore_merges=True))
    t.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(LLAMA3), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    t.decoder = decoders.ByteLevel()
    t.post_processor = processors.ByteLevel(trim_offsets=False)
    t.train_from_iterator(request["training"], trainer(request))
    return t


def roberta_shaped(request):
    t = gpt2_shaped(request)
    t.post_processor = processors.RobertaProcessing(
        ("</s>", t.token_to_id(request["specials"][1])),
        ("<s>", t.token_to_id(request["specials"][0])),
    )
    return t


def llama3_with_bos(request):
    t = llama3_shaped(request)
    bos = request["specials"][0]
    t.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A", special_tokens=[(bos, t.token_to_id(bos))]
    )
    return t


def lowercased(request):
    t = gpt2_shaped(request)
    from tokenizers import normalizers

    t.normalizer = normalizers.Lowercase()
    return t


def gpt2_release(request):
    t = ByteLevelBPETokenizer(request["gpt2"]["vocab"], request["gpt2"]["merges"])
    t.add_special_tokens(["<|endoftext|>"])
    return t._tokenizer


READ = {
    "gpt2_release": gpt2_release,
    "bytelevel_bpe": byte_level_bpe,
    "gpt2": gpt2_shaped,
    "gpt2_ignore_merges": lambda r: gpt2_shaped(r, ignore_merges=True),
    "llama3": llama3_shaped,
}
REFUSED = {
    "roberta_post_processor": roberta_shaped,
    "llama3_bos_template": llama3_with_bos,
    "prefix_space": lambda r: byte_level_bpe(r, add_prefix_space=True),
    "lowercase_normalizer": lowercased,
}


def main():
    request = json.load(sys.stdin)
    shapes = []
    for name, build in list(READ.items()) + list(REFUSED.items()):
        tokenizer = build(request)
        path = f"{request['dir']}/{name}.json"
        tokenizer.save(path)
        encode, decode = [], []
        if name in READ:
            encode = [tokenizer.encode(t).ids for t in request["texts"]]
            decode = [tokenizer.decode(ids, skip_special_tokens=False) for ids in encode]
        shapes.append({"shape": name, "path": path, "encode": encode, "decode": decode})
    json.dump({"shapes": shapes}, sys.stdout)


if __name__ == "__main__":
    main()
