//! Widths as a real terminal draws them: every distinct grapheme of the shared corpora and of
//! `width_data/emoji.txt` is drawn alone in tmux, and the cells it took are compared with the
//! cells the workbench reserves for it; and the workbench, resized and scrolled over such
//! lines, leaves the same screen as a full redraw.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use toklab_cli::tui::layout::LineLayout;
use toklab_cli::tui::width::{Model, PROBES};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

use crate::common::tmux::{Session, available};

const DOTS: usize = 20;

/// The cells tmux takes to draw each of `samples` alone, all in one tmux run: each line first
/// fills `DOTS` cells with dots, returns to the start and draws the sample and a bar, so the
/// dots left after the bar tell how many cells the sample covered.
fn measure(samples: &[String]) -> Vec<usize> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("samples.txt");
    let mut text = String::new();
    for s in samples {
        text.push_str(&format!("{}\r{s}|\n", ".".repeat(DOTS)));
    }
    text.push_str("MEASURED-ALL\n");
    std::fs::write(&file, text).unwrap();
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("toklab-widths-{}-{run}", std::process::id());
    let command = format!("cat '{}'; sleep 30", file.display());
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux").arg("-u").args(args).output().unwrap();
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    tmux(&["new-session", "-d", "-s", &name, "-x", "60", "-y", "10"]);
    let limit = (samples.len() + 100).to_string();
    tmux(&["set-option", "-t", &name, "history-limit", &limit]);
    tmux(&["new-window", "-t", &name, &command]);
    // Generous: the loop ends as soon as the marker shows, and a test run shares the machine.
    let deadline = Instant::now() + Duration::from_secs(180);
    let screen = loop {
        let screen = tmux(&["capture-pane", "-p", "-S", "-", "-E", "-", "-t", &name]);
        if screen.contains("MEASURED-ALL") || Instant::now() > deadline {
            break screen;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = Command::new("tmux")
        .args(["kill-session", "-t", &name])
        .output();
    let widths: Vec<usize> = screen
        .lines()
        .take_while(|l| !l.starts_with("MEASURED-ALL"))
        .map(|line| {
            let bar = line
                .rfind('|')
                .unwrap_or_else(|| panic!("no bar in {line:?}"));
            let dots = line[bar + 1..].trim_end().len();
            DOTS - 1 - dots
        })
        .collect();
    assert_eq!(widths.len(), samples.len(), "tmux lost lines:\n{screen}");
    widths
}

fn graphemes_of(files: &[std::path::PathBuf]) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        set.extend(text.graphemes(true).map(str::to_string));
    }
    set
}

#[test]
fn reserved_cells_equal_the_cells_tmux_draws_for_every_grapheme() {
    if !available("reserved_cells_equal_the_cells_tmux_draws_for_every_grapheme") {
        return;
    }
    let Some(shared) = crate::common::shared_dir("reserved_cells_equal…") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(shared.join("corpora"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/width_data/emoji.txt"));
    let graphemes = graphemes_of(&files);
    assert!(graphemes.len() > 1000, "{} graphemes", graphemes.len());
    // What the workbench draws for each grapheme (tabs and controls get a visible stand-in).
    let shown: Vec<String> = graphemes
        .iter()
        .map(|g| {
            LineLayout::new(g)
                .cells
                .iter()
                .map(|c| c.symbol(g))
                .collect()
        })
        .collect();
    let chars: Vec<String> = graphemes
        .iter()
        .flat_map(|g| g.chars())
        .filter(|c| !c.is_control())
        .collect::<BTreeSet<char>>()
        .into_iter()
        .map(String::from)
        .collect();
    // The probes decide the model every other figure is read under: they get a batch of their
    // own, small enough for one of tmux's input blocks.
    let probes = measure(&PROBES.iter().map(|p| p.to_string()).collect::<Vec<_>>());
    let mut samples: Vec<String> = shown.clone();
    samples.extend(chars.iter().cloned());
    let measured = measure(&samples);
    let (drawn, lone) = measured.split_at(shown.len());
    let mut probe = probes.iter();
    let model = Model::probe(|_| probe.next().copied()).unwrap();
    // A character tmux's own table (an older Unicode) sizes differently alone is a difference
    // of tables, not of how sequences are laid out; those are counted, not failed.
    let table_differs: BTreeSet<char> = chars
        .iter()
        .zip(lone)
        .filter_map(|(c, &w)| {
            let c = c.chars().next().unwrap();
            (c.width().unwrap_or(0) != w).then_some(c)
        })
        .collect();
    // The cells the workbench reserves: its width function under the terminal's model, cell
    // by cell of the line's layout, as the rows and the text pane lay a line out.
    let reserved: Vec<usize> = graphemes
        .iter()
        .map(|g| {
            let layout = LineLayout::new(g);
            layout
                .cells
                .iter()
                .map(|c| model.width(c.symbol(g)).max(1))
                .sum()
        })
        .collect();
    let disagree: Vec<usize> = (0..shown.len())
        .filter(|&i| reserved[i] != drawn[i])
        .collect();
    // tmux reads its input in blocks, and a joiner sequence split between two blocks is drawn
    // unjoined: what disagrees is measured once more, in batches small enough for one block.
    let again: Vec<usize> = disagree
        .chunks(32)
        .flat_map(|batch| measure(&batch.iter().map(|&i| shown[i].clone()).collect::<Vec<_>>()))
        .collect();
    let mut wrong = Vec::new();
    let mut by_table = 0;
    for (&i, &cells) in disagree.iter().zip(&again) {
        let (g, symbol) = (graphemes.iter().nth(i).unwrap(), &shown[i]);
        if reserved[i] == cells {
            continue;
        }
        if symbol.chars().any(|c| table_differs.contains(&c)) {
            by_table += 1;
        } else {
            let r = reserved[i];
            wrong.push(format!(
                "{g:?} shown as {symbol:?}: reserved {r}, drawn {cells}"
            ));
        }
    }
    println!(
        "widths: {} graphemes, terminal model {model:?}; {} agree, {by_table} differ only \
         by tmux's older character table, {} wrong",
        graphemes.len(),
        graphemes.len() - by_table - wrong.len(),
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{} graphemes drawn in other cells than reserved:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

#[test]
fn resizing_and_scrolling_over_emoji_leaves_no_stale_cells() {
    if !available("resizing_and_scrolling_over_emoji_leaves_no_stale_cells") {
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let text = "€ — naïve café\nLove 👩‍❤️‍👨 and 👍🏽 and ©️ ok\nहिन्दी किताब पढ़ी\nFlags 🇩🇪🇫🇷 keycap 1️⃣ end\nplain line\n";
    std::fs::write(temp.path().join("w.txt"), text).unwrap();
    let s = Session::start("widths", 160, 45, temp.path(), &[]);
    let bin = env!("CARGO_BIN_EXE_toklab");
    s.run(&format!(
        "{bin} --with ws --with words w.txt; echo toklab-exited-$?"
    ));
    s.wait_text("words");
    s.keys(&["j"]);
    s.wait_text("line 2 ·");
    let resized = Command::new("tmux")
        .args([
            "resize-window",
            "-t",
            &session_name(&s),
            "-x",
            "80",
            "-y",
            "24",
        ])
        .status()
        .unwrap();
    assert!(resized.success());
    for key in ["G", "k", "k", "j", "k", "k"] {
        s.keys(&[key]);
        std::thread::sleep(Duration::from_millis(150));
    }
    let moved = s.wait_text("line 2 ·");
    assert!(moved.contains("👍🏽"), "the skin tone was cut:\n{moved}");
    assert!(moved.contains("👩‍❤️‍👨"), "the sequence was cut:\n{moved}");
    s.keys(&["C-l"]);
    std::thread::sleep(Duration::from_millis(300));
    let redrawn = s.wait_text("line 2 ·");
    assert_eq!(
        moved, redrawn,
        "the screen before a full redraw had stale cells"
    );
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}

fn session_name(s: &Session) -> String {
    s.pane_format("#{session_name}")
}
