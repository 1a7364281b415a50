//! Finite-state tokenizers (`fst:FILE`): networks compiled by foma (or written as AT&T text,
//! or converted by Datok), checked to be tokenizers — deterministic, with only identity,
//! deletion and ε:boundary edges — and run by the paper's Algorithm 1 exactly as Datok runs
//! it, in either of the paper's representations (`?repr=matrix|da`).
//!
//! Shape: a file reader gives a [`RawNetwork`]; [`Network::from_raw`] checks it (`check.rs`); a
//! representation ([`Matrix`], [`DoubleArray`]) is built from the network; [`run`] tokenizes,
//! reporting each step to an observer (nothing for `tokenize`, a [`Recorder`] for `explain`).
//! [`write_compact`] saves toklab's own compiled form, [`write_datok`] and [`write_matok`]
//! Datok's.

mod alphabet;
mod att;
mod check;
mod compact;
mod datok_models;
mod double_array;
mod foma;
mod matrix;
mod network;
mod raw;
mod runner;
mod trace;

use std::io::Read;
use std::path::{Path, PathBuf};

pub use alphabet::{BOUNDARY, Sym};
pub use compact::write as write_compact;
pub use datok_models::{write_datok, write_matok};
pub use double_array::DoubleArray;
pub use matrix::Matrix;
pub use network::{Edge, EdgeKind, Network};
pub use raw::{RawArc, RawNetwork, RawSymbol};
pub use runner::{Transitions, Via, run};
pub use trace::{FstStep, FstTrace, Recorder};

use crate::error::{Error, Result};
use crate::spec::{Kind, Spec};
use crate::token::Tokenization;
use crate::tokenizer::Tokenizer;
use crate::trace::{Observer, Quiet, Trace};

/// Which of the paper's representations runs the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repr {
    /// One cell per state and symbol: one memory read per character.
    Matrix,
    /// Base/check arrays: memory independent of the alphabet's size.
    DoubleArray,
}

impl Repr {
    /// The `repr=` option's value (`matrix`, `da` or `double-array`).
    pub fn parse(name: &str) -> Option<Repr> {
        match name {
            "matrix" => Some(Repr::Matrix),
            "da" | "double-array" => Some(Repr::DoubleArray),
            _ => None,
        }
    }

    /// The `repr=` spelling, for names and messages.
    pub fn name(self) -> &'static str {
        match self {
            Repr::Matrix => "matrix",
            Repr::DoubleArray => "da",
        }
    }
}

/// A network read from any supported file, with the double array if the file stored one.
pub struct Model {
    /// The checked network.
    pub network: Network,
    /// The file it was read from, for messages and labels.
    pub path: PathBuf,
    /// Our saved form carries the double array ready-built.
    pub stored_array: Option<DoubleArray>,
}

impl Model {
    /// Reads `path` in whichever format it is (gzip-compressed or not): foma's `.fst`, AT&T
    /// text, Datok's `.matok` / `.datok`, or toklab's saved form.
    pub fn open(path: &Path) -> Result<Model> {
        let data = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Model::from_bytes(path, &data)
    }

    /// Reads a model from the bytes of the file at `path` (the path names it in messages).
    pub fn from_bytes(path: &Path, data: &[u8]) -> Result<Model> {
        let data = gunzip(path, data)?;
        let data = data.as_ref();
        let raw = if data.starts_with(b"##foma-net") {
            foma::parse(path, data)?
        } else if data.starts_with(b"MATOK") {
            datok_models::parse_matok(path, data)?
        } else if data.starts_with(b"DATOK") {
            datok_models::parse_datok(path, data)?
        } else if data.starts_with(compact::MAGIC) {
            let (network, array) = compact::read(path, data)?;
            return Ok(Model {
                network,
                path: path.to_path_buf(),
                stored_array: Some(array),
            });
        } else if att::looks_like(data) {
            att::parse(path, data)?
        } else {
            return Err(Error::format(
                path,
                None,
                "not a network toklab reads: expected foma's saved network (##foma-net), \
                 AT&T text, Datok's .matok/.datok or toklab's saved form",
            ));
        };
        Ok(Model {
            network: Network::from_raw(raw)?,
            path: path.to_path_buf(),
            stored_array: None,
        })
    }
}

/// The bytes, decompressed if they are gzip.
fn gunzip<'a>(path: &Path, data: &'a [u8]) -> Result<std::borrow::Cow<'a, [u8]>> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Ok(std::borrow::Cow::Borrowed(data));
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(data)
        .read_to_end(&mut out)
        .map_err(|e| {
            Error::format(
                path,
                None,
                format!(
                    "corrupt or truncated gzip data ({e}) after {} bytes",
                    out.len()
                ),
            )
        })?;
    Ok(std::borrow::Cow::Owned(out))
}

/// The representation that runs.
enum Engine {
    Matrix(Matrix),
    DoubleArray(DoubleArray),
}

/// A loaded finite-state tokenizer.
pub struct FstTokenizer {
    name: String,
    path: PathBuf,
    network: Network,
    engine: Engine,
}

impl FstTokenizer {
    /// Loads `path` and builds `repr` (reusing a stored double array).
    pub fn open(path: &Path, repr: Repr) -> Result<FstTokenizer> {
        let model = Model::open(path)?;
        let name = format!("fst:{}?repr={}", path.display(), repr.name());
        FstTokenizer::from_model(model, repr, name)
    }

    /// A tokenizer of an already read model (the CLI's `fst info` and tests build models
    /// themselves), named `name` in labels and messages.
    pub fn from_model(model: Model, repr: Repr, name: String) -> Result<FstTokenizer> {
        let engine = match repr {
            Repr::Matrix => Engine::Matrix(
                Matrix::build(&model.network)
                    .map_err(|e| Error::format(&model.path, None, e.to_string()))?,
            ),
            Repr::DoubleArray => Engine::DoubleArray(
                model
                    .stored_array
                    .unwrap_or_else(|| DoubleArray::build(&model.network)),
            ),
        };
        Ok(FstTokenizer {
            name,
            path: model.path,
            network: model.network,
            engine,
        })
    }

    /// The checked network, for views that show states, edges and the alphabet.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// Which representation runs.
    pub fn repr(&self) -> Repr {
        match self.engine {
            Engine::Matrix(_) => Repr::Matrix,
            Engine::DoubleArray(_) => Repr::DoubleArray,
        }
    }

    /// Tokenizes and records every step: the trace `explain` shows, also the API of the
    /// workbench's FST view (steps with spans, and [`FstTrace::backtracks`] to highlight).
    pub fn trace(&self, text: &str) -> FstTrace {
        let mut recorder = trace::Recorder::default();
        let tokens = self.run(text, &mut recorder);
        FstTrace {
            steps: recorder.steps,
            tokens,
        }
    }

    fn run<O: Observer<trace::FstStep>>(&self, text: &str, observer: &mut O) -> Tokenization {
        let alphabet = &self.network.alphabet;
        match &self.engine {
            Engine::Matrix(m) => runner::run(m, alphabet, text, observer),
            Engine::DoubleArray(d) => runner::run(d, alphabet, text, observer),
        }
    }
}

impl Tokenizer for FstTokenizer {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        self.run(text, &mut Quiet)
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn warnings(&self) -> Vec<String> {
        self.network.warnings.clone()
    }

    fn sources(&self) -> Vec<PathBuf> {
        vec![self.path.clone()]
    }
}

/// `fst:FILE[?repr=matrix|da]`: a finite-state tokenizer.
pub const KIND: Kind = Kind::new(
    "fst",
    "fst:FILE[?repr=matrix|da]",
    "a finite-state tokenizer (foma .fst, AT&T, Datok .matok/.datok) run as Datok runs it",
    load,
)
.with_options();

/// Loads `fst:FILE[?repr=matrix|da]`.
pub fn load(mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let repr = match spec.take_option("repr") {
        None => Repr::Matrix,
        Some(name) => Repr::parse(&name)
            .ok_or_else(|| spec.bad(format!("option `repr` is `matrix` or `da`, not `{name}`")))?,
    };
    spec.finish(&["repr"])?;
    if spec.arg.is_empty() {
        return Err(spec.bad("`fst:` needs a file: fst:FILE[?repr=matrix|da]"));
    }
    let path = spec.path();
    let model = Model::open(&path)?;
    Ok(Box::new(FstTokenizer::from_model(
        model,
        repr,
        format!("fst:{}", spec.arg),
    )?))
}
