//! The training view: BPE learned from the current text one merge at a time — the next merge
//! and its count, the most frequent pairs as a bar chart, the merges so far, and the most
//! frequent words in their current segmentation.

use crate::counted::counted;
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, Paragraph};

use crate::tui::panes::Context;
use crate::tui::panes::TrainPane;
use crate::tui::panes::train::bpe::{CORPUS_LIMIT, Corpus, TrainDemo, TrainScope, pretok_name};
use crate::tui::panes::train::unigram::Algorithm;
use crate::tui::theme::Theme;
use toklab::engines::subword::train::show_token;

/// Draws the training pane: the next merge, the pair counts, the merges and the words.
pub fn draw(frame: &mut Frame, area: Rect, pane: &TrainPane, cx: &Context, theme: &Theme) {
    if pane.algorithm == Algorithm::Unigram {
        super::draw_unigram::draw(frame, area, pane, cx, theme);
        return;
    }
    let Some(demo) = pane.demo(cx) else {
        frame.render_widget(Paragraph::new(Line::styled("starting…", theme.dim)), area);
        return;
    };
    let [head, tie_line, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
    ])
    .areas(area);
    draw_head(frame, head, tie_line, pane, demo, theme);
    let [pairs_area, merges_area, words_area] = Layout::horizontal([
        Constraint::Percentage(40),
        Constraint::Percentage(25),
        Constraint::Percentage(35),
    ])
    .areas(body);
    draw_pair_counts(frame, pairs_area, demo, theme);
    draw_merges(frame, merges_area, demo, theme);
    draw_words(frame, words_area, demo, theme);
}

/// The head: merges so far, the corpus, the next merge and the keys; below it, how a tie
/// for the most frequent pair was broken.
fn draw_head(
    frame: &mut Frame,
    head: Rect,
    tie_line: Rect,
    pane: &TrainPane,
    demo: &TrainDemo,
    theme: &Theme,
) {
    let t = &demo.trainer;
    let next = demo
        .pairs
        .first()
        .map_or("nothing left to merge".to_string(), |p| {
            format!(
                "next: «{}» + «{}» → «{}{}» ({}×)",
                show_token(t.token(p.left)),
                show_token(t.token(p.right)),
                show_token(t.token(p.left)),
                show_token(t.token(p.right)),
                p.count
            )
        });
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                format!("{} learned", counted(t.merges().len(), "merge")),
                theme.title,
            ),
            // The next merge before the corpus: on a narrow screen the line's end is cut.
            Span::raw(" · "),
            Span::styled(next, theme.key),
            Span::raw(format!(
                " · on the {}: {} · {} words",
                pane.scope.name(),
                corpus_description(pane, &demo.corpus),
                pretok_name(demo.pretok)
            )),
            Span::styled(
                "   . merge , undo p play f +100 · U unigram · t line/selection/file V mark T words R row M save",
                theme.dim,
            ),
        ])),
        head,
    );
    frame.render_widget(
        Paragraph::new(Line::from(tie_explanation(demo, tie_line.width >= 100))).style(theme.dim),
        tie_line,
    );
}

/// The most frequent pairs as a bar chart, the next merge's first.
fn draw_pair_counts(frame: &mut Frame, area: Rect, demo: &TrainDemo, theme: &Theme) {
    let t = &demo.trainer;
    let bars: Vec<Bar> = demo
        .pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let label = format!(
                "{}+{}",
                show_token(t.token(p.left)),
                show_token(t.token(p.right))
            );
            let bar = Bar::default()
                .value(p.count)
                .label(Line::from(label))
                .text_value(p.count.to_string());
            if i == 0 { bar.style(theme.key) } else { bar }
        })
        .collect();
    frame.render_widget(
        BarChart::default()
            .block(
                Block::new()
                    .borders(Borders::RIGHT)
                    .border_style(theme.border)
                    .title(Span::styled("pair counts", theme.dim)),
            )
            .direction(Direction::Horizontal)
            .bar_width(1)
            .bar_gap(0)
            .bar_style(theme.bar)
            .value_style(theme.title)
            .data(BarGroup::default().bars(&bars)),
        area,
    );
}

/// The merges learned so far, the newest last.
fn draw_merges(frame: &mut Frame, area: Rect, demo: &TrainDemo, theme: &Theme) {
    let t = &demo.trainer;
    let height = area.height.saturating_sub(1) as usize;
    let merges = t.merges();
    let title = if area.width >= 22 {
        " merges (newest last)"
    } else {
        " merges"
    };
    let mut lines = vec![Line::styled(title, theme.dim)];
    lines.extend(
        merges
            .iter()
            .skip(merges.len().saturating_sub(height))
            .map(|m| {
                Line::from(vec![
                    Span::styled(format!(" {:>4} ", m.rank + 1), theme.dim),
                    Span::raw(format!(
                        "{} + {} → ",
                        show_token(t.token(m.left)),
                        show_token(t.token(m.right))
                    )),
                    Span::styled(show_token(t.token(m.new)), theme.title),
                    Span::styled(format!(" {}×", m.count), theme.dim),
                ])
            }),
    );
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::new()
                .borders(Borders::RIGHT)
                .border_style(theme.border),
        ),
        area,
    );
}

/// The most frequent words as segmented now, the newest token marked.
fn draw_words(frame: &mut Frame, area: Rect, demo: &TrainDemo, theme: &Theme) {
    let t = &demo.trainer;
    let newest = demo.last.as_ref().map(|l| l.record.new);
    let title = if area.width >= 60 {
        " words by count, as segmented now (the newest token marked)"
    } else {
        " words as segmented now"
    };
    let mut lines = vec![Line::styled(title, theme.dim)];
    let spacing = if theme.large_print { 2 } else { 1 };
    for word in t
        .words()
        .iter()
        .take((area.height.saturating_sub(1) as usize).div_ceil(spacing))
    {
        let mut spans = vec![Span::styled(format!(" {:>5}× ", word.count), theme.dim)];
        let bytes: Vec<u8> = word
            .symbols
            .iter()
            .flat_map(|&s| t.token(s))
            .copied()
            .collect();
        let note = whitespace_note(&bytes);
        for (i, &s) in word.symbols.iter().enumerate() {
            let style = if Some(s) == newest {
                theme.selected_token
            } else {
                theme.token[i % 2]
            };
            spans.push(Span::styled(cell(&visible(t.token(s)), theme), style));
            if theme.large_print {
                spans.push(Span::raw(" "));
            }
        }
        if let Some(note) = note {
            spans.push(Span::styled(format!("  {note}"), theme.dim));
        }
        lines.push(Line::from(spans));
        if theme.large_print {
            lines.push(Line::raw(""));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// A token's text with whitespace drawn as signs: GPT-2's pre-tokenization makes words of
/// line breaks and runs of spaces, which would otherwise show as `\n` or nothing.
fn visible(bytes: &[u8]) -> String {
    if !bytes.iter().all(u8::is_ascii_whitespace) {
        return show_token(bytes);
    }
    bytes
        .iter()
        .map(|b| match b {
            b'\n' => '␤',
            b'\t' => '␉',
            b'\r' => '␍',
            b' ' => '␣',
            _ => '·',
        })
        .collect()
}

/// What a word of whitespace alone is, said in words for the words column.
fn whitespace_note(bytes: &[u8]) -> Option<&'static str> {
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(if bytes.iter().all(|&b| b == b'\n') {
        if bytes.len() == 1 {
            "the line break"
        } else {
            "line breaks"
        }
    } else if bytes.contains(&b'\n') {
        "spaces and line breaks"
    } else {
        "spaces (a word of its own before a line break or another space)"
    })
}

/// A token as the lesson views draw it: as it is, or in large print padded to a cell of its
/// own (`" ne "`), so each token stands apart on a projector.
pub fn cell(token: &str, theme: &Theme) -> String {
    if theme.large_print {
        format!(" {token} ")
    } else {
        token.to_string()
    }
}

/// Which lines the demo trains on, and how many the size limit left out.
pub(super) fn corpus_description(pane: &TrainPane, corpus: &Corpus) -> String {
    let c = corpus;
    let span = |first: usize, lines: usize| {
        if lines <= 1 {
            format!("line {}", first + 1)
        } else {
            format!("lines {}–{}", first + 1, first + lines)
        }
    };
    let shown = span(c.first, c.lines);
    let cut = if c.lines < c.wanted {
        format!(" of {} (the first {} KiB)", c.wanted, CORPUS_LIMIT / 1024)
    } else {
        String::new()
    };
    let mark = match (pane.scope, pane.mark) {
        (TrainScope::Selection, None) => " (V marks the other end)",
        _ => "",
    };
    format!("{shown}{cut}{mark}, {}", counted(c.text.len(), "byte"))
}

/// How the last merge won when other pairs had its count, or how the next one will.
fn tie_explanation(demo: &TrainDemo, wide: bool) -> String {
    let rule = if wide {
        "the first seen wins (words by count, then first appearance; leftmost)"
    } else {
        "the first seen wins"
    };
    if demo.pairs.is_empty() {
        // Nothing left to merge: there is no next merge for a tie to be about.
        return String::new();
    }
    if let Some(last) = demo.last.as_ref().filter(|l| !l.tied_with.is_empty()) {
        return format!(
            " last merge: tie at {}×: {} beat {}: {rule}",
            last.record.count,
            demo.pair_label(last.record.left, last.record.right),
            last.tied_with.join(", "),
        );
    }
    let tie = demo.next_tie();
    match (tie.first(), demo.pairs.first()) {
        (Some(winner), Some(best)) => format!(
            " tie at {}×: {} wins over {}: {rule}",
            best.count,
            winner,
            tie[1..].join(", ")
        ),
        _ => " no tie: the most frequent pair is merged".into(),
    }
}
