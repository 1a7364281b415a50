//! Colours and modifiers in one place, so light, dark and colourless terminals each get a
//! theme that keeps token boundaries visible.

use ratatui::style::{Color, Modifier, Style};

/// Which palette to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ThemeName {
    Dark,
    Light,
    /// No colours: boundaries shown with reverse video and underlines only.
    Plain,
    /// For projectors: black text on bright token shades, a red selection, no greys.
    HighContrast,
}

impl ThemeName {
    /// The theme named `name` (as `--theme` spells it), for workspaces.
    pub fn parse(name: &str) -> Option<ThemeName> {
        <ThemeName as clap::ValueEnum>::from_str(name, true).ok()
    }

    /// The default foreground and background the theme assumes of the terminal, as RGB: what
    /// `Color::Reset` shows. The dark and high-contrast themes are for a dark terminal (xterm's
    /// default white text, #e5e5e5, on black), the light one for black text on white; plain
    /// sets no colours and is checked as if on a dark terminal.
    pub fn assumed_terminal(self) -> ([u8; 3], [u8; 3]) {
        match self {
            ThemeName::Light => ([0, 0, 0], [255, 255, 255]),
            _ => ([229, 229, 229], [0, 0, 0]),
        }
    }

    /// Every theme's name, for messages.
    pub fn names() -> Vec<String> {
        <ThemeName as clap::ValueEnum>::value_variants()
            .iter()
            .filter_map(clap::ValueEnum::to_possible_value)
            .map(|v| v.get_name().to_string())
            .collect()
    }
}

/// The styles of every element the workbench draws.
#[derive(Clone, Debug)]
pub struct Theme {
    /// Tokens alternate between these two, so adjacent tokens are told apart.
    pub token: [Style; 2],
    pub selected_token: Style,
    pub dropped: Style,
    pub cursor_line: Style,
    pub line_number: Style,
    pub label: Style,
    pub selected_label: Style,
    pub border: Style,
    pub focused_border: Style,
    pub title: Style,
    pub dim: Style,
    pub status: Style,
    pub key: Style,
    pub error: Style,
    /// Search matches on the text.
    pub search: Style,
    /// The span of the selected trace line, on the text.
    pub trace_mark: Style,
    /// Spans a trace marks as backtracks or failures, on the text.
    pub backtrack: Style,
    pub tab: Style,
    pub selected_tab: Style,
    /// Bars of charts.
    pub bar: Style,
    /// Laid over a token cell where a row's boundary disagrees with the selected row's.
    pub disagree: Style,
    /// The large-print layout of the lesson views: each token in a padded cell, a blank line
    /// between lines (for projectors; any palette).
    pub large_print: bool,
    /// What the theme draws on, which decides how a workspace's row colour is shown.
    pub ground: Ground,
}

/// What a theme draws on: a workspace names row colours (`colour = "blue"`) without knowing
/// the theme, and a colour readable on black is not readable on white.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Dark,
    Light,
    /// The high-contrast theme: row colours are dropped for the label colour.
    Projector,
    /// No colours at all (`NO_COLOR`).
    Plain,
}

impl Theme {
    /// A row label in the workspace's `colour`, shifted to a shade with at least 4.5:1 contrast
    /// on the theme's ground (the contrast check in `view/contrast_tests.rs` holds it to that).
    pub fn row_label(&self, colour: Color) -> Style {
        let shown = match (self.ground, colour) {
            (Ground::Projector | Ground::Plain, _) => return self.label,
            (Ground::Dark, Color::Blue | Color::LightBlue) => Color::Indexed(111),
            (Ground::Dark, Color::Magenta) => Color::LightMagenta,
            (Ground::Dark, Color::Red) => Color::LightRed,
            (Ground::Dark, Color::Black | Color::DarkGray) => Color::Gray,
            (Ground::Light, Color::Cyan | Color::LightCyan) => Color::Indexed(23),
            (Ground::Light, Color::Green | Color::LightGreen) => Color::Indexed(22),
            (Ground::Light, Color::Yellow | Color::LightYellow) => Color::Indexed(94),
            (Ground::Light, Color::LightRed) => Color::Red,
            (Ground::Light, Color::LightMagenta) => Color::Magenta,
            (Ground::Light, Color::White | Color::Gray | Color::DarkGray) => Color::Indexed(240),
            (_, colour) => colour,
        };
        self.label.fg(shown)
    }

    /// The theme asked for, or the plain one when `NO_COLOR` is set (https://no-color.org).
    pub fn choose(name: Option<ThemeName>) -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        match name {
            Some(ThemeName::Light) if !no_color => Theme::light(),
            Some(ThemeName::Dark) if !no_color => Theme::dark(),
            Some(ThemeName::HighContrast) if !no_color => Theme::high_contrast(),
            None if !no_color => Theme::dark(),
            _ => Theme::plain(),
        }
    }

    /// The theme of a workbench session: the one `asked` for (`--theme`), else the
    /// workspace's; large print when `large_print` (`--large-print`) or the workspace asks.
    pub fn for_workbench(
        asked: Option<ThemeName>,
        large_print: bool,
        workspace: &crate::tui::app::WorkspacePlace,
    ) -> Theme {
        let name = asked.or_else(|| workspace.theme.as_deref().and_then(ThemeName::parse));
        Theme {
            large_print: large_print || workspace.large_print == Some(true),
            ..Theme::choose(name)
        }
    }

    /// For projectors, where greys and dark shades wash out: only the sixteen basic colours,
    /// black text on bright token shades, a red underlined selection and a white cursor line.
    pub fn high_contrast() -> Theme {
        let bold = Modifier::BOLD;
        Theme {
            token: [
                Style::new().fg(Color::Black).bg(Color::LightCyan),
                Style::new().fg(Color::Black).bg(Color::LightYellow),
            ],
            selected_token: Style::new()
                .fg(Color::White)
                .bg(Color::Blue)
                .add_modifier(bold | Modifier::UNDERLINED),
            dropped: Style::new().fg(Color::White),
            cursor_line: Style::new().add_modifier(bold),
            line_number: Style::new().fg(Color::White),
            label: Style::new().fg(Color::LightCyan).add_modifier(bold),
            selected_label: Style::new()
                .fg(Color::Black)
                .bg(Color::LightGreen)
                .add_modifier(bold),
            border: Style::new().fg(Color::White),
            focused_border: Style::new().fg(Color::LightYellow).add_modifier(bold),
            title: Style::new().fg(Color::LightYellow).add_modifier(bold),
            dim: Style::new().fg(Color::White),
            status: Style::new().fg(Color::White).bg(Color::Black),
            key: Style::new().fg(Color::LightYellow).add_modifier(bold),
            error: Style::new()
                .fg(Color::LightYellow)
                .add_modifier(bold | Modifier::UNDERLINED),
            search: Style::new()
                .fg(Color::Black)
                .bg(Color::LightGreen)
                .add_modifier(Modifier::UNDERLINED),
            trace_mark: Style::new()
                .fg(Color::Black)
                .bg(Color::LightGreen)
                .add_modifier(bold),
            backtrack: Style::new()
                .fg(Color::LightYellow)
                .add_modifier(bold | Modifier::UNDERLINED),
            tab: Style::new().fg(Color::White),
            selected_tab: Style::new()
                .fg(Color::Black)
                .bg(Color::LightYellow)
                .add_modifier(bold),
            bar: Style::new().fg(Color::LightCyan),
            disagree: Style::new()
                .fg(Color::Black)
                .bg(Color::White)
                .add_modifier(Modifier::UNDERLINED | bold),
            large_print: false,
            ground: Ground::Projector,
        }
    }

    pub fn dark() -> Theme {
        Theme {
            token: [
                Style::new().fg(Color::White).bg(Color::Indexed(24)),
                Style::new().fg(Color::White).bg(Color::Indexed(90)),
            ],
            selected_token: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            dropped: Style::new().fg(Color::Indexed(247)),
            cursor_line: Style::new().bg(Color::Indexed(236)),
            line_number: Style::new().fg(Color::Indexed(247)),
            label: Style::new().fg(Color::Cyan),
            selected_label: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            border: Style::new().fg(Color::DarkGray),
            focused_border: Style::new().fg(Color::Cyan),
            title: Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::Gray),
            status: Style::new().fg(Color::White).bg(Color::Indexed(238)),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Indexed(217)),
            search: Style::new().fg(Color::Black).bg(Color::LightYellow),
            trace_mark: Style::new()
                .fg(Color::Black)
                .bg(Color::LightCyan)
                .add_modifier(Modifier::BOLD),
            backtrack: Style::new()
                .fg(Color::Indexed(217))
                .add_modifier(Modifier::UNDERLINED),
            tab: Style::new().fg(Color::Gray),
            selected_tab: Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            bar: Style::new().fg(Color::Cyan),
            disagree: Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            large_print: false,
            ground: Ground::Dark,
        }
    }

    pub fn light() -> Theme {
        Theme {
            token: [
                Style::new().fg(Color::Black).bg(Color::Indexed(153)),
                Style::new().fg(Color::Black).bg(Color::Indexed(223)),
            ],
            selected_token: Style::new()
                .fg(Color::White)
                .bg(Color::Indexed(88))
                .add_modifier(Modifier::BOLD),
            dropped: Style::new().fg(Color::Indexed(240)),
            cursor_line: Style::new().bg(Color::Indexed(254)),
            line_number: Style::new().fg(Color::Indexed(240)),
            label: Style::new().fg(Color::Blue),
            selected_label: Style::new()
                .fg(Color::White)
                .bg(Color::Blue)
                .add_modifier(Modifier::BOLD),
            border: Style::new().fg(Color::Indexed(241)),
            focused_border: Style::new().fg(Color::Blue),
            title: Style::new().fg(Color::Black).add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::Indexed(240)),
            status: Style::new().fg(Color::Black).bg(Color::Indexed(252)),
            key: Style::new()
                .fg(Color::Indexed(88))
                .add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Red),
            search: Style::new().fg(Color::Black).bg(Color::Indexed(228)),
            trace_mark: Style::new()
                .fg(Color::White)
                .bg(Color::Indexed(24))
                .add_modifier(Modifier::BOLD),
            backtrack: Style::new()
                .fg(Color::Red)
                .add_modifier(Modifier::UNDERLINED),
            tab: Style::new().fg(Color::Indexed(240)),
            selected_tab: Style::new()
                .fg(Color::White)
                .bg(Color::Blue)
                .add_modifier(Modifier::BOLD),
            bar: Style::new().fg(Color::Blue),
            disagree: Style::new()
                .fg(Color::Indexed(88))
                .add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            large_print: false,
            ground: Ground::Light,
        }
    }

    pub fn plain() -> Theme {
        let none = Style::new();
        Theme {
            token: [
                none.add_modifier(Modifier::UNDERLINED),
                none.add_modifier(Modifier::REVERSED),
            ],
            selected_token: none
                .add_modifier(Modifier::BOLD | Modifier::REVERSED | Modifier::UNDERLINED),
            dropped: none.add_modifier(Modifier::DIM),
            cursor_line: none.add_modifier(Modifier::BOLD),
            line_number: none.add_modifier(Modifier::DIM),
            label: none,
            selected_label: none.add_modifier(Modifier::REVERSED),
            border: none,
            focused_border: none.add_modifier(Modifier::BOLD),
            title: none.add_modifier(Modifier::BOLD),
            dim: none.add_modifier(Modifier::DIM),
            status: none.add_modifier(Modifier::REVERSED),
            key: none.add_modifier(Modifier::BOLD),
            error: none.add_modifier(Modifier::BOLD),
            search: none.add_modifier(Modifier::REVERSED | Modifier::ITALIC),
            trace_mark: none.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            backtrack: none.add_modifier(Modifier::UNDERLINED | Modifier::ITALIC),
            tab: none,
            selected_tab: none.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            bar: none,
            disagree: none.add_modifier(Modifier::UNDERLINED | Modifier::BOLD | Modifier::ITALIC),
            large_print: false,
            ground: Ground::Plain,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ThemeName;

    /// Workspaces name themes without knowing this module: the names must agree.
    #[test]
    fn workspaces_know_every_theme_by_its_name() {
        assert_eq!(ThemeName::names(), crate::workspace::THEME_NAMES);
    }
}
