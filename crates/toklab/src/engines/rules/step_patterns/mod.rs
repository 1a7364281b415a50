//! utoken's step patterns, transcribed into the matcher of [`super::matcher`]: each keeps the
//! alternatives, repetitions and look-arounds of the Python regex it comes from (quoted above
//! it), so that it finds the same token.

use std::sync::LazyLock;

use super::chars::{self, Fold, L, LU, M, ND};
use super::matcher::*;

mod around;
mod loaded;

use around::*;
pub use around::{after_ascii_letter, hashtag_start};
pub use loaded::{phonetics, url2};

/// `\pL\pM*`: a letter and its marks.
pub(super) fn lm() -> Re {
    seq(vec![bits(L), star(bits(M))])
}

/// A letter, a letter with marks, or a digit.
pub(super) fn lm_or_digit() -> Re {
    alt(vec![lm(), bits(ND)])
}

pub(super) const URL_PUNCT: &str = "-_,./:;=?@'`~#%&*+";

/// One unit of a URL tail: `\p{L}\p{M}*|\d|[-_,./:;=?@'`~#%&*+]|\((?:…)\)`.
pub(super) fn url_unit() -> Re {
    let inner = alt(vec![lm(), bits(ND), set(URL_PUNCT)]);
    alt(vec![
        lm(),
        bits(ND),
        set(URL_PUNCT),
        seq(vec![Re::Char('('), inner, Re::Char(')')]),
    ])
}

pub(super) fn url_final() -> Re {
    alt(vec![lm(), bits(ND), set("/")])
}

// ---- the fixed patterns -------------------------------------------------------------------

/// The patterns that do not depend on the loaded files.
pub struct Fixed {
    pub xml: Prog,
    pub bbcode: Prog,
    pub url1: Prog,
    pub email: Prog,
    pub filename: Prog,
    pub abs_filename: Prog,
    pub hashtag: Prog,
    pub acronym_product: Prog,
    pub initial_right: Prog,
    pub abbrev_periods: Prog,
    pub greek_contraction: Prog,
    pub eng_contraction: Prog,
    pub ethiopic: Prog,
    pub number: Prog,
    pub number2: Prog,
    pub integer: Prog,
    pub dash_letters_dash: Prog,
    pub multi_dash_name: Prog,
    pub mt_punct: Prog,
    pub integer2: Prog,
}

pub static FIXED: LazyLock<Fixed> = LazyLock::new(|| {
    let re_space = || bits(chars::PY_SPACE);
    let name_char = || az(Fold::Re, "0123456789-_:");
    let sign = || opt(set("-−–+"));
    let dashes = || set("-−–");
    Fixed {
        // </?[a-z][-_:a-z0-9]*(?:\s+[a-z][-_:a-z0-9]*=(?:"[^"]*"|'[^']*'))*\s*/?>
        //   | <\$[-_a-z0-9]+\$> | <!--.*?-->        (re, IGNORECASE)
        xml: Prog::new(&token(alt(vec![
            seq(vec![
                Re::Char('<'),
                opt(Re::Char('/')),
                az(Fold::Re, ""),
                star(name_char()),
                star(seq(vec![
                    plus(re_space()),
                    az(Fold::Re, ""),
                    star(name_char()),
                    Re::Char('='),
                    alt(vec![
                        seq(vec![Re::Char('"'), star(not(0, "\"")), Re::Char('"')]),
                        seq(vec![Re::Char('\''), star(not(0, "'")), Re::Char('\'')]),
                    ]),
                ])),
                star(re_space()),
                opt(Re::Char('/')),
                Re::Char('>'),
            ]),
            seq(vec![
                lit("<$"),
                plus(az(Fold::Re, "0123456789-_")),
                lit("$>"),
            ]),
            seq(vec![lit("<!--"), star_lazy(any()), lit("-->")]),
        ]))),
        // \[(?:QUOTE|URL|COLOR|SIZE)=[^\t\n\[\]]+]|\[/?(?:QUOTE|IMG|INDENT|URL|B|I|COLOR|CENTER|SIZE)]
        bbcode: Prog::new(&token(alt(vec![
            seq(vec![
                Re::Char('['),
                alt(["quote", "url", "color", "size"]
                    .iter()
                    .map(|w| lit_ci(w, Fold::Re))
                    .collect()),
                Re::Char('='),
                plus(not(0, "\t\n[]")),
                Re::Char(']'),
            ]),
            seq(vec![
                Re::Char('['),
                opt(Re::Char('/')),
                alt([
                    "quote", "img", "indent", "url", "b", "i", "color", "center", "size",
                ]
                .iter()
                .map(|w| lit_ci(w, Fold::Re))
                .collect()),
                Re::Char(']'),
            ]),
        ]))),
        // (?:https?|ftps?)://(…unit…)+(?:\p{L}\p{M}*|\d|[/])      (regex, IGNORECASE)
        url1: Prog::new(&token(seq(vec![
            alt(vec![
                seq(vec![
                    lit_ci("http", Fold::Regex),
                    opt(Re::Ci('s', Fold::Regex)),
                ]),
                seq(vec![
                    lit_ci("ftp", Fold::Regex),
                    opt(Re::Ci('s', Fold::Regex)),
                ]),
            ]),
            lit("://"),
            plus(url_unit()),
            url_final(),
        ]))),
        // (?<!\pL\pM*|\d|[.])(\pL\pM*(?:\pL\pM*|\d|[-_.])*(?:\pL\pM*|\d)@(?:\pL\pM*|\d)
        //   (?:\pL\pM*|\d|[-_.])*(?:\pL\pM*|\d)\.[a-z]{2,})(?!\pL|\pM|\d|[.])   (IGNORECASE)
        email: Prog::new(&seq(vec![
            assert(not_after_word_or_period),
            token(seq(vec![
                lm(),
                star(alt(vec![lm(), bits(ND), set("-_.")])),
                lm_or_digit(),
                Re::Char('@'),
                lm_or_digit(),
                star(alt(vec![lm(), bits(ND), set("-_.")])),
                lm_or_digit(),
                Re::Char('.'),
                rep(az(Fold::Regex, ""), 2, None),
            ])),
            assert(not_before_word_or_period),
        ])),
        // (?<!\pL\pM*|\d|[-_.@])((?:\pL\pM*|\d|[/])(?:(?:\pL\pM*|\d|[-_./])*(?:\pL\pM*|\d))?
        //   \.(?:app|aspx?|…|zip))(?!\pL|\d)      (IGNORECASE)
        filename: Prog::new(&seq(vec![
            assert(not_after_file_char),
            token(seq(vec![
                alt(vec![lm(), bits(ND), set("/")]),
                opt(seq(vec![
                    star(alt(vec![lm(), bits(ND), set("-_./")])),
                    lm_or_digit(),
                ])),
                Re::Char('.'),
                lits(
                    FILE_SUFFIXES.iter().map(|s| s.to_string()).collect(),
                    Some(Fold::Regex),
                ),
            ])),
            assert(not_before_letter_or_digit),
        ])),
        // (?<!…)(\/(?:bin|etc|home\d*|opt|root/sbin|tmp|usr|var|wp-content)\/
        //   (?:(?:\pL\pM*|\d|[-_./])*(?:\pL\pM*|\d))?)(?!\pL|\d)
        abs_filename: Prog::new(&seq(vec![
            assert(not_after_file_char),
            token(seq(vec![
                Re::Char('/'),
                alt(vec![
                    lit_ci("bin", Fold::Regex),
                    lit_ci("etc", Fold::Regex),
                    seq(vec![lit_ci("home", Fold::Regex), star(bits(ND))]),
                    lit_ci("opt", Fold::Regex),
                    lit_ci("root/sbin", Fold::Regex),
                    lit_ci("tmp", Fold::Regex),
                    lit_ci("usr", Fold::Regex),
                    lit_ci("var", Fold::Regex),
                    lit_ci("wp-content", Fold::Regex),
                ]),
                Re::Char('/'),
                opt(seq(vec![
                    star(alt(vec![lm(), bits(ND), set("-_./")])),
                    lm_or_digit(),
                ])),
            ])),
            assert(not_before_letter_or_digit),
        ])),
        // ([#@](?:\pL\pM*|\d|[_\u200C])+)(?![.]?(?:\pL|\d))
        hashtag: Prog::new(&seq(vec![
            token(seq(vec![
                set("#@"),
                plus(alt(vec![lm(), bits(ND), set("_\u{200C}")])),
            ])),
            assert(hashtag_ahead),
        ])),
        // (?<!\pL\pM*|\d|[-−–]+)(\p{Lu}+[-−–](?:\d|\p{Lu}\pM*){1,3}(?:s)?)(?!\pL|\d|[-−–])
        acronym_product: Prog::new(&seq(vec![
            assert(not_after_word_or_dash),
            token(seq(vec![
                plus(bits(LU)),
                dashes(),
                rep(
                    alt(vec![bits(ND), seq(vec![bits(LU), star(bits(M))])]),
                    1,
                    Some(3),
                ),
                opt(Re::Char('s')),
            ])),
            assert(not_before_word_or_dash),
        ])),
        // \s?(?:\s?\p{Lu}\.)*\s?(?:\p{Lu}\p{Ll}{2}|(?:Mc|O'|O’)\p{Lu})  (the whole match
        // is the token group: its start is what the search reports)
        initial_right: Prog::new(&token(seq(vec![
            opt(bits(chars::SPACE)),
            star(seq(vec![opt(bits(chars::SPACE)), bits(LU), Re::Char('.')])),
            opt(bits(chars::SPACE)),
            alt(vec![
                seq(vec![bits(LU), rep(bits(chars::LL), 2, Some(2))]),
                seq(vec![alt(vec![lit("Mc"), lit("O'"), lit("O’")]), bits(LU)]),
            ]),
        ]))),
        // (?<!\pL\pM*|\d|[-−–.]+)((?:(?:\pL\pM*){1,2}\.){2,})(?!\pL|\d|[.])
        abbrev_periods: Prog::new(&seq(vec![
            assert(not_after_word_dash_period),
            token(rep(
                seq(vec![rep(lm(), 1, Some(2)), Re::Char('.')]),
                2,
                None,
            )),
            assert(not_before_word_or_dot),
        ])),
        // (?<!\pL|['‘’`‛])([\p{Greek}&&\p{Letter}]+[’'])
        greek_contraction: Prog::new(&seq(vec![
            assert(greek_behind),
            token(seq(vec![plus(bits(chars::GREEK_LETTER)), set("’'")])),
        ])),
        // (.*?[a-z])([\'’](?:d|em|ll|m|re|s|ve))\b      (re, IGNORECASE)
        eng_contraction: Prog::new(&seq(vec![
            token(seq(vec![
                set("'’"),
                alt(["d", "em", "ll", "m", "re", "s", "ve"]
                    .iter()
                    .map(|w| lit_ci(w, Fold::Re))
                    .collect()),
            ])),
            assert(re_word_end),
        ])),
        ethiopic: Prog::new(&token(plus(bits(chars::ETHIOPIC_NUMBER)))),
        // [-−–+]?(?:\d{1,3}(?:[,،]\d\d\d)+(?:\.\d+)?|\d{1,2}(?:,\d\d)*,\d\d\d(?:\.\d+)?|\d+\.\d+)
        number: Prog::new(&seq(vec![
            assert(number_behind),
            token(seq(vec![
                sign(),
                alt(vec![
                    seq(vec![
                        rep(bits(ND), 1, Some(3)),
                        plus(seq(vec![set(",،"), bits(ND), bits(ND), bits(ND)])),
                        opt(seq(vec![Re::Char('.'), plus(bits(ND))])),
                    ]),
                    seq(vec![
                        rep(bits(ND), 1, Some(2)),
                        star(seq(vec![Re::Char(','), bits(ND), bits(ND)])),
                        Re::Char(','),
                        bits(ND),
                        bits(ND),
                        bits(ND),
                        opt(seq(vec![Re::Char('.'), plus(bits(ND))])),
                    ]),
                    seq(vec![plus(bits(ND)), Re::Char('.'), plus(bits(ND))]),
                ]),
            ])),
            assert(number_ahead),
        ])),
        // The same with `.` and `,` exchanged (not for asm ben hin kan mal tam tel).
        number2: Prog::new(&seq(vec![
            assert(number2_behind),
            token(seq(vec![
                sign(),
                alt(vec![
                    seq(vec![
                        rep(bits(ND), 1, Some(3)),
                        plus(seq(vec![Re::Char('.'), bits(ND), bits(ND), bits(ND)])),
                        opt(seq(vec![Re::Char(','), plus(bits(ND))])),
                    ]),
                    seq(vec![
                        rep(bits(ND), 1, Some(2)),
                        star(seq(vec![Re::Char('.'), bits(ND), bits(ND)])),
                        Re::Char('.'),
                        bits(ND),
                        bits(ND),
                        bits(ND),
                        opt(seq(vec![Re::Char(','), plus(bits(ND))])),
                    ]),
                    seq(vec![plus(bits(ND)), Re::Char(','), plus(bits(ND))]),
                ]),
            ])),
            assert(number_ahead),
        ])),
        // (?<![-−–+]|\PL\.|\d[,.%\']?|\pL\pM*)([-−–+]?\d+)(?![-−–.,]?\d)
        integer: Prog::new(&seq(vec![
            assert(integer_behind),
            token(seq(vec![sign(), plus(bits(ND))])),
            assert(integer_ahead),
        ])),
        // .*[-−–](?:\pL\pM*)+[-−–]
        dash_letters_dash: Prog::new(&seq(vec![dashes(), plus(lm()), dashes()])),
        multi_dash_name: Prog::new(&seq(vec![
            assert(name_behind),
            token(seq(vec![
                cap_ws(),
                plus(seq(vec![dashes(), bridge(), dashes(), cap_ws()])),
            ])),
            assert(name_ahead),
        ])),
        // (.*?(?:\pL\pM*\pL\pM*|\d|[!?’]))([-−–]+)(\pL\pM*\pL\pM*|\d)
        mt_punct: Prog::new(&seq(vec![
            alt(vec![seq(vec![lm(), lm()]), bits(ND), set("!?’")]),
            token(plus(dashes())),
            alt(vec![seq(vec![lm(), lm()]), bits(ND)]),
        ])),
        // (?<!\pL\pM*|\d|[-−–+.])(\d+)((?:\pL|[/]).*)
        integer2: Prog::new(&seq(vec![
            assert(integer2_behind),
            token(plus(bits(ND))),
            alt(vec![bits(L), Re::Char('/')]),
        ])),
    }
});

/// `\p{Lu}\pM*(?:\p{Ll}\pM*)+(?:[-−–]…)*`: capitalized words joined by dashes.
fn cap_ws() -> Re {
    let cap_w = || {
        seq(vec![
            bits(LU),
            star(bits(M)),
            plus(seq(vec![bits(chars::LL), star(bits(M))])),
        ])
    };
    seq(vec![cap_w(), star(seq(vec![set("-−–"), cap_w()]))])
}

/// `(?:de|du|e|en|et|i|la|le|upon|sur)`
fn bridge() -> Re {
    alt(
        ["de", "du", "e", "en", "et", "i", "la", "le", "upon", "sur"]
            .iter()
            .map(|w| lit(w))
            .collect(),
    )
}

/// utoken's file suffixes, with each optional last letter expanded (greedy: longer first).
const FILE_SUFFIXES: &[&str] = &[
    "app", "aspx", "asp", "bmp", "cgi", "csv", "dat", "docx", "doc", "eps", "exe", "gif", "html",
    "htm", "jpeg", "jpg", "mov", "mp3", "mp4", "pdf", "php", "png", "pptx", "ppt", "ps", "rtf",
    "tiff", "tsv", "tok", "txt", "xlsx", "xls", "xml", "zip",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn find(prog: &Prog, text: &str) -> Option<String> {
        let chars: Vec<char> = text.chars().collect();
        let bits: chars::LineClasses = chars.iter().copied().collect();
        let seg = Seg {
            chars: &chars,
            bits: bits.view(),
        };
        prog.find(&seg, 0, |_, _| true, &mut Scratch::default())
            .map(|(s, e)| chars[s..e].iter().collect())
    }

    #[test]
    fn numbers_as_utoken_finds_them() {
        let f = &*FIXED;
        assert_eq!(
            find(&f.number, "cost 12,345,678.90 now").as_deref(),
            Some("12,345,678.90")
        );
        assert_eq!(find(&f.number, "v1.2.3"), None);
        assert_eq!(find(&f.number, "at -20.5°C").as_deref(), Some("-20.5"));
        assert_eq!(find(&f.integer, "in 1999, then").as_deref(), Some("1999"));
        assert_eq!(find(&f.integer, "abc123"), None);
        assert_eq!(
            find(&f.number2, "12.345,67 €").as_deref(),
            Some("12.345,67")
        );
    }

    #[test]
    fn urls_emails_files() {
        let f = &*FIXED;
        assert_eq!(
            find(&f.url1, "see https://x.org/a_b?c=d. Ok").as_deref(),
            Some("https://x.org/a_b?c=d")
        );
        assert_eq!(
            find(&f.email, "mail a.b@cd.org!").as_deref(),
            Some("a.b@cd.org")
        );
        assert_eq!(find(&f.email, "a@b.com"), None, "both parts need two units");
        assert_eq!(
            find(&f.filename, "open report.PDF now").as_deref(),
            Some("report.PDF")
        );
        let tlds = crate::engines::rules::resources::Tlds {
            low: vec!["in".into()],
            normal: vec!["uk".into()],
            high: vec!["co".into(), "com".into()],
        };
        let url2 = url2(&tlds);
        assert_eq!(
            find(&url2, "at google.com/maps, ok").as_deref(),
            Some("google.com/maps")
        );
        assert_eq!(find(&url2, "at bbc.co.uk").as_deref(), Some("bbc.co.uk"));
        assert_eq!(find(&url2, "so it.in"), None);
    }

    #[test]
    fn names_tags_contractions() {
        let f = &*FIXED;
        assert_eq!(
            find(&f.multi_dash_name, "in Stratford-upon-Avon today").as_deref(),
            Some("Stratford-upon-Avon")
        );
        assert_eq!(find(&f.multi_dash_name, "in Stratford-upon-Avon."), None);
        assert_eq!(
            find(&f.xml, "a <b class=\"x\">c").as_deref(),
            Some("<b class=\"x\">")
        );
        assert_eq!(find(&f.xml, "<!-- c --> x").as_deref(), Some("<!-- c -->"));
        assert_eq!(
            find(&f.bbcode, "[URL=http://x]").as_deref(),
            Some("[URL=http://x]")
        );
        assert_eq!(find(&f.hashtag, "#a_b.c").as_deref(), Some("#a"));
        assert_eq!(
            find(&f.acronym_product, "an F-15B jet").as_deref(),
            Some("F-15B")
        );
        assert_eq!(
            find(&f.abbrev_periods, "the B.A.T. run").as_deref(),
            Some("B.A.T.")
        );
    }
}
