//! What a reload changed: when a row's tokenizer is replaced (an edited rule file or grammar),
//! every line of the text is tokenized by the old and the new tokenizer in the background, and
//! the lines whose tokens differ are listed, so a rule author sees at once what an edit did to
//! the whole file (a regression check) and steps through those lines with `]c` and `[c`.

use std::sync::{Arc, Mutex};

use super::jobs::Job;
use super::scan;
use super::{App, Mode};
use crate::tui::document::Snapshot;
use toklab::Tokenization;
use toklab::core::tokenizer::Tokenizer;

/// The lines one reload changed, filled in by a background job.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangedLines {
    /// The reloaded row's label.
    pub label: String,
    /// Lines (0-based) whose tokens differ, in order.
    pub lines: Vec<usize>,
    pub lines_done: usize,
    pub complete: bool,
}

/// A comparison of a reload: its job while it runs, and the lines found so far.
pub struct ChangeRun {
    pub job: Option<Job<()>>,
    pub found: Arc<Mutex<ChangedLines>>,
    /// The tokenizers before and after the reload, to show a changed line both ways.
    pub old: Arc<dyn Tokenizer>,
    pub new: Arc<dyn Tokenizer>,
    /// The listing of the changed lines, before | after, covers the lower pane (`C`).
    pub shown: bool,
}

impl ChangeRun {
    /// A copy of the lines found so far.
    pub fn found(&self) -> ChangedLines {
        self.found.lock().expect("changes lock").clone()
    }
}

/// Whether two tokenizations of `text` differ for a reader: in a token's place, its output
/// form or its kind, or in the sentence ends (not in the origins: an entry that moved down
/// a line in its file changes no token).
pub fn differ(text: &str, old: &Tokenization, new: &Tokenization) -> bool {
    old.len() != new.len()
        || old.sentence_ends != new.sentence_ends
        || old
            .tokens
            .iter()
            .zip(&new.tokens)
            .any(|(a, b)| a.span != b.span || a.kind != b.kind || a.form(text) != b.form(text))
}

/// Starts comparing `old` and `new` on every line of `snapshot`.
pub fn start(
    snapshot: Snapshot,
    label: String,
    old: Arc<dyn Tokenizer>,
    new: Arc<dyn Tokenizer>,
) -> ChangeRun {
    let total = snapshot.line_count();
    let found = Arc::new(Mutex::new(ChangedLines {
        label,
        ..ChangedLines::default()
    }));
    let shared = Arc::clone(&found);
    let (old_kept, new_kept) = (Arc::clone(&old), Arc::clone(&new));
    let job = Job::spawn("changes", total as u64, move |progress| {
        let whole = scan::lines_where(
            &snapshot,
            progress,
            |text| differ(text, &old.tokenize(text), &new.tokenize(text)),
            |changed, lines| {
                let mut all = shared.lock().expect("changes lock");
                all.lines.append(changed);
                all.lines_done += lines;
            },
        );
        shared.lock().expect("changes lock").complete = whole;
        whole.then_some(())
    });
    ChangeRun {
        job: Some(job),
        found,
        old: old_kept,
        new: new_kept,
        shown: false,
    }
}

impl App {
    /// A row's tokenizer was replaced: compare the old one with the new on the whole text
    /// (replacing the comparison of an earlier reload).
    pub(super) fn compare_reload(&mut self, row: usize) {
        if row >= self.rows.len() {
            return;
        }
        let row = &self.rows[row];
        let (Some(old), Some(new)) = (row.replaced.clone(), row.tokenizer().cloned()) else {
            return;
        };
        let label = row.setup.label.clone();
        let mut shown = false;
        if let Some(run) = self.changes.take() {
            shown = run.shown;
            if let Some(job) = run.job {
                job.cancel();
            }
        }
        let mut run = start(self.doc.lines.snapshot(), label, old, new);
        run.shown = shown;
        self.changes = Some(run);
    }

    /// The last reload's comparison, for the listing of its changed lines.
    pub fn reload_changes(&self) -> Option<&ChangeRun> {
        self.changes.as_ref()
    }

    /// `C`: the changed lines before | after over the lower pane, or the view back.
    pub(super) fn toggle_changes(&mut self) {
        match &mut self.changes {
            Some(run) => run.shown = !run.shown,
            None => self.flash(
                "no reload to compare yet: after a rule file or grammar reloads, C lists the \
                 lines it changed, before | after",
            ),
        }
    }

    /// Esc on the listing closes it; true if it was open.
    pub(super) fn close_changes(&mut self) -> bool {
        match &mut self.changes {
            Some(run) if run.shown => {
                run.shown = false;
                true
            }
            _ => false,
        }
    }

    /// `]c` (`forward`) and `[c`: the next or previous line the last reload changed.
    pub(super) fn go_to_change(&mut self, forward: bool) {
        let Some(run) = &self.changes else {
            self.flash(
                "no reload to compare yet: ]c and [c step through the lines a reload changed",
            );
            return;
        };
        let found = run.found();
        let here = self.doc.line;
        let target = if forward {
            found.lines.iter().find(|&&n| n > here)
        } else {
            found.lines.iter().rev().find(|&&n| n < here)
        };
        match target {
            Some(&n) => {
                if matches!(self.mode, Mode::Insert { .. }) {
                    return;
                }
                self.go_to_line(n);
                let i = found.lines.iter().position(|&l| l == n).unwrap_or(0);
                self.flash(format!(
                    "changed line {}/{}{} by the reload of {}",
                    i + 1,
                    found.lines.len(),
                    if found.complete {
                        ""
                    } else {
                        "+ (still comparing)"
                    },
                    found.label
                ));
            }
            None => self.flash(format!(
                "no {} line changed by the reload of {} ({} changed{})",
                if forward { "later" } else { "earlier" },
                found.label,
                found.lines.len(),
                if found.complete { "" } else { " so far" }
            )),
        }
    }

    /// For the status bar: how many lines the last reload changed, and whether it is done.
    pub fn changed_summary(&self) -> Option<String> {
        let found = self.changes.as_ref()?.found();
        Some(format!(
            "{} line{} changed{}",
            found.lines.len(),
            if found.lines.len() == 1 { "" } else { "s" },
            if found.complete { "" } else { "…" }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_lines_two_tokenizers_split_differently() {
        let text = "a-b c\nplain words\nx-y\n";
        let ws: Arc<dyn Tokenizer> = Arc::from(toklab::load("ws").unwrap());
        let split: Arc<dyn Tokenizer> = Arc::from(toklab::load(r"regex:\w+|[^\w\s]").unwrap());
        let run = start(Snapshot::from_text(text), "r".into(), ws, split);
        while run.job.as_ref().unwrap().poll().is_none() {
            std::thread::yield_now();
        }
        let found = run.found();
        assert!(found.complete);
        assert_eq!(found.lines, [0, 2]);
        assert_eq!(found.lines_done, 3);
    }
}
