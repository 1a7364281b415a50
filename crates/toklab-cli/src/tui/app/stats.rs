//! Statistics over the whole text, computed in the background with progress: tokens per line
//! and in total, characters per token and a token-length histogram for every tokenizer.

use std::sync::{Arc, Mutex};

use super::jobs::Job;
use crate::tui::document::Snapshot;
use toklab::engine::Tokenizer;
use toklab::token::Tokenization;

/// Token lengths (in code points) are counted in buckets 1..=MAX_LENGTH, the last holding all
/// longer tokens.
pub const MAX_LENGTH: usize = 16;

/// The figures of one tokenizer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowStats {
    pub tokens: u64,
    /// Code points covered by tokens.
    pub chars: u64,
    pub sentences: u64,
    /// Tokens of every line, in order (for the sparkline).
    pub per_line: Vec<u32>,
    /// `lengths[k]` counts tokens of k+1 code points (the last bucket: MAX_LENGTH or more).
    pub lengths: [u64; MAX_LENGTH],
}

impl RowStats {
    pub fn add(&mut self, text: &str, tokens: &Tokenization) {
        self.tokens += tokens.len() as u64;
        self.sentences += tokens.sentence_ranges().len() as u64;
        self.per_line
            .push(tokens.len().min(u32::MAX as usize) as u32);
        for token in &tokens.tokens {
            let chars = token.span.slice(text).chars().count();
            self.chars += chars as u64;
            self.lengths[chars.clamp(1, MAX_LENGTH) - 1] += 1;
        }
    }

    pub fn chars_per_token(&self) -> f64 {
        if self.tokens == 0 {
            0.0
        } else {
            self.chars as f64 / self.tokens as f64
        }
    }
}

/// Statistics of the whole text, filled in by a background job.
#[derive(Clone, Debug, Default)]
pub struct FileStats {
    pub labels: Vec<String>,
    pub rows: Vec<RowStats>,
    pub lines_done: usize,
    pub lines_total: usize,
    pub complete: bool,
}

/// A statistics computation: its job while it runs, and the figures so far.
pub struct StatsRun {
    pub job: Option<Job<()>>,
    pub figures: Arc<Mutex<FileStats>>,
}

impl StatsRun {
    /// A copy of the figures so far.
    pub fn figures(&self) -> FileStats {
        self.figures.lock().expect("stats lock").clone()
    }
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
        rows: vec![RowStats::default(); tokenizers.len()],
        lines_done: 0,
        lines_total,
        complete: false,
    }));
    let filled = Arc::clone(&shared);
    let job = Job::spawn("statistics", lines_total as u64, move |progress| {
        let mut batch = vec![RowStats::default(); tokenizers.len()];
        let mut batch_lines = 0;
        for n in 0..lines_total {
            if progress.cancelled() {
                return None;
            }
            let text = snapshot.line(n).unwrap_or_default();
            for ((_, tokenizer), stats) in tokenizers.iter().zip(&mut batch) {
                stats.add(&text, &tokenizer.tokenize(&text));
            }
            batch_lines += 1;
            if batch_lines == 256 || n + 1 == lines_total {
                let mut all = filled.lock().expect("stats lock");
                for (total, part) in all.rows.iter_mut().zip(&mut batch) {
                    merge(total, std::mem::take(part));
                }
                all.lines_done += batch_lines;
                progress.advance(batch_lines as u64);
                batch_lines = 0;
            }
        }
        filled.lock().expect("stats lock").complete = true;
        Some(())
    });
    (job, shared)
}

fn merge(total: &mut RowStats, part: RowStats) {
    total.tokens += part.tokens;
    total.chars += part.chars;
    total.sentences += part.sentences;
    total.per_line.extend(part.per_line);
    for (t, p) in total.lengths.iter_mut().zip(part.lengths) {
        *t += p;
    }
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
        assert_eq!(row.per_line.len(), 1000);
        assert_eq!(row.lengths[0], 1000 + 10);
        assert_eq!(row.lengths[1], 1000 + 90);
        assert_eq!(row.lengths[2], 1000 + 900);
        assert!((row.chars_per_token() - (6000.0 + 2890.0) / 4000.0).abs() < 1e-9);
    }
}
