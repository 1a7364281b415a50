//! A `tokenizer.json` in the model cache ([`crate::core::model_cache`]): the file with its
//! vocabulary and merges taken out (a few kilobytes of JSON: the normalizer, pre-tokenizer,
//! added tokens, post-processor and decoder, parsed as usual on every load) and the model in its
//! flat form. The parts parsed from JSON stay on one path, so a cached pipeline cannot differ
//! from a parsed one in anything but the model, whose flat form is checked as it is read.

use std::path::Path;

use super::json::TokenizerJson;
use super::models::Model;
use super::pipeline::{Pipeline, Specials};
use crate::core::error::Error;
use crate::core::model_cache::{FlatReader, FlatWriter, read_warnings, write_warnings};

/// `text` with the model's vocabulary and merges replaced by `null`; `None` when their place
/// in the text cannot be found (the file is then not cached).
pub fn skeleton(text: &str, json: &TokenizerJson) -> Option<String> {
    let mut cuts: Vec<std::ops::Range<usize>> = [Some(json.model.vocab), json.model.merges]
        .into_iter()
        .flatten()
        .map(|raw| offset_in(text, raw.get()))
        .collect::<Option<_>>()?;
    cuts.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(4096);
    let mut at = 0;
    for cut in cuts {
        out.push_str(text.get(at..cut.start)?);
        out.push_str("null");
        at = cut.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// Where `part`, a slice borrowed from `text`, lies in it.
fn offset_in(text: &str, part: &str) -> Option<std::ops::Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    (end <= text.len()).then_some(start..end)
}

/// The payload for a pipeline just parsed from `path`.
pub fn entry(
    path: &Path,
    skeleton: &str,
    byte_level: bool,
    warnings: &[String],
    pipeline: &Pipeline,
) -> Vec<u8> {
    let mut w = FlatWriter::new();
    w.str(skeleton);
    w.bool(byte_level);
    write_warnings(&mut w, path, warnings);
    pipeline.model.write_flat(&mut w);
    w.into_bytes()
}

/// The pipeline from a payload [`entry`] wrote, with the model's warnings added to
/// `warnings`; `None` when it does not decode whole (the file is then parsed again).
pub fn pipeline(
    path: &Path,
    mut r: FlatReader,
    specials: Specials,
    warnings: &mut Vec<String>,
) -> Option<Pipeline> {
    let skeleton = r.str()?;
    let byte_level = r.bool()?;
    let model_warnings = read_warnings(&mut r, path)?;
    let model = Model::read_flat(&mut r)?;
    if !r.finished() {
        return None;
    }
    let json: TokenizerJson = serde_json::from_str(skeleton).ok()?;
    let pipeline = Pipeline::assemble(path, skeleton, json, specials, |_, wanted| {
        match wanted == byte_level {
            true => Ok(model),
            false => Err(Error::format(
                path,
                None,
                "the cached model is not byte-level",
            )),
        }
    })
    .ok()?;
    warnings.extend(model_warnings);
    Some(pipeline)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample tokenizer.json's payload, as [`entry`] writes it.
    fn sample_payload(path: &Path) -> Vec<u8> {
        let text = std::fs::read_to_string(path).unwrap();
        let json: TokenizerJson = serde_json::from_str(&text).unwrap();
        let skeleton = skeleton(&text, &json).unwrap();
        assert!(skeleton.len() < 2000 && skeleton.contains("\"vocab\": null"));
        let mut warnings = Vec::new();
        let pipeline = Pipeline::load(path, Specials::Match, &mut warnings).unwrap();
        entry(path, &skeleton, true, &warnings, &pipeline)
    }

    #[test]
    fn a_payload_cut_or_changed_anywhere_decodes_to_none_or_a_pipeline_never_a_panic() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/bpe/tokenizer.json");
        let payload = sample_payload(&path);
        let mut warnings = Vec::new();
        let whole = pipeline(
            &path,
            FlatReader::new(&payload),
            Specials::Match,
            &mut warnings,
        )
        .unwrap();
        let ids = |p: &Pipeline| {
            let mut ids = Vec::new();
            p.encode_ids("lower newer", Specials::Match, &mut ids);
            ids
        };
        assert_eq!(ids(&whole), [76, 419, 264, 397, 264]);
        for cut in 0..payload.len() {
            assert!(
                pipeline(
                    &path,
                    FlatReader::new(&payload[..cut]),
                    Specials::Match,
                    &mut warnings
                )
                .is_none()
            );
        }
        for at in (0..payload.len()).step_by(11) {
            for flip in [0x01, 0xff] {
                let mut changed = payload.clone();
                changed[at] ^= flip;
                if let Some(p) = pipeline(
                    &path,
                    FlatReader::new(&changed),
                    Specials::Match,
                    &mut warnings,
                ) {
                    let _ = ids(&p);
                }
            }
        }
    }
}
