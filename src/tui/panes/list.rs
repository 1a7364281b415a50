//! The list of the lower pane's views, one line per pane: the selected row's trace, its token
//! table, the alignment with another row, the merge replay, training, statistics. From it come
//! the [`View`]s (tabs, digit keys, names) and [`Panes`], which holds every view's state; a new
//! pane is a folder beside this file and a line in the list.

use super::teach::TeachSettings;
use super::{AlignPane, HelpPane, MergesPane, Pane, StatsPane, TablePane, TracePane, TrainPane};

/// Defines the list of panes from one line per pane: the view (a tab, a digit key), the field of
/// [`Panes`] that holds its state, the state's type (a [`Pane`]) and the name on its tab.
macro_rules! pane_list {
    ($($view:ident => $field:ident: $pane:ty, $name:literal;)+) => {
        /// A view of the lower pane.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum View {
            $($view,)+
        }

        impl View {
            /// Every view, in the order of the tabs and of the digit keys.
            pub const ALL: [View; [$($name),+].len()] = [$(View::$view),+];

            /// The name on the tab, in workspaces and in the help.
            pub fn name(self) -> &'static str {
                match self {
                    $(View::$view => $name,)+
                }
            }
        }

        /// The lower pane: which view is shown, how tall, and every view's state.
        pub struct Panes {
            pub current: View,
            /// Percent of the screen height the lower pane takes.
            pub split: u16,
            /// The `?` overlay, drawn over everything rather than in the lower pane.
            pub help: HelpPane,
            /// How fast demos play and whether the lower pane fills the screen (`z`).
            pub teach: TeachSettings,
            $(pub $field: $pane,)+
        }

        impl Default for Panes {
            fn default() -> Self {
                Panes {
                    current: View::ALL[0],
                    split: 50,
                    help: HelpPane::default(),
                    teach: TeachSettings::default(),
                    $($field: <$pane>::default(),)+
                }
            }
        }

        impl Panes {
            /// The pane of `view`.
            pub fn pane(&self, view: View) -> &dyn Pane {
                match view {
                    $(View::$view => &self.$field,)+
                }
            }

            /// The pane of `view`, to change.
            pub fn pane_mut(&mut self, view: View) -> &mut dyn Pane {
                match view {
                    $(View::$view => &mut self.$field,)+
                }
            }
        }
    };
}

pane_list! {
    Trace => trace: TracePane, "trace";
    Table => table: TablePane, "tokens";
    Align => align: AlignPane, "align";
    Merges => merges: MergesPane, "merges";
    Train => train: TrainPane, "train";
    Stats => stats: StatsPane, "stats";
}

impl View {
    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    pub fn next(self) -> View {
        let i = View::ALL.iter().position(|&v| v == self).unwrap_or(0);
        View::ALL[(i + 1) % View::ALL.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::View;

    /// Workspaces name views without knowing this module: the names must agree, in order.
    #[test]
    fn workspaces_know_every_view_by_its_name() {
        let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
        assert_eq!(names, crate::workspace::VIEW_NAMES);
    }
}

/// A pane added the way every pane is: a type that implements [`Pane`] (its state, its
/// drawing) and one line in a list. The list here is a toy one beside the real one, so the test
/// shows what the line gives: a tab name, a place in the order of the digit keys, a field of
/// the panes' state, and dispatch to the pane's drawing and keys.
#[cfg(test)]
mod toy {
    use ratatui::Frame;
    use ratatui::layout::Rect;
    use ratatui::widgets::Paragraph;

    use super::super::teach::TeachSettings;
    use super::super::{Context, HelpPane, Pane, Reply, TracePane};
    use crate::tui::app::Action;
    use crate::tui::theme::Theme;

    /// Counts the selected row's tokens; `J` adds one to what it shows.
    #[derive(Default)]
    pub struct CountPane {
        extra: usize,
    }

    impl Pane for CountPane {
        fn draw(&self, frame: &mut Frame, area: Rect, cx: &Context, _theme: &Theme) {
            let count = cx.selected_row().map_or(0, |r| r.tokens.len()) + self.extra;
            frame.render_widget(Paragraph::new(format!("{count} tokens")), area);
        }

        fn handle(&mut self, action: Action, _cx: &Context) -> Reply {
            match action {
                Action::ViewDown(n) => {
                    self.extra += n;
                    Reply::Handled
                }
                _ => Reply::Ignored,
            }
        }
    }

    pane_list! {
        Trace => trace: TracePane, "trace";
        Count => count: CountPane, "count";
    }

    #[test]
    fn one_line_in_the_list_makes_a_pane() {
        assert_eq!(View::ALL, [View::Trace, View::Count]);
        assert_eq!(View::Count.name(), "count");
        let app = crate::tui::app::tests::app("one two three", &["ws"]);
        let cx = app.context();
        let mut panes = Panes::default();
        assert_eq!(
            panes.current,
            View::Trace,
            "the first line is the first view"
        );
        assert_eq!((panes.split, panes.help.open), (50, false));
        assert_eq!(panes.teach, TeachSettings::default());
        let reply = panes.pane_mut(View::Count).handle(Action::ViewDown(2), &cx);
        assert_eq!(reply, Reply::Handled);
        assert_eq!(
            panes.count.extra, 2,
            "the action reached the pane's own state"
        );
        let backend = ratatui::backend::TestBackend::new(20, 1);
        let mut terminal = ratatui::Terminal::new(backend).unwrap();
        terminal
            .draw(|frame| {
                let area = frame.area();
                panes
                    .pane(View::Count)
                    .draw(frame, area, &cx, &Theme::plain())
            })
            .unwrap();
        let line: String = (0..20)
            .map(|x| terminal.backend().buffer()[(x, 0)].symbol().to_string())
            .collect();
        assert_eq!(line.trim_end(), "5 tokens", "three tokens and two more");
    }
}
