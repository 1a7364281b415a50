"""toklab against Datok, whole process, on the same model and text in the same run.

Each case runs Datok and toklab in interleaved rounds (Datok, toklab, Datok, toklab, ...) and
takes the median CPU time (user + system) and peak memory of each (cputime.py); the ratio is
Datok's median over toklab's (above 1: toklab is faster).
Before timing, each case checks that both write the same tokens (toklab's `--format datok`
against `datok tokenize`, empty lines aside: Datok reads a file as one text, toklab each line
as one) and says so.

    python3 benches/fst_vs_datok.py DATOK TOKLAB [ROUNDS]

DATOK is a Datok binary (how to build it: ../shared/conformance/fst/datok/README.md), TOKLAB a
release build (`cargo build --release`). TOKLAB_SHARED points to the shared folder (default
../shared). The German text is the UDHR in German repeated to about 3 MB.
"""

import os
import subprocess
import sys
import tempfile

from cputime import interleaved, stdout_of


def tokens(stream):
    return [line for line in stream.split(b"\n") if line]


def case(name, datok_argv, toklab_argv, text, rounds):
    # The same tokens in the same order; toklab ends each line as a text (`\n\n\n`), Datok
    # reads the file as one text, so only the empty lines at line ends may differ.
    same = tokens(stdout_of(datok_argv, text)) == tokens(stdout_of(toklab_argv, text))
    medians = interleaved({"datok": datok_argv, "toklab": toklab_argv}, text, rounds)
    (d, d_peak), (t, t_peak) = medians["datok"], medians["toklab"]
    print(
        f"{name:<44} datok {d * 1e3:8.1f} ms {d_peak:6.1f} MB   "
        f"toklab {t * 1e3:8.1f} ms {t_peak:6.1f} MB   "
        f"ratio {d / t:5.2f}x   tokens {'same' if same else 'DIFFERENT'}",
        flush=True,
    )
    return d / t


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    datok, toklab = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    shared = os.environ.get("TOKLAB_SHARED", os.path.join(os.path.dirname(__file__), "../../shared"))
    fst = os.path.join(shared, "conformance/fst")
    german_model = os.path.join(fst, "datok/tokenizer_de.matok")
    web_en = os.path.join(fst, "web-en.matok")
    kjv = os.path.join(shared, "corpora/kjv-en.txt")
    with tempfile.TemporaryDirectory() as tmp:
        udhr = open(os.path.join(shared, "corpora/udhr-de.txt"), "rb").read()
        german = os.path.join(tmp, "udhr-de-3mb.txt")
        with open(german, "wb") as f:
            f.write(udhr * (3_000_000 // len(udhr) + 1))
        # One short line: Datok refuses an empty input.
        tiny = os.path.join(tmp, "tiny.txt")
        with open(tiny, "wb") as f:
            f.write("Der Hund läuft.\n".encode())
        saved = {}
        for model in (german_model, web_en):
            saved[model] = os.path.join(tmp, os.path.basename(model) + ".tlfst")
            subprocess.run([toklab, "fst", "convert", model, saved[model]], check=True,
                           capture_output=True)
        print(f"CPU time (user+sys), median of {rounds} interleaved rounds; peak RSS the largest;"
              " ratio = Datok / toklab")

        def both(name, model, text, toklab_model=None):
            return case(
                name,
                [datok, "tokenize", "-t", model, "-"],
                [toklab, "tokenize", "--threads", "1", "-f", "datok", "--with",
                 f"fst:{toklab_model or model}", "-"],
                text,
                rounds,
            )

        both("load German (.matok), one line", german_model, tiny)
        both("load German (toklab saved form), one line", german_model, tiny,
             saved[german_model])
        both("German 3 MB (.matok)", german_model, german)
        both("German 3 MB (toklab saved form)", german_model, german, saved[german_model])
        both("web-en on kjv-en (.matok)", web_en, kjv)
        both("web-en on kjv-en (toklab saved form)", web_en, kjv, saved[web_en])


if __name__ == "__main__":
    main()
