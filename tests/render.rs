//! `toklab render`: the SVG parses and rasterises with resvg and draws every row's boxes; the
//! HTML page loads in a real browser (Debian's `chromium`, headless) without a console message;
//! byte tokens keep their `<0xNN>` forms; bad arguments are clear errors.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{run, skip_note, stdout_of};

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples/sample.txt")
        .display()
        .to_string()
}

fn gpt2() -> String {
    format!(
        "gpt2=bpe:{}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples/bpe/gpt2")
            .display()
    )
}

/// Rasterises an SVG document (no fonts: only the boxes are drawn, which is what is checked).
fn rasterise(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .unwrap_or_else(|e| panic!("the SVG does not parse: {e}\n{svg}"));
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

/// The horizontal bands of the image that hold coloured (not white, not grey) pixels, as
/// (first y, last y, coloured pixels in the band).
fn coloured_bands(pixmap: &resvg::tiny_skia::Pixmap) -> Vec<(u32, u32, usize)> {
    let width = pixmap.width() as usize;
    let coloured_in_row = |y: usize| {
        pixmap.pixels()[y * width..(y + 1) * width]
            .iter()
            .filter(|p| {
                let (r, g, b) = (p.red(), p.green(), p.blue());
                p.alpha() > 0 && r.max(g).max(b) - r.min(g).min(b) > 20
            })
            .count()
    };
    let mut bands: Vec<(u32, u32, usize)> = Vec::new();
    let mut previous = false;
    for y in 0..pixmap.height() as usize {
        let count = coloured_in_row(y);
        match (count > 0, previous) {
            (true, false) => bands.push((y as u32, y as u32, count)),
            (true, true) => {
                let band = bands.last_mut().expect("a band is open");
                band.1 = y as u32;
                band.2 += count;
            }
            _ => {}
        }
        previous = count > 0;
    }
    bands
}

#[test]
fn the_svg_renders_with_resvg_and_every_row_is_drawn() {
    let svg = stdout_of(
        &[
            "render",
            "--with",
            "ws",
            "--with",
            "words",
            "--with",
            &gpt2(),
            "--line",
            "1",
            &sample(),
            "--format",
            "svg",
        ],
        "",
    );
    assert!(svg.contains(">gpt2</text>"), "the row's label: {svg}");
    let pixmap = rasterise(&svg);
    let white = pixmap
        .pixels()
        .iter()
        .filter(|p| (p.red(), p.green(), p.blue()) == (255, 255, 255))
        .count();
    assert!(white > pixmap.pixels().len() / 2, "the background is white");
    let bands = coloured_bands(&pixmap);
    assert_eq!(
        bands.len(),
        3,
        "one band of token boxes per row (ws, words, gpt2): {bands:?}"
    );
    for (top, bottom, pixels) in bands {
        assert!(
            bottom - top >= 15 && pixels > 500,
            "a row's boxes are drawn, {top}..{bottom}: {pixels} coloured pixels"
        );
    }
}

#[test]
fn every_line_without_line_and_byte_tokens_as_their_bytes() {
    let input = "語のテ\nplain words here\n";
    let svg = stdout_of(&["render", "-w", &gpt2(), "-w", "ws"], input);
    assert!(svg.contains(">line 1: 語のテ</text>"), "{svg}");
    assert!(svg.contains(">line 2: plain words here</text>"), "{svg}");
    assert!(
        svg.contains("&lt;0xE8&gt;"),
        "a byte-level model's pieces of a character show as <0xNN>: {svg}"
    );
    assert_eq!(
        coloured_bands(&rasterise(&svg)).len(),
        4,
        "two rows on two lines"
    );
}

#[test]
fn bad_arguments_are_clear_errors() {
    let output = run(&["render", "-w", "ws", "--line", "5"], b"one\ntwo\n");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("<stdin> has 2 lines, not 5"), "{stderr}");

    let output = run(&["render", "-w", "ws", "-o", "x.png"], b"one\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot tell the format from `.png`; give --format svg|html"),
        "{stderr}"
    );

    let output = run(&["render", "-w", "nope:x"], b"one\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && stderr.contains("nope"),
        "{stderr}"
    );
}

/// Debian's chromium, or `None` with a visible note (a failure in CI, which installs it).
fn chromium(test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromium"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{test}: chromium is missing; .ci/run installs it");
        }
        skip_note(&format!(
            "{test}: skipped: no `chromium` on PATH (apt-get install chromium)"
        ));
    }
    found
}

/// Loads `page` in headless chromium; returns the DOM it built and the console messages it
/// logged (chromium writes them to stderr as `…:CONSOLE…] "message", source: …`).
fn load_in_chromium(browser: &Path, page: &Path) -> (String, Vec<String>) {
    let profile = tempfile::tempdir().unwrap();
    let output = Command::new(browser)
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let console = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        console,
    )
}

#[test]
fn the_html_page_loads_in_chromium_without_console_messages() {
    let test = "the_html_page_loads_in_chromium_without_console_messages";
    let Some(browser) = chromium(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();

    // The check itself: a page with a script error is caught.
    let broken = dir.path().join("broken.html");
    std::fs::write(
        &broken,
        "<!DOCTYPE html><html><body><script>missingFunction();</script></body></html>",
    )
    .unwrap();
    let (_, console) = load_in_chromium(&browser, &broken);
    assert!(
        console.iter().any(|l| l.contains("missingFunction")),
        "the console check sees errors: {console:?}"
    );

    let page = dir.path().join("rows.html");
    let page_arg = page.display().to_string();
    stdout_of(
        &[
            "render",
            "-w",
            "ws",
            "-w",
            &gpt2(),
            "--line",
            "3",
            &sample(),
            "-o",
            &page_arg,
        ],
        "",
    );
    let (dom, console) = load_in_chromium(&browser, &page);
    assert!(console.is_empty(), "console messages: {console:?}");
    // Line 3 as ws cuts it: every token is a span with its hover text.
    let ws_tokens = "I can't believe it's already 2026 — where did the year go?"
        .split_whitespace()
        .count();
    let spans = dom.matches("<span class=\"t\"").count();
    assert!(
        spans > ws_tokens,
        "ws's {ws_tokens} tokens and gpt2's are in the page: {spans}"
    );
    assert!(dom.contains("title=\"bytes 0–1"), "hover text: {dom}");
    assert!(dom.contains("title=\"id "), "gpt2's ids on hover");
}
