//! Memory bounded by what the input justifies: a trace keeps at most
//! [`MAX_TRACE_LINES`] lines whatever the text, a finite-state network gets a matrix only when
//! its edges justify one, and a compressed network is inflated only as far as its header
//! allows.

use std::io::Write;
use std::path::Path;

use toklab::core::trace::MAX_TRACE_LINES;
use toklab::engines::fst::{FstTokenizer, Matrix, Model, Network, Repr};
use toklab::engines::fst::{RawArc, RawNetwork, RawSymbol};

use crate::linearity::{growth, repeated};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Explaining a line of a million characters keeps the first lines of the trace and
/// says how many more there were, for every engine whose trace grows with the text.
#[test]
fn explain_keeps_a_bounded_trace_of_a_long_line() {
    let text = repeated("ab. ", 1_000_000);
    for spec in [
        "fst:samples/fst/english.fst",
        "ws",
        "pretok:gpt2",
        "wordpiece:samples/bpe/sample-wordpiece.txt",
        "maxmatch:samples/maxmatch/zh-words.txt",
        "words",
    ] {
        let tokenizer = toklab::load_in(spec, root()).unwrap();
        let trace = tokenizer.explain(&text);
        assert_eq!(trace.lines().len(), MAX_TRACE_LINES + 1, "{spec}");
        let last = trace.to_text().lines().last().unwrap().to_string();
        assert!(
            last.starts_with("… ") && last.contains("more trace lines not kept"),
            "{spec}: {last}"
        );
    }
    // BPE keeps its first pieces (a few lines each) and counts the rest.
    let bpe = toklab::load_in("bpe:samples/bpe/gpt2", root()).unwrap();
    let trace = bpe.explain(&text);
    assert!(trace.lines().len() <= MAX_TRACE_LINES + 1);
    assert!(trace.merge_words().len() <= MAX_TRACE_LINES);
    let last = trace.to_text().lines().last().unwrap().to_string();
    assert!(last.contains("more pieces not kept"), "bpe: {last}");
    // A short text's trace is whole: no marker.
    let fst = toklab::load_in("fst:samples/fst/english.fst", root()).unwrap();
    assert!(!fst.explain("Hello world.").to_text().contains("not kept"));
}

/// A network over a large alphabet with few edges: `symbols` characters from the start state
/// to a chain of `chain` states. Its matrix would be (chain + 3) × (symbols + specials) cells
/// for about `symbols + chain` edges.
fn sparse_network(symbols: u32, chain: u32) -> Network {
    let mut raw_symbols = vec![Some(RawSymbol::Epsilon), Some(RawSymbol::Boundary)];
    raw_symbols.push(Some(RawSymbol::Char('a')));
    let first_char = raw_symbols.len() as u32;
    for k in 0..symbols {
        raw_symbols.push(Some(RawSymbol::Char(char::from_u32(0x4e00 + k).unwrap())));
    }
    let arc = |from, input, to| RawArc {
        from,
        input,
        output: input,
        to,
        line: 0,
    };
    let mut arcs: Vec<RawArc> = (0..symbols).map(|k| arc(0, first_char + k, 1)).collect();
    arcs.extend((1..chain).map(|s| arc(s, 2, s + 1)));
    // A token ends at the end of the chain (ε:boundary): back to the start.
    arcs.push(RawArc {
        output: 1,
        ..arc(chain, 0, 0)
    });
    Network::from_raw(RawNetwork {
        path: "sparse".into(),
        format: "test",
        name: None,
        symbols: raw_symbols,
        state_count: chain + 1,
        start: 0,
        file_counts_from_one: false,
        arcs,
        warnings: vec![],
        finals: None,
    })
    .unwrap()
}

/// A sparse network over a large alphabet (as a 340 KB `.fst` of 65,000 symbols and 16,500
/// states, whose matrix would take 4 GiB) gets the double array by default, and asking for
/// the matrix is an error that says why, before anything is allocated.
#[test]
fn a_sparse_network_gets_no_matrix() {
    let sparse = sparse_network(3_000, 2_000);
    assert_eq!(Repr::for_network(&sparse), Repr::DoubleArray);
    let error = Matrix::build(&sparse).unwrap_err().to_string();
    assert!(
        error.contains("2002 states × ") && error.contains("edges, too large; use ?repr=da"),
        "{error}"
    );
    let model = |network| Model {
        network,
        path: "sparse.fst".into(),
        stored_array: None,
    };
    let refused = FstTokenizer::from_model(model(sparse.clone()), Repr::Matrix, "s".into());
    let message = refused.err().expect("the matrix is refused").to_string();
    assert!(message.starts_with("sparse.fst: "), "{message}");
    let da = FstTokenizer::from_model(model(sparse), Repr::DoubleArray, "s".into()).unwrap();
    let text = format!("一{}", "a".repeat(1999));
    assert_eq!(toklab::Tokenizer::tokenize(&da, &text).len(), 1);
    // A dense network keeps the matrix: the shipped samples.
    for name in ["toy.fst", "simple.fst", "english.fst"] {
        let sample = Model::open(&root().join("samples/fst").join(name)).unwrap();
        assert_eq!(Repr::for_network(&sample.network), Repr::Matrix, "{name}");
    }
    // A small table is always fine, however sparse.
    assert_eq!(Repr::for_network(&sparse_network(300, 200)), Repr::Matrix);
}

/// A gzip bomb is refused once it inflates past what its header can justify, with
/// a message that says so, instead of inflating it all before the format error.
#[test]
fn a_gzip_bomb_is_refused_by_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.fst");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"##foma-net 1.0##\n##props##\n2 10 5 10 1 1 1 1 1 1 1 1 bomb\n##sigma##\n")
        .unwrap();
    let junk = vec![b'0'; 1 << 20];
    for _ in 0..40 {
        gz.write_all(&junk).unwrap();
    }
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let error = Model::open(&path).err().expect("refused").to_string();
    assert!(
        error.contains("bomb.fst")
            && error.contains("its props line's 10 arcs and 5 states")
            && error.contains("refused"),
        "{error}"
    );
    // Without a foma header, the bound is the general one; a real sample still loads.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let english = std::fs::read(root().join("samples/fst/english.fst")).unwrap();
    let plain = if english.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&english[..]), &mut out)
            .unwrap();
        out
    } else {
        english
    };
    gz.write_all(&plain).unwrap();
    let again = dir.path().join("english.fst");
    std::fs::write(&again, gz.finish().unwrap()).unwrap();
    Model::open(&again).unwrap();
}

/// Gold whose forms differ from the text all along a long line (`will n't` for `won't`) is
/// placed in time linear in the line (an exact alignment of the whole of a 400 KB line takes
/// 20 s).
#[test]
fn gold_that_rewrites_a_long_line_is_placed_in_linear_time() {
    use toklab::analysis::compare::{GoldText, project};
    let sentence_count = |chars: usize| chars / "I won't go, he said. ".len();
    let case = |n: usize| {
        let count = sentence_count(n);
        let text = "I won't go, he said. ".repeat(count);
        let gold = GoldText {
            line: 1,
            text: None,
            tokens: "I will n't go , he said ."
                .split(' ')
                .cycle()
                .take(8 * count)
                .map(str::to_string)
                .collect(),
            sentence_ends: Vec::new(),
        };
        (text, gold)
    };
    let (small, large) = (20_000, 200_000);
    let cases = [case(small), case(large)];
    let projection = project(&cases[1].0, &cases[1].1);
    assert_eq!(projection.tokenization.check(&cases[1].0), Ok(()));
    assert_eq!(projection.edits, 3 * sentence_count(large) as u64);
    let will = &projection.tokenization.tokens[1];
    assert_eq!(will.span.slice(&cases[1].0), "wo");
    let (_, _, ratio) = growth(small, large, |n| {
        let (text, gold) = &cases[usize::from(n == large)];
        std::hint::black_box(project(text, gold));
    });
    assert!(ratio < 25.0, "ratio {ratio:.1}");
}

/// Peak resident memory (KB) of `toklab ARGS`, from the kernel's account of the child
/// (`wait4`'s `ru_maxrss`: that child's own, unlike `getrusage`, which would mix in every
/// other test's children); the run must succeed.
pub(crate) fn peak_kb(args: &[&str], dir: &Path) -> u64 {
    usage(args, dir).ru_maxrss as u64
}

/// What `toklab ARGS` (run in `dir`) used, as the kernel counts it for the finished child:
/// peak memory, and CPU time, which unlike wall time does not grow with the machine's load.
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which std does not know of"
)]
pub(crate) fn usage(args: &[&str], dir: &Path) -> libc::rusage {
    let child = crate::common::toklab()
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn toklab");
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 only writes the status and the rusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the child is ours and not yet waited for.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "toklab {args:?}: status {status}"
    );
    usage
}

/// How much more memory `toklab ARGS FILE` takes for a file of 1e6 units than of 1e5 (`text`
/// makes the file for a size), per unit; and a report of both peaks for a failure message.
fn peak_growth(dir: &Path, args: &[&str], text: impl Fn(usize) -> String) -> (f64, String) {
    let (small, large) = (100_000, 1_000_000);
    let peak: Vec<u64> = [small, large]
        .iter()
        .map(|n| {
            let file = format!("{n}.txt");
            std::fs::write(dir.join(&file), text(*n)).unwrap();
            peak_kb(&[args, &[file.as_str()]].concat(), dir)
        })
        .collect();
    let per_unit = (peak[1].saturating_sub(peak[0]) * 1024) as f64 / (large - small) as f64;
    let report = format!("{} KB at {small}, {} KB at {large}", peak[0], peak[1]);
    (per_unit, report)
}

/// A context with a look-behind, tried after a long run of digits, must not keep a result for
/// every part of the pattern at every position (~360 bytes a character of the run; ~615 with
/// utoken's own files) nor copy the whole left text at every candidate: the tokenizer's memory
/// for such a line stays near what the line's tokens need.
#[test]
fn a_look_behind_over_a_long_run_keeps_bounded_state() {
    let dir = tempfile::tempdir().unwrap();
    // Our own entry in utoken's form: a period between a number and a letter splits off,
    // unless the number is glued to a word before it.
    std::fs::write(
        dir.path().join("tok-resource.txt"),
        "::punct-split . ::side both ::left-context (?<!\\pL|\\d|[-_])\\d+ ::right-context \\pL\n",
    )
    .unwrap();
    for name in ["detok-resource.txt", "top-level-domain-codes.txt"] {
        std::fs::write(dir.path().join(name), "").unwrap();
    }
    let (per_char, report) = peak_growth(dir.path(), &["tokenize", "--with", "rules:."], |n| {
        format!("{}.a\n", "7".repeat(n))
    });
    assert!(
        per_char < 200.0,
        "{per_char:.0} bytes a character ({report})"
    );
    // And the context still decides: the period splits off after a free-standing number.
    let out = crate::common::stdout_of(
        &[
            "tokenize",
            "--with",
            &format!("rules:{}", dir.path().display()),
        ],
        "12.ab x12.ab\n",
    );
    assert_eq!(out.trim(), "12 . ab x12.ab");
}

/// A SentencePiece line is one piece, and deriving its merge steps under both semantics costs
/// ~220 bytes a byte with the sample model (~300 with mistral-v3's), though the trace's lines
/// cannot hold them. A piece past [`MAX_STEPS_PIECE_BYTES`] keeps none, and the trace says so;
/// a shorter one keeps them.
#[test]
fn explain_keeps_merge_steps_only_for_pieces_a_view_can_replay() {
    use toklab::engines::subword::bpe::MAX_STEPS_PIECE_BYTES;
    let spm = toklab::load_in("spm:samples/bpe/sample-spm.model", root()).unwrap();
    let short = spm.explain(&repeated("the quick brown fox ", 1_000));
    assert_eq!(short.merge_words().len(), 1);
    assert_eq!(short.merges_left_out(), 0);
    let long = spm.explain(&repeated("the quick brown fox ", MAX_STEPS_PIECE_BYTES + 1));
    assert!(long.merge_words().is_empty());
    assert_eq!(long.merges_left_out(), 1);
    assert!(long.to_text().contains("1 more pieces not kept"));

    let dir = tempfile::tempdir().unwrap();
    let model = root().join("samples/bpe/sample-spm.model");
    let spec = format!("spm:{}", model.display());
    let (per_byte, report) = peak_growth(dir.path(), &["explain", "--with", &spec], |n| {
        format!(
            "{}\n",
            repeated("the quick brown fox jumps over a lazy dog ", n)
        )
    });
    assert!(per_byte < 150.0, "{per_byte:.0} bytes a byte ({report})");
}
