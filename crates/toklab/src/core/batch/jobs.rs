//! The items read and not yet taken, shared by the workers and the calling thread.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// A queue of numbered items: the calling thread adds them, and takes one when it has nothing
/// to write yet; a worker waits for one. A thread that adds an item wakes a sleeping worker
/// only when there is one, so a queue that never runs dry costs no system call.
pub(super) struct Jobs<I> {
    queue: Mutex<Queue<I>>,
    ready: Condvar,
}

struct Queue<I> {
    items: VecDeque<(u64, I)>,
    /// No item will be added: a worker that finds the queue empty stops.
    closed: bool,
    /// Workers waiting for an item.
    sleeping: usize,
}

impl<I> Jobs<I> {
    pub(super) fn new() -> Self {
        let queue = Queue {
            items: VecDeque::new(),
            closed: false,
            sleeping: 0,
        };
        Jobs {
            queue: Mutex::new(queue),
            ready: Condvar::new(),
        }
    }

    /// The lock is never held while user code runs, so a poisoned lock holds a sound queue.
    fn lock(&self) -> MutexGuard<'_, Queue<I>> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds item number `index`.
    pub(super) fn push(&self, index: u64, item: I) {
        let mut queue = self.lock();
        queue.items.push_back((index, item));
        let wake = queue.sleeping > 0;
        drop(queue);
        if wake {
            self.ready.notify_one();
        }
    }

    /// The oldest item, if any, without waiting.
    pub(super) fn try_pop(&self) -> Option<(u64, I)> {
        self.lock().items.pop_front()
    }

    /// The oldest item, waiting for one; `None` once the queue is closed and empty.
    pub(super) fn pop_wait(&self) -> Option<(u64, I)> {
        let mut queue = self.lock();
        loop {
            if let Some(job) = queue.items.pop_front() {
                return Some(job);
            }
            if queue.closed {
                return None;
            }
            queue.sleeping += 1;
            queue = self
                .ready
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
            queue.sleeping -= 1;
        }
    }

    /// No more items: the workers stop once the queue is empty.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

/// Closes the queue when dropped, also when the calling thread unwinds (a panic resumed from a
/// worker), so no worker waits for ever.
pub(super) struct CloseOnDrop<'a, I>(pub(super) &'a Jobs<I>);

impl<I> Drop for CloseOnDrop<'_, I> {
    fn drop(&mut self) {
        self.0.close();
    }
}
