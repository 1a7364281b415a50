//! Every kind that names cut points (`Tokenizer::cut_point`) keeps its promise: a text
//! tokenized in pieces cut there, the tokens of each piece shifted to where it starts, gives
//! the tokens of the whole text (spans, exact bytes, forms, kinds, ids, origins), and its ids
//! piece by piece are the ids of the whole. Texts are made of the hard cases: whitespace runs
//! of every kind, quotes, apostrophes, periods, numbers, emoji, CJK, combining marks, special
//! tokens.

use proptest::prelude::*;
use toklab::Tokenizer;
use toklab::core::pieces::{Pieces, ids_in_pieces, tokenize_in_pieces};
use toklab::engines::subword::gguf::PRE_NAMES;

use crate::common;

/// Kinds that cut, as specs relative to the checkout.
const CUTTING: &[&str] = &[
    "ws",
    "ptb",
    "ptb?parens=1",
    "pretok:gpt2",
    "pretok:cl100k",
    "pretok:o200k",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=cl100k",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=r50k",
    "tiktoken:samples/bpe/sample.tiktoken?pattern=o200k",
    "hf:samples/bpe/tokenizer.json",
    "hf:tests/hf_data/bert_wordpiece.json",
    "hf:tests/hf_data/byte_level_roberta.json",
    "hf:tests/hf_data/wordpiece_lower_keep_accents.json",
    "spm:samples/bpe/sample-spm.model",
    "wordpiece:samples/bpe/sample-wordpiece.txt",
    "wordpiece:samples/bpe/sample-wordpiece.txt?lowercase=false",
    "wordpiece:samples/bpe/sample-wordpiece.txt?words=whitespace",
    "gguf:samples/bpe/sample.gguf",
    "rwkv:samples/bpe/sample-rwkv.txt",
    "pretok:qwen2",
    "words",
    "maxmatch:samples/maxmatch/zh-words.txt",
    "maxmatch:samples/maxmatch/zh-words.txt?dir=bwd",
    "lex:samples/lex/de-verbs.vocab",
    "sent:ptb",
];

/// Kinds that cut, as specs in the real models' folder (`{models}`) or the shared folder
/// (`{shared}`), tested when it is there.
const CUTTING_REAL: &[&str] = &[
    "spm:{models}/mistral-v1.model",
    "spm:{models}/kyoto_ja_unigram_8000.model",
    "spm:{models}/ai21-j2.model",
    "gguf:{models}/llama-vocabs/ggml-vocab-nomic-bert-moe.gguf",
    "hf:{models}/nepali-unigram.tokenizer.json",
    "hf:{models}/minilm-l6.tokenizer.json",
    "wordpiece:{models}/minilm-l6.vocab.txt",
    "spm:{shared}/conformance/bpe/data/sentencepiece/botchan_en_unigram_1000.model",
    "tekken:{models}/mistral-tekken_240718.json",
    "claude:{models}/claude.json",
    "rwkv:{models}/rwkv_vocab_v20230424.txt",
    "gguf:{models}/llama-vocabs/ggml-vocab-llama-spm.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-baichuan.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-bert-bge.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-aquila.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-gpt-neox.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-command-r.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-deepseek-coder.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-deepseek-llm.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-falcon.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-qwen35.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-refact.gguf",
    "gguf:{models}/llama-vocabs/ggml-vocab-starcoder.gguf",
    "hf:{models}/llama3.tokenizer.json",
    "hf:{models}/qwen3.tokenizer.json",
    "hf:{models}/gpt4o.tokenizer.json",
    "hf:{models}/gpt35turbo.tokenizer.json",
    "hf:{models}/deepseek_v3.tokenizer.json",
    "clip:{models}/clip-bpe_simple_vocab_16e6.txt.gz",
    "sent:spm:{models}/kyoto_ja_unigram_8000.model",
];

/// The pre-tokenizers of byte-level GGUF files ([`written_models`] writes one file for each
/// list llama.cpp knows) that do not cut: `superbpe` leaves words and the spaces between them
/// in one piece, so merges may join a letter to the space after it, and `gemma4` splits at
/// newlines only.
const GGUF_UNCUT_PRES: &[&str] = &["superbpe", "gemma4"];

/// Pieces of text the generated texts are made of.
const PARTS: &[&str] = &[
    "a",
    "word",
    "Mr.",
    "U.S.",
    "end.",
    "don't",
    "'s",
    "''",
    "\"",
    "«",
    "»",
    "...",
    "…",
    "3.14",
    "1,000",
    "42",
    "x1",
    "can",
    "not",
    "wan",
    "na",
    "'t",
    "is",
    "n't",
    "'ll",
    ",",
    ":",
    "''",
    " ",
    "  ",
    "   ",
    "\t",
    "\n",
    "\u{a0}",
    "\u{3000}",
    "\u{2009}",
    "😀",
    "👨\u{200d}👩",
    "🇫🇷",
    "東京",
    "研究",
    "é",
    "e\u{301}",
    "\u{301}",
    "Ω",
    "ß",
    "-",
    "--",
    "(",
    ")",
    "!?",
    "#",
    "@x",
    "<|endoftext|>",
    "[CLS]",
    "[MASK]",
    "http://a.b/c",
    "A",
    "Zz",
    "ǅ",
    "\u{2581}",
    "a\u{2581}",
    "ﬁ",
];

/// Pieces of text without spaces: CJK and kana, one character many times over, and the
/// letters of the written unigram models, where only the best paths' meeting can cut.
const SPACELESS: &[&str] = &[
    "東京",
    "研究",
    "の",
    "は",
    "ありがとう",
    "ございます",
    "カタカナ",
    "ー",
    "。",
    "、",
    "「",
    "」",
    "一二三",
    "ａ",
    "１",
    "語",
    "々",
    "😀",
    "é",
    "e\u{301}",
    "\u{2581}",
    "x1",
    "a",
    "aa",
    "b",
    "ab",
    "n",
    "w",
    "or",
    "d",
    "...",
    "'t",
    "東",
    "京",
    "のの",
    "中文字符",
];

/// More pieces of text without spaces, for BERT's kinds, which cut before CJK ideographs and
/// punctuation: punctuation their special tokens hold, accents and combining marks (alone,
/// after a letter, before punctuation), a joiner before a pictograph that is punctuation, a
/// mark that joins the character after it, controls and Hangul jamo.
const BERT_SPACELESS: &[&str] = &[
    "[CLS]", "[MASK]", "[", "]", "\u{301}", "\u{308}", "ñ", "İ", "‼", "\u{200d}", "\u{600}",
    "\u{d4e}", "!", "(", ")", "_", "\u{37e}", "\u{f900}", "\u{0}", "\u{1}", "\u{ad}", "\u{fffd}",
    "아", "\u{1100}", "\u{1161}", "क्", "क", "🇫🇷",
];

/// [`SPACELESS`] and [`BERT_SPACELESS`].
static BERT_PARTS: std::sync::LazyLock<Vec<&str>> =
    std::sync::LazyLock::new(|| [SPACELESS, BERT_SPACELESS].concat());

/// [`BERT_PARTS`] and what the byte-level patterns treat apart: apostrophes and the
/// contractions they start (o200k appends them to the word before), `/` (which o200k's
/// punctuation run takes after it), line breaks and digit runs; and what Claude's NFKC
/// rewrites or joins: half-width kana and voicing marks, full-width punctuation, an ellipsis,
/// compatibility jamo, ligatures.
static PATTERN_PARTS: std::sync::LazyLock<Vec<&str>> = std::sync::LazyLock::new(|| {
    [
        &BERT_PARTS[..],
        &[
            "'",
            "'s",
            "'LL",
            "’",
            "/",
            "\r\n",
            "\n",
            "12345",
            "a'",
            "x/",
            "<|endoftext|>",
            "ｶﾞ",
            "ﾞ",
            "\u{3099}",
            "！",
            "…",
            "ㄱ",
            "ㅏ",
            "ﬀ",
            "①",
            "&amp;",
            "&lt",
            "&#12354;",
            "&#x41",
            "&",
            ";",
            "<",
            "\u{1b}[31m",
            "“",
            "\u{feff}",
            "<end_of_text>",
        ],
    ]
    .concat()
});

/// Texts of [`SPACELESS`] parts, some of them one part repeated up to a hundred times.
fn spaceless_texts() -> impl Strategy<Value = String> {
    spaceless_texts_of(SPACELESS)
}

/// Texts of `parts`, some of them one part repeated up to a hundred times.
fn spaceless_texts_of(parts: &'static [&'static str]) -> impl Strategy<Value = String> {
    let part = (
        proptest::sample::select(parts),
        prop_oneof![3 => Just(1usize), 1 => 2..100usize],
    )
        .prop_map(|(part, times)| part.repeat(times));
    proptest::collection::vec(part, 0..40).prop_map(|p| p.concat())
}

fn texts() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PARTS), 0..60).prop_map(|p| p.concat())
}

/// The kinds of [`CUTTING`], loaded once for all the cases.
static LOADED: std::sync::LazyLock<Vec<(String, Box<dyn Tokenizer>)>> =
    std::sync::LazyLock::new(|| {
        let models = common::models_dir().display().to_string();
        let shared = common::shared_dir("cut_points").unwrap_or_default();
        let shared = shared.display().to_string();
        let real = CUTTING_REAL
            .iter()
            .map(|spec| {
                spec.replace("{models}", &models)
                    .replace("{shared}", &shared)
            })
            .filter(|spec| {
                // After the last kind: `sent:spm:FILE` names FILE.
                let path = std::path::Path::new(spec.rsplit_once(':').unwrap().1);
                let there = path.exists();
                if !there {
                    common::missing_model("cut_points", &path.display().to_string());
                }
                there
            });
        let specs = CUTTING.iter().map(|s| s.to_string()).chain(real);
        let mut loaded: Vec<_> = specs
            .map(|spec| {
                let tokenizer = load(&spec);
                (spec, tokenizer)
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [
            ("joined-space.model", spm_model(JOINED_SPACE, BPE)),
            (
                "joined-space-unigram.model",
                spm_model(JOINED_SPACE, UNIGRAM),
            ),
            ("close-totals.model", spm_model(CLOSE_TOTALS, UNIGRAM)),
            ("resets.model", spm_model(RESETS, UNIGRAM)),
        ] {
            let model = dir.path().join(name);
            std::fs::write(&model, bytes).unwrap();
            let spec = format!("spm:{}", model.display());
            loaded.push((format!("spm:{name}"), load(&spec)));
        }
        for (label, spec) in written_models(dir.path()) {
            loaded.push((label, load(&spec)));
        }
        let json = dir.path().join("close-totals.json");
        std::fs::write(&json, hf_unigram()).unwrap();
        let spec = format!("hf:{}", json.display());
        loaded.push(("hf:close-totals.json".into(), load(&spec)));
        loaded
    });

/// A `tokenizer.json` Unigram model of the pieces of [`CLOSE_TOTALS`] and [`RESETS`] (summed
/// in `f64` here, so totals far from zero round differently), byte pieces for what they do not
/// cover, an added token, a normalizer that lowercases and replaces runs of spaces, and
/// `Metaspace`: its pieces of a text without spaces are cut where the paths meet.
fn hf_unigram() -> String {
    let mut vocab: Vec<(String, f64)> = Vec::new();
    for (piece, score, _) in CLOSE_TOTALS.iter().chain(RESETS) {
        if !vocab.iter().any(|(p, _)| p == piece) {
            vocab.push((piece.to_string(), f64::from(*score)));
        }
    }
    vocab.extend((0..=255).map(|b| (format!("<0x{b:02X}>"), -200_000.0)));
    vocab.push(("<cls>".into(), 0.0));
    let cls = vocab.len() - 1;
    serde_json::json!({
        "version": "1.0",
        "added_tokens": [{"id": cls, "content": "<cls>", "single_word": false, "lstrip": false,
            "rstrip": false, "normalized": false, "special": true}],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Lowercase"},
            {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            {"type": "Replace", "pattern": {"String": "’"}, "content": "'"}]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
            "split": true},
        "post_processor": null,
        "decoder": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
            "split": true},
        "model": {"type": "Unigram", "unk_id": 0, "byte_fallback": true,
            "vocab": vocab.iter().map(|(p, s)| serde_json::json!([p, s])).collect::<Vec<_>>()}
    })
    .to_string()
}

/// Models written for the test in `dir`, as (label, spec): the shipped tekken and claude
/// samples with the patterns of the real files (which their hand-written matchers cut), and the
/// GGUF files of [`gguf_models`].
fn written_models(dir: &std::path::Path) -> Vec<(String, String)> {
    use toklab::engines::subword::pretok::{GPT2_PATTERN, TEKKEN_PATTERN};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut specs = Vec::new();
    for (kind, sample, key, pattern) in [
        (
            "tekken",
            "sample-tekken.json",
            "/config/pattern",
            TEKKEN_PATTERN,
        ),
        ("claude", "sample-claude.json", "/pat_str", GPT2_PATTERN),
    ] {
        let text = std::fs::read_to_string(root.join("samples/bpe").join(sample)).unwrap();
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        *json.pointer_mut(key).unwrap() = pattern.into();
        let path = dir.join(sample);
        std::fs::write(&path, json.to_string()).unwrap();
        specs.push((
            format!("{kind}:{sample}"),
            format!("{kind}:{}", path.display()),
        ));
    }
    specs.extend(gguf_models(dir));
    specs
}

/// GGUF files written for the test in `dir`, as (label, spec): a byte-level BPE for each
/// pre-tokenizer llama.cpp knows ([`PRE_NAMES`]), with merges that join a letter to
/// the space after it (which only a pre-tokenizer that splits them keeps apart) and tokens of
/// two and three spaces and of a space and a letter, which a cut at any other space than one
/// between letters would change, and one with a user-defined token of a letter and a space; a
/// SentencePiece (`llama`) one with the pieces of
/// [`JOINED_SPACE`]; WordPiece (`bert`) ones with and without an unknown token.
fn gguf_models(dir: &std::path::Path) -> Vec<(String, String)> {
    use toklab::engines::subword::gguf::write::{Builder, Val};
    let mut specs = Vec::new();
    let mut write = |label: String, put: &dyn Fn(&mut Builder)| {
        let path = dir.join(&label);
        let mut builder = Builder::new(3);
        put(&mut builder);
        builder.write(&path, 0).unwrap();
        specs.push((format!("gguf:{label}"), format!("gguf:{}", path.display())));
    };
    let bytes = (0..=255u8).map(|b| crate::gguf_files::byte_char(b).to_string());
    let mut tokens: Vec<String> = bytes.collect();
    let merges = ["a Ġ", "d Ġ", "Ġ Ġ", "ĠĠ Ġ", "Ġ a", "Ġ w", "o r"];
    tokens.extend(merges.iter().map(|m| m.replace(' ', "")));
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    for pre in PRE_NAMES {
        write(format!("{pre}.gguf"), &|b| {
            b.put("general.architecture", Val::Str("gpt2"))
                .put("tokenizer.ggml.model", Val::Str("gpt2"))
                .put("tokenizer.ggml.pre", Val::Str(pre))
                .put("tokenizer.ggml.tokens", Val::Strs(&tokens))
                .put("tokenizer.ggml.merges", Val::Strs(&merges));
        });
    }
    // A user-defined token `d ` would cross a cut before the space after `d`: none is cut.
    let mut with_special = tokens.clone();
    with_special.push("d ");
    let types: Vec<i32> = (0..with_special.len())
        .map(|i| if i + 1 == with_special.len() { 4 } else { 1 })
        .collect();
    write("special-space.gguf".into(), &|b| {
        b.put("general.architecture", Val::Str("gpt2"))
            .put("tokenizer.ggml.model", Val::Str("gpt2"))
            .put("tokenizer.ggml.pre", Val::Str("gpt-2"))
            .put("tokenizer.ggml.tokens", Val::Strs(&with_special))
            .put("tokenizer.ggml.token_type", Val::I32s(&types))
            .put("tokenizer.ggml.merges", Val::Strs(&merges));
    });
    let pieces: Vec<&str> = JOINED_SPACE.iter().map(|p| p.0).collect();
    let scores: Vec<f32> = JOINED_SPACE.iter().map(|p| p.1).collect();
    // SentencePiece's piece types are GGUF's token types: 1 normal, 2 unknown, 4 user-defined.
    let types: Vec<i32> = JOINED_SPACE.iter().map(|p| p.2 as i32).collect();
    write("joined-space.gguf".into(), &|b| {
        b.put("general.architecture", Val::Str("llama"))
            .put("tokenizer.ggml.model", Val::Str("llama"))
            .put("tokenizer.ggml.tokens", Val::Strs(&pieces))
            .put("tokenizer.ggml.scores", Val::F32s(&scores))
            .put("tokenizer.ggml.token_type", Val::I32s(&types));
    });
    // Fewer than 101 tokens, so without `unknown_token_id` there is no unknown token (BERT's
    // default is id 100).
    let words = [
        "[UNK]", "[CLS]", "[MASK]", "▁a", "▁w", "or", "d", "▁word", "▁is", "▁can", "▁not", "n",
        "'", "t", "▁'", "▁.", "▁,", "s", "▁x", "1", "▁4", "2", "▁mr", "▁end", "▁e", "▁na",
    ];
    let types: Vec<i32> = (0..words.len())
        .map(|i| match i {
            0 => 2,
            1 | 2 => 3,
            _ => 1,
        })
        .collect();
    for (label, unk) in [("bert.gguf", true), ("bert-no-unk.gguf", false)] {
        write(label.into(), &|b| {
            b.put("general.architecture", Val::Str("bert"))
                .put("tokenizer.ggml.model", Val::Str("bert"))
                .put("tokenizer.ggml.tokens", Val::Strs(&words))
                .put("tokenizer.ggml.token_type", Val::I32s(&types));
            if unk {
                b.put("tokenizer.ggml.unknown_token_id", Val::U32(0));
            }
        });
    }
    specs
}

/// SentencePiece's model types, as the `.model` file writes them.
const UNIGRAM: u8 = 1;
const BPE: u8 = 2;

/// Pieces (text, score, type: 1 normal, 2 unknown, 4 user-defined) that hold a letter and the
/// `▁` after it (`a▁`, `d▁`), ranked above those that start with `▁`, and a user-defined
/// piece: a cut before the space after `a` or `d`, or after `@x`, would change the tokens.
const JOINED_SPACE: &[(&str, f32, u64)] = &[
    ("<unk>", 0.0, 2),
    ("@x", 0.0, 4),
    ("a\u{2581}", -1.0, 1),
    ("d\u{2581}", -1.5, 1),
    ("\u{2581}a", -2.0, 1),
    ("\u{2581}w", -2.5, 1),
    ("or", -3.0, 1),
    ("\u{2581}wor", -3.5, 1),
    ("\u{2581}", -4.0, 1),
    ("a", -4.0, 1),
    ("d", -4.0, 1),
    ("o", -4.0, 1),
    ("r", -4.0, 1),
    ("w", -4.0, 1),
    ("n", -4.0, 1),
    ("x", -4.0, 1),
];

/// Unigram pieces whose scores are sums of one another's in exact arithmetic but not in `f32`
/// (a tenth is no binary fraction): which of two such paths wins depends on how the total
/// before them rounds, so a piece searched from a total other than the whole text's there
/// (unknown characters, 10 below the lowest piece, make it large) would choose differently.
const CLOSE_TOTALS: &[(&str, f32, u64)] = &[
    ("<unk>", 0.0, 2),
    ("\u{2581}", -0.1, 1),
    ("a", -0.1, 1),
    ("aa", -0.2, 1),
    ("aaa", -0.3, 1),
    ("\u{2581}a", -0.2, 1),
    ("\u{2581}aa", -0.3, 1),
    ("n", -0.3, 1),
    ("an", -0.4, 1),
    ("na", -0.4, 1),
    ("\u{2581}n", -0.4, 1),
    ("\u{2581}na", -0.5, 1),
    ("w", -0.7, 1),
    ("\u{2581}w", -0.8, 1),
    ("wa", -0.8, 1),
    ("\u{2581}wa", -0.9, 1),
    ("o", -0.6, 1),
    ("or", -1.1, 1),
    ("r", -0.5, 1),
    ("d", -0.9, 1),
    ("wor", -1.8, 1),
    ("\u{2581}wor", -1.9, 1),
    ("s", -0.3, 1),
    ("'s", -0.6, 1),
    ("t", -0.5, 1),
    ("'t", -0.8, 1),
    ("n't", -1.1, 1),
    (".", -0.2, 1),
    ("..", -0.4, 1),
    ("...", -0.6, 1),
    ("\u{2581}\u{2581}", -0.2, 1),
    ("\u{2581}\u{2581}\u{2581}", -0.3, 1),
];

/// Unigram pieces scored so that path totals pass SentencePiece's reset threshold (±100,000)
/// every few pieces, with sums that round differently in `f32` depending on the total they are
/// added to: a piece searched from other totals than the whole text's, or shifted at other
/// places, would choose differently.
const RESETS: &[(&str, f32, u64)] = &[
    ("<unk>", 0.0, 2),
    ("\u{2581}", -31_000.7, 1),
    ("a", -30_000.1, 1),
    ("aa", -60_000.3, 1),
    ("aaa", -90_000.2, 1),
    ("b", -41_000.9, 1),
    ("ab", -71_001.0, 1),
    ("ba", -71_000.9, 1),
    ("bab", -112_001.8, 1),
    ("東", -35_000.3, 1),
    ("京", -35_000.4, 1),
    ("東京", -70_000.6, 1),
    ("京東", -70_000.8, 1),
    ("の", -20_000.05, 1),
    ("のの", -40_000.1, 1),
    ("\u{2581}a", -61_000.7, 1),
];

/// A SentencePiece model of `model_type` with `pieces`, as the bytes of a `.model` file.
fn spm_model(pieces: &[(&str, f32, u64)], model_type: u8) -> Vec<u8> {
    fn varint(mut v: u64, out: &mut Vec<u8>) {
        while v >= 0x80 {
            out.push((v as u8 & 0x7F) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    fn field(number: u64, payload: &[u8], out: &mut Vec<u8>) {
        varint(number << 3 | 2, out);
        varint(payload.len() as u64, out);
        out.extend_from_slice(payload);
    }
    let mut model = Vec::new();
    for &(piece, score, kind) in pieces {
        let mut message = Vec::new();
        field(1, piece.as_bytes(), &mut message);
        varint(2 << 3 | 5, &mut message);
        message.extend_from_slice(&score.to_le_bytes());
        varint(3 << 3, &mut message);
        varint(kind, &mut message);
        field(1, &message, &mut model);
    }
    // TrainerSpec: the model type; NormalizerSpec: no character map, dummy prefix, extra
    // spaces removed, spaces as `▁`.
    field(2, &[3 << 3, model_type], &mut model);
    field(3, &[3 << 3, 1, 4 << 3, 1, 5 << 3, 1], &mut model);
    model
}

fn load(spec: &str) -> Box<dyn Tokenizer> {
    toklab::load_in(spec, env!("CARGO_MANIFEST_DIR").as_ref())
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The tokens as everything a writer or a view reads of them.
fn shown(tokenizer: &dyn Tokenizer, text: &str, pieces: bool) -> Vec<String> {
    let tokens = match pieces {
        true => tokenize_in_pieces(tokenizer, text, 1),
        false => tokenizer.tokenize(text),
    };
    tokens
        .iter()
        .map(|t| {
            format!(
                "{} {} {:?} {} {:?} {}",
                t.span,
                t.bytes(),
                t.form(text),
                t.kind.name(),
                t.id,
                t.origin
            )
        })
        .collect()
}

/// Checks that `text` cut at every cut point `tokenizer` finds, each piece tokenized on its own
/// with the carry, gives the whole text's tokens, ids and give-up flag: the one body both
/// properties below run, so they can never drift apart in what they compare.
fn assert_pieces_match(
    spec: &str,
    tokenizer: &dyn Tokenizer,
    text: &str,
) -> Result<(), TestCaseError> {
    // Pieces of one byte or more: a cut at every cut point there is.
    prop_assert_eq!(
        shown(tokenizer, text, true),
        shown(tokenizer, text, false),
        "{} on {:?}, cut at {:?}",
        spec,
        text,
        cut_offsets(tokenizer, text)
    );
    let mut whole = Vec::new();
    let whole_gave_up = tokenizer.ids_into(text, &mut whole);
    let mut pieces = Vec::new();
    let pieces_gave_up = ids_in_pieces(tokenizer, text, 1, &mut pieces);
    prop_assert_eq!(pieces, whole, "{} ids on {:?}", spec, text);
    prop_assert_eq!(pieces_gave_up, whole_gave_up, "{} on {:?}", spec, text);
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    #[test]
    fn pieces_tokenize_as_the_whole_text(text in texts()) {
        for (spec, tokenizer) in LOADED.iter() {
            assert_pieces_match(spec, tokenizer.as_ref(), &text)?;
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    /// Unigram models cut texts without spaces where their best paths meet, with the state of
    /// the whole text's search carried over: the pieces give the whole text's tokens and ids.
    #[test]
    fn unigram_pieces_of_spaceless_text_tokenize_as_the_whole(text in spaceless_texts()) {
        for (spec, tokenizer) in LOADED.iter().filter(|(spec, _)| is_unigram(spec)) {
            assert_pieces_match(spec, tokenizer.as_ref(), &text)?;
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    /// BERT's kinds cut texts without spaces before CJK ideographs and punctuation: the pieces
    /// give the whole text's tokens and ids.
    #[test]
    fn bert_pieces_of_spaceless_text_tokenize_as_the_whole(
        text in spaceless_texts_of(&BERT_PARTS)
    ) {
        for (spec, tokenizer) in LOADED.iter().filter(|(spec, _)| is_bert(spec)) {
            assert_pieces_match(spec, tokenizer.as_ref(), &text)?;
        }
    }
}

proptest! {
    #![proptest_config(common::proptest_config(256))]

    /// The GPT-2, cl100k and o200k matchers (`pretok:`, `tiktoken:`, `tekken:`, `claude:`
    /// behind NFKC), CLIP's pattern behind its clean-up, and `words`, `maxmatch:` and `lex:`,
    /// cut texts
    /// without spaces before punctuation that follows a letter: the pieces give the whole
    /// text's tokens and ids, with apostrophes, marks and digits about.
    #[test]
    fn pattern_pieces_of_spaceless_text_tokenize_as_the_whole(
        text in spaceless_texts_of(&PATTERN_PARTS)
    ) {
        for (spec, tokenizer) in LOADED
            .iter()
            .filter(|(spec, _)| is_pattern(spec) || is_word_kind(spec))
        {
            assert_pieces_match(spec, tokenizer.as_ref(), &text)?;
        }
    }
}

/// The kinds that pre-tokenize with the hand-written GPT-2, cl100k and o200k matchers, and
/// CLIP's.
fn is_pattern(spec: &str) -> bool {
    ["pretok:", "tiktoken:", "tekken:", "claude:", "clip:"]
        .iter()
        .any(|kind| spec.starts_with(kind))
}

/// The kinds that cut text without spaces between characters that belong to no word (`words`,
/// `lex:`) or that no word of their list reaches over (`maxmatch:`).
fn is_word_kind(spec: &str) -> bool {
    spec == "words" || spec.starts_with("maxmatch:") || spec.starts_with("lex:")
}

/// BERT's kinds among the loaded ones: `hf:` BERT pipelines, `wordpiece:`, GGUF `bert`.
fn is_bert(spec: &str) -> bool {
    ["minilm", "bert", "wordpiece"]
        .iter()
        .any(|name| spec.contains(name))
}

/// Where `tokenizer` cuts `text` into pieces of one byte or more, each piece tokenized before
/// the next is asked for, as the pieces' carry requires.
fn cut_offsets(tokenizer: &dyn Tokenizer, text: &str) -> Vec<usize> {
    let mut pieces = Pieces::new(tokenizer, text, 1);
    let mut cuts = Vec::new();
    while let Some((at, piece)) = pieces.next() {
        cuts.push(at);
        tokenizer.tokenize_piece(piece, pieces.carry());
    }
    cuts
}

/// The unigram models among the loaded kinds.
fn is_unigram(spec: &str) -> bool {
    [
        "kyoto_ja",
        "ai21-j2",
        "botchan_en_unigram",
        "-unigram.model",
        "close-totals",
        "resets",
        "nepali-unigram",
    ]
    .iter()
    .any(|name| spec.contains(name))
}

/// Each kind above does cut a text of words (so the property is not true for want of cuts),
/// and kinds whose context reaches across the text do not.
#[test]
fn the_cutting_kinds_cut_and_the_others_do_not() {
    let text = "The harbour reopened on Monday after three years, said Zoë. It's open!";
    for (spec, tokenizer) in LOADED.iter() {
        if spec.starts_with("spm:joined-space") || spec == "gguf:joined-space.gguf" {
            // Its few letters: it cuts after `n`, `r` and `w`, never after `a` or `d`, whose
            // pieces hold the `▁` after them.
            let words = "wn an rd or wa ow ad wr a";
            let cuts: Vec<usize> = Pieces::new(tokenizer.as_ref(), words, 1)
                .map(|(at, _)| at)
                .collect();
            assert_eq!(cuts, [0, 2, 5, 11, 17, 23], "{spec}");
            continue;
        }
        if spec.starts_with("spm:resets") {
            // Its few letters: checked on its own text below.
            continue;
        }
        let pieces = cut_offsets(tokenizer.as_ref(), text).len();
        let uncut = GGUF_UNCUT_PRES
            .iter()
            .map(|pre| format!("gguf:{pre}.gguf"))
            .chain(["bert-no-unk", "special-space"].map(|f| format!("gguf:{f}.gguf")))
            .any(|label| label == *spec);
        match uncut {
            true => assert_eq!(pieces, 1, "{spec}"),
            false => assert!(pieces > 5, "{spec}: {pieces} pieces"),
        }
    }
    // Unigram models cut where their best paths meet, also without a space.
    for (spec, text) in [
        (
            "kyoto_ja",
            "港は月曜日に再開した。三年半の遅れのあとで、彼女は理由を言わなかった。",
        ),
        (
            "ai21-j2",
            "theharbourreopenedonmondayafterthreeyearsofdelays",
        ),
        ("resets", "東京のの東京aabab東京ののaaab"),
        (
            "nepali-unigram",
            "港は月曜日に再開した。三年半の遅れのあとで、彼女は理由を言わなかった。",
        ),
        (
            "close-totals",
            "aanawaorwordaadaanaawordornawaaordaanwwordaanaword",
        ),
    ] {
        for (loaded, tokenizer) in LOADED.iter().filter(|(s, _)| s.contains(spec)) {
            let pieces = cut_offsets(tokenizer.as_ref(), text).len();
            assert!(pieces > 3, "{loaded}: {pieces} pieces of {text:?}");
        }
    }
    // BERT's kinds cut before CJK ideographs (and punctuation) in a text without spaces.
    let kana = "港は月曜日に再開した。三年半の遅れのあとで、彼女は理由を言わなかった。";
    for spec in [
        "minilm",
        "bert_wordpiece.json",
        "wordpiece:",
        "gguf:bert.gguf",
        "ggml-vocab-bert-bge",
    ] {
        for (loaded, tokenizer) in LOADED.iter().filter(|(s, _)| s.contains(spec)) {
            let pieces = cut_offsets(tokenizer.as_ref(), kana).len();
            assert!(pieces > 10, "{loaded}: {pieces} pieces of {kana:?}");
        }
    }
    // So do `words`, `maxmatch:`, `lex:` and the pattern kinds, before punctuation at least.
    for spec in [
        "words",
        "maxmatch:",
        "lex:",
        "claude:",
        "clip:",
        "pretok:",
        "tiktoken:",
    ] {
        for (loaded, tokenizer) in LOADED.iter().filter(|(s, _)| s.starts_with(spec)) {
            let pieces = cut_offsets(tokenizer.as_ref(), kana).len();
            assert!(pieces > 2, "{loaded}: {pieces} pieces of {kana:?}");
        }
    }
    let rules = load("rules:rules?lang=eng");
    assert_eq!(Pieces::new(rules.as_ref(), text, 1).count(), 1);
}

/// `toklab tokenize` writes a line longer than it streams (1 MB) piece by piece, and what it
/// writes is byte for byte the record of the whole line's tokens, in the text and ids formats,
/// for kinds that cut (a unigram model among them, whose pieces carry their path totals), one
/// that writes from its automaton, and one that does not cut.
#[test]
fn a_streamed_line_is_written_as_the_whole_line() {
    let mut line = String::new();
    let mut state: u32 = 7;
    while line.len() < 3 << 19 {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        line.push_str(PARTS[(state >> 16) as usize % PARTS.len()].trim_end_matches('\n'));
        line.push(' ');
    }
    let line = line.replace('\n', " ");
    let dir = tempfile::tempdir().unwrap();
    let unigram = dir.path().join("close-totals.model");
    std::fs::write(&unigram, spm_model(CLOSE_TOTALS, UNIGRAM)).unwrap();
    let unigram = format!("spm:{}", unigram.display());
    for spec in [
        "ws",
        "ptb",
        "pretok:cl100k",
        "hf:tests/hf_data/bert_wordpiece.json",
        "fst:samples/fst/english.fst",
        "words",
        &unigram,
    ] {
        let tokenizer = load(spec);
        let tokens = tokenizer.tokenize(&line);
        let forms = tokens.forms(&line).join(" ");
        let ids: Vec<String> = tokens
            .iter()
            .map(|t| t.id.map_or("-".to_string(), |id| id.to_string()))
            .collect();
        for (format, expected) in [("text", forms), ("ids", ids.join(" "))] {
            let output = common::run(
                &["tokenize", "--with", spec, "-f", format, "--threads", "2"],
                format!("short line\n{line}\nlast line\n").as_bytes(),
            );
            assert!(output.status.success(), "{spec} -f {format}");
            let written = String::from_utf8(output.stdout).unwrap();
            let records: Vec<&str> = written.split('\n').collect();
            assert_eq!(records.len(), 4, "{spec} -f {format}");
            assert!(
                records[1] == expected,
                "{spec} -f {format}: the long record differs"
            );
        }
    }
}
