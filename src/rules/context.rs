//! Context conditions (`::left-context`, `::right-context` and their `-not` forms): Python
//! `regex` patterns (VERSION1) read from rule files, run here on the `regex` crate.
//!
//! utoken builds one pattern per slot by pasting the value into a template and matching it at
//! the start of the context text: `.*X$` on the text left of a candidate token, `X` on the text
//! right of it, `.*(?<!X)$` and `(?!X)` for the negative forms. This module parses the same
//! pasted pattern with Python's syntax (set operations such as `[\p{Latin}&&\p{Letter}]`,
//! `{,n}`, escapes) and translates it to the `regex` crate, which runs in linear time, so a
//! rule file cannot make the tool hang. The crate has no look-around; where a pattern uses one
//! (a variable-length look-behind in `::left-context-not`, a `(?!\d)` inside a right context),
//! the pattern is evaluated by its meaning instead: the sets of positions each part can reach,
//! which is exact for any pattern without back-references and stays polynomial.

use std::collections::HashMap;

use regex::Regex;
use regex_syntax::hir::{Class, ClassUnicode, HirKind};

/// Which slot a condition comes from: it decides how the value is pasted into a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContextKind {
    Left,
    LeftNot,
    Right,
    RightNot,
}

impl ContextKind {
    pub fn slot(self) -> &'static str {
        match self {
            ContextKind::Left => "left-context",
            ContextKind::LeftNot => "left-context-not",
            ContextKind::Right => "right-context",
            ContextKind::RightNot => "right-context-not",
        }
    }

    /// How many characters of utoken's pattern come before the value.
    fn prefix_len(self) -> usize {
        match self {
            ContextKind::Left => 2,
            ContextKind::LeftNot => 6,
            ContextKind::Right => 0,
            ContextKind::RightNot => 3,
        }
    }

    /// utoken's pattern for a slot value.
    fn template(self, value: &str) -> String {
        match self {
            ContextKind::Left => format!(".*{value}$"),
            ContextKind::LeftNot => format!(".*(?<!{value})$"),
            ContextKind::Right => value.to_string(),
            ContextKind::RightNot => format!("(?!{value})"),
        }
    }

    pub fn is_left(self) -> bool {
        matches!(self, ContextKind::Left | ContextKind::LeftNot)
    }
}

/// A compiled context condition.
#[derive(Debug)]
pub struct Context {
    /// The slot value as written.
    pub source: String,
    pub kind: ContextKind,
    matcher: Matcher,
}

#[derive(Debug)]
enum Matcher {
    /// No look-around: the crate runs the whole pattern, anchored at the start.
    Anchored(Regex),
    /// `.*X$` / `.*(?<!X)$` with a look-around-free X: whether X matches ending at the end.
    EndsAtEnd { re: Regex, negate: bool },
    /// Patterns with look-around, evaluated by position sets. With `ends_at_end` (the `.*X$`
    /// forms, `Some(negate)`), `tree` is X reversed and runs on the reversed text from its
    /// start: "X matches ending at the end", found without trying every start.
    Eval {
        tree: Tree,
        ends_at_end: Option<bool>,
    },
}

/// Why a slot value does not compile, and where in the value (a character index) when the
/// problem has a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub message: String,
    pub at: Option<usize>,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for CompileError {
    fn from(message: String) -> Self {
        CompileError { message, at: None }
    }
}

impl Context {
    /// Compiles a slot value.
    pub fn compile(kind: ContextKind, value: &str) -> Result<Context, CompileError> {
        if let Some((message, at)) = raw_string_problem(value) {
            return Err(CompileError {
                message,
                at: Some(at),
            });
        }
        let pattern = kind.template(value);
        let value_len = value.chars().count();
        let tree = Parser::new(&pattern)
            .parse()
            .map_err(|(message, pos)| CompileError {
                message,
                at: Some(pos.saturating_sub(kind.prefix_len()).min(value_len)),
            })?;
        let matcher = match (kind, tree.nodes.get(tree.root)) {
            (ContextKind::Left, Some(Node::Concat(items)))
                if items.len() >= 2
                    && tree.is_any_star(items[0])
                    && matches!(tree.nodes[*items.last().unwrap()], Node::End) =>
            {
                let middle = &items[1..items.len() - 1];
                if middle.iter().any(|&n| tree.has_look(n)) {
                    let mut tree = tree.clone();
                    let root = tree.push(Node::Concat(middle.to_vec()));
                    tree.root = root;
                    tree.check_classes()?;
                    Matcher::Eval {
                        tree: tree.reversed(),
                        ends_at_end: Some(false),
                    }
                } else {
                    let body: String = middle.iter().map(|&n| tree.to_rust(n)).collect();
                    Matcher::EndsAtEnd {
                        re: build(&format!("(?:{body})\\z"))?,
                        negate: false,
                    }
                }
            }
            (ContextKind::LeftNot, Some(Node::Concat(items)))
                if items.len() == 3
                    && tree.is_any_star(items[0])
                    && matches!(tree.nodes[items[2]], Node::End)
                    && matches!(
                        tree.nodes[items[1]],
                        Node::Look {
                            ahead: false,
                            negate: true,
                            ..
                        }
                    ) =>
            {
                let Node::Look { node: inner, .. } = tree.nodes[items[1]] else {
                    unreachable!()
                };
                if tree.has_look(inner) {
                    let mut tree = tree.clone();
                    tree.root = inner;
                    tree.check_classes()?;
                    Matcher::Eval {
                        tree: tree.reversed(),
                        ends_at_end: Some(true),
                    }
                } else {
                    Matcher::EndsAtEnd {
                        re: build(&format!("(?:{})\\z", tree.to_rust(inner)))?,
                        negate: true,
                    }
                }
            }
            _ if !tree.has_look(tree.root) => {
                Matcher::Anchored(build(&format!("\\A(?:{})", tree.to_rust(tree.root)))?)
            }
            _ => {
                tree.check_classes()?;
                Matcher::Eval {
                    tree,
                    ends_at_end: None,
                }
            }
        };
        Ok(Context {
            source: value.to_string(),
            kind,
            matcher,
        })
    }

    /// Whether the condition holds for the context text (the sentence left of the candidate
    /// for left contexts, right of it for right contexts).
    pub fn holds(&self, text: &str) -> bool {
        match &self.matcher {
            Matcher::Anchored(re) => re.is_match(text),
            Matcher::EndsAtEnd { re, negate } => re.is_match(text) != *negate,
            Matcher::Eval { tree, ends_at_end } => {
                let mut chars: Vec<char> = text.chars().collect();
                if ends_at_end.is_some() {
                    chars.reverse();
                }
                let found = !Eval::new(tree, &chars).ends(tree.root, 0).is_empty();
                found != ends_at_end.unwrap_or(false)
            }
        }
    }

    /// Whether the condition needed the position-set evaluation (shown by the lint).
    pub fn uses_look_around(&self) -> bool {
        matches!(self.matcher, Matcher::Eval { .. })
    }
}

fn build(pattern: &str) -> Result<Regex, String> {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| format!("does not compile: {}", first_line(&e.to_string())))
}

fn first_line(s: &str) -> String {
    s.lines().last().unwrap_or(s).trim().to_string()
}

/// utoken reads a value as the body of a Python raw string literal (`r"…"`): a bare `"` ends
/// it and an odd number of trailing backslashes leaves it open, both fatal to utoken.
fn raw_string_problem(value: &str) -> Option<(String, usize)> {
    let mut backslashes = 0;
    let mut count = 0;
    for (i, c) in value.chars().enumerate() {
        count = i + 1;
        if c == '"' && backslashes % 2 == 0 {
            return Some((
                "has an unescaped `\"` (utoken reads the value as a raw string literal)".into(),
                i,
            ));
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    if backslashes % 2 == 1 {
        return Some(("ends with a lone backslash".into(), count - 1));
    }
    None
}

/// A parsed pattern: nodes in an arena, so the evaluator can memoize by node index.
#[derive(Clone, Debug)]
struct Tree {
    nodes: Vec<Node>,
    root: usize,
}

#[derive(Clone, Debug)]
enum Node {
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
    fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn is_any_star(&self, i: usize) -> bool {
        matches!(self.nodes[i], Node::Repeat { node, min: 0, max: None, .. }
            if matches!(self.nodes[node], Node::Any { dotall: false }))
    }

    /// The same pattern read backwards (on reversed text): sequences reversed, start and
    /// end swapped, look-behind and look-ahead exchanged.
    fn reversed(&self) -> Tree {
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
    fn width(&self, i: usize) -> (usize, Option<usize>) {
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

    fn has_look(&self, i: usize) -> bool {
        match &self.nodes[i] {
            Node::Look { .. } => true,
            Node::Concat(items) | Node::Alt(items) => items.iter().any(|&n| self.has_look(n)),
            Node::Repeat { node, .. } => self.has_look(*node),
            _ => false,
        }
    }

    fn to_rust(&self, i: usize) -> String {
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
    fn check_classes(&self) -> Result<(), String> {
        for node in &self.nodes {
            if let Node::Set(s) = node {
                class_of(s)?;
            }
        }
        Ok(())
    }
}

/// The character set a `Set` node denotes.
fn class_of(syntax: &str) -> Result<ClassUnicode, String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(syntax)
        .map_err(|e| format!("does not compile: {}", first_line(&e.to_string())))?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Ok(c.clone()),
        HirKind::Literal(lit) => {
            let s = String::from_utf8_lossy(&lit.0).into_owned();
            let c = s.chars().next().unwrap_or('\0');
            Ok(ClassUnicode::new([
                regex_syntax::hir::ClassUnicodeRange::new(c, c),
            ]))
        }
        _ => Err(format!("`{syntax}` is not a character set")),
    }
}

/// Parses Python `regex` syntax (VERSION1) into a [`Tree`].
struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    tree: Tree,
    ci: bool,
    dotall: bool,
    verbose: bool,
    _source: &'a str,
}

impl<'a> Parser<'a> {
    fn new(source: &'a str) -> Parser<'a> {
        Parser {
            chars: source.chars().collect(),
            pos: 0,
            tree: Tree {
                nodes: Vec::new(),
                root: 0,
            },
            ci: false,
            dotall: false,
            verbose: false,
            _source: source,
        }
    }

    /// The tree, or what is wrong and the character index in the pattern where it is.
    fn parse(mut self) -> Result<Tree, (String, usize)> {
        let root = self.alternation().map_err(|m| (m, self.pos))?;
        if self.pos < self.chars.len() {
            return Err(("unbalanced `)`".into(), self.pos));
        }
        self.tree.root = root;
        Ok(self.tree)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(what.to_string())
    }

    fn alternation(&mut self) -> Result<usize, String> {
        let saved = (self.ci, self.dotall, self.verbose);
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        (self.ci, self.dotall, self.verbose) = saved;
        Ok(if branches.len() == 1 {
            branches[0]
        } else {
            self.tree.push(Node::Alt(branches))
        })
    }

    fn concat(&mut self) -> Result<usize, String> {
        let mut items = Vec::new();
        loop {
            if self.verbose {
                self.skip_verbose();
            }
            match self.peek() {
                None | Some('|') | Some(')') => break,
                _ => {}
            }
            let Some(atom) = self.atom()? else {
                continue;
            };
            let atom = self.quantified(atom)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => self.tree.push(Node::Empty),
            1 => items[0],
            _ => self.tree.push(Node::Concat(items)),
        })
    }

    fn skip_verbose(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.pos += 1;
            } else if c == '#' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn quantified(&mut self, atom: usize) -> Result<usize, String> {
        let (min, max) = match self.peek() {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => match self.braces() {
                Some(q) => q,
                None => return Ok(atom),
            },
            _ => return Ok(atom),
        };
        if matches!(
            self.tree.nodes[atom],
            Node::Start | Node::End | Node::WordBoundary { .. } | Node::Look { .. }
        ) {
            return self.err("nothing to repeat");
        }
        if max.is_some_and(|max| max < min) {
            return self.err("repetition bounds in the wrong order");
        }
        let greedy = !self.eat('?');
        if self.peek() == Some('+') {
            return self.err("possessive repetition is not supported");
        }
        let node = self.tree.push(Node::Repeat {
            node: atom,
            min,
            max,
            greedy,
        });
        if matches!(self.peek(), Some('*' | '+' | '?')) {
            return self.err("multiple repeat");
        }
        Ok(node)
    }

    /// `{n}`, `{n,}`, `{,m}`, `{n,m}`; anything else leaves `{` a literal.
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let start = self.pos;
        self.pos += 1;
        let number = |p: &mut Self| -> Option<u32> {
            let s = p.pos;
            while p.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.pos += 1;
            }
            (p.pos > s).then(|| {
                p.chars[s..p.pos]
                    .iter()
                    .collect::<String>()
                    .parse()
                    .unwrap_or(u32::MAX)
            })
        };
        let min = number(self);
        let result = if self.eat(',') {
            let max = number(self);
            if self.eat('}') && (min.is_some() || max.is_some()) {
                Some((min.unwrap_or(0), max))
            } else {
                None
            }
        } else if self.eat('}') {
            min.map(|n| (n, Some(n)))
        } else {
            None
        };
        if result.is_none() {
            self.pos = start;
        }
        result
    }

    fn literal(&mut self, c: char) -> usize {
        let mut s = regex_syntax::escape(&c.to_string());
        if self.ci {
            s = format!("(?i:{s})");
        }
        self.tree.push(Node::Set(s))
    }

    fn atom(&mut self) -> Result<Option<usize>, String> {
        let c = self.peek().expect("checked by caller");
        self.pos += 1;
        let node = match c {
            '(' => return self.group(),
            '[' => {
                let class = self.class()?;
                let s = if self.ci {
                    format!("(?i:{class})")
                } else {
                    class
                };
                self.tree.push(Node::Set(s))
            }
            '.' => self.tree.push(Node::Any {
                dotall: self.dotall,
            }),
            '^' => self.tree.push(Node::Start),
            '$' => self.tree.push(Node::End),
            '\\' => return self.escape().map(Some),
            '*' | '+' | '?' => return self.err("nothing to repeat"),
            '{' => {
                // A `{` that does not start a quantifier is a literal.
                self.literal('{')
            }
            c => self.literal(c),
        };
        Ok(Some(node))
    }

    fn group(&mut self) -> Result<Option<usize>, String> {
        if !self.eat('?') {
            return self.group_body().map(Some);
        }
        if self.looking_at("P<")
            || (self.looking_at("<") && !self.looking_at("<=") && !self.looking_at("<!"))
        {
            while self.peek().is_some_and(|c| c != '>') {
                self.pos += 1;
            }
            if !self.eat('>') {
                return self.err("unterminated group name");
            }
            return self.group_body().map(Some);
        }
        if self.eat(':') {
            return self.group_body().map(Some);
        }
        let look = if self.eat('=') {
            Some((true, false))
        } else if self.eat('!') {
            Some((true, true))
        } else if self.looking_at("<=") {
            self.pos += 2;
            Some((false, false))
        } else if self.looking_at("<!") {
            self.pos += 2;
            Some((false, true))
        } else {
            None
        };
        if let Some((ahead, negate)) = look {
            let inner = self.group_body()?;
            return Ok(Some(self.tree.push(Node::Look {
                ahead,
                negate,
                node: inner,
            })));
        }
        if self.eat('#') {
            while self.peek().is_some_and(|c| c != ')') {
                self.pos += 1;
            }
            if !self.eat(')') {
                return self.err("unterminated comment");
            }
            return Ok(None);
        }
        // Inline flags: (?flags) or (?flags:...)
        let saved = (self.ci, self.dotall, self.verbose);
        let mut on = true;
        loop {
            match self.peek() {
                Some('i') => self.ci = on,
                Some('s') => self.dotall = on,
                Some('x') => self.verbose = on,
                Some('m') | Some('u') => {}
                Some('V') => {
                    self.pos += 1;
                    if !matches!(self.peek(), Some('0' | '1')) {
                        return self.err("bad version flag");
                    }
                }
                Some('-') => on = false,
                Some(':') => {
                    self.pos += 1;
                    let inner = self.group_body()?;
                    (self.ci, self.dotall, self.verbose) = saved;
                    return Ok(Some(inner));
                }
                Some(')') => {
                    self.pos += 1;
                    return Ok(None);
                }
                Some(c) => {
                    return self.err(&format!("the group construct `(?{c}` is not supported"));
                }
                None => return self.err("unterminated group"),
            }
            self.pos += 1;
        }
    }

    fn group_body(&mut self) -> Result<usize, String> {
        let inner = self.alternation()?;
        if !self.eat(')') {
            return self.err("missing `)`");
        }
        Ok(inner)
    }

    fn escape(&mut self) -> Result<usize, String> {
        let Some(c) = self.peek() else {
            return self.err("pattern ends with a backslash");
        };
        self.pos += 1;
        let set = |p: &mut Self, s: &str| {
            let s = if p.ci {
                format!("(?i:{s})")
            } else {
                s.to_string()
            };
            p.tree.push(Node::Set(s))
        };
        Ok(match c {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => set(self, &format!("\\{c}")),
            'p' | 'P' => {
                let name = self.property_name()?;
                set(self, &format!("\\{c}{{{name}}}"))
            }
            'b' => self.tree.push(Node::WordBoundary { negate: false }),
            'B' => self.tree.push(Node::WordBoundary { negate: true }),
            'A' => self.tree.push(Node::Start),
            'Z' => self.tree.push(Node::End),
            '1'..='9' | 'g' | 'k' => return self.err("back-references are not supported"),
            'G' | 'K' | 'X' | 'N' | 'm' | 'M' => {
                return self.err(&format!("`\\{c}` is not supported"));
            }
            _ => {
                let ch = self.escaped_char(c)?;
                self.literal(ch)
            }
        })
    }

    /// `\pL` or `\p{Name}`; `Is` prefixes (Python's `\p{IsLatin}`) are dropped.
    fn property_name(&mut self) -> Result<String, String> {
        if self.eat('{') {
            let start = self.pos;
            while self.peek().is_some_and(|c| c != '}') {
                self.pos += 1;
            }
            let name: String = self.chars[start..self.pos].iter().collect();
            if !self.eat('}') {
                return self.err("unterminated property name");
            }
            let name = name
                .strip_prefix("Is")
                .filter(|n| !n.is_empty())
                .unwrap_or(&name);
            Ok(name.to_string())
        } else {
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.pos += 1;
                    Ok(c.to_string())
                }
                _ => self.err("bad property"),
            }
        }
    }

    /// The character an escape stands for (`\n`, `\x41`, `\u00e9`, `\.`, …).
    fn escaped_char(&mut self, c: char) -> Result<char, String> {
        let hex = |p: &mut Self, n: usize| -> Result<char, String> {
            let digits: String = p.chars[p.pos..(p.pos + n).min(p.chars.len())]
                .iter()
                .collect();
            if digits.len() != n || !digits.chars().all(|d| d.is_ascii_hexdigit()) {
                return p.err("bad hexadecimal escape");
            }
            p.pos += n;
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
                .map_or_else(|| p.err("escape is not a character"), Ok)
        };
        Ok(match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'f' => '\x0c',
            'v' => '\x0b',
            'a' => '\x07',
            '0' => {
                let mut value = 0u32;
                let mut n = 0;
                while n < 2 && self.peek().is_some_and(|d| ('0'..='7').contains(&d)) {
                    value = value * 8 + self.peek().unwrap().to_digit(8).unwrap();
                    self.pos += 1;
                    n += 1;
                }
                char::from_u32(value).unwrap_or('\0')
            }
            'x' => hex(self, 2)?,
            'u' => hex(self, 4)?,
            'U' => hex(self, 8)?,
            c if c.is_ascii_alphanumeric() => {
                return self.err(&format!("bad escape `\\{c}`"));
            }
            c => c,
        })
    }

    /// A bracketed class, returned in `regex` crate syntax. VERSION1 set operations (`||`,
    /// `~~`, `&&`, `--`, in increasing precedence) become explicitly nested classes.
    fn class(&mut self) -> Result<String, String> {
        let negate = self.eat('^');
        let body = self.class_union(true)?;
        if !self.eat(']') {
            return self.err("unterminated character set");
        }
        Ok(if negate {
            format!("[^{body}]")
        } else {
            format!("[{body}]")
        })
    }

    /// Operators from lowest to highest precedence.
    const OPS: [&'static str; 4] = ["||", "~~", "&&", "--"];

    fn class_union(&mut self, first: bool) -> Result<String, String> {
        self.class_op(0, first)
    }

    fn class_op(&mut self, level: usize, first: bool) -> Result<String, String> {
        if level == Self::OPS.len() {
            return self.class_items(first);
        }
        let mut left = self.class_op(level + 1, first)?;
        while self.looking_at(Self::OPS[level]) {
            self.pos += 2;
            let right = self.class_op(level + 1, false)?;
            left = match Self::OPS[level] {
                "||" => format!("[{left}][{right}]"),
                op => format!("[{left}]{op}[{right}]"),
            };
        }
        Ok(left)
    }

    /// Juxtaposed items: characters, ranges, escapes, nested sets.
    fn class_items(&mut self, first: bool) -> Result<String, String> {
        let mut out = String::new();
        let mut first = first;
        loop {
            let Some(c) = self.peek() else {
                return self.err("unterminated character set");
            };
            if c == ']' && !first {
                break;
            }
            if Self::OPS.iter().any(|op| self.looking_at(op)) {
                break;
            }
            first = false;
            if c == '[' {
                if self.looking_at("[:") {
                    let end = self.chars[self.pos..]
                        .windows(2)
                        .position(|w| w == [':', ']']);
                    if let Some(end) = end {
                        let name: String =
                            self.chars[self.pos + 2..self.pos + end].iter().collect();
                        self.pos += end + 2;
                        out.push_str(&format!("[:{name}:]"));
                        continue;
                    }
                }
                self.pos += 1;
                let nested = self.class_nested()?;
                out.push_str(&nested);
                continue;
            }
            self.pos += 1;
            let low = if c == '\\' {
                match self.class_escape()? {
                    ClassAtom::Char(ch) => ch,
                    ClassAtom::Set(s) => {
                        out.push_str(&s);
                        continue;
                    }
                }
            } else {
                c
            };
            if self.peek() == Some('-')
                && !self.looking_at("--")
                && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']')
            {
                self.pos += 1;
                let hc = self.peek().expect("checked");
                self.pos += 1;
                let high = if hc == '\\' {
                    match self.class_escape()? {
                        ClassAtom::Char(ch) => ch,
                        ClassAtom::Set(_) => return self.err("bad range"),
                    }
                } else {
                    hc
                };
                if high < low {
                    return self.err("bad character range");
                }
                out.push_str(&format!("{}-{}", class_char(low), class_char(high)));
            } else {
                out.push_str(&class_char(low));
            }
        }
        Ok(out)
    }

    fn class_nested(&mut self) -> Result<String, String> {
        let negate = self.eat('^');
        let body = self.class_union(true)?;
        if !self.eat(']') {
            return self.err("unterminated character set");
        }
        Ok(if negate {
            format!("[^{body}]")
        } else {
            format!("[{body}]")
        })
    }

    fn class_escape(&mut self) -> Result<ClassAtom, String> {
        let Some(c) = self.peek() else {
            return self.err("unterminated character set");
        };
        self.pos += 1;
        Ok(match c {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => ClassAtom::Set(format!("\\{c}")),
            'p' | 'P' => {
                let name = self.property_name()?;
                ClassAtom::Set(format!("\\{c}{{{name}}}"))
            }
            'b' => ClassAtom::Char('\x08'),
            _ => ClassAtom::Char(self.escaped_char(c)?),
        })
    }
}

enum ClassAtom {
    Char(char),
    Set(String),
}

/// A character inside a `regex` crate class, escaped when it could be read as syntax.
fn class_char(c: char) -> String {
    match c {
        '\\' | '[' | ']' | '^' | '-' | '&' | '~' => format!("\\{c}"),
        c if c.is_control() || c.is_whitespace() => format!("\\x{{{:x}}}", c as u32),
        c => c.to_string(),
    }
}

/// Position-set evaluation of a tree on one text.
struct Eval<'t> {
    tree: &'t Tree,
    chars: &'t [char],
    memo: HashMap<(usize, usize), Vec<usize>>,
    classes: HashMap<usize, ClassUnicode>,
}

impl<'t> Eval<'t> {
    fn new(tree: &'t Tree, chars: &'t [char]) -> Self {
        Eval {
            tree,
            chars,
            memo: HashMap::new(),
            classes: HashMap::new(),
        }
    }

    /// Every position where node `i` can end when it starts at `pos`, ascending.
    fn ends(&mut self, i: usize, pos: usize) -> Vec<usize> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(kind: ContextKind, value: &str, text: &str) -> bool {
        Context::compile(kind, value)
            .unwrap_or_else(|e| panic!("{value}: {e}"))
            .holds(text)
    }

    #[test]
    fn left_context_ends_at_the_end() {
        use ContextKind::*;
        assert!(holds(Left, r"(?:\pL\pM*|\d)", "see 3"));
        assert!(!holds(Left, r"(?:\pL\pM*|\d)", "see 3 "));
        assert!(holds(LeftNot, r"\p{Lu}\.\s*", "Mr. smith"));
        assert!(!holds(LeftNot, r"\p{Lu}\.\s*", "Mr. smith J. "));
        assert!(holds(Left, r"[\p{Latin}&&\p{Letter}]{2}", "ab"));
        assert!(!holds(Left, r"[\p{Latin}&&\p{Letter}]{2}", "aб"));
    }

    #[test]
    fn top_level_alternation_pastes_like_utoken() {
        // `.*a|b$` : "contains a", or "is exactly b".
        assert!(holds(ContextKind::Left, "a|b", "xax"));
        assert!(holds(ContextKind::Left, "a|b", "b"));
        assert!(!holds(ContextKind::Left, "a|b", "xb"));
    }

    #[test]
    fn look_arounds_are_evaluated() {
        use ContextKind::*;
        assert!(holds(Right, r"(?:18|19|20)\d\d(?!\d)", "1999 was"));
        assert!(!holds(Right, r"(?:18|19|20)\d\d(?!\d)", "19990"));
        assert!(holds(Right, r"s\s*\)(?!\s*he\b)", "s) hello"));
        assert!(!holds(Right, r"s\s*\)(?!\s*he\b)", "s) he"));
        assert!(holds(Left, r"(?<!\pL|\d|[-_.])\d+", "on 12"));
        assert!(!holds(Left, r"(?<!\pL|\d|[-_.])\d+", "v12"));
        assert!(!holds(Left, r"(?<!\pL|\d|[-_.])\d+", "1.12"));
        assert!(holds(RightNot, r"(?:\pL|\d)", " x"));
        assert!(!holds(RightNot, r"(?:\pL|\d)", "x"));
    }

    #[test]
    fn python_syntax_is_translated() {
        use ContextKind::*;
        assert!(holds(Right, r"\d{,2}x", "12x"));
        assert!(holds(Right, r"[-\/]*\p{Lo}\pM*\p{Lo}", "/中国"));
        assert!(holds(Right, r"a{b", "a{b"));
        assert!(holds(Right, r"[\p{S}--[-=*+<>^|`]]", "€"));
        assert!(!holds(Right, r"[\p{S}--[-=*+<>^|`]]", "+"));
        assert!(holds(Right, r"[\p{P}||[-=*+<>^|`]]", "+"));
        assert!(holds(Right, r"(?i)abc", "ABC"));
        assert!(holds(Right, r"\bet\.?\s*", "et. al"));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let e = Context::compile(ContextKind::Right, "(a")
            .unwrap_err()
            .message;
        assert!(e.contains("missing `)`"), "{e}");
        let e = Context::compile(ContextKind::Right, r"(a)\1")
            .unwrap_err()
            .message;
        assert!(e.contains("back-references"), "{e}");
        let e = Context::compile(ContextKind::Right, "a\"b")
            .unwrap_err()
            .message;
        assert!(e.contains("raw string"), "{e}");
        let e = Context::compile(ContextKind::Right, r"\p{NoSuchThing}")
            .unwrap_err()
            .message;
        assert!(e.contains("does not compile"), "{e}");
        let e = Context::compile(ContextKind::Right, "a**")
            .unwrap_err()
            .message;
        assert!(e.contains("multiple repeat"), "{e}");
    }
}
