//! Drawing the workbench from its state. Nothing here changes state; what the drawing learns
//! about geometry (pane sizes, where rows are) is returned for paging and mouse hits.

mod help;
mod rows;
mod status;
mod text;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

use super::app::{Action, App, Viewport};
use super::theme::Theme;

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
}

impl Regions {
    /// The action a left click at (`x`, `y`) means.
    pub fn hit(&self, x: u16, y: u16) -> Option<Action> {
        if contains(self.text, x, y) {
            return Some(Action::GoToLine(self.text_top + (y - self.text.y) as usize));
        }
        if contains(self.rows, x, y) && y >= self.first_row_y {
            let row = (y - self.first_row_y) as usize;
            if row < self.row_count {
                let column = self.hscroll + (x - self.rows.x) as usize;
                return Some(Action::Pick { row, column });
            }
        }
        None
    }
}

fn contains(area: Rect, x: u16, y: u16) -> bool {
    x >= area.x && x < area.x + area.width && y >= area.y && y < area.y + area.height
}

/// Draws one frame and returns the viewport sizes and regions it used.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme) -> (Viewport, Regions) {
    let area = frame.area();
    let rows_height = (app.rows.len() as u16 + 6).min(area.height.saturating_sub(5).max(3));
    let [text_area, rows_area, status_area] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(rows_height),
        Constraint::Length(1),
    ])
    .areas(area);

    let mut regions = Regions::default();
    let text_lines = text::draw(frame, text_area, app, theme, &mut regions);
    let row_columns = rows::draw(frame, rows_area, app, theme, &mut regions);
    status::draw(frame, status_area, app, theme);
    if app.help {
        help::draw(frame, area, theme);
    }
    (
        Viewport {
            text_lines,
            row_columns,
        },
        regions,
    )
}

#[cfg(test)]
mod tests;
