#!/usr/bin/env python3
"""Count the words (or, with --pattern, the chunks) of a corpus with Spark: the table `bpe-lab train --word-counts` reads.

    spark-submit scripts/spark/count_words.py INPUT... --output counts.parquet [--field description]
    python scripts/spark/count_words.py ...           # the same, with pyspark from pip (local mode)

INPUT is any path Spark understands (local, hdfs://, s3a://, ...), a file, a directory or a glob.
The format comes from the extension: .txt/.text/.md or none (one paragraph per non-empty line),
.jsonl/.ndjson (the --field of each object), .parquet/.pq (the --field column).

The table is the one `bpe-lab count` writes, row for row:

* words split as the lab splits them, on every single space (Python's `str.split(" ")`; a
  double space makes an empty word), exactly the words `bpe_initialize` makes;
* columns `word` (string) and `count` (bigint);
* rows in order of first appearance: files in sorted path order (arguments in the order given),
  lines or rows in file order, words left to right. The first-seen tie-break depends on this
  order, so training from this table gives the same merges as training from the text.

The output is a folder of Parquet part files, in order; `bpe-lab train --word-counts FOLDER` and
`bpe-lab count --sum FOLDER ...` read it as one table.

Text is read as `bpe-lab` reads it: lines end at "\\n", a trailing "\\r" is dropped, a byte-order
mark before the first line is dropped, empty lines are skipped. (Spark's text reader also ends a
line at a lone "\\r", which bpe-lab keeps inside the line: avoid lone carriage returns.)

With --pattern NAME (gpt2, gpt4, o200k, or their encodings' names) or --regex REGEX the job
writes the chunk table `bpe-lab count --pattern` writes, for `bpe-lab train --byte-level
--word-counts`: each file is read as `train --byte-level` reads its input (a text file whole,
as bytes, its byte-order mark dropped, refused if not UTF-8; JSON Lines and Parquet as their
paragraphs joined by "\\n"), cut at the special tokens (--special-tokens, comma-separated,
default <|endoftext|>: the longest at the leftmost place) and split by the pattern with Python's
`regex` module (the patterns need \\p{L} and possessive quantifiers); no chunk crosses two
files. Columns `chunk`, `count` (bigint), `pattern` (the regex) and `special_tokens` (a JSON
array), rows in order of first appearance. A --regex that leaves text unmatched fails the job,
as `bpe-lab count --regex` refuses it. A text file is one row, so one executor holds it whole:
shard a large corpus into many files, cut before a line that starts with a letter.
"""

import argparse
import json
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

# The built-in split patterns, as bpe-lab's BUILTIN_PATTERNS (src/bpe/bytelevel/pattern.rs)
# holds them: name, other names, regular expression. tests/suite/chunk_counts.rs checks that
# these strings are the library's, character for character.
PATTERNS = [
    ("gpt2", ("r50k", "r50k_base"),
     r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""),
    ("gpt4", ("cl100k", "cl100k_base"),
     r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""),
    ("o200k", ("o200k_base",),
     r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""),
]

TEXT = ("", ".txt", ".text", ".md")
JSON_LINES = (".jsonl", ".ndjson")
PARQUET = (".parquet", ".pq")


def extension(path):
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


def list_files(spark, pattern):
    """The files a path or glob names, sorted; a directory's files (not starting with _ or .)."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    path = jvm.org.apache.hadoop.fs.Path(pattern)
    fs = path.getFileSystem(conf)
    statuses = fs.globStatus(path) or []
    files = []
    for status in statuses:
        if status.isDirectory():
            for child in fs.listStatus(status.getPath()):
                name = child.getPath().getName()
                if child.isFile() and not name.startswith(("_", ".")):
                    files.append(child.getPath().toString())
        else:
            files.append(status.getPath().toString())
    if not files:
        sys.exit(f"error: '{pattern}': no file matches")
    return sorted(files)


def paragraphs(spark, path, field):
    """One file's paragraphs as (line, text), `line` increasing in file order."""
    ext = extension(path)
    if ext in TEXT:
        frame = spark.read.text(path).select(F.col("value").alias("text"))
    elif ext in JSON_LINES:
        frame = spark.read.json(path).select(F.col(field).cast("string").alias("text"))
    elif ext in PARQUET:
        frame = spark.read.parquet(path).select(F.col(field).alias("text"))
    else:
        sys.exit(f"error: '{path}': unknown format (expected text, .jsonl or .parquet)")
    # One file's partitions come in file order, so this id increases down the file.
    frame = frame.withColumn("line", F.monotonically_increasing_id())
    if ext in TEXT:
        frame = frame.withColumn("text", F.regexp_replace("text", "\r$", ""))
        first = F.col("line") == F.lit(0)
        frame = frame.withColumn(
            "text", F.when(first, F.regexp_replace("text", "^\ufeff", "")).otherwise(F.col("text"))
        ).where(F.col("text") != "")
    else:
        missing = frame.where(F.col("text").isNull()).count()
        if missing:
            sys.exit(f"error: '{path}': {missing} rows have no string \"{field}\"")
    return frame


def count_words(spark, inputs, field):
    frames = []
    for number, path in enumerate(f for pattern in inputs for f in list_files(spark, pattern)):
        frames.append(paragraphs(spark, path, field).withColumn("file", F.lit(number)))
    corpus = frames[0]
    for frame in frames[1:]:
        corpus = corpus.unionByName(frame)
    # split with limit -1 keeps empty strings, as Python's str.split(" ") does.
    words = corpus.select(
        "file", "line", F.posexplode(F.split("text", " ", -1)).alias("position", "word")
    )
    table = words.groupBy("word").agg(
        F.count(F.lit(1)).alias("count"),
        F.min(F.struct("file", "line", "position")).alias("first"),
    )
    return table.orderBy("first").select("word", F.col("count").cast("bigint"))


def pattern_regex(name):
    """The regular expression of a built-in pattern's name or alias."""
    for known, aliases, regex_text in PATTERNS:
        if name == known or name in aliases:
            return regex_text
    names = ", ".join(known for known, _, _ in PATTERNS)
    sys.exit(f"error: --pattern: unknown pattern name {name!r}: the names are {names}")


def whole_text(spark, path, field):
    """One file as `train --byte-level` reads it: a one-row frame with its text."""
    ext = extension(path)
    if ext in TEXT:
        # Bytes, so that text that is not UTF-8 is refused rather than silently replaced.
        raw = spark.read.format("binaryFile").load(path).select("content").first()["content"]
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as e:
            sys.exit(f"error: '{path}': not UTF-8 at byte {e.start}")
        text = text[1:] if text.startswith("\ufeff") else text
        return spark.createDataFrame([(text,)], "text string")
    rows = paragraphs(spark, path, field)
    ordered = F.sort_array(F.collect_list(F.struct("line", "text")))
    return rows.agg(F.array_join(ordered.getField("text"), "\n").alias("text"))


def chunk_splitter(regex_text, specials, must_cover):
    """A function from a text to its chunks, in order: cut at the specials, then split."""
    compiled = {}

    def chunks(text):
        import regex  # on the executors

        if not compiled:
            compiled["pattern"] = regex.compile(regex_text)
            ordered = sorted(specials, key=len, reverse=True)
            compiled["specials"] = (
                regex.compile("|".join(regex.escape(s) for s in ordered)) if ordered else None
            )
        pieces = compiled["specials"].split(text) if compiled["specials"] else [text]
        out = []
        for piece in pieces:
            found = [m.group() for m in compiled["pattern"].finditer(piece) if m.group()]
            if must_cover and "".join(found) != piece:
                raise ValueError(
                    "--regex leaves text unmatched; a chunk table is counted only with a pattern "
                    "that matches all of the text (widen it, for instance end it with `|\\s+|.`)"
                )
            out.extend(found)
        return out

    return chunks


def count_chunks(spark, inputs, field, regex_text, specials, must_cover):
    from pyspark.sql.types import ArrayType, StringType

    split = F.udf(chunk_splitter(regex_text, specials, must_cover), ArrayType(StringType()))
    frames = []
    for number, path in enumerate(f for pattern in inputs for f in list_files(spark, pattern)):
        frames.append(whole_text(spark, path, field).withColumn("file", F.lit(number)))
    corpus = frames[0]
    for frame in frames[1:]:
        corpus = corpus.unionByName(frame)
    chunks = corpus.select("file", F.posexplode(split("text")).alias("position", "chunk"))
    table = chunks.groupBy("chunk").agg(
        F.count(F.lit(1)).alias("count"),
        F.min(F.struct("file", "position")).alias("first"),
    )
    return table.orderBy("first").select(
        "chunk",
        F.col("count").cast("bigint"),
        F.lit(regex_text).alias("pattern"),
        F.lit(json.dumps(specials, ensure_ascii=False)).alias("special_tokens"),
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    parser.add_argument("--output", required=True, help="folder to write the Parquet table to")
    parser.add_argument("--field", default="description", help="text field of JSON Lines/Parquet")
    parser.add_argument("--master", default=None, help="e.g. local[2]; default: spark-submit's")
    split = parser.add_mutually_exclusive_group()
    split.add_argument("--pattern", metavar="NAME", help="count chunks of a built-in pattern")
    split.add_argument("--regex", help="count chunks of your own pattern")
    parser.add_argument(
        "--special-tokens", metavar="LIST", default=None,
        help="with --pattern/--regex: cut the text at these first (default <|endoftext|>)",
    )
    args = parser.parse_args(argv)
    chunked = args.pattern is not None or args.regex is not None
    if args.special_tokens is not None and not chunked:
        parser.error("--special-tokens needs --pattern or --regex")
    specials = (args.special_tokens or "<|endoftext|>").split(",")
    if any(s == "" for s in specials):
        parser.error("--special-tokens: a special token is empty")

    builder = SparkSession.builder.appName("bpe-lab count_words")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        if args.regex is not None:
            table = count_chunks(spark, args.inputs, args.field, args.regex, specials, True)
        elif args.pattern is not None:
            regex_text = pattern_regex(args.pattern)
            table = count_chunks(spark, args.inputs, args.field, regex_text, specials, False)
        else:
            table = count_words(spark, args.inputs, args.field)
        # Written to a folder; Spark commits it only when every part is in place.
        table.write.mode("overwrite").parquet(args.output)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
