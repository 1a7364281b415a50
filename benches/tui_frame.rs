//! Frame time of the workbench on a 100 MB text: how long until the first frame after opening,
//! and how long a keypress takes to redraw (apply the action, tick, draw on a 120×40 test
//! backend), against the 16 ms budget of a 60 Hz terminal.
//!
//! `cargo bench --bench tui_frame` (the 100 MB file is built once from
//! ../shared/corpora/kjv-en.txt in the system's temp folder).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use toklab_cli::cli::workbench::{Args, build_app};
use toklab_cli::tui::app::Action;
use toklab_cli::tui::panes::View;
use toklab_cli::tui::render_to_buffer;
use toklab_cli::tui::theme::Theme;

const TARGET_BYTES: u64 = 100 * 1024 * 1024;
const BUDGET: Duration = Duration::from_millis(16);

fn shared() -> PathBuf {
    std::env::var_os("TOKLAB_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

/// A 100 MB text made of copies of the KJV corpus.
fn big_file() -> PathBuf {
    let path = std::env::temp_dir().join("toklab-bench-100mb.txt");
    if path.metadata().is_ok_and(|m| m.len() >= TARGET_BYTES) {
        return path;
    }
    let corpus = std::fs::read(shared().join("corpora/kjv-en.txt"))
        .expect("../shared/corpora/kjv-en.txt (set TOKLAB_SHARED)");
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(&path).expect("create the 100 MB file"));
    let mut written = 0;
    while written < TARGET_BYTES {
        out.write_all(&corpus).unwrap();
        written += corpus.len() as u64;
    }
    out.flush().unwrap();
    path
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // `TUI_FRAME_ONLY=typing` runs only the long-line part (for profiling it).
    if std::env::var("TUI_FRAME_ONLY").is_ok_and(|v| v == "typing") {
        typing_on_a_long_line(&Theme::dark());
        return;
    }
    let file = big_file();
    let size = file.metadata().unwrap().len();
    let theme = Theme::dark();
    let args = Args {
        file: Some(file.clone()),
        ..Args::default()
    };

    // Opening: build the state and draw the first frame; the file is indexed in the background.
    let started = Instant::now();
    let mut app = build_app(&args).expect("open the workbench");
    render_to_buffer(&mut app, &theme, 120, 40);
    let first_frame = started.elapsed();
    let lines_at_first_frame = app.doc.lines.line_count();
    app.finish_loading();
    while !app.doc.lines.is_indexed() {
        std::thread::sleep(Duration::from_millis(1));
    }
    let indexed = started.elapsed();
    app.tick();

    // Keypresses all over the file.
    let keys = [
        Action::LineDown,
        Action::TokenNext,
        Action::PageDown,
        Action::RowNext,
        Action::TokenNext,
        Action::LastLine,
        Action::LineUp,
        Action::PageUp,
        Action::GoToLine(1_000_000),
        Action::TokenLast,
        Action::FirstLine,
        Action::NextView,
    ];
    let mut times = Vec::new();
    for round in 0..40 {
        for &key in &keys {
            let t = Instant::now();
            app.apply(key);
            app.tick();
            render_to_buffer(&mut app, &theme, 120, 40);
            times.push(t.elapsed());
        }
        if round == 0 {
            // The stats view started a background job over the whole file; stop it to keep
            // to the interactive path.
            app.panes.stats.cancel();
        }
    }
    let count = times.len();
    let med = median(&mut times);
    let p95 = times[count * 95 / 100];
    let max = *times.last().unwrap();
    println!(
        "tui_frame: {:.1} MB text, {} lines, {} tokenizer rows",
        size as f64 / 1e6,
        app.doc.lines.line_count(),
        app.rows.len()
    );
    println!(
        "  open → first frame: {:.2} ms ({} lines indexed by then); fully indexed after {:.0} ms",
        first_frame.as_secs_f64() * 1e3,
        lines_at_first_frame,
        indexed.as_secs_f64() * 1e3
    );
    println!(
        "  keypress → frame, {count} presses: median {:.2} ms, p95 {:.2} ms, max {:.2} ms; median / 16 ms budget = {:.3}",
        med.as_secs_f64() * 1e3,
        p95.as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3,
        med.as_secs_f64() / BUDGET.as_secs_f64()
    );
    typing_on_a_long_line(&theme);
}

/// CPU time of the calling thread so far (Linux: /proc/thread-self/stat, in clock ticks of
/// 10 ms), to tell the work a key costs from waiting for a busy machine's cores.
fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The budget for a keypress on a long line: the frame after a typed key, in every view, with
/// the default workspace's rows tokenizing a 100 KB line, so typing never feels late.
const LONG_LINE_BUDGET: Duration = Duration::from_millis(50);

/// Typing at the end of a 100 KB line (words of the KJV text): per view, the time from the
/// key to its frame (apply, tick, draw), and how long until every row's tokens and the view's
/// background work (the trace) have caught up after the last key.
fn typing_on_a_long_line(theme: &Theme) {
    let corpus = std::fs::read_to_string(shared().join("corpora/kjv-en.txt"))
        .expect("../shared/corpora/kjv-en.txt (set TOKLAB_SHARED)");
    let mut line = String::new();
    for word in corpus.split_whitespace() {
        if line.len() >= 100 * 1024 {
            break;
        }
        line.push_str(word);
        line.push(' ');
    }
    let path = std::env::temp_dir().join("toklab-bench-100kb-line.txt");
    std::fs::write(&path, format!("{line}\nsecond line\n")).unwrap();
    let args = Args {
        file: Some(path),
        ..Args::default()
    };
    let mut app = build_app(&args).expect("open the workbench");
    app.finish_loading();
    while !app.doc.lines.is_indexed() {
        std::thread::sleep(Duration::from_millis(1));
        app.tick();
    }
    app.tick();
    app.finish_loading();
    println!(
        "  typing on a {:.0} KB line, {} rows:",
        app.doc.text.len() as f64 / 1024.0,
        app.rows.len()
    );
    for view in View::ALL {
        if matches!(view, View::Stats | View::Train) {
            // Both work over the whole file in the background; the keypress path is the same.
            app.apply(Action::ShowView(view));
            app.panes.stats.cancel();
        }
        app.apply(Action::ShowView(view));
        app.apply(Action::Edit);
        app.apply(Action::CaretEnd);
        let (mut times, cpu) = type_keys(&mut app, theme);
        let t = Instant::now();
        while app.rows.is_tokenizing() || app.busy() && view == View::Trace {
            std::thread::sleep(Duration::from_millis(1));
            app.tick();
        }
        render_to_buffer(&mut app, theme, 120, 40);
        let caught_up = t.elapsed();
        app.apply(Action::Back);
        let count = times.len();
        let med = median(&mut times);
        let max = times[count - 1];
        println!(
            "    {:<7} keypress → frame: median {:.2} ms, max {:.2} ms wall (budget {} ms: {}); UI thread CPU {} per key; rows and view caught up {:.0} ms after the last key",
            view.name(),
            med.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3,
            LONG_LINE_BUDGET.as_millis(),
            if max <= LONG_LINE_BUDGET {
                "within"
            } else {
                "OVER"
            },
            cpu.map_or("unknown".into(), |c| format!(
                "{:.1} ms",
                c.as_secs_f64() * 1e3
            )),
            caught_up.as_secs_f64() * 1e3
        );
    }
    // In the middle of the line every cell after the caret moves with each key.
    app.apply(Action::ShowView(View::Table));
    app.apply(Action::Edit);
    app.apply(Action::CaretHome);
    for _ in 0..app.doc.text.len() / 2 {
        app.apply(Action::CaretRight);
    }
    let (mut times, cpu) = type_keys(&mut app, theme);
    let count = times.len();
    let med = median(&mut times);
    println!(
        "    {:<7} typed in the middle of the line: median {:.2} ms, max {:.2} ms wall; UI thread CPU {} per key",
        View::Table.name(),
        med.as_secs_f64() * 1e3,
        times[count - 1].as_secs_f64() * 1e3,
        cpu.map_or("unknown".into(), |c| format!(
            "{:.1} ms",
            c.as_secs_f64() * 1e3
        )),
    );
}

/// Types a few words key by key, drawing a frame after each: the wall time per key, and the
/// interface thread's CPU time per key.
fn type_keys(
    app: &mut toklab_cli::tui::app::App,
    theme: &Theme,
) -> (Vec<Duration>, Option<Duration>) {
    let mut times = Vec::new();
    let cpu_before = thread_cpu();
    for c in "typing here".chars() {
        let t = Instant::now();
        app.apply(Action::Type(c));
        app.tick();
        render_to_buffer(app, theme, 120, 40);
        times.push(t.elapsed());
    }
    let cpu = thread_cpu()
        .zip(cpu_before)
        .map(|(after, before)| (after - before) / times.len() as u32);
    (times, cpu)
}
