//! What the split-off engine tells a trace: each split, the whitespace split, the depth
//! limits reached, and the dictionary candidates a condition rejected (its near misses).

use super::{Run, Tok};
use crate::engines::rules::conditions::{Failed, LETTER_FOLLOWS};
use crate::engines::rules::origin::Step;

/// One event of the recursion, for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Depth in the split tree.
    pub level: u32,
    /// The segment (character range of the sentence).
    pub segment: (u32, u32),
    /// The step the segment entered at.
    pub entered: Step,
    /// What happened to the segment.
    pub what: EventKind,
}

/// What happened to a segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A step split off tokens; the left remainder goes to `left_step`, the right one back
    /// to the same step.
    Split {
        /// The step that found the tokens.
        step: Step,
        /// The tokens split off.
        tokens: Vec<Tok>,
        /// The text before them, if any (character range).
        left: Option<(u32, u32)>,
        /// The step the left remainder continues at.
        left_step: Step,
        /// The text after them, if any (character range).
        right: Option<(u32, u32)>,
    },
    /// The final step split the segment on whitespace.
    Main {
        /// The whitespace-separated tokens.
        tokens: Vec<Tok>,
    },
    /// A dictionary entry matched the text (`segment` is the candidate) but a condition
    /// rejected it: the "why not" of a rule author whose entry did not fire.
    NearMiss {
        /// The step that looked the candidate up.
        step: Step,
        /// The entry (for a general condition, the first entry with that headword).
        entry: Option<u32>,
        /// Which condition failed, as the trace says it.
        reason: String,
    },
    /// One of utoken's depth limits was reached.
    Guard {
        /// Which limit, for the trace.
        message: String,
    },
}

/// A rejected dictionary candidate waiting for its step to finish.
pub(super) struct NearMiss {
    start: u32,
    end: u32,
    entry: Option<u32>,
    reason: String,
}

/// How many near misses of one step the trace shows; the rest are counted on the last.
pub(super) const NEAR_MISSES_SHOWN: usize = 3;

impl Run<'_> {
    /// Records a candidate a condition rejected, when a trace is being made. `start..end` are
    /// sentence positions.
    pub fn near_miss(&self, start: usize, end: usize, entry: Option<u32>, failed: Failed) {
        if self.observer.is_none() || matches!(failed, Failed::Rule(LETTER_FOLLOWS)) {
            return;
        }
        let mut misses = self.near_misses.borrow_mut();
        if misses.len() > NEAR_MISSES_SHOWN {
            // Counted, not kept: a run of one character (`;;;;…`) has a near miss at every
            // position of every nested segment, which would make the trace quadratic.
            self.near_misses_more.set(self.near_misses_more.get() + 1);
            return;
        }
        misses.push(NearMiss {
            start: start as u32,
            end: end as u32,
            entry,
            reason: failed.describe(),
        });
    }

    /// Hands the near misses of a step to the observer, before what the step found.
    pub(super) fn report_near_misses(&mut self, step: Step, level: u32) {
        let Some(observer) = &mut self.observer else {
            return;
        };
        let more = self.near_misses_more.replace(0);
        let misses = self.near_misses.get_mut();
        if misses.len() > NEAR_MISSES_SHOWN {
            let hidden = misses.len() - NEAR_MISSES_SHOWN + more;
            misses.truncate(NEAR_MISSES_SHOWN);
            if let Some(last) = misses.last_mut() {
                last.reason.push_str(&format!(
                    " ({hidden} more near misses of this step not shown)"
                ));
            }
        }
        for miss in misses.drain(..) {
            observer.observe(Event {
                level,
                segment: (miss.start, miss.end),
                entered: self.entered,
                what: EventKind::NearMiss {
                    step,
                    entry: miss.entry,
                    reason: miss.reason,
                },
            });
        }
    }

    /// Tells the observer that one of utoken's depth limits stopped the splitting here.
    pub(super) fn guard(&mut self, level: u32, a: usize, b: usize, message: String) {
        if let Some(observer) = &mut self.observer {
            observer.observe(Event {
                level,
                segment: (a as u32, b as u32),
                entered: self.entered,
                what: EventKind::Guard { message },
            });
        }
    }
}
