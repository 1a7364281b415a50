//! The segmenter's typed trace: per word, Figure 2's permutation tree with every complete
//! segmentation's score and the chosen one.

use super::segment::{Node, Root, Segmentation};
use crate::core::token::Span;
use crate::core::trace::{LineBudget, Role, TraceLine, quote};

/// What `lex:` did with a text.
#[derive(Clone, Debug, PartialEq)]
pub struct LexTrace {
    /// The root (3.1) was read with.
    pub root: Root,
    /// Every word and other character, in text order.
    pub words: Vec<WordTrace>,
}

/// One piece of the text: a word with its segmentations, or a character that is not part of
/// a word (`segmentation` is `None`).
#[derive(Clone, Debug, PartialEq)]
pub struct WordTrace {
    /// Where the piece is.
    pub span: Span,
    /// Byte offsets of its character boundaries, both ends included.
    pub bounds: Vec<usize>,
    /// The word's tree and choice.
    pub segmentation: Option<Segmentation>,
}

impl WordTrace {
    /// The spans of the chosen segments (the whole piece when nothing was chosen).
    pub fn chosen_spans(&self) -> Vec<Span> {
        let Some(seg) = &self.segmentation else {
            return vec![self.span];
        };
        self.spans_of(&seg.chosen_lengths())
    }

    fn spans_of(&self, lengths: &[usize]) -> Vec<Span> {
        let mut at = 0;
        lengths
            .iter()
            .map(|&l| {
                let span = Span::new(self.bounds[at], self.bounds[at + l]);
                at += l;
                span
            })
            .collect()
    }

    fn node_span(&self, node: &Node) -> Span {
        Span::new(self.bounds[node.start], self.bounds[node.start + node.len])
    }

    fn shown(&self, text: &str, lengths: &[usize]) -> String {
        self.spans_of(lengths)
            .iter()
            .map(|s| s.slice(text))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

impl LexTrace {
    /// The trace as lines: per word a header, the tree one node per line (a leaf with its
    /// segmentation and score), and the choice.
    pub fn lines(&self, text: &str) -> Vec<TraceLine> {
        let mut lines = LineBudget::default();
        for word in &self.words {
            let Some(seg) = &word.segmentation else {
                lines.push_with(|| {
                    TraceLine::new(0, Some(word.span))
                        .part(Role::Label, "other ")
                        .part(Role::Token, quote(word.span.slice(text)))
                });
                continue;
            };
            lines.push_with(|| {
                TraceLine::new(0, Some(word.span))
                    .part(Role::Label, "word ")
                    .part(Role::Token, quote(word.span.slice(text)))
                    .part(
                        Role::Detail,
                        format!(
                            "  {} segmentation{} ({} root)",
                            seg.all.len(),
                            if seg.all.len() == 1 { "" } else { "s" },
                            match self.root {
                                Root::Count => "|s|-th",
                                Root::Length => "s_i-th",
                            }
                        ),
                    )
            });
            for node in &seg.tree {
                self.node_lines(text, word, seg, node, 1, &mut lines);
            }
            if seg.truncated {
                lines.push_with(|| {
                    TraceLine::new(1, Some(word.span)).part(
                        Role::Backtrack,
                        format!(
                            "stopped at {} segmentations or {} nodes: the choice is among these",
                            super::MAX_SEGMENTATIONS,
                            super::segment::MAX_NODES
                        ),
                    )
                });
            }
            if seg.too_long {
                lines.push_with(|| {
                    TraceLine::new(1, Some(word.span)).part(
                        Role::Backtrack,
                        format!(
                            "longer than {} characters: not segmented",
                            super::segment::MAX_WORD_CHARS
                        ),
                    )
                });
            }
            lines.push_with(|| match seg.chosen {
                Some(i) => TraceLine::new(1, Some(word.span))
                    .part(Role::Label, "chosen ")
                    .part(Role::Token, word.shown(text, &seg.all[i].0))
                    .part(Role::Detail, format!("  score {:.4}", seg.all[i].1)),
                None => TraceLine::new(1, Some(word.span)).part(
                    Role::Backtrack,
                    "no complete segmentation over the vocabulary: the word stays whole",
                ),
            });
        }
        lines.into_lines()
    }

    fn node_lines(
        &self,
        text: &str,
        word: &WordTrace,
        seg: &Segmentation,
        node: &Node,
        depth: usize,
        lines: &mut LineBudget,
    ) {
        let span = word.node_span(node);
        lines.push_with(|| {
            let mut line =
                TraceLine::new(depth, Some(span)).part(Role::Token, quote(span.slice(text)));
            if node.added_last {
                line = line.part(Role::Detail, "  (the missing last character, accepted)");
            }
            match node.complete {
                Some(i) => {
                    line = line
                        .part(Role::Plain, "  = ")
                        .part(Role::Plain, word.shown(text, &seg.all[i].0))
                        .part(Role::Detail, format!("  score {:.4}", seg.all[i].1));
                    if seg.chosen == Some(i) {
                        line = line.part(Role::Label, "  ← chosen");
                    }
                }
                None if node.children.is_empty() => {
                    let rest = Span::new(span.end, word.span.end);
                    line = line
                        .part(Role::Backtrack, "  ✗ no morpheme starts ")
                        .part(Role::Backtrack, quote(rest.slice(text)));
                }
                None => {}
            }
            line
        });
        for child in &node.children {
            self.node_lines(text, word, seg, child, depth + 1, lines);
        }
    }
}
