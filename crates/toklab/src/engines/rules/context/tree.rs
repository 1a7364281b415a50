//! The parsed form of a context pattern, and its translation to `regex` crate syntax.

use regex_syntax::hir::{Class, ClassUnicode, HirKind};

use super::{CompileError, first_line};

/// A parsed pattern: nodes in an arena, so the evaluator can memoize by node index.
#[derive(Clone, Debug)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) root: usize,
}

#[derive(Clone, Debug)]
pub(super) enum Node {
    Empty,
    /// A character class or literal character, in `regex` crate syntax (a class or an escaped
    /// character, with `(?i:…)` when case-insensitive).
    Set(String),
    Any {
        dotall: bool,
    },
    Start,
    End,
    WordBoundary {
        negate: bool,
    },
    Concat(Vec<usize>),
    Alt(Vec<usize>),
    Repeat {
        node: usize,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Look {
        ahead: bool,
        negate: bool,
        node: usize,
    },
}

impl Tree {
    pub(super) fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    pub(super) fn is_any_star(&self, i: usize) -> bool {
        matches!(self.nodes[i], Node::Repeat { node, min: 0, max: None, .. }
            if matches!(self.nodes[node], Node::Any { dotall: false }))
    }

    /// The same pattern read backwards (on reversed text): sequences reversed, start and
    /// end swapped, look-behind and look-ahead exchanged.
    pub(super) fn reversed(&self) -> Tree {
        let nodes = self
            .nodes
            .iter()
            .map(|node| match node {
                Node::Start => Node::End,
                Node::End => Node::Start,
                Node::Concat(items) => Node::Concat(items.iter().rev().copied().collect()),
                Node::Look {
                    ahead,
                    negate,
                    node,
                } => Node::Look {
                    ahead: !ahead,
                    negate: *negate,
                    node: *node,
                },
                other => other.clone(),
            })
            .collect();
        Tree {
            nodes,
            root: self.root,
        }
    }

    /// The fewest and most characters node `i` can match (`None`: no bound).
    pub(super) fn width(&self, i: usize) -> (usize, Option<usize>) {
        match &self.nodes[i] {
            Node::Empty
            | Node::Start
            | Node::End
            | Node::WordBoundary { .. }
            | Node::Look { .. } => (0, Some(0)),
            Node::Set(_) | Node::Any { .. } => (1, Some(1)),
            Node::Concat(items) => items.iter().fold((0, Some(0)), |(lo, hi), &n| {
                let (l, h) = self.width(n);
                (lo + l, hi.zip(h).map(|(a, b)| a + b))
            }),
            Node::Alt(items) => items
                .iter()
                .map(|&n| self.width(n))
                .reduce(|(l1, h1), (l2, h2)| (l1.min(l2), h1.zip(h2).map(|(a, b)| a.max(b))))
                .unwrap_or((0, Some(0))),
            Node::Repeat { node, min, max, .. } => {
                let (l, h) = self.width(*node);
                (
                    l.saturating_mul(*min as usize),
                    h.zip(*max).map(|(h, m)| h.saturating_mul(m as usize)),
                )
            }
        }
    }

    pub(super) fn has_look(&self, i: usize) -> bool {
        match &self.nodes[i] {
            Node::Look { .. } => true,
            Node::Concat(items) | Node::Alt(items) => items.iter().any(|&n| self.has_look(n)),
            Node::Repeat { node, .. } => self.has_look(*node),
            _ => false,
        }
    }

    pub(super) fn to_rust(&self, i: usize) -> String {
        match &self.nodes[i] {
            Node::Empty => String::new(),
            Node::Set(s) => s.clone(),
            Node::Any { dotall: false } => ".".into(),
            Node::Any { dotall: true } => "(?s:.)".into(),
            Node::Start => "\\A".into(),
            Node::End => "\\z".into(),
            Node::WordBoundary { negate: false } => "\\b".into(),
            Node::WordBoundary { negate: true } => "\\B".into(),
            Node::Concat(items) => items.iter().map(|&n| self.to_rust(n)).collect(),
            Node::Alt(items) => format!(
                "(?:{})",
                items
                    .iter()
                    .map(|&n| self.to_rust(n))
                    .collect::<Vec<_>>()
                    .join("|")
            ),
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                let inner = self.to_rust(*node);
                let quant = match max {
                    None => format!("{{{min},}}"),
                    Some(max) => format!("{{{min},{max}}}"),
                };
                format!("(?:{inner}){quant}{}", if *greedy { "" } else { "?" })
            }
            Node::Look { .. } => unreachable!("look-around is evaluated, not translated"),
        }
    }

    /// Checks that every class compiles (done up front so a broken class is a load error, not
    /// a silent non-match).
    pub(super) fn check_classes(&self) -> Result<(), CompileError> {
        for node in &self.nodes {
            if let Node::Set(s) = node {
                class_of(s)?;
            }
        }
        Ok(())
    }
}

/// The character set a `Set` node denotes.
pub(super) fn class_of(syntax: &str) -> Result<ClassUnicode, CompileError> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(syntax)
        .map_err(|e| {
            CompileError::from(format!("does not compile: {}", first_line(&e.to_string())))
        })?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Ok(c.clone()),
        HirKind::Literal(lit) => {
            let s = String::from_utf8_lossy(&lit.0).into_owned();
            let c = s.chars().next().unwrap_or('\0');
            Ok(ClassUnicode::new([
                regex_syntax::hir::ClassUnicodeRange::new(c, c),
            ]))
        }
        _ => Err(format!("`{syntax}` is not a character set").into()),
    }
}
