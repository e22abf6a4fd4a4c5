"""Writes data/english_frequencies.json: how common each word of the Africa Galore stand-in is
in English at large, for notebook 07's controls (bpe_lab::lab::token_tax).

The frequencies come from the PyPI package `wordfreq` (version pinned below), whose word lists
are built from Wikipedia, subtitles (SUBTLEX, OpenSubtitles), books (Google Books Ngrams),
news, web text (ParaCrawl) and Twitter. Only the words the notebook measures are kept: every
word of the stand-in's descriptions and names, lower-cased, with its Zipf frequency in
English (log10 of its occurrences per billion words; 0 when wordfreq does not list it), and
the places outside Africa the notebook compares the names with.

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    /tmp/wf/bin/python scripts/data/english_frequencies.py

The slice is wordfreq's data, so it carries wordfreq's data licence (CC BY-SA 4.0) and its
credits; data/README.md says so.
"""

import json
import re
from importlib.metadata import version
from pathlib import Path

from wordfreq import zipf_frequency

WORDFREQ = "3.1.1"
ROOT = Path(__file__).resolve().parents[2]

# The places outside Africa that notebook 07 compares the names with (its cell `07-words`): from
# world-famous cities to places English rarely names, so that each name can be matched with a
# place as rare in English as it is.
PLACES = """Paris London Berlin Madrid Lisbon Vienna Prague Dublin Oslo Rome Athens Warsaw Brussels
Amsterdam Stockholm Helsinki Budapest Copenhagen Geneva Milan Naples Munich Hamburg Barcelona
Seville Porto Krakow Zurich Edinburgh Manchester Toronto Chicago Boston Denver Houston Seattle
Sydney Melbourne Auckland Osaka Kyoto Seoul Manila Jakarta Bangkok Hanoi Lima Quito Bogota
Santiago Nukualofa Avarua Alofi Linkoping Funafuti Odesa Nuuk Kosice Akureyri Erzurum Iasi
Szeged Ashgabat Belem Paramaribo Hermosillo Debrecen Trabzon Tromso Thimphu Kiruna Noumea
Papeete Podgorica Urumqi Heraklion Mashhad Patras Konya Honiara Majuro Chisinau Tartu Odense
Bukhara Ushuaia Oulu Tarawa Maracaibo Arequipa Lanzhou Kaunas Pokhara Tabriz Apia Makassar
Asuncion Cuenca Potosi Tampere Dushanbe Cochabamba Tegucigalpa Samarkand Turku Yellowknife
Whitehorse Vientiane Guayaquil Stavanger Multan Plovdiv Medan Kuching Bishkek Suva Cusco
Guwahati Jaffna Izmir Daegu Gwangju Managua Isfahan Manaus Trondheim Brno Tirana Curitiba
Tashkent Graz Leuven Almaty Herat Puebla Madurai Kandy Aarhus Sapporo Ljubljana Skopje
Thessaloniki Lhasa Kunming Recife Fukuoka Yerevan Medellin Bratislava Valparaiso Astana Lviv
Surabaya Tallinn Uppsala Reykjavik Varna Oaxaca Tbilisi Montevideo Vilnius Shiraz Patna Ghent
Quetta Nagoya Chengdu Kandahar Mysore Kharkiv Penang Muscat Zagreb Mandalay Davao Varanasi Riga
Baku Yangon Busan Fairbanks Rosario Kathmandu Jaipur Sarajevo Minsk Cebu Dhaka Mendoza Mosul
Colombo Bergen Spokane Kabul Anchorage Wichita Hobart Tulsa Lahore Aleppo Winnipeg Karachi""".split()

# The notebook's word rule (bpe_lab::lab::token_tax::words): runs of letters and combining
# marks, an apostrophe kept between two letters.
WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|[\u0300-\u036f]|['\u2019](?=[^\W\d_]))*")


def main() -> None:
    assert version("wordfreq") == WORDFREQ, f"wordfreq {WORDFREQ} is the version recorded"
    rows = json.loads((ROOT / "data" / "africa_galore_stand_in.json").read_text("utf-8"))
    words = set()
    for row in rows:
        for field in ("description", "name"):
            words.update(w.lower() for w in WORD.findall(row[field]))
    words.update(p.lower() for p in PLACES)
    zipf = {w: zipf_frequency(w, "en") for w in sorted(words)}
    out = {
        "source": f"PyPI package wordfreq {WORDFREQ}, zipf_frequency(word, 'en')",
        "license": "CC BY-SA 4.0 (wordfreq's data); see data/README.md",
        "zipf": zipf,
    }
    text = json.dumps(out, ensure_ascii=False, indent=1, sort_keys=False) + "\n"
    (ROOT / "data" / "english_frequencies.json").write_text(text, "utf-8")
    print(f"{len(zipf)} words written")


if __name__ == "__main__":
    main()
