//! One report, on standard error, for a line where a tokenizer gave up
//! ([`toklab::Tokenization::gave_up`]), so `tokenize`, `compare` and `explain` say it alike.

use toklab::GaveUp;

/// Tells the user that `tokenizer` gave up on the line `at` names (`FILE:LINE`); true when it
/// is an error (text no rule looked at) rather than a warning (a limit the reference has too,
/// such as utoken's depth limit, whose tokens are kept as they are).
pub fn report(at: &str, tokenizer: &str, gave_up: &GaveUp) -> bool {
    eprintln!("toklab: {}", super::safe(&message(at, tokenizer, gave_up)));
    !gave_up.as_reference
}

/// The report's text, without the `toklab: ` prefix.
pub fn message(at: &str, tokenizer: &str, gave_up: &GaveUp) -> String {
    let start = gave_up.span.start;
    if gave_up.as_reference {
        format!(
            "warning: {at}: {tokenizer}: {}, from byte {start} on",
            gave_up.reason
        )
    } else {
        format!(
            "error: {at}: {tokenizer}: {}; from byte {start} on the line is one unknown token",
            gave_up.reason
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::Span;

    #[test]
    fn a_limit_of_the_reference_is_a_warning_and_a_cut_an_error() {
        let mut gave_up = GaveUp {
            span: Span::new(7, 9),
            reason: "too deep",
            as_reference: true,
        };
        assert_eq!(
            message("in.txt:3", "rules:x", &gave_up),
            "warning: in.txt:3: rules:x: too deep, from byte 7 on"
        );
        gave_up.as_reference = false;
        assert!(message("in.txt:3", "re", &gave_up).starts_with("error: in.txt:3: re: too deep;"));
    }
}
