//! Unigram n-best and sampling against sentencepiece 0.2.3 (tests/unigram_data/gen_expected.py):
//! the 10 best segmentations with their scores, and the distribution of 10,000 sampled
//! segmentations of a few words compared with sentencepiece's by a chi-square test.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toklab::engines::subword::spm::SpmModel;
use toklab::engines::subword::spm::regularize::Sampling;
use toklab::engines::subword::unigram::lattice::SplitMix64;

use crate::common;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/unigram_data")
        .join(name)
}

/// The model file a case names, or `None` (skipped visibly; failing under CI=true) when absent.
fn model_path(name: &str) -> Option<PathBuf> {
    let path = match name {
        "botchan_en_unigram_1000.model" => common::shared_dir("unigram_nbest")?
            .join("conformance/bpe/data/sentencepiece")
            .join(name),
        _ => common::models_dir().join(name),
    };
    if path.exists() {
        return Some(path);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "unigram_nbest: {} is missing; CI requires it (../shared/realworld/fetch.sh)",
            path.display()
        );
    }
    common::skip_note(&format!(
        "unigram_nbest: skipped {name}: {} missing (run ../shared/realworld/fetch.sh)",
        path.display()
    ));
    None
}

fn cases(file: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(data(file))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn forms(model: &SpmModel, ids: impl Iterator<Item = u32>) -> String {
    ids.map(|id| model.pieces.text(id as usize))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The n best segmentations equal sentencepiece's, with their scores; paths whose scores tie
/// (to float precision) may come in either order, as sentencepiece's heap leaves it open.
#[test]
fn nbest_equals_sentencepiece() {
    let mut checked = 0;
    for case in cases("expected-nbest.jsonl") {
        let Some(path) = model_path(case["model"].as_str().unwrap()) else {
            continue;
        };
        let model = SpmModel::load(&path).unwrap();
        let text = case["text"].as_str().unwrap();
        let n = case["n"].as_u64().unwrap() as usize;
        let (_, got) = model.nbest(text, n).expect("a unigram model");
        let want = case["nbest"].as_array().unwrap();
        assert_eq!(got.len(), want.len(), "{text:?}: how many paths");
        let key = |score: f64| (score * 1000.0).round() as i64;
        let mut got_by_score: Vec<(i64, String)> = got
            .iter()
            .map(|s| {
                (
                    key(f64::from(s.score)),
                    forms(&model, s.tokens.iter().map(|t| t.id)),
                )
            })
            .collect();
        let mut want_by_score: Vec<(i64, String)> = want
            .iter()
            .map(|w| {
                let ids = w["ids"].as_array().unwrap();
                (
                    key(w["score"].as_f64().unwrap()),
                    forms(&model, ids.iter().map(|i| i.as_u64().unwrap() as u32)),
                )
            })
            .collect();
        // Best first in both, exactly where no scores tie.
        let order = |v: &[(i64, String)]| v.iter().map(|(s, _)| *s).collect::<Vec<_>>();
        assert_eq!(
            order(&got_by_score),
            order(&want_by_score),
            "{text:?}: scores"
        );
        got_by_score.sort();
        want_by_score.sort();
        assert_eq!(got_by_score, want_by_score, "{text:?}: segmentations");
        checked += 1;
    }
    eprintln!("unigram_nbest: {checked} texts agree with sentencepiece's 10-best");
}

/// The chi-square statistic of two samples of equal size (homogeneity), categories too rare
/// to test (fewer than 10 draws in both together) pooled, and its degrees of freedom.
fn chi_square(a: &BTreeMap<String, u64>, b: &BTreeMap<String, u64>) -> (f64, usize) {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut cells = Vec::new();
    let (mut rare_a, mut rare_b) = (0, 0);
    for k in keys {
        let (x, y) = (
            a.get(k).copied().unwrap_or(0),
            b.get(k).copied().unwrap_or(0),
        );
        if x + y < 10 {
            rare_a += x;
            rare_b += y;
        } else {
            cells.push((x, y));
        }
    }
    if rare_a + rare_b > 0 {
        cells.push((rare_a, rare_b));
    }
    let stat = cells
        .iter()
        .map(|&(x, y)| (x as f64 - y as f64).powi(2) / (x + y) as f64)
        .sum();
    (stat, cells.len().saturating_sub(1))
}

/// The chi-square value exceeded with probability 0.001 at `df` degrees of freedom
/// (Wilson–Hilferty).
fn critical(df: usize) -> f64 {
    let df = df.max(1) as f64;
    let z = 3.090;
    let t = 2.0 / (9.0 * df);
    df * (1.0 - t + z * t.sqrt()).powi(3)
}

fn draw(model: &SpmModel, text: &str, sampling: Sampling, count: u64) -> BTreeMap<String, u64> {
    let mut rng = SplitMix64::new(2026);
    let mut counts = BTreeMap::new();
    for _ in 0..count {
        let (_, s) = model.sample(text, sampling, &mut rng).unwrap();
        *counts
            .entry(forms(model, s.tokens.iter().map(|t| t.id)))
            .or_insert(0) += 1;
    }
    counts
}

/// 10,000 samples of each word are distributed as sentencepiece's 10,000 (p > 0.001), and the
/// test can tell: the same words sampled with twice the alpha are rejected.
#[test]
fn sampling_matches_sentencepiece_by_chi_square() {
    let mut checked = 0;
    for case in cases("expected-samples.jsonl") {
        let Some(path) = model_path(case["model"].as_str().unwrap()) else {
            continue;
        };
        let model = SpmModel::load(&path).unwrap();
        let text = case["text"].as_str().unwrap();
        let count = case["samples"].as_u64().unwrap();
        let want: BTreeMap<String, u64> = serde_json::from_value(case["counts"].clone()).unwrap();
        let sampling = Sampling {
            alpha: case["alpha"].as_f64().unwrap(),
            nbest: case["nbest"].as_i64().unwrap(),
        };
        let got = draw(&model, text, sampling, count);
        let (stat, df) = chi_square(&got, &want);
        eprintln!(
            "unigram sampling {text:?} nbest={} alpha={}: chi2 {stat:.2}, df {df}, critical {:.2}",
            sampling.nbest,
            sampling.alpha,
            critical(df)
        );
        assert!(
            stat < critical(df),
            "{text:?}: chi2 {stat:.2} ≥ {:.2} (df {df}); toklab {got:?}, sentencepiece {want:?}",
            critical(df)
        );
        let sharper = Sampling {
            alpha: sampling.alpha * 2.0,
            ..sampling
        };
        let (stat, df) = chi_square(&draw(&model, text, sharper, count), &want);
        assert!(
            stat > critical(df),
            "{text:?}: twice the alpha passes too (chi2 {stat:.2}): the test has no power"
        );
        checked += 1;
    }
    eprintln!("unigram_nbest: {checked} sampled words agree with sentencepiece");
}

/// `?nbest=` lists the paths in `explain`; `?alpha=` makes `tokenize` sample, reproducibly
/// from `?seed=`.
#[test]
fn spec_options_reach_explain_and_tokenize() {
    let Some(path) = model_path("botchan_en_unigram_1000.model") else {
        return;
    };
    let spec = format!("spm:{}?nbest=3", path.display());
    let trace = toklab::load(&spec).unwrap().explain("hello").to_text();
    assert!(trace.contains("the 3 best segmentations"), "{trace}");
    assert!(trace.contains("▁he l l o"), "{trace}");
    let spec = format!("spm:{}?alpha=0.1&nbest=-1&seed=7", path.display());
    let forms = |spec: &str| {
        let t = toklab::load(spec).unwrap();
        (0..20)
            .map(|_| {
                let text = "the teacher walked home";
                t.tokenize(text)
                    .tokens
                    .iter()
                    .map(|tok| tok.form(text).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
    };
    let first = forms(&spec);
    assert_eq!(first, forms(&spec), "the same seed gives the same samples");
    assert!(
        first.iter().any(|f| f != &first[0]),
        "alpha=0.1 samples vary: {first:?}"
    );
    let err = toklab::load(&format!("spm:{}?nbest=0", path.display()))
        .err()
        .expect("nbest=0 without alpha is rejected");
    assert!(err.to_string().contains("nbest"), "{err}");
}
