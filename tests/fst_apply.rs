//! foma's `apply down` / `apply up` and `print net` / `print sigma` inside toklab, compared with
//! foma itself: `flookup -i -a` (apply down, every output) and `flookup -a` (apply up) on the
//! shipped networks, and the state, arc and sigma counts foma prints on loading them.

use std::io::Write;
use std::process::{Command, Stdio};

use toklab::engines::fst::{Model, apply_down, apply_up, summary};

fn sample(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/fst")
        .join(name)
}

/// Every output flookup gives for each input (`-i`: apply down), sorted per input.
fn flookup(fst: &std::path::Path, inputs: &[&str], down: bool) -> Vec<Vec<String>> {
    let mut command = Command::new("flookup");
    if down {
        command.arg("-i");
    }
    let mut child = command
        .arg("-a")
        .arg(fst)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("flookup runs");
    let mut stdin = child.stdin.take().unwrap();
    for input in inputs {
        writeln!(stdin, "{input}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let mut outputs: Vec<String> = block
                .lines()
                .filter_map(|l| l.split_once('\t').map(|(_, o)| o.to_string()))
                .filter(|o| o != "+?")
                .collect();
            outputs.sort();
            outputs
        })
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn apply_down_and_up_give_what_flookup_gives() {
    if !crate::common::have_foma("fst_apply") {
        return;
    }
    let cases: [(&str, &[&str], &[&str]); 2] = [
        (
            "toy.fst",
            &["abc", "abbc", "a  b", "abbbd", "ca"],
            &[
                "a@_TOKEN_BOUND_@",
                "abc@_TOKEN_BOUND_@",
                "a@_TOKEN_BOUND_@b@_TOKEN_BOUND_@",
            ],
        ),
        (
            "english.fst",
            &["Dr. Smith isn't here.", "U.S.A.", "e.g. 3.5", "naïve café"],
            // Read backwards, its whitespace deletions insert any space anywhere: the outputs
            // are bounded differently from flookup's, so only apply down is compared here.
            &[],
        ),
    ];
    for (file, down, up) in cases {
        let path = sample(file);
        let model = Model::open(&path).unwrap();
        let network = &model.network;
        let theirs = flookup(&path, down, true);
        assert_eq!(theirs.len(), down.len(), "{file}: one answer per input");
        for (input, expected) in down.iter().zip(theirs) {
            let ours = apply_down(network, input, 1000);
            assert!(ours.complete && !ours.finals_assumed, "{file} {input:?}");
            assert_eq!(
                sorted(ours.outputs),
                expected,
                "{file}: apply down {input:?}"
            );
        }
        let theirs = flookup(&path, up, false);
        for (input, expected) in up.iter().zip(theirs) {
            let ours = apply_up(network, input, 1000);
            assert_eq!(sorted(ours.outputs), expected, "{file}: apply up {input:?}");
        }
    }
}

#[test]
fn the_summary_counts_what_foma_counts() {
    if !crate::common::have_foma("fst_apply") {
        return;
    }
    for file in ["toy.fst", "simple.fst", "english.fst"] {
        let path = sample(file);
        let out = Command::new("foma")
            .arg("-e")
            .arg(format!("load stack {}", path.display()))
            .arg("-e")
            .arg("print sigma")
            .arg("-e")
            .arg("print net")
            .arg("-s")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let ours = summary(&Model::open(&path).unwrap().network);
        let head = format!("{} states, {} arcs", ours.states, ours.arcs);
        assert!(text.contains(&head), "{file}: {head} in\n{text}");
        let size = format!("Size: {}.", ours.sigma.len());
        assert!(text.contains(&size), "{file}: {size} in\n{text}");
        // print net writes a final state `fsN` (`Sfs0` when it is the start state too).
        let finals = text
            .lines()
            .filter(|l| l.starts_with("fs") || l.starts_with("Sfs"))
            .count();
        assert_eq!(ours.finals, Some(finals), "{file}: final states");
    }
}

/// A deletion loop read backwards inserts a space anywhere: apply up is bounded and ends.
#[test]
fn a_cyclic_network_never_hangs_apply() {
    let model = Model::open(&sample("english.fst")).unwrap();
    let long = "a@_TOKEN_BOUND_@".repeat(200);
    let started = std::time::Instant::now();
    let ours = apply_up(&model.network, &long, 50);
    assert_eq!(ours.outputs.len(), 50, "the output limit stops it");
    assert!(!ours.complete);
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}
