//! `toklab tokenize`: a streaming filter, one output record per input line.

use std::io::{self, Write};
use std::process::ExitCode;

use super::input::{Batch, Lines};
use crate::output::{self, Format};
use toklab::core::batch;
use toklab::core::pieces::{PIECE_BYTES, Pieces, shift_gave_up};
use toklab::engines::fst::{FstTokenizer, StreamFormat};

#[derive(clap::Args)]
pub struct Args {
    /// The tokenizer, as a spec (see `toklab kinds`).
    #[arg(long = "with", short = 'w', value_name = "SPEC")]
    with: String,
    /// Output format.
    #[arg(long, short = 'f', value_parser = super::choice::choice::<Format>(), default_value = "text")]
    format: Format,
    /// Write the bytes exactly even to a terminal (there, control characters are otherwise
    /// shown as pictures such as `␛`; to a pipe or a file the output is always exact).
    #[arg(long)]
    raw: bool,
    /// Replace invalid UTF-8 with U+FFFD instead of stopping (a warning counts the lines).
    #[arg(long)]
    lossy: bool,
    /// Threads to tokenize on (the output is the same, in input order); default: every core.
    #[arg(long, short = 'j', value_name = "N", value_parser = super::threads)]
    threads: Option<u32>,
    /// Input file; standard input when absent or `-`.
    input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tokenizer = super::load(&args.with)?;
    let mut lines = Lines::open(args.input.as_deref(), args.lossy)?;
    let mut out = super::data_stdout(args.raw);
    let threads = args
        .threads
        .map_or_else(batch::default_threads, |n| n as usize);
    let mut failed = false;
    let name = lines.name().to_string();
    let tokenizer_name = tokenizer.name().to_string();
    let spare = Spare::default();
    let result = batch::ordered_map(
        threads,
        || lines.next_batch(),
        |mut batch| {
            let long = long_line(tokenizer.as_ref(), args.format, &mut batch);
            let buffer = spare.take();
            let records = records(tokenizer.as_ref(), args.format, &batch, buffer);
            // The batch goes back to the reading thread to be freed there: its lines were
            // allocated there, and freeing them on a worker made the two threads take turns
            // at the allocator's lock (8,400 futex calls on 16 MB of `ws`, against 20).
            (records.map(|r| (r, long)), batch)
        },
        |(records, batch)| {
            drop(batch);
            let ((records, mut gave_up_on), long) = records?;
            out.write_all(&records)?;
            spare.give(records);
            if let Some((number, text)) = long
                && let Some(at) = stream_line(tokenizer.as_ref(), args.format, &text, &mut out)?
            {
                gave_up_on.push((number, at));
            }
            if !gave_up_on.is_empty() {
                out.flush()?;
            }
            for (number, gave_up) in gave_up_on {
                failed |=
                    super::gave_up::report(&format!("{name}:{number}"), &tokenizer_name, &gave_up);
            }
            Ok(())
        },
    )
    .and_then(|()| Ok(out.flush()?));
    lines.report();
    let exit = super::finish_output(result)?;
    Ok(if failed { ExitCode::FAILURE } else { exit })
}

/// Output buffers written and free to fill again. With several threads a batch's records are
/// built on a worker and freed by the writer; freed into the worker's allocator arena, the
/// pages of a megabyte buffer went back to the system and the next batch touched them afresh:
/// two threads on 16 MB of `ws` took 2,600 more page faults than one. Handing each written
/// buffer back keeps its pages.
#[derive(Default)]
struct Spare(std::sync::Mutex<Vec<Vec<u8>>>);

impl Spare {
    /// A written buffer (empty, with its capacity), or a new one.
    fn take(&self) -> Vec<u8> {
        self.0
            .lock()
            .ok()
            .and_then(|mut v| v.pop())
            .unwrap_or_default()
    }

    /// Keeps `buffer` for a later batch.
    fn give(&self, mut buffer: Vec<u8>) {
        buffer.clear();
        if let Ok(mut spare) = self.0.lock() {
            spare.push(buffer);
        }
    }
}

/// A line where the tokenizer gave up on the rest (a regex over its backtrack limit, the rule
/// engine's depth limit): its number, and where and why.
type GaveUp = (usize, toklab::GaveUp);

/// Lines longer than this are written piece by piece in the formats that allow it (text and
/// ids), so a huge line costs its text and a few pieces' tokens rather than tokens and output
/// for all of it.
const STREAMED_LINE: usize = 4 * PIECE_BYTES;

/// The batch's last line, taken out of it with its number, when it is to be streamed
/// ([`stream_line`]): only the last line of a batch can be that long, since a batch ends at
/// its first long line, and a long line elsewhere is simply written whole.
fn long_line(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    batch: &mut Batch,
) -> Option<(usize, String)> {
    let streams = matches!(format, Format::Text | Format::Ids)
        && automaton_stream(tokenizer, format).is_none();
    if !streams || batch.texts.last()?.len() <= STREAMED_LINE {
        return None;
    }
    let text = batch.texts.pop()?;
    Some((batch.first + batch.texts.len(), text))
}

/// Writes the record of one long line in `format` (text or ids) piece by piece, where the
/// tokenizer says the line may be cut ([`Pieces`]): the bytes are those of the record written
/// whole. Returns where the tokenizer gave up first, in offsets of the line.
fn stream_line(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    text: &str,
    out: &mut dyn Write,
) -> io::Result<Option<toklab::GaveUp>> {
    let (mut record, mut ids) = (Vec::new(), Vec::new());
    let mut gave_up = None;
    let mut more = false;
    let mut pieces = Pieces::new(tokenizer, text, PIECE_BYTES);
    while let Some((offset, piece)) = pieces.next() {
        let at = if format == Format::Ids {
            ids.clear();
            let at = tokenizer.ids_into_piece(piece, pieces.carry(), &mut ids);
            record.clear();
            output::push_id_list(&mut record, &ids, more);
            more |= !ids.is_empty();
            out.write_all(&record)?;
            at
        } else {
            // Each part written before the next is made.
            let (mut at, mut written) = (None, Ok(()));
            tokenizer.tokenize_piece_in_parts(piece, pieces.carry(), &mut |tokens| {
                if written.is_ok() {
                    record.clear();
                    output::push_forms(&mut record, piece, &tokens, more);
                    more |= !tokens.is_empty();
                    at = at.or(tokens.gave_up());
                    written = out.write_all(&record);
                }
            });
            written?;
            at
        };
        gave_up = gave_up.or(at.map(|at| shift_gave_up(at, offset)));
    }
    out.write_all(b"\n")?;
    Ok(gave_up)
}

/// A finite-state tokenizer and the format it writes itself, when `format` is one it can
/// write straight from the automaton (Datok's stream, text).
fn automaton_stream<'t>(
    tokenizer: &'t (dyn toklab::Tokenizer + 'static),
    format: Format,
) -> Option<(&'t FstTokenizer, StreamFormat)> {
    let stream = match format {
        Format::Datok => StreamFormat::Datok,
        Format::Text => StreamFormat::Text,
        _ => return None,
    };
    Some((tokenizer.downcast_ref::<FstTokenizer>()?, stream))
}

/// The output records of one batch, as the writer will write them, in `records` (an empty
/// buffer to reuse), and the lines in it where the tokenizer gave up.
fn records(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    batch: &Batch,
    mut records: Vec<u8>,
) -> io::Result<(Vec<u8>, Vec<GaveUp>)> {
    records.reserve(batch.texts.iter().map(|t| 2 * t.len() + 16).sum());
    if let Some((fst, stream)) = automaton_stream(tokenizer, format) {
        // Straight from the automaton, without token objects (an automaton never gives up on
        // a text).
        for text in &batch.texts {
            fst.stream(text, stream, &mut records);
        }
        return Ok((records, Vec::new()));
    }
    let mut gave_up = Vec::new();
    if format == Format::Ids {
        // Ids alone: the engine's ids path, into one buffer of ids and one of output.
        let mut ids = Vec::new();
        for (i, text) in batch.texts.iter().enumerate() {
            ids.clear();
            if let Some(at) = tokenizer.ids_into(text, &mut ids) {
                gave_up.push((batch.first + i, at));
            }
            output::push_ids(&mut records, &ids);
        }
        return Ok((records, gave_up));
    }
    for (i, text) in batch.texts.iter().enumerate() {
        let tokens = tokenizer.tokenize(text);
        output::write_record(&mut records, format, batch.first + i, text, &tokens)?;
        if let Some(at) = tokens.gave_up() {
            gave_up.push((batch.first + i, at));
        }
    }
    Ok((records, gave_up))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton's own Datok and text streams are byte for byte what `-f datok` and
    /// `-f text` write of its tokens, and its ids are one `NO_ID` a token: sentence ends, forced tokens, the end-of-text character, empty and blank texts,
    /// characters outside the alphabet, for both representations.
    #[test]
    fn fst_datok_stream_equals_the_written_tokens() {
        let texts = [
            "",
            "   ",
            "Mr. Smith didn't pay $3.50 at 9 a.m. today. He left!",
            "\"Why?\" she asked… (twice)  -- www.example.org/x?y=1",
            "end\u{4}after the end\u{4}",
            "\u{4}",
            "Zoë 😀 ½ ḁ ẞ\ttab  \u{a0}nbsp",
            "a.b.c.d. e.g. U.S.A. ... ?! ;;",
            "It's 'quoted' and can't, won't.",
        ];
        for repr in ["matrix", "da"] {
            let spec = format!("fst:samples/fst/english.fst?repr={repr}");
            let tokenizer = super::super::load(&spec).unwrap();
            let fst = tokenizer.downcast_ref::<FstTokenizer>().unwrap();
            for text in texts {
                let mut stream = Vec::new();
                fst.datok_stream(text, &mut stream);
                let mut written = Vec::new();
                let tokens = tokenizer.tokenize(text);
                output::write_record(&mut written, Format::Datok, 1, text, &tokens).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&stream),
                    String::from_utf8_lossy(&written),
                    "{repr}: {text:?}"
                );
                let mut stream = Vec::new();
                let count = fst.stream(text, StreamFormat::Text, &mut stream);
                let mut written = Vec::new();
                output::write_record(&mut written, Format::Text, 1, text, &tokens).unwrap();
                assert_eq!(stream, written, "{repr} text: {text:?}");
                assert_eq!(count, tokens.len(), "{repr}: {text:?}");
                let mut ids = Vec::new();
                assert!(tokenizer.ids_into(text, &mut ids).is_none());
                assert_eq!(ids, vec![toklab::core::tokenizer::NO_ID; tokens.len()]);
            }
        }
    }
}
