//! How many terminal cells a grapheme takes, as the terminal the workbench runs in draws it.
//!
//! Terminals agree on single characters but not on emoji sequences. Most current ones (kitty,
//! WezTerm, Ghostty, foot, iTerm2, Windows Terminal, Konsole) draw a whole cluster in the cells
//! Unicode's emoji rules give it: `👍🏽`, `👩‍❤️‍👨` and `©️` take two. Others (xterm, VTE,
//! Alacritty, tmux) add up the widths of the code points: `👍🏽` takes four, `©️` one, and some
//! of them (tmux) fold whatever follows a zero-width joiner into the cell before it. A row
//! that reserves cells one way in a terminal that draws them the other way cuts the sequence
//! or leaves stale cells behind it. So the workbench asks the terminal at start-up (it draws
//! three samples and reads the cursor back) and lays out every line the way that terminal
//! draws; a terminal that does not answer gets the majority's way.

use std::sync::OnceLock;

use ratatui::buffer::{Buffer, CellDiffOption, CellWidth};
use ratatui::layout::Rect;
use ratatui::text::Line;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

const ZWJ: char = '\u{200D}';
const VS16: char = '\u{FE0F}';

/// How a terminal draws emoji sequences: one flag per point where terminals part ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// `👍🏽`: the skin-tone modifier joins the emoji before it (else it takes cells of its own).
    pub modifier_joins: bool,
    /// `👩‍👩`: what follows a zero-width joiner is drawn in the cells before it.
    pub zwj_joins: bool,
    /// `©️`: the emoji variation selector makes a narrow character two cells wide.
    pub vs16_widens: bool,
}

/// The samples that tell the models apart, each with what it measures.
pub const PROBES: [&str; 3] = [
    "\u{1F44D}\u{1F3FD}",
    "\u{1F469}\u{200D}\u{1F469}",
    "\u{A9}\u{FE0F}",
];

impl Model {
    /// The way most current terminals draw: whole clusters, by Unicode's emoji rules.
    pub const CLUSTERS: Model = Model {
        modifier_joins: true,
        zwj_joins: true,
        vs16_widens: true,
    };

    /// The model of the terminal that `measure` reports on: `measure(sample)` is the number of
    /// cells the terminal took to draw `sample` alone, `None` if it could not be told.
    pub fn probe(mut measure: impl FnMut(&str) -> Option<usize>) -> Option<Model> {
        let [modifier, zwj, vs16] = PROBES;
        Some(Model {
            modifier_joins: measure(modifier)? == 2,
            zwj_joins: measure(zwj)? == 2,
            vs16_widens: measure(vs16)? == 2,
        })
    }

    /// The cells `grapheme` takes in a terminal of this model.
    pub fn width(self, grapheme: &str) -> usize {
        if self == Model::CLUSTERS {
            return grapheme.width();
        }
        let mut cells = 0;
        let mut after_zwj = false;
        let mut first_width = None;
        for c in grapheme.chars() {
            if c == ZWJ {
                after_zwj = true;
                continue;
            }
            if std::mem::take(&mut after_zwj) && self.zwj_joins {
                continue;
            }
            if c == VS16 {
                if self.vs16_widens && first_width == Some(1) && cells == 1 {
                    cells = 2;
                }
                continue;
            }
            if self.modifier_joins && is_modifier(c) && first_width.is_some() {
                continue;
            }
            let w = c.width().unwrap_or(0);
            first_width.get_or_insert(w);
            cells += w;
        }
        cells
    }
}

fn is_modifier(c: char) -> bool {
    ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

static MODEL: OnceLock<Model> = OnceLock::new();

/// Sets the model of the terminal the workbench draws on (once, at start-up; tests and
/// snapshots keep the majority's).
pub fn set_model(model: Model) {
    let _ = MODEL.set(model);
}

/// The model every width in the workbench follows.
pub fn model() -> Model {
    MODEL.get().copied().unwrap_or(Model::CLUSTERS)
}

/// The cells `grapheme` takes on this terminal.
pub fn of(grapheme: &str) -> usize {
    model().width(grapheme)
}

/// The cells `text` takes on this terminal.
pub fn of_str(text: &str) -> usize {
    text.graphemes(true).map(of).sum()
}

/// Draws `lines` into `area` from its left edge, one grapheme at a time in the cells this
/// terminal gives it (ratatui's own text widgets reserve the majority's widths). A grapheme
/// that does not fit whole is left out; a cell whose width ratatui would count differently is
/// marked with the width drawn, so the screen update writes it and skips what it covers.
pub fn render_lines(lines: &[Line], area: Rect, buf: &mut Buffer) {
    let right = area.x + area.width;
    for (line, y) in lines.iter().zip(area.y..area.y + area.height) {
        let mut x = area.x;
        for span in &line.spans {
            let style = line.style.patch(span.style);
            for grapheme in span.content.graphemes(true) {
                let w = of(grapheme);
                if w == 0 || x + w as u16 > right {
                    if w > 0 {
                        break;
                    }
                    continue;
                }
                let cell = &mut buf[(x, y)];
                cell.set_symbol(grapheme).set_style(style);
                if grapheme.cell_width() as usize != w {
                    let forced = std::num::NonZeroU16::new(w as u16).expect("w > 0");
                    cell.set_diff_option(CellDiffOption::ForcedWidth(forced));
                }
                for covered in x + 1..x + w as u16 {
                    buf[(covered, y)].reset();
                    buf[(covered, y)].set_style(style);
                }
                x += w as u16;
            }
        }
        for rest in x..right {
            buf[(rest, y)].set_style(line.style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE_POINTS_WITH_ZWJ: Model = Model {
        modifier_joins: false,
        zwj_joins: true,
        vs16_widens: false,
    };

    #[test]
    fn clusters_follow_the_emoji_rules() {
        for (g, w) in [
            ("👍🏽", 2),
            ("👩‍❤️‍👨", 2),
            ("©️", 2),
            ("1️⃣", 2),
            ("🇩🇪", 2),
            ("語", 2),
            ("e\u{301}", 1),
        ] {
            assert_eq!(Model::CLUSTERS.width(g), w, "{g}");
        }
    }

    #[test]
    fn code_point_terminals_add_up_and_may_fold_after_a_joiner() {
        for (g, w) in [
            ("👍🏽", 4),
            ("👩‍❤️‍👨", 2),
            ("©️", 1),
            ("1️⃣", 1),
            ("🇩🇪", 2),
            ("🏃🏻‍♀️", 4),
        ] {
            assert_eq!(CODE_POINTS_WITH_ZWJ.width(g), w, "{g}");
        }
        let plain = Model {
            zwj_joins: false,
            ..CODE_POINTS_WITH_ZWJ
        };
        assert_eq!(plain.width("👩‍❤️‍👨"), 5);
    }

    #[test]
    fn the_probe_reads_each_difference() {
        let tmux_like = |g: &str| Some(CODE_POINTS_WITH_ZWJ.width(g));
        assert_eq!(Model::probe(tmux_like), Some(CODE_POINTS_WITH_ZWJ));
        assert_eq!(
            Model::probe(|g| Some(Model::CLUSTERS.width(g))),
            Some(Model::CLUSTERS)
        );
        assert_eq!(Model::probe(|_| None), None);
    }

    #[test]
    fn lines_are_drawn_in_the_cells_the_model_gives() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
        render_lines(&[Line::from("a語b")], buf.area, &mut buf);
        assert_eq!(buf[(0, 0)].symbol(), "a");
        assert_eq!(buf[(1, 0)].symbol(), "語");
        assert_eq!(buf[(3, 0)].symbol(), "b");
        // What does not fit whole is left out.
        let mut narrow = Buffer::empty(Rect::new(0, 0, 2, 1));
        render_lines(&[Line::from("a語")], narrow.area, &mut narrow);
        assert_eq!(narrow[(1, 0)].symbol(), " ");
    }
}
