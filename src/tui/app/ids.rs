//! How the rows show token ids (Tiktokenizer's view): not at all, as one hue per id over the
//! forms, or as the ids themselves instead of the forms.

use super::App;

/// The id display of the side-by-side rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IdsMode {
    /// Tokens alternate between the theme's two shades.
    #[default]
    Off,
    /// Each token is coloured by a hue its id (or, without one, its form) hashes to, the same
    /// in every row and on every line; the columns stay aligned with the text.
    Hues,
    /// Each row lists its ids in those hues instead of the forms, after its token count and
    /// characters per token.
    Ids,
    /// As `Ids`, each id right after its token's form: forms and ids read together, as
    /// comparers read them in Tiktokenizer.
    FormsAndIds,
}

impl IdsMode {
    /// The next mode the `#` key switches to.
    pub fn next(self) -> IdsMode {
        match self {
            IdsMode::Off => IdsMode::Hues,
            IdsMode::Hues => IdsMode::Ids,
            IdsMode::Ids => IdsMode::FormsAndIds,
            IdsMode::FormsAndIds => IdsMode::Off,
        }
    }

    pub fn from_name(name: &str) -> Option<IdsMode> {
        Some(match name {
            "off" => IdsMode::Off,
            "hues" | "on" => IdsMode::Hues,
            "ids" => IdsMode::Ids,
            "both" | "forms-and-ids" => IdsMode::FormsAndIds,
            _ => return None,
        })
    }

    fn describe(self) -> &'static str {
        match self {
            IdsMode::Off => "ids off: tokens in alternating shades",
            IdsMode::Hues => {
                "ids as hues: one colour per token id, the same in every row (# again: the ids)"
            }
            IdsMode::Ids => {
                "ids instead of the forms, with tokens and characters per token (# again: both)"
            }
            IdsMode::FormsAndIds => "each token's form with its id after it (# again: off)",
        }
    }
}

impl App {
    pub(super) fn set_ids(&mut self, mode: IdsMode) {
        self.ids = mode;
        self.flash(mode.describe());
    }
}
