//! Settings rules (CONTRACT 5.16): what each field accepts, the tax rate sent as a
//! percentage and stored as a fraction, the work-day list, and the one transaction that
//! changes the row and writes the security audit log.

use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use diesel_async::{AsyncConnection, AsyncPgConnection};

use crate::master_data::audit::{AuditEvent, Outcome};
use crate::master_data::settings::model::{self, CompanySettingsInput, SettingsForm, SettingsRow};
use crate::platform::auth::RequestMeta;
use crate::platform::auth::viewer::CurrentUser;
use crate::platform::email::Email;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::UserError;

/// Longest one-line text (names, address lines, phone...).
pub const LINE_MAX: usize = 255;
/// Longest quote terms or footer.
pub const LONG_TEXT_MAX: usize = 10_000;

/// A text change: `None` keeps it, `Some(None)` clears it.
pub type TextChange = Option<Option<String>>;

use crate::platform::graphql::user_error::invalid;

/// Trims a text change (blank clears it) and checks its length.
fn text(errors: &mut Vec<UserError>, field: &str, value: &mut TextChange, max: usize) {
    if let Some(v) = value.take() {
        let t = v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        if t.as_ref().is_some_and(|s| s.chars().count() > max) {
            errors.push(invalid(
                field,
                format!("String should have at most {max} characters"),
            ));
        }
        *value = Some(t);
    }
}

fn in_range(errors: &mut Vec<UserError>, field: &str, value: Option<i32>, lo: i32, hi: i32) {
    if value.is_some_and(|v| !(lo..=hi).contains(&v)) {
        errors.push(invalid(
            field,
            format!("Input should be between {lo} and {hi}"),
        ));
    }
}

/// True for an `http(s)` address with a host name that has a dot (or an IP address);
/// `example.com` without a scheme is read as `https://example.com`.
pub fn is_website(raw: &str) -> bool {
    let candidate = if raw.contains("://") {
        raw.to_string()
    } else {
        format!("https://{raw}")
    };
    let Ok(url) = url::Url::parse(&candidate) else {
        return false;
    };
    let host_ok = match url.host() {
        Some(url::Host::Domain(d)) => {
            d.contains('.') && !d.starts_with('.') && !d.ends_with('.') && !d.contains("..")
        }
        Some(url::Host::Ipv4(_) | url::Host::Ipv6(_)) => true,
        None => false,
    };
    matches!(url.scheme(), "http" | "https") && host_ok && !raw.chars().any(char::is_whitespace)
}

/// Reads a work-day list (`0` Monday .. `6` Sunday) into its sorted, comma-joined form.
pub fn parse_work_days(raw: &str) -> Result<(String, i32), String> {
    let mut days = Vec::new();
    for part in raw.split(',').map(str::trim) {
        match part.parse::<u8>() {
            Ok(d) if d <= 6 => {
                if days.contains(&d) {
                    return Err(format!("Day {d} is listed twice"));
                }
                days.push(d);
            }
            _ => {
                return Err(format!(
                    "'{part}' is not a day: use 0 (Monday) to 6 (Sunday), separated by commas"
                ));
            }
        }
    }
    days.sort_unstable();
    let count = days.len() as i32;
    let text = days.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    Ok((text, count))
}

/// The tax rate as a fraction for a percentage: 0-100 with at most 4 decimals (the column
/// keeps 6 for the fraction).
pub fn tax_fraction(percent: &BigDecimal) -> Result<BigDecimal, String> {
    let hundred = BigDecimal::from(100);
    if *percent < BigDecimal::zero() || *percent > hundred {
        return Err("Input should be between 0 and 100".into());
    }
    if percent.normalized().fractional_digit_count() > 4 {
        return Err("Input should have at most 4 decimal places".into());
    }
    Ok((percent / hundred).with_scale(6))
}

/// The percentage of a stored fraction, as a number (8.25 for 0.0825).
pub fn tax_percent(fraction: &BigDecimal) -> f64 {
    (fraction * BigDecimal::from(100))
        .normalized()
        .to_f64()
        .unwrap_or(0.0)
}

/// Checks the input against the current row and keeps only real changes. Returns the
/// changes and the names (snake_case, as REST spells them) of the fields they touch.
pub async fn check(
    conn: &mut AsyncPgConnection,
    mut input: CompanySettingsInput,
    current: &SettingsRow,
) -> AppResult<Result<(SettingsForm, Vec<&'static str>), Vec<UserError>>> {
    let mut errors = Vec::new();
    let percent = input.tax_rate_percent.take();
    let mut c = SettingsForm::from(input);
    for (field, value, max) in [
        ("companyName", &mut c.company_name, LINE_MAX),
        (
            "companyAddressLine1",
            &mut c.company_address_line1,
            LINE_MAX,
        ),
        (
            "companyAddressLine2",
            &mut c.company_address_line2,
            LINE_MAX,
        ),
        ("companyCity", &mut c.company_city, LINE_MAX),
        ("companyState", &mut c.company_state, LINE_MAX),
        ("companyZip", &mut c.company_zip, LINE_MAX),
        ("companyCountry", &mut c.company_country, LINE_MAX),
        ("companyPhone", &mut c.company_phone, LINE_MAX),
        ("companyEmail", &mut c.company_email, LINE_MAX),
        ("companyWebsite", &mut c.company_website, LINE_MAX),
        ("taxName", &mut c.tax_name, LINE_MAX),
        (
            "taxRegistrationNumber",
            &mut c.tax_registration_number,
            LINE_MAX,
        ),
        ("quoteTerms", &mut c.quote_terms, LONG_TEXT_MAX),
        ("quoteFooter", &mut c.quote_footer, LONG_TEXT_MAX),
    ] {
        text(&mut errors, field, value, max);
    }
    c.timezone = c.timezone.map(|t| t.trim().to_string());

    if let Some(Some(email)) = &c.company_email {
        match Email::parse(email) {
            Ok(e) => c.company_email = Some(Some(e.as_str().to_string())),
            Err(message) => errors.push(invalid("companyEmail", message)),
        }
    }
    if let Some(Some(site)) = &c.company_website
        && !is_website(site)
    {
        errors.push(invalid(
            "companyWebsite",
            "Input should be a valid URL (for example https://example.com)",
        ));
    }
    if let Some(p) = &percent {
        match tax_fraction(&p.0) {
            Ok(f) => c.tax_rate = Some(f),
            Err(message) => errors.push(invalid("taxRatePercent", message)),
        }
    }
    in_range(
        &mut errors,
        "defaultQuoteValidityDays",
        c.default_quote_validity_days,
        1,
        365,
    );
    in_range(
        &mut errors,
        "businessHoursStart",
        c.business_hours_start,
        0,
        23,
    );
    in_range(&mut errors, "businessHoursEnd", c.business_hours_end, 0, 23);
    in_range(
        &mut errors,
        "businessDaysPerWeek",
        c.business_days_per_week,
        1,
        7,
    );
    if let Some(raw) = c.business_work_days.take() {
        match parse_work_days(&raw) {
            Ok((days, count)) => {
                c.business_work_days = Some(days);
                match c.business_days_per_week {
                    None => c.business_days_per_week = Some(count),
                    Some(n) if n != count && (1..=7).contains(&n) => errors.push(invalid(
                        "businessDaysPerWeek",
                        format!("Input should equal the number of business_work_days ({count})"),
                    )),
                    Some(_) => {}
                }
            }
            Err(message) => errors.push(invalid("businessWorkDays", message)),
        }
    }
    check_currency_and_locale(&mut c, &mut errors);
    if let Some(Some(margin)) = &c.default_margin_percent {
        if *margin < BigDecimal::zero() || *margin > BigDecimal::new(9999.into(), 2) {
            errors.push(invalid(
                "defaultMarginPercent",
                "Input should be between 0 and 99.99",
            ));
        } else {
            c.default_margin_percent = Some(Some(
                margin.with_scale_round(2, bigdecimal::RoundingMode::HalfUp),
            ));
        }
    }
    match c.timezone.as_deref() {
        Some("") => errors.push(invalid(
            "timezone",
            "String should have at least 1 character",
        )),
        Some(tz) if !model::is_time_zone(conn, tz).await? => errors.push(invalid(
            "timezone",
            format!("Unknown time zone '{tz}': use an IANA name such as America/New_York or UTC"),
        )),
        _ => {}
    }
    if !errors.is_empty() {
        return Ok(Err(errors));
    }
    Ok(Ok(only_changes(c, current)))
}

/// Drops the fields whose value is already stored; names the rest.
/// Normalises and checks the currency code (ISO 4217, upper case) and the locale (BCP 47,
/// `_` read as `-`).
fn check_currency_and_locale(c: &mut SettingsForm, errors: &mut Vec<UserError>) {
    if let Some(code) = c.currency_code.take() {
        let code = code.trim().to_ascii_uppercase();
        if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) {
            c.currency_code = Some(code);
        } else {
            errors.push(invalid(
                "currencyCode",
                "Input should be a three-letter ISO 4217 currency code such as USD or EUR",
            ));
        }
    }
    if let Some(locale) = c.locale.take() {
        let locale = locale.trim().replace('_', "-");
        if is_locale(&locale) {
            c.locale = Some(locale);
        } else {
            errors.push(invalid(
                "locale",
                "Input should be a locale such as en-US or de-DE",
            ));
        }
    }
}

/// A BCP 47 tag as the column's CHECK reads it: a 2-3 letter language, then subtags of 2-8
/// letters or digits (`en-US`, `zh-Hant-TW`).
fn is_locale(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let language_ok = parts
        .next()
        .is_some_and(|l| (2..=3).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_alphabetic()));
    language_ok
        && parts.all(|p| (2..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn only_changes(mut c: SettingsForm, cur: &SettingsRow) -> (SettingsForm, Vec<&'static str>) {
    let mut changed = Vec::new();
    macro_rules! keep_if_new {
        ($($field:ident),+ $(,)?) => {
            $(
                if c.$field.as_ref().is_some_and(|v| *v == cur.$field) {
                    c.$field = None;
                }
                if c.$field.is_some() {
                    changed.push(stringify!($field));
                }
            )+
        };
    }
    keep_if_new!(
        company_name,
        company_address_line1,
        company_address_line2,
        company_city,
        company_state,
        company_zip,
        company_country,
        company_phone,
        company_email,
        company_website,
        tax_enabled,
        tax_rate,
        tax_name,
        tax_registration_number,
        default_quote_validity_days,
        quote_terms,
        quote_footer,
        timezone,
        business_hours_start,
        business_hours_end,
        business_days_per_week,
        business_work_days,
        currency_code,
        locale,
        allow_negative_inventory,
        quality_mode,
        quality_gate_action,
        default_margin_percent,
    );
    // `tax_rate` is sent as `tax_rate_percent`: name it the way the client did.
    for name in changed.iter_mut() {
        if *name == "tax_rate" {
            *name = "tax_rate_percent";
        }
    }
    (c, changed)
}

/// Changes the settings in one transaction with the row locked, and records the change in
/// the security audit log (who, what fields; never the values) in the same transaction.
pub async fn update(
    conn: &mut AsyncPgConnection,
    actor: &CurrentUser,
    meta: Option<&RequestMeta>,
    input: CompanySettingsInput,
) -> AppResult<Result<SettingsRow, Vec<UserError>>> {
    let actor = actor.clone();
    let meta = meta.cloned();
    conn.transaction::<_, AppError, _>(async move |conn| {
        let current = model::get_for_update(conn).await?;
        let (changes, changed) = match check(conn, input, &current).await? {
            Ok(c) => c,
            Err(errors) => return Ok(Err(errors)),
        };
        if changed.is_empty() {
            return Ok(Ok(current));
        }
        let row = model::update(conn, &changes).await?;
        crate::master_data::audit::record_in(
            conn,
            meta.as_ref(),
            &AuditEvent::new("settings_changed", Outcome::Success)
                .user(actor.id, &actor.email)
                .details(serde_json::json!({ "section": "company", "fields": changed })),
        )
        .await?;
        Ok(Ok(row))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websites() {
        for ok in [
            "https://example.com",
            "example.com",
            "http://shop.example.co.uk/path?q=1",
        ] {
            assert!(is_website(ok), "{ok}");
        }
        for bad in [
            "not a url",
            "ftp://example.com",
            "https://localhost",
            "http://",
            "exa mple.com",
        ] {
            assert!(!is_website(bad), "{bad}");
        }
    }

    #[test]
    fn work_days_and_tax() {
        assert_eq!(parse_work_days("4, 0,1,2,3"), Ok(("0,1,2,3,4".into(), 5)));
        assert!(parse_work_days("0,7").is_err());
        assert!(parse_work_days("0,0").is_err());
        assert!(parse_work_days("").is_err());
        let f = tax_fraction(&"8.25".parse().expect("decimal")).expect("fraction");
        assert_eq!(f.to_string(), "0.082500");
        assert_eq!(tax_percent(&f), 8.25);
        assert!(tax_fraction(&"100.5".parse().expect("decimal")).is_err());
        assert!(tax_fraction(&"-1".parse().expect("decimal")).is_err());
        assert!(tax_fraction(&"1.23456".parse().expect("decimal")).is_err());
    }
}
