//! The lines where the rows disagree: a background scan over the whole text on every core (the
//! same job machinery as the statistics) finds every line whose rows do not draw the same boundaries,
//! `]d` and `[d` jump between them, and the status bar says "difference n of m". The scan
//! never blocks the interface: a jump past what it has read waits for it, and says so.

use std::sync::{Arc, Mutex};

use super::jobs::Job;
use super::scan;
use super::{App, Row};
use crate::counted::counted;
use crate::tui::document::Snapshot;
use toklab::analysis::compare::{BoundaryDiff, Presence};
use toklab::core::tokenizer::Tokenizer;

/// What the scan found so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DiffLines {
    /// Lines (from 0) where the rows disagree, ascending.
    pub lines: Vec<usize>,
    /// Lines read so far (lines `0..done` are settled).
    pub done: usize,
    pub total: usize,
    pub complete: bool,
}

/// A scan of the text and what it was started for.
pub struct DiffScan {
    job: Option<Job<()>>,
    found: Arc<Mutex<DiffLines>>,
    /// The document (`DocState::id`), its line count and the rows' tokenizers the scan
    /// covers; any change makes it stale.
    doc: u64,
    line_count: usize,
    tokenizers: Vec<usize>,
    /// `]d` / `[d` asked for a line the scan has not reached: (forward, count).
    pending: Option<(bool, usize)>,
}

impl DiffScan {
    /// A copy of the findings so far.
    pub fn found(&self) -> DiffLines {
        self.found.lock().expect("diff lock").clone()
    }

    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Records that line `n` was edited and now does (or does not) disagree.
    pub fn note_line(&mut self, n: usize, disagrees: bool) {
        let mut found = self.found.lock().expect("diff lock");
        match (found.lines.binary_search(&n), disagrees) {
            (Ok(i), false) => {
                found.lines.remove(i);
            }
            (Err(i), true) if n < found.done => found.lines.insert(i, n),
            _ => {}
        }
    }
}

impl Drop for DiffScan {
    fn drop(&mut self) {
        if let Some(job) = &self.job {
            job.cancel();
        }
    }
}

/// Whether the tokenizations of one line disagree anywhere: some row draws a boundary the
/// first does not, or lacks one it draws (as `compare` counts boundaries).
pub fn disagree(text: &str, tokenizations: &[toklab::core::token::Tokenization]) -> bool {
    let Some((first, rest)) = tokenizations.split_first() else {
        return false;
    };
    rest.iter().any(|other| {
        BoundaryDiff::new(text, first, other)
            .boundaries
            .iter()
            .any(|b| b.side != Presence::Both)
    })
}

/// Starts scanning `snapshot` with `tokenizers`; findings fill in as it reads.
pub fn start(
    snapshot: Snapshot,
    tokenizers: Vec<Arc<dyn Tokenizer>>,
) -> (Job<()>, Arc<Mutex<DiffLines>>) {
    let total = snapshot.line_count();
    let shared = Arc::new(Mutex::new(DiffLines {
        total,
        ..DiffLines::default()
    }));
    let found = Arc::clone(&shared);
    let job = Job::spawn("differences", total as u64, move |progress| {
        let whole = scan::lines_where(
            &snapshot,
            progress,
            |text| {
                let tokens: Vec<_> = tokenizers.iter().map(|t| t.tokenize(text)).collect();
                disagree(text, &tokens)
            },
            |differing, lines| {
                let mut all = found.lock().expect("diff lock");
                all.lines.append(differing);
                all.done += lines;
            },
        );
        found.lock().expect("diff lock").complete = whole;
        whole.then_some(())
    });
    (job, shared)
}

/// The tokenizers compared, and their identities to tell a reload or another selection: the
/// selected row's and the pinned row's when a row is pinned, else every row that loaded (a
/// failed row is never compared).
fn tokenizers(app: &App) -> (Vec<Arc<dyn Tokenizer>>, Vec<usize>) {
    let list: Vec<Arc<dyn Tokenizer>> = match app.rows.pinned() {
        Some(pin) => [app.rows.selected, pin]
            .iter()
            .filter_map(|&i| app.rows.get(i).and_then(Row::tokenizer))
            .cloned()
            .collect(),
        None => app
            .rows
            .iter()
            .filter_map(Row::tokenizer)
            .cloned()
            .collect(),
    };
    let ids = list
        .iter()
        .map(|t| Arc::as_ptr(t) as *const () as usize)
        .collect();
    (list, ids)
}

impl App {
    /// The scan of the current text and rows, started if there is none or it is stale;
    /// `None` with fewer than two rows.
    fn diff_scan(&mut self) -> Option<&mut DiffScan> {
        if self.chat.is_some() {
            self.flash(
                "a conversation: each row tokenizes its own prompt, so no line compares rows; compare their counts",
            );
            return None;
        }
        if self.rows.pinned() == Some(self.rows.selected) {
            self.flash("the pinned row is selected: Tab to the row to compare with it");
            return None;
        }
        let (list, ids) = tokenizers(self);
        if list.len() < 2 {
            self.flash("differences need two tokenizer rows (a adds one)");
            return None;
        }
        let fresh = self.diffs.as_ref().is_some_and(|s| {
            s.doc == self.doc.id
                && s.line_count == self.doc.lines.line_count()
                && s.tokenizers == ids
        });
        if !fresh {
            let (job, found) = start(self.doc.lines.snapshot(), list);
            self.diffs = Some(DiffScan {
                job: Some(job),
                found,
                doc: self.doc.id,
                line_count: self.doc.lines.line_count(),
                tokenizers: ids,
                pending: None,
            });
        }
        self.diffs.as_mut()
    }

    /// Counts the differing lines again from the start (`:diffs`).
    pub(super) fn rescan_diffs(&mut self) {
        self.diffs = None;
        if self.diff_scan().is_some() {
            self.flash("counting the lines where the rows disagree…");
        }
    }

    /// `]d` / `[d`: to the `count`-th next (or previous) line where the rows disagree.
    pub(super) fn jump_to_diff(&mut self, forward: bool, count: usize) {
        let line = self.doc.line;
        let Some(scan) = self.diff_scan() else {
            return;
        };
        let found = scan.found();
        match target(&found, line, forward, count.max(1)) {
            Some(n) => {
                let waited = scan.pending.take().is_some();
                self.go_to_line(n);
                if waited {
                    // The "looking for…" note is answered: the status bar says where we are.
                    self.message = None;
                }
            }
            None if found.complete || (!forward && found.done >= line) => {
                scan.pending = None;
                let side = if forward { "below" } else { "above" };
                let total = counted(found.lines.len(), "differing line");
                self.flash(format!(
                    "no line {side} where the rows disagree ({total} in the file)"
                ));
            }
            None => {
                scan.pending = Some((forward, count));
                let percent = 100 * found.done / found.total.max(1);
                self.flash(format!(
                    "looking for the next line where the rows disagree… ({percent}% read)"
                ));
            }
        }
    }

    /// On every tick: notices the end of the scan and makes a waiting jump.
    pub(super) fn poll_diffs(&mut self) {
        let Some(scan) = &mut self.diffs else {
            return;
        };
        if scan.job.as_ref().is_some_and(|j| j.poll().is_some()) {
            scan.job = None;
        }
        if let Some((forward, count)) = scan.pending {
            let found = scan.found();
            if target(&found, self.doc.line, forward, count).is_some() || found.complete {
                self.jump_to_diff(forward, count);
            }
        }
    }

    /// After an edit of the current line: the scan learns whether it disagrees now (the
    /// pinned row with the selected one, when a row is pinned).
    pub(super) fn note_edited_line(&mut self) {
        let disagrees = match self.rows.pinned() {
            Some(pin) => self.rows.get(pin).is_some_and(|r| !r.disagree.is_empty()),
            None => self.rows.iter().any(|r| !r.disagree.is_empty()),
        };
        let line = self.doc.line;
        if let Some(scan) = &mut self.diffs {
            scan.note_line(line, disagrees);
        }
    }

    /// `*`: pins the selected row, or unpins it if it is the pinned one; `]d` / `[d` then
    /// compare the selected row with the pinned one only.
    pub(super) fn toggle_pin(&mut self) {
        let selected = self.rows.selected;
        let Some(label) = self.rows.get(selected).map(|r| r.setup.label.clone()) else {
            return;
        };
        let unpin = self.rows.pinned() == Some(selected);
        for (i, row) in self.rows.iter_mut().enumerate() {
            row.pinned = !unpin && i == selected;
        }
        self.flash(if unpin {
            format!("{label} unpinned: ]d [d compare every row")
        } else {
            format!("{label} pinned: Tab to another row; ]d [d compare it with {label}")
        });
    }

    /// "difference n of m" for the status bar (m with a `+` while counting).
    pub fn diff_status(&self) -> Option<String> {
        let found = self.diffs.as_ref()?.found();
        let total = format!(
            "{}{}",
            found.lines.len(),
            if found.complete { "" } else { "+" }
        );
        Some(match found.lines.binary_search(&self.doc.line) {
            Ok(i) => format!("difference {} of {total}", i + 1),
            Err(_) if found.complete => format!("{total} differing lines"),
            Err(_) => format!(
                "{total} differing lines ({}% read)",
                100 * found.done / found.total.max(1)
            ),
        })
    }
}

/// The `count`-th differing line after (or before) `line`, if the scan found it.
fn target(found: &DiffLines, line: usize, forward: bool, count: usize) -> Option<usize> {
    let count = count.max(1);
    if forward {
        let i = found.lines.partition_point(|&n| n <= line);
        found.lines.get(i + count - 1).copied()
    } else {
        let i = found.lines.partition_point(|&n| n < line);
        i.checked_sub(count).map(|j| found.lines[j])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::Action;
    use crate::tui::app::tests::app;
    use std::time::{Duration, Instant};

    fn wait_for_scan(app: &mut App) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while app.diffs.as_ref().is_some_and(DiffScan::is_running) {
            assert!(Instant::now() < deadline, "the scan ends");
            std::thread::sleep(Duration::from_millis(2));
            app.tick();
        }
    }

    #[test]
    fn targets_count_from_the_current_line() {
        let found = DiffLines {
            lines: vec![2, 5, 9],
            done: 10,
            total: 10,
            complete: true,
        };
        assert_eq!(target(&found, 0, true, 1), Some(2));
        assert_eq!(target(&found, 2, true, 1), Some(5));
        assert_eq!(target(&found, 2, true, 2), Some(9));
        assert_eq!(target(&found, 9, true, 1), None);
        assert_eq!(target(&found, 9, false, 1), Some(5));
        assert_eq!(target(&found, 6, false, 2), Some(2));
        assert_eq!(target(&found, 2, false, 1), None);
    }

    #[test]
    fn jumps_between_lines_where_the_rows_disagree() {
        // ws and pretok:gpt2 agree on plain words and part at an apostrophe or a comma.
        let text = "plain words\nWe're here\nmore words\nstill same\nyes, no\nend";
        let mut app = app(text, &["ws", "pretok:gpt2"]);
        app.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        wait_for_scan(&mut app);
        assert_eq!(app.doc.line, 1, "the first difference");
        assert_eq!(app.diff_status().as_deref(), Some("difference 1 of 2"));
        app.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        assert_eq!(app.doc.line, 4);
        assert_eq!(app.diff_status().as_deref(), Some("difference 2 of 2"));
        app.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        assert_eq!(app.doc.line, 4, "none below");
        assert!(app.message.as_ref().unwrap().0.contains("no line below"));
        app.apply(Action::FirstLine);
        app.apply(Action::DiffJump {
            forward: true,
            count: 2,
        });
        assert_eq!(app.doc.line, 4, "a count skips");
        app.apply(Action::DiffJump {
            forward: false,
            count: 1,
        });
        assert_eq!(app.doc.line, 1);
        app.apply(Action::LineDown);
        assert_eq!(app.diff_status().as_deref(), Some("2 differing lines"));
    }

    #[test]
    fn an_edit_updates_the_count_and_one_row_cannot_disagree() {
        let mut app = app("a b\nc,d", &["ws", "pretok:gpt2"]);
        app.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        wait_for_scan(&mut app);
        assert_eq!(app.doc.line, 1);
        // Make line 2 agree: a space after the comma still splits differently (gpt2 keeps
        // the comma apart), so replace the comma.
        app.apply(Action::Edit);
        app.apply(Action::CaretHome);
        app.apply(Action::Delete);
        app.apply(Action::Delete);
        app.apply(Action::Back);
        assert_eq!(app.doc.text, "d");
        assert_eq!(app.diff_status().as_deref(), Some("0 differing lines"));

        let mut single = crate::tui::app::tests::app("x", &["ws"]);
        single.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        assert!(single.diffs.is_none());
        assert!(single.message.unwrap().0.contains("two tokenizer rows"));
    }

    fn next_diff(app: &mut App) -> usize {
        app.apply(Action::DiffJump {
            forward: true,
            count: 1,
        });
        wait_for_scan(app);
        app.doc.line
    }

    /// A row that splits every character differs from the others on every line, so `]d` over
    /// every row stops everywhere; pinned, a row is compared with the selected one alone.
    #[test]
    fn a_pinned_row_is_compared_with_the_selected_one_alone() {
        let text = "plain words\nWe're here\nmore words\nstill same\nyes, no\nend";
        let mut app = app(text, &["ws", "pretok:gpt2", "regex:."]);
        assert_eq!(next_diff(&mut app), 1);
        assert_eq!(next_diff(&mut app), 2, "regex:. differs on every line");

        app.apply(Action::FirstLine);
        app.apply(Action::SelectRow(1));
        app.apply(Action::PinRow);
        assert_eq!(app.rows.pinned(), Some(1));
        assert!(
            app.message
                .as_ref()
                .unwrap()
                .0
                .contains("pretok:gpt2 pinned")
        );
        assert_eq!(
            next_diff(&mut app),
            0,
            "the pinned row is selected: no jump"
        );
        assert!(
            app.message
                .as_ref()
                .unwrap()
                .0
                .contains("pinned row is selected")
        );
        app.apply(Action::SelectRow(0));
        assert_eq!(next_diff(&mut app), 1, "ws and gpt2 part at the apostrophe");
        assert_eq!(next_diff(&mut app), 4, "and at the comma, nowhere between");
        assert_eq!(app.diff_status().as_deref(), Some("difference 2 of 2"));

        // The pin follows its row when another row is removed before it.
        app.apply(Action::SelectRow(2));
        app.apply(Action::PinRow);
        assert_eq!(app.rows.pinned(), Some(2), "one pin at a time");
        app.apply(Action::PinRow);
        assert_eq!(app.rows.pinned(), None, "* on the pinned row unpins it");
        app.apply(Action::SelectRow(1));
        app.apply(Action::PinRow);
        app.apply(Action::SelectRow(2));
        app.apply(Action::FirstLine);
        assert_eq!(
            next_diff(&mut app),
            1,
            "regex:. against gpt2 differs at once"
        );
        app.apply(Action::SelectRow(0));
        app.apply(Action::RemoveRow);
        assert_eq!(app.rows.pinned(), Some(0), "gpt2 moved up and kept its pin");
        let theme = crate::tui::theme::Theme::plain();
        let buffer = crate::tui::render_to_buffer(&mut app, &theme, 80, 24);
        let labels: Vec<String> = (0..buffer.area.height)
            .map(|y| (1..14).map(|x| buffer[(x, y)].symbol()).collect())
            .collect();
        assert!(
            labels.iter().any(|l| l.starts_with("pretok:gpt2* ")),
            "{labels:#?}"
        );
        assert!(
            labels.iter().any(|l| l.starts_with("regex:. ")),
            "{labels:#?}"
        );
    }
}
