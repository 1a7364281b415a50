//! Statistics over the whole text, computed in the background with progress: tokens per line
//! and in total, characters per token and a token-length histogram for every tokenizer (the
//! figures are the library's [`TokenStats`]; this module runs them over the text in batches,
//! on every core).

use std::sync::{Arc, Mutex};

use crate::tui::app::jobs::Job;
use crate::tui::app::scan;
use crate::tui::document::Snapshot;
use toklab::analysis::{Fertility, HeapsCurve, TokenStats, VocabularyGrowth};
use toklab::core::token::Tokenization;
use toklab::core::tokenizer::Tokenizer;

/// Statistics of the whole text, filled in by a background job.
#[derive(Clone, Debug, Default)]
pub struct FileStats {
    pub labels: Vec<String>,
    /// One per label, in the same order.
    pub rows: Vec<TokenStats>,
    /// The growth of each row's vocabulary (Heaps' law), one per label.
    pub heaps: Vec<HeapsCurve>,
    /// Tokens per word and the share of words split, one per label.
    pub fertility: Vec<Fertility>,
    pub lines_done: usize,
    pub lines_total: usize,
    pub complete: bool,
}

/// A statistics computation: its job while it runs, and the figures so far.
pub struct StatsRun {
    pub job: Option<Job<()>>,
    pub figures: Arc<Mutex<FileStats>>,
    /// The rows it covers, by label and tokenizer instance (see `StatsPane::refresh`).
    pub covers: Vec<(String, usize)>,
}

impl StatsRun {
    /// A copy of the figures so far.
    pub fn figures(&self) -> FileStats {
        self.figures.lock().expect("stats lock").clone()
    }
}

/// What one worker computes over a batch of lines: figures that merge in any order, and the
/// tokens themselves for the vocabulary growth, which must see the lines in order.
struct Part {
    stats: Vec<TokenStats>,
    fertility: Vec<Fertility>,
    /// Each line's tokenizations, one per row, in the order of the batch's lines.
    tokenized: Vec<Vec<Tokenization>>,
}

/// Starts computing statistics of `snapshot` for `tokenizers` (label, tokenizer); the shared
/// result fills in line by line so the view can show it growing.
pub fn start(
    snapshot: Snapshot,
    tokenizers: Vec<(String, Arc<dyn Tokenizer>)>,
) -> (Job<()>, Arc<Mutex<FileStats>>) {
    let lines_total = snapshot.line_count();
    let shared = Arc::new(Mutex::new(FileStats {
        labels: tokenizers.iter().map(|(l, _)| l.clone()).collect(),
        rows: vec![TokenStats::default(); tokenizers.len()],
        heaps: vec![HeapsCurve::default(); tokenizers.len()],
        fertility: vec![Fertility::default(); tokenizers.len()],
        lines_done: 0,
        lines_total,
        complete: false,
    }));
    let filled = Arc::clone(&shared);
    let job = Job::spawn("statistics", lines_total as u64, move |progress| {
        let rows = tokenizers.len();
        // The vocabularies grow in file order, so they are fed as the batches come back (in
        // order) on this thread; the shared figures get a copy of their samples each batch.
        let mut growth = vec![VocabularyGrowth::default(); rows];
        let whole = scan::scan_lines(
            &snapshot,
            progress,
            scan::threads(),
            |lines| {
                let mut part = Part {
                    stats: vec![TokenStats::default(); rows],
                    fertility: vec![Fertility::default(); rows],
                    tokenized: Vec::with_capacity(lines.len()),
                };
                for text in lines.iter() {
                    let mut per_row = Vec::with_capacity(rows);
                    for (((_, tokenizer), stats), fertility) in tokenizers
                        .iter()
                        .zip(&mut part.stats)
                        .zip(&mut part.fertility)
                    {
                        let tokens = tokenizer.tokenize(text);
                        stats.add(text, &tokens);
                        fertility.add(text, &tokens);
                        per_row.push(tokens);
                    }
                    part.tokenized.push(per_row);
                }
                part
            },
            |lines, part| {
                for (text, per_row) in lines.iter().zip(&part.tokenized) {
                    for (growth, tokens) in growth.iter_mut().zip(per_row) {
                        growth.add(text, tokens);
                    }
                }
                let mut all = filled.lock().expect("stats lock");
                for (total, part) in all.rows.iter_mut().zip(part.stats.drain(..)) {
                    total.merge(part);
                }
                for (curve, growth) in all.heaps.iter_mut().zip(&growth) {
                    *curve = growth.curve();
                }
                for (total, part) in all.fertility.iter_mut().zip(&part.fertility) {
                    total.merge(part);
                }
                all.lines_done += lines.len();
            },
        );
        filled.lock().expect("stats lock").complete = whole;
        whole.then_some(())
    });
    (job, shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_line() {
        let text: String = (0..1000).map(|i| format!("a bb ccc {i}\n")).collect();
        let ws: Arc<dyn Tokenizer> = Arc::from(toklab::load("ws").unwrap());
        let (job, stats) = start(Snapshot::from_text(&text), vec![("ws".into(), ws)]);
        while job.poll().is_none() {
            std::thread::yield_now();
        }
        let stats = stats.lock().unwrap();
        assert!(stats.complete);
        assert_eq!(stats.lines_done, 1000);
        let row = &stats.rows[0];
        assert_eq!(row.tokens, 4000);
        assert_eq!(row.texts(), 1000);
        assert_eq!(row.lengths[0], 1000 + 10);
        assert_eq!(row.lengths[1], 1000 + 90);
        assert_eq!(row.lengths[2], 1000 + 900);
        assert!((row.chars_per_token() - (6000.0 + 2890.0) / 4000.0).abs() < 1e-9);
        // Types: a, bb, ccc and the 1000 numbers.
        assert_eq!(stats.heaps[0].points.last(), Some(&(4000, 1003)));
        assert!(stats.heaps[0].fit().is_some());
        // 4 words a line, none split by `ws`.
        let fertility = &stats.fertility[0];
        assert_eq!((fertility.words, fertility.split_words), (4000, 0));
        assert_eq!(fertility.tokens_per_word(), 1.0);
    }
}
