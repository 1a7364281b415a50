//! The operations normalizers are made of, each a [`NormalizedString::rewrite`] (or a strip)
//! so the alignment to the original stays right whatever they chain into.

use unicode_normalization::{IsNormalized, UnicodeNormalization};
use unicode_segmentation::UnicodeSegmentation;

use super::NormalizedString;

/// The Unicode normalization forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Form {
    /// Canonical composition.
    Nfc,
    /// Canonical decomposition.
    Nfd,
    /// Compatibility composition.
    Nfkc,
    /// Compatibility decomposition.
    Nfkd,
}

impl NormalizedString<'_> {
    /// Replaces each character by the characters `f` writes (none removes it); they all come
    /// from that character.
    pub fn map_chars(&mut self, mut f: impl FnMut(char, &mut String)) {
        self.rewrite(|rest, out| {
            let c = rest.chars().next().unwrap_or_default();
            f(c, out);
            c.len_utf8()
        });
    }

    /// Replaces each character by one character.
    pub fn map(&mut self, mut f: impl FnMut(char) -> char) {
        self.map_chars(|c, out| out.push(f(c)));
    }

    /// Keeps the characters `keep` accepts and removes the others.
    pub fn filter(&mut self, mut keep: impl FnMut(char) -> bool) {
        self.map_chars(|c, out| {
            if keep(c) {
                out.push(c);
            }
        });
    }

    /// Replaces every occurrence of `pattern`, left to right without overlap, by `with`.
    pub fn replace(&mut self, pattern: &str, with: &str) {
        if pattern.is_empty() || !self.normalized().contains(pattern) {
            return;
        }
        self.rewrite(|rest, out| {
            if rest.starts_with(pattern) {
                out.push_str(with);
                pattern.len()
            } else {
                // Up to the next occurrence, unchanged.
                let len = rest.find(pattern).unwrap_or(rest.len());
                out.push_str(&rest[..len]);
                len
            }
        });
    }

    /// Lowercases character by character (`char::to_lowercase`, so a final sigma is `σ`).
    pub fn lowercase(&mut self) {
        self.lowercase_where(|_| true);
    }

    /// Lowercases the characters `cased` accepts and keeps the others: a reference that
    /// lowercases with an older Unicode version leaves the letters cased since then alone.
    pub fn lowercase_where(&mut self, cased: impl Fn(char) -> bool) {
        let changes = |c: char| {
            let mut lower = c.to_lowercase();
            cased(c) && (lower.next() != Some(c) || lower.next().is_some())
        };
        if !self.normalized().chars().any(changes) {
            return;
        }
        self.map_chars(|c, out| match cased(c) {
            true => out.extend(c.to_lowercase()),
            false => out.push(c),
        });
    }

    /// Unicode normalization, grapheme by grapheme (canonical composition and reordering
    /// stay inside a grapheme), so a changed grapheme's characters share its range.
    pub fn unicode(&mut self, form: Form) {
        let text = self.normalized();
        let quick = match form {
            Form::Nfc => unicode_normalization::is_nfc_quick(text.chars()),
            Form::Nfd => unicode_normalization::is_nfd_quick(text.chars()),
            Form::Nfkc => unicode_normalization::is_nfkc_quick(text.chars()),
            Form::Nfkd => unicode_normalization::is_nfkd_quick(text.chars()),
        };
        if quick == IsNormalized::Yes {
            return;
        }
        self.rewrite(|rest, out| {
            let grapheme = rest.graphemes(true).next().unwrap_or(rest);
            match form {
                Form::Nfc => out.extend(grapheme.nfc()),
                Form::Nfd => out.extend(grapheme.nfd()),
                Form::Nfkc => out.extend(grapheme.nfkc()),
                Form::Nfkd => out.extend(grapheme.nfkd()),
            }
            grapheme.len()
        });
    }

    /// Canonical composition (NFC).
    pub fn nfc(&mut self) {
        self.unicode(Form::Nfc);
    }

    /// Canonical decomposition (NFD).
    pub fn nfd(&mut self) {
        self.unicode(Form::Nfd);
    }

    /// Compatibility composition (NFKC).
    pub fn nfkc(&mut self) {
        self.unicode(Form::Nfkc);
    }

    /// Compatibility decomposition (NFKD).
    pub fn nfkd(&mut self) {
        self.unicode(Form::Nfkd);
    }

    /// Each run of whitespace becomes one space, coming from the whole run.
    pub fn collapse_whitespace(&mut self) {
        self.rewrite(|rest, out| {
            let run = rest
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len());
            if run == 0 {
                let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
                out.push_str(&rest[..len]);
                return len;
            }
            out.push(' ');
            run
        });
    }

    /// Strips the leading characters `strip` accepts.
    pub fn trim_start_matches(&mut self, strip: impl FnMut(char) -> bool) {
        let text = self.normalized();
        let kept = text.trim_start_matches(strip).len();
        self.strip_start(text.len() - kept);
    }

    /// Strips the trailing characters `strip` accepts.
    pub fn trim_end_matches(&mut self, strip: impl FnMut(char) -> bool) {
        let text = self.normalized();
        let kept = text.trim_end_matches(strip).len();
        self.strip_end(text.len() - kept);
    }

    /// Strips leading whitespace.
    pub fn lstrip(&mut self) {
        self.trim_start_matches(char::is_whitespace);
    }

    /// Strips trailing whitespace.
    pub fn rstrip(&mut self) {
        self.trim_end_matches(char::is_whitespace);
    }

    /// Strips whitespace at both ends.
    pub fn strip(&mut self) {
        self.lstrip();
        self.rstrip();
    }
}
