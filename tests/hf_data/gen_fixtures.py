#!/usr/bin/env python3
"""Builds small tokenizer.json files that exercise each stage of the HuggingFace pipeline and
records what the reference library gives on a set of texts: ids without and with the
post-processor's special tokens, and the decoded text.

Run with HuggingFace tokenizers installed (this was made with 0.23.3):
    python3 -m venv /tmp/hfvenv && /tmp/hfvenv/bin/pip install tokenizers==0.23.3
    /tmp/hfvenv/bin/python tests/hf_data/gen_fixtures.py
Writes tests/hf_data/<name>.json and tests/hf_data/expected.jsonl (one line per fixture and
text: {"file", "text", "ids", "ids_special", "decoded"}). The corpus and texts are written for
this file. The trainers may order tied entries differently from run to run, so the files and
expected.jsonl are only meaningful together: regenerate both.
"""
import json
import os

from tokenizers import (AddedToken, Regex, Tokenizer, decoders, models, normalizers,
                        pre_tokenizers, processors, trainers)

HERE = os.path.dirname(os.path.abspath(__file__))

CORPUS = [
    "The harbour pilot counted forty-two lanterns before midnight.",
    "Rain drummed on the tin roof while the kettle sang.",
    "Ninety-nine red kites circled above the quarry at 7:45.",
    "She said: don't open the third drawer, it's jammed!",
    "Crème brûlée and naïve façades appear in café menus.",
    "The committee's report ran to 1,204 pages in 2019.",
    "Über-fast trains link Zürich, Genève and Lausanne.",
    "東京の電車は時間通りに来ます。",
    "Він читав книжку біля вікна.",
    "Tokenizers split words into pieces; pieces become ids.",
    "A lantern, a kettle, a kite: three small things.",
    "Unbelievably, the unbreakable teapot broke.",
    "hello HELLO Hello hello-world hello_world",
]

TEXTS = [
    "The pilot counted lanterns.",
    "  Rain   drummed\ton the roof!  ",
    "Crème brûlée at the café, naïvely.",
    "Call 0800-555 before 7:45, or 2019's prices apply.",
    "東京の電車",
    "Він читав.",
    "unbelievable unbreakable teapots",
    "hello world HELLO <mask> the<mask> end",
    "x <extra_1> y<extra_1>z",
    "ﬁne ① ²",
    "",
    " ",
    "emoji 🙂 and \u00a0nbsp",
    "tab\there\u200bzero\u0001ctl ＡＢＣ ｶﾀｶﾅ e\u0301 Å",
]

BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def train(tok, trainer):
    tok.train_from_iterator(CORPUS, trainer=trainer)
    return tok


def bert_wordpiece():
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=20))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True,
                                                strip_accents=None, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    train(tok, trainers.WordPieceTrainer(vocab_size=400, special_tokens=BERT_SPECIALS))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    tok.decoder = decoders.WordPiece(prefix="##", cleanup=True)
    return tok


def wordpiece_lower_keep_accents():
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False,
                                                strip_accents=False, lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(),
                                                 pre_tokenizers.Digits(individual_digits=True)])
    train(tok, trainers.WordPieceTrainer(vocab_size=300, special_tokens=BERT_SPECIALS))
    tok.post_processor = processors.BertProcessing(("[SEP]", tok.token_to_id("[SEP]")),
                                                   ("[CLS]", tok.token_to_id("[CLS]")))
    tok.decoder = decoders.WordPiece()
    return tok


def bpe_affixes():
    tok = Tokenizer(models.BPE(unk_token="<unk>", continuing_subword_prefix="##",
                               end_of_word_suffix="</w>"))
    tok.normalizer = normalizers.Sequence([normalizers.NFD(), normalizers.StripAccents(),
                                           normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.WhitespaceSplit(),
        pre_tokenizers.Punctuation(behavior="isolated"),
        pre_tokenizers.Digits(individual_digits=False)])
    train(tok, trainers.BpeTrainer(vocab_size=350, special_tokens=["<unk>"],
                                   continuing_subword_prefix="##", end_of_word_suffix="</w>"))
    tok.decoder = decoders.BPEDecoder(suffix="</w>")
    return tok


def byte_level_roberta():
    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=True)
    train(tok, trainers.BpeTrainer(vocab_size=420, special_tokens=["<s>", "</s>", "<pad>"],
                                   initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, rstrip=False, normalized=False,
                                       special=True)])
    tok.add_tokens([AddedToken("hello", single_word=True, normalized=True),
                    AddedToken("<extra_1>", rstrip=True, normalized=False)])
    tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")),
                                                      ("<s>", tok.token_to_id("<s>")))
    tok.decoder = decoders.ByteLevel()
    return tok


def split_variant(behavior, invert):
    """A byte-level model whose pieces come from one Split, so ids show the pieces."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"[\p{P}\s]+"), behavior=behavior, invert=invert),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    train(tok, trainers.BpeTrainer(vocab_size=380,
                                   initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.decoder = decoders.ByteLevel()
    return tok


def unigram_metaspace():
    pieces = [("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0)]
    pieces += [(f"<0x{b:02X}>", -20.0) for b in range(256)]
    words = {}
    for line in CORPUS:
        for word in line.replace(" ", " \u2581").split(" "):
            word = word if word.startswith("\u2581") else "\u2581" + word
            for n in range(1, len(word) + 1):
                for i in range(len(word) - n + 1):
                    piece = word[i:i + n]
                    if n <= 6:
                        words[piece] = words.get(piece, 0) + 1
    ranked = sorted(words.items(), key=lambda kv: (-kv[1] * len(kv[0]), kv[0]))[:500]
    # Letters of the texts are kept out on purpose (é, 電, ч ...) so byte fallback is used.
    ranked = [(p, c) for p, c in ranked if not any(ch in p for ch in "éč電ч")]
    pieces += [(p, -1.0 - 10.0 / (c * len(p))) for p, c in ranked]
    tok = Tokenizer(models.Unigram(pieces, unk_id=0, byte_fallback=True))
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(),
                                           normalizers.Replace(Regex(" {2,}"), " "),
                                           normalizers.Strip(left=False, right=True)])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="first",
                                                 split=True)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 1), ("</s>", 2)])
    tok.decoder = decoders.Sequence([decoders.Metaspace(replacement="\u2581",
                                                        prepend_scheme="first"),
                                     decoders.ByteFallback(), decoders.Fuse()])
    tok.add_special_tokens(["<s>", "</s>"])
    return tok


def wordlevel_chars():
    vocab = {"[UNK]": 0}
    for line in CORPUS:
        for word in line.lower().replace(",", " , ").split():
            vocab.setdefault(word, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.Sequence([normalizers.Lowercase(),
                                           normalizers.Prepend("|"),
                                           normalizers.Replace(" ", "|")])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.CharDelimiterSplit("|"),
        pre_tokenizers.Punctuation(behavior="merged_with_previous")])
    tok.decoder = decoders.CTC(pad_token="[UNK]", word_delimiter_token="|", cleanup=True)
    return tok


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data):
    """The (number, wire type, value) fields of a protobuf message (varints and bytes only)."""
    at = 0
    while at < len(data):
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 2:
            length, at = varint(data, at)
            value, at = data[at:at + length], at + length
        elif wire == 5:
            value, at = data[at:at + 4], at + 4
        elif wire == 1:
            value, at = data[at:at + 8], at + 8
        else:
            raise ValueError(f"wire type {wire}")
        yield number, wire, value


def sample_charsmap():
    """The precompiled character map (nmt_nfkc) of a SentencePiece model of the shared
    conformance data (../shared from a checkout)."""
    path = os.path.join(HERE, "..", "..", "..", "shared", "conformance", "bpe", "data",
                        "sentencepiece", "botchan_en_unigram_1000.model")
    data = open(path, "rb").read()
    for number, _, value in fields(data):
        if number == 3:  # normalizer_spec
            for inner, _, blob in fields(value):
                if inner == 2:  # precompiled_charsmap
                    return blob
    raise ValueError("no precompiled_charsmap")


def precompiled_wordlevel():
    """Nmt, the precompiled map and Metaspace before a character-level WordLevel model."""
    vocab = {"<unk>": 0, "\u2581": 1}
    for line in CORPUS + TEXTS:
        for c in line.lower():
            vocab.setdefault(c, len(vocab))
    for extra in ["fi", "1", "2", "i"]:
        vocab.setdefault(extra, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.normalizer = normalizers.Sequence([normalizers.Nmt(),
                                           normalizers.Precompiled(sample_charsmap()),
                                           normalizers.Lowercase()])
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True),
        pre_tokenizers.Split("", behavior="isolated"),
        pre_tokenizers.Split(Regex("."), behavior="isolated")])
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    return tok


def main():
    fixtures = {
        "bert_wordpiece": bert_wordpiece(),
        "wordpiece_lower_keep_accents": wordpiece_lower_keep_accents(),
        "bpe_affixes": bpe_affixes(),
        "byte_level_roberta": byte_level_roberta(),
        "unigram_metaspace": unigram_metaspace(),
        "wordlevel_chars": wordlevel_chars(),
        "precompiled_wordlevel": precompiled_wordlevel(),
    }
    for behavior in ["removed", "isolated", "merged_with_previous", "merged_with_next",
                     "contiguous"]:
        for invert in [False, True]:
            name = f"split_{behavior}{'_invert' if invert else ''}"
            fixtures[name] = split_variant(behavior, invert)
    with open(os.path.join(HERE, "expected.jsonl"), "w", encoding="utf-8") as out:
        for name, tok in fixtures.items():
            tok.save(os.path.join(HERE, f"{name}.json"), pretty=False)
            for text in TEXTS:
                plain = tok.encode(text, add_special_tokens=False)
                with_special = tok.encode(text, add_special_tokens=True)
                record = {
                    "file": f"{name}.json",
                    "text": text,
                    "ids": plain.ids,
                    "ids_special": with_special.ids,
                    "decoded": tok.decode(plain.ids, skip_special_tokens=False),
                }
                out.write(json.dumps(record, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
