//! Counts with their noun, so no message says "1 tokens".

/// `n` and `noun`, in the plural unless `n` is 1: `counted(1, "token")` is "1 token".
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "token"), "1 token");
        assert_eq!(counted(0, "tokenizer"), "0 tokenizers");
        assert_eq!(counted(2, "line"), "2 lines");
    }
}
