//! Background work with progress and cancellation, so loading a large automaton, computing
//! statistics over a 100 MB file or training BPE never freezes the interface.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// What a worker sees: where to report progress and whether to stop.
#[derive(Clone)]
pub struct Progress {
    done: Arc<AtomicU64>,
    total: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
}

impl Progress {
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// A running piece of work that ends with one result of type `T`.
pub struct Job<T> {
    pub label: String,
    progress: Progress,
    receiver: Receiver<T>,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on its own thread. `work` returns `None` when it was cancelled.
    pub fn spawn(
        label: impl Into<String>,
        total: u64,
        work: impl FnOnce(&Progress) -> Option<T> + Send + 'static,
    ) -> Job<T> {
        let progress = Progress {
            done: Arc::new(AtomicU64::new(0)),
            total: Arc::new(AtomicU64::new(total)),
            cancel: Arc::new(AtomicBool::new(false)),
        };
        let (sender, receiver) = mpsc::channel();
        let worker = progress.clone();
        let label = label.into();
        std::thread::Builder::new()
            .name(format!("toklab-{label}"))
            .spawn(move || {
                lower_priority();
                if let Some(result) = work(&worker) {
                    let _ = sender.send(result);
                }
            })
            .expect("spawn a worker thread");
        Job {
            label,
            progress,
            receiver,
        }
    }

    /// The result if the work is done: `Some(Ok(result))`, `Some(Err(()))` if it ended without
    /// one (cancelled, or the worker panicked), `None` while it runs.
    pub fn poll(&self) -> Option<Result<T, ()>> {
        match self.receiver.try_recv() {
            Ok(result) => Some(Ok(result)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(())),
        }
    }

    /// Done so far, 0.0 to 1.0 (0 when the total is unknown).
    pub fn fraction(&self) -> f64 {
        let total = self.progress.total.load(Ordering::Relaxed);
        if total == 0 {
            return 0.0;
        }
        (self.progress.done.load(Ordering::Relaxed) as f64 / total as f64).min(1.0)
    }

    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }
}

/// Makes the calling thread yield to the interface thread: on Linux a thread has its own nice
/// value, so this leaves the rest of the process alone. Best effort: failure changes nothing.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority with PRIO_PROCESS and who = 0 only changes the calling thread's nice
    // value (Linux keeps one per thread); it touches no memory.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn wait<T: Send + 'static>(job: &Job<T>) -> Result<T, ()> {
        loop {
            if let Some(r) = job.poll() {
                return r;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn reports_progress_and_result() {
        let job = Job::spawn("sum", 100, |p| {
            let mut sum = 0;
            for i in 0..100 {
                sum += i;
                p.advance(1);
            }
            Some(sum)
        });
        assert_eq!(wait(&job), Ok(4950));
        assert_eq!(job.fraction(), 1.0);
    }

    #[test]
    fn cancel_ends_without_result() {
        let job: Job<()> = Job::spawn("spin", 0, |p| {
            while !p.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            None
        });
        job.cancel();
        assert_eq!(wait(&job), Err(()));
    }
}
