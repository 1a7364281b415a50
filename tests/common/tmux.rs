//! Driving the real binary in a real terminal: tmux runs `toklab`, the test sends keys and
//! reads the screen. Every wait polls the screen, so the tests are as fast as the program.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux session running a shell, on a tmux server of its own (its own socket, no
/// configuration file), killed with that server when dropped: tests running side by side never
/// share a server, so one test ending its session can never take down another's server while
/// that one is still connecting.
pub struct Session {
    name: String,
    socket: PathBuf,
    // Holds the socket; removed after the server is killed.
    _socket_dir: tempfile::TempDir,
}

/// A tmux command addressed to the server on `socket`, which reads no configuration file.
pub fn tmux_on(socket: &Path) -> Command {
    let mut command = Command::new("tmux");
    command.arg("-S").arg(socket).args(["-f", "/dev/null"]);
    command
}

/// Whether tmux is installed; without it the tests are skipped, except in CI (`CI=true`),
/// where `.ci/run` installs it and its absence is a failure.
pub fn available(test: &str) -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{test}: tmux is not installed; CI requires it");
        }
        super::skip_note(&format!("{test}: skipped: tmux is not installed"));
    }
    found
}

impl Session {
    /// Starts a `width`×`height` terminal running a plain shell in `dir`, with `env` set.
    pub fn start(name: &str, width: u16, height: u16, dir: &Path, env: &[(&str, &str)]) -> Session {
        let name = format!("toklab-{name}-{}", std::process::id());
        let socket_dir = tempfile::tempdir().expect("a folder for the tmux socket");
        let socket = socket_dir.path().join("tmux");
        let mut command = tmux_on(&socket);
        command
            .args([
                "new-session",
                "-d",
                "-s",
                &name,
                "-x",
                &width.to_string(),
                "-y",
                &height.to_string(),
            ])
            .arg("-c")
            .arg(dir)
            .args(["env", "PS1=$ ", "TERM=xterm-256color"]);
        for (k, v) in env {
            command.arg(format!("{k}={v}"));
        }
        command.args(["bash", "--norc", "--noprofile"]);
        let status = command.status().expect("run tmux");
        assert!(status.success(), "tmux new-session failed");
        Session {
            name,
            socket,
            _socket_dir: socket_dir,
        }
    }

    /// A tmux command addressed to this session's server.
    pub fn tmux(&self) -> Command {
        tmux_on(&self.socket)
    }

    /// Types a shell command line and presses Enter.
    pub fn run(&self, line: &str) {
        self.keys(&["-l", line]);
        self.keys(&["Enter"]);
    }

    /// Sends tmux key names (`j`, `Enter`, `Escape`, `C-c`, or `-l TEXT` for literal text).
    pub fn keys(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// The screen as text.
    pub fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A tmux format evaluated for the pane (`#{alternate_on}`, `#{mouse_any_flag}`, …).
    pub fn pane_format(&self, format: &str) -> String {
        let out = self
            .tmux()
            .args(["display-message", "-p", "-t", &self.name, format])
            .output()
            .expect("tmux display-message");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Waits until the screen satisfies `ready` (10 s at most), returning it.
    pub fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Waits until the screen contains `text`.
    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
    }
}

impl Session {
    /// The terminal device of the session's pane, to write to it from outside as another
    /// program would.
    pub fn tty(&self) -> String {
        let out = self
            .tmux()
            .args(["display-message", "-p", "-t", &self.name, "#{pane_tty}"])
            .output()
            .expect("tmux display-message");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}
