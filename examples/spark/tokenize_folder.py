"""Tokenizes a folder of text files on Apache Spark with any toklab spec, writing JSON lines.

`toklab tokenize` is a line filter, so `RDD.pipe` runs it unchanged on every partition: each
task starts one toklab process, writes its partition's lines to it and reads one JSON object
per line back, in the same order. Model files (and, if asked, the toklab binary itself) are
shipped to the executors with `SparkContext.addFile`; the spec names them in braces:

    spark-submit tokenize_folder.py --toklab /usr/local/bin/toklab \
        --ship models/web-en.fst --spec 'fst:{web-en.fst}' IN_FOLDER OUT_FOLDER

`{web-en.fst}` becomes the file's path on the executor. `--ship-toklab` ships the binary with
the job instead of expecting it at `--toklab`'s path on every node. The output folder holds
Spark's part files (`part-00000`, ...): read in order, they are the input's lines in order,
one JSON object each, as `toklab tokenize -f json` writes them for the same files in the same
order. Each task's toklab runs with `--threads 1`: Spark gives every task one core.
"""

import argparse
import os
import re
import shlex

from pyspark import SparkContext, SparkFiles


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a folder of text files (or one file, or a glob)")
    parser.add_argument("output", help="the folder Spark writes the JSON lines to (must not exist)")
    parser.add_argument("--spec", required=True, help="toklab spec; {NAME} names a shipped file")
    parser.add_argument("--ship", action="append", default=[], metavar="PATH",
                        help="a model file or folder to ship to the executors (repeatable)")
    binary = parser.add_mutually_exclusive_group(required=True)
    binary.add_argument("--toklab", metavar="PATH",
                        help="toklab's path, the same on every node")
    binary.add_argument("--ship-toklab", metavar="PATH",
                        help="ship this toklab binary with the job instead")
    parser.add_argument("--partitions", type=int, default=None,
                        help="at least this many partitions (default: Spark's choice)")
    return parser.parse_args()


def executor_root(sc):
    """Where shipped files land on the executors: the executor's working folder (`.`) on a
    cluster, a temporary folder of the driver's in local mode. Asked of an executor, since the
    driver's own answer differs on a cluster."""
    return sc.parallelize([0], 1).map(lambda _: SparkFiles.getRootDirectory()).first()


def main():
    args = arguments()
    sc = SparkContext(appName="toklab tokenize")
    shipped = {}
    for path in args.ship + ([args.ship_toklab] if args.ship_toklab else []):
        sc.addFile(os.path.abspath(path), recursive=os.path.isdir(path))
        shipped[os.path.basename(os.path.normpath(path))] = True
    root = executor_root(sc)

    def on_executor(name):
        return os.path.join(root, name)

    def placeholder(match):
        name = match.group(1)
        if name not in shipped:
            raise SystemExit(f"tokenize_folder.py: the spec names {{{name}}}, which no --ship gives")
        return on_executor(name)

    spec = re.sub(r"\{([^{}]+)\}", placeholder, args.spec)
    toklab = on_executor(os.path.basename(args.ship_toklab)) if args.ship_toklab else args.toklab
    command = shlex.join([toklab, "tokenize", "--threads", "1", "-f", "json", "--with", spec])
    lines = sc.textFile(args.input, minPartitions=args.partitions)
    # checkCode: a toklab error (bad spec, invalid UTF-8) fails the task instead of
    # silently writing fewer lines.
    lines.pipe(command, checkCode=True).saveAsTextFile(args.output)
    sc.stop()


if __name__ == "__main__":
    main()
