//! What a reload changed, line by line: over the lower pane (`C`), every line the last reload
//! of a rule file or grammar tokenizes differently, with its tokens before and after side by
//! side and the tokens that differ marked, so a rule author reads what an edit did without
//! stepping to each line (`]c` still steps). Lines are tokenized again only as they are shown.

pub mod draw;

pub use draw::draw;

use toklab::Tokenization;

/// One side of a changed line: each token's form and whether the other side lacks it (no
/// token there with the same span, form and kind).
pub type Side = Vec<(String, bool)>;

/// The tokens of `text` before and after, each marked where the other side lacks it.
pub fn before_after(text: &str, old: &Tokenization, new: &Tokenization) -> (Side, Side) {
    let side = |this: &Tokenization, other: &Tokenization| -> Side {
        this.tokens
            .iter()
            .map(|t| {
                let form = t.form(text);
                let kept = other
                    .tokens
                    .iter()
                    .any(|o| o.span == t.span && o.kind == t.kind && o.form(text) == form);
                (form.to_string(), !kept)
            })
            .collect()
    };
    (side(old, new), side(new, old))
}

#[cfg(test)]
mod tests;
