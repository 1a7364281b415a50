//! The `?` overlay: every key of the keymap, by group; in two columns when the terminal is wide enough,
//! scrolling with j/k when it is not tall enough.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::keymap::GROUPS;
use crate::tui::theme::Theme;

/// Draws the overlay; returns how far it can scroll (lines that do not fit).
pub fn draw(frame: &mut Frame, area: Rect, scroll: usize, theme: &Theme) -> usize {
    let all = GROUPS.iter().flat_map(|(_, entries)| entries.iter());
    let key_width = all
        .clone()
        .map(|e| e.label().chars().count())
        .max()
        .unwrap_or(0);
    let text_width = all.map(|e| e.help.chars().count()).max().unwrap_or(0);
    let column_width = (key_width + text_width + 6) as u16;
    let groups: Vec<Vec<Line>> = GROUPS
        .iter()
        .map(|(group, entries)| {
            let mut lines = vec![Line::styled(format!(" {group}"), theme.title)];
            lines.extend(entries.iter().map(|entry| {
                let label = entry.label();
                Line::from(vec![
                    Span::styled(format!("   {label:<key_width$}  "), theme.key),
                    Span::raw(entry.help),
                ])
            }));
            lines
        })
        .collect();
    let total: usize = groups.iter().map(Vec::len).sum();
    let two_columns = area.width >= column_width * 2 + 3;
    let columns: Vec<Vec<Line>> = if two_columns {
        // Whole groups in each column, split where the taller column is shortest.
        let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
        let split = (1..groups.len())
            .min_by_key(|&k| {
                let left: usize = sizes[..k].iter().sum();
                left.max(total - left)
            })
            .unwrap_or(groups.len());
        let mut first = Vec::new();
        let mut second = Vec::new();
        for (i, group) in groups.into_iter().enumerate() {
            if i < split {
                first.extend(group)
            } else {
                second.extend(group)
            }
        }
        vec![first, second]
    } else {
        vec![groups.into_iter().flatten().collect()]
    };
    let tallest = columns.iter().map(Vec::len).max().unwrap_or(0) as u16;
    let width = (column_width * columns.len() as u16 + 2).min(area.width);
    let height = (tallest + 2).min(area.height);
    let [popup] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(popup);
    frame.render_widget(Clear, popup);
    let scrolls = tallest + 2 > area.height;
    let title = if scrolls {
        " keys · j/k scroll · Esc closes "
    } else {
        " keys · Esc closes "
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.focused_border)
        .title(Span::styled(title, theme.title));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let areas =
        Layout::horizontal(vec![Constraint::Length(column_width); columns.len()]).split(inner);
    let max_scroll = (tallest as usize).saturating_sub(inner.height as usize);
    let scroll = scroll.min(max_scroll) as u16;
    for (lines, column) in columns.into_iter().zip(areas.iter()) {
        frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), *column);
    }
    max_scroll
}
