//! What teachers asked for across the views: play speed for every demo (`{` `}`), the lower pane
//! maximised (`z`), and which version of the trained model the trained row shows.

use std::time::Duration;

use super::train::unigram::Algorithm;

/// The speeds of a playing demo in tenths of a step per second, slowest first; `{` and `}`
/// move along. Each is about 1.5 to 2 times the last, so every press changes the pace by a
/// similar felt amount (even steps on a log scale).
const TENTHS_PER_SECOND: [u64; 11] = [5, 10, 20, 30, 50, 70, 100, 150, 200, 300, 500];

/// The intervals between two steps of a playing demo, slowest first (from
/// [`TENTHS_PER_SECOND`]).
pub const SPEEDS: [Duration; 11] = {
    let mut out = [Duration::ZERO; 11];
    let mut i = 0;
    while i < out.len() {
        out[i] = Duration::from_micros(10_000_000 / TENTHS_PER_SECOND[i]);
        i += 1;
    }
    out
};

/// Where [`crate::tui::app::PLAY_STEP`] is in [`SPEEDS`]: 7 steps per second.
const DEFAULT_SPEED: usize = 5;

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
        if per_second < 0.95 {
            format!("{per_second:.1} steps/s")
        } else {
            format!("{:.0} steps/s", per_second.round())
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

#[cfg(test)]
mod tests {
    use super::{DEFAULT_SPEED, SPEEDS};

    #[test]
    fn each_speed_step_changes_the_pace_by_a_similar_factor() {
        for pair in SPEEDS.windows(2) {
            let factor = pair[0].as_secs_f64() / pair[1].as_secs_f64();
            assert!((1.3..=2.0).contains(&factor), "{pair:?}: ×{factor:.2}");
        }
        assert_eq!(SPEEDS[DEFAULT_SPEED], crate::tui::app::PLAY_STEP);
    }
}
