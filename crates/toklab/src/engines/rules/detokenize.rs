//! utoken 0.1.8's detokenizer (`utoken.detokenize`), driven by the same resource files: the
//! `::auto-attach` entries of `detok-resource.txt`, the `@` mark-up, contractions of the
//! tokenizer files re-contracted (`can n't` → `can't`) and the `DECONTRACTION` tags of
//! `::lexical` entries. Written from a reading of utoken's algorithm, quirks included (they
//! decide its output): the files are read in the detokenizer's order (detok file, language
//! files, `tok-resource.txt`, `tok-resource-eng-global.txt`); a `-not` context on a
//! detokenizer entry must *match* (utoken negates the already negated pattern); the token
//! offsets are not updated after a contraction, so the right context of later tokens is
//! read from the original line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use super::Diagnostic;
use super::line::{FileRole, flag, slot_value, split_codes};
use super::markup::ATTACH_TAG;
use super::resources::{Conditions, Resources, is_tokenizer_only, read_text};

/// One `::auto-attach` (or `DECONTRACTION`-tagged `::lexical`) entry.
#[derive(Debug)]
struct Attach {
    s: String,
    group: bool,
    /// The line's `::lcode` codes (only the detokenizer file's auto-attach entries keep them).
    langs: Vec<String>,
    cond: Conditions,
}

/// A `::contraction` entry read backwards: its `::target` (the key) becomes its headword.
#[derive(Debug)]
struct Contraction {
    contraction: String,
    target: String,
    cond: Conditions,
}

/// The detokenizer's tables, read from the rule files of a `rules:` spec.
#[derive(Debug, Default)]
pub struct Detokenizer {
    left: HashMap<String, Vec<Attach>>,
    right: HashMap<String, Vec<Attach>>,
    contractions: HashMap<String, Vec<Contraction>>,
}

impl Detokenizer {
    /// Reads the files in the detokenizer's order; `langs` are the `--lc` codes (lines of
    /// other languages are left out, as utoken does).
    pub fn load(files: &[PathBuf], langs: &[String]) -> Result<Detokenizer, Diagnostic> {
        let mut ordered: Vec<&PathBuf> = Vec::new();
        let name = |p: &PathBuf| {
            p.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string()
        };
        let rank = |p: &PathBuf| match (FileRole::of(p), name(p).as_str()) {
            (FileRole::Tld, _) => None,
            (FileRole::Detok, _) => Some(0),
            (_, "tok-resource.txt") => Some(2),
            (_, "tok-resource-eng-global.txt") => Some(3),
            _ => Some(1),
        };
        for r in 0..4 {
            ordered.extend(files.iter().filter(|p| rank(p) == Some(r)));
        }
        let mut detok = Detokenizer::default();
        let mut scratch = Resources::new();
        for path in ordered {
            let text = read_text(path)?;
            detok.read(&mut scratch, path, &text, langs);
        }
        Ok(detok)
    }

    fn read(&mut self, res: &mut Resources, path: &Path, text: &str, langs: &[String]) {
        res.read_entry_lines(
            path,
            text,
            FileRole::Detok,
            is_tokenizer_only,
            |res, line| {
                let text = line.text.as_str();
                let Some(head) = text
                    .strip_prefix("::")
                    .and_then(|r| r.split(char::is_whitespace).next())
                    .filter(|h| !h.is_empty())
                else {
                    return;
                };
                let line_langs: Vec<String> = slot_value(text, "lcode")
                    .filter(|v| !v.is_empty())
                    .map(|v| split_codes(v).into_iter().map(str::to_string).collect())
                    .unwrap_or_default();
                if !langs.is_empty()
                    && !line_langs.is_empty()
                    && !line_langs.iter().any(|l| langs.contains(l))
                {
                    return;
                }
                let s = slot_value(text, head).unwrap_or("").to_string();
                let mut cond = || res.conditions_of(text, path, line.number, line.raw, true);
                match head {
                    "auto-attach" => {
                        let side = slot_value(text, "side").unwrap_or("");
                        let group = flag(text, "group");
                        let attach = |cond| Attach {
                            s: s.clone(),
                            group,
                            langs: line_langs.clone(),
                            cond,
                        };
                        let key = s.to_lowercase();
                        if matches!(side, "left" | "both") {
                            let c = cond();
                            self.left.entry(key.clone()).or_default().push(attach(c));
                        }
                        if matches!(side, "right" | "both") {
                            let c = cond();
                            self.right.entry(key).or_default().push(attach(c));
                        }
                    }
                    "contraction" if !flag(text, "nonstandard") && !flag(text, "substandard") => {
                        let target = slot_value(text, "target").unwrap_or("").to_string();
                        let c = cond();
                        self.contractions
                            .entry(target.to_lowercase())
                            .or_default()
                            .push(Contraction {
                                contraction: s,
                                target,
                                cond: c,
                            });
                    }
                    "lexical" => {
                        let tag = slot_value(text, "tag").unwrap_or("");
                        let key = s.to_lowercase();
                        let attach = |cond| Attach {
                            s: s.clone(),
                            group: false,
                            langs: Vec::new(),
                            cond,
                        };
                        if matches!(tag, "DECONTRACTION-L" | "DECONTRACTION-B") {
                            let c = cond();
                            self.right.entry(key.clone()).or_default().push(attach(c));
                        }
                        if matches!(tag, "DECONTRACTION-R" | "DECONTRACTION-B") {
                            let c = cond();
                            self.left.entry(key).or_default().push(attach(c));
                        }
                    }
                    _ => {}
                }
            },
        );
    }

    /// Detokenizes one tokenized line as `Detokenizer.detokenize_string` does; `lang` is the
    /// `--lc` value as given, `markup` says whether a token is `@` mark-up.
    pub fn line(&self, s: &str, lang: Option<&str>, markup: &dyn Fn(&str) -> bool) -> String {
        let s = s.trim();
        if s.is_empty() {
            return String::new();
        }
        let (mut tokens, offsets) = split_tokens(s);
        let mut result = String::new();
        let mut no_space = true;
        let mut i = 0;
        while i < tokens.len() {
            let n = tokens.len();
            let next = tokens.get(i + 1).cloned().unwrap_or_default();
            let next2 = tokens.get(i + 2).cloned().unwrap_or_default();
            if !next2.is_empty() {
                let three = format!("{} {next} {next2}", tokens[i]);
                if let Some(c) = self.contraction(&three, lang) {
                    tokens.splice(i..i + 3, [c]);
                    continue;
                }
            }
            if !next.is_empty() {
                let two = format!("{} {next}", tokens[i]);
                if let Some(c) = self.contraction(&two, lang) {
                    tokens.splice(i..i + 2, [c]);
                    continue;
                }
            }
            let token = tokens[i].as_str();
            let prev = if i >= 1 { tokens[i - 1].as_str() } else { "" };
            let next_offset = if i + 1 < n { offsets[i + 1] } else { s.len() };
            let right = &s[next_offset..];
            let marked = markup(token);
            // No space before the first token, a token marked up on its left, one that
            // attaches left, a closing tag, after an opening tag, or a Kazakh initial.
            let glued = no_space
                || (marked && token.starts_with(ATTACH_TAG))
                || attaches(&self.left, token, &result, right, lang)
                || CLOSE_TAG.is_match(token)
                || OPEN_TAG_AT_END.is_match(&result)
                || name_initial(token, &result, lang);
            if !glued {
                result.push(' ');
            }
            result.push_str(if marked {
                token.trim_matches(ATTACH_TAG)
            } else {
                token
            });
            no_space = (marked && token.ends_with(ATTACH_TAG))
                || attaches(&self.right, token, prev, &next, lang);
            i += 1;
        }
        result
    }

    /// The contraction whose target is `s` (ignoring case), its case adjusted to `s`.
    fn contraction(&self, s: &str, lang: Option<&str>) -> Option<String> {
        let entries = self.contractions.get(&s.to_lowercase())?;
        entries
            .iter()
            .find(|e| fulfils(&e.target, &[], false, &e.cond, s, "", "", lang, false))
            .map(|e| adjust_capitalization(&e.contraction, s))
    }
}

/// utoken's tokens of a tokenized line: whitespace-separated, except that an XML tag (which
/// may hold spaces) is one token when whitespace or the end follows it; with each token's
/// byte offset. Each match reads only the token it finds (a pattern over the rest of the line
/// at every token made a 20,000-token line take 40 s).
fn split_tokens(s: &str) -> (Vec<String>, Vec<usize>) {
    static XML: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\s*(@?</?[a-zA-Z][^<>]*>@?)").unwrap());
    static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(\S+)").unwrap());
    let xml = s.contains('<');
    let (mut tokens, mut offsets) = (Vec::new(), Vec::new());
    let mut at = 0;
    loop {
        let rest = &s[at..];
        let tag = xml.then(|| XML.captures(rest)).flatten().filter(|m| {
            rest[m.get(0).map_or(0, |m| m.end())..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace)
        });
        let Some(m) = tag.or_else(|| WORD.captures(rest)) else {
            break;
        };
        let token = m.get(1).unwrap();
        offsets.push(at + token.start());
        tokens.push(token.as_str().to_string());
        at += token.end();
    }
    (tokens, offsets)
}

static CLOSE_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^</[a-z][-_a-z0-9]*>").unwrap());
static OPEN_TAG_AT_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)<[a-z][-_:a-z0-9]*(?:\s+[a-z][-_:a-z0-9]*="[^"]*")*\s*>$"#).unwrap()
});

/// Whether an entry for `token` (or, for a run of one character, a `::group` entry for that
/// character) attaches it on this side.
fn attaches(
    table: &HashMap<String, Vec<Attach>>,
    token: &str,
    left: &str,
    right: &str,
    lang: Option<&str>,
) -> bool {
    let lc = token.to_lowercase();
    let holds = |e: &Attach, group: bool| {
        fulfils(
            &e.s, &e.langs, e.group, &e.cond, token, left, right, lang, group,
        )
    };
    if table
        .get(&lc)
        .is_some_and(|es| es.iter().any(|e| holds(e, false)))
    {
        return true;
    }
    let Some(first) = lc.chars().next() else {
        return false;
    };
    token.chars().all(|c| c == first)
        && table
            .get(first.to_string().as_str())
            .is_some_and(|es| es.iter().any(|e| holds(e, true)))
}

/// `detokenization_entry_fulfills_conditions`.
#[allow(clippy::too_many_arguments)]
fn fulfils(
    s: &str,
    langs: &[String],
    entry_group: bool,
    cond: &Conditions,
    token: &str,
    left: &str,
    right: &str,
    lang: Option<&str>,
    group: bool,
) -> bool {
    let lang_ok = match lang {
        Some(l) if !l.is_empty() && !langs.is_empty() => langs.iter().any(|x| x == l),
        _ => true,
    };
    lang_ok
        && (!cond.case_sensitive || token == s)
        && (!group || entry_group)
        && cond.left.as_ref().is_none_or(|c| c.holds(left))
        // utoken tests `not match` of the `-not` patterns, which already negate.
        && cond.left_not.as_ref().is_none_or(|c| !c.holds(left))
        && cond.right.as_ref().is_none_or(|c| c.holds(right))
        && cond.right_not.as_ref().is_none_or(|c| !c.holds(right))
}

/// Kazakh only: a capital initial or name right after an initial attaches without space.
fn name_initial(token: &str, left: &str, lang: Option<&str>) -> bool {
    static INITIAL_OR_NAME: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^\p{Lu}\pM*(?:\.|\p{Ll}.*)$").unwrap());
    static ENDS_IN_INITIAL: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?:^|[^\pL\pM])\p{Lu}\.$").unwrap());
    lang == Some("kaz") && INITIAL_OR_NAME.is_match(token) && ENDS_IN_INITIAL.is_match(left)
}

/// utoken's `adjust_capitalization`: the contraction takes the case of the tokens it replaces
/// (`Can n't` → `Can't`, `CA N'T` → `CAN'T`).
fn adjust_capitalization(s: &str, orig: &str) -> String {
    static NON_LETTER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\P{L}").unwrap());
    static FIRST_LETTER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(\P{L}+)(\p{L}.*)").unwrap());
    if s == orig {
        return s.to_string();
    }
    let orig_letters = NON_LETTER.replace_all(orig, "");
    if NON_LETTER.replace_all(s, "") == orig_letters {
        return s.to_string();
    }
    let mut letters = orig_letters.chars();
    match (letters.next(), letters.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_uppercase() => s.to_uppercase(),
        (Some(a), _) if a.is_uppercase() => match FIRST_LETTER.captures(s) {
            Some(m) => format!("{}{}", &m[1], capitalize(&m[2])),
            None => capitalize(s),
        },
        _ => s.to_string(),
    }
}

/// Python's `str.capitalize`: the first character upper, the rest lower.
fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitalization_follows_the_replaced_tokens() {
        assert_eq!(adjust_capitalization("can't", "can n't"), "can't");
        assert_eq!(adjust_capitalization("can't", "Can n't"), "Can't");
        assert_eq!(adjust_capitalization("can't", "CAN N'T"), "CAN'T");
        assert_eq!(adjust_capitalization("'tis", "It is"), "'Tis");
    }

    #[test]
    fn xml_tags_with_spaces_are_one_token() {
        let (tokens, offsets) = split_tokens(r#"a <b c="d"> e"#);
        assert_eq!(tokens, ["a", r#"<b c="d">"#, "e"]);
        assert_eq!(offsets, [0, 2, 12]);
    }
}
