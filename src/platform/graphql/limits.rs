//! The limits an input field is checked against, stated in the schema so that clients see
//! them: `@length(max: 200)` on a text field, `@range(min: 1, max: 5)` on a number.
//!
//! The rules that enforce a limit (an area's `rules.rs`, `partners::fields::Checker`) and the
//! directive read the same constant, so the documentation cannot drift from the check; the
//! REST facade's OpenAPI document turns the directives into `maxLength`, `minimum` and
//! `maximum` (`rest::types::Limits`). Write them in an input's field attributes:
//!
//! ```text
//! #[graphql(directive = length::apply(NAME_MAX))]
//! pub name: String,
//! ```
//! or, in an `input_forms!` field list, in the field's brackets:
//! `[directive = length::apply(NAME_MAX)] name: required String`.

// The directive functions' bodies are empty: only their signatures matter (the schema reads
// them); `clippy` and `rustc` see unused arguments.
#![allow(unused_variables)]

use async_graphql::TypeDirective;

/// The most characters any text input takes when its field states no `@length` of its own:
/// every text column has a limit, declared (`maxLength` in the OpenAPI document) and enforced
/// at the boundary (the REST binder and `/graphql`'s variables), so no request can store a
/// megabyte in a column nobody sized.
pub const DEFAULT_TEXT_MAX: usize = 10_000;

/// The refusal of a text longer than [`DEFAULT_TEXT_MAX`], or `None` when it fits: one
/// check and one message for the REST binder and `/graphql`'s variables.
pub fn over_default_length(text: &str) -> Option<String> {
    (text.chars().count() > DEFAULT_TEXT_MAX)
        .then(|| format!("String should have at most {DEFAULT_TEXT_MAX} characters"))
}

/// The most characters the text accepts (the server refuses more with a field-level 422).
/// A text input without it takes at most 10,000 characters (`DEFAULT_TEXT_MAX`).
#[TypeDirective(
    name = "length",
    location = "InputFieldDefinition",
    location = "ArgumentDefinition"
)]
pub fn length(max: usize) {}

/// The smallest and largest whole number the field accepts (the server refuses others with a
/// field-level 422).
#[TypeDirective(
    name = "range",
    location = "InputFieldDefinition",
    location = "ArgumentDefinition"
)]
pub fn range(min: i64, max: i64) {}

/// The text is an e-mail address (the server refuses other text with a field-level 422);
/// the OpenAPI document says `format: email`.
#[TypeDirective(
    name = "email",
    location = "InputFieldDefinition",
    location = "ArgumentDefinition"
)]
pub fn email_address() {}

/// On an input argument whose type serves both create and update (one field list, fields
/// optional so an update can leave them out): the fields this mutation needs all the same.
/// The rules refuse their absence; the REST facade declares them `required` in the OpenAPI
/// document and refuses a body without them with a field-level 422 before the rules run.
#[TypeDirective(name = "requires", location = "ArgumentDefinition")]
pub fn requires(fields: Vec<String>) {}

/// Another key the REST facade accepts for this input field, besides its own snake_case name:
/// FilaOps's spelling where Strata's differs (`setup_time_minutes` for `setupMinutes`). The
/// field's own name wins when a body has both.
#[TypeDirective(name = "restAlias", location = "InputFieldDefinition")]
pub fn rest_alias(name: String) {}
