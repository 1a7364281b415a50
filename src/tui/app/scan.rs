//! The workbench's whole-text scans (statistics, the lines a reload changed, the lines where
//! the rows disagree) on every core: the same ordered pool as `toklab tokenize --threads`
//! (`toklab::core::batch`), so a scan of a large file takes the time of the CLI, and its findings
//! arrive in line order, batch by batch, exactly as one thread would find them.

use std::convert::Infallible;

use super::jobs::{Progress, lower_priority};
use crate::tui::document::Snapshot;
use toklab::core::batch;

/// At most this many lines go to a worker at a time…
const BATCH_LINES: usize = 256;
/// …and at most about this much text, so a file of long lines still reports early and a
/// cancel waits for little work.
const BATCH_BYTES: usize = 64 << 10;

/// Numbered lines of the text, as one worker gets them.
pub type Lines = Vec<(usize, String)>;

/// Runs `work` over `snapshot`'s lines in batches on `threads` threads and hands each result,
/// in line order, to `merge` with the number of lines it covers (progress advances by as
/// much). Returns false when the scan was cancelled: reading stops at once and the batches
/// already handed out do no work, so `merge` may have seen only a prefix of the text.
pub fn scan_lines<R: Send>(
    snapshot: &Snapshot,
    progress: &Progress,
    threads: usize,
    work: impl Fn(&Lines) -> R + Sync,
    mut merge: impl FnMut(R, usize),
) -> bool {
    let total = snapshot.line_count();
    let mut next_line = 0;
    let read = || -> Result<Option<Lines>, Infallible> {
        let mut lines = Vec::new();
        let mut bytes = 0;
        while next_line < total && lines.len() < BATCH_LINES && bytes < BATCH_BYTES {
            if progress.cancelled() {
                return Ok(None);
            }
            let text = snapshot.line(next_line).unwrap_or_default().into_owned();
            bytes += text.len();
            lines.push((next_line, text));
            next_line += 1;
        }
        Ok((!lines.is_empty()).then_some(lines))
    };
    let run = |lines: Lines| {
        if progress.cancelled() {
            return None;
        }
        lower_priority();
        Some((work(&lines), lines.len()))
    };
    let emit = |result: Option<(R, usize)>| {
        if let Some((result, count)) = result {
            merge(result, count);
            progress.advance(count as u64);
        }
        Ok(())
    };
    let Ok(()) = batch::ordered_map(threads, read, run, emit);
    !progress.cancelled()
}

/// The numbers of the lines for which `keep` holds, on every core: `found` gets each batch's
/// finds in line order with the number of lines the batch covered. Returns false when the
/// scan was cancelled (see [`scan_lines`]).
pub fn lines_where(
    snapshot: &Snapshot,
    progress: &Progress,
    keep: impl Fn(&str) -> bool + Sync,
    found: impl FnMut(Vec<usize>, usize),
) -> bool {
    let work = |lines: &Lines| -> Vec<usize> {
        lines
            .iter()
            .filter(|(_, text)| keep(text))
            .map(|(n, _)| *n)
            .collect()
    };
    scan_lines(snapshot, progress, threads(), work, found)
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
                            .iter()
                            .map(|(n, t)| (*n, t.clone()))
                            .collect::<Vec<_>>()
                    },
                    |part, count| {
                        counted += count;
                        seen.extend(part);
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
                |n, _| sizes.push(n),
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
