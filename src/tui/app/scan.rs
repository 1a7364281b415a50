//! The workbench's whole-text scans (statistics, the lines a reload changed, the lines where
//! the rows disagree) on every core: the same ordered pool as `toklab tokenize --threads`
//! (`toklab::core::batch`), so a scan of a large file takes the time of the CLI, and its findings
//! arrive in line order, batch by batch, exactly as one thread would find them.

use std::convert::Infallible;

use super::jobs::{Progress, lower_priority};
use crate::tui::document::Snapshot;
use toklab::core::batch::{self, Batch};

/// At most this many lines go to a worker at a time…
const BATCH_LINES: usize = 256;
/// …and at most about this much text, so a file of long lines still reports early and a
/// cancel waits for little work.
const BATCH_BYTES: usize = 64 << 10;

/// Consecutive lines of the text (numbered from 0), as one worker gets them.
pub type Lines = Batch;

/// Runs `work` over `snapshot`'s lines in batches on `threads` threads and hands each batch's
/// lines with its result, in line order, to `merge` (progress advances by the batch's lines).
/// The result goes back to the worker that made it when `merge` is done, to be freed there
/// (`toklab::core::batch`). Returns false when the scan was cancelled: reading stops at once
/// and the batches already handed out do no work, so `merge` may have seen only a prefix of
/// the text.
pub fn scan_lines<R: Send>(
    snapshot: &Snapshot,
    progress: &Progress,
    threads: usize,
    work: impl Fn(&Lines) -> R + Sync,
    mut merge: impl FnMut(&Lines, &mut R),
) -> bool {
    let total = snapshot.line_count();
    let mut next_line = 0;
    let read = |spare: Option<Lines>| -> Result<Option<Lines>, Infallible> {
        // A batch written is filled again, without allocating (`toklab::core::batch`).
        let mut lines = spare.unwrap_or_default();
        lines.clear(next_line);
        while next_line < total && lines.len() < BATCH_LINES && lines.bytes() < BATCH_BYTES {
            if progress.cancelled() {
                return Ok(None);
            }
            lines.push(&snapshot.line(next_line).unwrap_or_default());
            next_line += 1;
        }
        Ok((!lines.is_empty()).then_some(lines))
    };
    let run = |lines: &mut Lines, _written: Option<Option<R>>| {
        if progress.cancelled() {
            return None;
        }
        lower_priority();
        Some(work(lines))
    };
    let emit = |lines: &mut Lines, result: &mut Option<R>| {
        if let Some(result) = result {
            merge(lines, result);
            progress.advance(lines.len() as u64);
        }
        Ok(())
    };
    let Ok(()) = batch::ordered_map(threads, read, run, emit);
    !progress.cancelled()
}

/// The numbers of the lines for which `keep` holds, on every core: `found` gets each batch's
/// finds in line order (to take them, as `Vec::append` does) with the number of lines the
/// batch covered. Returns false when the scan was cancelled (see [`scan_lines`]).
pub fn lines_where(
    snapshot: &Snapshot,
    progress: &Progress,
    keep: impl Fn(&str) -> bool + Sync,
    mut found: impl FnMut(&mut Vec<usize>, usize),
) -> bool {
    let work = |lines: &Lines| -> Vec<usize> {
        lines
            .numbered()
            .filter(|(_, text)| keep(text))
            .map(|(n, _)| n)
            .collect()
    };
    scan_lines(snapshot, progress, threads(), work, |lines, finds| {
        found(finds, lines.len())
    })
}

/// The threads a scan uses: every core, as the CLI's `--threads` default.
pub fn threads() -> usize {
    batch::default_threads()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::jobs::Job;

    #[test]
    fn every_line_once_in_order_on_any_number_of_threads() {
        let text: String = (0..2000).map(|i| format!("line {i}\n")).collect();
        for threads in [1, 2, 4] {
            let snapshot = Snapshot::from_text(&text);
            let job = Job::spawn("scan", 2000, move |progress| {
                let mut seen = Vec::new();
                let mut counted = 0;
                let whole = scan_lines(
                    &snapshot,
                    progress,
                    threads,
                    |lines| {
                        lines
                            .numbered()
                            .map(|(n, t)| (n, t.to_string()))
                            .collect::<Vec<_>>()
                    },
                    |lines, part| {
                        counted += lines.len();
                        seen.append(part);
                    },
                );
                Some((whole, counted, seen))
            });
            let (whole, counted, seen) = loop {
                if let Some(result) = job.poll() {
                    break result.unwrap();
                }
                std::thread::yield_now();
            };
            assert!(whole);
            assert_eq!(counted, 2000);
            let expected: Vec<_> = (0..2000).map(|i| (i, format!("line {i}"))).collect();
            assert_eq!(seen, expected, "{threads} threads");
        }
    }

    #[test]
    fn long_lines_make_small_batches() {
        let line = "x".repeat(BATCH_BYTES / 2);
        let text: String = (0..10).map(|_| format!("{line}\n")).collect();
        let snapshot = Snapshot::from_text(&text);
        let job = Job::spawn("scan", 10, move |progress| {
            let mut sizes = Vec::new();
            scan_lines(
                &snapshot,
                progress,
                1,
                |lines| lines.len(),
                |_, n| sizes.push(*n),
            );
            Some(sizes)
        });
        let sizes = loop {
            if let Some(result) = job.poll() {
                break result.unwrap();
            }
            std::thread::yield_now();
        };
        assert_eq!(sizes, vec![2; 5]);
    }
}
