//! The post-processors of `tokenizer.json` (HuggingFace's `processors/`): the special tokens
//! put around an encoded text (`[CLS] … [SEP]`, `<s> …`). toklab applies them only when asked
//! (`?special=add`), so the ids then equal the reference's `encode(text,
//! add_special_tokens=True)`. `ByteLevel` as a post-processor only trims offsets: no tokens.

use serde_json::Value;

use super::json::{ComponentError, kind, list};
use crate::core::token::{Origin, Span, Token, TokenKind};
use crate::core::trace::{Role, TraceLine, quote};

/// One post-processor.
#[derive(Debug)]
pub enum PostProcessor {
    /// Each in turn.
    Sequence(Vec<PostProcessor>),
    /// Tokens before and after the text: `(text, id)` each.
    Around {
        /// Before the text.
        before: Vec<(String, u32)>,
        /// After the text.
        after: Vec<(String, u32)>,
    },
    /// No tokens (`ByteLevel`).
    Nothing,
}

/// A `[text, id]` pair of `BertProcessing` and `RobertaProcessing`.
fn pair(value: &Value, key: &str) -> Result<(String, u32), ComponentError> {
    let bad =
        || ComponentError::invalid(format!("{} {key} is not a [token, id] pair", kind(value)));
    let pair = value.get(key).and_then(Value::as_array).ok_or_else(bad)?;
    match pair.as_slice() {
        [Value::String(text), id] => Ok((text.clone(), id.as_u64().ok_or_else(bad)? as u32)),
        _ => Err(bad()),
    }
}

impl PostProcessor {
    /// Reads a post-processor; an unknown type is an error naming it.
    pub fn from_json(value: &Value) -> Result<PostProcessor, ComponentError> {
        Ok(match kind(value) {
            "Sequence" => PostProcessor::Sequence(
                list(value, "processors")?
                    .iter()
                    .map(PostProcessor::from_json)
                    .collect::<Result<_, ComponentError>>()?,
            ),
            "ByteLevel" => PostProcessor::Nothing,
            "BertProcessing" | "RobertaProcessing" => PostProcessor::Around {
                before: vec![pair(value, "cls")?],
                after: vec![pair(value, "sep")?],
            },
            "TemplateProcessing" => template(value)?,
            other => {
                return Err(ComponentError::unsupported(format!(
                    "post_processor {other} is not supported"
                )));
            }
        })
    }

    /// The tokens before and after a single text.
    pub fn around(&self, before: &mut Vec<(String, u32)>, after: &mut Vec<(String, u32)>) {
        match self {
            PostProcessor::Sequence(all) => {
                for processor in all {
                    processor.around(before, after);
                }
            }
            PostProcessor::Around {
                before: b,
                after: a,
            } => {
                before.splice(0..0, b.iter().cloned());
                after.extend(a.iter().cloned());
            }
            PostProcessor::Nothing => {}
        }
    }
}

/// `TemplateProcessing`'s template for a single text: the special tokens before and after `$A`.
fn template(value: &Value) -> Result<PostProcessor, ComponentError> {
    let specials = value.get("special_tokens").cloned().unwrap_or(Value::Null);
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut seen_text = false;
    for piece in list(value, "single")? {
        if let Some(sequence) = piece.get("Sequence") {
            if sequence.get("id").and_then(Value::as_str) != Some("A") {
                return Err(ComponentError::invalid(format!(
                    "TemplateProcessing single template uses sequence {sequence}"
                )));
            }
            seen_text = true;
            continue;
        }
        let name = piece
            .get("SpecialToken")
            .and_then(|s| s.get("id"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ComponentError::unsupported(format!(
                    "TemplateProcessing template piece {piece} is not supported"
                ))
            })?;
        let special = specials.get(name).ok_or_else(|| {
            ComponentError::invalid(format!(
                "TemplateProcessing special token {name} is not in special_tokens"
            ))
        })?;
        let ids = special
            .get("ids")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let texts = special
            .get("tokens")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for (i, id) in ids.iter().enumerate() {
            let id = id.as_u64().ok_or_else(|| {
                ComponentError::invalid(format!(
                    "TemplateProcessing special token {name} has id {id}"
                ))
            })?;
            let text = texts
                .get(i)
                .and_then(Value::as_str)
                .unwrap_or(name)
                .to_string();
            match seen_text {
                false => before.push((text, id as u32)),
                true => after.push((text, id as u32)),
            }
        }
    }
    Ok(PostProcessor::Around { before, after })
}

/// The post-processor's tokens (`special=add`) around `tokens`: empty spans at the text's start
/// and end, since they stand for no text; `trace` gets a line saying what was added.
pub(super) fn add_post_processed(
    post: &PostProcessor,
    text: &str,
    tokens: &mut Vec<Token>,
    trace: Option<&mut Vec<TraceLine>>,
) {
    let (mut before, mut after) = (Vec::new(), Vec::new());
    post.around(&mut before, &mut after);
    if let Some(lines) = trace
        && !(before.is_empty() && after.is_empty())
    {
        let show = |list: &[(String, u32)]| {
            list.iter()
                .map(|(t, id)| format!("{}:{id}", quote(t)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        lines.push(
            TraceLine::new(0, None)
                .part(Role::Label, "post-processor ")
                .part(
                    Role::Plain,
                    format!(
                        "adds [{}] before and [{}] after the text",
                        show(&before),
                        show(&after)
                    ),
                ),
        );
    }
    let at_start = before
        .iter()
        .map(|(t, id)| special(Span::new(0, 0), *id, t));
    let end = Span::new(text.len(), text.len());
    let at_end: Vec<Token> = after.iter().map(|(t, id)| special(end, *id, t)).collect();
    tokens.splice(0..0, at_start);
    tokens.extend(at_end);
}

/// A special token the post-processor adds.
fn special(span: Span, id: u32, text: &str) -> Token {
    Token::new(span, TokenKind::Special)
        .with_id(id)
        .with_origin(Origin::Subword { id, rank: None })
        .with_form(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(json: &str) -> (Vec<u32>, Vec<u32>) {
        let p = PostProcessor::from_json(&serde_json::from_str(json).unwrap()).unwrap();
        let (mut before, mut after) = (Vec::new(), Vec::new());
        p.around(&mut before, &mut after);
        (
            before.iter().map(|t| t.1).collect(),
            after.iter().map(|t| t.1).collect(),
        )
    }

    #[test]
    fn each_processor() {
        assert_eq!(
            around(r#"{"type":"BertProcessing","sep":["[SEP]",102],"cls":["[CLS]",101]}"#),
            (vec![101], vec![102])
        );
        assert_eq!(
            around(
                r#"{"type":"RobertaProcessing","sep":["</s>",2],"cls":["<s>",0],"trim_offsets":true,"add_prefix_space":true}"#
            ),
            (vec![0], vec![2])
        );
        let template = r#"{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"</s>","type_id":0}}],"pair":[],"special_tokens":{"<s>":{"id":"<s>","ids":[1],"tokens":["<s>"]},"</s>":{"id":"</s>","ids":[2],"tokens":["</s>"]}}}"#;
        assert_eq!(around(template), (vec![1], vec![2]));
        let sequence =
            format!(r#"{{"type":"Sequence","processors":[{{"type":"ByteLevel"}},{template}]}}"#);
        assert_eq!(around(&sequence), (vec![1], vec![2]));
    }
}
