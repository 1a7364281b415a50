//! What teachers asked for across the views: play speed for every demo (`{` `}`), the lower pane
//! maximised (`z`), and which version of the trained model the trained row shows.

use std::time::Duration;

use super::train::unigram::Algorithm;

/// The intervals between two steps of a playing demo, slowest first; `{` and `}` move along.
pub const SPEEDS: [Duration; 7] = [
    Duration::from_millis(2000),
    Duration::from_millis(1000),
    Duration::from_millis(500),
    Duration::from_millis(300),
    Duration::from_millis(150),
    Duration::from_millis(60),
    Duration::from_millis(20),
];

/// Where [`crate::tui::app::PLAY_STEP`] is in [`SPEEDS`].
const DEFAULT_SPEED: usize = 4;

/// Speed and layout settings of the lessons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeachSettings {
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The lower pane takes the whole screen but the status bar (`z`).
    pub maximised: bool,
    /// The algorithm and version of the training demo the trained row shows.
    pub row_version: Option<(Algorithm, u64)>,
}

impl Default for TeachSettings {
    fn default() -> Self {
        TeachSettings {
            speed: DEFAULT_SPEED,
            maximised: false,
            row_version: None,
        }
    }
}

impl TeachSettings {
    pub fn play_step(&self) -> Duration {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)]
    }

    /// The speed as the status line shows it.
    pub fn describe(&self) -> String {
        let per_second = 1.0 / self.play_step().as_secs_f64();
        if per_second < 1.0 {
            format!("{per_second:.1} steps/s")
        } else {
            format!("{per_second:.0} steps/s")
        }
    }
}

impl super::Panes {
    /// Whether a demo is playing (the status line then shows the speed).
    pub fn demo_playing(&self) -> bool {
        self.merges.replay.playing.is_some()
            || self.align.choice.playing.is_some()
            || self.train.playing()
    }
}
