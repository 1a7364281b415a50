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
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

/// How many batches may be in flight per worker: one worked on and one waiting keep every
/// worker busy while the calling thread writes. More only costs memory touched for the first
/// time: each batch in flight has its own output buffer, and with four per worker two threads
/// on 16 MB of `fst` took 1,900 more page faults than with two.
const IN_FLIGHT_PER_THREAD: usize = 2;

/// The number of threads to use when the user does not say: every core, as ripgrep does.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// An item back from a worker: its place in the input, the worker whose result it is, the
/// item itself, and the result (`None` for an item skipped after the output failed).
struct Done<I, R> {
    index: u64,
    worker: usize,
    item: I,
    result: Option<std::thread::Result<R>>,
}

/// Pulls items from `next` until it gives `None`, runs `work` on each on `threads` threads and
/// hands each item with its result to `emit` in the order the items came.
///
/// `next` gets an item already emitted when there is one, to refill (or to drop: it is on the
/// reading thread either way); `work` gets, besides its item, a result of the same worker that
/// was emitted, to reuse its buffers. Both run on the threads that allocated what they get
/// back (see the module's notes). With one thread everything runs on the calling thread, with
/// no channel in between. The first error of `next` or `emit` stops the reading; results of
/// items read before it are still emitted (so the output up to a bad input line is the same
/// as one thread's), then the error is returned. A panic in `work` is resumed on the calling
/// thread. When the system will not start as many threads as asked (a process limit), the
/// work runs on the ones it started, or on the calling thread if it started none: the results
/// are the same.
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
    let (job_tx, job_rx) = mpsc::channel::<(u64, I)>();
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<Done<I, R>>();
    std::thread::scope(|scope| {
        // One channel per worker for its results once written.
        let mut returns = Vec::new();
        for worker in 0..threads {
            let (return_tx, return_rx) = mpsc::channel::<R>();
            let done_tx = done_tx.clone();
            let (job_rx, work, stop) = (&job_rx, &work, &stop);
            let started = std::thread::Builder::new().spawn_scoped(scope, move || {
                work_loop(worker, job_rx, &done_tx, return_rx, work, stop)
            });
            if started.is_err() {
                break;
            }
            returns.push(return_tx);
        }
        drop(done_tx);
        if returns.is_empty() {
            return on_this_thread(&mut next, &work, &mut emit);
        }
        let in_flight = returns.len() * IN_FLIGHT_PER_THREAD;
        let calling = Calling {
            next: &mut next,
            emit: &mut emit,
            jobs: job_tx,
            done: done_rx,
            returns,
            stop: &stop,
        };
        calling.run(in_flight)
    })
}

/// A worker: takes items until the jobs end, then frees the results still coming back to it.
fn work_loop<I, R>(
    worker: usize,
    jobs: &Mutex<Receiver<(u64, I)>>,
    done: &Sender<Done<I, R>>,
    returned: Receiver<R>,
    work: &impl Fn(&mut I, Option<R>) -> R,
    stop: &AtomicBool,
) {
    loop {
        // The lock is held only to take a job, not while working on it.
        let job = jobs.lock().map(|rx| rx.recv());
        let Ok(Ok((index, mut item))) = job else {
            break;
        };
        let result = (!stop.load(Ordering::Relaxed)).then(|| {
            let spare = returned.try_recv().ok();
            catch_unwind(AssertUnwindSafe(|| work(&mut item, spare)))
        });
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

/// The calling thread's side of [`ordered_map`]: it reads, hands items out, and writes.
struct Calling<'a, I, R, N, W> {
    next: &'a mut N,
    emit: &'a mut W,
    jobs: Sender<(u64, I)>,
    done: Receiver<Done<I, R>>,
    /// Each worker's channel for its results once written.
    returns: Vec<Sender<R>>,
    stop: &'a AtomicBool,
}

impl<I, R, N, W> Calling<'_, I, R, N, W> {
    /// Reads ahead up to `in_flight` items, writes each result as its turn comes, and returns
    /// the first output error, else the input error, if any.
    fn run<E>(self, in_flight: usize) -> Result<(), E>
    where
        N: FnMut(Option<I>) -> Result<Option<I>, E>,
        W: FnMut(&mut I, &mut R) -> Result<(), E>,
    {
        let (mut read, mut written) = (0u64, 0u64);
        let mut waiting: BTreeMap<u64, Done<I, R>> = BTreeMap::new();
        // Items written, for `next` to refill.
        let mut spare: Vec<I> = Vec::new();
        // An output error concerns items before any input error (reading runs ahead), so it
        // is the one returned when both happen.
        let (mut input_error, mut output_error): (Option<E>, Option<E>) = (None, None);
        let mut reading = true;
        loop {
            while reading && output_error.is_none() && (read - written) < in_flight as u64 {
                match (self.next)(spare.pop()) {
                    Ok(Some(item)) => {
                        self.jobs
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
            let mut done = loop {
                if let Some(done) = waiting.remove(&written) {
                    break done;
                }
                let done = self.done.recv().expect("a worker holds the sender");
                waiting.insert(done.index, done);
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
                    // A worker gone (after a panic elsewhere) lets the result drop here.
                    let _ = self.returns[done.worker].send(value);
                }
                None => {}
                Some(Err(panic)) => {
                    self.stop.store(true, Ordering::Relaxed);
                    drop(self.jobs);
                    resume_unwind(panic);
                }
            }
            spare.push(done.item);
        }
        match output_error.or(input_error) {
            Some(e) => Err(e),
            None => Ok(()),
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

/// Consecutive texts (lines) handed to a worker together, in one buffer, with the number of the
/// first: a batch costs two allocations however many texts it holds, and a batch written is
/// refilled (see [`ordered_map`]'s `next`) without allocating at all. Strings of their own
/// would cost an allocation a text, and refilled one by one each would grow to the longest
/// text it ever held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The number of the first text (its line number, say).
    pub first: usize,
    /// The texts one after the other.
    text: String,
    /// Where each text ends in `text`.
    ends: Vec<usize>,
}

impl Batch {
    /// A batch of `text` cut at `ends` (where each text ends, in order), or the parts back
    /// when an end is out of order, past the text or inside a character.
    pub fn from_parts(
        first: usize,
        text: String,
        ends: Vec<usize>,
    ) -> Result<Batch, (String, Vec<usize>)> {
        let mut start = 0;
        for &end in &ends {
            if end < start || !text.is_char_boundary(end) {
                return Err((text, ends));
            }
            start = end;
        }
        Ok(Batch { first, text, ends })
    }

    /// The text and the ends, to be filled again (emptied, their capacity kept).
    pub fn into_parts(self) -> (String, Vec<usize>) {
        let (mut text, mut ends) = (self.text, self.ends);
        text.clear();
        ends.clear();
        (text, ends)
    }

    /// Empties the batch and makes `first` the number of the text pushed next.
    pub fn clear(&mut self, first: usize) {
        self.first = first;
        self.text.clear();
        self.ends.clear();
    }

    /// Adds a text at the end.
    pub fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len());
    }

    /// How many texts the batch holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the batch holds no text.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all the texts together.
    pub fn bytes(&self) -> usize {
        self.text.len()
    }

    /// Text `i`, counted from 0 (its number is `first + i`).
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// The texts in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The texts in order with their numbers.
    pub fn numbered(&self) -> impl Iterator<Item = (usize, &str)> {
        self.iter()
            .enumerate()
            .map(|(i, text)| (self.first + i, text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Items are freed or refilled on the reading thread and results on the worker that made
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
            if threads > 1 {
                assert!(results.iter().all(|&(made, _)| made != reader));
            }
            assert!(
                refilled > 250,
                "{threads} threads: {refilled} items refilled"
            );
            let reused = reused.into_inner();
            assert!(reused > 250, "{threads} threads: {reused} results reused");
        }
    }

    /// A batch gives back the texts pushed, numbered from its first, and takes parts only
    /// when every end is in order and between characters.
    #[test]
    fn a_batch_holds_its_texts_in_one_buffer() {
        let mut batch = Batch::default();
        batch.clear(7);
        for text in ["één", "", "two words", "ß"] {
            batch.push(text);
        }
        let numbered: Vec<_> = batch.numbered().collect();
        assert_eq!(numbered, [(7, "één"), (8, ""), (9, "two words"), (10, "ß")]);
        assert_eq!((batch.len(), batch.bytes()), (4, 16));
        let (text, ends) = batch.clone().into_parts();
        assert!(text.is_empty() && ends.is_empty() && text.capacity() >= 16);
        let again = Batch::from_parts(7, "ééntwo wordsß".into(), vec![5, 5, 14, 16]);
        assert_eq!(again.unwrap(), batch);
        for ends in [vec![1], vec![4, 2], vec![17]] {
            assert!(
                Batch::from_parts(0, "ééntwo wordsß".into(), ends.clone()).is_err(),
                "{ends:?}"
            );
        }
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
