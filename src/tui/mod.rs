//! The workbench: the document, rows and jobs ([`app`]), one folder per lower-pane view
//! ([`panes`]: its state, drawing and keys), one table of key bindings ([`keymap`], read by
//! [`input`] and [`keys`] and drawn by the help) and the frame ([`view`]), and
//! no engine logic; this module only runs the loop, performs the file work the state asks for
//! ([`effect`]) and owns the terminal.

pub mod app;
pub mod document;
pub mod editor;
pub mod effect;
pub mod input;
pub mod keymap;
pub mod keys;
pub mod layout;
pub mod osc52;
pub mod panes;
pub mod theme;
pub mod view;
pub mod width;

use std::io::{self, Stdout};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use ratatui::crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};

use app::App;
use theme::Theme;

/// Runs the workbench until the user quits. The terminal is restored on every way out:
/// normal return, error, panic (the panic hook restores before the message prints), and the
/// signals that end a program (a thread of their own restores it, even while the UI thread is
/// busy).
pub fn run(mut app: App, theme: Theme) -> io::Result<()> {
    let mut guard = TerminalGuard::enter(app.mouse)?;
    let mut regions = view::Regions::default();
    let mut prefix = keys::Prefix::default();
    while !app.quit {
        app.tick();
        if app.mouse != guard.mouse {
            guard.set_mouse(app.mouse)?;
        }
        if std::mem::take(&mut app.redraw) {
            guard.terminal.clear()?;
        }
        guard.terminal.draw(|frame| {
            let (viewport, drawn) = view::draw(frame, &app, &theme);
            app.viewport = viewport;
            regions = drawn;
        })?;
        // Poll often while background work runs so its progress shows; otherwise often enough
        // to notice a watched rule file change.
        let timeout = Duration::from_millis(if app.busy() { 40 } else { 250 });
        if !event::poll(timeout)? {
            continue;
        }
        // Handle every event that is already waiting before drawing again, so holding a key
        // down never queues frames.
        loop {
            let event = event::read()?;
            #[cfg(debug_assertions)]
            planted_panic(&event);
            match &event {
                Event::Paste(text) => app.paste(text),
                Event::Key(key) if key.kind == event::KeyEventKind::Release => {}
                _ => {
                    for action in prefix.actions(&event, &app, &regions) {
                        app.apply(action);
                    }
                }
            }
            // File work the action asked for, done before the next event sees the state.
            effect::perform_all(&mut app);
            if !app.to_terminal.is_empty() {
                use std::io::Write;
                let backend = guard.terminal.backend_mut();
                let bytes = std::mem::take(&mut app.to_terminal);
                if let Err(e) = backend.write_all(&bytes).and_then(|()| backend.flush()) {
                    app.flash(format!("could not copy to the clipboard: {e}"));
                }
            }
            if app.quit || !event::poll(Duration::ZERO)? {
                break;
            }
        }
    }
    Ok(())
}

/// Debug builds only: with `TOKLAB_TEST_PANIC` set, F12 panics, so a test can check that a
/// panic in the workbench gives the terminal back.
#[cfg(debug_assertions)]
fn planted_panic(event: &Event) {
    use ratatui::crossterm::event::{KeyCode, KeyEvent};
    if let Event::Key(KeyEvent {
        code: KeyCode::F(12),
        ..
    }) = event
        && std::env::var_os("TOKLAB_TEST_PANIC").is_some()
    {
        panic!("planted panic (TOKLAB_TEST_PANIC and F12)");
    }
}

/// Raw mode, the alternate screen, bracketed paste and (optionally) mouse capture, undone on
/// drop.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    mouse: bool,
}

impl TerminalGuard {
    fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // A background job's panic ends only that job (it reports "stopped
            // unexpectedly"); printing over the screen or leaving it would break the
            // workbench, which goes on.
            let worker = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("toklab-"));
            if !worker {
                restore();
                previous(info);
            }
        }));
        restore_on_signals()?;
        terminal::enable_raw_mode()?;
        let mut stdout = io::stdout();
        let entered = execute!(
            stdout,
            EnterAlternateScreen,
            cursor::Hide,
            EnableBracketedPaste
        )
        .and_then(|()| {
            if mouse {
                execute!(stdout, EnableMouseCapture)
            } else {
                Ok(())
            }
        });
        if let Err(e) = entered {
            restore();
            return Err(e);
        }
        if let Some(model) = width::Model::probe(|sample| probe_width(&mut stdout, sample)) {
            width::set_model(model);
        }
        let terminal = Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| restore())?;
        Ok(TerminalGuard { terminal, mouse })
    }

    fn set_mouse(&mut self, on: bool) -> io::Result<()> {
        if on {
            execute!(io::stdout(), EnableMouseCapture)?;
        } else {
            execute!(io::stdout(), DisableMouseCapture)?;
        }
        self.mouse = on;
        Ok(())
    }
}

/// The cells the terminal takes to draw `sample` alone: drawn at the top-left corner of the
/// (not yet drawn) alternate screen, then the cursor's column is asked for. `None` when the
/// terminal does not answer.
fn probe_width(out: &mut Stdout, sample: &str) -> Option<usize> {
    use std::io::Write;
    execute!(out, cursor::MoveTo(0, 0)).ok()?;
    out.write_all(sample.as_bytes()).ok()?;
    out.flush().ok()?;
    let (column, _) = cursor::position().ok()?;
    execute!(
        out,
        cursor::MoveTo(0, 0),
        terminal::Clear(terminal::ClearType::CurrentLine)
    )
    .ok()?;
    Some(column as usize)
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// On SIGTERM, SIGHUP, SIGINT or SIGQUIT: restores the terminal and exits with 128 + the
/// signal's number, as a shell reports a program a signal ended. Without this the default
/// action would kill the program with the terminal raw, on the alternate screen, with mouse
/// capture on.
fn restore_on_signals() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    std::thread::Builder::new()
        .name("toklab-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                restore();
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}

/// Puts the terminal back as it was; safe to call more than once, and harmless for modes that
/// were never switched on.
pub(crate) fn restore() {
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
}

/// Draws `app` once on a test backend: for tests and for measuring frame time.
pub fn render_to_buffer(
    app: &mut App,
    theme: &Theme,
    width: u16,
    height: u16,
) -> ratatui::buffer::Buffer {
    let mut terminal =
        Terminal::new(ratatui::backend::TestBackend::new(width, height)).expect("test backend");
    terminal
        .draw(|frame| {
            let (viewport, _) = view::draw(frame, app, theme);
            app.viewport = viewport;
        })
        .expect("draw on test backend");
    terminal.backend().buffer().clone()
}
