//! Reading `detok-resource.txt` (the mark-up entries the tokenizer uses) and
//! `top-level-domain-codes.txt`.

use std::path::Path;

use super::{EntryLine, MarkupEntry, Resources};
use crate::engines::rules::diag::Diagnostic;
use crate::engines::rules::line::{self, FileRole, flag, slot_value, split_codes};

/// Whether a line is of a kind only the tokenizer uses: utoken's detokenizer reader passes
/// over them unchecked, in every file it reads.
pub(in crate::engines::rules) fn is_tokenizer_only(line: &str) -> bool {
    ["::repair", "::punct-split", "::abbrev", "::misspelling"]
        .iter()
        .any(|h| {
            line.starts_with(h)
                && line[h.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        })
}

impl Resources {
    /// Loads the detokenizer file's mark-up entries for the run's languages.
    pub fn load_detok_text(&mut self, path: &Path, text: &str, langs: &[String]) {
        self.read_entry_lines(
            path,
            text,
            FileRole::Detok,
            is_tokenizer_only,
            |res, line| {
                res.markup_entry(path, &line, langs);
            },
        );
    }

    /// The mark-up entry of one (expanded) line of the detokenizer file, if it makes one for
    /// the run's languages.
    fn markup_entry(&mut self, path: &Path, line: &EntryLine, langs: &[String]) {
        let text = line.text.as_str();
        let Some(rest) = text.strip_prefix("::markup-attach") else {
            return;
        };
        if !rest.chars().next().is_none_or(line::is_space) {
            return;
        }
        let line_langs: Vec<&str> = slot_value(text, "lcode")
            .filter(|v| !v.is_empty())
            .map(split_codes)
            .unwrap_or_default();
        if !langs.is_empty()
            && !line_langs.is_empty()
            && !line_langs.iter().any(|l| langs.iter().any(|d| d == l))
        {
            return;
        }
        let Some(s) = slot_value(text, "markup-attach") else {
            return;
        };
        let lc = s.to_lowercase();
        let group = flag(text, "group");
        let entry = MarkupEntry {
            s: s.to_string(),
            group,
            paired: flag(text, "paired-delimiter"),
            exceptions: slot_value(text, "except")
                .filter(|v| !v.is_empty())
                .map(|v| v.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
            cond: self.conditions_of(text, path, line.number, line.raw, line.expansion > 0),
        };
        self.markup.entry(lc.clone()).or_default().push(entry);
        if let Some(c) = lc.chars().next() {
            self.markup_first.insert(c);
        }
        if !self.markup_elements.contains(&(lc.clone(), group)) {
            self.markup_elements.push((lc, group));
        }
    }

    /// Loads the top-level domains.
    pub fn load_tld_text(&mut self, path: &Path, text: &str) {
        for (number, raw) in line::lines(text) {
            let cut = line::without_comment(raw);
            if cut.trim_matches(line::is_space).is_empty() || line::is_blank_or_comment(cut) {
                continue;
            }
            let problems = line::validate(cut, FileRole::Tld);
            if !problems.is_empty() {
                for p in problems {
                    self.diagnostics
                        .push(Diagnostic::error(path, number, p.column, p.message));
                }
                continue;
            }
            match slot_value(cut, "code").filter(|c| !c.is_empty()) {
                Some(code) => {
                    let code = code.to_lowercase();
                    match slot_value(cut, "reliability") {
                        Some("low") => self.tlds.low.push(code),
                        Some("high") => self.tlds.high.push(code),
                        _ => self.tlds.normal.push(code),
                    }
                }
                None => self.diagnostics.push(Diagnostic::error(
                    path,
                    number,
                    1,
                    "`::code` has no value",
                )),
            }
        }
        self.tlds.low.sort();
        self.tlds.normal.sort();
        self.tlds.high.sort();
        self.has_tlds = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn markup_entries_filtered_by_language() {
        let mut r = Resources::new();
        r.load_detok_text(
            Path::new("d.txt"),
            "::attach-tag @\n::markup-attach - ::group True\n::markup-attach -t- ::lcode fra\n::auto-attach . ::side left\n",
            &["eng".to_string()],
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        let keys: Vec<&str> = r.markup_elements.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["-", "–", "֊"]);
    }

    #[test]
    fn tlds_by_reliability() {
        let mut r = Resources::new();
        r.load_tld_text(
            Path::new("tld.txt"),
            "::code com ::reliability high\n::code UK ::country-name United Kingdom\n::code IN ::reliability low\n::code de\n",
        );
        assert_eq!(r.tlds.high, ["com"]);
        assert_eq!(r.tlds.normal, ["de", "uk"]);
        assert_eq!(Resources::tld_alternatives(&r.tlds.low), ["in", "IN"]);
    }
}
