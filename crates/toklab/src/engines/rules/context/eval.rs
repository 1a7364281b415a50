//! Position-set evaluation: for each part of a pattern, every position it can end at from a
//! start position. Exact for patterns without back-references, look-arounds included, and
//! polynomial in the text length.
//!
//! The working state grows with the positions the pattern reaches, not with the context text
//! (a table per part and position would take ~600 bytes a character for a look-behind over a
//! long run of digits). Positions
//! are byte offsets into a [`View`] of the text, read forwards or backwards in place, so the
//! text is never copied; only parts that contain a repetition are memoized (the others cost
//! a bound set by the pattern alone at any position); and a repetition remembers the
//! positions it reached in a set of its own, not in a table as long as the text.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use regex_syntax::hir::ClassUnicode;

use super::tree::{Node, Tree, class_of};

/// The positions a part of a pattern can end at, ascending.
type Ends = Rc<[usize]>;

/// A context text read forwards, or backwards (for the `.*X$` forms, run reversed from the
/// end). Positions are byte offsets from where reading starts, so they are always on
/// character boundaries.
#[derive(Clone, Copy)]
pub(super) struct View<'t> {
    text: &'t str,
    reversed: bool,
}

impl<'t> View<'t> {
    pub(super) fn new(text: &'t str, reversed: bool) -> Self {
        View { text, reversed }
    }

    fn len(&self) -> usize {
        self.text.len()
    }

    /// The character read at `pos`, and the position after it.
    fn at(&self, pos: usize) -> Option<(char, usize)> {
        let c = if self.reversed {
            self.text[..self.text.len() - pos].chars().next_back()?
        } else {
            self.text[pos..].chars().next()?
        };
        Some((c, pos + c.len_utf8()))
    }

    /// The character read just before `pos`, and the position before it.
    fn before(&self, pos: usize) -> Option<(char, usize)> {
        let c = if self.reversed {
            self.text[self.text.len() - pos..].chars().next()?
        } else {
            self.text[..pos].chars().next_back()?
        };
        Some((c, pos - c.len_utf8()))
    }
}

/// Position-set evaluation of a tree on one text.
pub(super) struct Eval<'t> {
    tree: &'t Tree,
    text: View<'t>,
    /// Results of the parts that contain a repetition, by (part, start).
    memo: HashMap<(usize, usize), Ends>,
    /// Per part: whether it contains a repetition (look-around bodies included).
    repeats: Vec<bool>,
    classes: HashMap<usize, ClassUnicode>,
}

impl<'t> Eval<'t> {
    pub(super) fn new(tree: &'t Tree, text: View<'t>) -> Self {
        let mut repeats = vec![None; tree.nodes.len()];
        for i in 0..tree.nodes.len() {
            has_repeat(tree, i, &mut repeats);
        }
        Eval {
            tree,
            text,
            memo: HashMap::new(),
            repeats: repeats.into_iter().map(|r| r.unwrap_or(false)).collect(),
            classes: HashMap::new(),
        }
    }

    /// How many results the evaluation keeps (for tests of its working state).
    #[cfg(test)]
    pub(super) fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// Every position where node `i` can end when it starts at `pos`, ascending.
    pub(super) fn ends(&mut self, i: usize, pos: usize) -> Ends {
        if !self.repeats[i] {
            return self.compute(i, pos);
        }
        if let Some(found) = self.memo.get(&(i, pos)) {
            return found.clone();
        }
        let result = self.compute(i, pos);
        self.memo.insert((i, pos), result.clone());
        result
    }

    fn compute(&mut self, i: usize, pos: usize) -> Ends {
        let here = || -> Ends { Rc::from([pos]) };
        let none = || -> Ends { Rc::from([]) };
        let when = |ok: bool| if ok { here() } else { none() };
        match &self.tree.nodes[i] {
            Node::Empty => here(),
            Node::Set(_) => {
                let tree = self.tree;
                let class = self
                    .classes
                    .entry(i)
                    .or_insert_with(|| match &tree.nodes[i] {
                        Node::Set(s) => class_of(s).unwrap_or_else(|_| ClassUnicode::empty()),
                        _ => unreachable!(),
                    });
                match self.text.at(pos) {
                    Some((c, next)) if contains(class, c) => Rc::from([next]),
                    _ => none(),
                }
            }
            Node::Any { dotall } => match self.text.at(pos) {
                Some((c, next)) if *dotall || c != '\n' => Rc::from([next]),
                _ => none(),
            },
            Node::Start => when(pos == 0),
            Node::End => when(pos == self.text.len()),
            Node::WordBoundary { negate } => {
                let word = |c: Option<(char, usize)>| {
                    c.is_some_and(|(c, _)| regex_syntax::is_word_character(c))
                };
                let before = word(self.text.before(pos));
                let after = word(self.text.at(pos));
                when((before != after) != *negate)
            }
            Node::Concat(items) => {
                let mut current = vec![pos];
                for &item in items {
                    let mut next = Vec::new();
                    for p in current {
                        next.extend_from_slice(&self.ends(item, p));
                    }
                    next.sort_unstable();
                    next.dedup();
                    current = next;
                    if current.is_empty() {
                        break;
                    }
                }
                current.into()
            }
            Node::Alt(items) => {
                let mut all = Vec::new();
                for &item in items {
                    all.extend_from_slice(&self.ends(item, pos));
                }
                all.sort_unstable();
                all.dedup();
                all.into()
            }
            &Node::Repeat { node, min, max, .. } => self.repeat(node, min, max, pos),
            &Node::Look {
                ahead,
                negate,
                node,
            } => {
                let found = if ahead {
                    !self.ends(node, pos).is_empty()
                } else {
                    self.look_behind(node, pos)
                };
                when(found != negate)
            }
        }
    }

    /// `node{min,max}` from `pos`: positions reached by each count of repetitions, kept once.
    fn repeat(&mut self, node: usize, min: u32, max: Option<u32>, pos: usize) -> Ends {
        let mut result = Vec::new();
        let mut seen = HashSet::new();
        let mut current = vec![pos];
        let mut count = 0u32;
        loop {
            if count >= min {
                result.extend(current.iter().filter(|&&p| seen.insert(p)));
            }
            if max.is_some_and(|m| count >= m) || current.is_empty() {
                break;
            }
            let mut next = Vec::new();
            for &p in &current {
                next.extend_from_slice(&self.ends(node, p));
            }
            next.sort_unstable();
            next.dedup();
            if next == current {
                // A fixed point (the body matched only the empty string): more repetitions
                // change nothing, whatever the bounds ask for.
                if count < min && max.is_none_or(|m| min <= m) {
                    result.extend(current.iter().filter(|&&p| seen.insert(p)));
                }
                break;
            }
            count += 1;
            // Past the minimum, positions already reported cannot lead anywhere new.
            if count > min {
                next.retain(|p| !seen.contains(p));
            }
            if count as usize > min as usize + self.text.len() + 1 {
                break;
            }
            current = next;
        }
        result.sort_unstable();
        result.into()
    }

    /// Whether `node` matches some text ending at `pos`: tried from the starts its width
    /// allows, nearest first.
    fn look_behind(&mut self, node: usize, pos: usize) -> bool {
        let (min, max) = self.tree.width(node);
        let mut start = Some(pos);
        for _ in 0..min {
            start = start.and_then(|p| self.text.before(p)).map(|(_, p)| p);
            if start.is_none() {
                return false;
            }
        }
        let mut back = min;
        while let Some(st) = start {
            if self.ends(node, st).binary_search(&pos).is_ok() {
                return true;
            }
            if max.is_some_and(|m| back >= m) {
                return false;
            }
            start = self.text.before(st).map(|(_, p)| p);
            back += 1;
        }
        false
    }
}

/// Whether node `i` contains a repetition (filled in `known` for it and the parts below).
fn has_repeat(tree: &Tree, i: usize, known: &mut [Option<bool>]) -> bool {
    if let Some(k) = known[i] {
        return k;
    }
    let found = match &tree.nodes[i] {
        Node::Repeat { .. } => true,
        Node::Concat(items) | Node::Alt(items) => items
            .iter()
            .fold(false, |any, &n| has_repeat(tree, n, known) | any),
        Node::Look { node, .. } => has_repeat(tree, *node, known),
        _ => false,
    };
    known[i] = Some(found);
    found
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
