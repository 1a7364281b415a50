//! Work on every core with the output in input order: what `toklab tokenize --threads` and
//! `compare --threads` run on, and what the workbench's background work can share.
//!
//! A corpus is read as a stream, so the reading and the writing stay on the calling thread and
//! only the work (tokenizing a batch of lines) goes to the workers. At most `2 × threads`
//! batches are read and not yet written at any time, so memory stays bounded whatever the
//! input's size, and the output is byte for byte what one thread writes.
//!
//! Memory goes back to the thread that allocated it. The allocator gives each thread its own
//! arena, and memory freed on another thread takes that arena's lock while its owner allocates
//! from it: with the reading thread's lines freed on a worker, two threads on 16 MB of `ws`
//! took turns at the lock 8,400 times (20 times with one thread). So an item, once its result
//! is written, goes back to the reading thread, which gets it in [`ordered_map`]'s `next` to
//! refill or to free; a result, once written, goes back to the worker that made it, which gets
//! it with its next item to reuse its buffers or to free. Reused buffers are also pages the
//! system does not have to hand out (and zero) again.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

mod jobs;
mod texts;

use jobs::{CloseOnDrop, Jobs};
pub use texts::Batch;

/// How many batches may be in flight per thread: one worked on and one waiting keep every
/// thread busy while the calling thread writes. More only costs memory touched for the first
/// time: each batch in flight has its own output buffer, and with four per worker two threads
/// on 16 MB of `fst` took 1,900 more page faults than with two.
const IN_FLIGHT_PER_THREAD: usize = 2;

/// The number of threads to use when the user does not say: every core, as ripgrep does.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A worked item: its place in the input, the worker whose result it is (`None` for the
/// calling thread), the item itself, and the result (`None` for an item skipped after the
/// output failed, `Err` for a panic).
struct Done<I, R> {
    index: u64,
    worker: Option<usize>,
    item: I,
    result: Option<std::thread::Result<R>>,
}

/// Pulls items from `next` until it gives `None`, runs `work` on each on `threads` threads and
/// hands each item with its result to `emit` in the order the items came.
///
/// The calling thread reads, writes, and works in between: `threads - 1` threads are started,
/// so no more threads run than asked (more would take turns at the cores, and wake each other
/// for nothing), and an item the calling thread works on is still in its cache.
///
/// `next` gets an item already emitted when there is one, to refill (or to drop: it is on the
/// reading thread either way); `work` gets, besides its item, a result of the same thread that
/// was emitted, to reuse its buffers. Both run on the threads that allocated what they get
/// back (see the module's notes). With one thread everything runs on the calling thread, with
/// no channel in between. The first error of `next` or `emit` stops the reading; results of
/// items read before it are still emitted (so the output up to a bad input line is the same
/// as one thread's), then the error is returned. A panic in `work` is resumed on the calling
/// thread. When the system will not start as many threads as asked (a process limit), the
/// work runs on the ones it started and the calling thread: the results are the same.
pub fn ordered_map<I, R, E>(
    threads: usize,
    mut next: impl FnMut(Option<I>) -> Result<Option<I>, E>,
    work: impl Fn(&mut I, Option<R>) -> R + Sync,
    mut emit: impl FnMut(&mut I, &mut R) -> Result<(), E>,
) -> Result<(), E>
where
    I: Send,
    R: Send,
{
    if threads <= 1 {
        return on_this_thread(&mut next, &work, &mut emit);
    }
    let stop = AtomicBool::new(false);
    let jobs = Jobs::new();
    let (done_tx, done_rx) = mpsc::channel::<Done<I, R>>();
    std::thread::scope(|scope| {
        // Closed however this scope ends, before the workers are waited for.
        let _close = CloseOnDrop(&jobs);
        // One channel per worker for its results once written.
        let mut returns = Vec::new();
        for worker in 0..threads - 1 {
            let (return_tx, return_rx) = mpsc::channel::<R>();
            let done_tx = done_tx.clone();
            let (jobs, work, stop) = (&jobs, &work, &stop);
            let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                work_loop(worker, jobs, &done_tx, return_rx, work, stop)
            });
            if started.is_err() {
                break;
            }
            returns.push(return_tx);
        }
        drop(done_tx);
        let in_flight = (returns.len() + 1) * IN_FLIGHT_PER_THREAD;
        let calling = Calling {
            next: &mut next,
            work: &work,
            emit: &mut emit,
            jobs: &jobs,
            done: done_rx,
            returns,
            spare: Vec::new(),
            stop: &stop,
        };
        calling.run(in_flight)
    })
}

/// Runs `work` on `item` unless the work was stopped, with a panic caught.
fn work_on<I, R>(
    item: &mut I,
    spare: impl FnOnce() -> Option<R>,
    work: &impl Fn(&mut I, Option<R>) -> R,
    stop: &AtomicBool,
) -> Option<std::thread::Result<R>> {
    (!stop.load(Ordering::Relaxed)).then(|| {
        let spare = spare();
        catch_unwind(AssertUnwindSafe(|| work(item, spare)))
    })
}

/// A worker: takes items until the jobs end, then frees the results still coming back to it.
fn work_loop<I, R>(
    worker: usize,
    jobs: &Jobs<I>,
    done: &Sender<Done<I, R>>,
    returned: Receiver<R>,
    work: &impl Fn(&mut I, Option<R>) -> R,
    stop: &AtomicBool,
) {
    while let Some((index, mut item)) = jobs.pop_wait() {
        let result = work_on(&mut item, || returned.try_recv().ok(), work, stop);
        let worker = Some(worker);
        let done_item = Done {
            index,
            worker,
            item,
            result,
        };
        if done.send(done_item).is_err() {
            break;
        }
    }
    // Until the calling thread lets go of this worker's channel.
    returned.iter().for_each(drop);
}

/// The calling thread's side of [`ordered_map`]: it reads, hands items out, works on one
/// when it has nothing to write yet, and writes.
struct Calling<'a, I, R, N, F, W> {
    next: &'a mut N,
    work: &'a F,
    emit: &'a mut W,
    jobs: &'a Jobs<I>,
    done: Receiver<Done<I, R>>,
    /// Each worker's channel for its results once written.
    returns: Vec<Sender<R>>,
    /// The calling thread's own results once written.
    spare: Vec<R>,
    stop: &'a AtomicBool,
}

impl<I, R, N, F, W> Calling<'_, I, R, N, F, W>
where
    F: Fn(&mut I, Option<R>) -> R,
{
    /// Reads ahead up to `in_flight` items, writes each result as its turn comes, and returns
    /// the first output error, else the input error, if any.
    fn run<E>(mut self, in_flight: usize) -> Result<(), E>
    where
        N: FnMut(Option<I>) -> Result<Option<I>, E>,
        W: FnMut(&mut I, &mut R) -> Result<(), E>,
    {
        let (mut read, mut written) = (0u64, 0u64);
        let mut waiting: BTreeMap<u64, Done<I, R>> = BTreeMap::new();
        // Items written, for `next` to refill.
        let mut items: Vec<I> = Vec::new();
        // An output error concerns items before any input error (reading runs ahead), so it
        // is the one returned when both happen.
        let (mut input_error, mut output_error): (Option<E>, Option<E>) = (None, None);
        let mut reading = true;
        loop {
            while reading && output_error.is_none() && (read - written) < in_flight as u64 {
                match (self.next)(items.pop()) {
                    Ok(Some(item)) => {
                        self.jobs.push(read, item);
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
            let Some(mut done) = self.next_done(written, &mut waiting) else {
                continue;
            };
            written += 1;
            match done.result {
                Some(Ok(mut value)) => {
                    if output_error.is_none()
                        && let Err(e) = (self.emit)(&mut done.item, &mut value)
                    {
                        output_error = Some(e);
                        self.stop.store(true, Ordering::Relaxed);
                    }
                    self.give_back(done.worker, value);
                }
                None => {}
                Some(Err(panic)) => {
                    self.stop.store(true, Ordering::Relaxed);
                    resume_unwind(panic);
                }
            }
            items.push(done.item);
        }
        match output_error.or(input_error) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Item `index` worked, when it is: otherwise the calling thread works on the oldest item
    /// no worker took (and returns `None`), or waits for a worker when there is none.
    fn next_done(
        &mut self,
        index: u64,
        waiting: &mut BTreeMap<u64, Done<I, R>>,
    ) -> Option<Done<I, R>> {
        for done in self.done.try_iter() {
            waiting.insert(done.index, done);
        }
        if let Some(done) = waiting.remove(&index) {
            return Some(done);
        }
        let done = match self.jobs.try_pop() {
            Some((index, mut item)) => {
                let spare = &mut self.spare;
                let result = work_on(&mut item, || spare.pop(), self.work, self.stop);
                Done {
                    index,
                    worker: None,
                    item,
                    result,
                }
            }
            // Item `index` is with a worker.
            None => self.done.recv().expect("a worker holds the sender"),
        };
        waiting.insert(done.index, done);
        None
    }

    /// Hands a written result back to the thread that made it.
    fn give_back(&mut self, worker: Option<usize>, result: R) {
        match worker {
            None => self.spare.push(result),
            // A worker gone (after a panic elsewhere) lets the result drop here.
            Some(worker) => {
                let _ = self.returns[worker].send(result);
            }
        }
    }
}

/// [`ordered_map`] on the calling thread alone, each item and result reused by the next.
fn on_this_thread<I, R, E>(
    next: &mut impl FnMut(Option<I>) -> Result<Option<I>, E>,
    work: &impl Fn(&mut I, Option<R>) -> R,
    emit: &mut impl FnMut(&mut I, &mut R) -> Result<(), E>,
) -> Result<(), E> {
    let (mut spare_item, mut spare_result) = (None, None);
    while let Some(mut item) = next(spare_item.take())? {
        let mut result = work(&mut item, spare_result.take());
        emit(&mut item, &mut result)?;
        (spare_item, spare_result) = (Some(item), Some(result));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn squares(threads: usize, n: u64) -> Vec<u64> {
        let mut items = 0..n;
        let mut out = Vec::new();
        ordered_map(
            threads,
            |_| Ok::<_, ()>(items.next()),
            |&mut i, _| {
                // Uneven work, so later items often finish first.
                if i % 7 == 0 {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
                i * i
            },
            |_, &mut r| {
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

    /// A value that remembers the thread that made it and, when dropped, notes which thread
    /// that was and which thread drops it.
    struct Owned<'a> {
        made_on: std::thread::ThreadId,
        drops: &'a Mutex<Vec<(std::thread::ThreadId, std::thread::ThreadId)>>,
    }

    impl<'a> Owned<'a> {
        fn new(drops: &'a Mutex<Vec<(std::thread::ThreadId, std::thread::ThreadId)>>) -> Self {
            let made_on = std::thread::current().id();
            Owned { made_on, drops }
        }
    }

    impl Drop for Owned<'_> {
        fn drop(&mut self) {
            let dropped_on = std::thread::current().id();
            self.drops.lock().unwrap().push((self.made_on, dropped_on));
        }
    }

    /// Items are freed or refilled on the reading thread and results on the thread that made
    /// them, whatever the thread count: the allocator's arenas are then never shared.
    #[test]
    fn memory_goes_back_to_the_thread_that_made_it() {
        for threads in [1, 2, 3] {
            let (items, results) = (Mutex::new(Vec::new()), Mutex::new(Vec::new()));
            let reader = std::thread::current().id();
            let (mut read, mut refilled) = (0, 0);
            let reused = std::sync::atomic::AtomicUsize::new(0);
            ordered_map(
                threads,
                |spare: Option<(u32, Owned)>| {
                    refilled += usize::from(spare.is_some());
                    read += 1;
                    let item = spare.map_or_else(|| Owned::new(&items), |(_, owned)| owned);
                    Ok::<_, ()>((read <= 300).then_some((read, item)))
                },
                |(n, _), spare: Option<(u32, Owned)>| {
                    if let Some((_, owned)) = &spare {
                        assert_eq!(owned.made_on, std::thread::current().id());
                        reused.fetch_add(1, Ordering::Relaxed);
                    }
                    let owned = spare.map_or_else(|| Owned::new(&results), |(_, owned)| owned);
                    (*n * 2, owned)
                },
                |(n, _), (doubled, _)| {
                    assert_eq!(*doubled, *n * 2);
                    Ok(())
                },
            )
            .unwrap();
            let items = items.into_inner().unwrap();
            assert!(!items.is_empty());
            assert!(
                items
                    .iter()
                    .all(|&(made, dropped)| made == reader && dropped == reader)
            );
            let results = results.into_inner().unwrap();
            assert!(!results.is_empty());
            assert!(
                results.iter().all(|&(made, dropped)| made == dropped),
                "{threads}"
            );
            assert!(
                refilled > 250,
                "{threads} threads: {refilled} items refilled"
            );
            let reused = reused.into_inner();
            assert!(reused > 250, "{threads} threads: {reused} results reused");
        }
    }

    /// The calling thread works too, so no more threads work than asked: with two, one is
    /// started, and the calling thread takes what it does not.
    #[test]
    fn the_calling_thread_is_one_of_the_threads() {
        let reader = std::thread::current().id();
        let mut items = 0..40u32;
        let workers = Mutex::new(std::collections::HashSet::new());
        ordered_map(
            2,
            |_| Ok::<_, ()>(items.next()),
            |_, _: Option<()>| {
                workers.lock().unwrap().insert(std::thread::current().id());
                // Slower than reading, so items wait for a thread.
                std::thread::sleep(std::time::Duration::from_millis(1));
            },
            |_, _| Ok(()),
        )
        .unwrap();
        let workers = workers.into_inner().unwrap();
        assert!(workers.contains(&reader), "the calling thread worked");
        assert!(workers.len() <= 2, "{} threads worked", workers.len());
    }

    #[test]
    fn an_input_error_still_writes_what_came_before_it() {
        for threads in [1, 4] {
            let mut items = 0..10u32;
            let mut out = Vec::new();
            let result = ordered_map(
                threads,
                |_| match items.next() {
                    Some(6) => Err("bad line 7"),
                    other => Ok(other),
                },
                |&mut i, _| i + 100,
                |_, &mut r| {
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
            |_| Ok(items.next()),
            |&mut i, _| i,
            |_, _| {
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
                |_| Ok::<_, ()>(items.next()),
                |&mut i, _| {
                    assert!(i != 42, "planted");
                    i
                },
                |_, _| Ok(()),
            )
        });
        assert!(caught.is_err());
    }
}
