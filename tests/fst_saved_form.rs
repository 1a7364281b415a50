//! toklab's saved form loads into a matrix as stored, without a network in between (the
//! network is recovered only when a view asks). These tests hold that short cut to the
//! checked path:
//! - random networks and the samples: the matrix loaded from the saved form tokenizes as the
//!   network itself does, and the recovered network has the checked network's edges (on the
//!   states reachable from the start, which are all the saved form keeps);
//! - version-1 files (the double array only, filled into a matrix on loading) still load;
//! - damaged saved forms whose CRC is made to match again (the short cut trusts the CRC):
//!   an error naming the file or a tokenizer that runs, never a panic or a hang.

use std::path::{Path, PathBuf};

use crate::common::fst;
use proptest::prelude::*;
use toklab::Tokenizer;
use toklab::core::trace::Quiet;
use toklab::engines::fst::{DoubleArray, FstTokenizer, Model, Network, Repr};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/fst")
        .join(name)
}

/// Writes `network`'s saved form to a file in `dir` and returns its path.
fn save(dir: &Path, network: &Network) -> PathBuf {
    let path = dir.join("saved.tlfst");
    let bytes = toklab::engines::fst::write_compact(network, &DoubleArray::build(network));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The saved form at `path` through the short cut (`fst:` spec, default representation, and
/// `?repr=matrix`) tokenizes as `network` (the checked network it was written from) does, and
/// the network recovered from it has `network`'s edges on every state reachable from the
/// start (the saved form keeps only those).
fn agrees(path: &Path, network: &Network, texts: &[&str]) -> Result<(), TestCaseError> {
    let fast = FstTokenizer::open(path, Repr::Matrix).unwrap();
    let by_spec = toklab::load(&format!("fst:{}", path.display())).unwrap();
    for text in texts {
        let expected = toklab::engines::fst::run(network, &network.alphabet, text, &mut Quiet);
        prop_assert_eq!(&fast.tokenize(text), &expected, "{:?}", text);
        prop_assert_eq!(&by_spec.tokenize(text), &expected, "{:?}", text);
    }
    let recovered = fast.network();
    prop_assert_eq!(recovered.start, network.start);
    prop_assert_eq!(recovered.alphabet.chars(), network.alphabet.chars());
    let reachable = network.reachable();
    let expected: Vec<_> = (1..=network.state_count())
        .map(|s| match reachable.contains(&s) {
            true => network.edges(s).to_vec(),
            false => Vec::new(),
        })
        .collect();
    prop_assert_eq!(fst::edges(recovered), expected);
    // The checked path (the library's Model, `fst info`) recovers the same network.
    prop_assert_eq!(
        fst::edges(&Model::open(path).unwrap().network),
        fst::edges(recovered)
    );
    Ok(())
}

#[test]
fn samples_load_through_the_short_cut_as_through_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let texts = [
        "Dr. Smith didn't pay $3.14 for 1,000 e-mails to a@b.org, etc. Right?",
        "abbbd abc a b c",
        "",
        "  \u{4} x",
    ];
    for name in ["toy.fst", "simple.fst", "english.fst"] {
        let network = Model::open(&sample(name)).unwrap().network;
        agrees(&save(dir.path(), &network), &network, &texts).unwrap();
    }
}

#[test]
fn double_array_spec_reads_the_stored_array() {
    let dir = tempfile::tempdir().unwrap();
    let network = Model::open(&sample("english.fst")).unwrap().network;
    let path = save(dir.path(), &network);
    let da = FstTokenizer::open(&path, Repr::DoubleArray).unwrap();
    let matrix = FstTokenizer::open(&path, Repr::Matrix).unwrap();
    assert_eq!(da.repr(), Repr::DoubleArray);
    assert_eq!(matrix.repr(), Repr::Matrix);
    let text = "We're 350 dogs! Um, lunch at 9:45 a.m.?";
    assert_eq!(da.tokenize(text), matrix.tokenize(text));
    assert_eq!(fst::edges(da.network()), fst::edges(matrix.network()));
}

/// Files written before the saved form stored the matrix (version 1: the double array, no
/// matrix section) still load, their matrix filled from the stored double array. The file is
/// written here as version 1 laid it out.
#[test]
fn version_1_files_load_through_the_double_array() {
    let dir = tempfile::tempdir().unwrap();
    let network = Model::open(&sample("english.fst")).unwrap().network;
    let array = DoubleArray::build(&network);
    let mut body = b"TOKLABFST\n".to_vec();
    body.extend_from_slice(&1u16.to_le_bytes());
    let mut u32s = |v: u32| body.extend_from_slice(&v.to_le_bytes());
    u32s(network.start);
    u32s(network.state_count());
    u32s(network.alphabet.chars().len() as u32);
    network
        .alphabet
        .chars()
        .iter()
        .for_each(|&c| u32s(c as u32));
    u32s(0);
    u32s(array.cells().len() as u32);
    array.cells().iter().for_each(|c| {
        u32s(c.base);
        u32s(c.check);
    });
    let reps: Vec<(usize, u32)> = array
        .state_of_cell()
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, s)| *s != 0)
        .collect();
    u32s(reps.len() as u32);
    reps.iter().for_each(|&(cell, state)| {
        u32s(cell as u32);
        u32s(state);
    });
    let path = dir.path().join("v1.tlfst");
    std::fs::write(&path, with_crc(body)).unwrap();
    let texts = ["Dr. Smith didn't pay $3.14, etc. Right?", "a.m. U.S. 1,000"];
    agrees(&path, &network, &texts).unwrap();
    let da = FstTokenizer::open(&path, Repr::DoubleArray).unwrap();
    let matrix = FstTokenizer::open(&path, Repr::Matrix).unwrap();
    assert_eq!(da.tokenize(texts[0]), matrix.tokenize(texts[0]));
}

/// The saved form's bytes with the CRC-32 recomputed over `body`.
fn with_crc(mut body: Vec<u8>) -> Vec<u8> {
    let mut crc = flate2::Crc::new();
    crc.update(&body);
    body.extend_from_slice(&crc.sum().to_le_bytes());
    body
}

proptest! {
    #![proptest_config(crate::common::proptest_config(128))]

    #[test]
    fn random_networks_load_through_the_short_cut_as_through_the_network(
        states in 1u32..7,
        arcs in prop::collection::vec((0u32..7, 0u32..6, 0u8..3, 0u32..7), 0..30),
        boundaries in prop::collection::vec((0u32..7, 0u32..7), 1..6),
        text in "[abc x\u{4}]{0,24}",
    ) {
        // Networks with boundary cycles are refused when checked, so they are never saved.
        if let Some(network) = fst::random_network(states, arcs, boundaries, &[2, 3, 4, 5, 6, 2]) {
            let dir = tempfile::tempdir().unwrap();
            agrees(&save(dir.path(), &network), &network, &[&text])?;
        }
    }

    #[test]
    fn damaged_saved_forms_with_a_matching_crc_are_errors_or_run(
        flips in prop::collection::vec((0.0f64..1.0, any::<u8>()), 1..6),
        text in "[a-z .,'\u{4}]{0,30}",
    ) {
        let dir = tempfile::tempdir().unwrap();
        let network = Model::open(&sample("english.fst")).unwrap().network;
        let saved = std::fs::read(save(dir.path(), &network)).unwrap();
        let mut body = saved[..saved.len() - 4].to_vec();
        // Past the magic and version, so the damage reaches the counts and the cells.
        for (at, byte) in flips {
            let i = 12 + ((body.len() - 13) as f64 * at) as usize;
            body[i] = byte;
        }
        let path = dir.path().join("damaged.tlfst");
        std::fs::write(&path, with_crc(body)).unwrap();
        match FstTokenizer::open(&path, Repr::Matrix) {
            Ok(tokenizer) => {
                let _ = tokenizer.tokenize(&text);
                let _ = tokenizer.network().edge_count();
            }
            Err(e) => prop_assert!(e.to_string().contains("damaged.tlfst"), "{}", e),
        }
    }
}
