//! The text rules every area shares: trimming, blank-to-null, length limits and THE case
//! rule for codes (stored upper case, compared with `upper()` on both sides).

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

use crate::platform::graphql::user_error::UserError;

diesel::define_sql_function! {
    /// PostgreSQL's `upper(text)`: how codes are compared (the unique indexes are on
    /// `upper(code)`, so this comparison uses them).
    fn upper(x: Text) -> Text;
}

diesel::define_sql_function! {
    /// PostgreSQL's `lower(text)`: how e-mails are compared (the unique indexes are on
    /// `lower(email)`, so this comparison uses them).
    fn lower(x: Text) -> Text;
}

/// A code as stored: trimmed and upper case.
pub fn normalize_code(code: &str) -> String {
    code.trim().to_uppercase()
}

/// `upper(column) = upper(code)`: the one way a code is looked up.
pub fn code_matches<C>(column: C, code: &str) -> diesel::dsl::Eq<upper<C>, upper<String>>
where
    C: AsExpression<Text>,
    upper<C>: diesel::Expression<SqlType = Text>,
{
    use diesel::ExpressionMethods;
    upper(column).eq(upper(normalize_code(code)))
}

/// Trimmed text, `None` when blank.
pub fn non_blank(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty())
}

use crate::platform::graphql::user_error::invalid;

fn too_long(errors: &mut Vec<UserError>, field: &str, text: &str, max: usize) {
    if text.chars().count() > max {
        errors.push(invalid(
            field,
            format!("String should have at most {max} characters"),
        ));
    }
}

/// True when a text holds characters that must never be in a code, SKU or name: control
/// characters, and the bidirectional controls that make a text display as something it is not.
pub fn has_hidden_characters(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() || crate::platform::graphql::text::is_bidi_control(c))
}

/// The message of [`hidden_characters`].
pub const HIDDEN_CHARACTERS: &str = "Must not contain control or text-direction characters";

/// The field error for a code or name that holds hidden characters
/// ([`has_hidden_characters`]); `None` when the text is plain. Every area's rules call this
/// for their codes and names.
pub fn hidden_characters(field: &str, text: &str) -> Option<UserError> {
    has_hidden_characters(text).then(|| invalid(field, HIDDEN_CHARACTERS))
}

/// A required text of a form: trimmed; blank, hidden characters or too long is an error;
/// missing is an error only when `creating` (an update leaves it as it is).
pub fn required(
    errors: &mut Vec<UserError>,
    field: &str,
    value: &mut Option<String>,
    creating: bool,
    max: usize,
) {
    match value.as_mut() {
        Some(text) => {
            *text = text.trim().to_string();
            if text.is_empty() {
                errors.push(invalid(field, "String should have at least 1 character"));
            } else if let Some(error) = hidden_characters(field, text) {
                errors.push(error);
            } else {
                too_long(errors, field, text, max);
            }
        }
        None if creating => errors.push(invalid(field, "Field required")),
        None => {}
    }
}

/// A required code: like [`required`], then upper case without control characters.
pub fn required_code(
    errors: &mut Vec<UserError>,
    field: &str,
    value: &mut Option<String>,
    creating: bool,
    max: usize,
) {
    required(errors, field, value, creating, max);
    if let Some(code) = value.as_mut() {
        *code = normalize_code(code);
    }
}

/// A clearable text of a form: trimmed, blank becomes null, too long is an error.
pub fn clearable(
    errors: &mut Vec<UserError>,
    field: &str,
    value: &mut Option<Option<String>>,
    max: usize,
) {
    if let Some(text) = value {
        *text = non_blank(text.take());
        if let Some(t) = text {
            too_long(errors, field, t, max);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_codes_upper_cased() {
        let mut errors = vec![];
        let mut code = Some("  prt-1 ".to_string());
        required_code(&mut errors, "code", &mut code, true, 10);
        assert_eq!(code.as_deref(), Some("PRT-1"));
        let mut blank = Some(Some("   ".to_string()));
        clearable(&mut errors, "notes", &mut blank, 10);
        assert_eq!(blank, Some(None));
        let mut missing = None;
        required(&mut errors, "name", &mut missing, true, 10);
        assert_eq!(errors.len(), 1);
    }

    #[test]
    fn control_and_text_direction_characters_are_hidden_characters() {
        for bad in [
            "a\u{0}",
            "a\tb",
            "\u{7f}",
            "a\u{9b}",
            "A\u{202A}",
            "A\u{202E}1",
            "\u{2066}x",
            "x\u{2069}",
        ] {
            let error = hidden_characters("name", bad).expect(bad);
            assert_eq!(error.field.as_deref(), Some("name"));
        }
        for good in ["PRT-001", "Über 1.75 mm", "ПЛА", "日本語", "a b"] {
            assert!(hidden_characters("name", good).is_none(), "{good}");
        }
    }
}
