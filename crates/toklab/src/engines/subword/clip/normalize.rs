//! CLIP's text clean-up before BPE, as open_clip's `SimpleTokenizer.encode` does it:
//! `ftfy.fix_text`, `html.unescape` twice, strip, whitespace runs to one space, lowercase.
//!
//! ftfy is reproduced for what changes text that is already valid Unicode: HTML entities
//! (when the text has no `<`), terminal escapes, C1 controls read as Windows-1252, Latin
//! ligatures and digraphs, fullwidth and halfwidth forms, curly quotes, line breaks, control
//! characters, NFC. Its mojibake repair (`fix_encoding`: text that was decoded with the wrong
//! codec) is not: such text keeps its mojibake here. `html.unescape` knows numeric references
//! and the entities `amp lt gt quot apos nbsp` (the first four also without `;`, as HTML5's
//! legacy forms); other named entities stay as written.

use unicode_normalization::UnicodeNormalization;

use crate::core::normalized::NormalizedString;
use crate::core::pieces::breaks_between;
use crate::engines::subword::normalizing::{chars_around, nfkc_stable};

/// The whole clean-up, on a string that keeps its alignment to the original.
pub fn clean(text: &mut NormalizedString) {
    clean_up(text);
    text.lowercase();
}

/// The clean-up as Python before 3.14 does it: `str.lower` there knows Unicode 15.1 at most
/// (3.11 has 14.0; the three lowercase the same), so the letters given a lowercase since
/// (`CASED_SINCE_UNICODE_16`) stay as written.
pub fn clean_unicode_15(text: &mut NormalizedString) {
    clean_up(text);
    text.lowercase_where(|c| !CASED_SINCE_UNICODE_16(c));
}

/// Characters with a lowercase mapping in Unicode 16.0 or 17.0 and none in 15.1 (found by
/// comparing Python 3.13's `str.lower` with Rust's on every code point): Cyrillic, Latin
/// Extended-D, Garay and Beria Erfe capitals.
#[allow(non_snake_case)]
fn CASED_SINCE_UNICODE_16(c: char) -> bool {
    matches!(
        c,
        '\u{1C89}'
            | '\u{A7CB}'..='\u{A7CC}'
            | '\u{A7CE}'
            | '\u{A7D2}'
            | '\u{A7D4}'
            | '\u{A7DA}'
            | '\u{A7DC}'
            | '\u{10D50}'..='\u{10D65}'
            | '\u{16EA0}'..='\u{16EB8}'
    )
}

/// Whether the clean-up keeps a cut at byte `cut` of `text` (a
/// [`crate::engines::subword::normalizing::KeptFn`]): the three characters around it are ones
/// that no step rewrites or joins to a neighbour but for lowercasing to one character (ASCII
/// but controls, `&` and `;`, with which an HTML entity starts and may end; other stable
/// starters but white space, controls, what ftfy removes and the quotes it straightens), a
/// grapheme ends at the cut, and no HTML entity may end there (a run of ASCII letters, digits
/// and `#` after a `&`: `&lt` before `。` is `<`).
pub fn keeps(text: &str, cut: usize) -> bool {
    let Some([before, at, next]) = chars_around(text, cut) else {
        return false;
    };
    let stable = |c: char| match c.is_ascii() {
        true => c == ' ' || (c.is_ascii_graphic() && c != '&' && c != ';'),
        false => {
            nfkc_stable(c)
                && !c.is_control()
                && !c.is_whitespace()
                && !is_removed_control(c)
                && !matches!(c, '\u{2BC}' | '\u{2018}'..='\u{201F}')
                && c.to_lowercase().count() == 1
        }
    };
    let entity_ends = || {
        let name = text[..cut].trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '#');
        name.len() < cut && name.ends_with('&')
    };
    [before, at, next].into_iter().all(stable)
        && ((before.is_ascii() && at.is_ascii()) || breaks_between(before, at))
        && !entity_ends()
}

/// Whether a text may be cut at all (a
/// [`crate::engines::subword::normalizing::WholeFn`]): ftfy unescapes HTML only in a text
/// without `<`, so a text with both `<` and `&` may unescape otherwise than its parts would;
/// and a terminal escape is left whole.
pub fn cuttable(text: &str) -> bool {
    let unescapes_otherwise = text.contains('<') && text.contains('&');
    !unescapes_otherwise && !text.contains('\u{1b}')
}

/// Everything but the lowercasing.
fn clean_up(text: &mut NormalizedString) {
    fix_text(text);
    text.rewrite(|rest, out| unescape(rest, out, true));
    text.rewrite(|rest, out| unescape(rest, out, true));
    collapse_whitespace(text);
}

/// The subset of `ftfy.fix_text` described in the module comment.
fn fix_text(text: &mut NormalizedString) {
    if !text.normalized().contains('<') {
        text.rewrite(|rest, out| unescape(rest, out, false));
    }
    text.rewrite(|rest, out| match terminal_escape(rest) {
        Some(len) => len,
        None => copy_char(rest, out),
    });
    text.map_chars(|c, out| match c as u32 {
        0x80..=0x9F => out.push(cp1252(c as u8).unwrap_or(c)),
        _ => out.push(c),
    });
    text.map_chars(|c, out| out.push_str(ligature(c).unwrap_or(c.encode_utf8(&mut [0; 4]))));
    text.map_chars(|c, out| match c as u32 {
        0x3000 => out.push(' '),
        0xFF01..=0xFFEF => out.extend(std::iter::once(c).nfkc()),
        _ => out.push(c),
    });
    text.map(|c| match c {
        '\u{2BC}' | '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        c => c,
    });
    text.replace("\r\n", "\n");
    text.map(|c| match c {
        '\r' | '\u{2028}' | '\u{2029}' | '\u{85}' => '\n',
        c => c,
    });
    text.filter(|c| !is_removed_control(c));
    text.nfc();
}

/// Copies the first character of `rest`; its length.
fn copy_char(rest: &str, out: &mut String) -> usize {
    let c = rest
        .chars()
        .next()
        .expect("rewrite never passes an empty rest");
    out.push(c);
    c.len_utf8()
}

/// An ANSI terminal escape (`ESC [ digits-and-semicolons letter`) at the start: its length.
fn terminal_escape(rest: &str) -> Option<usize> {
    let body = rest.strip_prefix("\u{1b}[")?;
    let params = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    body.as_bytes()
        .get(params)
        .filter(|b| b.is_ascii_alphabetic())
        .map(|_| 2 + params + 1)
}

/// Windows-1252's character for a byte 0x80–0x9F (five bytes have none).
fn cp1252(byte: u8) -> Option<char> {
    const HIGH: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    match HIGH[(byte - 0x80) as usize] {
        0 => None,
        code => char::from_u32(code.into()),
    }
}

/// ftfy's Latin ligatures and digraphs, spelled out.
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        'Ĳ' => "IJ",
        'ĳ' => "ij",
        'ŉ' => "\u{2BC}n",
        'Ǆ' => "DŽ",
        'ǅ' => "Dž",
        'ǆ' => "dž",
        'Ǉ' => "LJ",
        'ǈ' => "Lj",
        'ǉ' => "lj",
        'Ǌ' => "NJ",
        'ǋ' => "Nj",
        'ǌ' => "nj",
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' => "ſt",
        'ﬆ' => "st",
        _ => return None,
    })
}

/// The control characters ftfy removes (tab, line feed, form feed and carriage return stay).
fn is_removed_control(c: char) -> bool {
    matches!(c as u32,
        0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F | 0x206A..=0x206F | 0xFEFF | 0xFFF9..=0xFFFC
        | 0x1D173..=0x1D17A | 0xE0000..=0xE007F)
}

/// One step of `html.unescape` (`any_name`: Python's, with the legacy names without `;`) or
/// of ftfy's (`;` required) at the start of `rest`.
fn unescape(rest: &str, out: &mut String, legacy: bool) -> usize {
    if let Some(body) = rest.strip_prefix('&') {
        if let Some((c, len)) = numeric(body) {
            out.push(c);
            return 1 + len;
        }
        for (name, value) in [
            ("amp", "&"),
            ("lt", "<"),
            ("gt", ">"),
            ("quot", "\""),
            ("apos", "'"),
            ("nbsp", "\u{a0}"),
        ] {
            if let Some(after) = body.strip_prefix(name) {
                if after.starts_with(';') {
                    out.push_str(value);
                    return 1 + name.len() + 1;
                }
                if legacy && matches!(name, "amp" | "lt" | "gt" | "quot") {
                    out.push_str(value);
                    return 1 + name.len();
                }
            }
        }
    }
    copy_char(rest, out)
}

/// `#NN;` or `#xHH;` (the `;` optional, as Python's): the character and the length read.
fn numeric(body: &str) -> Option<(char, usize)> {
    let digits = body.strip_prefix('#')?;
    let (radix, skip) = match digits.strip_prefix(['x', 'X']) {
        Some(_) => (16, 2),
        None => (10, 1),
    };
    let run = body[skip..]
        .chars()
        .take_while(|c| c.is_digit(radix))
        .count();
    if run == 0 {
        return None;
    }
    let code = u32::from_str_radix(&body[skip..skip + run], radix).ok()?;
    let c = match code {
        0 | 0xD800..=0xDFFF => '\u{FFFD}',
        0x80..=0x9F => cp1252(code as u8).unwrap_or(char::from_u32(code)?),
        _ => char::from_u32(code).unwrap_or('\u{FFFD}'),
    };
    let semicolon = usize::from(body[skip + run..].starts_with(';'));
    Some((c, skip + run + semicolon))
}

/// Python's `" ".join(text.strip().split())`: runs of whitespace (Python's, which includes
/// U+001C–U+001F) become one space, none at the ends.
fn collapse_whitespace(text: &mut NormalizedString) {
    let space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    text.rewrite(|rest, out| {
        let run: usize = rest
            .chars()
            .take_while(|c| space(*c))
            .map(char::len_utf8)
            .sum();
        match run {
            0 => copy_char(rest, out),
            n => {
                out.push(' ');
                n
            }
        }
    });
    let lead = usize::from(text.normalized().starts_with(' '));
    text.strip_start(lead);
    let trail = usize::from(text.normalized().ends_with(' '));
    text.strip_end(trail);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaned(text: &str) -> String {
        let mut n = NormalizedString::new(text);
        clean(&mut n);
        n.normalized().to_string()
    }

    #[test]
    fn what_ftfy_and_clip_change() {
        assert_eq!(cleaned("  A\u{3000}B\t\tC  "), "a b c");
        assert_eq!(cleaned("vertical\u{b}tab"), "verticaltab");
        assert_eq!(cleaned("\u{FB03}x \u{2019}s \u{1C5}"), "ffix 's dž");
        assert_eq!(cleaned("\u{FF21}\u{FF71}"), "aア");
        assert_eq!(cleaned("&amp;amp;lt; &#65;&#x42;"), "< ab");
        assert_eq!(cleaned("\u{feff}x\u{149}"), "x'n");
        assert_eq!(cleaned(" \u{1c} "), "");
    }

    #[test]
    fn keeps_cuts_between_stable_characters_where_no_entity_ends() {
        let kept = |s: &str, cut: usize| keeps(s, cut);
        assert!(kept("ab cd", 2) && kept("港は、カ", 6) && kept("x&amp; yz", 7));
        // `&` and `;` may start or end an entity, and one may end at a letter; ftfy rewrites
        // full-width forms and curly quotes; a combining mark joins the letter before.
        for (text, cut) in [
            ("&lt。x", 3),
            ("&#xAB。x", 5),
            ("a&b", 1),
            ("a;b", 1),
            ("はＡ、", 3),
            ("は“x", 3),
            ("e\u{301}.", 1),
            ("\u{130}、x", 2),
        ] {
            assert!(!kept(text, cut), "{text:?} at {cut}");
        }
        assert!(
            cuttable("a < b") && cuttable("AT&T") && !cuttable("&lt; <") && !cuttable("\u{1b}[0m")
        );
    }

    #[test]
    fn unicode_15_keeps_letters_cased_since() {
        let lowered = |text: &str, clean: fn(&mut NormalizedString)| {
            let mut n = NormalizedString::new(text);
            clean(&mut n);
            n.normalized().to_string()
        };
        // Garay capital A (Unicode 16) and a Latin capital that was cased long before.
        assert_eq!(lowered("\u{10D50}Q", clean), "\u{10D70}q");
        assert_eq!(lowered("\u{10D50}Q", clean_unicode_15), "\u{10D50}q");
        assert!(CASED_SINCE_UNICODE_16('\u{A7CB}') && !CASED_SINCE_UNICODE_16('Q'));
    }
}
