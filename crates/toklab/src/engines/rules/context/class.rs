//! Character classes of Python `regex` syntax, with VERSION1 set operations (`||`, `~~`,
//! `&&`, `--`), written out as explicitly nested `regex` crate classes.

use super::CompileError;
use super::parse::Parser;

impl Parser<'_> {
    /// A bracketed class, returned in `regex` crate syntax. VERSION1 set operations (`||`,
    /// `~~`, `&&`, `--`, in increasing precedence) become explicitly nested classes.
    /// (Also for a set nested in a set: the `[` is already read.)
    pub(super) fn class(&mut self) -> Result<String, CompileError> {
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

    fn class_union(&mut self, first: bool) -> Result<String, CompileError> {
        self.class_op(0, first)
    }

    fn class_op(&mut self, level: usize, first: bool) -> Result<String, CompileError> {
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
    fn class_items(&mut self, first: bool) -> Result<String, CompileError> {
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
                let nested = self.class()?;
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

    fn class_escape(&mut self) -> Result<ClassAtom, CompileError> {
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
