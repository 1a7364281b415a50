//! Building patterns: the pattern tree and the functions that read like the regexes they
//! transcribe (`seq`, `alt`, `star`, `token`, …).

use super::Assert;
use crate::engines::rules::chars::{Bits, Fold};

/// A set of characters: any of some class bits, or one of some listed characters (or the
/// complement of that). The listed ASCII characters are also kept as a bitmap.
#[derive(Clone, Copy, Debug)]
pub struct Cls {
    pub bits: Bits,
    pub chars: &'static str,
    pub negate: bool,
    ascii: u128,
}

impl Cls {
    pub fn new(bits: Bits, chars: &'static str, negate: bool) -> Cls {
        let ascii = chars
            .chars()
            .filter(char::is_ascii)
            .fold(0u128, |m, c| m | 1 << c as u32);
        Cls {
            bits,
            chars,
            negate,
            ascii,
        }
    }

    #[inline]
    pub(super) fn matches(&self, c: char, b: Bits) -> bool {
        let listed = if c.is_ascii() {
            self.ascii >> c as u32 & 1 == 1
        } else {
            self.chars.contains(c)
        };
        ((b & self.bits) != 0 || listed) != self.negate
    }
}

/// A pattern, built with the functions below and compiled with [`Prog::new`].
#[derive(Clone, Debug)]
pub enum Re {
    Cls(Cls),
    Char(char),
    /// One character, case-insensitively under the given folding.
    Ci(char, Fold),
    /// `[a-z]` under case-insensitive matching (an ASCII letter of either case, or a
    /// character that folds to one), or one of the extra characters.
    Az(Fold, &'static str),
    Seq(Vec<Re>),
    Alt(Vec<Re>),
    Rep {
        re: Box<Re>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Save(u8),
    Assert(AssertFn),
    /// Alternatives that are all literal strings, tried in order (long lists such as the
    /// top-level domains become one indexed instruction).
    Lits(Vec<String>, Option<Fold>),
}

/// An [`Assert`] that can be printed.
#[derive(Clone, Copy)]
pub struct AssertFn(pub Assert);

impl std::fmt::Debug for AssertFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("assert")
    }
}

/// Characters with any of the bits.
pub fn bits(b: Bits) -> Re {
    Re::Cls(Cls::new(b, "", false))
}

/// Characters with any of the bits or in the list.
pub fn class(b: Bits, chars: &'static str) -> Re {
    Re::Cls(Cls::new(b, chars, false))
}

/// One of the listed characters.
pub fn set(chars: &'static str) -> Re {
    class(0, chars)
}

/// Any character but those with the bits or in the list.
pub fn not(b: Bits, chars: &'static str) -> Re {
    Re::Cls(Cls::new(b, chars, true))
}

/// `.`: any character but a line feed.
pub fn any() -> Re {
    not(0, "\n")
}

/// A literal string.
pub fn lit(s: &str) -> Re {
    Re::Seq(s.chars().map(Re::Char).collect())
}

/// A literal string matched case-insensitively.
pub fn lit_ci(s: &str, fold: Fold) -> Re {
    Re::Seq(s.chars().map(|c| Re::Ci(c, fold)).collect())
}

/// `[a-z]` (plus `extra`) matched case-insensitively.
pub fn az(fold: Fold, extra: &'static str) -> Re {
    Re::Az(fold, extra)
}

pub fn seq(items: Vec<Re>) -> Re {
    Re::Seq(items)
}

pub fn alt(items: Vec<Re>) -> Re {
    Re::Alt(items)
}

pub fn rep(re: Re, min: u32, max: Option<u32>) -> Re {
    Re::Rep {
        re: Box::new(re),
        min,
        max,
        greedy: true,
    }
}

pub fn star(re: Re) -> Re {
    rep(re, 0, None)
}

pub fn plus(re: Re) -> Re {
    rep(re, 1, None)
}

pub fn opt(re: Re) -> Re {
    rep(re, 0, Some(1))
}

/// `re*?`.
pub fn star_lazy(re: Re) -> Re {
    Re::Rep {
        re: Box::new(re),
        min: 0,
        max: None,
        greedy: false,
    }
}

/// The token group: what the step splits off.
pub fn token(re: Re) -> Re {
    seq(vec![Re::Save(0), re, Re::Save(1)])
}

pub fn assert(f: Assert) -> Re {
    Re::Assert(AssertFn(f))
}

pub fn lits(list: Vec<String>, fold: Option<Fold>) -> Re {
    Re::Lits(list, fold)
}
