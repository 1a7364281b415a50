//! The `?` overlay's state: open or not, and how far it is scrolled (small terminals).

pub mod draw;
pub mod keys;

use crate::tui::app::Action;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HelpPane {
    pub open: bool,
    /// The first line shown.
    pub scroll: usize,
}

impl HelpPane {
    /// Toggles the overlay and scrolls it while it is open, no further than `max_scroll` (as
    /// last drawn); false for actions it leaves to the rest of the workbench.
    pub fn handle(&mut self, action: Action, max_scroll: usize) -> bool {
        match action {
            Action::ToggleHelp => {
                self.open = !self.open;
                self.scroll = 0;
            }
            Action::Back if self.open => self.open = false,
            Action::ViewDown(n) if self.open => self.scroll = (self.scroll + n).min(max_scroll),
            Action::ViewUp(n) if self.open => self.scroll = self.scroll.saturating_sub(n),
            _ => return false,
        }
        true
    }
}
