//! Field checks shared by vendors, customers and the customer import: trimming, blank to
//! null, length limits, ranges, e-mail syntax and no control or text-direction characters in
//! codes and names, collected as `userErrors` (REST 422 with
//! the field list) so one request reports every problem at once.

use async_graphql::MaybeUndefined;

use crate::platform::email::Email;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// Longest name or company name.
pub const NAME_MAX: usize = 200;
/// Longest person name part (given or family name).
pub const PERSON_NAME_MAX: usize = 100;
/// Longest short code (vendor code, tax id).
pub const CODE_MAX: usize = 50;
/// Longest phone number.
pub const PHONE_MAX: usize = 50;
/// Longest address line.
pub const LINE_MAX: usize = 255;
/// Longest city, state, country or similar.
pub const PLACE_MAX: usize = 100;
/// Longest postal code.
pub const POSTAL_MAX: usize = 20;
/// Longest URL.
pub const URL_MAX: usize = 500;
/// Longest free text (notes, a whole address).
pub const TEXT_MAX: usize = 10_000;

/// Collects the problems of one input.
#[derive(Debug, Default)]
pub struct Checker {
    errors: Vec<UserError>,
}

/// Trims; blank becomes `None`.
pub fn clean(raw: Option<&str>) -> Option<String> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

impl Checker {
    /// A new, empty collector.
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Records a problem with `field`.
    pub fn invalid(&mut self, field: &str, message: impl Into<String>) {
        self.errors
            .push(UserError::new(field, UserErrorCode::Invalid, message));
    }

    /// The problems so far (empty when the input is fine).
    pub fn finish(self) -> Result<(), Vec<UserError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }

    /// True when a problem was recorded.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The problems so far, as plain messages prefixed with the field (for import rows).
    pub fn messages(&self) -> Vec<String> {
        self.errors
            .iter()
            .map(|e| match &e.field {
                Some(f) => format!(
                    "{}: {}",
                    crate::platform::rest::types::snake_case(f),
                    e.message
                ),
                None => e.message.clone(),
            })
            .collect()
    }

    fn max(&mut self, field: &str, value: &str, max: usize) -> bool {
        if value.chars().count() > max {
            self.invalid(
                field,
                format!("String should have at most {max} characters"),
            );
            false
        } else {
            true
        }
    }

    /// Refuses control and text-direction characters in a code or name (the one rule of
    /// [`crate::platform::db::text::hidden_characters`]).
    fn plain(&mut self, field: &str, value: &str) -> bool {
        match crate::platform::db::text::hidden_characters(field, value) {
            Some(error) => {
                self.errors.push(error);
                false
            }
            None => true,
        }
    }

    /// A required code or name: trimmed, not blank, no control or text-direction
    /// characters, at most `max` characters.
    pub fn required(&mut self, field: &str, raw: &str, max: usize) -> String {
        let value = raw.trim();
        if value.is_empty() {
            self.invalid(field, "String should have at least 1 character");
        } else if self.plain(field, value) {
            self.max(field, value, max);
        }
        value.to_string()
    }

    /// An optional text: trimmed, blank is `None`, at most `max` characters.
    pub fn optional(&mut self, field: &str, raw: Option<&str>, max: usize) -> Option<String> {
        let value = clean(raw)?;
        self.max(field, &value, max);
        Some(value)
    }

    /// An optional code or name: like [`Checker::optional`], and without control or
    /// text-direction characters.
    pub fn optional_name(&mut self, field: &str, raw: Option<&str>, max: usize) -> Option<String> {
        let value = clean(raw)?;
        if self.plain(field, &value) {
            self.max(field, &value, max);
        }
        Some(value)
    }

    /// Checks a form's optional text in place, as [`Checker::optional`]: an absent change
    /// stays absent, a blank one becomes a clear.
    pub fn form_text(&mut self, field: &str, value: &mut Option<Option<String>>, max: usize) {
        if let Some(v) = value.take() {
            *value = Some(self.optional(field, v.as_deref(), max));
        }
    }

    /// Checks a form's optional code or name in place, as [`Checker::optional_name`].
    pub fn form_name(&mut self, field: &str, value: &mut Option<Option<String>>, max: usize) {
        if let Some(v) = value.take() {
            *value = Some(self.optional_name(field, v.as_deref(), max));
        }
    }

    /// A change to an optional text: absent keeps it, null or blank clears it.
    pub fn patch(
        &mut self,
        field: &str,
        raw: &MaybeUndefined<String>,
        max: usize,
    ) -> Option<Option<String>> {
        match raw {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(v) => Some(self.optional(field, Some(v), max)),
        }
    }

    /// A change to an optional code or name: like [`Checker::patch`], checked as
    /// [`Checker::optional_name`].
    pub fn patch_name(
        &mut self,
        field: &str,
        raw: &MaybeUndefined<String>,
        max: usize,
    ) -> Option<Option<String>> {
        match raw {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(v) => Some(self.optional_name(field, Some(v), max)),
        }
    }

    /// A required e-mail address (normalised to lower case).
    pub fn email(&mut self, field: &str, raw: &str) -> Option<Email> {
        match Email::parse(raw) {
            Ok(e) => Some(e),
            Err(m) => {
                self.invalid(field, m);
                None
            }
        }
    }

    /// An optional e-mail address: blank is `None`.
    pub fn optional_email(&mut self, field: &str, raw: Option<&str>) -> Option<String> {
        let value = clean(raw)?;
        self.email(field, &value).map(|e| e.as_str().to_string())
    }

    /// A change to an optional e-mail: absent keeps it, null or blank clears it.
    pub fn patch_email(
        &mut self,
        field: &str,
        raw: &MaybeUndefined<String>,
    ) -> Option<Option<String>> {
        match raw {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(v) => Some(self.optional_email(field, Some(v))),
        }
    }

    /// An optional whole number within `min..=max` (bounds inclusive).
    pub fn range(&mut self, field: &str, value: Option<i32>, min: i32, max: i32) -> Option<i32> {
        let v = value?;
        if v < min {
            self.invalid(
                field,
                format!("Input should be greater than or equal to {min}"),
            );
        } else if v > max {
            self.invalid(
                field,
                format!("Input should be less than or equal to {max}"),
            );
        }
        Some(v)
    }

    /// A change to an optional whole number within `min..=max`.
    pub fn patch_range(
        &mut self,
        field: &str,
        raw: &MaybeUndefined<i32>,
        min: i32,
        max: i32,
    ) -> Option<Option<i32>> {
        match raw {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(v) => Some(self.range(field, Some(*v), min, max)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_trimmed_and_blank_is_null() {
        let mut c = Checker::new();
        assert_eq!(
            c.optional("city", Some("  Ghent "), PLACE_MAX),
            Some("Ghent".into())
        );
        assert_eq!(c.optional("city", Some("   "), PLACE_MAX), None);
        assert_eq!(c.required("name", " Acme ", NAME_MAX), "Acme");
        assert!(c.finish().is_ok());
    }

    #[test]
    fn problems_are_collected_per_field() {
        let mut c = Checker::new();
        c.required("name", "  ", NAME_MAX);
        c.optional("phone", Some(&"9".repeat(51)), PHONE_MAX);
        c.range("rating", Some(6), 1, 5);
        c.range("leadTimeDays", Some(-1), 0, i32::MAX);
        c.optional_email("email", Some("x@farm.local"));
        assert_eq!(
            c.patch("notes", &MaybeUndefined::Null, TEXT_MAX),
            Some(None)
        );
        assert_eq!(c.patch("notes", &MaybeUndefined::Undefined, TEXT_MAX), None);
        c.required("firstName", "Ann\u{202E}", NAME_MAX);
        c.optional_name("companyName", Some("Acme\u{7}"), NAME_MAX);
        c.patch_name(
            "contactName",
            &MaybeUndefined::Value("\u{2066}Jo".into()),
            NAME_MAX,
        );
        assert_eq!(
            c.optional("notes", Some("line 1\nline 2"), TEXT_MAX),
            Some("line 1\nline 2".into())
        );
        let errors = c.finish().expect_err("invalid");
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.clone()).collect();
        assert_eq!(
            fields,
            [
                "name",
                "phone",
                "rating",
                "leadTimeDays",
                "email",
                "firstName",
                "companyName",
                "contactName"
            ]
        );
        assert_eq!(
            errors[1].message,
            "String should have at most 50 characters"
        );
        assert_eq!(errors[2].message, "Input should be less than or equal to 5");
        assert_eq!(
            errors[3].message,
            "Input should be greater than or equal to 0"
        );
    }
}
