//! The workbench: state ([`app`]), input ([`input`]) and rendering ([`view`]) kept apart, and
//! no engine logic; this module only runs the loop and owns the terminal.

pub mod app;
pub mod document;
pub mod input;
pub mod layout;
pub mod theme;
pub mod view;

use std::io::{self, Stdout};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};

use app::App;
use theme::Theme;

/// Options of the terminal itself.
#[derive(Clone, Copy, Debug)]
pub struct TerminalOptions {
    pub mouse: bool,
}

/// Runs the workbench until the user quits. The terminal is restored on every way out:
/// normal return, error, and panic (the panic hook restores before the message prints).
pub fn run(mut app: App, theme: Theme, options: TerminalOptions) -> io::Result<()> {
    let mut terminal = TerminalGuard::enter(options)?;
    let mut regions = view::Regions::default();
    while !app.quit {
        app.tick();
        terminal.terminal.draw(|frame| {
            let (viewport, drawn) = view::draw(frame, &app, &theme);
            app.viewport = viewport;
            regions = drawn;
        })?;
        // Poll so that background indexing progress shows without a key press.
        if !event::poll(Duration::from_millis(if app.doc.is_indexed() {
            1000
        } else {
            100
        }))? {
            continue;
        }
        let event = event::read()?;
        if let Some(action) = input::action_for(&event, &regions) {
            app.apply(action);
        }
    }
    Ok(())
}

/// Raw mode, the alternate screen and (optionally) mouse capture, undone on drop.
struct TerminalGuard {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    mouse: bool,
}

impl TerminalGuard {
    fn enter(options: TerminalOptions) -> io::Result<TerminalGuard> {
        let previous = std::panic::take_hook();
        let mouse = options.mouse;
        std::panic::set_hook(Box::new(move |info| {
            restore(mouse);
            previous(info);
        }));
        terminal::enable_raw_mode()?;
        let mut stdout = io::stdout();
        let entered = execute!(stdout, EnterAlternateScreen, cursor::Hide).and_then(|()| {
            if mouse {
                execute!(stdout, EnableMouseCapture)
            } else {
                Ok(())
            }
        });
        if let Err(e) = entered {
            restore(mouse);
            return Err(e);
        }
        let terminal =
            Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| restore(mouse))?;
        Ok(TerminalGuard { terminal, mouse })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore(self.mouse);
    }
}

/// Puts the terminal back as it was; safe to call more than once.
fn restore(mouse: bool) {
    let mut stdout = io::stdout();
    if mouse {
        let _ = execute!(stdout, DisableMouseCapture);
    }
    let _ = execute!(stdout, LeaveAlternateScreen, cursor::Show);
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
