//! The targets: one per tokenizer kind (a spec on the shipped samples, fed mutated texts) and
//! one per loader (a shipped model file, mutated, then loaded).

/// Which bytes of the text a kind's tokens must cover: what "lossless" means for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every byte is in a token (subword models, pre-tokenizers).
    Everything,
    /// Every byte that is not whitespace is in a token; whitespace may be dropped.
    AllButWhitespace,
    /// As `AllButWhitespace`, and control and invisible format characters (BOM, zero-width
    /// space, direction marks) may be dropped too: the rule engine deletes them as utoken does.
    AllButWhitespaceAndControls,
    /// Tokens are what the kind finds; the rest is dropped by design (`regex:` drops what no
    /// match covers; a finite-state tokenizer may delete characters on its edges).
    Matches,
}

/// A tokenizer kind on a spec of the shipped samples.
#[derive(Clone, Copy, Debug)]
pub struct TokenizerTarget {
    /// The target's name (`tok-` and the kind).
    pub name: &'static str,
    /// The spec, paths relative to the repository.
    pub spec: &'static str,
    /// What its tokens must cover.
    pub coverage: Coverage,
}

/// What a loader target loads its mutated file with.
#[derive(Clone, Copy, Debug)]
pub enum Load {
    /// A tokenizer spec: `{}` stands for the mutated file (or its folder when `whole_folder`).
    /// A tokenizer that loads must keep the tokenizer invariants.
    Spec(&'static str),
    /// The workbench's text-file path (`toklab_cli::tui::document`): opened, paged through
    /// and drawn, with no raw control character on the screen.
    TextFile,
    /// The workbench's workspace loader (`toklab_cli::workspace`): a workspace that loads must
    /// save in place and load back the same.
    Workspace,
    /// A chat template from a `tokenizer_config.json`, rendering the shipped conversation.
    ChatTemplate,
    /// A conversation file, rendered by the shipped chat template.
    Conversation,
}

/// A loader, fed mutated copies of a shipped file.
#[derive(Clone, Copy, Debug)]
pub struct LoaderTarget {
    /// The target's name (`load-` and the format).
    pub name: &'static str,
    /// The file mutated, relative to the repository.
    pub file: &'static str,
    /// What loads it and what is checked once it loaded.
    pub load: Load,
    /// Whether the file's siblings are copied beside it and the folder is loaded.
    pub whole_folder: bool,
}

/// Every tokenizer target.
pub const TOKENIZERS: &[TokenizerTarget] = &[
    TokenizerTarget {
        name: "tok-ws",
        spec: "ws",
        coverage: Coverage::AllButWhitespace,
    },
    TokenizerTarget {
        name: "tok-words",
        spec: "words",
        coverage: Coverage::AllButWhitespace,
    },
    TokenizerTarget {
        name: "tok-regex",
        spec: r"regex:\w+(?='s)|\w+|[^\w\s]+",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-pretok-gpt2",
        spec: "pretok:gpt2",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-pretok-cl100k",
        spec: "pretok:cl100k",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-pretok-o200k",
        spec: "pretok:o200k",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-maxmatch",
        spec: "maxmatch:samples/maxmatch/zh-words.txt",
        coverage: Coverage::AllButWhitespace,
    },
    TokenizerTarget {
        name: "tok-maxmatch-bwd",
        spec: "maxmatch:samples/maxmatch/zh-words.txt?dir=bwd",
        coverage: Coverage::AllButWhitespace,
    },
    TokenizerTarget {
        name: "tok-lex",
        spec: "lex:samples/lex/de-verbs.vocab",
        coverage: Coverage::AllButWhitespace,
    },
    TokenizerTarget {
        name: "tok-fst",
        spec: "fst:samples/fst/english.fst",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-fst-da",
        spec: "fst:samples/fst/english.fst?repr=da",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-bpe-gpt2",
        spec: "bpe:samples/bpe/gpt2",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-bpe-hf",
        spec: "bpe:samples/bpe/tokenizer.json?semantics=hf",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-bpe-split",
        spec: "bpe:samples/bpe/split-tokenizer.json",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-tiktoken",
        spec: "tiktoken:samples/bpe/sample.tiktoken?pattern=cl100k",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-spm",
        spec: "spm:samples/bpe/sample-spm.model",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-gguf",
        spec: "gguf:samples/bpe/sample.gguf",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-wordpiece",
        spec: "wordpiece:samples/bpe/sample-wordpiece.txt",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-rules",
        spec: "rules:rules?lang=eng",
        coverage: Coverage::AllButWhitespaceAndControls,
    },
    TokenizerTarget {
        name: "tok-hf",
        spec: "hf:samples/bpe/tokenizer.json",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-tekken",
        spec: "tekken:samples/bpe/sample-tekken.json",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-claude",
        spec: "claude:samples/bpe/sample-claude.json",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-rwkv",
        spec: "rwkv:samples/bpe/sample-rwkv.txt",
        coverage: Coverage::Everything,
    },
    TokenizerTarget {
        name: "tok-ptb",
        spec: "ptb",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-sent",
        spec: "sent",
        coverage: Coverage::Matches,
    },
    TokenizerTarget {
        name: "tok-sent-rules",
        spec: "sent:rules:rules?lang=eng",
        coverage: Coverage::Matches,
    },
];

/// The shipped chat template, the one the conversation target renders with.
pub const CHAT_CONFIG: &str = "samples/chat/tokenizer_config.json";

/// The shipped conversation, the one the chat-template target renders.
pub const CHAT_CONVERSATION: &str = "samples/chat/conversation.json";

/// Every loader target.
pub const LOADERS: &[LoaderTarget] = &[
    LoaderTarget {
        name: "load-gpt2-merges",
        file: "samples/bpe/gpt2/merges.txt",
        load: Load::Spec("bpe:{}"),
        whole_folder: true,
    },
    LoaderTarget {
        name: "load-gpt2-vocab",
        file: "samples/bpe/gpt2/vocab.json",
        load: Load::Spec("bpe:{}"),
        whole_folder: true,
    },
    LoaderTarget {
        name: "load-tokenizer-json",
        file: "samples/bpe/tokenizer.json",
        load: Load::Spec("bpe:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-gguf",
        file: "samples/bpe/sample.gguf",
        load: Load::Spec("gguf:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-tiktoken",
        file: "samples/bpe/sample.tiktoken",
        load: Load::Spec("tiktoken:{}?pattern=cl100k"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-spm",
        file: "samples/bpe/sample-spm.model",
        load: Load::Spec("spm:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-wordpiece",
        file: "samples/bpe/sample-wordpiece.txt",
        load: Load::Spec("wordpiece:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-tekken",
        file: "samples/bpe/sample-tekken.json",
        load: Load::Spec("tekken:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-claude",
        file: "samples/bpe/sample-claude.json",
        load: Load::Spec("claude:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-rwkv",
        file: "samples/bpe/sample-rwkv.txt",
        load: Load::Spec("rwkv:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-maxmatch",
        file: "samples/maxmatch/zh-words.txt",
        load: Load::Spec("maxmatch:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-hf",
        file: "samples/bpe/tokenizer.json",
        load: Load::Spec("hf:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-lex",
        file: "samples/lex/de-verbs.vocab",
        load: Load::Spec("lex:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-fst-foma",
        file: "samples/fst/english.fst",
        load: Load::Spec("fst:{}"),
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-rules",
        file: "rules/tok-resource-eng.txt",
        load: Load::Spec("rules:{}?lang=eng"),
        whole_folder: true,
    },
    LoaderTarget {
        name: "load-text-file",
        file: "samples/sample.txt",
        load: Load::TextFile,
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-workspace",
        file: "samples/workspace.toml",
        load: Load::Workspace,
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-chat-template",
        file: CHAT_CONFIG,
        load: Load::ChatTemplate,
        whole_folder: false,
    },
    LoaderTarget {
        name: "load-chat-conversation",
        file: CHAT_CONVERSATION,
        load: Load::Conversation,
        whole_folder: false,
    },
];
