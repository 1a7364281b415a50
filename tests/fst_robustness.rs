//! The finite-state engine never panics on what users give it, and its two representations
//! agree with each other and with the network itself:
//! - every loader gets truncated and random bytes (an error naming the file, never a panic);
//! - random text through the shipped samples: valid spans, matrix = double array = network;
//! - random small networks: the same three-way agreement;
//! - each of Datok's crashes, and what toklab does instead.

use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;
use toklab::Span;
use toklab::core::trace::Quiet;
use toklab::engines::fst::FstStep;
use toklab::engines::fst::Recorder;
use toklab::engines::fst::{DoubleArray, FstTokenizer, Matrix, Model, Network, Repr};
use toklab::engines::fst::{RawArc, RawNetwork, RawSymbol};
use toklab::{Origin, TokenKind, Tokenization, Tokenizer};

use crate::common;

fn sample(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/fst")
        .join(name)
}

/// Every sample as (name, matrix, double array, network), loaded once.
static SAMPLES: LazyLock<Vec<(String, Matrix, DoubleArray, Network)>> = LazyLock::new(|| {
    ["toy.fst", "simple.fst", "english.fst"]
        .iter()
        .map(|name| {
            let model = Model::open(&sample(name)).unwrap();
            let network = model.network;
            (
                name.to_string(),
                Matrix::build(&network).unwrap(),
                DoubleArray::build(&network),
                network,
            )
        })
        .collect()
});

fn all_agree(
    network: &Network,
    matrix: &Matrix,
    array: &DoubleArray,
    text: &str,
) -> Result<Tokenization, TestCaseError> {
    let by_network = toklab::engines::fst::run(network, &network.alphabet, text, &mut Quiet);
    let by_matrix = toklab::engines::fst::run(matrix, &network.alphabet, text, &mut Quiet);
    let by_array = toklab::engines::fst::run(array, &network.alphabet, text, &mut Quiet);
    prop_assert_eq!(&by_matrix, &by_network, "matrix vs network on {:?}", text);
    prop_assert_eq!(
        &by_array,
        &by_network,
        "double array vs network on {:?}",
        text
    );
    if let Err(problem) = by_network.check(text) {
        return Err(TestCaseError::fail(format!("{problem} on {text:?}")));
    }
    // Not only the same result: the same steps, with the same state numbers.
    let steps = |run: &dyn Fn(&mut Recorder) -> Tokenization| {
        let mut recorder = Recorder::default();
        run(&mut recorder);
        recorder.steps
    };
    let net_steps = steps(&|r| toklab::engines::fst::run(network, &network.alphabet, text, r));
    prop_assert_eq!(
        &steps(&|r| toklab::engines::fst::run(matrix, &network.alphabet, text, r)),
        &net_steps
    );
    prop_assert_eq!(
        &steps(&|r| toklab::engines::fst::run(array, &network.alphabet, text, r)),
        &net_steps
    );
    // Nothing is lost: every character is in a token, or a deletion edge dropped it, or it
    // is the U+0004 that ended a text.
    let mut covered = vec![false; text.len()];
    let mut cover = |span: Span| {
        covered[span.start..span.end]
            .iter_mut()
            .for_each(|c| *c = true)
    };
    by_network.tokens.iter().for_each(|t| cover(t.span));
    for step in &net_steps {
        match *step {
            FstStep::Read {
                span,
                dropped: true,
                ..
            } => cover(span),
            FstStep::TextEnd { at, .. } => cover(Span::new(at, at + 1)),
            _ => {}
        }
    }
    for (i, c) in text.char_indices() {
        prop_assert!(covered[i], "{:?} at {} lost in {:?}", c, i, text);
    }
    Ok(by_network)
}

/// Serialized forms of the samples, to cut and scramble.
static FILES: LazyLock<Vec<(String, Vec<u8>)>> = LazyLock::new(|| {
    let mut files = Vec::new();
    for name in ["toy.fst", "simple.fst", "english.fst"] {
        let gz = std::fs::read(sample(name)).unwrap();
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut plain).unwrap();
        let model = Model::from_bytes(Path::new(name), &gz).unwrap();
        let saved = toklab::engines::fst::write_compact(
            &model.network,
            &DoubleArray::build(&model.network),
        );
        files.push((format!("{name}.gz"), gz));
        files.push((name.to_string(), plain));
        files.push((format!("{name}.tlfst"), saved));
    }
    let att = "0\t1\ta\ta\n0\t0\t@_SPACE_@\t@0@\n1\t0\t@0@\t@_TOKEN_BOUND_@\n1\n";
    files.push(("toy.att".into(), att.as_bytes().to_vec()));
    files
});

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn truncated_files_are_errors_not_panics(which in 0usize..10, cut in 0.0f64..1.0) {
        let (name, data) = &FILES[which % FILES.len()];
        let end = (data.len() as f64 * cut) as usize;
        let path = Path::new(name);
        if let Err(e) = Model::from_bytes(path, &data[..end]) {
            prop_assert!(e.to_string().contains(name.as_str()), "{}", e);
        }
    }

    #[test]
    fn scrambled_files_are_errors_not_panics(which in 0usize..10, flips in prop::collection::vec((0.0f64..1.0, any::<u8>()), 1..8)) {
        let (name, data) = &FILES[which % FILES.len()];
        let mut data = data.clone();
        for (at, byte) in flips {
            let i = ((data.len() - 1) as f64 * at) as usize;
            data[i] = byte;
        }
        if let Ok(model) = Model::from_bytes(Path::new(name), &data) {
            // Whatever loaded must run without panicking, in both representations.
            let text = "a b. c";
            let matrix = Matrix::build(&model.network).unwrap();
            let array = model.stored_array.clone().unwrap_or_else(|| DoubleArray::build(&model.network));
            let _ = toklab::engines::fst::run(&matrix, &model.network.alphabet, text, &mut Quiet);
            let _ = toklab::engines::fst::run(&array, &model.network.alphabet, text, &mut Quiet);
        }
    }

    #[test]
    fn random_bytes_are_errors_not_panics(prefix in prop::sample::select(vec![&b""[..], b"##foma-net 1.0##\n", b"MATOK", b"DATOK", b"TOKLABFST\n", b"\x1f\x8b", b"0\t"]), rest in prop::collection::vec(any::<u8>(), 0..300)) {
        let mut data = prefix.to_vec();
        data.extend(rest);
        let _ = Model::from_bytes(Path::new("random.bin"), &data);
    }

    #[test]
    fn representations_agree_on_any_text(text in any::<String>()) {
        for (_, matrix, array, network) in SAMPLES.iter() {
            all_agree(network, matrix, array, &text)?;
        }
    }

    #[test]
    fn representations_agree_on_texty_input(text in "[a-dA-Z0-9 .,:;!?'’()@/\\-\n\t\u{4}éß😀]{0,60}") {
        for (_, matrix, array, network) in SAMPLES.iter() {
            all_agree(network, matrix, array, &text)?;
        }
    }

    #[test]
    fn representations_agree_on_random_networks(
        states in 1u32..7,
        arcs in prop::collection::vec((0u32..7, 0u32..6, 0u8..3, 0u32..7), 0..30),
        boundaries in prop::collection::vec((0u32..7, 0u32..7), 1..6),
        text in "[abc x\u{4}]{0,24}",
    ) {
        // Symbols: 0 ε, 1 TB, 2 a, 3 b, 4 space, 5 ?, 6 \u{4}.
        let symbols = vec![
            Some(RawSymbol::Epsilon), Some(RawSymbol::Boundary), Some(RawSymbol::Char('a')),
            Some(RawSymbol::Char('b')), Some(RawSymbol::Char(' ')), Some(RawSymbol::Identity),
            Some(RawSymbol::Char('\u{4}')),
        ];
        let mut raw_arcs = Vec::new();
        let mut taken = std::collections::HashSet::new();
        for (from, input, kind, to) in arcs {
            let (from, to, input) = (from % states, to % states, [2, 3, 4, 5, 6, 2][input as usize]);
            if !taken.insert((from, input)) { continue; }
            let output = if kind == 0 { 0 } else { input };
            raw_arcs.push(RawArc { from, input, output, to, line: 0 });
        }
        for (from, to) in boundaries {
            if taken.insert((from % states, 0)) {
                raw_arcs.push(RawArc { from: from % states, input: 0, output: 1, to: to % states, line: 0 });
            }
        }
        let raw = RawNetwork {
            path: "random".into(), format: "test", name: None, symbols,
            state_count: states, start: 0, file_counts_from_one: false, arcs: raw_arcs, warnings: vec![], finals: None,
        };
        // Boundary cycles are refused; anything else loads and must agree.
        if let Ok(network) = Network::from_raw(raw) {
            let matrix = Matrix::build(&network).unwrap();
            let array = DoubleArray::build(&network);
            all_agree(&network, &matrix, &array, &text)?;
            let saved = toklab::engines::fst::write_compact(&network, &array);
            let reread = Model::from_bytes(Path::new("saved"), &saved).unwrap();
            let again = toklab::engines::fst::run(reread.stored_array.as_ref().unwrap(), &network.alphabet, &text, &mut Quiet);
            prop_assert_eq!(again, toklab::engines::fst::run(&network, &network.alphabet, &text, &mut Quiet));
        }
    }
}

#[test]
fn double_array_construction_is_deterministic() {
    let network = Model::open(&sample("english.fst")).unwrap().network;
    let first = DoubleArray::build(&network);
    let second = DoubleArray::build(&Model::open(&sample("english.fst")).unwrap().network);
    assert_eq!(first, second);
    assert_eq!(
        toklab::engines::fst::write_compact(&network, &first),
        toklab::engines::fst::write_compact(&network, &second)
    );
}

// ---------------------------------------------------------------- Datok's crashes

fn forms(tokenizer: &FstTokenizer, text: &str) -> Vec<String> {
    tokenizer
        .tokenize(text)
        .tokens
        .iter()
        .map(|t| t.form(text).to_string())
        .collect()
}

#[test]
fn tokens_longer_than_datoks_buffer() {
    // Datok's buffer holds 1,024 runes; a longer token overflows it (panic).
    let english = FstTokenizer::open(&sample("english.fst"), Repr::Matrix).unwrap();
    let word = "é".repeat(3000);
    let url = format!("https://example.org/{}", "x".repeat(5000));
    let text = format!("{word} {url}.");
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let tokenizer = FstTokenizer::open(&sample("english.fst"), repr).unwrap();
        assert_eq!(
            forms(&tokenizer, &text),
            [word.clone(), url.clone(), ".".into()]
        );
    }
    assert_eq!(english.tokenize(&text).tokens[1].kind, TokenKind::Url);
}

#[test]
fn characters_outside_an_alphabet_without_identity() {
    // The toy network has no identity symbol: Datok indexes out of range and panics. Here such
    // a character fails like any character without an edge: a token of its own, kind Unknown.
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let toy = FstTokenizer::open(&sample("toy.fst"), repr).unwrap();
        let text = "abé😀c d";
        let result = toy.tokenize(text);
        let got: Vec<(&str, TokenKind)> = result
            .tokens
            .iter()
            .map(|t| (t.form(text), t.kind))
            .collect();
        assert_eq!(
            got,
            [
                ("a", TokenKind::Word),
                ("b", TokenKind::Word),
                ("é", TokenKind::Unknown),
                ("😀", TokenKind::Unknown),
                ("c", TokenKind::Word),
                ("d", TokenKind::Unknown),
            ]
        );
        assert!(matches!(
            result.tokens[2].origin,
            Origin::Automaton { forced: true, .. }
        ));
    }
}

#[test]
fn whitespace_only_text_with_offsets() {
    // Datok's offset writer panics on a text without tokens; we print two empty lines.
    for repr in ["matrix", "da"] {
        let spec = format!("fst:{}?repr={repr}", sample("english.fst").display());
        let out = common_run(
            &["tokenize", "--with", &spec, "--format", "offsets"],
            " \t \u{a0} \n\n",
        );
        assert_eq!(out, "\n\n\n\n");
        let out = common_run(&["tokenize", "--with", &spec, "--format", "datok"], "   \n");
        assert_eq!(out, "\n\n");
    }
}

#[test]
fn pending_token_before_end_of_text_is_kept() {
    // In simple.fst a word is anything but gaps and marks, so U+0004 is read inside a word.
    // Datok then ends the text and drops the pending token; we close it and keep it.
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let simple = FstTokenizer::open(&sample("simple.fst"), repr).unwrap();
        let text = "one tw\u{4}o";
        let result = simple.tokenize(text);
        assert_eq!(forms(&simple, text), ["one", "tw", "o"]);
        assert_eq!(result.sentence_ends, [1, 2], "U+0004 ends the sentence");
    }
    // In english.fst U+0004 is whitespace: it ends the text between tokens.
    let english = FstTokenizer::open(&sample("english.fst"), Repr::Matrix).unwrap();
    let text = "We left\u{4}They came";
    assert_eq!(forms(&english, text), ["We", "left", "They", "came"]);
    assert_eq!(english.tokenize(text).sentence_ends, [1, 3]);
}

#[test]
fn going_back_before_deleted_whitespace() {
    // After a remembered boundary, whitespace is deleted; then the text fails and the runner
    // goes back before the whitespace, takes the boundary (a sentence end), and cannot read
    // the whitespace again. Datok slices its buffer backwards here (panic); the whitespace
    // stays deleted and the automaton restarts after it.
    // States (AT&T numbers): 0 reads a → 1; 1 has ε:TB → 2; 2 has ε:TB → 5 and deletes a
    // space → 3; 3 reads only b; 5 reads a but no space. On "a a" the space is deleted after
    // 2 was remembered, b is missing, the runner goes back to 2, ends a sentence, and 5
    // cannot read the space.
    let att = "0\t1\ta\ta\n1\t2\t@0@\t@_TOKEN_BOUND_@\n2\t5\t@0@\t@_TOKEN_BOUND_@\n\
               2\t3\t@_SPACE_@\t@0@\n3\t4\tb\tb\n4\t0\t@0@\t@_TOKEN_BOUND_@\n5\t1\ta\ta\n";
    let model = Model::from_bytes(Path::new("back.att"), att.as_bytes()).unwrap();
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let model = Model::from_bytes(Path::new("back.att"), att.as_bytes()).unwrap();
        let t = FstTokenizer::from_model(model, repr, "back".into()).unwrap();
        let text = "a a";
        let trace = t.trace(text);
        let got = trace.tokens.forms(text);
        assert_eq!(got, ["a", "a"]);
        assert!(
            trace
                .steps
                .iter()
                .any(|s| matches!(s, toklab::engines::fst::FstStep::SkipDeleted { .. })),
            "{:#?}",
            trace.steps
        );
    }
    drop(model);
}

fn common_run(args: &[&str], stdin: &str) -> String {
    let out = common::run(args, stdin.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn absurd_state_counts_are_refused_before_allocating() {
    let claim = "##foma-net 1.0##\n##props##\n2 0 1000000000 1 0 -1 1 1 1 1 0 2 X\n##sigma##\n\
                 0 @_EPSILON_SYMBOL_@\n1 @_TOKEN_BOUND_@\n##states##\n-1 -1 -1 -1 -1\n##end##\n";
    let e = Model::from_bytes(Path::new("big.fst"), claim.as_bytes())
        .err()
        .expect("refused");
    assert!(e.to_string().contains("too short for them"), "{e}");
}

#[test]
fn unknown_symbol_edges_and_foma_nondeterminism() {
    // foma compiles `[ [a 0:TB] | [?:0] ]*` with both a:a and a:0 from the start state (its
    // `?` there covers `a` too): not a tokenizer, and the error names both edges.
    let foma_att = "0\t1\ta\ta\n0\t0\t@_UNKNOWN_SYMBOL_@\t@0@\n0\t0\t@_TOKEN_BOUND_@\t@0@\n\
                    0\t0\ta\t@0@\n1\t0\t@0@\t@_TOKEN_BOUND_@\n0\n";
    let e = Model::from_bytes(Path::new("q.att"), foma_att.as_bytes())
        .err()
        .expect("refused");
    assert!(
        e.to_string().contains(
            "q.att:4: not a tokenizer: state 1 (0 in the file) is non-deterministic: it reads «a» on two edges"
        ),
        "{e}"
    );
    // Without the a:0 edge: a character outside the alphabet takes the unknown symbol's
    // deletion (there is no identity symbol), so é and 😀 are dropped between the a's.
    let att = "0\t1\ta\ta\n0\t0\t@_UNKNOWN_SYMBOL_@\t@0@\n1\t0\t@0@\t@_TOKEN_BOUND_@\n";
    for repr in [Repr::Matrix, Repr::DoubleArray] {
        let model = Model::from_bytes(Path::new("u.att"), att.as_bytes()).unwrap();
        let t = FstTokenizer::from_model(model, repr, "u".into()).unwrap();
        assert_eq!(forms(&t, "aé😀a"), ["a", "a"]);
        let trace = t.trace("aé");
        assert!(trace.steps.iter().any(|s| matches!(
            s,
            FstStep::Read {
                via: toklab::engines::fst::Via::Unknown,
                dropped: true,
                ..
            }
        )));
    }
}
