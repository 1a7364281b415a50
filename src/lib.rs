//! The `toklab` program: the command line and the terminal workbench over the `toklab` library.
//!
//! Everything that talks to a user lives here (argument parsing, output to a terminal, the
//! workbench's state and drawing, workspace files); the engines live in the library crate, which
//! has no UI dependency.

pub mod cli;
pub mod consent;
pub mod counted;
pub mod output;
pub mod tui;
pub mod workspace;
pub mod workspace_toml;
