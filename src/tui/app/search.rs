//! Search over the text (`/`): runs in the background over a snapshot, so a search through
//! a 100 MB file never freezes the interface; smart case as in vi and less.

use super::App;
use super::jobs::Job;
use crate::tui::document::Snapshot;

/// Where a match is: line and byte range in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

/// The last search and, while it runs, its job.
pub struct Search {
    pub query: String,
    pub job: Option<Job<Option<Hit>>>,
}

/// Whether the query matches case-insensitively: only when it has no capital letter.
fn ignore_case(query: &str) -> bool {
    !query.chars().any(char::is_uppercase)
}

/// The matches of `query` in one line, as byte ranges.
pub fn find_in_line(line: &str, query: &str) -> Vec<(usize, usize)> {
    if query.is_empty() {
        return Vec::new();
    }
    if ignore_case(query) {
        let lowered = lower_with_offsets(line);
        let needle = query.to_lowercase();
        let mut hits = Vec::new();
        let mut from = 0;
        while let Some(i) = lowered.text[from..].find(&needle) {
            let start = lowered.offsets[from + i];
            let end = lowered.offsets[from + i + needle.len()];
            hits.push((start, end));
            from += i + needle.len().max(1);
        }
        hits
    } else {
        line.match_indices(query)
            .map(|(i, m)| (i, i + m.len()))
            .collect()
    }
}

/// A lowercased copy of a line with, for every byte of the copy, the offset in the original.
struct Lowered {
    text: String,
    offsets: Vec<usize>,
}

fn lower_with_offsets(line: &str) -> Lowered {
    let mut text = String::with_capacity(line.len());
    let mut offsets = Vec::with_capacity(line.len() + 1);
    for (i, c) in line.char_indices() {
        for l in c.to_lowercase() {
            text.push(l);
            offsets.extend(std::iter::repeat_n(i, l.len_utf8()));
        }
    }
    offsets.push(line.len());
    Lowered { text, offsets }
}

/// Starts searching `snapshot` for `query` from the line after `from` (before it, going
/// backwards), wrapping around the end.
pub fn start(snapshot: Snapshot, query: String, from: usize, forward: bool) -> Job<Option<Hit>> {
    let total = snapshot.line_count() as u64;
    Job::spawn("search", total, move |progress| {
        let count = snapshot.line_count();
        for step in 1..=count {
            if progress.cancelled() {
                return None;
            }
            let line = if forward {
                (from + step) % count
            } else {
                (from + count * 2 - step) % count
            };
            if let Some(text) = snapshot.line(line)
                && let Some(&(start, end)) = find_in_line(&text, &query).first()
            {
                return Some(Some(Hit { line, start, end }));
            }
            progress.advance(1);
        }
        Some(None)
    })
}

impl App {
    pub(super) fn search_again(&mut self, forward: bool) {
        let Some(search) = &mut self.doc.search else {
            self.flash("no search yet: / starts one");
            return;
        };
        if let Some(job) = search.job.take() {
            job.cancel();
        }
        search.job = Some(start(
            self.doc.lines.snapshot(),
            search.query.clone(),
            self.doc.line,
            forward,
        ));
    }

    pub(super) fn poll_search(&mut self) {
        let Some(search) = &mut self.doc.search else {
            return;
        };
        let Some(result) = search.job.as_ref().and_then(|j| j.poll()) else {
            return;
        };
        search.job = None;
        let query = search.query.clone();
        match result {
            Ok(Some(hit)) => {
                self.go_to_line(hit.line);
                let token = self
                    .rows
                    .selected_row()
                    .map(|r| r.tokens.tokens.partition_point(|t| t.span.end <= hit.start));
                self.select_token(token);
            }
            Ok(None) => self.flash(format!("not found: {query}")),
            Err(()) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case() {
        assert_eq!(
            find_in_line("Dog dog DOG", "dog"),
            [(0, 3), (4, 7), (8, 11)]
        );
        assert_eq!(find_in_line("Dog dog DOG", "Dog"), [(0, 3)]);
        assert_eq!(find_in_line("İstanbul straße", "straße"), [(10, 17)]);
        assert!(find_in_line("abc", "").is_empty());
    }

    #[test]
    fn searches_forward_and_wraps() {
        let snap = Snapshot::from_text("alpha\nbeta\ngamma\nalphabet");
        let wait = |job: Job<Option<Hit>>| loop {
            if let Some(r) = job.poll() {
                return r.unwrap();
            }
        };
        assert_eq!(
            wait(start(snap.clone(), "alpha".into(), 0, true))
                .unwrap()
                .line,
            3
        );
        assert_eq!(
            wait(start(snap.clone(), "alpha".into(), 3, true))
                .unwrap()
                .line,
            0
        );
        assert_eq!(
            wait(start(snap.clone(), "beta".into(), 3, false))
                .unwrap()
                .line,
            1
        );
        assert_eq!(wait(start(snap, "zeta".into(), 0, true)), None);
    }
}
