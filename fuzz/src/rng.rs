//! The harness's generator: the library's SplitMix64 (the one unigram sampling uses), seeded
//! per iteration so every iteration is reproducible from the run's seed and its number, with
//! no dependency on a random-number crate.

use toklab::engines::subword::unigram::lattice::SplitMix64;

/// A generator for one iteration, with the draws the mutators need.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator for iteration `n` of a run seeded with `seed`: the iteration number is
    /// spread over the seed's bits (by SplitMix64's own increment) and the first draw is
    /// skipped, so neighbouring iterations do not start alike.
    pub fn new(seed: u64, n: u64) -> Rng {
        let mut inner = SplitMix64::new(seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        inner.next_u64();
        Rng(inner)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability 1 in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_iterations_stream_is_fixed_by_seed_and_number() {
        // SplitMix64's outputs for seed 7, iteration 3: a recorded failing iteration must
        // replay the same mutations, whichever copy of the generator draws them.
        let mut rng = Rng::new(7, 3);
        let drawn: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            drawn,
            [
                0x90df_7bd8_aeb7_7931,
                0xced1_ff39_db55_4c45,
                0x8cf5_d38f_ac28_5a78
            ]
        );
        assert_ne!(Rng::new(7, 4).next_u64(), Rng::new(7, 3).next_u64());
    }
}
