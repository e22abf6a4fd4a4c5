"""The DeepMind lab 2.4's own code for learning BPE merges, run as the lab runs it.

The functions below are the lab's cells as printed in its notebook (the DeepMind lab), with their
docstrings and comments left out and one line changed: the lab's text builds each pair as the
string `word[i] + " " + word[i+1]`, while everything after it (its type hint
`Counter[tuple[str, str], int]`, `merge_pair_in_word` comparing `(word[i], word[i + 1])`, and
`learn_bpe` reading `most_freq_pair[0]`) needs the tuple `(word[i], word[i+1])`, which is also
how the course's follow-up lab 2.6 counts. With the string, no merge would ever apply.

Reads a JSON list of {"dataset": [str], "num_merges": int} on stdin and writes, for each, the
merges in order, the final corpus and the sorted vocabulary.
"""
import json
import sys
from collections import Counter

EOW_SYMBOL = "</w>"


def bpe_initialize(dataset: list[str]) -> tuple[list[list[str]], set[str]]:
    corpus = []
    vocabulary = {EOW_SYMBOL}
    for paragraph in dataset:
        for word in paragraph.split(" "):
            chars =  list(word)
            chars.append(EOW_SYMBOL)
            corpus.append(chars)
            vocabulary.update(chars)

    return corpus, vocabulary


def get_pair_frequencies(
    corpus: list[list[str]]
) -> Counter[tuple[str, str], int]:
    pairs = Counter()
    for word in corpus:
        for i in range(len(word) - 1):
            pair = (word[i], word[i+1])  # the one change: a tuple, as the rest of the lab uses
            pairs[pair] += 1
    return pairs


def merge_pair_in_word(
    word: list[str], pair_to_merge: tuple[str, str]
) -> list[str]:
    merged_symbol = pair_to_merge[0] + pair_to_merge[1]
    i = 0
    new_word = []
    while i < len(word):
        if i < len(word) - 1 and (word[i], word[i + 1]) == pair_to_merge:
            new_word.append(merged_symbol)
            i += 2
        else:
            new_word.append(word[i])
            i += 1
    return new_word


def learn_bpe(
    dataset: list[str], num_merges: int
) -> tuple[list[tuple[str, str]], list[list[str]]]:
    corpus, vocabulary = bpe_initialize(dataset)

    merges = []
    for _ in range(num_merges):
        pair_freqs = get_pair_frequencies(corpus)
        if not pair_freqs:
            break

        most_freq_pair, freq = pair_freqs.most_common(1)[0]
        if freq < 1:
            break
        merges.append(most_freq_pair)
        new_token = most_freq_pair[0] + most_freq_pair[1]
        vocabulary.add(new_token)

        new_corpus = []
        for word in corpus:
            new_word = merge_pair_in_word(word, most_freq_pair)
            new_corpus.append(new_word)
        corpus = new_corpus

    return merges, vocabulary, corpus


def run(case):
    merges, vocabulary, corpus = learn_bpe(case["dataset"], case["num_merges"])
    return {
        "merges": [list(pair) for pair in merges],
        "vocabulary": sorted(vocabulary),
        "corpus": corpus,
    }


if __name__ == "__main__":
    json.dump([run(case) for case in json.load(sys.stdin)], sys.stdout)
