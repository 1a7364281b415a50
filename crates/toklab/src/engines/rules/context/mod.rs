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

use regex::Regex;

mod class;
mod eval;
mod parse;
mod tree;

use eval::{Eval, View};
use parse::Parser;
use tree::{Node, Tree};

/// Which slot a condition comes from: it decides how the value is pasted into a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContextKind {
    /// `::left-context`: must match the text before.
    Left,
    /// `::left-context-not`: must not match the text before.
    LeftNot,
    /// `::right-context`: must match the text after.
    Right,
    /// `::right-context-not`: must not match the text after.
    RightNot,
}

impl ContextKind {
    /// The slot's name in rule files (for messages).
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

    /// Whether the condition looks at the text left of the candidate.
    pub fn is_left(self) -> bool {
        matches!(self, ContextKind::Left | ContextKind::LeftNot)
    }
}

/// A compiled context condition.
#[derive(Debug)]
pub struct Context {
    /// The slot value as written.
    pub source: String,
    /// The slot it came from, which decides where it looks.
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
    /// What is wrong.
    pub message: String,
    /// Character index in the value, when the problem has a place.
    pub at: Option<usize>,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompileError {}

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
                let view = View::new(text, ends_at_end.is_some());
                let found = !Eval::new(tree, view).ends(tree.root, 0).is_empty();
                found != ends_at_end.unwrap_or(false)
            }
        }
    }

    /// Whether the condition needed the position-set evaluation (shown by the lint).
    pub fn uses_look_around(&self) -> bool {
        matches!(self.matcher, Matcher::Eval { .. })
    }
}

fn build(pattern: &str) -> Result<Regex, CompileError> {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 22)
        .build()
        .map_err(|e| {
            CompileError::from(format!("does not compile: {}", first_line(&e.to_string())))
        })
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
    fn look_arounds_read_multibyte_text_in_place() {
        use ContextKind::*;
        // Arabic-Indic digits are `\d` and two bytes each; the look-behind reads backwards.
        assert!(holds(Left, r"(?<!\pL|\d)\d+", "on ١٢٣"));
        assert!(!holds(Left, r"(?<!\pL|\d)\d+", "é١٢٣"));
        assert!(holds(Right, r"é(?<=\pL)x(?!\w)", "éx."));
        assert!(!holds(Right, r"é(?<=\pL)x(?!\w)", "éxé"));
        assert!(holds(Right, r"\bé(?<!\d)", "é "));
    }

    /// A look-behind after a run of digits keeps results only for the parts of the pattern
    /// that repeat (the whole pattern and its `\d+`), not for every part at every position,
    /// which would cost ~600 bytes a character.
    #[test]
    fn look_around_state_grows_with_the_parts_that_repeat() {
        let context = Context::compile(ContextKind::Left, r"(?<!\pL|\d|[-_])\d+").unwrap();
        let Matcher::Eval { tree, .. } = &context.matcher else {
            panic!("not evaluated by position sets");
        };
        let text = format!("on {}", "7".repeat(20_000));
        let mut eval = Eval::new(tree, View::new(&text, true));
        assert!(!eval.ends(tree.root, 0).is_empty());
        assert!(eval.memo_len() <= 2, "{} results kept", eval.memo_len());
        assert!(context.holds(&text));
        assert!(!context.holds(&format!("x{}", "7".repeat(20_000))));
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
