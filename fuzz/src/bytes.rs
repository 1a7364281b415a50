//! Mutations of a model file's bytes for the loader targets: flips, overwrites, cuts,
//! duplicated and deleted ranges, and tokens that parsers trip on (huge numbers, quotes,
//! brackets, line breaks). A gzip file (foma's .fst) is mutated inside its compression too,
//! so the parser behind the gzip layer gets reached.

use std::io::{Read, Write};

use crate::rng::Rng;

const TOKENS: &[&[u8]] = &[
    b"18446744073709551615",
    b"4294967296",
    b"-1",
    b"0",
    b"999999999",
    b"\"",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b"\\u0000",
    b"\\ud800",
    b"#",
    b"::",
    b"\xff",
    b"\xc3",
    b"\x00",
    b"null",
    b"true",
    b"<|endoftext|>",
    b"##",
];

/// A mutated copy of `original` (1–4 mutations).
pub fn mutate(rng: &mut Rng, original: &[u8]) -> Vec<u8> {
    if original.starts_with(&[0x1f, 0x8b])
        && !rng.one_in(4)
        && let Some(inner) = gunzip(original)
    {
        return gzip(&mutate_plain(rng, &inner));
    }
    mutate_plain(rng, original)
}

fn mutate_plain(rng: &mut Rng, original: &[u8]) -> Vec<u8> {
    let mut data = original.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = data.len();
        let at = rng.below(len + 1);
        match rng.below(8) {
            0 if len > 0 => data[at.min(len - 1)] ^= 1 << rng.below(8),
            1 if len > 0 => data[at.min(len - 1)] = rng.next_u64() as u8,
            2 => data.truncate(at),
            3 => {
                let end = (at + rng.below(64)).min(len);
                data.drain(at..end);
            }
            4 => {
                let end = (at + rng.below(256)).min(len);
                let copy = data[at..end].to_vec();
                let to = rng.below(data.len() + 1);
                data.splice(to..to, copy);
            }
            5 | 6 => {
                let token = *rng.pick(TOKENS);
                data.splice(at..at, token.iter().copied());
            }
            _ => {
                // Replace a run of digits with a huge number: counts and ids.
                if let Some(start) = (at..len).find(|&i| data[i].is_ascii_digit()) {
                    let end = (start..len)
                        .find(|&i| !data[i].is_ascii_digit())
                        .unwrap_or(len);
                    data.splice(start..end, rng.pick(TOKENS).iter().copied());
                }
            }
        }
    }
    data
}

fn gunzip(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data)
        .take(64 << 20)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(data).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}
