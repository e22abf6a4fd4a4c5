#!/usr/bin/env python3
"""The tokenizer notebook's tokenizer, as its cells run it, for tests/suite/tokenizer.rs.

Reads {"corpus": [...], "num_merges": N, "texts": [...]} on stdin; trains exactly as the notebook
does (vocabulary of the documents' characters plus "</w>", word splits without empty words,
max(pair_stats, key=pair_stats.get), merges dict), numbers sorted(set(vocab)), and prints
{"merges", "token2id", "encoded" (gpt_tokenizer of each text), "decoded" (decode_token_ids of
each encoding)}.
"""

import collections
import json
import sys

request = json.load(sys.stdin)
corpus = request["corpus"]
num_merges = request["num_merges"]

# --- the notebook's cells, unchanged but for printing ---
unique_chars = set()
for doc in corpus:
    for char in doc:
        unique_chars.add(char)

vocab = list(unique_chars)
vocab.sort()

end_of_word = "</w>"
vocab.append(end_of_word)

word_splits = {}
for doc in corpus:
    words = doc.split(' ')
    for word in words:
        if word:
            char_list = list(word) + [end_of_word]
            word_tuple = tuple(char_list)
            if word_tuple not in word_splits:
                word_splits[word_tuple] = 0
            word_splits[word_tuple] += 1


def get_pair_stats(splits):
    pair_counts = collections.defaultdict(int)
    for word_tuple, freq in splits.items():
        symbols = list(word_tuple)
        for i in range(len(symbols) - 1):
            pair = (symbols[i], symbols[i + 1])
            pair_counts[pair] += freq
    return pair_counts


def merge_pair(pair_to_merge, splits):
    new_splits = {}
    (first, second) = pair_to_merge
    merged_token = first + second
    for word_tuple, freq in splits.items():
        symbols = list(word_tuple)
        new_symbols = []
        i = 0
        while i < len(symbols):
            if i < len(symbols) - 1 and symbols[i] == first and symbols[i + 1] == second:
                new_symbols.append(merged_token)
                i += 2
            else:
                new_symbols.append(symbols[i])
                i += 1
        new_splits[tuple(new_symbols)] = freq
    return new_splits


merges = {}
current_splits = word_splits.copy()
for i in range(num_merges):
    pair_stats = get_pair_stats(current_splits)
    if not pair_stats:
        break
    best_pair = max(pair_stats, key=pair_stats.get)
    current_splits = merge_pair(best_pair, current_splits)
    new_token = best_pair[0] + best_pair[1]
    vocab.append(new_token)
    merges[best_pair] = new_token

final_vocab_sorted = sorted(list(set(vocab)))
token2id = {token: idx for idx, token in enumerate(final_vocab_sorted)}


def apply_bpe(word, merges, end_of_word="</w>"):
    symbols = list(word) + [end_of_word]
    while True:
        pairs = [(symbols[i], symbols[i + 1]) for i in range(len(symbols) - 1)]
        pair_freqs = {pair: idx for idx, pair in enumerate(pairs) if pair in merges}
        if not pair_freqs:
            break
        best_pair = min(pair_freqs, key=lambda pair: pair_freqs[pair])
        new_symbols = []
        i = 0
        while i < len(symbols):
            if i < len(symbols) - 1 and (symbols[i], symbols[i + 1]) == best_pair:
                new_symbols.append(symbols[i] + symbols[i + 1])
                i += 2
            else:
                new_symbols.append(symbols[i])
                i += 1
        symbols = new_symbols
    return symbols


def gpt_tokenizer(corpus, merges):
    encoded_corpus_ids = []
    for doc in corpus:
        token_ids = []
        for word in doc.strip().split():
            bpe_tokens = apply_bpe(word, merges)
            for token in bpe_tokens:
                token_id = token2id.get(token)
                if token_id is not None:
                    token_ids.append(token_id)
        encoded_corpus_ids.append(token_ids)
    return encoded_corpus_ids


id2token = {v: k for k, v in token2id.items()}


def decode_token_ids(token_ids):
    tokens = [id2token[token_id] for token_id in token_ids]
    text = ''.join(tokens).replace('</w>', ' ').strip()
    return text
# --- end of the notebook's cells ---

encoded = gpt_tokenizer(request["texts"], merges)
json.dump(
    {
        "merges": [list(pair) for pair in merges],
        "token2id": token2id,
        "encoded": encoded,
        "decoded": [decode_token_ids(ids) for ids in encoded],
    },
    sys.stdout,
)
