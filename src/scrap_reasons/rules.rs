//! Scrap reason rules: codes (stored lower case) and names are trimmed, 1 to N characters,
//! without control or text-direction characters; descriptions are trimmed, blank becomes
//! null. The resolvers only call these.

use crate::db::text;
use crate::graphql::user_error::UserError;

/// Longest code.
pub const CODE_MAX: usize = 50;
/// Longest name.
pub const NAME_MAX: usize = 100;
/// Longest description.
pub const DESCRIPTION_MAX: usize = 2_000;

/// Trims and checks a required code or name of at most `max` characters (the shared rule
/// of [`text::required`]).
fn check_text(errors: &mut Vec<UserError>, field: &str, raw: &str, max: usize) -> String {
    let mut text = Some(raw.to_string());
    text::required(errors, field, &mut text, true, max);
    text.unwrap_or_default()
}

/// A new reason's code: trimmed, lower case, checked.
pub fn check_code(errors: &mut Vec<UserError>, raw: &str) -> String {
    check_text(errors, "code", &raw.to_lowercase(), CODE_MAX)
}

/// A name: trimmed, checked.
pub fn check_name(errors: &mut Vec<UserError>, raw: &str) -> String {
    check_text(errors, "name", raw, NAME_MAX)
}

/// Trims an optional description (blank becomes null) and checks its length (the shared rule
/// of [`text::clearable`]).
pub fn check_description(
    errors: &mut Vec<UserError>,
    description: Option<String>,
) -> Option<String> {
    let mut text = Some(description);
    text::clearable(errors, "description", &mut text, DESCRIPTION_MAX);
    text.flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_trimmed_and_refuse_hidden_characters() {
        let mut errors = vec![];
        assert_eq!(check_code(&mut errors, " Layer_Shift "), "layer_shift");
        assert_eq!(check_name(&mut errors, " Layer shift "), "Layer shift");
        assert_eq!(check_description(&mut errors, Some("  ".into())), None);
        assert!(errors.is_empty());
        check_code(&mut errors, "shift\u{202E}");
        check_name(&mut errors, "a\u{7}b");
        check_name(&mut errors, &"n".repeat(NAME_MAX + 1));
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["code", "name", "name"]);
    }
}
