//! Drawing the workbench from its state. Nothing here changes state; what the drawing learns
//! about geometry (pane sizes, where rows and tabs are) is returned for paging and mouse hits.

mod ids;
mod marks;
mod rows;
mod status;
pub(crate) mod text;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::app::{Action, App, Viewport};
use super::theme::Theme;
use crate::tui::panes::View;
use crate::tui::panes::align::AlignCommand;

/// Where things were drawn in the last frame, for mouse clicks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Regions {
    /// The text pane's inner area and the document line shown on its first row.
    pub text: Rect,
    pub text_top: usize,
    /// The token cells of the side-by-side rows: first row's screen line, x of layout column
    /// `hscroll`, and the number of rows.
    pub rows: Rect,
    pub first_row_y: u16,
    pub hscroll: usize,
    pub row_count: usize,
    /// The tab titles of the lower pane.
    pub tabs: Vec<(Rect, View)>,
    /// The lower pane's inner area.
    pub view: Rect,
    /// The row labels' column; a click there selects the row (or, in the alignment view, makes
    /// it row B).
    pub labels: Rect,
    pub align_view: bool,
}

impl Regions {
    /// The action a left click at (`x`, `y`) means.
    pub fn hit(&self, x: u16, y: u16) -> Option<Action> {
        if contains(self.text, x, y) {
            return Some(Action::GoToLine(self.text_top + (y - self.text.y) as usize));
        }
        if contains(self.labels, x, y) && y >= self.first_row_y {
            let row = (y - self.first_row_y) as usize;
            if row < self.row_count {
                return Some(if self.align_view {
                    Action::Align(AlignCommand::With(row))
                } else {
                    Action::SelectRow(row)
                });
            }
        }
        if contains(self.rows, x, y) && y >= self.first_row_y {
            let row = (y - self.first_row_y) as usize;
            if row < self.row_count {
                let column = self.hscroll + (x - self.rows.x) as usize;
                return Some(Action::Pick { row, column });
            }
        }
        self.tabs
            .iter()
            .find(|(area, _)| contains(*area, x, y))
            .map(|&(_, view)| Action::ShowView(view))
    }

    /// Whether (`x`, `y`) is in the lower pane (the mouse wheel scrolls it there).
    pub fn in_view(&self, x: u16, y: u16) -> bool {
        contains(self.view, x, y)
    }
}

fn contains(area: Rect, x: u16, y: u16) -> bool {
    x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height
}

/// Draws one frame and returns the viewport sizes and regions it used.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) -> (Viewport, Regions) {
    let area = frame.area();
    let rows_height = (app.rows.len() as u16 + 6).min(area.height.saturating_sub(4).max(3));
    let bottom = 1 + status::extra_lines(app, area.width);
    let free = area.height.saturating_sub(rows_height + bottom);
    let view_height = lower_pane_height(free, app.panes.split);
    // A short text (a lesson's few lines) keeps only the lines it has; the lower pane, where
    // the lesson is, gets the rest.
    let text_height = (app.doc.lines.line_count() as u16 + 2).max(3);
    let spare = free.saturating_sub(view_height).saturating_sub(text_height);
    let view_height = if view_height > 0 {
        view_height + spare
    } else {
        0
    };
    let (rows_height, view_height) = if app.panes.teach.maximised {
        (0, area.height.saturating_sub(bottom))
    } else {
        (rows_height, view_height)
    };
    let [text_area, rows_area, view_area, status_area] = Layout::vertical([
        Constraint::Min(if app.panes.teach.maximised { 0 } else { 3 }),
        Constraint::Length(rows_height),
        Constraint::Length(view_height),
        Constraint::Length(bottom),
    ])
    .areas(area);

    let mut regions = Regions::default();
    let (text_lines, row_columns) = if app.panes.teach.maximised {
        // Paging and scrolling keep the sizes of the last normal frame.
        (app.viewport.text_lines, app.viewport.row_columns)
    } else {
        (
            text::draw(frame, text_area, app, theme, &mut regions),
            rows::draw(frame, rows_area, app, theme, &mut regions),
        )
    };
    if view_height > 0 {
        crate::tui::panes::draw::draw(frame, view_area, app, theme, &mut regions);
    }
    status::draw(frame, status_area, app, theme);
    let help_scroll = if app.panes.help.open {
        crate::tui::panes::help::draw::draw(frame, area, app.panes.help.scroll, theme)
    } else {
        0
    };
    (
        Viewport {
            text_lines,
            row_columns,
            help_scroll,
        },
        regions,
    )
}

/// The lower pane's height when `free` lines are left beside the rows and the status bar:
/// `split` percent of them, but at least enough for a few lines of a lesson (up to 8 with
/// its border, leaving the text pane two lines), so an 80×24 terminal shows more than three.
fn lower_pane_height(free: u16, split: u16) -> u16 {
    if free < 8 {
        return 0;
    }
    (free * split / 100).max(free.saturating_sub(4).min(8))
}

/// A window of `height` lines that keeps `cursor` visible, scrolling as little as possible.
pub(crate) fn window_start(cursor: usize, height: usize, len: usize) -> usize {
    if height == 0 || len <= height {
        0
    } else {
        cursor.saturating_sub(height - 1).min(len - height)
    }
}

/// The buffer as text, one line per terminal row without its trailing blanks: what snapshot
/// tests, and tests driving the workbench through this library, compare.
pub fn buffer_text(buffer: &ratatui::buffer::Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| {
            let line: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect();
            line.trim_end().to_string() + "\n"
        })
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_compare;

#[cfg(test)]
mod tests_stats;

#[cfg(test)]
mod tests_lessons;

#[cfg(test)]
mod snapshots;

#[cfg(test)]
mod teach_tests;

#[cfg(test)]
mod train_unigram_tests;

#[cfg(test)]
mod contrast_tests;
