"""Unit tests of tokenize_folder.py's helpers; they need no Spark (tests/spark.rs runs them)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tokenize_folder as tf  # noqa: E402


class ShippedNames(unittest.TestCase):
    def test_uris_stay_uris(self):
        for uri in ["hdfs://namenode:8020/models/m.json", "s3a://bucket/m/x.tiktoken",
                    "file:///srv/models/web-en.fst"]:
            self.assertEqual(tf.ship_target(uri), uri)
        self.assertEqual(tf.ship_target("models/a.fst"), os.path.abspath("models/a.fst"))

    def test_names_on_the_executor(self):
        self.assertEqual(tf.shipped_name("hdfs://nn/models/m.json"), "m.json")
        self.assertEqual(tf.shipped_name("s3a://bucket/models/folder/"), "folder")
        self.assertEqual(tf.shipped_name("models/web-en.fst"), "web-en.fst")
        self.assertEqual(tf.shipped_name("hdfs://nn/tools/toklab.tar.gz#bin"), "bin")

    def test_names_from_spark_submit(self):
        conf = {"spark.files": "hdfs://nn/m/qwen.tiktoken,local.json",
                "spark.yarn.dist.archives": "hdfs://nn/t/toklab.tgz#tk"}
        self.assertEqual(tf.conf_shipped_names(conf.get), {"qwen.tiktoken", "local.json", "tk"})


class Placeholders(unittest.TestCase):
    SPEC = r"tiktoken:{qwen.tiktoken}?pattern=\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"

    def test_regex_braces_are_not_files(self):
        names = {"qwen.tiktoken"}
        tf.check_placeholders(self.SPEC, names, "the spec")
        filled = tf.fill_placeholders(self.SPEC, names, lambda n: "/exec/" + n)
        self.assertEqual(filled, self.SPEC.replace("{qwen.tiktoken}", "/exec/qwen.tiktoken"))

    def test_an_unshipped_file_is_named(self):
        with self.assertRaisesRegex(tf.UsageError, r"\{web-en.fst\}, which no --ship"):
            tf.check_placeholders("fst:{web-en.fst}", {"other.fst"}, "the spec")

    def test_a_folder_component(self):
        names = {"models"}
        tf.check_placeholders("rules:{models}/en?lang=en", names, "the spec")
        self.assertEqual(tf.fill_placeholders("{models}/toklab", names, lambda n: "/x/" + n),
                         "/x/models/toklab")


class Chunks(unittest.TestCase):
    def test_split_on_newline_only_keeping_marks(self):
        data = b"\xef\xbb\xbfone\ntwo\rstill two\r\n\nlast"
        got = list(tf.chunks("f", data, 1000, 4))
        self.assertEqual(b"".join(piece for _, (_, _, piece) in got), data + b"\n")
        self.assertEqual([(key, line) for key, (_, line, _) in got],
                         [(1000, 1), (1007, 2), (1022, 3)])
        self.assertTrue(got[0][1][2].startswith(b"\xef\xbb\xbf"))
        self.assertEqual(got[1][1][2], b"two\rstill two\r\n")

    def test_a_large_chunk_holds_many_lines(self):
        data = b"a\n" * 10
        got = list(tf.chunks("f", data, 0, 7))
        self.assertEqual([line for _, (_, line, _) in got], [1, 5, 9])
        self.assertEqual(b"".join(piece for _, (_, _, piece) in got), data)

    def test_empty_file_has_no_lines(self):
        self.assertEqual(list(tf.chunks("f", b"", 0, 8)), [])


class LineNumbers(unittest.TestCase):
    def test_stdin_lines_become_file_lines(self):
        lines = tf.LineMap()
        lines.add(1, "hdfs://nn/in/a.txt", 1)
        lines.add(4, "hdfs://nn/in/b.txt", 201)
        msg = "toklab: <stdin>:5: invalid UTF-8 at byte 3 of the line\n"
        self.assertEqual(lines.translate(msg),
                         "toklab: hdfs://nn/in/b.txt:202: invalid UTF-8 at byte 3 of the line\n")
        self.assertIn("hdfs://nn/in/a.txt:3", lines.translate("<stdin>:3: x"))


class Arguments(unittest.TestCase):
    def test_partitions_above_zero(self):
        base = ["in", "out", "--spec", "words", "--toklab", "/bin/toklab"]
        self.assertEqual(tf.arguments(base + ["--partitions", "3"]).partitions, 3)
        for bad in ["0", "-2", "many"]:
            with self.assertRaises(SystemExit):
                with open(os.devnull, "w") as quiet:
                    stderr, sys.stderr = sys.stderr, quiet
                    try:
                        tf.arguments(base + ["--partitions", bad])
                    finally:
                        sys.stderr = stderr


class Executable(unittest.TestCase):
    def test_bare_name_missing_is_clear(self):
        with self.assertRaisesRegex(RuntimeError, "not on this executor's PATH"):
            tf.executable("no-such-toklab-binary-here")

    def test_bare_name_found_is_absolute(self):
        self.assertTrue(os.path.isabs(tf.executable("python3")))


if __name__ == "__main__":
    unittest.main()
