//! The rule engine: utoken's resource files, run as utoken 0.1.8 runs them.
//!
//! `rules:DIR?lang=LC` loads a resource folder the way utoken's `--lc LC` does (the
//! language's `tok-resource-LC.txt`, `tok-resource-eng-global.txt`, `tok-resource.txt`,
//! `detok-resource.txt` for the `@` mark-up, `top-level-domain-codes.txt`); `rules:FILE` loads
//! one file. Lines are normalized (with offsets kept into the original text), then split by
//! utoken's 20 ordered steps with their recursive left/right split-off (`split/`). Every
//! token names the step that made it and, for dictionary steps, the rule file and line.
//!
//! Loading is strict by default: a line utoken would skip or misread (unknown slot, missing
//! `::target`, a regex that does not compile) fails the load with its file, line and column,
//! so a live-reloading view can keep the last good rules. `strict=false` loads like utoken,
//! skipping such lines with a warning.
//!
//! ```
//! // The shipped rule folder: the general resource file and the English one.
//! let rules = toklab::load("rules:../../rules?lang=eng").unwrap();
//! let text = "Dr. Smith's e-mail isn't bob@example.com.";
//! assert_eq!(
//!     rules.tokenize(text).forms(text),
//!     ["Dr.", "Smith", "'s", "e-mail", "is", "n't", "bob@example.com", "."]
//! );
//! ```

mod chars;
pub mod chart;
mod conditions;
mod context;
mod contraction;
mod detokenize;
mod diag;
mod dictionary_steps;
mod emit;
mod expand;
mod lang_files;
mod line;
mod lint;
mod markup;
mod matcher;
mod normalize;
mod origin;
mod pattern_steps;
mod resources;
mod split;
mod step_patterns;
mod trace;

use std::path::{Path, PathBuf};

pub use context::{Context, ContextKind};
pub use diag::{Diagnostic, Severity};
pub use line::FileRole;
pub use lint::check_files;
pub use origin::{ChartType, RuleOrigin, Step};
pub use trace::RuleTrace;

use crate::core::error::Result;
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::Tokenization;
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Observer, Trace};
use resources::Resources;
use split::{Rules, Run, Tok};

/// How to load a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// utoken's `--lc` (a code, or a list split on `;`, `,` or spaces).
    pub lang: Option<String>,
    /// No `@` mark-up (utoken's `--simple`).
    pub simple: bool,
    /// Fail on lines utoken would skip or misread, instead of warning.
    pub strict: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            lang: None,
            simple: false,
            strict: true,
        }
    }
}

/// A tokenizer running utoken's steps on loaded rule files.
pub struct RulesTokenizer {
    name: String,
    rules: Rules,
    /// utoken's detokenizer tables, read from the same files the first time they are needed.
    detok: std::sync::OnceLock<std::result::Result<detokenize::Detokenizer, Diagnostic>>,
}

impl RulesTokenizer {
    /// Loads a resource folder as utoken does for `options.lang`.
    pub fn load_dir(dir: &Path, options: &LoadOptions) -> Result<RulesTokenizer> {
        let langs = lang_codes(options.lang.as_deref());
        let mut res = Resources::new();
        if !dir.is_dir() {
            return Err(crate::Error::Format {
                path: dir.to_path_buf(),
                line: None,
                column: None,
                message: "not a folder of rule files (rules:DIR) nor a rule file (rules:FILE)"
                    .into(),
            });
        }
        if langs.is_empty() {
            res.diagnostics.extend(lang_files::no_lang_warning(dir));
        }
        for lang in &langs {
            let path = dir.join(format!("tok-resource-{lang}.txt"));
            if !path.is_file() {
                res.diagnostics.push(Diagnostic::error(
                    &path,
                    0,
                    0,
                    format!("no resource file for language `{lang}`"),
                ));
                continue;
            }
            res.load_file(&path, FileRole::Tok, &langs);
        }
        // The other files are optional; without one, what it provides is missing (and said so).
        let optional = |res: &mut Resources, name: &str, role: FileRole, missing: Option<&str>| {
            let path = dir.join(name);
            if path.is_file() {
                res.load_file(&path, role, &langs);
            } else if let Some(consequence) = missing {
                res.diagnostics.push(Diagnostic::warning(
                    &path,
                    0,
                    0,
                    format!("not found: {consequence}"),
                ));
            }
        };
        if !langs.iter().any(|l| l == "eng-global") {
            optional(&mut res, "tok-resource-eng-global.txt", FileRole::Tok, None);
        }
        optional(
            &mut res,
            "tok-resource.txt",
            FileRole::Tok,
            Some("no language-independent entries"),
        );
        optional(
            &mut res,
            "detok-resource.txt",
            FileRole::Detok,
            Some("no @ mark-up"),
        );
        optional(
            &mut res,
            "top-level-domain-codes.txt",
            FileRole::Tld,
            Some("bare domains are not recognized as URLs"),
        );
        Self::finish(dir, res, options)
    }

    /// Loads one tokenizer resource file on its own (no mark-up entries, no top-level
    /// domains).
    pub fn load_file(path: &Path, options: &LoadOptions) -> Result<RulesTokenizer> {
        let mut res = Resources::new();
        res.load_file(
            path,
            FileRole::of(path),
            &lang_codes(options.lang.as_deref()),
        );
        Self::finish(path, res, options)
    }

    /// Builds a tokenizer from rule text in memory (for tests and tools): `files` are
    /// (name, role, text).
    pub fn from_texts(
        files: &[(&str, FileRole, &str)],
        options: &LoadOptions,
    ) -> Result<RulesTokenizer> {
        let langs = lang_codes(options.lang.as_deref());
        let mut res = Resources::new();
        for (name, role, text) in files {
            let path = Path::new(name);
            match role {
                FileRole::Tok => res.load_tok_text(path, text),
                FileRole::Detok => res.load_detok_text(path, text, &langs),
                FileRole::Tld => res.load_tld_text(path, text),
            }
        }
        Self::finish(Path::new("memory"), res, options)
    }

    fn finish(source: &Path, mut res: Resources, options: &LoadOptions) -> Result<RulesTokenizer> {
        if options.strict {
            let errors: Vec<&Diagnostic> =
                res.diagnostics.iter().filter(|d| d.is_error()).collect();
            if let Some(first) = errors.first() {
                return Err(first.to_error(errors.len() - 1));
            }
        }
        lint::add_shadowing(&mut res);
        res.main.freeze();
        res.lexical.freeze();
        res.punct.freeze();
        let lang = options.lang.clone();
        let url2 = res.has_tlds.then(|| step_patterns::url2(&res.tlds));
        let phonetics = match &lang {
            Some(l) if res.phonetics.contains_key(l) => step_patterns::phonetics(
                &res.phonetics[l],
                res.pre_name_titles.get(l).map_or(&[][..], Vec::as_slice),
            ),
            _ => Vec::new(),
        };
        let mut name = format!("rules:{}", source.display());
        if let Some(l) = &lang {
            name.push_str(&format!("?lang={l}"));
        }
        Ok(RulesTokenizer {
            name,
            detok: std::sync::OnceLock::new(),
            rules: Rules {
                res,
                lang,
                url2,
                phonetics,
                simple: options.simple,
            },
        })
    }

    /// Everything the loader and the checks found (warnings, and errors skipped when not
    /// strict), for a diagnostics pane.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.rules.res.diagnostics
    }

    /// The loaded entries (for views that list them).
    pub fn entries(&self) -> &[resources::Entry] {
        &self.rules.res.entries
    }

    /// The recursion tree of every line: segments, the step that split each, tokens found.
    pub fn trace(&self, text: &str) -> RuleTrace {
        let mut lines = Vec::new();
        for (offset, line) in text_lines(text) {
            let mut events = Vec::new();
            let (sentence, _, _) = self.line_tokens(line, Some(&mut |e| events.push(e)));
            let mut entries: Vec<(u32, crate::core::token::SourceLoc)> = Vec::new();
            for event in &events {
                let ids: Vec<Option<u32>> = match &event.what {
                    split::EventKind::Split { tokens, .. } | split::EventKind::Main { tokens } => {
                        tokens.iter().map(|t| t.entry).collect()
                    }
                    split::EventKind::NearMiss { entry, .. } => vec![*entry],
                    split::EventKind::Guard { .. } => Vec::new(),
                };
                for id in ids.into_iter().flatten() {
                    if !entries.iter().any(|(i, _)| *i == id) {
                        entries.push((id, self.rules.res.entries[id as usize].loc.clone()));
                    }
                }
            }
            lines.push(trace::LineTrace {
                offset,
                orig: sentence.char_origins(),
                chars: sentence.chars,
                events,
                entries,
            });
        }
        RuleTrace { lines }
    }

    /// Tokenizes one line (no line breaks) into engine tokens, reporting the recursion's
    /// events to `observer` when one is given; the last part is the index of the first token
    /// the depth limit cut (see [`split::DEPTH_CUT`]).
    fn line_tokens<'t>(
        &self,
        line: &'t str,
        observer: Option<&mut dyn Observer<split::Event>>,
    ) -> (normalize::Sentence<'t>, Vec<Tok>, Option<usize>) {
        let (sentence, _) = normalize::normalize(line, false);
        // Reborrowed for the run's shorter lifetime (a `&mut dyn` is invariant otherwise).
        let observer = observer.map(|o| -> &mut dyn Observer<split::Event> { o });
        let (toks, depth_cut) = Run::new(&self.rules, &sentence, observer).run();
        (sentence, toks, depth_cut)
    }
}

/// utoken's split of `--lc` into codes.
fn lang_codes(lang: Option<&str>) -> Vec<String> {
    lang.map(|l| {
        line::split_codes(l)
            .into_iter()
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

/// The lines of a text as utoken reads them (`\n`, `\r\n` or `\r` end a line), with their
/// byte offsets.
fn text_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push((start, &text[start..i]));
                start = i + 1;
            }
            b'\r' => {
                out.push((start, &text[start..i]));
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < text.len() || out.is_empty() {
        out.push((start, &text[start..]));
    }
    out
}

impl Tokenizer for RulesTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let mut tokens = emit::Tokens::new(self);
        self.walk(text, &mut tokens);
        tokens.finish()
    }

    /// The tokens a part at a time, so a line cut by the depth limit is never held whole.
    fn tokenize_piece_in_parts(
        &self,
        piece: &str,
        _carry: &mut crate::core::pieces::Carry,
        part: &mut dyn FnMut(Tokenization),
    ) {
        let mut parts = emit::Parts::new(self, part);
        self.walk(piece, &mut parts);
        parts.finish();
    }

    /// A rules token has no id: one [`NO_ID`](crate::core::tokenizer::NO_ID) per token,
    /// without building the tokens.
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<crate::GaveUp> {
        let mut sink = emit::Ids { ids, gave_up: None };
        self.walk(text, &mut sink);
        sink.gave_up
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn warnings(&self) -> Vec<String> {
        let diags = &self.rules.res.diagnostics;
        let summarized = |d: &&Diagnostic| lint::is_redundancy(d);
        let mut out: Vec<String> = diags
            .iter()
            .filter(|d| !summarized(d))
            .map(|d| d.to_string())
            .collect();
        let redundant = diags.iter().filter(summarized).count();
        if redundant > 0 {
            out.push(format!(
                "{redundant} entr{} duplicate or can never fire (an earlier entry always wins); `toklab rules check` lists them",
                if redundant == 1 { "y is a" } else { "ies are" }
            ));
        }
        out
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.rules.res.files.clone()
    }

    /// utoken's detokenizer over the same files (`utoken.detokenize`): the tokens are joined
    /// with spaces into the line it would read.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        let lang = self.rules.lang.as_deref();
        let detok = self.detok.get_or_init(|| {
            detokenize::Detokenizer::load(&self.rules.res.files, &lang_codes(lang))
        });
        match detok {
            Ok(d) => Ok(d.line(&tokens.join(" "), lang, &|t| {
                self.rules.res.is_markup_token(t)
            })),
            Err(message) => Err(crate::Error::Unsupported {
                tokenizer: self.name.clone(),
                operation: format!("detokenize: {message}"),
            }),
        }
    }
}

/// Everything wrong with the rule files a `rules:` spec names (resolved against `base`), as a
/// diagnostics pane shows them after a failed reload: the files are loaded as utoken loads
/// them (skipping bad lines) and every finding is returned, errors and warnings, in load
/// order. An error only when the spec itself is wrong.
pub fn diagnose(spec: &str, base: &Path) -> Result<Vec<Diagnostic>> {
    let mut spec = Spec::parse_as(&KIND, spec, base)?;
    let (path, mut options) = options_of(&mut spec)?;
    options.strict = false;
    let tokenizer = if path.is_file() {
        RulesTokenizer::load_file(&path, &options)?
    } else {
        RulesTokenizer::load_dir(&path, &options)?
    };
    Ok(tokenizer.rules.res.diagnostics)
}

/// The path and options of a `rules:` spec.
fn options_of(spec: &mut Spec) -> Result<(PathBuf, LoadOptions)> {
    let lang = spec.take_option("lang").filter(|l| !l.is_empty());
    let simple = spec.take_flag("simple", false)?;
    let strict = spec.take_flag("strict", true)?;
    spec.finish(&["lang", "simple", "strict"])?;
    if spec.arg.is_empty() {
        return Err(spec.bad("rules: needs a folder or a file, as in rules:rules?lang=eng"));
    }
    Ok((
        spec.path(),
        LoadOptions {
            lang,
            simple,
            strict,
        },
    ))
}

/// `rules:DIR?lang=LC` or `rules:FILE`: utoken's rule files.
pub const KIND: Kind = Kind::new(
    "rules",
    "rules:DIR?lang=LC",
    "utoken's rule files run as utoken runs them (also rules:FILE; options simple=true, strict=false)",
    load,
)
.with_options();

/// Loads `rules:DIR?lang=LC&simple=true&strict=false` or `rules:FILE`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let (path, options) = options_of(&mut spec)?;
    let mut tokenizer = if path.is_file() {
        RulesTokenizer::load_file(&path, &options)?
    } else {
        RulesTokenizer::load_dir(&path, &options)?
    };
    tokenizer.name = spec.text.clone();
    Ok(Box::new(tokenizer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_like_utokens_input() {
        assert_eq!(
            text_lines("a\nb\r\nc\rd"),
            vec![(0, "a"), (2, "b"), (5, "c"), (7, "d")]
        );
        assert_eq!(text_lines(""), vec![(0, "")]);
        assert_eq!(text_lines("a\n"), vec![(0, "a")]);
    }
}
