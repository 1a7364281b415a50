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
    let result = batch::ordered_map(
        threads,
        |spare| lines.next_batch(spare),
        |batch, spare| records(tokenizer.as_ref(), args.format, batch, spare),
        |batch, records| {
            if let Some(e) = records.failed.take() {
                return Err(e.into());
            }
            out.write_all(&records.bytes)?;
            if records.long
                && let Some(text) = batch.iter().next_back()
                && let Some(at) = stream_line(tokenizer.as_ref(), args.format, text, &mut out)?
            {
                records.gave_up.push((batch.first + batch.len() - 1, at));
            }
            if !records.gave_up.is_empty() {
                out.flush()?;
            }
            for &(number, ref gave_up) in &records.gave_up {
                failed |=
                    super::gave_up::report(&format!("{name}:{number}"), &tokenizer_name, gave_up);
            }
            Ok(())
        },
    )
    .and_then(|()| Ok(out.flush()?));
    lines.report();
    let exit = super::finish_output(result)?;
    Ok(if failed { ExitCode::FAILURE } else { exit })
}

/// A batch's output as a worker makes it, for the writer. A written one goes back to the
/// worker that made it to be filled again ([`batch::ordered_map`]): a megabyte buffer freed
/// and allocated afresh each batch was pages touched for the first time again (two threads on
/// 16 MB of `ws` took 2,600 more page faults than one).
#[derive(Default)]
struct Records {
    /// The output records of the batch's texts (but a long last line's), as they are written.
    bytes: Vec<u8>,
    /// The lines where the tokenizer gave up.
    gave_up: Vec<GaveUp>,
    /// The batch's last line is left to the writer, to stream it ([`stream_line`]).
    long: bool,
    /// Making the records failed.
    failed: Option<io::Error>,
}

/// A line where the tokenizer gave up on the rest (a regex over its backtrack limit, the rule
/// engine's depth limit): its number, and where and why.
type GaveUp = (usize, toklab::GaveUp);

/// Lines longer than this are written piece by piece in the formats that allow it (text and
/// ids), so a huge line costs its text and a few pieces' tokens rather than tokens and output
/// for all of it.
const STREAMED_LINE: usize = 4 * PIECE_BYTES;

/// Whether the batch's last line is to be streamed ([`stream_line`]) rather than tokenized
/// with the others: only the last line of a batch can be that long, since a batch ends at its
/// first long line, and a long line elsewhere is simply written whole.
fn long_last_line(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    batch: &Batch,
) -> bool {
    matches!(format, Format::Text | Format::Ids)
        && automaton_stream(tokenizer, format).is_none()
        && batch
            .iter()
            .next_back()
            .is_some_and(|t| t.len() > STREAMED_LINE)
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

/// The output records of one batch, as the writer will write them, in `spare`'s buffers
/// when there is one (records written before).
fn records(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    batch: &Batch,
    spare: Option<Records>,
) -> Records {
    let mut records = spare.unwrap_or_default();
    records.bytes.clear();
    records.gave_up.clear();
    records.long = long_last_line(tokenizer, format, batch);
    let count = batch.len() - usize::from(records.long);
    records.failed = fill(tokenizer, format, batch, count, &mut records).err();
    records
}

/// Writes the records of the first `count` texts of `batch` into `records`.
fn fill(
    tokenizer: &(dyn toklab::Tokenizer + 'static),
    format: Format,
    batch: &Batch,
    count: usize,
    records: &mut Records,
) -> io::Result<()> {
    let (bytes, gave_up) = (&mut records.bytes, &mut records.gave_up);
    // No room is reserved ahead: the buffer is one written before, so after the first batches
    // it has the room a batch takes, and a reserve on the generous side made it grow twice as
    // large (pages touched for the first time, 1,200 more on 16 MB of `fst` with two threads).
    let (first, texts) = (batch.first, batch.iter().take(count));
    if let Some((fst, stream)) = automaton_stream(tokenizer, format) {
        // Straight from the automaton, without token objects (an automaton never gives up on
        // a text).
        for text in texts {
            fst.stream(text, stream, bytes);
        }
        return Ok(());
    }
    if format == Format::Ids {
        // Ids alone: the engine's ids path, into one buffer of ids and one of output.
        let mut ids = Vec::new();
        for (i, text) in texts.enumerate() {
            ids.clear();
            if let Some(at) = tokenizer.ids_into(text, &mut ids) {
                gave_up.push((first + i, at));
            }
            output::push_ids(bytes, &ids);
        }
        return Ok(());
    }
    for (i, text) in texts.enumerate() {
        let tokens = tokenizer.tokenize(text);
        output::write_record(bytes, format, first + i, text, &tokens)?;
        if let Some(at) = tokens.gave_up() {
            gave_up.push((first + i, at));
        }
    }
    Ok(())
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
