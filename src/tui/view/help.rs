//! The `?` overlay: every key, by group.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::input::KEYS;
use crate::tui::theme::Theme;

pub fn draw(frame: &mut Frame, area: Rect, scroll: usize, theme: &Theme) {
    let key_width = KEYS
        .iter()
        .flat_map(|(_, keys)| keys.iter())
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let text_width = KEYS
        .iter()
        .flat_map(|(_, keys)| keys.iter())
        .map(|(_, t)| t.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    for (group, keys) in KEYS {
        lines.push(Line::styled(format!(" {group}"), theme.title));
        for (key, what) in *keys {
            lines.push(Line::from(vec![
                Span::styled(format!("   {key:<key_width$}  "), theme.key),
                Span::raw(*what),
            ]));
        }
    }
    lines.push(Line::styled(
        " Esc or ? closes this help · j/k scroll it",
        theme.dim,
    ));
    let width = ((key_width + text_width + 8) as u16).min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let [popup] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(popup);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll.min(u16::MAX as usize) as u16, 0))
            .block(
                Block::new()
                    .borders(Borders::ALL)
                    .border_style(theme.focused_border)
                    .title(Span::styled(" keys ", theme.title)),
            ),
        popup,
    );
}
