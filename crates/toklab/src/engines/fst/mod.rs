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
//!
//! ```
//! let fst = toklab::load("fst:../../samples/fst/english.fst").unwrap();
//! let text = "Dr. Smith isn't here. He left.";
//! let tokens = fst.tokenize(text);
//! assert_eq!(
//!     tokens.forms(text),
//!     ["Dr.", "Smith", "is", "n't", "here", ".", "He", "left", "."]
//! );
//! // Two boundary marks in a row end a sentence.
//! assert_eq!(tokens.sentences().len(), 2);
//! ```

mod alphabet;
mod apply;
mod att;
mod check;
mod compact;
mod datok_models;
mod double_array;
mod foma;
mod matok_matrix;
mod matrix;
mod network;
mod raw;
mod runner;
mod trace;
pub mod xfst;
mod xfst_guard;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use alphabet::Alphabet;
pub use alphabet::{BOUNDARY, Sym};
pub use apply::{Applied, BOUNDARY_MARK, NetSummary, apply_down, apply_up, summary};
pub use compact::write as write_compact;
pub use datok_models::{write_datok, write_matok};
pub use double_array::DoubleArray;
pub use matrix::Matrix;
pub use network::{Edge, EdgeKind, Network};
pub use raw::{RawArc, RawNetwork, RawSymbol};
pub use runner::{StreamFormat, Transitions, Via, run};
pub use trace::{FstStep, FstTrace, Recorder};

use crate::core::error::{Error, Result};
use crate::core::registry::Registry;
use crate::core::spec::{Kind, Spec};
use crate::core::token::{GaveUp, Tokenization};
use crate::core::tokenizer::NO_ID;
use crate::core::tokenizer::Tokenizer;
use crate::core::trace::{Observer, Quiet, Trace};

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

    /// The representation for a network when the spec names none: the matrix (the faster)
    /// when its table is justified by the network's edges, else the double array, whose
    /// memory follows the edges whatever the alphabet.
    pub fn for_network(network: &Network) -> Repr {
        if Matrix::fits(network).is_ok() {
            Repr::Matrix
        } else {
            Repr::DoubleArray
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
        Model::from_inflated(path, gunzip(path, data)?.as_ref())
    }

    /// [`Model::from_bytes`] after decompression.
    fn from_inflated(path: &Path, data: &[u8]) -> Result<Model> {
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

/// How much of a compressed file is inflated before its contents say how large they may be:
/// enough for foma's header lines.
const HEAD_BYTES: u64 = 64 << 10;

/// The most a compressed file of a format without size counts may inflate to.
const MAX_INFLATED: u64 = 256 << 20;

/// In foma's format: bytes allowed per arc or state line, and for the alphabet.
const FOMA_LINE_BYTES: u64 = 48;
const FOMA_SIGMA_BYTES: u64 = 16 << 20;

/// The bytes, decompressed if they are gzip — never beyond what the contents justify, so a
/// gzip bomb is refused after its first bytes rather than after filling the memory.
fn gunzip<'a>(path: &Path, data: &'a [u8]) -> Result<std::borrow::Cow<'a, [u8]>> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Ok(std::borrow::Cow::Borrowed(data));
    }
    let mut decoder = flate2::read::MultiGzDecoder::new(data);
    let mut out = Vec::new();
    let corrupt = |e: std::io::Error, len: usize| {
        Error::format(
            path,
            None,
            format!("corrupt or truncated gzip data ({e}) after {len} bytes"),
        )
    };
    (&mut decoder)
        .take(HEAD_BYTES)
        .read_to_end(&mut out)
        .map_err(|e| corrupt(e, out.len()))?;
    let (limit, why) = inflate_limit(&out);
    // The gzip trailer states the inflated size (of the last member, modulo 4 GiB): room for it
    // at once, rather than doubling the buffer and copying what was inflated each time.
    if let Some(trailer) = data.len().checked_sub(4).and_then(|at| data.get(at..)) {
        let stated = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        out.reserve((stated as u64).min(limit).saturating_sub(out.len() as u64) as usize);
    }
    (&mut decoder)
        .take(limit + 1 - out.len() as u64)
        .read_to_end(&mut out)
        .map_err(|e| corrupt(e, out.len()))?;
    if out.len() as u64 > limit {
        return Err(Error::format(
            path,
            None,
            format!(
                "decompresses to more than {limit} bytes, more than {why}: refused (a damaged file or a gzip bomb)"
            ),
        ));
    }
    Ok(std::borrow::Cow::Owned(out))
}

/// How far a compressed file may inflate, judging by its first bytes, and why: foma's props
/// line counts the arcs and states to come, so the file can be no longer than their lines
/// and an alphabet.
fn inflate_limit(head: &[u8]) -> (u64, String) {
    let fallback = (
        MAX_INFLATED.max(HEAD_BYTES),
        format!(
            "the {} MiB toklab inflates a compressed network to",
            MAX_INFLATED >> 20
        ),
    );
    if !head.starts_with(b"##foma-net") {
        return fallback;
    }
    let Some(props) = head.split(|&b| b == b'\n').nth(2) else {
        return fallback;
    };
    let counts: Vec<u64> = String::from_utf8_lossy(props)
        .split_whitespace()
        .take(3)
        .map_while(|f| f.parse().ok())
        .collect();
    let [_, arcs, states] = counts[..] else {
        return fallback;
    };
    let limit = FOMA_LINE_BYTES
        .saturating_mul(arcs.saturating_add(states).saturating_add(4))
        .saturating_add(FOMA_SIGMA_BYTES);
    (
        limit,
        format!("its props line's {arcs} arcs and {states} states can take"),
    )
}

/// The representation that runs.
enum Engine {
    Matrix(Matrix),
    DoubleArray(DoubleArray),
}

/// A loaded finite-state tokenizer.
pub struct FstTokenizer {
    name: String,
    /// The files a live view watches: the network, or an XFST script and what it reads.
    sources: Vec<PathBuf>,
    alphabet: Alphabet,
    /// The network's state count and name, to recover it from the engine.
    states: u32,
    network_name: Option<String>,
    /// The checked network: read with the model, or (for a matrix loaded straight from
    /// toklab's saved form) recovered from the engine the first time a view asks.
    network: OnceLock<Network>,
    /// What loading the file warned about (kept apart from the network, which a tokenizer
    /// loaded straight into a matrix has only once a view asks).
    warnings: Vec<String>,
    engine: Engine,
}

impl FstTokenizer {
    /// Loads `path` and builds `repr` (reusing a stored double array).
    pub fn open(path: &Path, repr: Repr) -> Result<FstTokenizer> {
        let name = format!("fst:{}?repr={}", path.display(), repr.name());
        FstTokenizer::open_as(path, Some(repr), name)
    }

    /// Loads `path` in `repr`, or in the representation [`Repr::for_network`] picks. toklab's
    /// saved form was checked when it was written and carries CRCs, so its stored matrix is
    /// read as it is (from the file, nothing after it); Datok's `.matok` is a matrix already
    /// and is copied into ours with the checks that keep the runner safe. For both the
    /// network is recovered only if a view asks; every other format (and `?repr=da`) is read
    /// into a network and checked first.
    fn open_as(path: &Path, repr: Option<Repr>, name: String) -> Result<FstTokenizer> {
        let wants_matrix = repr != Some(Repr::DoubleArray);
        if wants_matrix
            && let Some(saved) = compact::open_compiled(path, compact::Want::Matrix)?
            && let Some(tokenizer) = FstTokenizer::from_compiled(saved, path, repr, &name)?
        {
            return Ok(tokenizer);
        }
        let data = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let data = gunzip(path, &data)?;
        if wants_matrix
            && data.starts_with(compact::MAGIC)
            && let saved = compact::read_compiled(path, &data, compact::Want::Matrix)?
            && let Some(tokenizer) = FstTokenizer::from_compiled(saved, path, repr, &name)?
        {
            return Ok(tokenizer);
        }
        if wants_matrix
            && data.starts_with(b"MATOK")
            && let Some(read) = matok_matrix::matok_matrix(path, &data)?
        {
            return Ok(FstTokenizer {
                name,
                sources: vec![path.to_path_buf()],
                alphabet: read.alphabet,
                states: read.states,
                network_name: None,
                network: OnceLock::new(),
                warnings: read.warnings,
                engine: Engine::Matrix(read.matrix),
            });
        }
        let model = Model::from_inflated(path, &data)?;
        let repr = repr.unwrap_or_else(|| Repr::for_network(&model.network));
        FstTokenizer::from_model(model, repr, name)
    }

    /// The matrix of a saved form read without its network: the stored one, or one filled from
    /// the stored double array (version 1 files); `None` when the network gets no matrix and
    /// none was asked for (the caller then runs the double array).
    fn from_compiled(
        saved: compact::Compiled,
        path: &Path,
        repr: Option<Repr>,
        name: &str,
    ) -> Result<Option<FstTokenizer>> {
        let matrix = match (saved.matrix, &saved.array) {
            (Some(matrix), _) => matrix,
            (None, Some(array)) => {
                let fits = Matrix::fits_double_array(array, saved.states);
                if repr != Some(Repr::Matrix) && fits.is_err() {
                    return Ok(None);
                }
                fits.map_err(|e| Error::format(path, None, e.to_string()))?;
                Matrix::from_double_array(array, saved.states, saved.start, path)?
            }
            (None, None) => return Ok(None),
        };
        Ok(Some(FstTokenizer {
            name: name.to_string(),
            sources: vec![path.to_path_buf()],
            alphabet: saved.alphabet,
            states: saved.states,
            network_name: (!saved.name.is_empty()).then_some(saved.name),
            network: OnceLock::new(),
            warnings: Vec::new(),
            engine: Engine::Matrix(matrix),
        }))
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
            sources: vec![model.path],
            alphabet: model.network.alphabet.clone(),
            states: model.network.state_count(),
            network_name: model.network.name.clone(),
            warnings: model.network.warnings.clone(),
            network: OnceLock::from(model.network),
            engine,
        })
    }

    /// The checked network, for views that show states, edges and the alphabet.
    pub fn network(&self) -> &Network {
        self.network.get_or_init(|| {
            let (alphabet, name) = (self.alphabet.clone(), self.network_name.clone());
            match &self.engine {
                Engine::Matrix(m) => {
                    let (rows, width) = m.shape();
                    let rows = (1..rows as u32).map(|s| s * width as u32);
                    Network::from_transitions(m, rows, self.states, alphabet, name)
                }
                Engine::DoubleArray(d) => {
                    let reps = d.state_of_cell().iter().enumerate();
                    let reps = reps.filter(|(_, s)| **s != 0).map(|(c, _)| c as u32);
                    Network::from_transitions(d, reps, self.states, alphabet, name)
                }
            }
        })
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
            omitted_steps: recorder.omitted,
        }
    }

    /// Appends Datok's stream of `text` (what `-f datok` writes of its tokens) to `out`,
    /// straight from the automaton: a corpus run pays for no token objects or kinds.
    pub fn datok_stream(&self, text: &str, out: &mut Vec<u8>) {
        self.stream(text, StreamFormat::Datok, out);
    }

    /// Appends the record of `text` in `format` to `out` straight from the automaton, with no
    /// token objects, so a line of any length costs only its text and its output; returns the
    /// number of tokens.
    pub fn stream(&self, text: &str, format: StreamFormat, out: &mut Vec<u8>) -> usize {
        let mut stream = runner::Stream {
            text,
            out,
            format,
            tokens: 0,
            sentence_closed: false,
        };
        let alphabet = &self.alphabet;
        match &self.engine {
            Engine::Matrix(m) => runner::run_into(m, alphabet, text, &mut Quiet, &mut stream),
            Engine::DoubleArray(d) => runner::run_into(d, alphabet, text, &mut Quiet, &mut stream),
        }
        stream.finish()
    }

    fn run<O: Observer<trace::FstStep>>(&self, text: &str, observer: &mut O) -> Tokenization {
        let alphabet = &self.alphabet;
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

    /// Its tokens have no ids: one [`NO_ID`] a token, counted without token objects.
    fn ids_into(&self, text: &str, ids: &mut Vec<u32>) -> Option<GaveUp> {
        let count = self.stream(text, StreamFormat::Count, &mut Vec::new());
        ids.extend(std::iter::repeat_n(NO_ID, count));
        None
    }

    fn explain(&self, text: &str) -> Trace {
        Trace::new(self.trace(text).lines(text))
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn sources(&self) -> Vec<PathBuf> {
        self.sources.clone()
    }

    /// Offers [`FstTokenizer::datok_stream`] to `tokenize -f datok` and the network itself to
    /// the workbench (apply down / up, `print net`).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    /// Word spacing: the transducer's tokens are words with the whitespace dropped.
    fn detokenize(&self, tokens: &[&str]) -> Result<String> {
        Ok(crate::engines::simple::Joining::Words.join(tokens))
    }
}

/// `fst:FILE[?repr=matrix|da][&allow=files]`: a finite-state tokenizer. `allow=files` lets an
/// XFST script read and write files and run programs (foma's `source`, `save`, `system`, …),
/// which a script someone sent must not do unasked.
pub const KIND: Kind = Kind::new(
    "fst",
    "fst:FILE[?repr=matrix|da][&allow=files]",
    "a finite-state tokenizer (foma .fst, an .xfst script compiled with foma, AT&T, Datok .matok/.datok) run as Datok runs it",
    load,
)
.with_options();

/// Loads `fst:FILE[?repr=matrix|da]`.
pub fn load(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let repr =
        match spec.take_option("repr") {
            None => None,
            Some(name) => Some(Repr::parse(&name).ok_or_else(|| {
                spec.bad(format!("option `repr` is `matrix` or `da`, not `{name}`"))
            })?),
        };
    let allow_files = match spec.take_option("allow").as_deref() {
        None => false,
        Some("files") => true,
        Some(other) => {
            return Err(spec.bad(format!(
                "option `allow` is `files` (let an XFST script read and write files and run \
                 programs), not `{other}`"
            )));
        }
    };
    spec.finish(&["repr", "allow"])?;
    if spec.arg.is_empty() {
        return Err(spec.bad("`fst:` needs a file: fst:FILE[?repr=matrix|da]"));
    }
    let path = spec.path();
    let compiled = if xfst::is_script(&path) {
        Some(xfst::compile(&path, allow_files)?)
    } else {
        None
    };
    let name = format!("fst:{}", spec.arg);
    let network = compiled.as_ref().map_or(&path, |c| &c.fst);
    let mut tokenizer = FstTokenizer::open_as(network, repr, name)?;
    if let Some(compiled) = compiled {
        tokenizer.sources = compiled.sources;
    }
    Ok(Box::new(tokenizer))
}
