//! A small backtracking matcher for utoken's built-in step patterns.
//!
//! utoken's steps are Python regexes of the shape `(.*?)(?<!…)(TOKEN)(?!…)(.*)$`: the leftmost
//! place where TOKEN matches, with the alternative and the length a backtracking engine
//! prefers. To split text exactly where utoken does, the token must be found with the same
//! preferences, which a linear-time automaton does not give. This matcher has those
//! preferences (alternatives in order, greedy or lazy repetition) but remembers every
//! (instruction, position) it has already tried, as RE2's "bit state" engine does, so a
//! search costs at most instructions × text length: no pattern and no input can make it hang.
//! Look-arounds of the step patterns are small fixed conditions, written as [`Assert`]
//! functions beside each pattern.

use super::chars::{self, Bits, Classes, Fold};

mod build;

pub use build::*;

/// A zero-width condition at a position of the segment (a look-behind or look-ahead).
pub type Assert = fn(&Seg, usize) -> bool;

/// The text a pattern runs on: one segment of the sentence (patterns cannot see past its
/// ends, as utoken's regexes run on the substring), with the class bits of each character.
#[derive(Clone, Copy)]
pub struct Seg<'a> {
    pub chars: &'a [char],
    pub bits: Classes<'a>,
}

impl<'a> Seg<'a> {
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether the character at `i` exists and has one of `mask`'s bits.
    #[inline]
    pub fn is(&self, i: usize, mask: Bits) -> bool {
        i < self.bits.len() && self.bits.at(i) & mask != 0
    }

    /// Whether the character at `i` exists and is one of `set`.
    #[inline]
    pub fn in_set(&self, i: usize, set: &str) -> bool {
        i < self.chars.len() && set.contains(self.chars[i])
    }

    /// Whether the text before `end` ends with a letter and its marks (`\pL\pM*$`).
    pub fn letter_marks_before(&self, end: usize) -> bool {
        let mut i = end;
        while i > 0 && self.is(i - 1, chars::M) {
            i -= 1;
        }
        i > 0 && self.is(i - 1, chars::L)
    }
}

#[derive(Clone, Copy, Debug)]
enum Inst {
    Cls(Cls),
    Char(char),
    Ci(char, Fold),
    Az(Fold, &'static str),
    Split(u32, u32),
    Jmp(u32),
    Save(u8),
    Assert(AssertFn),
    Lits(u32),
    Match,
}

/// Literal alternatives indexed by their (folded) first character.
#[derive(Debug)]
struct LitTable {
    fold: Option<Fold>,
    lits: Vec<Vec<char>>,
    by_first: std::collections::HashMap<char, Vec<u32>>,
}

impl LitTable {
    fn key(&self, c: char) -> char {
        match self.fold {
            Some(fold) => fold.ascii(c).unwrap_or_else(|| chars::lower(c)),
            None => c,
        }
    }

    fn matches_at(&self, seg: &Seg, pos: usize, lit: &[char]) -> bool {
        if pos + lit.len() > seg.len() {
            return false;
        }
        lit.iter()
            .zip(&seg.chars[pos..])
            .all(|(&p, &c)| match self.fold {
                Some(fold) => fold.eq(p, c),
                None => p == c,
            })
    }
}

/// A compiled pattern.
#[derive(Debug)]
pub struct Prog {
    insts: Vec<Inst>,
    lits: Vec<LitTable>,
}

impl Prog {
    /// Compiles a pattern; it matches when it reaches its end (the rest of utoken's regex,
    /// `(.*)$`, matches any remainder of a line).
    pub fn new(re: &Re) -> Prog {
        let mut prog = Prog {
            insts: Vec::new(),
            lits: Vec::new(),
        };
        prog.emit(re);
        prog.insts.push(Inst::Match);
        prog
    }

    fn emit(&mut self, re: &Re) {
        match re {
            Re::Cls(c) => self.insts.push(Inst::Cls(*c)),
            Re::Char(c) => self.insts.push(Inst::Char(*c)),
            Re::Ci(c, f) => self.insts.push(Inst::Ci(*c, *f)),
            Re::Az(f, extra) => self.insts.push(Inst::Az(*f, extra)),
            Re::Seq(items) => items.iter().for_each(|r| self.emit(r)),
            Re::Alt(items) => {
                let mut jumps = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if i + 1 < items.len() {
                        let split = self.insts.len();
                        self.insts.push(Inst::Split(0, 0));
                        self.emit(item);
                        jumps.push(self.insts.len());
                        self.insts.push(Inst::Jmp(0));
                        let next = self.insts.len() as u32;
                        self.insts[split] = Inst::Split(split as u32 + 1, next);
                    } else {
                        self.emit(item);
                    }
                }
                let end = self.insts.len() as u32;
                for j in jumps {
                    self.insts[j] = Inst::Jmp(end);
                }
            }
            Re::Rep {
                re,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.emit(re);
                }
                match max {
                    None => {
                        let split = self.insts.len();
                        self.insts.push(Inst::Split(0, 0));
                        self.emit(re);
                        self.insts.push(Inst::Jmp(split as u32));
                        let out = self.insts.len() as u32;
                        let body = split as u32 + 1;
                        self.insts[split] = if *greedy {
                            Inst::Split(body, out)
                        } else {
                            Inst::Split(out, body)
                        };
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.insts.len());
                            self.insts.push(Inst::Split(0, 0));
                            self.emit(re);
                        }
                        let out = self.insts.len() as u32;
                        for s in splits {
                            let body = s as u32 + 1;
                            self.insts[s] = if *greedy {
                                Inst::Split(body, out)
                            } else {
                                Inst::Split(out, body)
                            };
                        }
                    }
                }
            }
            Re::Save(slot) => self.insts.push(Inst::Save(*slot)),
            Re::Assert(f) => self.insts.push(Inst::Assert(*f)),
            Re::Lits(list, fold) => {
                let mut table = LitTable {
                    fold: *fold,
                    lits: list.iter().map(|s| s.chars().collect()).collect(),
                    by_first: Default::default(),
                };
                for (i, lit) in table.lits.iter().enumerate() {
                    if let Some(&first) = lit.first() {
                        let key = table.key(first);
                        table.by_first.entry(key).or_default().push(i as u32);
                    }
                }
                self.insts.push(Inst::Lits(self.lits.len() as u32));
                self.lits.push(table);
            }
        }
    }

    /// The leftmost match at a start position from `from` on for which `start_ok` holds:
    /// the token group's span (slots 0 and 1), as utoken's `(.*?)` prefix finds it.
    pub fn find(
        &self,
        seg: &Seg,
        from: usize,
        start_ok: impl Fn(&Seg, usize) -> bool,
        scratch: &mut Scratch,
    ) -> Option<(usize, usize)> {
        scratch.reset(self.insts.len(), seg.len());
        (from..=seg.len())
            .filter(|&p| start_ok(seg, p))
            .find_map(|p| self.run(seg, p, scratch))
    }

    /// The match with the rightmost start (for patterns after a greedy `.*`).
    pub fn find_from_right(&self, seg: &Seg, scratch: &mut Scratch) -> Option<(usize, usize)> {
        scratch.reset(self.insts.len(), seg.len());
        (0..=seg.len())
            .rev()
            .find_map(|p| self.run(seg, p, scratch))
    }

    fn run(&self, seg: &Seg, start: usize, scratch: &mut Scratch) -> Option<(usize, usize)> {
        let mut slots = [usize::MAX; 2];
        scratch.stack.clear();
        scratch.stack.push(Job::Explore(0, start as u32));
        while let Some(job) = scratch.stack.pop() {
            let (mut pc, mut pos) = match job {
                Job::Explore(pc, pos) => (pc as usize, pos as usize),
                Job::Restore(slot, value) => {
                    slots[slot as usize] = value;
                    continue;
                }
            };
            loop {
                if !scratch.visit(pc, pos) {
                    break;
                }
                match self.insts[pc] {
                    Inst::Cls(c) => {
                        if pos < seg.len() && c.matches(seg.chars[pos], seg.bits.at(pos)) {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Char(c) => {
                        if pos < seg.len() && seg.chars[pos] == c {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Ci(p, fold) => {
                        if pos < seg.len() && fold.eq(p, seg.chars[pos]) {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Az(fold, extra) => {
                        if pos < seg.len()
                            && (fold.ascii(seg.chars[pos]).is_some()
                                || extra.contains(seg.chars[pos]))
                        {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Split(first, second) => {
                        scratch.stack.push(Job::Explore(second, pos as u32));
                        pc = first as usize;
                    }
                    Inst::Jmp(to) => pc = to as usize,
                    Inst::Save(slot) => {
                        scratch.stack.push(Job::Restore(slot, slots[slot as usize]));
                        slots[slot as usize] = pos;
                        pc += 1;
                    }
                    Inst::Assert(AssertFn(f)) => {
                        if f(seg, pos) {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Lits(id) => {
                        let table = &self.lits[id as usize];
                        if pos < seg.len()
                            && let Some(cands) = table.by_first.get(&table.key(seg.chars[pos]))
                        {
                            for &i in cands.iter().rev() {
                                let lit = &table.lits[i as usize];
                                if table.matches_at(seg, pos, lit) {
                                    scratch.stack.push(Job::Explore(
                                        pc as u32 + 1,
                                        (pos + lit.len()) as u32,
                                    ));
                                }
                            }
                        }
                        break;
                    }
                    Inst::Match => {
                        return Some((slots[0], slots[1]));
                    }
                }
            }
        }
        None
    }
}

#[derive(Clone, Copy)]
enum Job {
    Explore(u32, u32),
    Restore(u8, usize),
}

/// Reusable memory for searches (the visited set and the backtracking stack). Clearing the
/// visited set costs what the last search touched, not the size of the segment, so many short
/// anchored matches in a long line stay cheap.
#[derive(Default)]
pub struct Scratch {
    visited: Vec<u64>,
    /// Words of `visited` set since the last reset.
    touched: Vec<u32>,
    width: usize,
    stack: Vec<Job>,
}

impl Scratch {
    fn reset(&mut self, insts: usize, len: usize) {
        for &w in &self.touched {
            self.visited[w as usize] = 0;
        }
        self.touched.clear();
        self.width = len + 1;
        let words = (insts * self.width).div_ceil(64);
        if self.visited.len() < words {
            // A fresh zeroed block rather than a resize: the allocator hands over pages the
            // kernel zeroes when first touched, so a search over a long segment that stops
            // early costs the pages it touched, not a bit per instruction for every
            // character. (Every word is zero here, so nothing is lost.)
            self.visited = vec![0; words];
        }
    }

    /// Marks (pc, pos) visited; false if it already was.
    #[inline]
    fn visit(&mut self, pc: usize, pos: usize) -> bool {
        let bit = pc * self.width + pos;
        let word = &mut self.visited[bit / 64];
        let mask = 1u64 << (bit % 64);
        if *word & mask != 0 {
            return false;
        }
        if *word == 0 {
            self.touched.push((bit / 64) as u32);
        }
        *word |= mask;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::rules::chars::{L, M, ND};

    fn seg_of(text: &str) -> (Vec<char>, chars::LineClasses) {
        (text.chars().collect(), text.chars().collect())
    }

    fn find(re: Re, text: &str) -> Option<(usize, usize)> {
        let (chars, bits) = seg_of(text);
        let seg = Seg {
            chars: &chars,
            bits: bits.view(),
        };
        Prog::new(&re).find(&seg, 0, |_, _| true, &mut Scratch::default())
    }

    #[test]
    fn greedy_backs_off_for_a_look_ahead() {
        // (\d+)(?!\d|x): the digits before an x are given back one by one.
        fn no_digit_or_x(s: &Seg, p: usize) -> bool {
            !(s.is(p, ND) || s.in_set(p, "x"))
        }
        let re = token(seq(vec![plus(bits(ND)), assert(no_digit_or_x)]));
        assert_eq!(find(re.clone(), "ab 123x"), None);
        assert_eq!(find(re, "ab 123-"), Some((3, 6)));
    }

    #[test]
    fn alternatives_in_order_and_lazy_repetition() {
        let re = token(alt(vec![lit("ab"), lit("abc")]));
        assert_eq!(find(re, "xabc"), Some((1, 3)));
        let re = token(seq(vec![set("<"), star_lazy(any()), set(">")]));
        assert_eq!(find(re, "a <b> <c>"), Some((2, 5)));
    }

    #[test]
    fn literal_lists_keep_their_order() {
        let re = token(seq(vec![
            lits(vec!["co".into(), "com".into()], None),
            assert(|s, p| !s.is(p, L)),
        ]));
        assert_eq!(find(re, "x.com"), Some((2, 5)));
        let re = token(lits(vec!["pdf".into()], Some(Fold::Regex)));
        assert_eq!(find(re, "a.PDF"), Some((2, 5)));
    }

    #[test]
    fn nested_repetition_stays_bounded() {
        // (a|aa)*b on a long run of a's: exponential for a plain backtracker.
        let re = token(seq(vec![star(alt(vec![lit("a"), lit("aa")])), lit("b")]));
        let text = "a".repeat(5000);
        assert_eq!(find(re, &text), None);
    }

    #[test]
    fn letter_with_marks_before() {
        let (chars, bits) = seg_of("e\u{301}\u{302}x");
        let seg = Seg {
            chars: &chars,
            bits: bits.view(),
        };
        assert!(seg.letter_marks_before(3));
        assert!(seg.letter_marks_before(1));
        assert!(!seg.letter_marks_before(0));
        assert!(seg.is(1, M));
    }
}
