//! What a rule step finds in a segment, and the tokens a run emits from it.

use std::sync::Arc;

use super::super::origin::{ChartType, Step};

/// A token of one line: positions in the normalized sentence, the output form, provenance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    /// Character range of the text the token covers (utoken's original token surface).
    pub start: u32,
    /// End of that range (exclusive).
    pub end: u32,
    /// The output form (with `@` mark-up, repairs, case adjustment) when it differs from the
    /// normalized text of `start..end`.
    pub surf: Option<String>,
    /// The step that made the token.
    pub step: Step,
    /// utoken's chart type for it.
    pub chart_type: ChartType,
    /// The matching entry's `::sem-class`, if any.
    pub sem_class: Option<Arc<str>>,
    /// Index of the resource entry that made it.
    pub entry: Option<u32>,
}

/// One found token: start in the segment, length in the text, and the output form before
/// mark-up when it is not the text itself.
pub(crate) type FoundToken = (u32, u32, Option<String>);

/// What a step found in a segment: tokens at offsets of the segment.
pub(crate) struct Found {
    /// The first token (most steps find one).
    pub first: FoundToken,
    /// Further tokens (a contraction's parts).
    pub rest: Vec<FoundToken>,
    pub chart_type: ChartType,
    pub sem_class: Option<Arc<str>>,
    pub entry: Option<u32>,
    /// The text left of the first token goes to the next step (nothing matched there).
    pub left_done: bool,
}

impl Found {
    /// One token whose form is its text.
    pub fn one(start: usize, len: usize, chart_type: ChartType) -> Found {
        Found {
            first: (start as u32, len as u32, None),
            rest: Vec::new(),
            chart_type,
            sem_class: None,
            entry: None,
            left_done: false,
        }
    }
}
