//! What the list of panes makes. The list itself is in `panes/mod.rs`, one line per pane
//! (`View => folder::PaneType, "name";`), and [`pane_list!`] turns it into everything a pane
//! needs besides its folder: the folder's module, a [`View`](super::View) (a tab, a digit key,
//! a name for workspaces and the help) and a field of [`Panes`](super::Panes), which holds
//! every view's state. The list is invoked in `panes/mod.rs` because a module declared there
//! is read from `panes/<folder>/`.

/// Defines the panes from one line per pane: the view, the pane's folder (its module, also the
/// field of `Panes` that holds its state), the state's type (a `Pane`) and the name on its tab.
macro_rules! pane_list {
    ($($view:ident => $module:ident :: $pane:ident, $name:literal;)+) => {
        $(pub mod $module;)+

        /// A view of the lower pane.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum View {
            $($view,)+
        }

        impl View {
            /// Every view, in the order of the tabs and of the digit keys.
            pub const ALL: [View; [$($name),+].len()] = [$(View::$view),+];

            /// Every view's name, in order: the names a workspace's `view =` accepts.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// The digit keys as the help lists them (`1 … 6`).
            pub const DIGIT_KEYS: &'static str = $crate::tui::panes::list::ascii_or_ellipsis(
                &$crate::tui::panes::list::digit_range(Self::ALL.len()),
            );

            /// What the digit keys show, as the help says it: the names in order.
            pub const DIGIT_HELP: &'static str = joined!($($name),+);

            /// Each view's digit key: `1` shows the first.
            pub const DIGITS: [(char, View); [$($name),+].len()] = {
                let mut digits = [('1', View::ALL[0]); Self::ALL.len()];
                let mut i = 0;
                while i < Self::ALL.len() {
                    digits[i] = ((b'1' + i as u8) as char, Self::ALL[i]);
                    i += 1;
                }
                digits
            };

            /// The name on the tab, in workspaces and in the help.
            pub fn name(self) -> &'static str {
                match self {
                    $(View::$view => $name,)+
                }
            }

            /// The view whose name is `name` (a workspace's `view =`).
            pub fn from_name(name: &str) -> Option<View> {
                View::ALL.into_iter().find(|v| v.name() == name)
            }

            /// The view after this one, the first after the last (`v`).
            pub fn next(self) -> View {
                let i = View::ALL.iter().position(|&v| v == self).unwrap_or(0);
                View::ALL[(i + 1) % View::ALL.len()]
            }
        }

        /// The lower pane: which view is shown, how tall, and every view's state.
        pub struct Panes {
            pub current: View,
            /// Percent of the screen height the lower pane takes.
            pub split: u16,
            /// The `?` overlay, drawn over everything rather than in the lower pane.
            pub help: $crate::tui::panes::HelpPane,
            /// How fast demos play and whether the lower pane fills the screen (`z`).
            pub teach: $crate::tui::panes::teach::TeachSettings,
            $(pub $module: $module::$pane,)+
        }

        impl Default for Panes {
            fn default() -> Self {
                Panes {
                    current: View::ALL[0],
                    split: 50,
                    help: Default::default(),
                    teach: Default::default(),
                    $($module: Default::default(),)+
                }
            }
        }

        impl Panes {
            /// The pane of `view`.
            pub fn pane(&self, view: View) -> &dyn $crate::tui::panes::Pane {
                match view {
                    $(View::$view => &self.$module,)+
                }
            }

            /// The pane of `view`, to change.
            pub fn pane_mut(&mut self, view: View) -> &mut dyn $crate::tui::panes::Pane {
                match view {
                    $(View::$view => &mut self.$module,)+
                }
            }
        }
    };
}

/// The names joined as the help separates them (`trace · tokens`), at compile time so the
/// keymap's entry stays a constant.
macro_rules! joined {
    ($first:literal $(, $rest:literal)*) => {
        concat!($first $(, " · ", $rest)*)
    };
}

/// `1 … n`, the digit keys of `n` views as the help writes a range (as bytes: the constant
/// that keeps them is made of this array).
pub const fn digit_range(n: usize) -> [u8; 7] {
    assert!(n >= 1 && n <= 9, "one digit key per view");
    let mut range = *b"1 \xE2\x80\xA6 0";
    range[6] = b'0' + n as u8;
    range
}

/// The text of [`digit_range`]'s bytes, which are ASCII and an ellipsis.
pub const fn ascii_or_ellipsis(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("digits, spaces and an ellipsis are UTF-8"),
    }
}

#[cfg(test)]
mod toys;
