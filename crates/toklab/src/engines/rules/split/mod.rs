//! The split-off engine: utoken's recursive left/right splitting, run with an explicit work
//! stack so no input is too long for it.
//!
//! A step looks at a segment (a stretch of the normalized line). When it finds a token, the
//! text left of the token goes to the same step (or, for the scanning steps, to the next one),
//! then the token is emitted, then the text right of it goes to the same step. When it finds
//! nothing, the segment goes to the next step. Pushing "left, token, right" onto a stack in
//! reverse and popping gives exactly the order of utoken's recursion, so its depth guards can
//! be reproduced too: past 250 nested splits utoken hands the rest of a segment straight to
//! the final whitespace split, past 200 nested numbers (or symbols) it stops looking for them.
//! Those limits change utoken's output on very long lines, so they are kept; they protect
//! nothing here.

use super::chars::{self, Bits};
use super::matcher::{Prog, Scratch, Seg};
use super::normalize::Sentence;
use super::origin::Step;
use super::pattern_steps::{basic_type, basic_type_of};
use super::resources::Resources;
use crate::core::trace::Observer;

mod events;
mod found;
mod views;

use events::NearMiss;
pub use events::{Event, EventKind};
pub(crate) use found::Found;
pub use found::Tok;
pub use views::Lower;
use views::{equal_runs, run_end_in};

/// utoken's limit on nested splits (past it, the rest of a segment goes to the whitespace
/// split).
pub const DEPTH_LIMIT: i32 = 250;
/// utoken's limit on nested number splits (past it, numbers are no longer split off).
pub const NUMBER_DEPTH_LIMIT: i32 = 200;
/// utoken's limit on nested symbol-group splits.
pub const SYMBOL_DEPTH_LIMIT: i32 = 200;

/// The loaded rules and everything derived from them.
pub(crate) struct Rules {
    pub res: Resources,
    /// The language code as given (utoken's `--lc`), if any.
    pub lang: Option<String>,
    pub url2: Option<Prog>,
    pub phonetics: Vec<Prog>,
    /// No `@` mark-up (utoken's `--simple`).
    pub simple: bool,
}

/// The depth counters utoken keeps (and the order it undoes them in).
#[derive(Clone, Copy, Debug)]
enum Counter {
    General,
    Number,
    Symbol,
}

enum Work {
    Run {
        step: Step,
        a: u32,
        b: u32,
        level: u32,
    },
    Emit(Tok),
    Dec(Counter),
}

/// The state of tokenizing one line.
pub(crate) struct Run<'r> {
    pub rules: &'r Rules,
    pub s: &'r Sentence<'r>,
    /// The normalized text of the sentence (looked up once: contexts read it all the time).
    sentence_text: &'r str,
    pub out: Vec<Tok>,
    stack: Vec<Work>,
    depth: i32,
    number_depth: i32,
    symbol_depth: i32,
    pub scratch: Scratch,
    /// Where the recursion reports its events, when a trace is asked for.
    observer: Option<&'r mut dyn Observer<Event>>,
    /// The near misses of the step being tried (collected only for a trace; the steps look
    /// candidates up through `&self`).
    near_misses: std::cell::RefCell<Vec<NearMiss>>,
    /// Near misses past the ones kept for the trace, only counted.
    near_misses_more: std::cell::Cell<usize>,
    /// The step each pending segment entered at (for the trace).
    entered: Step,
    /// Word positions for the paired-delimiter mark-up, built on first use.
    pub words: std::cell::OnceCell<super::markup::WordIndex>,
    /// The runs of two or more equal characters, as (start, end), in order (built on first
    /// use, for grouped punctuation): a line's runs are few next to its characters.
    runs: std::cell::OnceCell<Vec<(u32, u32)>>,
    /// The class bits of all characters of the segment being stepped through: a step whose
    /// pattern needs a character the segment lacks is skipped without a search.
    pub seg_lv: Bits,
    /// Index in `out` of the first token the depth limit handed to the whitespace split, so
    /// the tokenizer can say where the line stopped being analysed.
    depth_cut: Option<usize>,
    /// Leave the rest of the line to the caller when the depth limit hands it all to the
    /// whitespace split ([`Tail`]), instead of splitting it here.
    pub defer_tail: bool,
    tail: Option<Tail>,
}

/// The rest of a line the depth limit handed to the whitespace split, left to the caller
/// ([`Run::defer_tail`]): past utoken's depth limit a long line is only split on whitespace,
/// and the caller can split it a part at a time ([`Run::space_split`]) rather than hold a token
/// of every word of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    /// The position where the whitespace split starts; it runs to the end of the line.
    pub start: usize,
    /// How many of the run's tokens come before it (those after it, if any, follow it).
    pub at: usize,
}

/// What the depth limit does to a line, for the tokens it cuts and the CLI's warning.
pub const DEPTH_CUT: &str = "more than 250 nested splits (utoken's depth limit): the rest of the line was only split on whitespace";

impl<'r> Run<'r> {
    /// A run over one normalized line; `observer`, when given, receives the recursion's
    /// events for `explain`.
    pub fn new(
        rules: &'r Rules,
        s: &'r Sentence<'r>,
        observer: Option<&'r mut dyn Observer<Event>>,
    ) -> Run<'r> {
        Run {
            rules,
            s,
            sentence_text: s.text(),
            out: Vec::with_capacity(s.chars.len() / 4 + 4),
            stack: Vec::with_capacity(32),
            depth: 0,
            number_depth: 0,
            symbol_depth: 0,
            scratch: Scratch::default(),
            observer,
            near_misses: std::cell::RefCell::new(Vec::new()),
            near_misses_more: std::cell::Cell::new(0),
            entered: Step::Xml,
            words: std::cell::OnceCell::new(),
            runs: std::cell::OnceCell::new(),
            seg_lv: 0,
            depth_cut: None,
            defer_tail: false,
            tail: None,
        }
    }

    /// Tokenizes the whole sentence: the tokens, and the index of the first one the depth
    /// limit left to the whitespace split, if it was reached.
    pub fn run(mut self) -> (Vec<Tok>, Option<usize>) {
        let (toks, cut, _) = self.run_deferring();
        (toks, cut)
    }

    /// [`Run::run`], keeping the run for [`Run::space_split`]: with [`Run::defer_tail`] set,
    /// the part of the line the depth limit left to the whitespace split is not split but
    /// returned as a [`Tail`] (the index of the first cut token then counts the tail's tokens
    /// as if they were in place).
    pub fn run_deferring(&mut self) -> (Vec<Tok>, Option<usize>, Option<Tail>) {
        let n = self.s.chars.len() as u32;
        self.stack.push(Work::Run {
            step: Step::Xml,
            a: 0,
            b: n,
            level: 0,
        });
        while let Some(work) = self.stack.pop() {
            match work {
                Work::Run { step, a, b, level } => {
                    self.entered = step;
                    self.seg_lv = self.s.bits.range(a as usize..b as usize).union();
                    let mut step = step;
                    loop {
                        if self.try_step(step, a as usize, b as usize, level) {
                            break;
                        }
                        match step.next() {
                            Some(next) => step = next,
                            None => break,
                        }
                    }
                }
                Work::Emit(tok) => self.out.push(tok),
                Work::Dec(Counter::General) => self.depth -= 1,
                Work::Dec(Counter::Number) => self.number_depth -= 1,
                Work::Dec(Counter::Symbol) => self.symbol_depth -= 1,
            }
        }
        (std::mem::take(&mut self.out), self.depth_cut, self.tail)
    }

    /// The segment `a..b` as the patterns see it.
    pub fn seg(&self, a: usize, b: usize) -> Seg<'r> {
        Seg {
            chars: &self.s.chars[a..b],
            bits: self.s.bits.range(a..b),
        }
    }

    /// utoken's line vector (which step gates apply).
    pub fn lv(&self) -> Bits {
        self.s.lv
    }

    /// Runs one step on a segment; true when it took the segment (pushed its work).
    fn try_step(&mut self, step: Step, a: usize, b: usize, level: u32) -> bool {
        if a >= b {
            return true;
        }
        let found = match step {
            Step::Normalize | Step::Complexes => None,
            Step::Xml => self.xml(a, b),
            Step::Url => self.url(a, b),
            Step::Email => self.email(a, b),
            Step::Filename => self.filename(a, b),
            Step::Symbol => return self.symbol(a, b, level),
            Step::Hashtag => self.hashtag(a, b),
            Step::AbbrevPatterns => self.abbrev_patterns(a, b),
            Step::ResourceEntries => self.resource_entries(a, b),
            Step::Initials => self.initials(a, b),
            Step::AbbrevPeriods => self.abbrev_periods(a, b),
            Step::Contractions => self.contractions(a, b),
            Step::Numbers => return self.numbers(a, b, level),
            Step::LexicalEntries => self.lexical_entries(a, b),
            Step::ComplexNames => self.complex_names(a, b),
            Step::MtPunct => self.mt_punct(a, b),
            Step::PunctEntries => self.punct_entries(a, b),
            Step::PostPunct => self.post_punct(a, b),
            Step::Main => {
                self.main(a, b, level);
                return true;
            }
        };
        self.report_near_misses(step, level);
        match found {
            Some(found) => {
                self.rec_tok(step, a, b, found, level);
                true
            }
            None => false,
        }
    }

    /// Pushes the work for a found token: left part, token, right part (utoken's `rec_tok`).
    pub fn rec_tok(&mut self, step: Step, a: usize, b: usize, found: Found, level: u32) {
        self.depth += 1;
        if self.depth > DEPTH_LIMIT {
            return self.past_depth_limit(a, b, level);
        }
        self.stack.push(Work::Dec(Counter::General));
        if found.rest.is_empty() && self.observer.is_none() {
            return self.rec_tok_one(step, a, b, found, level);
        }
        let mut starts_ends = Vec::with_capacity(1 + found.rest.len());
        let mut position = a;
        let mut toks = Vec::with_capacity(1 + found.rest.len());
        for (rel, len, surf) in std::iter::once(&found.first).chain(&found.rest) {
            let start = a + *rel as usize;
            let end = start + *len as usize;
            let base = surf.as_deref().unwrap_or_else(|| self.text(start, end));
            let marked = if self.rules.simple {
                None
            } else {
                self.markup(base, start, end)
            };
            let surf = marked.or_else(|| surf.clone());
            let pre = (position, start.max(position));
            starts_ends.push(pre);
            toks.push(Tok {
                start: start as u32,
                end: end as u32,
                surf,
                step,
                chart_type: found.chart_type.clone(),
                sem_class: found.sem_class.clone(),
                entry: found.entry,
            });
            position = end;
        }
        let post = (position, b);
        let left_step = if found.left_done {
            step.next().unwrap_or(Step::Main)
        } else {
            step
        };
        if let Some(observer) = &mut self.observer {
            let first_pre = starts_ends[0];
            observer.observe(Event {
                level,
                segment: (a as u32, b as u32),
                entered: self.entered,
                what: EventKind::Split {
                    step,
                    tokens: toks.clone(),
                    left: (first_pre.1 > first_pre.0)
                        .then_some((first_pre.0 as u32, first_pre.1 as u32)),
                    left_step,
                    right: (post.1 > post.0).then_some((post.0 as u32, post.1 as u32)),
                },
            });
        }
        if post.1 > post.0 {
            self.stack.push(Work::Run {
                step,
                a: post.0 as u32,
                b: post.1 as u32,
                level: level + 1,
            });
        }
        for (i, tok) in toks.into_iter().enumerate().rev() {
            self.stack.push(Work::Emit(tok));
            let (pa, pb) = starts_ends[i];
            if pb > pa {
                let step = if i == 0 { left_step } else { step };
                self.stack.push(Work::Run {
                    step,
                    a: pa as u32,
                    b: pb as u32,
                    level: level + 1,
                });
            }
        }
    }

    /// Past utoken's depth limit: the segment goes to the whitespace split (the rest of the
    /// line, when the caller splits it a part at a time, is only marked here).
    fn past_depth_limit(&mut self, a: usize, b: usize, level: u32) {
        // utoken sends the whole segment to its last step and (by oversight) does not
        // undo its depth count.
        self.guard(
            level,
            a,
            b,
            format!("more than {DEPTH_LIMIT} nested splits: the rest goes to the whitespace split, as in utoken"),
        );
        let first = self.out.len();
        if self.defer_tail && self.tail.is_none() && b == self.s.chars.len() {
            // The rest of the line: the caller splits it. Whether the split would give a
            // token decides, as below, whether the cut is marked here.
            let words = self
                .s
                .bits
                .range(a..b)
                .iter()
                .any(|x| x & chars::PY_SPACE == 0);
            if self.depth_cut.is_none() && words {
                self.depth_cut = Some(first);
            }
            self.tail = Some(Tail {
                start: a,
                at: first,
            });
            return;
        }
        self.main(a, b, level);
        if self.depth_cut.is_none() && self.out.len() > first {
            self.depth_cut = Some(first);
        }
    }

    /// [`Run::rec_tok`] for the common case of one token, without bookkeeping vectors.
    fn rec_tok_one(&mut self, step: Step, a: usize, b: usize, found: Found, level: u32) {
        let (rel, len, surf) = found.first;
        let start = a + rel as usize;
        let end = start + len as usize;
        let marked = if self.rules.simple {
            None
        } else {
            let base = surf.as_deref().unwrap_or_else(|| self.text(start, end));
            self.markup(base, start, end)
        };
        if end < b {
            self.stack.push(Work::Run {
                step,
                a: end as u32,
                b: b as u32,
                level: level + 1,
            });
        }
        self.stack.push(Work::Emit(Tok {
            start: start as u32,
            end: end as u32,
            surf: marked.or(surf),
            step,
            chart_type: found.chart_type,
            sem_class: found.sem_class,
            entry: found.entry,
        }));
        if start > a {
            let left_step = if found.left_done {
                step.next().unwrap_or(Step::Main)
            } else {
                step
            };
            self.stack.push(Work::Run {
                step: left_step,
                a: a as u32,
                b: start as u32,
                level: level + 1,
            });
        }
    }

    /// Step 14's entry and exit bookkeeping around [`Run::find_number`].
    fn numbers(&mut self, a: usize, b: usize, level: u32) -> bool {
        self.number_depth += 1;
        if self.number_depth > NUMBER_DEPTH_LIMIT {
            self.guard(level, a, b, format!("more than {NUMBER_DEPTH_LIMIT} nested numbers: no more number splitting, as in utoken"));
            self.number_depth -= 1;
            return false;
        }
        match self.find_number(a, b) {
            Some(found) => {
                self.stack.push(Work::Dec(Counter::Number));
                self.rec_tok(Step::Numbers, a, b, found, level);
                true
            }
            None => {
                self.number_depth -= 1;
                false
            }
        }
    }

    /// Step 6's bookkeeping around [`Run::find_symbol`].
    fn symbol(&mut self, a: usize, b: usize, level: u32) -> bool {
        self.symbol_depth += 1;
        if self.symbol_depth > SYMBOL_DEPTH_LIMIT {
            self.guard(level, a, b, format!("more than {SYMBOL_DEPTH_LIMIT} nested symbol groups: no more symbol splitting, as in utoken"));
            self.symbol_depth -= 1;
            return false;
        }
        match self.find_symbol(a, b) {
            Some(found) => {
                self.stack.push(Work::Dec(Counter::Symbol));
                self.rec_tok(Step::Symbol, a, b, found, level);
                true
            }
            None => {
                self.symbol_depth -= 1;
                false
            }
        }
    }

    /// Step 20: the rest split on whitespace, each piece typed by its characters.
    fn main(&mut self, a: usize, b: usize, level: u32) {
        let first = self.out.len();
        let mut out = std::mem::take(&mut self.out);
        self.space_split(a, b, &mut out);
        self.out = out;
        if let Some(observer) = &mut self.observer {
            observer.observe(Event {
                level,
                segment: (a as u32, b as u32),
                entered: self.entered,
                what: EventKind::Main {
                    tokens: self.out[first..].to_vec(),
                },
            });
        }
    }

    /// Step 20's split of `a..b` on whitespace, appended to `out`. Splitting at a whitespace
    /// character gives the same tokens as splitting the whole, so a [`Tail`] can be split a
    /// part at a time.
    pub fn space_split(&self, a: usize, b: usize, out: &mut Vec<Tok>) {
        let mut i = a;
        while i < b {
            if self.s.bits.at(i) & chars::PY_SPACE != 0 {
                i += 1;
                continue;
            }
            let start = i;
            while i < b && self.s.bits.at(i) & chars::PY_SPACE == 0 {
                i += 1;
            }
            let text = self.text(start, i);
            let surf = if self.rules.simple {
                None
            } else {
                self.markup(text, start, i)
            };
            let chart_type = match &surf {
                Some(s) => basic_type(s),
                None => basic_type_of(
                    self.s.chars[start..i]
                        .iter()
                        .copied()
                        .zip(self.s.bits.range(start..i).iter()),
                ),
            };
            out.push(Tok {
                start: start as u32,
                end: i as u32,
                surf,
                step: Step::Main,
                chart_type,
                sem_class: None,
                entry: None,
            });
        }
    }

    /// The first whitespace position at or after `from`, or the end of the line: where a
    /// [`Tail`] may be split into parts.
    pub fn space_at_or_after(&self, from: usize) -> usize {
        let bits = self.s.bits.view();
        (from..bits.len())
            .find(|&i| bits.at(i) & chars::PY_SPACE != 0)
            .unwrap_or(bits.len())
    }

    /// The normalized text of characters `a..b`.
    pub fn text(&self, a: usize, b: usize) -> &'r str {
        &self.sentence_text[self.s.byte_at(a)..self.s.byte_at(b)]
    }

    /// The sentence left of position `p` (for left contexts and mark-up).
    pub fn left_of(&self, p: usize) -> &'r str {
        &self.sentence_text[..self.s.byte_at(p)]
    }

    /// The sentence right of position `p`.
    pub fn right_of(&self, p: usize) -> &'r str {
        &self.sentence_text[self.s.byte_at(p)..]
    }

    /// Lower-case characters of a segment, as utoken's `lower` gives them for that segment
    /// (only a capital sigma depends on where the segment ends).
    pub fn lower_of(&self, a: usize, b: usize) -> Lower<'r> {
        if self.s.has_sigma && self.s.chars[a..b].contains(&'Σ') {
            let text: String = self.s.chars[a..b]
                .iter()
                .map(|&c| if c == 'İ' { 'i' } else { c })
                .collect();
            let lowered: Vec<char> = text.to_lowercase().chars().collect();
            if lowered.len() == b - a {
                return Lower::Whole(lowered);
            }
        }
        Lower::Each(&self.s.chars[a..b])
    }

    /// The end of the run of characters equal to the one at `i`.
    pub fn run_end(&self, i: usize) -> usize {
        run_end_in(self.runs.get_or_init(|| equal_runs(&self.s.chars)), i)
    }

    /// The loaded resources.
    pub fn entries(&self) -> &'r Resources {
        &self.rules.res
    }
}
