//! The integration tests, as one test executable: every file in tests/ is a module of this
//! crate, so cargo links one executable rather than one per file (each of those 100–120 MB,
//! linked on its own).
//!
//! Adding a test file `tests/NAME.rs` is one line here, `mod NAME;`; the file reaches the
//! shared helpers as `crate::common`. Cargo does not find test files by itself
//! (`autotests = false` in Cargo.toml), so [`every_test_file_is_a_module`] fails when a file is
//! left out rather than letting it go unrun.

mod common;

mod align_band;
mod align_cli;
mod align_conformance;
mod align_editops;
mod align_fast;
mod align_pairs_cli;
mod align_props;
mod architecture;
mod atomic_writes;
mod bounded_resources;
mod bpe_cli;
mod bpe_conformance;
mod bpe_incremental;
mod bpe_loaders;
mod bpe_roundtrip;
mod bpe_semantics;
mod bpe_train;
mod bpe_train_linear;
mod bpe_train_short;
mod byte_spans;
mod chat_templates;
mod cli_threads;
mod cli_tokenize;
mod compare_bytes;
mod compare_cli;
mod compare_fertility;
mod compare_props;
mod cut_points;
mod decode_roundtrip;
mod depth_limit;
mod detok_utoken;
mod detokenize_cli;
mod detokenize_kinds;
mod detokenize_subword;
mod explain_snapshots;
mod fst_apply;
mod fst_conformance;
mod fst_matok_direct;
mod fst_robustness;
mod fst_samples;
mod fst_saved_form;
mod fuzz_regressions;
mod gguf_conformance;
mod gguf_files;
mod hf_hub;
mod hf_pipeline;
mod hub_download;
mod hub_download_writes;
mod ids_path;
mod lex_segmenter;
mod linearity;
mod linearity_growth;
mod maxmatch_cli;
mod maxmatch_props;
mod memory;
mod merges_check;
mod merges_incremental;
mod merges_semantics;
mod model_cache;
mod no_aborts;
mod ptb_conformance;
mod realworld;
mod registry;
mod reliability;
mod render;
mod rules_cli;
mod rules_conformance;
mod rules_context;
mod rules_robust;
mod sent_golden;
mod sizes;
mod span_invariants;
mod spark;
mod spm_encode_ids;
mod spm_unigram;
mod terminal_safe;
mod tui_chat;
mod tui_e2e;
mod tui_e2e_author;
mod tui_e2e_chat;
mod tui_e2e_compare;
mod tui_e2e_render;
mod tui_e2e_teach;
mod tui_e2e_widths;
mod unigram_nbest;
mod unigram_train;
mod xfst_compile;

/// Every `tests/*.rs` file is declared above: a file without its `mod` line would compile
/// nowhere and its tests would silently not run.
#[test]
fn every_test_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if module != "main" && !main.contains(&format!("\nmod {module};\n")) {
            missing.push(name.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "files in tests/ that tests/main.rs does not declare (add `mod NAME;`): {missing:?}"
    );
}
