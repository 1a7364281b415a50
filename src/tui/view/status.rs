//! The status bar: file, position, token counts per tokenizer, the help key.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::App;
use crate::tui::theme::Theme;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let lines = if app.doc.is_indexed() {
        app.doc.line_count().to_string()
    } else {
        format!("{}+", app.doc.line_count())
    };
    let mut spans = vec![Span::raw(format!(
        " {} {}/{} ",
        app.doc.name(),
        app.line + 1,
        lines
    ))];
    for row in &app.rows {
        spans.push(Span::raw("│ "));
        let count = match row.tokenizer {
            Ok(_) => row.tokens.len().to_string(),
            Err(_) => "error".to_string(),
        };
        spans.push(Span::raw(format!("{} {} ", row.label, count)));
    }
    let help = Span::styled(" ? help  q quit ", theme.key);
    let help_width = help.width() as u16;
    frame.render_widget(Paragraph::new(Line::from(spans)).style(theme.status), area);
    if area.width > help_width + 20 {
        let right = Rect {
            x: area.x + area.width - help_width,
            width: help_width,
            ..area
        };
        frame.render_widget(Paragraph::new(Line::from(help)).style(theme.status), right);
    }
}
