//! Command-line flags whose values are a library [`Choice`]: the library names and documents
//! the values, this turns them into a clap parser with possible values and their help.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use toklab::Choice;

/// A clap value parser for `T`'s named values (`--format json`, `--unit grapheme`).
pub fn choice<T: Choice + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(
        T::ALL
            .iter()
            .map(|value| PossibleValue::new(value.name()).help(value.about())),
    )
    .map(|name| T::from_name(&name).expect("clap accepts only the possible values"))
}
