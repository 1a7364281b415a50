//! The second underline style: where the selected row has a boundary that another row lacks,
//! that row's token is underlined in a colour of its own (and not bold), so it reads apart
//! from the bold red underline of a boundary the row has and the selected row lacks — also
//! in the plain theme, where only the weight tells them apart.

use ratatui::style::{Color, Modifier, Style};

use crate::tui::theme::Theme;

/// `base` (a token's style) marked as lacking a boundary the selected row has.
pub fn lacking(base: Style, theme: &Theme) -> Style {
    let line = theme.key.fg.unwrap_or(Color::Reset);
    base.add_modifier(Modifier::UNDERLINED)
        .remove_modifier(Modifier::BOLD)
        .underline_color(line)
}
