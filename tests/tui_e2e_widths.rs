//! Widths as a real terminal draws them: every distinct grapheme of the shared corpora and of
//! `width_data/emoji.txt` is drawn alone in tmux, and the cells it took are compared with the
//! cells the workbench reserves for it; and the workbench, resized and scrolled over such
//! lines, leaves the same screen as a full redraw.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use toklab_cli::tui::layout::LineLayout;
use toklab_cli::tui::width::{Model, PROBES};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

use crate::common::tmux::{Session, available, tmux_on};

const DOTS: usize = 20;

/// The cells tmux takes to draw each of `samples` alone, all in one tmux run on a server of
/// its own: each line first fills `DOTS` cells with dots, returns to the start and draws the
/// sample and a bar, so the dots left after the bar tell how many cells the sample covered.
/// Failures say what went wrong in a few lines, never with the whole scrollback.
fn measure(samples: &[String]) -> Vec<usize> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("samples.txt");
    let mut text = String::new();
    for s in samples {
        text.push_str(&format!("{}\r{s}|\n", ".".repeat(DOTS)));
    }
    text.push_str("MEASURED-ALL\n");
    std::fs::write(&file, text).unwrap();
    let socket = dir.path().join("tmux");
    let command = format!("cat '{}'; sleep 60", file.display());
    let tmux = |args: &[&str]| {
        let out = tmux_on(&socket).arg("-u").args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "tmux {args:?} failed: {err}");
        String::from_utf8(out.stdout).unwrap()
    };
    let limit = (samples.len() + 100).to_string();
    // The history limit applies to windows made after it is set: the server starts with a
    // placeholder window, and the measured one is made next.
    tmux(&["new-session", "-d", "-s", "m", "-x", "60", "-y", "10"]);
    tmux(&["set-option", "-g", "history-limit", &limit]);
    tmux(&["new-window", "-t", "m", &command]);
    // Generous: the loop ends as soon as the marker shows, and a test run shares the machine.
    let deadline = Instant::now() + Duration::from_secs(300);
    let screen = loop {
        let screen = tmux(&["capture-pane", "-p", "-S", "-", "-E", "-", "-t", "m"]);
        if screen.contains("MEASURED-ALL") || Instant::now() > deadline {
            break screen;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let _ = tmux_on(&socket).arg("kill-server").output();
    let lines: Vec<&str> = screen
        .lines()
        .take_while(|l| !l.starts_with("MEASURED-ALL"))
        .collect();
    let tail = |n: usize| lines[lines.len().saturating_sub(n)..].join("\n");
    assert!(
        screen.contains("MEASURED-ALL"),
        "tmux drew {} of {} lines in 300 s; the last ones:\n{}",
        lines.len(),
        samples.len(),
        tail(5)
    );
    assert_eq!(
        lines.len(),
        samples.len(),
        "tmux drew another number of lines than written; the last ones:\n{}",
        tail(5)
    );
    lines
        .iter()
        .zip(samples)
        .map(|(line, sample)| {
            let bar = line
                .rfind('|')
                .unwrap_or_else(|| panic!("no bar after {sample:?}: tmux drew {line:?}"));
            let dots = line[bar + 1..].trim_end().len();
            DOTS - 1 - dots
        })
        .collect()
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
    // A grapheme holding a character tmux's table sizes differently is counted, not failed.
    let by_table_differs = |i: usize| shown[i].chars().any(|c| table_differs.contains(&c));
    let (by_table, mut disagree): (Vec<usize>, Vec<usize>) = (0..shown.len())
        .filter(|&i| reserved[i] != drawn[i])
        .partition(|&i| by_table_differs(i));
    let by_table = by_table.len();
    let mut cells: Vec<usize> = disagree.iter().map(|&i| drawn[i]).collect();
    // tmux reads its input in blocks, and a joiner sequence split between two blocks is drawn
    // unjoined (how the blocks fall depends on the machine's load): what disagrees is measured
    // again, in batches far smaller than a block, up to three times; only what disagrees every
    // time counts.
    for _ in 0..3 {
        if disagree.is_empty() {
            break;
        }
        let batches = disagree.chunks(8);
        cells = batches
            .flat_map(|batch| measure(&batch.iter().map(|&i| shown[i].clone()).collect::<Vec<_>>()))
            .collect();
        (disagree, cells) = disagree
            .iter()
            .zip(&cells)
            .filter(|&(&i, &c)| reserved[i] != c)
            .unzip();
    }
    let wrong: Vec<String> = disagree
        .iter()
        .zip(&cells)
        .map(|(&i, &drawn)| {
            let (g, symbol, r) = (graphemes.iter().nth(i).unwrap(), &shown[i], reserved[i]);
            format!("{g:?} shown as {symbol:?}: reserved {r}, drawn {drawn}")
        })
        .collect();
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
    let resized = s
        .tmux()
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
