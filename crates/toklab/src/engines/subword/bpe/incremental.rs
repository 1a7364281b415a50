//! Re-tokenizing after an edit, which the workbench does on every keystroke: only what the
//! edit can change is encoded again.
//!
//! 1. **Pieces.** Encoding is per pre-token, so a piece whose text and place did not change
//!    keeps its old tokens. The pre-tokenizer runs only over a window around the edit: for the
//!    GPT-2, cl100k and o200k patterns a space between two ASCII letters always starts a piece,
//!    whatever comes before it (a letter run ends at the space and the space belongs to the
//!    word after it), and no piece before it looks past it, so the window runs from the last
//!    such space before the edit to the first one after it and everything outside keeps its
//!    tokens. Other pre-tokenizers (a `Split` regex) and models with a special token that
//!    contains a space are cut whole.
//! 2. **A long changed piece** (a minified line, a megabyte of digits, `pattern=none`) goes
//!    through the paper's Algorithm 1 with Remark 3 (`crate::engines::subword::formal::retokenize`): its old
//!    tokens before and after the edit are kept, and only a window around each seam is merged
//!    again. Algorithm 1 works on the merge result itself (before unknown symbols are
//!    resolved), which the old tokens give exactly when their ids spell the piece.
//!
//! The result always equals `tokenize(new)`; property tests check it on the sample models and
//! the real ones.

use super::merge_loop::{NO_ID, Symbol};
use super::model::{BpeModel, PreToken};
use super::tokenizer::piece_tokens;
use crate::core::token::{Span, Token, TokenKind, Tokenization};
use crate::engines::subword::formal::{self, Edit};

/// Changed pieces at least this long are merged again by Algorithm 1 rather than from scratch.
pub const LONG_PIECE: usize = 256;

/// Where a piece of the new text is in the old one, if its text and place are unchanged.
fn old_place(piece: Span, edit: Edit, old_len: usize, new_len: usize) -> Option<Span> {
    if piece.end <= edit.prefix {
        Some(piece)
    } else if piece.start >= new_len - edit.suffix {
        let back = |x: usize| x + old_len - new_len;
        Some(Span::new(back(piece.start), back(piece.end)))
    } else {
        None
    }
}

/// A piece of a window, owned (its bytes are re-read from the text).
#[derive(Clone, Copy, Debug)]
struct Cut {
    span: Span,
    inserted: usize,
    alternative: &'static str,
    special: Option<u32>,
}

impl Cut {
    fn of(pre: &PreToken) -> Cut {
        Cut {
            span: pre.span,
            inserted: pre.inserted,
            alternative: pre.alternative,
            special: pre.special,
        }
    }

    /// The bytes the encoder merges for this piece.
    fn bytes<'t>(&self, text: &'t str, spaced: &'t mut Vec<u8>) -> &'t [u8] {
        let surface = self.span.slice(text).as_bytes();
        if self.inserted == 0 {
            return surface;
        }
        spaced.clear();
        spaced.push(b' ');
        spaced.extend_from_slice(surface);
        spaced
    }
}

/// Whether a space at byte `at` sits between two ASCII letters: a piece boundary for every
/// pattern [`windowed`] accepts.
fn hard_break(text: &[u8], at: usize) -> bool {
    at >= 1
        && at + 1 < text.len()
        && text[at] == b' '
        && text[at - 1].is_ascii_alphabetic()
        && text[at + 1].is_ascii_alphabetic()
}

/// Whether the model's pieces can be cut in a window at hard breaks.
fn windowed(model: &BpeModel) -> bool {
    model.pretok.matcher.is_some()
        && crate::engines::subword::pretok::pattern(&model.pretok.name).is_some()
        && model.specials.iter().all(|(s, _)| !s.contains(' '))
}

/// The window of the new text to cut again: from the last hard break whose surroundings lie
/// in the common prefix to the first one whose surroundings lie in the common suffix.
fn window(new: &[u8], edit: Edit) -> (usize, usize) {
    let before = edit.prefix.saturating_sub(1);
    let start = memchr::memrchr_iter(b' ', &new[..before])
        .find(|&at| hard_break(new, at))
        .unwrap_or(0);
    let from = new.len() - edit.suffix + 1;
    let end = match new.get(from..) {
        Some(rest) => memchr::memchr_iter(b' ', rest)
            .map(|at| from + at)
            .find(|&at| hard_break(new, at))
            .unwrap_or(new.len()),
        None => new.len(),
    };
    (start, end)
}

/// Tokenizes `new`, an edit of `old` whose tokens (by this model) are `old_tokens`.
pub fn retokenize(
    model: &BpeModel,
    old: &str,
    old_tokens: &Tokenization,
    new: &str,
) -> Tokenization {
    if old == new {
        return old_tokens.clone();
    }
    let edit = Edit::between(old.as_bytes(), new.as_bytes());
    let (start, new_end) = if windowed(model) {
        window(new.as_bytes(), edit)
    } else {
        (0, new.len())
    };
    let old_end = new_end + old.len() - new.len();
    let cuts = |text: &str, end: usize| {
        let mut cuts = Vec::new();
        model.pretokenize(text, start..end, &mut |pre| cuts.push(Cut::of(pre)));
        cuts
    };
    let (old_cuts, new_cuts) = (cuts(old, old_end), cuts(new, new_end));
    if old_cuts.iter().chain(&new_cuts).any(|c| c.span.is_empty()) {
        // A piece that is only an inserted space: its tokens cannot be told from the next
        // piece's by their spans.
        return encode_all(model, new);
    }
    let old_all = &old_tokens.tokens;
    let first = old_all.partition_point(|t| t.span.start < start);
    let last = old_all.partition_point(|t| t.span.start < old_end);
    let window = OldWindow {
        text: old,
        cuts: old_cuts,
        tokens: &old_all[first..last],
    };
    if !window.tokens_follow_cuts() {
        // The old tokens are not this model's tokens of the old text.
        return encode_all(model, new);
    }
    let delta = new.len() as isize - old.len() as isize;
    let mut tokens = Vec::with_capacity(old_all.len() + 8);
    tokens.extend_from_slice(&old_all[..first]);
    let mut symbols = Vec::new();
    let (mut spaced, mut old_spaced) = (Vec::new(), Vec::new());
    for cut in &new_cuts {
        if let Some(same) = window.unchanged(cut, edit, new.len()) {
            let by = cut.span.start as isize - same.span.start as isize;
            tokens.extend(window.tokens_of(same.span).iter().map(|t| moved(t, by)));
            continue;
        }
        let bytes = cut.bytes(new, &mut spaced);
        match cut.special {
            Some(id) => symbols = vec![Symbol { id, start: 0 }],
            None => {
                let remerged = window
                    .counterpart(cut, delta)
                    .filter(|_| bytes.len() >= LONG_PIECE)
                    .and_then(|c| {
                        let old_bytes = c.bytes(old, &mut old_spaced);
                        let kept = window.tokens_of(c.span);
                        remerged_tokens(model, new, cut, bytes, c, old_bytes, kept)
                    });
                if let Some(remerged) = remerged {
                    tokens.extend(remerged);
                    continue;
                }
                model.merge_piece(bytes, &mut symbols, &mut |_| {});
            }
        }
        let pre = PreToken {
            span: cut.span,
            bytes,
            inserted: cut.inserted,
            alternative: cut.alternative,
            special: cut.special,
        };
        piece_tokens(model, new, &pre.with_symbols(&symbols), &mut tokens);
    }
    tokens.extend(old_all[last..].iter().map(|t| moved(t, delta)));
    Tokenization::new(tokens)
}

/// `new` encoded from scratch, for edits the window cannot follow.
fn encode_all(model: &BpeModel, new: &str) -> Tokenization {
    let mut tokens = Vec::with_capacity(new.len() / 3);
    model.encode_pieces(new, &mut |piece| {
        piece_tokens(model, new, piece, &mut tokens)
    });
    Tokenization::new(tokens)
}

/// The old text's pieces in the window and the old tokens there, which the new pieces
/// take theirs from.
struct OldWindow<'a> {
    text: &'a str,
    cuts: Vec<Cut>,
    tokens: &'a [Token],
}

impl<'a> OldWindow<'a> {
    /// The old tokens of an old piece: those starting inside it.
    fn tokens_of(&self, span: Span) -> &'a [Token] {
        let from = self.tokens.partition_point(|t| t.span.start < span.start);
        let to = self.tokens.partition_point(|t| t.span.start < span.end);
        &self.tokens[from..to]
    }

    /// Whether every old piece starts with an old token, as this model's tokens of the old
    /// text do.
    fn tokens_follow_cuts(&self) -> bool {
        self.cuts.iter().all(|c| {
            self.tokens_of(c.span)
                .first()
                .is_some_and(|t| t.span.start == c.span.start)
        })
    }

    /// The old piece that `cut` is unchanged from: the same text at the same place before or
    /// after the edit, cut the same way.
    fn unchanged(&self, cut: &Cut, edit: Edit, new_len: usize) -> Option<&Cut> {
        let place = old_place(cut.span, edit, self.text.len(), new_len)?;
        let i = self.cuts.partition_point(|c| c.span.start < place.start);
        self.cuts
            .get(i)
            .filter(|c| c.span == place && c.inserted == cut.inserted && c.special == cut.special)
    }

    /// The old piece that `cut` was edited from: an ordinary piece starting where it starts
    /// or ending where it ends (`delta` is how much the text grew).
    fn counterpart(&self, cut: &Cut, delta: isize) -> Option<&Cut> {
        self.cuts.iter().find(|c| {
            c.special.is_none()
                && c.inserted == cut.inserted
                && (c.span.start == cut.span.start
                    || c.span.end as isize + delta == cut.span.end as isize)
        })
    }
}

/// A token `by` bytes further on (the text before it grew or shrank).
fn moved(token: &Token, by: isize) -> Token {
    let mut token = token.clone();
    let at = |x: usize| (x as isize + by) as usize;
    token.span = Span::new(at(token.span.start), at(token.span.end));
    token
}

/// The tokens of the new piece `cut` (its merged bytes `bytes`), an edit of the old piece
/// `old_cut` whose tokens are `kept`, merged again by Algorithm 1: the unchanged tokens at both
/// ends are the old ones moved, the middle is built anew. `None` when the old tokens do not
/// give the old merge result.
fn remerged_tokens(
    model: &BpeModel,
    new: &str,
    cut: &Cut,
    bytes: &[u8],
    old_cut: &Cut,
    old_bytes: &[u8],
    kept: &[Token],
) -> Option<Vec<Token>> {
    let ends = raw_ends(model, old_bytes, kept)?;
    let ids: Vec<u32> = kept.iter().filter_map(|t| t.id).collect();
    let done = remerge(model, old_bytes, &ends, &ids, bytes);
    // A kept token is moved, not rebuilt, so its span must be its bytes exactly: a token that
    // starts or ends inside a character has a span widened to that character's boundaries,
    // which depend on the character, and the character around the same bytes can differ
    // after the edit (the byte 0x81 ends both U+0301 and U+2581). Found by fuzzing.
    let exact = |t: &Token| {
        t.id.and_then(|id| model.vocab.bytes(id))
            .is_some_and(|b| b.len() == t.span.end - t.span.start)
    };
    let (lead, trail) = (&kept[..done.lead], &kept[kept.len() - done.trail..]);
    if !lead.iter().chain(trail).all(exact) {
        return None;
    }
    let mut tokens = Vec::with_capacity(done.symbols.len());
    let head = cut.span.start as isize - old_cut.span.start as isize;
    tokens.extend(kept[..done.lead].iter().map(|t| moved(t, head)));
    let n = done.symbols.len();
    let middle_end = done
        .symbols
        .get(n - done.trail)
        .map_or(bytes.len(), |s| s.start as usize);
    let middle = PreToken {
        span: cut.span,
        bytes: &bytes[..middle_end],
        inserted: cut.inserted,
        alternative: cut.alternative,
        special: None,
    };
    let symbols = &done.symbols[done.lead..n - done.trail];
    piece_tokens(model, new, &middle.with_symbols(symbols), &mut tokens);
    let tail = cut.span.end as isize - old_cut.span.end as isize;
    tokens.extend(
        kept[kept.len() - done.trail..]
            .iter()
            .map(|t| moved(t, tail)),
    );
    Some(tokens)
}

/// The end offsets of the merged symbols of `piece` that `tokens` stand for, when their ids
/// spell the piece exactly (no unknown symbols, no byte fallback, no whole-piece lookup).
pub(crate) fn raw_ends(model: &BpeModel, piece: &[u8], tokens: &[Token]) -> Option<Vec<usize>> {
    if model.whole_piece_first && tokens.len() < 2 {
        return None;
    }
    let mut ends = Vec::with_capacity(tokens.len());
    let mut at = 0;
    for token in tokens {
        let id = token.id.filter(|_| token.kind == TokenKind::Subword)?;
        if Some(id) == model.unk {
            return None;
        }
        let bytes = model.vocab.bytes(id)?;
        if piece.get(at..at + bytes.len())? != bytes {
            return None;
        }
        at += bytes.len();
        ends.push(at);
    }
    (at == piece.len()).then_some(ends)
}

/// A piece merged again by Algorithm 1: its symbols (unknown ones resolved), of which the
/// first `lead` and the last `trail` are old tokens unchanged (the same bytes at the same
/// distance from the piece's start or end), so callers can keep those tokens as they were.
pub(crate) struct Remerged {
    pub symbols: Vec<Symbol>,
    pub lead: usize,
    pub trail: usize,
}

/// Merges `new_piece`, an edit of `old_piece` whose merged symbols end at `old_ends` with ids
/// `old_ids`, by Algorithm 1: the result is what [`BpeModel::merge_piece`] gives for
/// `new_piece` (whole-piece lookup, merges, unknown symbols resolved).
pub(crate) fn remerge(
    model: &BpeModel,
    old_piece: &[u8],
    old_ends: &[usize],
    old_ids: &[u32],
    new_piece: &[u8],
) -> Remerged {
    if model.whole_piece_first
        && let Some(id) = model.vocab.id(new_piece)
    {
        return Remerged {
            symbols: vec![Symbol { id, start: 0 }],
            lead: 0,
            trail: 0,
        };
    }
    let mut scratch = Vec::new();
    let mut encode = |piece: &[u8], out: &mut Vec<usize>| {
        model.merge_only(piece, &mut scratch, &mut |_| {});
        let ends = scratch.iter().skip(1).map(|s| s.start as usize);
        out.extend(ends.chain(std::iter::once(piece.len())));
    };
    let ends = formal::retokenize(old_piece, old_ends, new_piece, &mut encode).ends;
    let edit = Edit::between(old_piece, new_piece);
    let (old_n, new_n) = (old_ends.len(), ends.len());
    let start_of = |ends: &[usize], i: usize| if i == 0 { 0 } else { ends[i - 1] };
    let lead = (0..old_n.min(new_n))
        .take_while(|&i| old_ends[i] == ends[i] && ends[i] <= edit.prefix)
        .count();
    let from_end = |len: usize, x: usize| len - x;
    let trail = (1..=(old_n - lead).min(new_n - lead))
        .take_while(|&j| {
            let (o, n) = (old_n - j, new_n - j);
            let (old_start, new_start) = (start_of(old_ends, o), start_of(&ends, n));
            from_end(new_piece.len(), new_start) == from_end(old_piece.len(), old_start)
                && from_end(new_piece.len(), ends[n]) == from_end(old_piece.len(), old_ends[o])
                && new_start >= new_piece.len() - edit.suffix
        })
        .count();
    let middle_start = start_of(&ends, lead);
    let middle_end = start_of(&ends, new_n - trail);
    let mut middle: Vec<Symbol> = (lead..new_n - trail)
        .map(|i| {
            let at = start_of(&ends, i);
            Symbol {
                id: model.vocab.id(&new_piece[at..ends[i]]).unwrap_or(NO_ID),
                start: at as u32,
            }
        })
        .collect();
    model.resolve_unknown(&new_piece[..middle_end], &mut middle);
    debug_assert!(
        middle
            .first()
            .is_none_or(|s| s.start as usize == middle_start)
    );
    let mut symbols = Vec::with_capacity(lead + middle.len() + trail);
    symbols.extend((0..lead).map(|i| Symbol {
        id: old_ids[i],
        start: start_of(&ends, i) as u32,
    }));
    symbols.append(&mut middle);
    symbols.extend((new_n - trail..new_n).map(|n| Symbol {
        id: old_ids[old_n - (new_n - n)],
        start: start_of(&ends, n) as u32,
    }));
    Remerged {
        symbols,
        lead,
        trail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_and_hard_breaks() {
        assert_eq!(
            Edit::between(b"the cat sat", b"the cart sat"),
            Edit {
                prefix: 6,
                suffix: 5
            }
        );
        assert_eq!(
            Edit::between(b"aaa", b"aaaa"),
            Edit {
                prefix: 3,
                suffix: 0
            }
        );
        let text = b"we sat on the mat";
        assert!(hard_break(text, 2) && !hard_break(text, 0) && !hard_break(b"a  b", 1));
        // Typing in «sat»: the window runs from the space before it to the one after it.
        let new = b"we seat on the mat";
        let edit = Edit::between(b"we sat on the mat", new);
        assert_eq!(window(new, edit), (2, 7));
    }

    #[test]
    fn a_piece_without_a_known_place_is_encoded_again() {
        let edit = Edit {
            prefix: 4,
            suffix: 3,
        };
        assert_eq!(
            old_place(Span::new(0, 4), edit, 10, 12),
            Some(Span::new(0, 4))
        );
        assert_eq!(
            old_place(Span::new(9, 12), edit, 10, 12),
            Some(Span::new(7, 10))
        );
        assert_eq!(old_place(Span::new(3, 9), edit, 10, 12), None);
    }
}
