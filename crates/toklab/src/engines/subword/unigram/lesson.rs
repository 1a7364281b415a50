//! The Viterbi search of a unigram model as a lesson: the lattice of a word (every candidate
//! piece with its log-probability), then the forward pass one position at a time (the pieces
//! ending there, each with the best total before it plus its own score, and the one kept),
//! then the best path read back from the end. The workbench steps through it; the totals
//! are the `f32` sums the encoder computes, so the lesson ends on the encoder's own path.

use super::lattice::{Lattice, LatticeNode};
use crate::engines::subword::spm::SpmModel;

/// One step of the forward pass: the position reached and how its best total was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct ForwardStep {
    /// Byte offset (in the normalized word) this step fills.
    pub end: usize,
    /// Every candidate ending here: node index and its total (best before it + its score).
    pub candidates: Vec<(usize, f32)>,
    /// The node kept: the highest total, the earliest start among equals.
    pub winner: usize,
}

/// A word's lattice and its Viterbi search, step by step.
#[derive(Clone, Debug, PartialEq)]
pub struct ViterbiLesson {
    /// The normalized word (with `▁` for its leading space).
    pub text: String,
    /// The candidate pieces, ordered by start, then end.
    pub nodes: Vec<LatticeNode>,
    /// Each node's piece as the vocabulary spells it (`<unk>` for unknown characters).
    pub pieces: Vec<String>,
    /// The forward pass, one step per character boundary after the first.
    pub steps: Vec<ForwardStep>,
    /// The best path, node indices left to right.
    pub best_path: Vec<usize>,
    /// Its total score.
    pub total: f32,
}

impl ViterbiLesson {
    /// The lesson of `word` (original text, normalized here); `None` for a BPE model or an
    /// empty word.
    pub fn new(model: &SpmModel, word: &str) -> Option<ViterbiLesson> {
        let (normalized, lattice) = model.lattice(word)?;
        if lattice.is_empty() {
            return None;
        }
        let text = normalized.normalized().to_string();
        let mut best_at: Vec<Option<f32>> = vec![None; lattice.len() + 1];
        best_at[0] = Some(0.0);
        let mut steps = Vec::new();
        for end in 1..=lattice.len() {
            let candidates: Vec<(usize, f32)> = lattice
                .ending_at(end)
                .iter()
                .filter_map(|&k| {
                    let node = &lattice.nodes[k];
                    best_at[node.start].map(|before| (k, before + node.score))
                })
                .collect();
            let Some(&(first, first_total)) = candidates.first() else {
                continue;
            };
            let (winner, total) =
                candidates
                    .iter()
                    .skip(1)
                    .fold(
                        (first, first_total),
                        |(w, t), &(k, s)| {
                            if s > t { (k, s) } else { (w, t) }
                        },
                    );
            best_at[end] = Some(total);
            steps.push(ForwardStep {
                end,
                candidates,
                winner,
            });
        }
        let (best_path, total) = backtrace(&lattice, &steps)?;
        let pieces = lattice
            .nodes
            .iter()
            .map(|n| model.pieces.text(n.id as usize).to_string())
            .collect();
        Some(ViterbiLesson {
            text,
            nodes: lattice.nodes,
            pieces,
            steps,
            best_path,
            total,
        })
    }

    /// The best total at every position filled after `steps` steps (position 0 is 0).
    pub fn best_totals(&self, steps: usize) -> Vec<(usize, f32)> {
        let mut out = vec![(0, 0.0)];
        for step in self.steps.iter().take(steps) {
            let total = step
                .candidates
                .iter()
                .find(|(k, _)| *k == step.winner)
                .map_or(f32::NEG_INFINITY, |c| c.1);
            out.push((step.end, total));
        }
        out
    }
}

/// The best path from the winners, read back from the end of the word.
fn backtrace(lattice: &Lattice, steps: &[ForwardStep]) -> Option<(Vec<usize>, f32)> {
    let last = steps.last()?;
    let total = last.candidates.iter().find(|(k, _)| *k == last.winner)?.1;
    let mut path = Vec::new();
    let mut at = lattice.len();
    while at > 0 {
        let step = steps.iter().find(|s| s.end == at)?;
        path.push(step.winner);
        at = lattice.nodes[step.winner].start;
    }
    path.reverse();
    Some((path, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::subword::spm::proto;

    /// A model with pieces ▁ a b ab ▁ab and the given scores.
    fn model() -> SpmModel {
        let piece = |p: &str, score: f32, kind| proto::ProtoPiece {
            piece: p.into(),
            score,
            kind,
        };
        let pieces = vec![
            piece("<unk>", 0.0, proto::PieceType::Unknown),
            piece("▁", -2.0, proto::PieceType::Normal),
            piece("a", -1.0, proto::PieceType::Normal),
            piece("b", -1.0, proto::PieceType::Normal),
            piece("ab", -1.5, proto::PieceType::Normal),
            piece("▁ab", -4.0, proto::PieceType::Normal),
        ];
        let m = proto::ModelProto {
            pieces,
            model_type: proto::ModelType::Unigram,
            byte_fallback: false,
            treat_whitespace_as_suffix: false,
            normalizer: proto::NormalizerSpec::default(),
        };
        SpmModel::from_proto("t.model".as_ref(), m).unwrap()
    }

    #[test]
    fn the_lesson_ends_on_the_encoders_path() {
        let model = model();
        let lesson = ViterbiLesson::new(&model, "ab").unwrap();
        assert_eq!(lesson.text, "▁ab");
        // ▁ + ab = -3.5 beats ▁ab = -4 and ▁ + a + b = -4.
        let path: Vec<&str> = lesson
            .best_path
            .iter()
            .map(|&k| lesson.pieces[k].as_str())
            .collect();
        assert_eq!(path, ["▁", "ab"]);
        assert_eq!(lesson.total, -3.5);
        let ids: Vec<u32> = lesson
            .best_path
            .iter()
            .map(|&k| lesson.nodes[k].id)
            .collect();
        assert_eq!(ids, model.encode("ab"));
        // Positions 3 (after ▁), 4 (a), 5 (b): one step each.
        assert_eq!(lesson.steps.len(), 3);
        assert_eq!(
            lesson.steps[2].candidates.len(),
            3,
            "b, ab and ▁ab end there"
        );
        assert_eq!(lesson.best_totals(3).last(), Some(&(5, -3.5)));
    }
}
