//! `bpe train --pretok none` makes each line one word. A merge must cost the occurrences it
//! merges, not a rewrite and rescan of the whole word (which makes a long line cost merges ×
//! its length): ten times the line with ten times the merges takes about ten times as long,
//! not a hundred.

use toklab::engines::subword::formal::SymbolUnit;
use toklab::engines::subword::train::{Pretok, Trainer};

/// One line of `len` letters from a small alphabet (a fixed linear congruential sequence, so
/// the text is the same on every run), with pairs to merge all along it.
fn line(len: usize) -> String {
    let mut state: u32 = 12_345;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            char::from(b'a' + ((state >> 16) % 8) as u8)
        })
        .collect()
}

#[test]
fn one_long_line_trains_in_time_linear_in_its_length() {
    let (small, large) = (10_000, 100_000);
    let texts = [line(small), line(large)];
    let (t_small, t_large, ratio) = crate::linearity::growth(small, large, |n| {
        let text = &texts[usize::from(n == large)];
        let mut trainer = Trainer::new(text, SymbolUnit::Char, Pretok::None);
        // Merges grow with the text, as a user asking for a vocabulary per size would.
        trainer.train(n / 100, &mut |_| {});
        assert_eq!(trainer.merges().len(), n / 100);
    });
    println!(
        "bpe train --pretok none: {small} {t_small:.0} ns, {large} {t_large:.0} ns, ratio {ratio:.1}"
    );
    assert!(
        ratio < 40.0,
        "10x the line and the merges took {ratio:.1}x the time (linear is ~10, merges x length ~100)"
    );
}
