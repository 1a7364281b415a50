//! Anthropic's `claude.json` (npm `@anthropic-ai/tokenizer`, `claude:FILE`): the JSON that
//! tiktoken's JavaScript `Tiktoken` constructor takes — `bpe_ranks` (lines `! OFFSET TOKEN…`,
//! base64 tokens ranked from OFFSET on), `special_tokens` (name → id) and `pat_str` — read
//! as that package uses it: the text is first normalized with NFKC (in the package's code,
//! not in the file; `?nfkc=false` leaves it out) and special tokens written in the text are
//! matched (`encode(text, 'all')`).

use std::path::Path;

use serde::Deserialize;

use crate::core::error::{Error, Result};
use crate::core::normalized::NormalizedString;
use crate::core::pieces::breaks_between;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::tokenizer::Tokenizer;
use crate::engines::subword::bpe::BpeTokenizer;
use crate::engines::subword::bpe::load::tiktoken::{self, base64_decode};
use crate::engines::subword::bpe::load::{MAX_ID, json_error, read_text, vocab_conflict};
use crate::engines::subword::bpe::vocab::Vocab;
use crate::engines::subword::normalizing::{Normalizing, chars_around, nfkc_stable};

/// `claude:FILE`: a tiktoken JSON as `@anthropic-ai/tokenizer` ships and uses it.
pub const KIND: Kind = Kind::new(
    "claude",
    "claude:claude.json",
    "tiktoken JSON of npm @anthropic-ai/tokenizer (bpe_ranks, special_tokens, pat_str), NFKC first as the package does; ?nfkc=true|false",
    load,
)
.with_options();

/// Loads `claude:FILE[?nfkc=false]`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let nfkc = spec.take_flag("nfkc", true)?;
    spec.finish(&["nfkc"])?;
    let name = spec.text.trim();
    let inner = load_bpe(name, &spec.path())?;
    Ok(match nfkc {
        true => Box::new(Normalizing::new(name, nfkc_of, inner).with_cuts(nfkc_keeps)),
        false => Box::new(inner),
    })
}

fn nfkc_of(text: &mut NormalizedString) {
    text.nfkc();
}

/// NFKC, which [`NormalizedString::nfkc`] applies grapheme by grapheme, keeps a cut between
/// `before` and `at` when the three characters are stable (each written as itself whatever
/// surrounds it, joining none before it) and a grapheme ends at the cut: ASCII characters
/// (only `\r\n` is one grapheme of two), or starters that NFKC's quick check passes on
/// their own, since a character that may compose with the one before it is a "maybe" and one
/// that changes a "no". So Japanese or Chinese without spaces is cut where the inner pattern
/// ends a run of letters before punctuation, as between `は` and `、`.
fn nfkc_keeps(text: &str, cut: usize) -> bool {
    let Some([before, at, next]) = chars_around(text, cut) else {
        return false;
    };
    if [before, at, next].iter().all(char::is_ascii) {
        return (before, at) != ('\r', '\n');
    }
    [before, at, next].into_iter().all(nfkc_stable) && breaks_between(before, at)
}

#[derive(Deserialize)]
struct File {
    pat_str: String,
    special_tokens: std::collections::BTreeMap<String, u32>,
    bpe_ranks: String,
}

/// The BPE of the file, without the normalization.
pub fn load_bpe(name: &str, path: &Path) -> Result<BpeTokenizer> {
    let text = read_text(path)?;
    let file: File = serde_json::from_str(&text).map_err(|e| json_error(path, e))?;
    let bad = |message: String| Error::format(path, None, message);
    let mut vocab = Vocab::with_capacity(65_536, file.bpe_ranks.len() / 2);
    let mut bytes = Vec::with_capacity(64);
    for (number, line) in file.bpe_ranks.lines().enumerate() {
        let mut fields = line.split(' ');
        let (Some("!"), Some(offset)) = (fields.next(), fields.next()) else {
            return Err(bad(format!(
                "bpe_ranks line {}: expected `! OFFSET TOKEN…`",
                number + 1
            )));
        };
        let offset: u64 = offset.parse().map_err(|_| {
            bad(format!(
                "bpe_ranks line {}: offset `{offset}` is not a number",
                number + 1
            ))
        })?;
        for (k, token) in fields.enumerate() {
            let id = offset + k as u64;
            if id >= MAX_ID {
                return Err(bad(format!("rank {id} is too large (at most {MAX_ID})")));
            }
            bytes.clear();
            base64_decode(token.as_bytes(), &mut bytes).map_err(|at| {
                bad(format!(
                    "bpe_ranks line {}, token {}: invalid base64 at column {}",
                    number + 1,
                    k + 1,
                    at + 1
                ))
            })?;
            vocab
                .insert(id as u32, &bytes)
                .map_err(|c| vocab_conflict(path, None, &String::from_utf8_lossy(&bytes), id, c))?;
        }
    }
    // Without ranks every text would be tokens without ids; a tiktoken file without tokens is
    // refused the same way.
    if vocab.is_empty() {
        return Err(bad("bpe_ranks has no tokens".into()));
    }
    let pretok = tiktoken::pretokenizer(&file.pat_str).map_err(|e| bad(e.to_string()))?;
    let specials: Vec<(String, u32)> = file.special_tokens.into_iter().collect();
    let model = tiktoken::model_of(vocab, pretok, &specials);
    Ok(BpeTokenizer::new(
        name,
        model,
        Vec::new(),
        vec![path.to_path_buf()],
    ))
}

#[cfg(test)]
mod tests {
    use super::nfkc_keeps;

    #[test]
    fn nfkc_keeps_a_cut_between_stable_characters_at_a_grapheme_end() {
        let kept = |s: &str| nfkc_keeps(s, s.chars().next().unwrap().len_utf8());
        // Kana before punctuation, ASCII.
        for yes in ["は、カ", "ab.", "ナ。「"] {
            assert!(kept(yes), "{yes}");
        }
        // NFKC rewrites full-width and half-width forms and compatibility jamo; a voicing mark
        // and a combining accent join the character before; `\r\n` and a letter with a
        // spacing vowel sign are one grapheme; a joiner glues what follows.
        for no in [
            "は、Ａ",
            "はｶﾞ",
            "カﾞ、",
            "は\u{3099}、",
            "e\u{301}.",
            "ㄱㅏ.",
            "\r\nx",
            "कार",
            "\u{200d}、x",
        ] {
            assert!(!kept(no), "{no}");
        }
    }

    #[test]
    fn cuts_text_without_spaces_before_punctuation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claude.json");
        let json = serde_json::json!({
            "pat_str": crate::engines::subword::pretok::GPT2_PATTERN,
            "special_tokens": {"<EOT>": 0},
            "bpe_ranks": "! 1 Zg==",
        });
        std::fs::write(&path, json.to_string()).unwrap();
        let claude = crate::load(&format!("claude:{}", path.display())).unwrap();
        let text = "東京は、カタカナ。「ｶﾞ、";
        assert_eq!(claude.cut_point(text, 0), Some("東京は".len()));
        let after = "東京は、カタカナ".len();
        assert_eq!(claude.cut_point(text, "東京は、".len()), Some(after));
        assert_eq!(claude.cut_point(text, after + 1), None, "ｶﾞ becomes ガ");
    }

    #[test]
    fn ranks_specials_and_nfkc() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claude.json");
        // f=2 i=3 fi=4 after the two special tokens.
        let json = r#"{"explicit_n_vocab": 5, "pat_str": "\\p{L}+|\\s+|[^\\s\\p{L}]+",
            "special_tokens": {"<EOT>": 0, "<META>": 1}, "bpe_ranks": "! 2 Zg== aQ== Zmk="}"#;
        std::fs::write(&path, json).unwrap();
        let spec = format!("claude:{}", path.display());
        let claude = crate::load(&spec).unwrap();
        let text = "\u{FB01}<EOT>";
        let tokens = claude.tokenize(text);
        tokens.check(text).unwrap();
        let ids: Vec<u32> = tokens.tokens.iter().map(|t| t.id.unwrap()).collect();
        assert_eq!(
            ids,
            [4, 0],
            "NFKC makes the ligature `fi`; the special token matches"
        );
        let plain = crate::load(&format!("{spec}?nfkc=false")).unwrap();
        assert!(
            plain
                .tokenize("\u{FB01}")
                .tokens
                .iter()
                .all(|t| t.id.is_none())
        );
        for empty in [r#""bpe_ranks": """#, r#""bpe_ranks": "! 5""#] {
            std::fs::write(
                &path,
                json.replace(r#""bpe_ranks": "! 2 Zg== aQ== Zmk=""#, empty),
            )
            .unwrap();
            let e = crate::load(&spec)
                .err()
                .expect("no ranks is refused")
                .to_string();
            assert!(e.contains("claude.json") && e.contains("no tokens"), "{e}");
        }
        std::fs::write(&path, json.replace("! 2", "? 2")).unwrap();
        let e = crate::load(&spec).err().unwrap().to_string();
        assert!(
            e.contains("claude.json") && e.contains("bpe_ranks line 1"),
            "{e}"
        );
    }
}
