//! The edit-distance lesson on two words the teacher types (`D`, e.g. `intention execution`),
//! rather than on the token forms of two rows: the same matrix, filled at once or cell by
//! cell, whatever rows are open (none are needed).

use super::{AlignPane, Context, MatrixView, matrix_view};

/// The two typed words and their matrix at the demo's step.
pub struct TypedWords {
    pub source: String,
    pub target: String,
    /// The step the matrix was filled to, and the matrix (or why it was refused).
    shown: Option<(Option<usize>, Result<MatrixView, String>)>,
}

impl TypedWords {
    /// Reads the prompt's answer: two words separated by white space, or two phrases
    /// separated by ` / ` (`a cat / the cats`).
    pub fn parse(input: &str) -> Result<TypedWords, String> {
        let (source, target) = match input.split_once('/') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => {
                let words: Vec<&str> = input.split_whitespace().collect();
                match words[..] {
                    [a, b] => (a, b),
                    _ => ("", ""),
                }
            }
        };
        if source.is_empty() || target.is_empty() {
            return Err(format!(
                "two words are needed (intention execution), or two phrases split by / ; got {}",
                toklab::core::tokenizer::quote(input)
            ));
        }
        Ok(TypedWords {
            source: source.to_string(),
            target: target.to_string(),
            shown: None,
        })
    }

    /// Fills the matrix up to `step` cells (all of it for `None`) unless it already is.
    pub fn refresh(&mut self, step: Option<usize>) {
        if self.shown.as_ref().is_none_or(|(s, _)| *s != step) {
            self.shown = Some((step, matrix_view(&self.source, &self.target, step)));
        }
    }

    /// The matrix as last filled, or why there is none.
    pub fn view(&self) -> Option<&Result<MatrixView, String>> {
        self.shown.as_ref().map(|(_, view)| view)
    }

    /// The matrix as last filled.
    pub fn matrix(&self) -> Option<&MatrixView> {
        self.view().and_then(|v| v.as_ref().ok())
    }
}

impl AlignPane {
    /// The matrix shown: the typed words', else the rows' (in matrix mode).
    pub(super) fn shown_matrix(&self, cx: &Context) -> Option<&MatrixView> {
        match &self.typed {
            Some(typed) => typed.matrix(),
            None => self.data(cx).and_then(|d| d.matrix.as_ref()),
        }
    }

    /// Shows the matrix of two typed words, from its first cell on `.`.
    pub fn show_typed(&mut self, words: TypedWords) {
        self.typed = Some(words);
        self.choice.matrix = true;
        self.choice.step = None;
        self.choice.playing = None;
        self.choice.scroll = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_words_or_two_phrases_split_by_a_slash() {
        let w = TypedWords::parse("  intention   execution ").unwrap();
        assert_eq!(
            (w.source.as_str(), w.target.as_str()),
            ("intention", "execution")
        );
        let p = TypedWords::parse("a cat / the cats").unwrap();
        assert_eq!(
            (p.source.as_str(), p.target.as_str()),
            ("a cat", "the cats")
        );
        for bad in ["intention", "one two three", "a / ", " / b"] {
            let err = TypedWords::parse(bad).err().expect(bad);
            assert!(err.contains("two words are needed"), "{err}");
        }
    }

    /// `D` needs no second row: the lesson is on the typed words; Enter goes back to the rows.
    #[test]
    fn d_shows_the_matrix_of_typed_words_with_one_row_open() {
        use crate::tui::app::{Action, PromptKind};
        use crate::tui::panes::View;
        let mut app = crate::tui::app::tests::app("some text", &["ws"]);
        let shown = |app: &mut crate::tui::app::App| {
            let theme = crate::tui::theme::Theme::plain();
            let buffer = crate::tui::render_to_buffer(app, &theme, 80, 24);
            (0..buffer.area.height)
                .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
                .map(|(x, y)| buffer[(x, y)].symbol().to_string() + if x == 79 { "\n" } else { "" })
                .collect::<String>()
        };
        app.apply(Action::StartPrompt(PromptKind::AlignWords));
        for c in "intention".chars() {
            app.apply(Action::Type(c));
        }
        app.apply(Action::Enter);
        assert!(
            app.message
                .as_ref()
                .unwrap()
                .0
                .contains("two words are needed")
        );
        assert!(app.panes.align.typed.is_none());
        app.apply(Action::StartPrompt(PromptKind::AlignWords));
        for c in "intention execution".chars() {
            app.apply(Action::Type(c));
        }
        app.apply(Action::Enter);
        assert_eq!(app.panes.current, View::Align);
        let screen = shown(&mut app);
        assert!(
            screen.contains("matrix of «intention» vs «execution» (typed words) · distance 5"),
            "{screen}"
        );
        app.apply(Action::DemoStep(true));
        app.apply(Action::DemoStep(true));
        let screen = shown(&mut app);
        assert!(screen.contains("distance … · cell 2/100"), "{screen}");
        app.apply(Action::DemoFinish);
        assert!(shown(&mut app).contains("distance 5"));
        app.apply(Action::Align(
            crate::tui::panes::align::AlignCommand::ToggleMatrix,
        ));
        assert!(app.panes.align.typed.is_none());
        let screen = shown(&mut app);
        assert!(screen.contains("an alignment needs two rows"), "{screen}");
    }

    #[test]
    fn the_matrix_follows_the_demo_step() {
        let mut w = TypedWords::parse("intention execution").unwrap();
        w.refresh(None);
        assert_eq!(w.matrix().unwrap().matrix.distance(), Some(5));
        w.refresh(Some(3));
        let partial = w.matrix().unwrap();
        assert!(!partial.matrix.is_complete());
        assert_eq!(partial.cells, 100);
    }
}
