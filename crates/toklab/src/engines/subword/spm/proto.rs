//! The parts of SentencePiece's `ModelProto` that encoding needs, decoded by hand from the
//! protobuf wire format (field numbers from `sentencepiece_model.proto`). Errors give the byte
//! offset of the problem.

/// A piece's type, as the proto numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PieceType {
    /// An ordinary piece that encoding may produce.
    Normal,
    /// The piece that stands for text the vocabulary cannot spell.
    Unknown,
    /// A control symbol such as `<s>`, never matched in text.
    Control,
    /// A piece matched whole in the text before encoding.
    UserDefined,
    /// A piece kept in the vocabulary but never produced.
    Unused,
    /// A byte-fallback piece `<0xNN>`.
    Byte,
}

impl PieceType {
    fn from_number(n: u64) -> Option<PieceType> {
        Some(match n {
            1 => PieceType::Normal,
            2 => PieceType::Unknown,
            3 => PieceType::Control,
            4 => PieceType::UserDefined,
            5 => PieceType::Unused,
            6 => PieceType::Byte,
            _ => return None,
        })
    }
}

/// One vocabulary entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ProtoPiece {
    /// The piece's text, with `▁` for a space.
    pub piece: String,
    /// Its score: the log probability (unigram) or the merge priority (BPE).
    pub score: f32,
    /// How encoding treats it.
    pub kind: PieceType,
}

/// The model type (`TrainerSpec.model_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelType {
    /// The unigram language model (SentencePiece's default).
    Unigram,
    /// Byte pair encoding.
    Bpe,
    /// Whole words, split on whitespace.
    Word,
    /// Single characters.
    Char,
}

/// `NormalizerSpec`, with the proto defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalizerSpec {
    /// The normalization rule's name (`nmt_nfkc`, `identity`, ...).
    pub name: String,
    /// The compiled character map; empty for the identity.
    pub charsmap: Vec<u8>,
    /// Whether a space is put before the text, so the first word looks like the others.
    pub add_dummy_prefix: bool,
    /// Whether leading, trailing and repeated spaces are dropped.
    pub remove_extra_whitespaces: bool,
    /// Whether spaces become `▁` before encoding.
    pub escape_whitespaces: bool,
}

impl Default for NormalizerSpec {
    fn default() -> Self {
        NormalizerSpec {
            name: String::new(),
            charsmap: Vec::new(),
            add_dummy_prefix: true,
            remove_extra_whitespaces: true,
            escape_whitespaces: true,
        }
    }
}

/// What toklab reads from a `.model` file.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelProto {
    /// The vocabulary, in id order.
    pub pieces: Vec<ProtoPiece>,
    /// How the pieces are used to encode.
    pub model_type: ModelType,
    /// Whether unknown text is spelled as byte pieces instead of the unknown piece.
    pub byte_fallback: bool,
    /// Whether `▁` ends pieces rather than starting them.
    pub treat_whitespace_as_suffix: bool,
    /// How text is normalized before encoding.
    pub normalizer: NormalizerSpec,
}

/// A wire-format error: what was wrong and at which byte offset of the file.
#[derive(Debug, PartialEq, Eq)]
pub struct ProtoError {
    /// Byte offset in the file where decoding failed.
    pub offset: usize,
    /// What was wrong there.
    pub message: String,
}

enum Value<'a> {
    Varint(u64),
    Fixed32(u32),
    Fixed64,
    Bytes(&'a [u8], usize),
}

/// Iterates over the fields of one message, tracking absolute offsets for errors.
struct Fields<'a> {
    data: &'a [u8],
    at: usize,
    base: usize,
}

impl<'a> Fields<'a> {
    fn new(data: &'a [u8], base: usize) -> Self {
        Fields { data, at: 0, base }
    }

    fn error(&self, message: impl Into<String>) -> ProtoError {
        ProtoError {
            offset: self.base + self.at,
            message: message.into(),
        }
    }

    fn varint(&mut self) -> Result<u64, ProtoError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&byte) = self.data.get(self.at) else {
                return Err(self.error("truncated varint"));
            };
            self.at += 1;
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.error("varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], ProtoError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.data.len())
            .ok_or_else(|| self.error(format!("field of {n} bytes runs past the end")))?;
        let bytes = &self.data[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn next_field(&mut self) -> Option<Result<(u64, Value<'a>), ProtoError>> {
        if self.at >= self.data.len() {
            return None;
        }
        Some(self.field())
    }

    fn field(&mut self) -> Result<(u64, Value<'a>), ProtoError> {
        let key = self.varint()?;
        let number = key >> 3;
        let value = match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => {
                self.take(8)?;
                Value::Fixed64
            }
            2 => {
                let len = self.varint()?;
                let len = usize::try_from(len).map_err(|_| self.error("length too large"))?;
                let start = self.base + self.at;
                Value::Bytes(self.take(len)?, start)
            }
            5 => {
                let b = self.take(4)?;
                Value::Fixed32(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            }
            wire => return Err(self.error(format!("unsupported wire type {wire}"))),
        };
        Ok((number, value))
    }
}

fn utf8(bytes: &[u8], offset: usize, what: &str) -> Result<String, ProtoError> {
    String::from_utf8(bytes.to_vec()).map_err(|e| ProtoError {
        offset: offset + e.utf8_error().valid_up_to(),
        message: format!("{what} is not valid UTF-8"),
    })
}

fn wrong_type(offset: usize, what: &str) -> ProtoError {
    ProtoError {
        offset,
        message: format!("{what} has the wrong wire type"),
    }
}

/// Decodes a `ModelProto`.
pub fn parse(data: &[u8]) -> Result<ModelProto, ProtoError> {
    let mut model = ModelProto {
        pieces: Vec::new(),
        model_type: ModelType::Unigram,
        byte_fallback: false,
        treat_whitespace_as_suffix: false,
        normalizer: NormalizerSpec::default(),
    };
    let text_start = data.iter().find(|b| !b.is_ascii_whitespace());
    if matches!(text_start, Some(b'{' | b'[')) {
        return Err(ProtoError {
            offset: 0,
            message:
                "not a SentencePiece model: this is JSON (a tokenizer.json loads with bpe:PATH)"
                    .into(),
        });
    }
    let result = parse_fields(data, &mut model);
    // Nothing that reads as a piece before the first error: not a model at all.
    result.map_err(|e| match model.pieces.is_empty() {
        true => ProtoError {
            message: format!("not a SentencePiece model: {}", e.message),
            ..e
        },
        false => e,
    })?;
    Ok(model)
}

/// The fields of a `ModelProto` into `model`, checking that it is whole.
fn parse_fields(data: &[u8], model: &mut ModelProto) -> Result<(), ProtoError> {
    let mut fields = Fields::new(data, 0);
    let (mut trainer, mut normalizer) = (false, false);
    while let Some(field) = fields.next_field() {
        let at = fields.base + fields.at;
        match field? {
            (1, Value::Bytes(bytes, start)) => model.pieces.push(parse_piece(bytes, start)?),
            (2, Value::Bytes(bytes, start)) => {
                parse_trainer(bytes, start, model)?;
                trainer = true;
            }
            (3, Value::Bytes(bytes, start)) => {
                model.normalizer = parse_normalizer(bytes, start)?;
                normalizer = true;
            }
            (1..=3, _) => return Err(wrong_type(at, "a ModelProto field")),
            _ => {}
        }
    }
    if model.pieces.is_empty() {
        return Err(ProtoError {
            offset: data.len(),
            message: "it has no pieces".into(),
        });
    }
    // SentencePiece writes the pieces, then its trainer and normalizer specs: a file that
    // ends without them was cut short, however cleanly the cut fell between pieces.
    if !(trainer && normalizer) {
        return Err(ProtoError {
            offset: data.len(),
            message: format!(
                "the file ends after {} pieces with no {}: it is truncated or not a whole SentencePiece model",
                model.pieces.len(),
                if trainer {
                    "normalizer_spec"
                } else {
                    "trainer_spec"
                }
            ),
        });
    }
    Ok(())
}

fn parse_piece(data: &[u8], base: usize) -> Result<ProtoPiece, ProtoError> {
    let mut piece = ProtoPiece {
        piece: String::new(),
        score: 0.0,
        kind: PieceType::Normal,
    };
    let mut fields = Fields::new(data, base);
    while let Some(field) = fields.next_field() {
        let at = fields.base + fields.at;
        match field? {
            (1, Value::Bytes(bytes, start)) => piece.piece = utf8(bytes, start, "a piece")?,
            (2, Value::Fixed32(bits)) => piece.score = f32::from_bits(bits),
            (3, Value::Varint(n)) => {
                piece.kind = PieceType::from_number(n).ok_or_else(|| ProtoError {
                    offset: at,
                    message: format!("unknown piece type {n}"),
                })?
            }
            (1..=3, _) => return Err(wrong_type(at, "a SentencePiece field")),
            _ => {}
        }
    }
    Ok(piece)
}

fn parse_trainer(data: &[u8], base: usize, model: &mut ModelProto) -> Result<(), ProtoError> {
    let mut fields = Fields::new(data, base);
    while let Some(field) = fields.next_field() {
        let at = fields.base + fields.at;
        match field? {
            (3, Value::Varint(n)) => {
                model.model_type = match n {
                    1 => ModelType::Unigram,
                    2 => ModelType::Bpe,
                    3 => ModelType::Word,
                    4 => ModelType::Char,
                    _ => {
                        return Err(ProtoError {
                            offset: at,
                            message: format!("unknown model type {n}"),
                        });
                    }
                }
            }
            (24, Value::Varint(n)) => model.treat_whitespace_as_suffix = n != 0,
            (35, Value::Varint(n)) => model.byte_fallback = n != 0,
            (3 | 24 | 35, _) => return Err(wrong_type(at, "a TrainerSpec field")),
            _ => {}
        }
    }
    Ok(())
}

fn parse_normalizer(data: &[u8], base: usize) -> Result<NormalizerSpec, ProtoError> {
    let mut spec = NormalizerSpec::default();
    let mut fields = Fields::new(data, base);
    while let Some(field) = fields.next_field() {
        let at = fields.base + fields.at;
        match field? {
            (1, Value::Bytes(bytes, start)) => {
                spec.name = utf8(bytes, start, "the normalizer name")?
            }
            (2, Value::Bytes(bytes, _)) => spec.charsmap = bytes.to_vec(),
            (3, Value::Varint(n)) => spec.add_dummy_prefix = n != 0,
            (4, Value::Varint(n)) => spec.remove_extra_whitespaces = n != 0,
            (5, Value::Varint(n)) => spec.escape_whitespaces = n != 0,
            (1..=5, _) => return Err(wrong_type(at, "a NormalizerSpec field")),
            _ => {}
        }
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn bytes_field(number: u64, payload: &[u8], out: &mut Vec<u8>) {
        varint(number << 3 | 2, out);
        varint(payload.len() as u64, out);
        out.extend_from_slice(payload);
    }

    #[test]
    fn minimal_model() {
        let mut piece = Vec::new();
        bytes_field(1, "▁a".as_bytes(), &mut piece);
        piece.push(2 << 3 | 5);
        piece.extend_from_slice(&(-1.5f32).to_le_bytes());
        piece.push(3 << 3);
        piece.push(1);
        let mut trainer = Vec::new();
        trainer.push(3 << 3);
        trainer.push(2);
        varint(35 << 3, &mut trainer);
        trainer.push(1);
        let mut normalizer = Vec::new();
        bytes_field(1, b"identity", &mut normalizer);
        let mut data = Vec::new();
        bytes_field(1, &piece, &mut data);
        let pieces_only = data.clone();
        bytes_field(2, &trainer, &mut data);
        let without_normalizer = data.clone();
        bytes_field(3, &normalizer, &mut data);
        let model = parse(&data).unwrap();
        assert_eq!(model.pieces[0].piece, "▁a");
        assert_eq!(model.pieces[0].score, -1.5);
        assert_eq!(model.model_type, ModelType::Bpe);
        assert!(model.byte_fallback);
        assert!(model.normalizer.add_dummy_prefix);
        let e = parse(&data[..data.len() - 2]).unwrap_err();
        assert!(e.message.contains("past the end"), "{e:?}");
        // Cut cleanly between fields: still refused.
        let e = parse(&pieces_only).unwrap_err();
        assert!(e.message.contains("no trainer_spec"), "{e:?}");
        assert!(e.message.contains("truncated"), "{e:?}");
        let e = parse(&without_normalizer).unwrap_err();
        assert!(e.message.contains("no normalizer_spec"), "{e:?}");
    }

    #[test]
    fn json_and_garbage_are_not_models() {
        let e = parse(b"{\"model\": {}}").unwrap_err();
        assert!(
            e.message
                .starts_with("not a SentencePiece model: this is JSON"),
            "{e:?}"
        );
        let e = parse(&[0xff, 0xff]).unwrap_err();
        assert!(e.message.starts_with("not a SentencePiece model"), "{e:?}");
    }
}
