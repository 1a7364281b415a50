//! The statistics view: per tokenizer, tokens on this line and in the whole file, characters
//! per token, the Heaps' law exponent β, and as pictures the comparison between
//! tokenizers, the selected row's token lengths, its tokens per line over the file and every
//! row's vocabulary growth on log-log axes.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{
    Axis, Bar, BarChart, BarGroup, Block, Borders, Cell, Chart, Dataset, Gauge, GraphType,
    Paragraph, Row, Sparkline, Table,
};

use unicode_width::UnicodeWidthStr;

use crate::tui::panes::Context;
use crate::tui::panes::StatsPane;
use crate::tui::panes::stats::run::FileStats;
use crate::tui::theme::Theme;
use toklab::analysis::{HeapsCurve, LENGTH_BUCKETS, TokenStats};

/// Draws the statistics pane: the figures table, its progress, the bar charts and sparkline.
pub fn draw(frame: &mut Frame, area: Rect, pane: &StatsPane, cx: &Context, theme: &Theme) {
    let file = pane.run(cx).map(|s| s.figures());
    let running = pane.run(cx).and_then(|s| s.job.as_ref());
    let table_height = (cx.rows.len() as u16 + 1).min(area.height);
    // Figures of a cancelled computation cover only part of the file: say so.
    let partial = file
        .as_ref()
        .filter(|f| running.is_none() && !f.complete)
        .map(|f| (f.lines_done, f.lines_total));
    let gauge_height = u16::from(running.is_some() || partial.is_some());
    // The selected row's fertility and compression over the file, as leaderboards report it.
    // Only where the whole table still fits above it.
    let fertility = file
        .as_ref()
        .and_then(|f| fertility_line(f, cx))
        .filter(|_| area.height > table_height + gauge_height);
    let fertility_height = u16::from(fertility.is_some());
    // Wide terminals: figures and the sparkline on the left, bar charts on the right.
    let label_width = cx
        .rows
        .iter()
        .map(|r| r.setup.label.width())
        .max()
        .unwrap_or(9)
        .clamp(9, MAX_LABEL) as u16;
    let table_width = label_width + 56;
    let (left, right) = if area.width >= table_width + 30 {
        let [l, r] =
            Layout::horizontal([Constraint::Length(table_width), Constraint::Min(30)]).areas(area);
        (l, Some(r))
    } else {
        (area, None)
    };
    let [table_area, fertility_area, gauge_area, rest] = Layout::vertical([
        Constraint::Length(table_height),
        Constraint::Length(fertility_height),
        Constraint::Length(gauge_height),
        Constraint::Min(0),
    ])
    .areas(left);
    draw_table(
        frame,
        table_area,
        pane,
        cx,
        file.as_ref(),
        label_width,
        theme,
    );
    if let Some(line) = fertility {
        frame.render_widget(
            Paragraph::new(Line::styled(line, theme.title)),
            fertility_area,
        );
    }
    if let Some((done, total)) = partial {
        frame.render_widget(
            Paragraph::new(Line::styled(
                format!("partial: cancelled after {done} of {total} lines — s computes again"),
                theme.error,
            )),
            gauge_area,
        );
    }
    if let Some(job) = running {
        let label = format!(
            "statistics over {}: {:.0}% — Esc cancels",
            crate::counted::counted(file.as_ref().map_or(0, |f| f.lines_total), "line"),
            job.fraction() * 100.0
        );
        frame.render_widget(
            Gauge::default()
                .ratio(job.fraction())
                .label(label)
                .gauge_style(theme.bar),
            gauge_area,
        );
    }
    match right {
        Some(right) => {
            if rest.height >= 9 {
                let [spark, heaps] =
                    Layout::vertical([Constraint::Length(3), Constraint::Min(6)]).areas(rest);
                draw_sparkline(frame, spark, cx, file.as_ref(), theme);
                draw_heaps(frame, heaps, cx, file.as_ref(), theme);
            } else if rest.height >= 3 {
                draw_sparkline(frame, rest, cx, file.as_ref(), theme);
            }
            draw_bars(frame, right, pane, cx, file.as_ref(), theme);
        }
        None if rest.height >= 6 => {
            let [bars, spark] =
                Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(rest);
            draw_bars(frame, bars, pane, cx, file.as_ref(), theme);
            draw_sparkline(frame, spark, cx, file.as_ref(), theme);
        }
        None => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_table(
    frame: &mut Frame,
    area: Rect,
    pane: &StatsPane,
    cx: &Context,
    file: Option<&FileStats>,
    label_width: u16,
    theme: &Theme,
) {
    let rows: Vec<Row> = cx
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let line = pane.line_stats(cx, i);
            let whole = file_row(file, &row.setup.label);
            let heaps = heaps_row(file, &row.setup.label);
            let cells = vec![
                Cell::from(shorten(&row.setup.label, label_width as usize)),
                Cell::from(line.tokens.to_string()),
                Cell::from(format!("{:.2}", line.chars_per_token())),
                Cell::from(whole.map_or("…".into(), |w| w.tokens.to_string())),
                Cell::from(whole.map_or("…".into(), |w| format!("{:.2}", w.chars_per_token()))),
                Cell::from(whole.map_or("…".into(), |w| format!("{:.1}", w.tokens_per_text()))),
                Cell::from(
                    heaps
                        .and_then(|c| c.fit())
                        .map_or("…".into(), |f| format!("{:.3}", f.beta)),
                ),
            ];
            let r = Row::new(cells);
            if i == cx.rows.selected {
                r.style(theme.selected_label)
            } else {
                r
            }
        })
        .collect();
    let header = Row::new([
        "tokenizer",
        "line",
        "chars/tok",
        "file",
        "chars/tok",
        "per line",
        "β",
    ])
    .style(theme.title);
    let widths = [
        Constraint::Length(label_width),
        Constraint::Length(6),
        Constraint::Length(9),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Length(8),
        Constraint::Length(6),
    ];
    frame.render_widget(
        Table::new(rows, widths).header(header).column_spacing(1),
        area,
    );
}

/// "LABEL: 1.21 tok/word · 18% split · 3.90 ch/tok · 4.10 B/tok" for the selected row
/// (tokens per whitespace word, words split into more than one token, characters and bytes
/// per token) over the whole file, once its figures have words.
fn fertility_line(file: &FileStats, cx: &Context) -> Option<String> {
    let label = &cx.rows.selected_row()?.setup.label;
    let at = file.labels.iter().position(|l| l == label)?;
    let f = file.fertility.get(at).filter(|f| f.words > 0)?;
    Some(format!(
        "{label}: {:.2} tok/word · {:.0}% split · {:.2} ch/tok · {:.2} B/tok",
        f.tokens_per_word(),
        f.split_share() * 100.0,
        f.chars_per_token(),
        f.bytes_per_token()
    ))
}

fn file_row<'a>(file: Option<&'a FileStats>, label: &str) -> Option<&'a TokenStats> {
    let file = file?;
    file.labels
        .iter()
        .position(|l| l == label)
        .and_then(|i| file.rows.get(i))
}

fn heaps_row<'a>(file: Option<&'a FileStats>, label: &str) -> Option<&'a HeapsCurve> {
    let file = file?;
    file.labels
        .iter()
        .position(|l| l == label)
        .and_then(|i| file.heaps.get(i))
}

/// One row's curve in the Heaps' law chart: its name with the fit, its (log10 N, log10 |V|)
/// points, and whether it is the selected row.
struct Growth {
    name: String,
    points: Vec<(f64, f64)>,
    selected: bool,
}

/// Every row's types against its tokens on log-log axes (decades of ten), named with the
/// fitted k and β; the selected row drawn in the bar colour, the others dimmed.
fn draw_heaps(
    frame: &mut Frame,
    area: Rect,
    cx: &Context,
    file: Option<&FileStats>,
    theme: &Theme,
) {
    let series: Vec<Growth> = cx
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let curve = heaps_row(file, &row.setup.label)?;
            if curve.points.is_empty() {
                return None;
            }
            let name = match curve.fit() {
                Some(f) => format!("{} k={:.1} β={:.2}", row.setup.label, f.k, f.beta),
                None => row.setup.label.clone(),
            };
            let points = curve
                .points
                .iter()
                .map(|&(n, v)| ((n as f64).log10(), (v as f64).log10()))
                .collect();
            Some(Growth {
                name,
                points,
                selected: i == cx.rows.selected,
            })
        })
        .collect();
    // The fits go in the title: a chart legend hides itself in a short pane.
    let fits: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(Line::styled(
            format!(" Heaps' law |V| = k·N^β, log-log: {} ", fits.join(" · ")),
            theme.dim,
        ));
    if series.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled("computing…", theme.dim)).block(block),
            area,
        );
        return;
    }
    let top = |axis: fn(&(f64, f64)) -> f64| {
        series
            .iter()
            .flat_map(|s| s.points.iter().map(axis))
            .fold(1.0_f64, f64::max)
            .ceil()
    };
    let (max_x, max_y) = (top(|p| p.0), top(|p| p.1));
    let decades = |max: f64| -> Vec<Line> {
        (0..=max as u32)
            .map(|e| Line::from(format!("1e{e}")))
            .collect()
    };
    let datasets: Vec<Dataset> = series
        .iter()
        .map(|growth| {
            Dataset::default()
                .name(growth.name.clone())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(if growth.selected {
                    theme.bar
                } else {
                    theme.dim
                })
                .data(&growth.points)
        })
        .collect();
    let chart = Chart::new(datasets)
        .block(block)
        .hidden_legend_constraints((Constraint::Ratio(2, 3), Constraint::Ratio(1, 1)))
        .x_axis(
            Axis::default()
                .title(Line::styled("tokens", theme.dim))
                .bounds([0.0, max_x])
                .labels(decades(max_x)),
        )
        .y_axis(
            Axis::default()
                .title(Line::styled("types", theme.dim))
                .bounds([0.0, max_y])
                .labels(decades(max_y)),
        );
    frame.render_widget(chart, area);
}

/// The comparison between tokenizers and the selected row's token lengths, side by side.
fn draw_bars(
    frame: &mut Frame,
    area: Rect,
    pane: &StatsPane,
    cx: &Context,
    file: Option<&FileStats>,
    theme: &Theme,
) {
    let [compare_area, lengths_area] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);

    draw_counts(frame, compare_area, cx, file, theme);
    draw_lengths(frame, lengths_area, pane, cx, file, theme);
}

/// Tokens per tokenizer: the whole file when known, else this line.
fn draw_counts(
    frame: &mut Frame,
    compare_area: Rect,
    cx: &Context,
    file: Option<&FileStats>,
    theme: &Theme,
) {
    let (title, values): (&str, Vec<u64>) = match file.filter(|f| f.lines_done > 0) {
        Some(f) => (
            if f.complete {
                " tokens in the file "
            } else {
                " tokens in the file (partial) "
            },
            cx.rows
                .iter()
                .map(|r| file_row(Some(f), &r.setup.label).map_or(0, |s| s.tokens))
                .collect(),
        ),
        None => (
            " tokens on this line ",
            cx.rows.iter().map(|r| r.tokens.len() as u64).collect(),
        ),
    };
    // Labels take at most a third of the chart, so the bars keep room.
    let bar_label = (compare_area.width as usize / 3).clamp(4, MAX_LABEL);
    let bars: Vec<Bar> = cx
        .rows
        .iter()
        .zip(&values)
        .map(|(row, &v)| {
            Bar::default()
                .value(v)
                .label(Line::from(shorten(&row.setup.label, bar_label)))
                .text_value(v.to_string())
        })
        .collect();
    let compare = BarChart::default()
        .block(
            Block::new()
                .borders(Borders::TOP)
                .border_style(theme.border)
                .title(Line::styled(title, theme.dim)),
        )
        .direction(Direction::Horizontal)
        .bar_width(1)
        .bar_gap(0)
        .bar_style(theme.bar)
        .value_style(theme.title)
        .data(BarGroup::default().bars(&bars));
    frame.render_widget(compare, compare_area);
}

/// Token lengths of the selected row, over the file when known, else this line.
fn draw_lengths(
    frame: &mut Frame,
    lengths_area: Rect,
    pane: &StatsPane,
    cx: &Context,
    file: Option<&FileStats>,
    theme: &Theme,
) {
    let Some(row) = cx.selected_row() else {
        return;
    };
    let selected = file_row(file, &row.setup.label);
    let lengths = match selected {
        Some(s) => s.lengths,
        None => pane.line_stats(cx, cx.rows.selected).lengths,
    };
    // Bars at least as wide as their labels ("16+"); in a narrow pane the longest lengths
    // are folded into the last bar, so no label overlaps another.
    let width = (lengths_area.width.saturating_sub(1) / LENGTH_BUCKETS as u16).clamp(2, 4);
    let fit =
        ((lengths_area.width.saturating_sub(1) / (width + 1)) as usize).clamp(2, LENGTH_BUCKETS);
    let mut shown = lengths[..fit].to_vec();
    shown[fit - 1] += lengths[fit..].iter().sum::<u64>();
    let length_bars: Vec<Bar> = shown
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let label = if i + 1 == fit {
                format!("{}+", i + 1)
            } else {
                (i + 1).to_string()
            };
            Bar::default()
                .value(v)
                .label(Line::from(label))
                .text_value(String::new())
        })
        .collect();
    let title = format!(
        " token lengths (chars), {}{} ",
        row.setup.label,
        if selected.is_some() {
            ", file"
        } else {
            ", line"
        }
    );
    let histogram = BarChart::default()
        .block(
            Block::new()
                .borders(Borders::TOP | Borders::LEFT)
                .border_style(theme.border)
                .title(Line::styled(title, theme.dim)),
        )
        .bar_width(width)
        .bar_gap(1)
        .bar_style(theme.bar)
        .data(BarGroup::default().bars(&length_bars));
    frame.render_widget(histogram, lengths_area);
}

/// Tokens per line of the selected row over the file, downsampled to the width.
fn draw_sparkline(
    frame: &mut Frame,
    area: Rect,
    cx: &Context,
    file: Option<&FileStats>,
    theme: &Theme,
) {
    let Some(row) = cx.selected_row() else {
        return;
    };
    let block = Block::new()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(Line::styled(
            format!(" tokens per line, {} ", row.setup.label),
            theme.dim,
        ));
    match file_row(file, &row.setup.label).filter(|s| !s.per_text.is_empty()) {
        Some(s) => {
            let data = downsample(&s.per_text, area.width as usize);
            frame.render_widget(
                Sparkline::default()
                    .block(block)
                    .data(data)
                    .style(theme.bar),
                area,
            );
        }
        None => frame.render_widget(
            Paragraph::new(Line::styled("computing…", theme.dim)).block(block),
            area,
        ),
    }
}

/// The longest row label shown whole; longer ones are shortened in the middle.
const MAX_LABEL: usize = 24;

/// `label` in at most `width` columns: its start and its end around `…` when it is longer
/// (a path's file name stays visible).
fn shorten(label: &str, width: usize) -> String {
    if label.width() <= width {
        return label.to_string();
    }
    let keep = width.saturating_sub(1);
    let head: String = crate::tui::view::text::clip(label, keep - keep / 2);
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in label.chars().rev() {
        let w = c.to_string().width();
        if used + w > keep / 2 {
            break;
        }
        tail.push(c);
        used += w;
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// At most `width` values: the maximum of each bucket of consecutive lines.
fn downsample(values: &[u32], width: usize) -> Vec<u64> {
    if width == 0 {
        return Vec::new();
    }
    let bucket = values.len().div_ceil(width).max(1);
    values
        .chunks(bucket)
        .map(|c| c.iter().copied().max().unwrap_or(0) as u64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{downsample, shorten};

    #[test]
    fn long_labels_keep_their_start_and_end() {
        assert_eq!(shorten("ws", 9), "ws");
        let long = "rules:/home/someone/projects/toklab/rules?lang=eng";
        let short = shorten(long, 16);
        assert_eq!(short, "rules:/h…ang=eng");
        assert_eq!(unicode_width::UnicodeWidthStr::width(short.as_str()), 16);
    }

    #[test]
    fn downsample_keeps_peaks() {
        assert_eq!(downsample(&[1, 5, 2, 2, 9, 0], 3), [5, 2, 9]);
        assert_eq!(downsample(&[1, 2], 10), [1, 2]);
        assert!(downsample(&[1], 0).is_empty());
    }
}
