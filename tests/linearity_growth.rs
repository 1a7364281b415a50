//! [`growth`](crate::linearity::growth) itself, on functions whose cost is known exactly: each
//! spins for a set amount of this thread's CPU time. A linear function must pass even when
//! the machine stalls the test (a sleep) or one call is slowed badly (an extra spin), and a
//! quadratic one must fail, so the linearity tests decide on the code and not the load.

use crate::linearity::{MAX_RATIO, growth, thread_time_ns};
use std::time::Duration;

/// The CPU time one unit of work costs.
const UNIT_NS: u128 = 20_000;

/// Spins until this thread has used `ns` more nanoseconds of CPU time.
fn spin(ns: u128) {
    let start = thread_time_ns();
    while thread_time_ns() - start < ns {
        std::hint::spin_loop();
    }
}

#[test]
fn a_linear_function_passes_though_one_call_is_slowed_and_one_stalls() {
    let mut large_calls = 0u32;
    let (small, large, ratio) = growth(1, 10, |n| {
        if n == 10 {
            large_calls += 1;
            match large_calls {
                // A stall the scheduler causes: wall time passes, CPU time does not.
                60 => std::thread::sleep(Duration::from_millis(100)),
                // A call slowed by something else on the machine (a page-fault storm, a
                // cache flushed by a neighbour): 40 ms of extra CPU in one batch, which alone
                // would make that batch look over 100 times slower than linear allows.
                100 => spin(40_000_000),
                _ => {}
            }
        }
        spin(n as u128 * UNIT_NS);
    });
    assert!(
        large_calls > 100,
        "the slowed call was never made ({large_calls} calls at the large size)"
    );
    assert!(
        ratio < MAX_RATIO,
        "a linear function measured {ratio:.1} ({small:.0} ns → {large:.0} ns)"
    );
    assert!(
        ratio > 5.0,
        "ten times the work measured only {ratio:.1} times the time"
    );
}

#[test]
fn a_quadratic_function_fails() {
    let (small, large, ratio) = growth(1, 10, |n| spin((n * n) as u128 * UNIT_NS));
    assert!(
        ratio > MAX_RATIO,
        "a quadratic function measured only {ratio:.1} ({small:.0} ns → {large:.0} ns)"
    );
}
