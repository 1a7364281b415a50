//! Parsing Python `regex` syntax (VERSION1): groups, look-arounds, repetition (with `{,n}`),
//! escapes and inline flags. Character classes are in [`super::class`].

use super::CompileError;
use super::tree::{Node, Tree};

/// Parses Python `regex` syntax (VERSION1) into a [`Tree`].
pub(super) struct Parser<'a> {
    pub(super) chars: Vec<char>,
    pub(super) pos: usize,
    pub(super) tree: Tree,
    pub(super) ci: bool,
    pub(super) dotall: bool,
    pub(super) verbose: bool,
    pub(super) _source: &'a str,
}

impl<'a> Parser<'a> {
    pub(super) fn new(source: &'a str) -> Parser<'a> {
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
    pub(super) fn parse(mut self) -> Result<Tree, (String, usize)> {
        let root = self.alternation().map_err(|e| (e.message, self.pos))?;
        if self.pos < self.chars.len() {
            return Err(("unbalanced `)`".into(), self.pos));
        }
        self.tree.root = root;
        Ok(self.tree)
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    pub(super) fn err<T>(&self, what: &str) -> Result<T, CompileError> {
        Err(CompileError::from(what.to_string()))
    }

    fn alternation(&mut self) -> Result<usize, CompileError> {
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

    fn concat(&mut self) -> Result<usize, CompileError> {
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

    fn quantified(&mut self, atom: usize) -> Result<usize, CompileError> {
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

    fn atom(&mut self) -> Result<Option<usize>, CompileError> {
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

    fn group(&mut self) -> Result<Option<usize>, CompileError> {
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

    fn group_body(&mut self) -> Result<usize, CompileError> {
        let inner = self.alternation()?;
        if !self.eat(')') {
            return self.err("missing `)`");
        }
        Ok(inner)
    }

    fn escape(&mut self) -> Result<usize, CompileError> {
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
    pub(super) fn property_name(&mut self) -> Result<String, CompileError> {
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
    pub(super) fn escaped_char(&mut self, c: char) -> Result<char, CompileError> {
        let hex = |p: &mut Self, n: usize| -> Result<char, CompileError> {
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
}
