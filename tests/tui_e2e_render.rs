//! The workbench's picture export in a real terminal: rows labelled `LABEL=SPEC` and by file
//! name, `E` writes the current line as SVG and HTML and names the files in the status bar.

use crate::common::tmux::{Session, available};

#[test]
fn e_exports_the_line_and_labels_name_the_rows() {
    if !available("e_exports_the_line_and_labels_name_the_rows") {
        return;
    }
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("t.txt");
    std::fs::write(&text, "first line\nsecond line here\n").unwrap();
    let s = Session::start("render", 100, 60, dir.path(), &[]);
    s.run(&format!(
        "{} --with white=ws --with bpe:{}/samples/bpe/gpt2 t.txt; echo toklab-exited-$?",
        env!("CARGO_BIN_EXE_toklab"),
        repo.display()
    ));
    // The labels: as given, and from the model's folder name (the spec is long).
    let screen = s.wait_for("rows loaded", |screen| {
        screen.contains("line 1 · 2 tokenizers") && !screen.contains("loading…")
    });
    let rows = screen.split("line 1 · 2 tokenizers").nth(1).unwrap();
    assert!(rows.contains("│white  first·line"), "{screen}");
    assert!(rows.contains("│gpt2 "), "{screen}");
    assert!(
        !rows.contains("samples/bpe/gpt2"),
        "no path as a label:\n{screen}"
    );
    s.keys(&["j", "P"]);
    let screen = s.wait_text("wrote ");
    assert!(screen.contains("toklab-line2.svg"), "{screen}");
    let svg = std::fs::read_to_string(dir.path().join("toklab-line2.svg")).unwrap();
    assert!(svg.contains(">line 2: second line here</text>"), "{svg}");
    assert!(
        svg.contains(">white</text>") && svg.contains(">gpt2</text>"),
        "{svg}"
    );
    let html = std::fs::read_to_string(dir.path().join("toklab-line2.html")).unwrap();
    assert!(html.contains("title=\"id "), "gpt2's ids on hover: {html}");
    // The help lists the key.
    s.keys(&["?"]);
    s.wait_text("export the line's rows");
    s.keys(&["Escape"]);
    s.wait_for("help closed", |screen| {
        !screen.contains("export the line's rows")
    });
    s.keys(&["q"]);
    s.wait_text("toklab-exited-0");
}
