"""Tokenizes a folder of text files on Apache Spark with any toklab spec, writing JSON lines.

`toklab tokenize` is a line filter: each Spark task starts one toklab process, writes its share
of the input to it as bytes and reads one JSON object per line back, in the same order. Model
files (and, if asked, the toklab binary itself) reach the executors with `SparkContext.addFile`
(`--ship`, a local path or a `hdfs://`, `s3a://`, `file://` URI) or with spark-submit's own
`--files` / `--archives`; the spec names them in braces:

    spark-submit tokenize_folder.py --toklab /usr/local/bin/toklab \
        --ship models/web-en.fst --spec 'fst:{web-en.fst}' IN_FOLDER OUT_FOLDER

`{web-en.fst}` becomes the file's absolute path on the executor. Only a brace pair that names a
shipped file is replaced, so a regular expression's `\\p{L}` or `{1,3}` in the spec stays as it
is. The input is read as bytes (`binaryFiles`), split on `\\n` only, so toklab sees each line as
one process would: a byte-order mark and a lone `\\r` are kept, and invalid UTF-8 fails the task
with the file and line named (or is replaced, with `--lossy`). A folder's files are taken in
the order of their paths (hidden files, whose names start with `_` or `.`, are left out as
Hadoop's readers leave them out, with a note). The output folder holds Spark's part files
(`part-00000`, ...): read in that order, they are byte for byte what `toklab tokenize -f json`
writes for the same files one after another. Each task's toklab runs with `--threads 1`:
Spark gives every task one core.
"""

import argparse
import bisect
import os
import posixpath
import re
import shutil
import subprocess
import sys
import threading
from urllib.parse import urlparse

# A chunk is whole lines of one file, at most about this many bytes (a longer line is one
# chunk); chunks are what the input is spread over the partitions by.
MAX_CHUNK_BYTES = 8 << 20
# Characters Hadoop's input paths take as a list separator or a glob.
HADOOP_PATTERN_CHARS = set(",{}[]*?\\")
# spark-submit's --files and --archives land in these settings (YARN's own and the rest).
SHIPPING_CONF = ("spark.files", "spark.yarn.dist.files", "spark.archives", "spark.yarn.dist.archives")


class UsageError(Exception):
    """A mistake in the command line or the input, reported on the driver before any task runs."""


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"`{text}` is not a whole number above 0")
    return value


def arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a folder of text files, one file, or a glob (any Hadoop URI)")
    parser.add_argument("output", help="the folder Spark writes the JSON lines to (must not exist)")
    parser.add_argument("--spec", required=True, help="toklab spec; {NAME} names a shipped file")
    parser.add_argument("--ship", action="append", default=[], metavar="PATH_OR_URI",
                        help="a model file or folder to ship to the executors (repeatable)")
    binary = parser.add_mutually_exclusive_group(required=True)
    binary.add_argument("--toklab", metavar="PATH",
                        help="toklab on every node: an absolute path, a name on the executors' "
                             "PATH, or {NAME}/... inside a shipped file or archive")
    binary.add_argument("--ship-toklab", metavar="PATH_OR_URI",
                        help="ship this toklab binary with the job instead")
    parser.add_argument("--partitions", type=positive, default=None,
                        help="this many partitions (default: Spark's parallelism, or one per 64 MB)")
    parser.add_argument("--lossy", action="store_true",
                        help="replace invalid UTF-8 with U+FFFD instead of failing the task")
    return parser.parse_args(argv)


def is_uri(path):
    """A URI (`hdfs://`, `s3a://`, `file://`, ...) is handed to Spark as it is; a plain path is
    made absolute, as `addFile` needs."""
    return re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:/", path) is not None


def ship_target(path):
    return path if is_uri(path) else os.path.abspath(path)


def shipped_name(path):
    """The name a shipped file or folder has on the executors: its last path component, or
    the alias after `#` (`models.tar.gz#models`), as spark-submit names them."""
    if "#" in path:
        return path.rsplit("#", 1)[1]
    if is_uri(path):
        path = urlparse(path).path
    return posixpath.basename(path.rstrip("/")) or path


def conf_shipped_names(get_conf):
    """Names of the files and archives that spark-submit's --files and --archives ship."""
    names = set()
    for key in SHIPPING_CONF:
        for item in (get_conf(key) or "").split(","):
            item = item.strip()
            if item:
                names.add(shipped_name(item))
    return names


# `{NAME}` where it stands as a whole path component: at the start or after `:`, `/`, `=`
# or `,`, and before the end, `/`, `?`, `&` or `,`. A regex's `\p{L}` or `{1,3}` is not.
COMPONENT = re.compile(r"(?:(?<=^)|(?<=[:/=,]))\{([^{}/?&,:=]+)\}(?=$|[/?&,])")
BRACED = re.compile(r"\{([^{}]+)\}")


def check_placeholders(template, names, what):
    """Fails on a `{NAME}` standing as a path component that no shipped file gives: a typo
    there would otherwise reach toklab on every executor as a missing file."""
    for match in COMPONENT.finditer(template):
        if match.group(1) not in names:
            given = ", ".join(sorted(names)) or "none"
            raise UsageError(f"{what} names {{{match.group(1)}}}, which no --ship, --files or "
                             f"--archives gives (shipped: {given})")


def fill_placeholders(template, names, where):
    """The template with each `{NAME}` of a shipped file replaced by `where(NAME)`; every other
    brace pair is left as it is."""
    return BRACED.sub(lambda m: where(m.group(1)) if m.group(1) in names else m.group(0), template)


def chunks(path, data, start, max_bytes):
    """Whole lines of one file's bytes, split on `\\n` only, as (key, (path, first line, bytes)):
    the key is the chunk's offset in all the input, so sorting by it gives the input's order. A
    last line without `\\n` gets one, as one toklab process ends it at the end of its file."""
    pos, line = 0, 1
    while pos < len(data):
        cut = data.find(b"\n", pos + max_bytes - 1)
        end = len(data) if cut < 0 else cut + 1
        piece = data[pos:end]
        if not piece.endswith(b"\n"):
            piece += b"\n"
        yield start + pos, (path, line, piece)
        line += piece.count(b"\n")
        pos = end


class LineMap:
    """Which file and line each line a task's toklab reads came from, so its messages name
    them instead of `<stdin>`."""

    def __init__(self):
        self.starts, self.origins = [], []

    def add(self, first_task_line, path, first_line):
        self.starts.append(first_task_line)
        self.origins.append((path, first_line))

    def place(self, task_line):
        i = bisect.bisect_right(self.starts, task_line) - 1
        if i < 0:
            return f"<stdin>:{task_line}"
        path, first = self.origins[i]
        return f"{path}:{first + task_line - self.starts[i]}"

    def translate(self, message):
        message = re.sub(r"<stdin>:(\d+)", lambda m: self.place(int(m.group(1))), message)
        first = self.place(1) if self.starts else "an empty task"
        return message.replace("<stdin>", f"the task's input (from {first})")


def executable(path):
    """An absolute path to run: `pipe`-style runs have no PATH to search, so a bare name is
    looked up here, on the executor, and a shipped binary gets its execute bit back."""
    if os.sep not in path:
        found = shutil.which(path)
        if found is None:
            raise RuntimeError(f"toklab: `{path}` is not on this executor's PATH "
                               f"({os.environ.get('PATH', '')}); give an absolute path or ship it")
        path = found
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise RuntimeError(f"toklab: {path} does not exist on this executor")
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | 0o111)
    return path


def run_toklab(command, records, lines):
    """Feeds a partition's chunks, in order, to one toklab process and yields its output lines
    (bytes, without `\\n`). Its standard error goes to this executor's standard error (the
    executor's log) with `<stdin>:N` turned into the file and line; a failure fails the task
    with that message."""
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    errors = []

    def feed():
        task_line = 1
        try:
            for _key, (path, first_line, piece) in records:
                lines.add(task_line, path, first_line)
                task_line += piece.count(b"\n")
                proc.stdin.write(piece)
        except BrokenPipeError:
            pass  # toklab stopped early; its exit code and message say why
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        for raw in proc.stderr:
            text = lines.translate(raw.decode("utf-8", "replace"))
            errors.append(text)
            sys.stderr.write(text)
        sys.stderr.flush()

    threads = [threading.Thread(target=feed), threading.Thread(target=drain)]
    for thread in threads:
        thread.start()
    for out in proc.stdout:
        yield out[:-1] if out.endswith(b"\n") else out
    for thread in threads:
        thread.join()
    code = proc.wait()
    if code != 0:
        raise RuntimeError(f"toklab exited with {code}: " + ("".join(errors).strip() or "no message"))


def list_input(sc, pattern):
    """The input's files in a defined order (their paths sorted), with their sizes, from the
    driver through Hadoop's file system API, so HDFS, S3 and local folders read alike. Folders
    are walked; hidden files (`_SUCCESS`, `.crc`) are left out, as Hadoop's readers do."""
    jvm = sc._jvm
    path = jvm.org.apache.hadoop.fs.Path(pattern)
    fs = path.getFileSystem(sc._jsc.hadoopConfiguration())
    statuses = fs.globStatus(path)
    if statuses is None or len(statuses) == 0:
        raise UsageError(f"{pattern}: no such file or folder")
    files, hidden, pending = [], [], [(status, False) for status in statuses]
    while pending:
        status, in_folder = pending.pop()
        name = status.getPath().getName()
        if status.isDirectory():
            pending.extend((inner, True) for inner in fs.listStatus(status.getPath()))
        elif in_folder and name.startswith(("_", ".")):
            hidden.append(status.getPath().toString())
        else:
            files.append((status.getPath().toString(), status.getLen()))
    if hidden:
        print(f"tokenize_folder.py: leaving out {len(hidden)} hidden file(s): "
              + ", ".join(sorted(hidden)[:5]), file=sys.stderr)
    if not files:
        raise UsageError(f"{pattern}: no input files in it (hidden ones are left out)")
    files.sort()
    for name, _size in files:
        if HADOOP_PATTERN_CHARS & set(name):
            raise UsageError(f"{name}: its name has one of , {{ }} [ ] * ? \\, which Hadoop's "
                             "input paths read as a list or a pattern; rename it")
    return files


def ship(sc, paths):
    """Adds each file or folder to the job; URIs stay URIs, so models come from HDFS or S3
    as well as from the driver's disk (which, in cluster deploy mode, is a cluster node's)."""
    names = set()
    for path in paths:
        if "#" in path:
            raise UsageError(f"--ship {path}: `#NAME` renames only with spark-submit's --archives")
        target = ship_target(path)
        if is_uri(target):
            hpath = sc._jvm.org.apache.hadoop.fs.Path(target)
            fs = hpath.getFileSystem(sc._jsc.hadoopConfiguration())
            if not fs.exists(hpath):
                raise UsageError(f"--ship {path}: no such file or folder")
            folder = fs.getFileStatus(hpath).isDirectory()
        elif not os.path.exists(target):
            raise UsageError(f"--ship {path}: no such file or folder")
        else:
            folder = os.path.isdir(target)
        sc.addFile(target, recursive=folder)
        names.add(shipped_name(path))
    return names


def job(sc, args):
    """Ships the files, lists the input and runs the tokenizing job; the order of the output's
    lines is fixed here, by each chunk's byte offset in the whole input."""
    names = ship(sc, args.ship + ([args.ship_toklab] if args.ship_toklab else []))
    names |= conf_shipped_names(sc.getConf().get)
    toklab_template = "{%s}" % shipped_name(args.ship_toklab) if args.ship_toklab else args.toklab
    if os.sep in toklab_template and not toklab_template.startswith("{"):
        toklab_template = os.path.abspath(toklab_template)  # a path on the driver's disk
    check_placeholders(args.spec, names, "the spec")
    check_placeholders(toklab_template, names, "--toklab")
    files = list_input(sc, args.input)
    starts, total = {}, 0
    for name, size in files:
        starts[name] = total
        total += size
    parts = args.partitions or max(sc.defaultParallelism, -(-total // (64 << 20)), 1)
    chunk_bytes = max(1 << 16, min(MAX_CHUNK_BYTES, total // (4 * parts) + 1))
    spec, lossy = args.spec, ["--lossy"] if args.lossy else []

    def split(record):
        path, data = record
        if path not in starts:
            raise RuntimeError(f"{path}: read, but not among the listed input files")
        return chunks(path, data, starts[path], chunk_bytes)

    def tokenize(records):
        from pyspark import SparkFiles

        def where(name):
            return os.path.abspath(SparkFiles.get(name))

        toklab = executable(fill_placeholders(toklab_template, names, where))
        command = [toklab, "tokenize", "--threads", "1", "-f", "json", *lossy,
                   "--with", fill_placeholders(spec, names, where)]
        return run_toklab(command, records, LineMap())

    data = sc.binaryFiles(",".join(name for name, _ in files), minPartitions=parts)
    ordered = data.flatMap(split).repartitionAndSortWithinPartitions(
        parts, lambda key: min(parts - 1, key * parts // max(total, 1)))
    ordered.mapPartitions(tokenize).saveAsTextFile(args.output)


def main():
    args = arguments()
    from pyspark import SparkContext

    sc = SparkContext(appName="toklab tokenize")
    try:
        job(sc, args)
    except UsageError as e:
        print(f"tokenize_folder.py: {e}", file=sys.stderr)
        sys.exit(2)
    finally:
        sc.stop()


if __name__ == "__main__":
    main()
