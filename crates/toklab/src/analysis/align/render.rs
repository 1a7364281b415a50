//! Alignments and matrices as text, the way the textbook draws them: three rows (source,
//! target, operations) for an alignment (Fig. 2.17), a grid of arrows and values with the
//! backtrace marked for a matrix (Fig. 2.22).

use unicode_width::UnicodeWidthStr;

use super::{Alignment, Matrix};

/// The three rows of an alignment: the source units (`*` for a gap), the target units, and
/// the operations (`d`, `s`, `i`, blank for a match). Columns are padded to the wider unit
/// (in terminal cells, so CJK lines up) and separated by one space; trailing blanks are cut.
pub fn render_rows(alignment: &Alignment, a: &[String], b: &[String]) -> [String; 3] {
    let mut rows: [String; 3] = Default::default();
    let mut letter = [0u8; 4];
    for (column, pair) in alignment.pairs.iter().enumerate() {
        let top = pair.a.map_or("*", |i| a[i].as_str());
        let bottom = pair.b.map_or("*", |j| b[j].as_str());
        let op: &str = pair.op.code().encode_utf8(&mut letter);
        let widths = [top.width(), bottom.width(), 1];
        let width = widths[0].max(widths[1]).max(1);
        for ((row, cell), cell_width) in rows.iter_mut().zip([top, bottom, op]).zip(widths) {
            if column > 0 {
                row.push(' ');
            }
            row.push_str(cell);
            row.extend(std::iter::repeat_n(' ', width.saturating_sub(cell_width)));
        }
    }
    for row in &mut rows {
        row.truncate(row.trim_end().len());
    }
    rows
}

fn pad(out: &mut String, cell: &str, width: usize) {
    out.push_str(cell);
    for _ in cell.width()..width {
        out.push(' ');
    }
}

/// How to draw a matrix: `colour` adds ANSI bold/colour to the backtrace (it is always marked
/// with brackets too, so the plain text says the same).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatrixStyle {
    /// Whether to add ANSI colour (a terminal, `NO_COLOR` unset).
    pub colour: bool,
}

/// The matrix as a grid: a header row of target units after `#`, then one row per source
/// unit; each cell its arrows (`↖←↑` slots) and value, cells on `path` with the value in
/// brackets. Cells not filled yet (a matrix in the middle of [`super::FillSteps`]) are blank.
pub fn render_matrix(
    matrix: &Matrix,
    a: &[String],
    b: &[String],
    path: &[(usize, usize)],
    style: MatrixStyle,
) -> String {
    let (rows, cols) = (matrix.rows(), matrix.cols());
    let on_path: std::collections::HashSet<(usize, usize)> = path.iter().copied().collect();
    let mut value_width = 1;
    for i in 0..rows {
        for j in 0..cols {
            if let Some(v) = matrix.value(i, j) {
                value_width = value_width.max(v.to_string().len());
            }
        }
    }
    // A cell is "↖←↑ [v]": three arrow slots, a space, the value between two marker columns.
    let label_width = b.iter().map(|l| l.width()).max().unwrap_or(1).max(1);
    let cell_width = (3 + 1 + value_width + 2).max(label_width);
    let head_width = a.iter().map(|l| l.width()).max().unwrap_or(1).max(1);
    let mut out = String::new();
    pad(&mut out, "", head_width);
    for j in 0..cols {
        let label = if j == 0 { "#" } else { b[j - 1].as_str() };
        out.push(' ');
        // Right-align the label over the value.
        let room = cell_width.saturating_sub(label.width() + 1);
        out.push_str(&" ".repeat(room));
        out.push_str(label);
        out.push(' ');
    }
    trim_line(&mut out);
    for i in 0..rows {
        let label = if i == 0 { "#" } else { a[i - 1].as_str() };
        pad(&mut out, label, head_width);
        for j in 0..cols {
            out.push(' ');
            let Some(value) = matrix.value(i, j) else {
                out.push_str(&" ".repeat(cell_width));
                continue;
            };
            let marked = on_path.contains(&(i, j));
            let number = format!("{value:>value_width$}");
            let body = if marked {
                format!("[{number}]")
            } else {
                format!(" {number} ")
            };
            let text = format!("{} {body}", matrix.pointers(i, j).arrows());
            out.push_str(&" ".repeat(cell_width - text.width()));
            if marked && style.colour {
                out.push_str("\x1b[1;33m");
                out.push_str(&text);
                out.push_str("\x1b[0m");
            } else {
                out.push_str(&text);
            }
        }
        trim_line(&mut out);
    }
    out
}

/// Ends the current line without trailing blanks.
fn trim_line(out: &mut String) {
    let kept = out.trim_end_matches(' ').len();
    out.truncate(kept);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::super::{Costs, Interner, Unit, segment};
    use super::*;

    fn labelled(a: &str, b: &str, costs: Costs) -> (Matrix, Vec<String>, Vec<String>) {
        let mut interner = Interner::new();
        let (x, la) = segment(a, Unit::Codepoint, &mut interner);
        let (y, lb) = segment(b, Unit::Codepoint, &mut interner);
        (Matrix::new(&x, &y, costs), la, lb)
    }

    #[test]
    fn three_rows_of_figure_2_17() {
        let (m, a, b) = labelled("intention", "execution", Costs::INDEL);
        let rows = render_rows(&m.backtrace().unwrap(), &a, &b);
        assert_eq!(rows[0], "i n t e * n t i o n");
        assert_eq!(rows[1], "* e x e c u t i o n");
        assert_eq!(rows[2], "d s s   i s");
    }

    #[test]
    fn wide_units_keep_columns_aligned() {
        let (m, a, b) = labelled("語a", "b", Costs::LEVENSHTEIN);
        let rows = render_rows(&m.backtrace().unwrap(), &a, &b);
        assert_eq!(rows, ["語 a", "*  b", "d  s"]);
    }

    #[test]
    fn matrix_marks_the_backtrace() {
        let (m, a, b) = labelled("ab", "b", Costs::LEVENSHTEIN);
        let alignment = m.backtrace().unwrap();
        let text = render_matrix(&m, &a, &b, &m.path(&alignment), MatrixStyle::default());
        let expected = [
            "       #       b",
            "#     [0]  ←   1",
            "a   ↑ [1] ↖    1",
            "b   ↑  2  ↖   [1]",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
        let coloured = render_matrix(
            &m,
            &a,
            &b,
            &m.path(&alignment),
            MatrixStyle { colour: true },
        );
        assert!(coloured.contains("\x1b[1;33m"));
    }
}
