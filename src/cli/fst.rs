//! `toklab fst info` and `toklab fst convert`: what a finite-state network holds and costs,
//! and saving it in toklab's compiled form.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use toklab::engines::fst::{DoubleArray, Matrix, Model};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// States, edges by kind, alphabet size, memory of each representation and the double
    /// array's load factor.
    Info {
        /// A foma .fst, AT&T text, Datok .matok/.datok or toklab's compiled form.
        file: PathBuf,
    },
    /// Save a network in toklab's compiled form (the alphabet and a ready-built double array),
    /// which loads much faster than a .fst; `fst:OUTPUT` then names it. Datok's .matok and
    /// .datok can be written too, for Datok to load.
    Convert {
        /// The network to read (any format `fst info` reads).
        input: PathBuf,
        /// Where to write it.
        output: PathBuf,
        /// The format to write; by default from OUTPUT's extension (.matok, .datok), else toklab.
        #[arg(long, value_enum)]
        to: Option<Target>,
        /// Replace OUTPUT if it exists.
        #[arg(long)]
        force: bool,
    },
}

/// What `fst convert` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    /// toklab's compiled form.
    Toklab,
    /// Datok's matrix (gzip).
    Matok,
    /// Datok's double array (gzip), built deterministically.
    Datok,
}

/// Runs `toklab fst info` or `toklab fst convert`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Command::Info { file } => info(&file),
        Command::Convert {
            input,
            output,
            to,
            force,
        } => {
            super::refuse_to_overwrite(std::slice::from_ref(&output), force)?;
            let to = to.unwrap_or(match output.extension().and_then(|e| e.to_str()) {
                Some("matok") => Target::Matok,
                Some("datok") => Target::Datok,
                _ => Target::Toklab,
            });
            convert(&input, &output, to, force)
        }
    }
}

fn info(path: &std::path::Path) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let model = Model::open(path)?;
    let load = started.elapsed();
    let network = &model.network;
    let started = Instant::now();
    let matrix = Matrix::build(network).map_err(anyhow::Error::msg);
    let matrix_time = started.elapsed();
    let started = Instant::now();
    let array = match &model.stored_array {
        Some(array) => array.clone(),
        None => DoubleArray::build(network),
    };
    let array_time = started.elapsed();
    let stats = &network.stats;
    let chars = network.alphabet.chars();
    let non_ascii = chars.iter().filter(|c| !c.is_ascii()).count();
    // Written whole at the end, so `| head` closing the pipe is not an error.
    let mut out = String::new();
    writeln!(out, "file          {}", path.display())?;
    writeln!(out, "format        {}", network.format)?;
    if let Some(name) = &network.name {
        writeln!(out, "name          {name}")?;
    }
    writeln!(
        out,
        "states        {} ({} reachable from the start, state {})",
        network.state_count(),
        network.reachable().len(),
        network.start
    )?;
    writeln!(
        out,
        "edges         {}: identity {} (of them ?:? {}), deletion {}, ε:boundary {}",
        network.edge_count(),
        stats.identity,
        stats.identity_unknown,
        stats.deletion,
        stats.boundary
    )?;
    if stats.reading_boundary + stats.multichar > 0 {
        writeln!(
            out,
            "ignored       {} TB:TB edges, {} on multi-character symbols",
            stats.reading_boundary, stats.multichar
        )?;
    }
    writeln!(
        out,
        "alphabet      {} characters ({} outside ASCII) + the boundary, identity and unknown symbols",
        chars.len(),
        non_ascii
    )?;
    match &matrix {
        Ok(matrix) => {
            let (rows, columns) = matrix.shape();
            writeln!(
                out,
                "matrix        {rows} rows × {columns} columns, {}, built in {:.1} ms",
                bytes(matrix.memory()),
                matrix_time.as_secs_f64() * 1e3
            )?;
        }
        Err(e) => writeln!(out, "matrix        none: {e}")?,
    }
    writeln!(
        out,
        "double array  {} cells, {}, load factor {:.1} %, {} in {:.1} ms",
        array.cells().len(),
        bytes(array.memory()),
        array.load_factor() * 100.0,
        if model.stored_array.is_some() {
            "read"
        } else {
            "built"
        },
        array_time.as_secs_f64() * 1e3
    )?;
    writeln!(out, "loaded in     {:.1} ms", load.as_secs_f64() * 1e3)?;
    for warning in &network.warnings {
        writeln!(out, "warning       {warning}")?;
    }
    // The network's name and warnings come from the file: written as every report is.
    let mut stdout = super::report_stdout();
    super::finish_output(
        std::io::Write::write_all(&mut stdout, out.as_bytes())
            .and_then(|()| std::io::Write::flush(&mut stdout))
            .map_err(anyhow::Error::from),
    )
}

fn convert(
    input: &std::path::Path,
    output: &std::path::Path,
    to: Target,
    force: bool,
) -> anyhow::Result<ExitCode> {
    let model = Model::open(input)?;
    for warning in &model.network.warnings {
        super::warn(&format!("{}: {warning}", input.display()));
    }
    let array = match model.stored_array {
        Some(array) => array,
        None => DoubleArray::build(&model.network),
    };
    let data = match to {
        Target::Toklab => toklab::engines::fst::write_compact(&model.network, &array),
        Target::Matok => gzip(&toklab::engines::fst::write_matok(&model.network))?,
        Target::Datok => gzip(&toklab::engines::fst::write_datok(&model.network, &array))?,
    };
    super::write_output(output, force, &data)?;
    let shown = super::safe_path(output);
    eprintln!(
        "toklab: wrote {shown} ({}): {} states, {} edges; use it as fst:{shown}",
        bytes(data.len()),
        model.network.state_count(),
        model.network.edge_count(),
    );
    Ok(ExitCode::SUCCESS)
}

/// Datok's models are gzip-compressed.
fn gzip(data: &[u8]) -> anyhow::Result<Vec<u8>> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data)?;
    Ok(encoder.finish()?)
}

/// A byte count for people.
fn bytes(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{:.2} MiB", n as f64 / (1 << 20) as f64)
    } else if n >= 1 << 10 {
        format!("{:.1} KiB", n as f64 / 1024.0)
    } else {
        format!("{n} bytes")
    }
}
