//! Copying to the clipboard with the OSC 52 escape: the terminal (or tmux with
//! `set-clipboard on`, or the terminal at the other end of an ssh session) puts the text on
//! its clipboard, so copying works where no local clipboard program could be reached.

/// The escape that asks the terminal to put `text` on the system clipboard (`c`).
pub fn sequence(text: &str) -> Vec<u8> {
    let mut out = b"\x1b]52;c;".to_vec();
    out.extend(base64(text.as_bytes()).into_bytes());
    // BEL ends it: every terminal that knows OSC 52 accepts it, where some mishandle ST.
    out.push(0x07);
    out
}

/// Standard base64 with padding (RFC 4648 §4), which OSC 52 carries.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_vectors() {
        // RFC 4648 §10.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain:?}");
        }
    }

    #[test]
    fn the_escape_carries_utf8_text() {
        // "日本 é" is e6 97 a5 e6 9c ac 20 c3 a9.
        assert_eq!(sequence("日本 é"), b"\x1b]52;c;5pel5pysIMOp\x07".to_vec());
    }
}
