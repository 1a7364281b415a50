//! The calling thread's CPU time, shared by the benches that time on it (`#[path]` module).

use std::time::Duration;

/// This thread's CPU time so far (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, to the nanosecond),
/// `None` where the system does not give it: on a shared machine the wall clock also counts
/// the time other processes had the core, so the benches time work on this clock.
pub fn thread_cpu() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (status == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}
