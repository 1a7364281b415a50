//! Datok's `.matok` is filled straight into toklab's matrix, without the checked network the
//! other readers build. These tests hold that short cut to the checked path (`Model::open`,
//! which `fst info` uses, then the matrix built from the network):
//! - Datok's models (web-en, tiny and the German model of ../shared/conformance/fst/datok) and
//!   random networks written as `.matok`: the same tokens, the same representation, the same
//!   warnings, and the network recovered from the matrix has the checked network's edges;
//! - damaged `.matok` files: the short cut refuses exactly what the checked path refuses, with
//!   the same message, and whatever loads runs — never a panic or a hang.

use crate::common::{self, fst};

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use toklab::Tokenizer;
use toklab::engines::fst::{FstTokenizer, Model, Repr};

/// The `.matok` at `path` loads through the short cut exactly as through the checked network:
/// the same outcome (or error message), and when it loads, the same tokens on `texts`.
fn agrees(path: &Path, texts: &[&str]) -> Result<(), TestCaseError> {
    let direct = toklab::load(&format!("fst:{}", path.display()));
    let checked = Model::open(path);
    let (direct, model) = match (direct, checked) {
        (Ok(direct), Ok(model)) => (direct, model),
        (Err(a), Err(b)) => {
            prop_assert_eq!(a.to_string(), b.to_string());
            return Ok(());
        }
        (a, b) => {
            let (a, b) = (
                a.err().map(|e| e.to_string()),
                b.err().map(|e| e.to_string()),
            );
            return Err(TestCaseError::fail(format!(
                "short cut {a:?}, checked path {b:?}"
            )));
        }
    };
    let repr = Repr::for_network(&model.network);
    let warnings = model.network.warnings.clone();
    let expected_edges = fst::edges(&model.network);
    let checked = FstTokenizer::from_model(model, repr, "checked".into()).unwrap();
    prop_assert_eq!(direct.warnings(), warnings);
    for text in texts {
        prop_assert_eq!(direct.tokenize(text), checked.tokenize(text), "{:?}", text);
    }
    let fast = FstTokenizer::open(path, Repr::Matrix).unwrap();
    prop_assert_eq!(fast.repr(), Repr::Matrix);
    prop_assert_eq!(fst::edges(fast.network()), expected_edges);
    Ok(())
}

#[test]
fn datok_models_load_through_the_short_cut_as_through_the_network() {
    let Some(shared) = common::shared_dir("fst_matok_direct") else {
        return;
    };
    let dir = shared.join("conformance/fst");
    let sentences = std::fs::read_to_string(dir.join("sentences.txt")).unwrap();
    let mut texts: Vec<&str> = sentences.lines().take(40).collect();
    texts.extend([
        "Der Hund läuft um 9:45 Uhr über die Straße, z.B. nach Köln.",
        "",
        "\u{4} ünïcödé 😀",
    ]);
    for name in ["web-en.matok", "tiny.matok", "datok/tokenizer_de.matok"] {
        agrees(&dir.join(name), &texts).unwrap();
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

proptest! {
    #![proptest_config(common::proptest_config(128))]

    #[test]
    fn random_networks_load_through_the_short_cut_as_through_the_network(
        states in 1u32..7,
        arcs in prop::collection::vec((0u32..7, 0u32..6, 0u8..3, 0u32..7), 0..30),
        boundaries in prop::collection::vec((0u32..7, 0u32..7), 1..6),
        text in "[abc x\u{4}]{0,24}",
    ) {
        if let Some(network) = fst::random_network(states, arcs, boundaries, &[2, 3, 4, 5, 6, 7]) {
            let dir = tempfile::tempdir().unwrap();
            let path = write(dir.path(), "random.matok", &toklab::engines::fst::write_matok(&network));
            agrees(&path, &[&text, "a b", ""])?;
        }
    }

    #[test]
    fn damaged_matok_files_are_refused_as_the_checked_path_refuses_them(
        flips in prop::collection::vec((0.0f64..1.0, any::<u8>()), 1..6),
        text in "[a-z .,'\u{4}]{0,30}",
    ) {
        let english = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/fst/english.fst");
        let network = Model::open(&english).unwrap().network;
        let mut bytes = toklab::engines::fst::write_matok(&network);
        for (at, byte) in flips {
            let i = 5 + ((bytes.len() - 6) as f64 * at) as usize;
            bytes[i] = byte;
        }
        let dir = tempfile::tempdir().unwrap();
        agrees(&write(dir.path(), "damaged.matok", &bytes), &[&text])?;
    }
}
