//! The step patterns built from loaded data: bare-domain URLs (from the top-level domains)
//! and phonetic initials (from a language's `::token-category phonetics` entries).

use super::around::{url2_ahead, url2_behind};
use super::{lm, url_final, url_unit};
use crate::engines::rules::chars::{Fold, L, M, ND};
use crate::engines::rules::matcher::*;
use crate::engines::rules::resources::{Resources, Tlds};
/// utoken's bare-domain URL pattern, which depends on the loaded top-level domains:
///
/// ```text
/// (?<![\p{Latin}&&\p{Letter}]\.?|\@)
/// ((?:(?:www|WWW)(?:\.URL_LETTER)+\.(?:[a-z]{2,4}]|[A-Z]{2,4}])|
///    (?:URL_ELEM)+(?:HIGH)|
///    (?:URL_ELEM)*URL_ELEM3(?:URL_ELEM)*(?:NORMAL)|
///    (?:URL_ELEM)*(?:URL_ELEM5(?:URL_ELEM)*|URL_ELEM3 URL_ELEM23)(?:LOW))
///  (?:\/(?:UNIT*FINAL)?)?)
/// (?!\.?[\p{Latin}&&\p{Letter}])
/// ```
pub fn url2(tlds: &Tlds) -> Prog {
    let letter = || alt(vec![lm(), bits(ND), set("-_")]);
    let elem = || seq(vec![plus(letter()), Re::Char('.')]);
    let elem_n = |min: u32, max: Option<u32>| seq(vec![rep(letter(), min, max), Re::Char('.')]);
    let tier = |list: &[String]| {
        if list.is_empty() {
            // utoken's alternation of an empty list matches the empty string.
            seq(vec![])
        } else {
            lits(Resources::tld_alternatives(list), None)
        }
    };
    let ascii_lower = || class(0, "abcdefghijklmnopqrstuvwxyz");
    let ascii_upper = || class(0, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    Prog::new(&seq(vec![
        assert(url2_behind),
        token(seq(vec![
            alt(vec![
                seq(vec![
                    alt(vec![lit("www"), lit("WWW")]),
                    plus(seq(vec![Re::Char('.'), letter()])),
                    Re::Char('.'),
                    alt(vec![
                        seq(vec![rep(ascii_lower(), 2, Some(4)), Re::Char(']')]),
                        seq(vec![rep(ascii_upper(), 2, Some(4)), Re::Char(']')]),
                    ]),
                ]),
                seq(vec![plus(elem()), tier(&tlds.high)]),
                seq(vec![
                    star(elem()),
                    elem_n(3, None),
                    star(elem()),
                    tier(&tlds.normal),
                ]),
                seq(vec![
                    star(elem()),
                    alt(vec![
                        seq(vec![elem_n(5, None), star(elem())]),
                        seq(vec![elem_n(3, None), elem_n(2, Some(3))]),
                    ]),
                    tier(&tlds.low),
                ]),
            ]),
            opt(seq(vec![
                Re::Char('/'),
                opt(seq(vec![star(url_unit()), url_final()])),
            ])),
        ])),
        assert(url2_ahead),
    ]))
}

/// utoken's pattern for dotted phonetic initials of a language (`ey.bi.si.`), built from the
/// `::token-category phonetics` entries and the language's pre-name titles. The first group
/// of utoken's pattern is greedy (`(.*(?<!…)PRE)`), so the caller searches from the right.
pub fn phonetics(phonetics: &[String], titles: &[String]) -> Vec<Prog> {
    let without_period: Vec<String> = phonetics
        .iter()
        .map(|p| p.trim_end_matches('.').to_string())
        .collect();
    let alts_wop = || lits(without_period.clone(), Some(Fold::Regex));
    let alts = || seq(vec![alts_wop(), Re::Char('.')]);
    let pre = || {
        if titles.is_empty() {
            seq(vec![])
        } else {
            star(lits(titles.to_vec(), Some(Fold::Regex)))
        }
    };
    fn behind(s: &Seg, p: usize) -> bool {
        !(s.letter_marks_before(p) || (p > 0 && ".\u{200C}\u{200D}".contains(s.chars[p - 1])))
    }
    fn ahead(s: &Seg, p: usize) -> bool {
        !(s.is(p, L | M) || s.in_set(p, "."))
    }
    vec![
        Prog::new(&seq(vec![
            assert(behind),
            pre(),
            token(seq(vec![plus(alts()), alts_wop()])),
            assert(ahead),
        ])),
        Prog::new(&seq(vec![
            assert(behind),
            pre(),
            token(rep(alts(), 2, None)),
        ])),
    ]
}
