//! Position-set evaluation: for each part of a pattern, every position it can end at from a
//! start position, memoized per (part, start). Exact for patterns without back-references,
//! look-arounds included, and polynomial in the text length.

use std::collections::HashMap;

use regex_syntax::hir::ClassUnicode;

use super::tree::{Node, Tree, class_of};

/// Position-set evaluation of a tree on one text.
pub(super) struct Eval<'t> {
    tree: &'t Tree,
    chars: &'t [char],
    memo: HashMap<(usize, usize), Vec<usize>>,
    classes: HashMap<usize, ClassUnicode>,
}

impl<'t> Eval<'t> {
    pub(super) fn new(tree: &'t Tree, chars: &'t [char]) -> Self {
        Eval {
            tree,
            chars,
            memo: HashMap::new(),
            classes: HashMap::new(),
        }
    }

    /// Every position where node `i` can end when it starts at `pos`, ascending.
    pub(super) fn ends(&mut self, i: usize, pos: usize) -> Vec<usize> {
        if let Some(found) = self.memo.get(&(i, pos)) {
            return found.clone();
        }
        let n = self.chars.len();
        let result = match self.tree.nodes[i].clone() {
            Node::Empty => vec![pos],
            Node::Set(_) => {
                let class = self
                    .classes
                    .entry(i)
                    .or_insert_with(|| match &self.tree.nodes[i] {
                        Node::Set(s) => class_of(s).unwrap_or_else(|_| ClassUnicode::empty()),
                        _ => unreachable!(),
                    });
                if pos < n && contains(class, self.chars[pos]) {
                    vec![pos + 1]
                } else {
                    vec![]
                }
            }
            Node::Any { dotall } => {
                if pos < n && (dotall || self.chars[pos] != '\n') {
                    vec![pos + 1]
                } else {
                    vec![]
                }
            }
            Node::Start => {
                if pos == 0 {
                    vec![pos]
                } else {
                    vec![]
                }
            }
            Node::End => {
                if pos == n {
                    vec![pos]
                } else {
                    vec![]
                }
            }
            Node::WordBoundary { negate } => {
                let word =
                    |c: Option<&char>| c.is_some_and(|&c| regex_syntax::is_word_character(c));
                let before = pos > 0 && word(self.chars.get(pos - 1));
                let after = word(self.chars.get(pos));
                if (before != after) != negate {
                    vec![pos]
                } else {
                    vec![]
                }
            }
            Node::Concat(items) => {
                let mut current = vec![pos];
                for item in items {
                    let mut next = Vec::new();
                    for p in current {
                        next.extend(self.ends(item, p));
                    }
                    next.sort_unstable();
                    next.dedup();
                    current = next;
                    if current.is_empty() {
                        break;
                    }
                }
                current
            }
            Node::Alt(items) => {
                let mut all = Vec::new();
                for item in items {
                    all.extend(self.ends(item, pos));
                }
                all.sort_unstable();
                all.dedup();
                all
            }
            Node::Repeat { node, min, max, .. } => {
                let mut result = Vec::new();
                let mut seen = vec![false; n + 1];
                let mut current = vec![pos];
                let mut count = 0u32;
                loop {
                    if count >= min {
                        for &p in &current {
                            if !seen[p] {
                                seen[p] = true;
                                result.push(p);
                            }
                        }
                    }
                    if max.is_some_and(|m| count >= m) || current.is_empty() {
                        break;
                    }
                    let mut next = Vec::new();
                    for &p in &current {
                        next.extend(self.ends(node, p));
                    }
                    next.sort_unstable();
                    next.dedup();
                    if next == current {
                        // A fixed point (the body matched only the empty string): more
                        // repetitions change nothing, whatever the bounds ask for.
                        if count < min && max.is_none_or(|m| min <= m) {
                            for &p in &current {
                                if !seen[p] {
                                    seen[p] = true;
                                    result.push(p);
                                }
                            }
                        }
                        break;
                    }
                    count += 1;
                    // Past the minimum, positions already reported cannot lead anywhere new.
                    if count > min {
                        next.retain(|&p| !seen[p]);
                    }
                    if count > min + n as u32 + 1 {
                        break;
                    }
                    current = next;
                }
                result.sort_unstable();
                result
            }
            Node::Look {
                ahead,
                negate,
                node,
            } => {
                let found = if ahead {
                    !self.ends(node, pos).is_empty()
                } else {
                    // Only the starts the body's width allows.
                    let (min, max) = self.tree.width(node);
                    let nearest = pos.checked_sub(min);
                    let farthest = max.map_or(0, |m| pos.saturating_sub(m));
                    nearest.is_some_and(|nearest| {
                        (farthest..=nearest)
                            .rev()
                            .any(|st| self.ends(node, st).contains(&pos))
                    })
                };
                if found != negate { vec![pos] } else { vec![] }
            }
        };
        self.memo.insert((i, pos), result.clone());
        result
    }
}

fn contains(class: &ClassUnicode, c: char) -> bool {
    class
        .ranges()
        .binary_search_by(|r| {
            if r.end() < c {
                std::cmp::Ordering::Less
            } else if r.start() > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}
