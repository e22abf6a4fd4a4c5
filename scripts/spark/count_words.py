#!/usr/bin/env python3
"""Count the words of a corpus with Spark and write the table `bpe-lab train --word-counts` reads.

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
"""

import argparse
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="+", metavar="INPUT")
    parser.add_argument("--output", required=True, help="folder to write the Parquet table to")
    parser.add_argument("--field", default="description", help="text field of JSON Lines/Parquet")
    parser.add_argument("--master", default=None, help="e.g. local[2]; default: spark-submit's")
    args = parser.parse_args(argv)

    builder = SparkSession.builder.appName("bpe-lab count_words")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        table = count_words(spark, args.inputs, args.field)
        # Written to a folder; Spark commits it only when every part is in place.
        table.write.mode("overwrite").parquet(args.output)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
