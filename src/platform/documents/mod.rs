//! Documents the system writes (quote PDFs, packing slips): the layout writer and the
//! GraphQL shape a generated file travels in; and the picture formats uploads may have. The REST facade sends such a value as the
//! file itself (`Route::download`), so GraphQL and REST share one resolver.

pub mod locale;
pub mod pdf;

use async_graphql::SimpleObject;
use base64::Engine;

use crate::platform::documents::pdf::{Align, Column, Document, MARGIN, RIGHT};

/// A file written on request (not stored): its name, type and bytes.
#[derive(Debug, Clone, SimpleObject)]
pub struct GeneratedDocument {
    /// The file name to save it as (`Q-2026-0001.pdf`).
    pub filename: String,
    /// The media type (`application/pdf`).
    pub content_type: String,
    /// The bytes, base64 (standard alphabet, padded).
    pub content_base64: String,
}

impl GeneratedDocument {
    /// A PDF named `filename`.
    pub fn pdf(filename: impl Into<String>, bytes: &[u8]) -> GeneratedDocument {
        GeneratedDocument {
            filename: filename.into(),
            content_type: "application/pdf".into(),
            content_base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        }
    }
}

/// The image formats an uploaded picture (the company logo, a quote's image) may have,
/// recognised by content (never by name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl ImageFormat {
    /// The format of `bytes`, when it is one a picture may have.
    pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
        if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageFormat::Png)
        } else if bytes.starts_with(b"\xFF\xD8\xFF") {
            Some(ImageFormat::Jpeg)
        } else {
            None
        }
    }

    /// The format a stored name was written with.
    pub fn of_stored_name(name: &str) -> Option<ImageFormat> {
        match name.rsplit_once('.').map(|(_, e)| e) {
            Some("png") => Some(ImageFormat::Png),
            Some("jpg") => Some(ImageFormat::Jpeg),
            _ => None,
        }
    }

    /// The file extension it is stored with.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
        }
    }

    /// The MIME type it is served with.
    pub fn content_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
        }
    }
}

/// The body text size of a document, in points.
pub const BODY: f32 = 10.0;
/// The size of labels and small print, in points.
pub const SMALL: f32 = 8.5;

/// Who a document is from: the company block of its letterhead (the company settings give
/// it: `SettingsRow::company`).
#[derive(Debug, Default, Clone, Copy)]
pub struct Company<'a> {
    /// The company's name (`Strata` when none is set).
    pub company_name: Option<&'a str>,
    /// First address line.
    pub company_address_line1: Option<&'a str>,
    /// Second address line.
    pub company_address_line2: Option<&'a str>,
    /// City.
    pub company_city: Option<&'a str>,
    /// State or region.
    pub company_state: Option<&'a str>,
    /// Postal code.
    pub company_zip: Option<&'a str>,
    /// Country.
    pub company_country: Option<&'a str>,
    /// Phone.
    pub company_phone: Option<&'a str>,
    /// E-mail.
    pub company_email: Option<&'a str>,
    /// Web site.
    pub company_website: Option<&'a str>,
}

/// The company block at the top of every document: name, address, contacts.
pub fn letterhead(doc: &mut Document, settings: &Company<'_>, heading: &str, number: &str) {
    let company = settings.company_name.unwrap_or("Strata");
    doc.line(MARGIN, company, 16.0, true);
    let city = [
        settings.company_city,
        settings.company_state,
        settings.company_zip,
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    let contacts = [
        settings.company_phone,
        settings.company_email,
        settings.company_website,
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("  |  ");
    for text in [
        settings.company_address_line1.unwrap_or(""),
        settings.company_address_line2.unwrap_or(""),
        city.as_str(),
        settings.company_country.unwrap_or(""),
        contacts.as_str(),
    ] {
        if !text.is_empty() {
            doc.line(MARGIN, text, SMALL, false);
        }
    }
    doc.gap(12.0);
    doc.row(
        &[
            Column {
                x: MARGIN,
                align: Align::Left,
                width: 250.0,
            },
            Column {
                x: RIGHT,
                align: Align::Right,
                width: 240.0,
            },
        ],
        &[heading, number],
        18.0,
        true,
    );
    doc.rule();
}

/// A titled address block (`SHIP TO`, `VENDOR`) from address parts, skipping the empty ones.
pub fn address(doc: &mut Document, title: &str, lines: &[Option<&str>]) {
    let lines: Vec<&str> = lines
        .iter()
        .flatten()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    if lines.is_empty() {
        return;
    }
    doc.gap(6.0);
    doc.line(MARGIN, title, SMALL, true);
    for line in lines {
        doc.line(MARGIN, line, BODY, false);
    }
}

/// `City State Zip` from the parts that are there.
pub fn city_line(city: Option<&str>, state: Option<&str>, zip: Option<&str>) -> String {
    [city, state, zip]
        .into_iter()
        .flatten()
        .filter(|s| !s.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Money for a document: `1,234.50` (two places, thousands grouped; a minus sign in front).
pub fn money(value: &bigdecimal::BigDecimal) -> String {
    let rounded = value.with_scale_round(2, bigdecimal::RoundingMode::HalfUp);
    let text = rounded.abs().to_string();
    let (whole, cents) = text.split_once('.').unwrap_or((&text, "00"));
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if rounded.sign() == bigdecimal::num_bigint::Sign::Minus {
        "-"
    } else {
        ""
    };
    format!("{sign}{grouped}.{cents}")
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use bigdecimal::BigDecimal;

    #[test]
    fn money_is_grouped_and_rounded_to_cents() {
        let m = |s: &str| super::money(&BigDecimal::from_str(s).expect("decimal"));
        assert_eq!(m("1234.5"), "1,234.50");
        assert_eq!(m("0.005"), "0.01");
        assert_eq!(m("-1234567.891"), "-1,234,567.89");
        assert_eq!(m("12"), "12.00");
        assert_eq!(m("999"), "999.00");
    }
}
