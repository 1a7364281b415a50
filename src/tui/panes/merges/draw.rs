//! The merges view: the merge steps of the selected word replayed under both formal semantics
//! side by side (SentencePiece, Definition 3; HuggingFace, Definition 4), the tokens after
//! each step with the pair just merged highlighted, and the step where the two part.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::tui::panes::Context;
use crate::tui::panes::MergesPane;
use crate::tui::theme::Theme;
use crate::tui::view::window_start;
use toklab::engines::subword::formal::{Derivation, Dictionary, Semantics, WordSteps};

/// Draws the merges pane: the selected word's two derivations at the replay's step.
pub fn draw(frame: &mut Frame, area: Rect, pane: &MergesPane, cx: &Context, theme: &Theme) {
    if crate::tui::panes::lattice::draw::draw(frame, area, &pane.lattice, cx, theme) {
        return;
    }
    let Some(word) = pane.word(cx) else {
        let hint = match cx.selected_row() {
            Some(row) if row.is_loading() => "loading…".into(),
            Some(_) if cx.text().is_empty() => "no words on an empty line".into(),
            Some(_) if pane.explaining() => "explaining the line…".into(),
            Some(_) if pane.left_out() > 0 => format!(
                "merge steps are kept for pieces of at most {} bytes; this line's are longer",
                toklab::engines::subword::bpe::MAX_STEPS_PIECE_BYTES
            ),
            Some(_) => {
                "the selected row is not a merge-based (BPE) tokenizer: Tab to a BPE row".into()
            }
            None => "no tokenizer rows".into(),
        };
        frame.render_widget(Paragraph::new(Line::styled(hint, theme.dim)), area);
        return;
    };
    let (sp, hf) = both(word);
    let step = pane.replay.step;
    let steps = sp
        .map_or(0, |d| d.steps.len())
        .max(hf.map_or(0, |d| d.steps.len()));
    let parts_at = word.other.as_ref().and_then(|o| o.parts_at);
    let [head, columns] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let parting = match (word.other.as_ref(), parts_at) {
        (None, _) => String::new(),
        (Some(_), None) => " · the two semantics agree: one panel".into(),
        (Some(_), Some(k)) => format!(" · the semantics part at step {}", k + 1),
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("word ", theme.dim),
            Span::styled(
                format!(
                    "«{}»",
                    Dictionary::show(&word.derivation.word).replace(' ', "␣")
                ),
                theme.title,
            ),
            Span::raw(format!(" · step {}/{}{parting}", step.min(steps), steps)),
            Span::styled("   . , step · p play · f end · ←/→ another word", theme.dim),
        ])),
        head,
    );
    let agree = word.other.is_some() && parts_at.is_none();
    let panels: Vec<(Option<&Derivation>, Rect)> = if agree || word.other.is_none() {
        // One panel when there is one derivation, or when both take the same steps.
        vec![(Some(&word.derivation), columns)]
    } else {
        let halves = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .split(columns);
        vec![(sp, halves[0]), (hf, halves[1])]
    };
    for (derivation, area) in panels {
        if let Some(d) = derivation {
            let rules = if d.semantics == word.derivation.semantics {
                &word.rules
            } else {
                &word.other.as_ref().expect("both semantics").rules
            };
            let title = if agree {
                " SentencePiece = HuggingFace: the two semantics agree on this word "
            } else {
                semantics_title(d.semantics)
            };
            draw_derivation(frame, area, d, rules, step, parts_at, title, theme);
        }
    }
}

fn semantics_title(semantics: Semantics) -> &'static str {
    match semantics {
        Semantics::SentencePiece => " SentencePiece (Def. 3: best rule, leftmost) ",
        Semantics::HuggingFace => " HuggingFace (Def. 4: a rule everywhere, then the next) ",
    }
}

/// A rule as `«u» ⟩ «v»` with the spaces inside its tokens shown as `␣`.
fn visible_spaces(rule: &str) -> String {
    let mut out = String::with_capacity(rule.len());
    let mut inside = false;
    for c in rule.chars() {
        match c {
            '«' => inside = true,
            '»' => inside = false,
            ' ' if inside => {
                out.push('␣');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// The word's SentencePiece and HuggingFace derivations (one may be missing).
fn both(word: &WordSteps) -> (Option<&Derivation>, Option<&Derivation>) {
    let other = word.other.as_ref().map(|o| &o.derivation);
    match word.derivation.semantics {
        Semantics::SentencePiece => (Some(&word.derivation), other),
        Semantics::HuggingFace => (other, Some(&word.derivation)),
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_derivation(
    frame: &mut Frame,
    area: Rect,
    d: &Derivation,
    rules: &[String],
    step: usize,
    parts_at: Option<usize>,
    title: &str,
    theme: &Theme,
) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title.to_string(), theme.title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let k = step.min(d.steps.len());
    // The tokens after k steps, the one step k made highlighted.
    let made = k.checked_sub(1).map(|i| (d.steps[i].start, d.steps[i].end));
    let ends = d.ends_after(k);
    let mut tokens = Vec::new();
    let mut start = 0;
    for (i, &end) in ends.iter().enumerate() {
        let style = if Some((start, end)) == made {
            theme.selected_token
        } else {
            theme.token[i % 2]
        };
        let shown = Dictionary::show(&d.word[start..end]).replace(' ', "␣");
        tokens.push(Span::styled(
            crate::tui::panes::train::draw::cell(&shown, theme),
            style,
        ));
        if theme.large_print {
            tokens.push(Span::raw(" "));
        }
        start = end;
    }
    let mut lines = vec![Line::from(tokens)];
    if theme.large_print {
        lines.push(Line::raw(""));
    }
    lines.push(match made {
        Some(_) => {
            let s = &d.steps[k - 1];
            Line::from(vec![
                Span::styled(format!("step {k}: "), theme.label),
                Span::raw(visible_spaces(&rules[k - 1])),
                Span::styled(
                    format!("  rank {} at token {}", s.rank, s.position),
                    theme.dim,
                ),
            ])
        }
        None if d.steps.is_empty() => Line::styled(
            "no rule applies: the word stays in single symbols",
            theme.dim,
        ),
        None => Line::styled("step 0: single symbols", theme.dim),
    });
    // The history τ0 … τn as `toklab bpe steps` prints it, the current τk marked.
    let list_height = (inner.height as usize).saturating_sub(lines.len());
    let first = window_start(k, list_height, d.steps.len() + 1);
    for i in (0..=d.steps.len()).skip(first).take(list_height) {
        let parting = i > 0 && parts_at == Some(i - 1);
        let style = if i == k {
            theme.cursor_line
        } else if parting {
            theme.error
        } else if i > k {
            theme.dim
        } else {
            ratatui::style::Style::new()
        };
        let mark = if parting { "≠" } else { " " };
        let rule = match i.checked_sub(1) {
            Some(r) => format!(
                "    {}  rank {}",
                visible_spaces(&rules[r]),
                d.steps[r].rank
            ),
            None => String::new(),
        };
        lines.push(Line::styled(
            format!("{mark}τ{i} = {}{rule}", d.show_after(i)),
            style,
        ));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
