//! Checks on identifying text (codes, SKUs, names) that any area can call from its rules.
//!
//! A NUL is refused everywhere at the edge (PostgreSQL cannot store it); these checks go
//! further for text people read and match on: a control character (a tab, an escape) or a
//! bidirectional override (which makes `ABC` + U+202E + `123` display as something else, a classic
//! spoofing trick) has no business in a code or a name.

use crate::platform::error::FieldError;

/// Whether `c` is a bidirectional formatting character (embeddings, overrides, isolates and
/// marks: U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Refuses control and bidirectional-override characters in a code, SKU or name, naming
/// `field` (the REST name, e.g. `sku`).
pub fn check_identifier_text(field: &str, value: &str) -> Result<(), FieldError> {
    if crate::platform::db::text::has_hidden_characters(value) {
        return Err(FieldError::new(
            field,
            "Must not contain control or text-direction characters",
        )
        .with_kind("string_pattern_mismatch"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidi_characters_are_refused_and_plain_text_passes() {
        for bad in [
            "A\u{0}B",
            "A\tB",
            "A\u{1b}[31m",
            "PRT\u{202E}100",
            "x\u{2066}y",
            "a\u{200F}",
        ] {
            let error = check_identifier_text("sku", bad).expect_err(bad);
            assert_eq!(error.field, "sku");
        }
        for good in [
            "PRT-001",
            "Überfilament 1.75 mm",
            "ПЛА чёрный",
            "日本語",
            "a b",
        ] {
            assert!(check_identifier_text("name", good).is_ok(), "{good}");
        }
    }
}
