//! The one hook every engine's typed trace comes through.
//!
//! An engine's inner loop takes an [`Observer`] of its own event type (`FstStep` for the
//! finite-state runner, `MergeStep` for BPE, `Event` for the rule engine, …) and reports each
//! step to it. `tokenize` passes [`Quiet`], whose empty `observe` is inlined away, so plain
//! tokenizing pays nothing for `explain`; `trace` passes a recorder. A closure taking the event
//! is an observer too, so a test or a caller that wants one kind of step writes `|e| …`.

/// Receives an engine's steps as they happen.
pub trait Observer<E> {
    /// One step, in the order the engine took them.
    fn observe(&mut self, event: E);
}

impl<E, F: FnMut(E)> Observer<E> for F {
    #[inline(always)]
    fn observe(&mut self, event: E) {
        self(event)
    }
}

/// The observer that keeps nothing: what `tokenize` passes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl<E> Observer<E> for Quiet {
    #[inline(always)]
    fn observe(&mut self, _event: E) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_evens(numbers: &[u32], observer: &mut impl Observer<u32>) -> usize {
        let mut evens = 0;
        for &n in numbers {
            if n % 2 == 0 {
                evens += 1;
                observer.observe(n);
            }
        }
        evens
    }

    #[test]
    fn a_closure_records_and_quiet_keeps_nothing() {
        let mut seen = Vec::new();
        assert_eq!(count_evens(&[1, 2, 3, 4], &mut |n| seen.push(n)), 2);
        assert_eq!(seen, [2, 4]);
        assert_eq!(count_evens(&[1, 2, 3, 4], &mut Quiet), 2);
    }

    #[test]
    fn a_dyn_observer_serves_engines_that_are_not_generic() {
        let mut seen = Vec::new();
        {
            let observer: &mut dyn Observer<u32> = &mut |n: u32| seen.push(n);
            observer.observe(7);
        }
        assert_eq!(seen, [7]);
    }
}
