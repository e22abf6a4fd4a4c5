#!/usr/bin/env python3
"""Writes the encoding benchmark's text: about MB megabytes of multilingual paragraphs, one
per line, from material on this machine and a seeded generator (nothing downloaded).

    multilingual_text.py OUT [--mb 11] [--seed 1] [--zipf ZIPF.txt]

A third of the bytes (about) is English prose: the paragraphs of ZIPF.txt (written by
examples/gen_corpus.rs, a Zipfian English-like corpus), and Python's own documentation topics
(pydoc_data, real English with code). The rest is generated paragraphs in nine scripts, words
built from syllables so that the words are many and distinct as in real text (a chunk cache
gets no free ride): Yorùbá and Vietnamese with combining marks (some decomposed), Amharic
(Ethiopic), N'Ko, Chinese, Arabic, Russian, Hindi, and English with contractions; between the
words, numbers of every length, prices and dates, punctuation, emoji (joined ones and flags),
and every kind of whitespace (tabs, no-break and ideographic spaces, CRLF and blank lines).
The same MB and seed give the same file, byte for byte.
"""

import argparse
import random
import sys

SYLLABLES = {
    "yoruba": ["bá", "ọ̀", "ṣẹ", "gbọ́", "kú", "àá", "rọ̀", "jẹ", "ẹ̀", "ní", "lọ", "wá", "ìlú", "ọmọ",
               "ilé", "oúnjẹ", "dé", "ti", "kò", "fẹ́", "e\u0301", "o\u0323\u0300", "ri", "sí"],
    "vietnamese": ["người", "tiếng", "việt", "nam", "của", "không", "những", "được", "một", "có",
                   "trong", "nhà", "đi", "ăn", "phở", "sáng", "nước", "a\u0300", "ê\u0301"],
    "amharic": ["ሰ", "ላ", "ም", "ል", "ጆ", "ች", "አ", "ዲ", "ስ", "በ", "ባ", "ኢ", "ት", "ዮ", "ጵ", "ያ",
                "ቡ", "ና", "ገ", "ር", "ው"],
    "nko": ["ߒ", "ߞߏ", "ߞߊ߲", "ߓߊ", "ߡߊ߬", "ߟߌ", "ߛߓߍ", "ߘߋ߲", "ߣߌ߫", "ߕߊ", "ߖߊ߬"],
    "chinese": list("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动"
                    "同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自"
                    "二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日"),
    "arabic": ["ال", "مر", "حبا", "كت", "اب", "مد", "ينة", "سو", "ق", "بي", "ت", "لا", "غو", "س"],
    "russian": ["при", "вет", "го", "род", "рын", "ок", "ут", "ро", "хле", "б", "до", "ма", "Мо",
                "ск", "ва", "ный", "ая"],
    "hindi": ["न", "म", "स्", "ते", "बा", "ज़ा", "र", "शह", "र", "खा", "ना", "पा", "नी", "लो", "ग"],
    "english": ["the", "market", "morning", "bus", "bridge", "vendor", "orange", "drink", "music",
                "river", "people", "city", "day", "light", "road", "rain", "song", "price",
                "don't", "it's", "I'LL", "we've", "they're", "she'd", "Lagos", "Accra", "Nairobi"],
}
JOINERS = {"chinese": "", "amharic": ""}  # written without spaces between syllables of a word
PUNCT = [".", ",", "!", "?", ";", ":", "…", "«", "»", "“", "”", "(", ")", "—", "-", "/", "%",
         "...", "!!", "؟", "。", "、", "፣", "።", "߸"]
EMOJI = ["😀", "👍🏽", "🇳🇬", "🇰🇪", "👨‍👩‍👧", "❤️", "🎉", "🌍", "☕", "🙏🏿"]
SPACES = [" "] * 40 + ["  ", "   ", "\t", "\u00a0", "\u3000", "\u2009", " \u200b"]


def word(rng, lang):
    n = rng.choice([1, 1, 2, 2, 2, 3, 3, 4])
    parts = [rng.choice(SYLLABLES[lang]) for _ in range(n)]
    w = "".join(parts)
    if lang in ("english", "russian") and rng.random() < 0.1:
        w = w.capitalize()
    return w


def number(rng):
    kind = rng.random()
    if kind < 0.3:
        return str(rng.randint(0, 99))
    if kind < 0.5:
        return str(rng.randint(1000, 10 ** rng.randint(4, 12)))
    if kind < 0.7:
        return f"{rng.randint(1, 31):02d}/{rng.randint(1, 12):02d}/{rng.randint(1950, 2030)}"
    if kind < 0.85:
        return f"{rng.randint(0, 9999)}.{rng.randint(0, 99):02d}"
    return "".join(rng.choice("0123456789") for _ in range(rng.randint(5, 30)))


def paragraph(rng):
    lang = rng.choice(list(SYLLABLES))
    out = []
    for _ in range(rng.randint(20, 120)):
        r = rng.random()
        if r < 0.80:
            out.append(word(rng, lang))
        elif r < 0.88:
            out.append(number(rng))
        elif r < 0.96:
            out[-1:] = [(out[-1] if out else "") + rng.choice(PUNCT)]
            continue
        else:
            out.append(rng.choice(EMOJI))
        out.append(rng.choice(SPACES) if lang not in JOINERS or rng.random() < 0.3 else "")
    text = "".join(out).strip(" ")
    ending = rng.random()
    if ending < 0.05:
        return text + "\r"  # a CRLF line
    if ending < 0.10:
        return text + "\n"  # a blank line after it
    if ending < 0.12:
        return text + "   "  # trailing spaces
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--mb", type=float, default=11.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--zipf", help="a gen_corpus file for the English-like share")
    args = parser.parse_args()
    target = int(args.mb * 1e6)
    rng = random.Random(args.seed)

    english = []
    import pydoc_data.topics as topics  # real English with code, shipped with Python

    for key in sorted(topics.topics):
        english.extend(line for line in topics.topics[key].split("\n"))
    if args.zipf:
        have = sum(map(len, english))
        with open(args.zipf, encoding="utf-8") as f:
            for line in f:
                english.append(line.rstrip("\n"))
                have += len(line)
                if have > target // 3:
                    break
    # English lines and generated paragraphs interleaved, English up to a third of the bytes.
    lines, size, english_bytes = [], 0, 0
    english_at = 0
    while size < target:
        if english_at < len(english) and english_bytes < size / 3:
            line = english[english_at]
            english_at += 1
            english_bytes += len(line.encode("utf-8")) + 1
        else:
            line = paragraph(rng)
        lines.append(line)
        size += len(line.encode("utf-8")) + 1
    with open(args.out, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(lines))
        f.write("\n")
    print(f"wrote {args.out}: {size / 1e6:.1f} MB, {len(lines)} lines, "
          f"{english_bytes / size:.0%} English", file=sys.stderr)


if __name__ == "__main__":
    main()
