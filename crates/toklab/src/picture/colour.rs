//! Token colours: one hue per token id, spread by the golden angle so neighbouring ids look
//! different, light enough for dark text on top; two alternating shades for tokens without ids.
//! Written as `#rrggbb` so every SVG renderer reads them.

/// The golden angle in degrees: consecutive ids land far apart on the colour wheel.
const GOLDEN_ANGLE: f64 = 137.507_764;

/// Hues of tokens without an id, alternating: blue and orange.
const ALTERNATING: [f64; 2] = [210.0, 30.0];

/// The fill and border colours of token `index` of a row, whose id is `id`.
pub(super) fn of(id: Option<u32>, index: usize) -> (String, String) {
    let hue = match id {
        Some(id) => (f64::from(id) * GOLDEN_ANGLE) % 360.0,
        None => ALTERNATING[index % 2],
    };
    (hex(hue, 0.70, 0.85), hex(hue, 0.45, 0.40))
}

/// `#rrggbb` of a colour given as hue (degrees), saturation and lightness (0 to 1).
fn hex(hue: f64, saturation: f64, lightness: f64) -> String {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let sector = hue / 60.0;
    let second = chroma * (1.0 - (sector % 2.0 - 1.0).abs());
    let (r, g, b) = match sector as u32 {
        0 => (chroma, second, 0.0),
        1 => (second, chroma, 0.0),
        2 => (0.0, chroma, second),
        3 => (0.0, second, chroma),
        4 => (second, 0.0, chroma),
        _ => (chroma, 0.0, second),
    };
    let lift = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + lift) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsl_converts_to_the_usual_hex() {
        assert_eq!(hex(0.0, 1.0, 0.5), "#ff0000");
        assert_eq!(hex(120.0, 1.0, 0.5), "#00ff00");
        assert_eq!(hex(240.0, 1.0, 0.25), "#000080");
        assert_eq!(hex(210.0, 0.0, 1.0), "#ffffff");
    }

    #[test]
    fn the_same_id_has_the_same_colour_anywhere_and_neighbours_differ() {
        assert_eq!(of(Some(42), 0), of(Some(42), 5));
        assert_ne!(of(Some(1), 0).0, of(Some(2), 0).0);
        assert_ne!(of(None, 0).0, of(None, 1).0);
        assert_eq!(of(None, 0), of(None, 2));
    }
}
