//! Work on every core with the output in input order: what `toklab tokenize --threads` and
//! `compare --threads` run on, and what the workbench's background work can share.
//!
//! A corpus is read as a stream, so the reading and the writing stay on the calling thread and
//! only the work (tokenizing a batch of lines) goes to the workers. At most `2 × threads`
//! batches are read and not yet written at any time, so memory stays bounded whatever the
//! input's size, and the output is byte for byte what one thread writes.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// How many batches may be in flight per worker: one worked on and one waiting keep every
/// worker busy while the calling thread writes. More only costs memory touched for the first
/// time: each batch in flight has its own output buffer, and with four per worker two threads
/// on 16 MB of `fst` took 1,900 more page faults than with two.
const IN_FLIGHT_PER_THREAD: usize = 2;

/// The number of threads to use when the user does not say: every core, as ripgrep does.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Pulls items from `next` until it gives `None`, runs `work` on each on `threads` threads and
/// hands the results to `emit` in the order the items came.
///
/// With one thread everything runs on the calling thread, with no channel in between. The first
/// error of `next` or `emit` stops the reading; results of items read before it are still
/// emitted (so the output up to a bad input line is the same as one thread's), then the error
/// is returned. A panic in `work` is resumed on the calling thread. When the system will not
/// start as many threads as asked (a process limit), the work runs on the ones it started, or
/// on the calling thread if it started none: the results are the same.
pub fn ordered_map<I, R, E>(
    threads: usize,
    mut next: impl FnMut() -> Result<Option<I>, E>,
    work: impl Fn(I) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    I: Send,
    R: Send,
{
    if threads <= 1 {
        return on_this_thread(&mut next, &work, &mut emit);
    }
    let stop = AtomicBool::new(false);
    let (job_tx, job_rx) = mpsc::channel::<(u64, I)>();
    let job_rx = Mutex::new(job_rx);
    // A result is `None` for an item skipped after the output failed.
    let (result_tx, result_rx) = mpsc::channel::<(u64, Option<std::thread::Result<R>>)>();
    std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..threads {
            let result_tx = result_tx.clone();
            let (job_rx, work, stop) = (&job_rx, &work, &stop);
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
                loop {
                    // The lock is held only to take a job, not while working on it.
                    let job = job_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((index, item))) = job else { break };
                    let result = (!stop.load(Ordering::Relaxed))
                        .then(|| catch_unwind(AssertUnwindSafe(|| work(item))));
                    if result_tx.send((index, result)).is_err() {
                        break;
                    }
                }
            });
            if worker.is_err() {
                break;
            }
            started += 1;
        }
        drop(result_tx);
        if started == 0 {
            return on_this_thread(&mut next, &work, &mut emit);
        }
        let in_flight = started * IN_FLIGHT_PER_THREAD;
        let (mut read, mut written) = (0u64, 0u64);
        let mut waiting: BTreeMap<u64, Option<std::thread::Result<R>>> = BTreeMap::new();
        // An output error concerns items before any input error (reading runs ahead), so it
        // is the one returned when both happen.
        let (mut input_error, mut output_error): (Option<E>, Option<E>) = (None, None);
        let mut reading = true;
        loop {
            while reading && output_error.is_none() && (read - written) < in_flight as u64 {
                match next() {
                    Ok(Some(item)) => {
                        job_tx
                            .send((read, item))
                            .expect("workers outlive the reading");
                        read += 1;
                    }
                    Ok(None) => reading = false,
                    Err(e) => {
                        input_error = Some(e);
                        reading = false;
                    }
                }
            }
            if written == read {
                break;
            }
            let result = loop {
                if let Some(result) = waiting.remove(&written) {
                    break result;
                }
                let (index, result) = result_rx.recv().expect("a worker holds the sender");
                waiting.insert(index, result);
            };
            written += 1;
            match result {
                Some(Ok(value)) if output_error.is_none() => {
                    if let Err(e) = emit(value) {
                        output_error = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Some(Ok(_)) | None => {}
                Some(Err(panic)) => {
                    stop.store(true, Ordering::Relaxed);
                    drop(job_tx);
                    resume_unwind(panic);
                }
            }
        }
        drop(job_tx);
        match output_error.or(input_error) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })
}

/// [`ordered_map`] on the calling thread alone.
fn on_this_thread<I, R, E>(
    next: &mut impl FnMut() -> Result<Option<I>, E>,
    work: &impl Fn(I) -> R,
    emit: &mut impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    while let Some(item) = next()? {
        emit(work(item))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(threads: usize, n: u64) -> Vec<u64> {
        let mut items = 0..n;
        let mut out = Vec::new();
        ordered_map(
            threads,
            || Ok::<_, ()>(items.next()),
            |i| {
                // Uneven work, so later items often finish first.
                if i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                i * i
            },
            |r| {
                out.push(r);
                Ok(())
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn results_come_in_input_order_whatever_the_thread_count() {
        let one = squares(1, 500);
        assert_eq!(one, (0..500).map(|i| i * i).collect::<Vec<_>>());
        for threads in [2, 3, 8] {
            assert_eq!(squares(threads, 500), one, "{threads} threads");
        }
    }

    #[test]
    fn an_input_error_still_writes_what_came_before_it() {
        for threads in [1, 4] {
            let mut items = 0..10u32;
            let mut out = Vec::new();
            let result = ordered_map(
                threads,
                || match items.next() {
                    Some(6) => Err("bad line 7"),
                    other => Ok(other),
                },
                |i| i + 100,
                |r| {
                    out.push(r);
                    Ok(())
                },
            );
            assert_eq!(result, Err("bad line 7"));
            assert_eq!(out, [100, 101, 102, 103, 104, 105], "{threads} threads");
        }
    }

    #[test]
    fn an_output_error_stops_the_work() {
        let mut items = 0..1_000_000u32;
        let mut written = 0;
        let result = ordered_map(
            4,
            || Ok(items.next()),
            |i| i,
            |_| {
                written += 1;
                if written == 3 {
                    Err("broken pipe")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err("broken pipe"));
        assert_eq!(written, 3);
        assert!(
            items.next().unwrap() < 100,
            "reading stopped soon after the error"
        );
    }

    #[test]
    fn a_panic_in_the_work_reaches_the_caller() {
        let caught = catch_unwind(|| {
            let mut items = 0..100u32;
            ordered_map(
                3,
                || Ok::<_, ()>(items.next()),
                |i| {
                    assert!(i != 42, "planted");
                    i
                },
                |_| Ok(()),
            )
        });
        assert!(caught.is_err());
    }
}
