//! The DP demo's explanation of a cell in the textbook's form (Jurafsky & Martin §2.9):
//! every candidate as its neighbour plus the operation's cost, with the numbers, and the
//! minimum — `D[1,2] = min( D[0,1] + sub(T,a) = 1 + 1, … ) = 2` rather than arrows.

use toklab::analysis::align::FillStep;

/// The explanation of `step`; `value(i, j)` reads the (partly filled) matrix and `source`,
/// `target` are the symbols of its rows and columns.
pub fn explain_cell(
    step: &FillStep,
    value: impl Fn(usize, usize) -> Option<u64>,
    source: &[String],
    target: &[String],
) -> String {
    let (i, j) = (step.i, step.j);
    let symbol = |list: &[String], k: usize| list.get(k).cloned().unwrap_or_default();
    let c = step.candidates;
    let mut terms = Vec::new();
    let mut term = |candidate: Option<u64>, from: (usize, usize), operation: String| {
        if let (Some(total), Some(before)) = (candidate, value(from.0, from.1)) {
            terms.push(format!(
                "D[{},{}] + {operation} = {before} + {}",
                from.0,
                from.1,
                total.saturating_sub(before)
            ));
        }
    };
    if i > 0 && j > 0 {
        let (s, t) = (symbol(source, i - 1), symbol(target, j - 1));
        term(c.diagonal, (i - 1, j - 1), format!("sub({s},{t})"));
    }
    if i > 0 {
        term(c.up, (i - 1, j), format!("del({})", symbol(source, i - 1)));
    }
    if j > 0 {
        term(
            c.left,
            (i, j - 1),
            format!("ins({})", symbol(target, j - 1)),
        );
    }
    let same = if step.equal {
        "  (same symbol: sub costs 0)"
    } else {
        ""
    };
    match terms.len() {
        0 => format!("D[{i},{j}] = {}", step.value),
        1 => format!("D[{i},{j}] = {} = {}{same}", terms[0], step.value),
        _ => format!(
            "D[{i},{j}] = min( {} ) = {}{same}",
            terms.join(", "),
            step.value
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toklab::analysis::align::{Candidates, Pointers};

    #[test]
    fn every_candidate_is_its_neighbour_plus_a_cost() {
        // D for "T" against "a": D[0,0]=0, D[0,1]=1, D[1,0]=1.
        let values = |i: usize, j: usize| Some((i + j) as u64);
        let step = FillStep {
            i: 1,
            j: 1,
            candidates: Candidates {
                diagonal: Some(1),
                up: Some(2),
                left: Some(2),
            },
            value: 1,
            pointers: Pointers::DIAGONAL,
            equal: false,
        };
        let shown = explain_cell(
            &step,
            |i, j| values(i, j).map(|v| v.min(1)),
            &["T".into()],
            &["a".into()],
        );
        assert_eq!(
            shown,
            "D[1,1] = min( D[0,0] + sub(T,a) = 0 + 1, D[0,1] + del(T) = 1 + 1, \
             D[1,0] + ins(a) = 1 + 1 ) = 1"
        );
    }

    #[test]
    fn a_border_cell_has_one_term() {
        let step = FillStep {
            i: 0,
            j: 2,
            candidates: Candidates {
                diagonal: None,
                up: None,
                left: Some(2),
            },
            value: 2,
            pointers: Pointers::LEFT,
            equal: false,
        };
        let shown = explain_cell(&step, |_, j| Some(j as u64), &[], &["a".into(), "b".into()]);
        assert_eq!(shown, "D[0,2] = D[0,1] + ins(b) = 1 + 1 = 2");
    }
}
