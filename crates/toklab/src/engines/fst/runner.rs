//! Algorithm 1 of the paper, as Datok runs it: longest match by remembering the last state with
//! an ε:boundary edge, going back to it when a character cannot be read, a forced token and a
//! restart when there is nowhere to go back to, and Datok's handling of the text's end.
//!
//! Positions are byte offsets into the original text, so no buffer limits the token length
//! (Datok's 1,024-rune buffer overflows) and every token is a span of the input.

use super::alphabet::{Alphabet, IDENTITY, NO_SYMBOL, Sym, UNKNOWN};
use super::trace::FstStep;
use crate::core::token::{Origin, Span, Token, TokenKind, Tokenization};
use crate::core::trace::Observer;

/// The flag a transition result carries when the edge deletes the character.
pub const DELETES: u32 = 1 << 31;
/// The flag a transition result carries when its target has an ε:boundary edge (for
/// representations with [`Transitions::CARRIES_BOUNDARY_FLAG`]).
pub const LEADS_TO_BOUNDARY: u32 = 1 << 30;
/// The state in a transition result, below the flags.
pub const STATE: u32 = (1 << 30) - 1;

/// The end-of-text character: Datok's grammars delete it; reading it ends a text.
const END_OF_TEXT: u8 = 0x04;

/// What the runner needs of a representation. States are the representation's own numbers;
/// a result is the target state, `| DELETES` for a deletion, `0` for no edge.
pub trait Transitions {
    /// Whether results (and `start`) carry [`LEADS_TO_BOUNDARY`], so the runner need not ask
    /// [`Transitions::has_boundary`] before each character.
    const CARRIES_BOUNDARY_FLAG: bool = false;
    /// The start state.
    fn start(&self) -> u32;
    /// The edge of `state` for `symbol`: target, flags, or 0.
    fn step(&self, state: u32, symbol: Sym) -> u32;
    /// The target of the state's ε:boundary edge, or 0.
    fn boundary(&self, state: u32) -> u32;
    /// Whether the state has an ε:boundary edge: asked before every character, so
    /// representations answer it without touching the edge itself.
    fn has_boundary(&self, state: u32) -> bool {
        self.boundary(state) != 0
    }
    /// The network's number of a state of this representation (for tokens and traces).
    fn network_state(&self, state: u32) -> u32;
}

/// How a character found its edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// Its own symbol.
    Char,
    /// Outside the alphabet: the identity symbol `?`.
    Identity,
    /// Outside the alphabet, the identity failed: `@_UNKNOWN_SYMBOL_@`.
    Unknown,
}

/// Where a run's tokens and sentence ends go: token objects, or Datok's stream written
/// straight away (`tokenize -f datok` needs no token objects).
pub(crate) trait Sink {
    /// Whether [`Sink::token`] uses its `state`: finding a state's network number costs a
    /// division in the matrix, which a sink that drops it should not pay.
    const WANTS_STATE: bool = true;
    /// A token over `start..end` of the text, emitted in network state `state`; `forced`
    /// when no boundary edge ended it.
    fn token(&mut self, start: usize, end: usize, state: u32, forced: bool);
    /// A sentence ends after the last token; two in a row (or one before any token) mark
    /// nothing more.
    fn sentence_end(&mut self);
    /// Whether the last thing emitted was a sentence end (Datok's `sentenceEnd`).
    fn sentence_closed(&self) -> bool;
}

/// Collects tokens and sentence ends as Datok emits them.
struct Output<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    sentence_ends: Vec<usize>,
    sentence_closed: bool,
}

impl Sink for Output<'_> {
    fn token(&mut self, start: usize, end: usize, state: u32, forced: bool) {
        let span = Span::new(start, end);
        let kind = if forced {
            TokenKind::Unknown
        } else {
            surface_kind(span.slice(self.text))
        };
        self.tokens
            .push(Token::new(span, kind).with_origin(Origin::Automaton { state, forced }));
        self.sentence_closed = false;
    }

    fn sentence_end(&mut self) {
        if let Some(last) = self.tokens.len().checked_sub(1)
            && self.sentence_ends.last() != Some(&last)
        {
            self.sentence_ends.push(last);
        }
        self.sentence_closed = true;
    }

    fn sentence_closed(&self) -> bool {
        self.sentence_closed
    }
}

/// How a [`Stream`] writes a text's tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamFormat {
    /// Datok's stream: a token per line, an empty line after each sentence, one more at the
    /// text's end (as `-f datok` writes a [`Tokenization`]).
    Datok,
    /// The forms separated by spaces, then a newline (as `-f text` writes one).
    Text,
    /// Nothing: only the tokens are counted (`-f ids`, where each is a token without an id).
    Count,
}

/// A text's tokens written to a buffer as the automaton finds them, with no token objects: a
/// huge line costs its text and its output, never 72 bytes a token.
pub(crate) struct Stream<'o> {
    pub(crate) text: &'o str,
    pub(crate) out: &'o mut Vec<u8>,
    pub(crate) format: StreamFormat,
    pub(crate) tokens: usize,
    pub(crate) sentence_closed: bool,
}

impl Sink for Stream<'_> {
    const WANTS_STATE: bool = false;

    #[inline]
    fn token(&mut self, start: usize, end: usize, _state: u32, _forced: bool) {
        let form = &self.text.as_bytes()[start..end];
        match self.format {
            StreamFormat::Datok => {
                self.out.extend_from_slice(form);
                self.out.push(b'\n');
            }
            StreamFormat::Text => {
                if self.tokens > 0 {
                    self.out.push(b' ');
                }
                self.out.extend_from_slice(form);
            }
            StreamFormat::Count => {}
        }
        self.tokens += 1;
        self.sentence_closed = false;
    }

    fn sentence_end(&mut self) {
        if self.format == StreamFormat::Datok && self.tokens > 0 && !self.sentence_closed {
            self.out.push(b'\n');
        }
        self.sentence_closed = true;
    }

    fn sentence_closed(&self) -> bool {
        self.sentence_closed
    }
}

impl Stream<'_> {
    /// Ends the text's record (Datok closes a sentence even when the text had no token);
    /// returns how many tokens the text had.
    pub(crate) fn finish(self) -> usize {
        match self.format {
            StreamFormat::Datok if self.tokens == 0 => self.out.extend_from_slice(b"\n\n"),
            StreamFormat::Datok | StreamFormat::Text => self.out.push(b'\n'),
            StreamFormat::Count => {}
        }
        self.tokens
    }
}

/// Tokenizes `text` with the automaton `fsa` over `alphabet`, reporting each step to `observer`.
pub fn run<T: Transitions, O: Observer<FstStep>>(
    fsa: &T,
    alphabet: &Alphabet,
    text: &str,
    observer: &mut O,
) -> Tokenization {
    let mut out = Output {
        text,
        tokens: Vec::with_capacity(text.len() / 4 + 1),
        sentence_ends: Vec::new(),
        sentence_closed: false,
    };
    run_into(fsa, alphabet, text, observer, &mut out);
    Tokenization {
        tokens: out.tokens,
        sentence_ends: out.sentence_ends,
    }
}

/// Runs the automaton over `text`, handing its tokens and sentence ends to `sink`: a text
/// ends a sentence.
pub(crate) fn run_into<T: Transitions, O: Observer<FstStep>, S: Sink>(
    fsa: &T,
    alphabet: &Alphabet,
    text: &str,
    observer: &mut O,
    sink: &mut S,
) {
    let start = fsa.start() & STATE;
    let start_has_boundary = has_boundary(fsa, fsa.start());
    let mut run = Run {
        fsa,
        alphabet,
        text,
        bytes: text.as_bytes(),
        observer,
        out: sink,
        start,
        start_has_boundary,
        state: start,
        here_boundary: start_has_boundary,
        pos: 0,
        token: 0,
        memo_state: 0,
        memo_pos: 0,
    };
    loop {
        if run.pos < run.bytes.len() {
            run.read();
        } else if !run.at_input_end() {
            break;
        }
    }
    run.finish();
}

/// One run of the automaton over a text: where it is, and Datok's buffer positions as byte
/// offsets.
struct Run<'a, T, O, S> {
    fsa: &'a T,
    alphabet: &'a Alphabet,
    text: &'a str,
    bytes: &'a [u8],
    observer: &'a mut O,
    out: &'a mut S,
    start: u32,
    start_has_boundary: bool,
    state: u32,
    /// Whether `state` has an ε:boundary edge.
    here_boundary: bool,
    /// The next character.
    pos: usize,
    /// Where the pending token starts (after whitespace deleted at its front).
    token: usize,
    /// The remembered point: a state with an ε:boundary edge (0 = none) and where it was.
    memo_state: u32,
    memo_pos: usize,
}

impl<T: Transitions, O: Observer<FstStep>, S: Sink> Run<'_, T, O, S> {
    /// Reads the character at `pos`: along its edge, or, without one, back to the remembered
    /// point, past deleted whitespace, or as a forced token.
    #[inline(always)]
    fn read(&mut self) {
        let (symbol, len) = symbol_at(self.alphabet, self.text, self.bytes, self.pos);
        if self.here_boundary {
            self.memo_state = self.state;
            self.memo_pos = self.pos;
            self.observer.observe(FstStep::Remember {
                at: self.pos,
                state: self.fsa.network_state(self.state),
            });
        }
        let (next, via) = self.edge(symbol);
        if next != 0 {
            self.follow(next, len, via);
        } else {
            self.no_edge(len);
        }
    }

    /// The edge of the current state for `symbol` (0 for none), and how it was found.
    #[inline(always)]
    fn edge(&self, symbol: Sym) -> (u32, Via) {
        if symbol != NO_SYMBOL {
            return (self.fsa.step(self.state, symbol), Via::Char);
        }
        let next = self.fsa.step(self.state, IDENTITY);
        if next != 0 {
            return (next, Via::Identity);
        }
        (self.fsa.step(self.state, UNKNOWN), Via::Unknown)
    }

    /// Follows the edge `next` over the `len` bytes at `pos`.
    #[inline(always)]
    fn follow(&mut self, next: u32, len: usize, via: Via) {
        let target = next & STATE;
        let deletion = next & DELETES != 0;
        let at_token_start = self.pos == self.token;
        self.observer.observe(FstStep::Read {
            span: Span::new(self.pos, self.pos + len),
            from: self.fsa.network_state(self.state),
            to: self.fsa.network_state(target),
            deletion,
            dropped: deletion && at_token_start,
            via,
        });
        self.pos += len;
        if deletion && at_token_start {
            self.token = self.pos;
        }
        self.state = target;
        self.here_boundary = has_boundary(self.fsa, next);
        if self.bytes[self.pos - len] == END_OF_TEXT {
            self.text_end(self.pos - len);
        }
    }

    /// The end-of-text character at `end` was read: Datok ends the text here; unlike Datok we
    /// keep the token it closes.
    #[cold]
    fn text_end(&mut self, end: usize) {
        let closed = (end > self.token).then(|| Span::new(self.token, end));
        if let Some(span) = closed {
            let state = self.token_state(self.state);
            self.out.token(span.start, span.end, state, true);
        }
        self.out.sentence_end();
        self.observer.observe(FstStep::TextEnd {
            at: end,
            token: closed,
        });
        self.token = self.pos;
        self.memo_state = 0;
    }

    /// The character of `len` bytes at `pos` has no edge.
    fn no_edge(&mut self, len: usize) {
        self.observer.observe(FstStep::NoEdge {
            span: Span::new(self.pos, self.pos + len),
            state: self.fsa.network_state(self.state),
        });
        if self.memo_state != 0 {
            self.go_back();
            return;
        }
        if self.pos < self.token {
            // Back before whitespace deleted at the front of the (empty) pending token.
            self.observer.observe(FstStep::SkipDeleted {
                span: Span::new(self.pos, self.token),
                state: self.fsa.network_state(self.state),
            });
            self.pos = self.token;
            self.restart();
            return;
        }
        if self.pos == self.token {
            self.pos += len;
        }
        self.forced();
        self.restart();
    }

    /// At the end of the input: follows an ε:boundary edge if there is one, else goes back to
    /// the remembered point to read on from there. False when neither is left.
    fn at_input_end(&mut self) -> bool {
        self.observer.observe(FstStep::InputEnd {
            at: self.pos,
            state: self.fsa.network_state(self.state),
        });
        if self.here_boundary {
            self.state = self.take_boundary(self.state);
            return true;
        }
        if self.memo_state != 0 {
            self.go_back();
            return true;
        }
        false
    }

    /// Takes `from`'s ε:boundary edge at `pos`: ends the pending token, or a sentence. Returns
    /// the state it leads to.
    fn take_boundary(&mut self, from: u32) -> u32 {
        let fsa = self.fsa;
        let to = fsa.boundary(from);
        self.here_boundary = has_boundary(fsa, to);
        let to = to & STATE;
        let (pos, token) = (self.pos, self.token);
        let ended = (pos > token).then(|| Span::new(token, pos));
        if ended.is_some() {
            self.out.token(token, pos, self.token_state(from), false);
            self.token = pos;
            self.memo_state = 0;
        } else {
            self.out.sentence_end();
        }
        self.observer.observe(FstStep::Boundary {
            at: pos,
            from: fsa.network_state(from),
            to: fsa.network_state(to),
            token: ended,
        });
        to
    }

    /// Goes back to the remembered point and takes its ε:boundary edge.
    fn go_back(&mut self) {
        self.observer.observe(FstStep::Backtrack {
            from: self.pos,
            to: self.memo_pos,
            state: self.fsa.network_state(self.memo_state),
        });
        self.pos = self.memo_pos;
        let from = self.memo_state;
        self.memo_state = 0;
        self.state = self.take_boundary(from);
    }

    /// Emits the pending token as it is (nothing to go back to).
    fn forced(&mut self) {
        let state = self.token_state(self.state);
        self.out.token(self.token, self.pos, state, true);
        self.observer.observe(FstStep::Forced {
            token: Span::new(self.token, self.pos),
            state: self.fsa.network_state(self.state),
        });
        self.token = self.pos;
    }

    /// The network number of `state` for a token, if the sink wants it.
    #[inline(always)]
    fn token_state(&self, state: u32) -> u32 {
        if S::WANTS_STATE {
            self.fsa.network_state(state)
        } else {
            0
        }
    }

    fn restart(&mut self) {
        self.state = self.start;
        self.here_boundary = self.start_has_boundary;
    }

    /// Once the input is read: what is left pending is a forced token, and the text ends a
    /// sentence.
    fn finish(mut self) {
        if self.pos > self.token {
            self.forced();
        }
        if !self.out.sentence_closed() {
            self.out.sentence_end();
        }
    }
}

/// Whether the state of `result` (a transition's result, a boundary target or the start) has
/// an ε:boundary edge: from the result's flag when the representation carries it.
#[inline(always)]
fn has_boundary<T: Transitions>(fsa: &T, result: u32) -> bool {
    if T::CARRIES_BOUNDARY_FLAG {
        result & LEADS_TO_BOUNDARY != 0
    } else {
        fsa.has_boundary(result & STATE)
    }
}

/// A token's kind from its surface: automata do not type their tokens, but URLs, addresses,
/// handles, hashtags, abbreviations and clitics have telling shapes; the rest is
/// [`TokenKind::classify`]'s guess. ASCII tokens (most of them) are classified in one pass
/// over their bytes, with the same result as `classify`; this is a third of the tokenizer's
/// time otherwise.
fn surface_kind(surface: &str) -> TokenKind {
    let bytes = surface.as_bytes();
    let (mut letters, mut digits, mut punct, mut other) = (0usize, 0usize, 0usize, 0usize);
    let mut apostrophe = false;
    for &b in bytes {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'-' => letters += 1,
            b'\'' => {
                letters += 1;
                apostrophe = true;
            }
            b'0'..=b'9' => digits += 1,
            b'!'..=b'/' | b':'..=b'@' | b'['..=b'`' | b'{'..=b'~' => punct += 1,
            _ => other += 1,
        }
    }
    if bytes.len() > 1
        && (punct > 0 || other > 0 || apostrophe)
        && let Some(kind) = shaped_kind(surface)
    {
        return kind;
    }
    if other > 0 {
        return TokenKind::classify(surface);
    }
    match (letters, digits) {
        (0, 0) if punct > 0 => TokenKind::Punct,
        (0, 0) => TokenKind::classify(surface),
        (0, _) => TokenKind::Number,
        _ => TokenKind::Word,
    }
}

/// The kinds a token's shape tells: URL, handle, hashtag, e-mail, clitic, abbreviation.
fn shaped_kind(surface: &str) -> Option<TokenKind> {
    let bytes = surface.as_bytes();
    if surface.contains("://") || surface.starts_with("www.") {
        return Some(TokenKind::Url);
    }
    match bytes[0] {
        b'@' => return Some(TokenKind::Handle),
        b'#' => return Some(TokenKind::Hashtag),
        _ => {}
    }
    if let Some(at) = memchr::memchr(b'@', bytes)
        && bytes[at + 1..].contains(&b'.')
    {
        return Some(TokenKind::Email);
    }
    if matches!(bytes[0], b'\'' | b'n' | b'N' | 0xe2) && surface.len() <= 6 {
        let lower = surface.to_lowercase().replace('’', "'");
        if matches!(
            lower.as_str(),
            "'s" | "'d" | "'m" | "'re" | "'ve" | "'ll" | "n't"
        ) {
            return Some(TokenKind::Contraction);
        }
    }
    if bytes[bytes.len() - 1] == b'.' && surface.chars().any(char::is_alphabetic) {
        return Some(TokenKind::Abbreviation);
    }
    None
}

/// The symbol of the character at `pos` and its length in bytes.
#[inline(always)]
fn symbol_at(alphabet: &Alphabet, text: &str, bytes: &[u8], pos: usize) -> (Sym, usize) {
    let b = bytes[pos];
    if b < 0x80 {
        (alphabet.ascii_symbol(b), 1)
    } else {
        let c = text[pos..].chars().next().unwrap_or('\u{fffd}');
        (alphabet.symbol(c), c.len_utf8())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_shapes() {
        let kind = surface_kind;
        assert_eq!(kind("https://x.org/a"), TokenKind::Url);
        assert_eq!(kind("www.x.org"), TokenKind::Url);
        assert_eq!(kind("jo@x.org"), TokenKind::Email);
        assert_eq!(kind("@jo"), TokenKind::Handle);
        assert_eq!(kind("#fst"), TokenKind::Hashtag);
        assert_eq!(kind("n't"), TokenKind::Contraction);
        assert_eq!(kind("’LL"), TokenKind::Contraction);
        assert_eq!(kind("etc."), TokenKind::Abbreviation);
        assert_eq!(kind("."), TokenKind::Punct);
        assert_eq!(kind("nation"), TokenKind::Word);
        assert_eq!(kind("3.14"), TokenKind::Number);
        assert_eq!(kind("Zoë"), TokenKind::Word);
        assert_eq!(kind("«"), TokenKind::Punct);
        assert_eq!(kind("€"), TokenKind::Symbol);
    }

    #[test]
    fn ascii_fast_path_agrees_with_classify() {
        for b in 0u8..128 {
            for text in [
                format!("{}", b as char),
                format!("a{}", b as char),
                format!("1{}", b as char),
                format!("{}{}", b as char, b as char),
            ] {
                if shaped_kind(&text).is_none() {
                    assert_eq!(surface_kind(&text), TokenKind::classify(&text), "{text:?}");
                }
            }
        }
    }
}
