//! A row whose tokenizer gave up on the current line (a regex past its backtrack limit, the
//! rule engine's depth limit) says so in the status bar, as `toklab tokenize` does on stderr:
//! the tokens alone do not show that the rest of the line was never analysed.

use super::App;

impl App {
    /// The status bar's note for the first row whose tokens of the current line gave up: the
    /// row, why, and the column (1-based, in characters) from which it gave up.
    pub fn gave_up_note(&self) -> Option<String> {
        self.rows.iter().find_map(|row| {
            let gave_up = row.tokens.gave_up()?;
            // Tokens kept while a long line is re-tokenized may be of the text before the
            // edit: count what is there.
            let column = self
                .doc
                .text
                .get(..gave_up.span.start)
                .map_or(0, |before| before.chars().count())
                + 1;
            Some(format!(
                "{}: {} (from column {column})",
                row.setup.label, gave_up.reason
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::app::tests::app;
    use crate::tui::render_to_buffer;
    use crate::tui::theme::Theme;

    fn rules() -> String {
        format!("rules:{}/rules?lang=eng", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn a_row_past_the_depth_limit_is_noted_with_its_column() {
        let text = format!("see{}\nshort line", ";".repeat(300));
        let mut app = app(&text, &[&rules(), "ws"]);
        app.rows[0].setup.label = "utok".into();
        let note = app
            .gave_up_note()
            .expect("the first line reaches the depth limit");
        assert!(
            note.starts_with("utok: more than 250 nested splits"),
            "{note}"
        );
        // "see" and 250 semicolons are split off; the rest starts at column 254.
        assert!(note.ends_with("(from column 254)"), "{note}");
        let buffer = render_to_buffer(&mut app, &Theme::dark(), 240, 24);
        let status: String = (0..240).map(|x| buffer[(x, 23)].symbol()).collect();
        assert!(
            status.contains("utok: more than 250 nested splits"),
            "{status}"
        );
        // Another line: nothing to say.
        app.apply(crate::tui::app::Action::LineDown);
        assert_eq!(app.gave_up_note(), None);
    }
}
