//! Adding an engine from outside the library: a toy engine defined here joins the built-in
//! kinds with one `register` line, loads from a spec string, tokenizes and explains.

use std::fmt;
use std::path::Path;

use toklab::core::trace::quote;
use toklab::{
    Kind, Origin, Provenance, Registry, Result, Role, Span, Spec, Token, TokenKind, Tokenization,
    Tokenizer, Trace, TraceLine,
};

/// Cuts the text into chunks of `size` characters (`chunks:SIZE?tag=NAME`).
struct Chunks {
    name: String,
    size: usize,
    tag: String,
}

/// Which chunk a token is, in the toy engine's own terms.
#[derive(Debug, PartialEq)]
struct ChunkOrigin {
    index: usize,
    tag: String,
}

impl fmt::Display for ChunkOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chunk {} ({})", self.index, self.tag)
    }
}

impl Provenance for ChunkOrigin {}

impl Chunks {
    fn spans(&self, text: &str) -> Vec<Span> {
        let mut starts: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .step_by(self.size)
            .collect();
        starts.push(text.len());
        starts.windows(2).map(|w| Span::new(w[0], w[1])).collect()
    }
}

impl Tokenizer for Chunks {
    fn name(&self) -> &str {
        &self.name
    }

    fn tokenize(&self, text: &str) -> Tokenization {
        let tokens = self
            .spans(text)
            .into_iter()
            .enumerate()
            .map(|(index, span)| {
                Token::new(span, TokenKind::Other).with_origin(Origin::detail(ChunkOrigin {
                    index,
                    tag: self.tag.clone(),
                }))
            });
        Tokenization::new(tokens.collect())
    }

    fn explain(&self, text: &str) -> Trace {
        let lines = self.spans(text).into_iter().map(|span| {
            TraceLine::new(0, Some(span))
                .part(Role::Label, "chunk ")
                .part(Role::Token, quote(span.slice(text)))
        });
        Trace::new(lines.collect())
    }
}

fn load_chunks(_registry: &Registry, mut spec: Spec) -> Result<Box<dyn Tokenizer>> {
    let tag = spec.take_option("tag").unwrap_or_else(|| "plain".into());
    spec.finish(&["tag"])?;
    let size = spec
        .arg
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| spec.bad("the chunk size is a number above 0"))?;
    Ok(Box::new(Chunks {
        name: spec.text.clone(),
        size,
        tag,
    }))
}

const CHUNKS: Kind = Kind::new(
    "chunks",
    "chunks:SIZE?tag=NAME",
    "fixed-size character chunks",
    load_chunks,
)
.with_options();

fn registry() -> Registry {
    let mut registry = Registry::builtin();
    registry.register(CHUNKS);
    registry
}

#[test]
fn a_toy_engine_loads_tokenizes_and_explains() {
    let tokenizer = registry().load("chunks:2?tag=toy", Path::new("")).unwrap();
    let text = "héllo";
    let tokens = tokenizer.tokenize(text);
    tokens.check(text).unwrap();
    let forms: Vec<&str> = tokens.tokens.iter().map(|t| t.form(text)).collect();
    assert_eq!(forms, ["hé", "ll", "o"]);
    let origin = tokens.tokens[1].origin.detail_as::<ChunkOrigin>().unwrap();
    assert_eq!((origin.index, origin.tag.as_str()), (1, "toy"));
    assert_eq!(tokens.tokens[1].origin.to_string(), "chunk 1 (toy)");
    assert_eq!(tokens.tokens[0].origin, tokens.tokens[0].origin.clone());
    assert_ne!(tokens.tokens[0].origin, tokens.tokens[1].origin);
    assert_eq!(
        tokenizer.explain(text).to_text(),
        "chunk «hé»\nchunk «ll»\nchunk «o»\n"
    );
}

#[test]
fn a_registered_kind_is_listed_and_named_in_errors() {
    let registry = registry();
    assert!(registry.kinds().iter().any(|k| k.name == "chunks"));
    assert!(registry.load("ws", Path::new("")).is_ok(), "built-ins stay");
    let e = registry
        .load("chunks:0", Path::new(""))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("chunk size"), "{e}");
    assert!(
        e.contains("chunks:SIZE?tag=NAME"),
        "its usage is shown: {e}"
    );
    let e = registry
        .load("chunks:2?colour=red", Path::new(""))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("unknown option `colour`"), "{e}");
    let e = toklab::load("chunks:2").err().unwrap().to_string();
    assert!(e.contains("unknown tokenizer kind `chunks`"), "{e}");
}

#[test]
fn a_wrapping_spec_loads_a_kind_registered_by_the_caller() {
    // `sent:SPEC` loads SPEC through the registry it was itself loaded from, so a kind a
    // program registers can be wrapped like a built-in one.
    let tokenizer = registry().load("sent:chunks:3", Path::new("")).unwrap();
    let text = "Ab. Cd.";
    let tokens = tokenizer.tokenize(text);
    let forms: Vec<&str> = tokens.tokens.iter().map(|t| t.form(text)).collect();
    assert_eq!(forms, ["Ab.", " Cd", "."]);
    // The built-in registry does not know the kind, and says so.
    let error = Registry::builtin()
        .load("sent:chunks:3", Path::new(""))
        .err()
        .expect("chunks is not a built-in kind");
    assert!(error.to_string().contains("chunks"), "{error}");
}

#[test]
fn a_file_given_to_the_wrong_kind_is_named_with_the_spec_that_reads_it() {
    for (spec, wanted) in [
        ("hf:samples/bpe/sample-spm.model", "use `spm:"),
        ("spm:samples/bpe/tokenizer.json", "use `hf:"),
        ("tiktoken:samples/bpe/sample-claude.json", "use `claude:"),
        ("wordpiece:samples/bpe/sample-spm.model", "use `spm:"),
    ] {
        let error = toklab::load(spec).err().expect(spec).to_string();
        assert!(error.contains(wanted), "{spec}: {error}");
        assert!(error.contains("this is a"), "{spec}: {error}");
    }
}

#[test]
fn a_bare_path_takes_the_kind_its_content_shows() {
    let text = "We're 350 dogs!";
    for (path, kind) in [
        ("samples/bpe/tokenizer.json", "hf"),
        ("samples/bpe/sample-spm.model", "spm"),
        ("samples/bpe/gpt2", "bpe"),
        ("samples/fst/english.fst", "fst"),
    ] {
        let bare = toklab::load(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let named = toklab::load(&format!("{kind}:{path}")).unwrap();
        assert_eq!(bare.tokenize(text), named.tokenize(text), "{path}");
    }
    // A path that is no tokenizer is still an unknown kind.
    let error = toklab::load("samples/sample.txt")
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("unknown tokenizer kind"), "{error}");
}
