//! E-mail addresses, parsed once (parse, don't validate).
//!
//! Standard syntax; the domain needs a dot, and the special-use names `local`, `localhost`,
//! `invalid`, `onion` and `arpa` (and their subdomains) are refused with the messages the
//! original's validator used. `.test` and `example.com` are accepted (CONTRACT precedence).

use std::fmt;

/// Top-level names that can never receive mail.
const SPECIAL_USE: &[&str] = &["local", "localhost", "invalid", "onion", "arpa"];

/// A syntactically valid, deliverable-looking address, lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

/// The longest e-mail address accepted (RFC 5321's limit on a path).
pub const EMAIL_MAX: usize = 254;

impl Email {
    /// Parses and normalises (trim, lower-case) an address.
    pub fn parse(raw: &str) -> Result<Email, String> {
        let value = raw.trim().to_lowercase();
        let fail = |why: &str| Err(format!("value is not a valid email address: {why}"));
        if value.is_empty() {
            return fail("An email address cannot be empty.");
        }
        if value.len() > EMAIL_MAX {
            return fail("The email address is too long.");
        }
        let Some((local, domain)) = value.rsplit_once('@') else {
            return fail("An email address must have an @-sign.");
        };
        if local.is_empty() {
            return fail("There must be something before the @-sign.");
        }
        if local.len() > 64 {
            return fail("The part before the @-sign is too long.");
        }
        let local_ok = local.split('.').all(|atom| {
            !atom.is_empty()
                && atom
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c))
        });
        if !local_ok {
            return fail("The part before the @-sign contains invalid characters or dots.");
        }
        if domain.is_empty() {
            return fail("There must be something after the @-sign.");
        }
        let labels: Vec<&str> = domain.split('.').collect();
        let label_ok = |l: &&str| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        if !labels.iter().all(label_ok) {
            return fail("The part after the @-sign is not valid.");
        }
        let tld = labels.last().copied().unwrap_or_default();
        if SPECIAL_USE.contains(&tld) {
            return fail(
                "The part after the @-sign is a special-use or reserved name that cannot be used with email.",
            );
        }
        if labels.len() < 2 {
            return fail("The part after the @-sign is not valid. It should have a period.");
        }
        if !tld.chars().all(|c| c.is_ascii_alphabetic()) || tld.len() < 2 {
            return fail("The part after the @-sign is not valid.");
        }
        Ok(Email(value))
    }

    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_and_test_domains() {
        for ok in [
            "admin@example.com",
            "A.B+tag@Sub.Example.co.uk",
            "owner@printfarm.test",
            "x@a-b.io",
        ] {
            assert!(Email::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(
            Email::parse(" Admin@Example.COM ").expect("valid").as_str(),
            "admin@example.com"
        );
    }

    #[test]
    fn refuses_special_use_and_malformed() {
        let special = Email::parse("admin@farm.local").expect_err("local");
        assert!(
            special.contains("special-use or reserved name"),
            "{special}"
        );
        for bad in [
            "a@b.localhost",
            "a@x.invalid",
            "a@y.onion",
            "a@in-addr.arpa",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
        assert!(
            Email::parse("a@localhost")
                .expect_err("no dot")
                .contains("special-use")
        );
        assert!(
            Email::parse("a@intranet")
                .expect_err("no dot")
                .contains("period")
        );
        for bad in [
            "",
            "plain",
            "@x.com",
            "a@",
            "a..b@x.com",
            "a b@x.com",
            "a@-x.com",
            "a@x..com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?}");
        }
    }
}
