//! The rule engine's explanation: for each line, the recursion tree of splits — at each level
//! the segment, the step that split it, the tokens it found (with the rule file line of a
//! dictionary entry) and the left and right remainders handed on.

use super::origin::Step;
use super::split::{Event, EventKind, Tok};
use crate::core::token::{SourceLoc, Span};
use crate::core::trace::{Role, TraceLine, quote};

/// Characters of a segment a trace line shows whole (see `LineTrace::segment_text`).
const SHOWN_CHARS: usize = 180;

/// The trace of one text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTrace {
    /// One per line of the text: the rule engine works line by line.
    pub lines: Vec<LineTrace>,
}

/// The events of one line of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineTrace {
    /// Byte offset of the line in the text.
    pub offset: usize,
    /// Byte range in the line of each character of the normalized line.
    pub orig: Vec<(u32, u32)>,
    /// The normalized line.
    pub chars: Vec<char>,
    /// The recursion's events, in order.
    pub events: Vec<Event>,
    /// The entry locations of the tokens, by entry id.
    pub entries: Vec<(u32, SourceLoc)>,
}

impl LineTrace {
    /// The byte span in the text of characters `a..b` of the normalized line.
    pub fn span(&self, a: u32, b: u32) -> Span {
        let (a, b) = (a as usize, b as usize);
        if a >= b || a >= self.orig.len() {
            let at = self
                .orig
                .get(a)
                .map_or_else(|| self.orig.last().map_or(0, |o| o.1), |o| o.0)
                as usize;
            return Span::new(self.offset + at, self.offset + at);
        }
        Span::new(
            self.offset + self.orig[a].0 as usize,
            self.offset + self.orig[b - 1].1 as usize,
        )
    }

    /// The segment's text for display: whole up to [`SHOWN_CHARS`], else its start and end
    /// around a count of what is left out. The engine splits a long line into hundreds of
    /// segments, each nearly the whole line: shown whole, a 100,000-character line of URLs
    /// made a 48 MB trace, and the trace grew with the square of the line.
    fn segment_text(&self, a: u32, b: u32) -> String {
        let chars = &self.chars[a as usize..b as usize];
        if chars.len() <= SHOWN_CHARS {
            return chars.iter().collect();
        }
        let (head, tail) = (SHOWN_CHARS * 2 / 3, SHOWN_CHARS / 3);
        let mut text: String = chars[..head].iter().collect();
        text.push_str(&format!(" …{} characters… ", chars.len() - head - tail));
        text.extend(&chars[chars.len() - tail..]);
        text
    }

    fn entry(&self, id: Option<u32>) -> Option<&SourceLoc> {
        let id = id?;
        self.entries.iter().find(|(i, _)| *i == id).map(|(_, l)| l)
    }
}

impl RuleTrace {
    /// The trace as display lines.
    pub fn lines(&self, _text: &str) -> Vec<TraceLine> {
        let mut out = Vec::new();
        let many = self.lines.len() > 1;
        for (number, line) in self.lines.iter().enumerate() {
            let base = usize::from(many);
            if many {
                let span = line.span(0, line.chars.len() as u32);
                out.push(
                    TraceLine::new(0, Some(span)).part(Role::Label, format!("line {}", number + 1)),
                );
            }
            // A step's near misses come before what the segment became; they are shown
            // under it, as the reasons its earlier steps found nothing.
            let mut misses: Vec<&Event> = Vec::new();
            for event in &line.events {
                if matches!(event.what, EventKind::NearMiss { .. }) {
                    misses.push(event);
                    continue;
                }
                out.push(render(line, event, base));
                for miss in misses.drain(..) {
                    out.push(render(line, miss, base + 1));
                }
            }
            for miss in misses {
                out.push(render(line, miss, base + 1));
            }
        }
        out
    }
}

fn tokens_part(mut l: TraceLine, line: &LineTrace, tokens: &[Tok]) -> TraceLine {
    for (i, tok) in tokens.iter().enumerate() {
        if i > 0 {
            l = l.part(Role::Plain, " ");
        }
        let text: String;
        let form = match &tok.surf {
            Some(s) => s.as_str(),
            None => {
                text = line.chars[tok.start as usize..tok.end as usize]
                    .iter()
                    .collect();
                &text
            }
        };
        l = l.part(Role::Token, quote(form));
    }
    if let Some(first) = tokens.first()
        && let Some(loc) = line.entry(first.entry)
    {
        l = l
            .part(Role::Detail, format!(" ({loc})"))
            .at(Some(loc.clone()));
    }
    l
}

fn render(line: &LineTrace, event: &Event, base: usize) -> TraceLine {
    let (a, b) = event.segment;
    let mut l = TraceLine::new(base + event.level as usize, Some(line.span(a, b)))
        .part(Role::Plain, quote(&line.segment_text(a, b)))
        .part(Role::Plain, " ");
    match &event.what {
        EventKind::Split {
            step,
            tokens,
            left,
            left_step,
            right,
        } => {
            if *step > event.entered {
                l = l.part(Role::Detail, passed(event.entered, *step));
            }
            l = l.part(Role::Label, format!("{step}"));
            let kind = tokens.first().map(|t| t.chart_type.as_str()).unwrap_or("");
            l = l.part(Role::Plain, format!(": {kind} "));
            if let Some(sem) = tokens.first().and_then(|t| t.sem_class.as_deref()) {
                l = l.part(Role::Detail, format!("[{sem}] "));
            }
            l = tokens_part(l, line, tokens);
            match left {
                Some((la, lb)) => {
                    l = l
                        .part(Role::Plain, "  left ")
                        .part(Role::Dropped, quote(&line.segment_text(*la, *lb)))
                        .part(Role::Detail, format!(" → step {}", left_step.number()));
                }
                None => l = l.part(Role::Detail, "  left —"),
            }
            match right {
                Some((ra, rb)) => {
                    l = l
                        .part(Role::Plain, "  right ")
                        .part(Role::Dropped, quote(&line.segment_text(*ra, *rb)))
                        .part(Role::Detail, format!(" → step {}", step.number()));
                }
                None => l = l.part(Role::Detail, "  right —"),
            }
        }
        EventKind::Main { tokens } => {
            if Step::Main > event.entered {
                l = l.part(Role::Detail, passed(event.entered, Step::Main));
            }
            l = l
                .part(Role::Label, format!("{}", Step::Main))
                .part(Role::Plain, ": ");
            l = if tokens.is_empty() {
                l.part(Role::Dropped, "only whitespace")
            } else {
                tokens_part(l, line, tokens)
            };
        }
        EventKind::NearMiss {
            step,
            entry,
            reason,
        } => {
            l = l
                .part(Role::Backtrack, "near miss ")
                .part(Role::Label, format!("{step}"));
            if let Some(loc) = line.entry(*entry) {
                l = l
                    .part(Role::Detail, format!(" ({loc})"))
                    .at(Some(loc.clone()));
            }
            l = l
                .part(Role::Plain, ": ")
                .part(Role::Backtrack, reason.clone());
        }
        EventKind::Guard { message } => {
            l = l.part(Role::Backtrack, format!("limit: {message}"));
        }
    }
    l
}

/// "steps 2–9 nothing, " for the steps a segment passed before one took it.
fn passed(entered: Step, taken: Step) -> String {
    let last = taken.number() - 1;
    if entered.number() == last {
        format!("step {last} nothing, ")
    } else {
        format!("steps {}–{last} nothing, ", entered.number())
    }
}

#[cfg(test)]
mod tests {
    use crate::core::tokenizer::Tokenizer;
    use crate::engines::rules::{FileRole, LoadOptions, RulesTokenizer};

    const RULES: &str = "::abbrev fig. ::exp figure ::lcode eng ::right-context \\s*\\d\n\
                         ::abbrev p. ::exp page ::lcode eng ::case-sensitive True\n";

    fn explain(text: &str) -> String {
        let options = LoadOptions {
            lang: Some("eng".into()),
            ..LoadOptions::default()
        };
        let rules =
            RulesTokenizer::from_texts(&[("tok-resource-eng.txt", FileRole::Tok, RULES)], &options)
                .unwrap();
        rules.explain(text).to_text()
    }

    #[test]
    fn a_failed_right_context_is_a_near_miss_with_its_entry_and_condition() {
        let trace = explain("see fig. here");
        assert!(
            trace.contains(
                "«fig.» near miss step 10 tokenize_according_to_resource_entries (tok-resource-eng.txt:1): ::right-context \\s*\\d does not hold"
            ),
            "{trace}"
        );
        // Where the context holds, the entry fires and there is no near miss.
        let trace = explain("see fig. 3");
        assert!(!trace.contains("near miss"), "{trace}");
    }

    #[test]
    fn a_case_sensitive_entry_in_another_case_is_a_near_miss() {
        let trace = explain("on P. 3");
        assert!(
            trace.contains("«P.» near miss step 10 tokenize_according_to_resource_entries (tok-resource-eng.txt:2): ::case-sensitive and the case differs"),
            "{trace}"
        );
    }

    #[test]
    fn prefixes_of_longer_words_are_not_near_misses() {
        // `p` is not an entry, but `fig.` would be a prefix only with the period; a word such
        // as `figs.` passes through step 10 without noise.
        let trace = explain("figs. p");
        assert!(!trace.contains("a letter follows it"), "{trace}");
    }
}
