//! How documents write money and dates for the company's currency and locale (settings
//! `currency_code`, `locale`): `$1,234.50` and `12/07/2026` in `en-US`, `1.234,50 €` and
//! `07.12.2026` in `de-DE`. A small table of the conventions farms ask for, not a CLDR: an
//! unknown language writes `1,234.50` and ISO dates, an unknown currency its code. One
//! currency per company (docs/ARCHITECTURE.md says what multi-currency would need).

use bigdecimal::num_bigint::Sign;
use bigdecimal::{BigDecimal, RoundingMode};
use chrono::NaiveDate;

/// The company's money and date conventions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLocale {
    symbol: String,
    symbol_first: bool,
    places: i64,
    group: &'static str,
    decimal: char,
    date: DateOrder,
}

/// How a locale writes a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DateOrder {
    /// `2026-12-07`.
    Iso,
    /// `12/07/2026`.
    MonthDayYear,
    /// `07/12/2026`.
    DaySlashMonth,
    /// `07.12.2026`.
    DayDotMonth,
    /// `07-12-2026`.
    DayDashMonth,
}

impl Default for DocumentLocale {
    fn default() -> Self {
        DocumentLocale::new("USD", "en-US")
    }
}

impl DocumentLocale {
    /// The conventions of `locale` (BCP 47, `en-US`) for amounts in `currency` (ISO 4217).
    pub fn new(currency: &str, locale: &str) -> DocumentLocale {
        let mut parts = locale.split(['-', '_']);
        let language = parts.next().unwrap_or("en").to_ascii_lowercase();
        let region = parts
            .find(|p| p.len() == 2)
            .map(str::to_ascii_uppercase)
            .unwrap_or_default();
        let (group, decimal) = match (language.as_str(), region.as_str()) {
            (_, "CH") | (_, "LI") => ("'", '.'),
            ("de" | "es" | "it" | "nl" | "da" | "id" | "tr" | "el" | "ro" | "hr" | "sl", _)
            | ("pt", "BR") => (".", ','),
            (
                "fr" | "sv" | "nb" | "nn" | "no" | "fi" | "pl" | "cs" | "sk" | "ru" | "uk" | "hu"
                | "pt" | "lt" | "lv" | "et" | "bg",
                _,
            ) => (" ", ','),
            _ => (",", '.'),
        };
        let date = match (language.as_str(), region.as_str()) {
            ("en", "US") | ("en", "PH") => DateOrder::MonthDayYear,
            ("en", "CA") | ("sv" | "lt" | "ja" | "zh" | "ko" | "hu", _) => DateOrder::Iso,
            (
                "de" | "ru" | "pl" | "fi" | "nb" | "nn" | "no" | "cs" | "sk" | "tr" | "uk" | "ro"
                | "hr" | "sl" | "lv" | "et" | "bg" | "da",
                _,
            ) => DateOrder::DayDotMonth,
            ("nl", _) => DateOrder::DayDashMonth,
            ("en" | "fr" | "es" | "it" | "pt" | "el" | "id", _) => DateOrder::DaySlashMonth,
            _ => DateOrder::Iso,
        };
        let currency = currency.trim().to_ascii_uppercase();
        let symbol = match currency.as_str() {
            "USD" if region.is_empty() || region == "US" => "$",
            "USD" => "US$",
            "CAD" if region == "CA" => "$",
            "CAD" => "CA$",
            "AUD" if region == "AU" => "$",
            "AUD" => "A$",
            "NZD" if region == "NZ" => "$",
            "NZD" => "NZ$",
            "MXN" if region == "MX" => "$",
            "MXN" => "MX$",
            "EUR" => "€",
            "GBP" => "£",
            "JPY" => "¥",
            "CNY" => "CN¥",
            "BRL" => "R$",
            "SEK" | "NOK" => "kr",
            "DKK" => "kr.",
            // The code itself: CHF, and any currency whose sign a PDF's built-in fonts lack.
            other => other,
        }
        .to_string();
        let places = match currency.as_str() {
            "JPY" | "KRW" | "ISK" | "CLP" | "VND" => 0,
            _ => 2,
        };
        // Where the decimal mark is a point (English, Japanese, Swiss...) the sign comes
        // first; where it is a comma (most of Europe) after the amount. Brazil is both.
        let symbol_first = decimal == '.' || (language == "pt" && region == "BR");
        DocumentLocale {
            symbol,
            symbol_first,
            places,
            group,
            decimal,
            date,
        }
    }

    /// An amount with the currency's sign: `$1,234.50`, `-€5.00`, `1.234,50 €`, `CHF 9.90`.
    pub fn money(&self, value: &BigDecimal) -> String {
        let number = self.number(value.abs());
        let sign = if value
            .with_scale_round(self.places, RoundingMode::HalfUp)
            .sign()
            == Sign::Minus
        {
            "-"
        } else {
            ""
        };
        let spaced = self
            .symbol
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '.');
        if self.symbol_first {
            let gap = if spaced { " " } else { "" };
            format!("{sign}{}{gap}{number}", self.symbol)
        } else {
            format!("{sign}{number} {}", self.symbol)
        }
    }

    /// An amount without a sign of its currency, grouped and rounded to its places.
    pub fn number(&self, value: BigDecimal) -> String {
        let rounded = value.with_scale_round(self.places, RoundingMode::HalfUp);
        let negative = rounded.sign() == Sign::Minus;
        let text = rounded.abs().to_string();
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push_str(self.group);
            }
            grouped.push(c);
        }
        let sign = if negative { "-" } else { "" };
        if self.places == 0 {
            format!("{sign}{grouped}")
        } else {
            // A rounded zero prints without its places ("0"): pad them back.
            let places = usize::try_from(self.places).unwrap_or(2);
            format!("{sign}{grouped}{}{fraction:0<places$}", self.decimal)
        }
    }

    /// A date as the locale writes it.
    pub fn date(&self, date: NaiveDate) -> String {
        let pattern = match self.date {
            DateOrder::Iso => "%Y-%m-%d",
            DateOrder::MonthDayYear => "%m/%d/%Y",
            DateOrder::DaySlashMonth => "%d/%m/%Y",
            DateOrder::DayDotMonth => "%d.%m.%Y",
            DateOrder::DayDashMonth => "%d-%m-%Y",
        };
        date.format(pattern).to_string()
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).expect("decimal")
    }

    #[test]
    fn money_follows_the_locale_and_the_currency() {
        let us = DocumentLocale::new("USD", "en-US");
        assert_eq!(us.money(&d("1234.5")), "$1,234.50");
        assert_eq!(us.money(&d("-5")), "-$5.00");
        assert_eq!(us.money(&d("-0.001")), "$0.00", "no minus on a zero");
        let de = DocumentLocale::new("EUR", "de-DE");
        assert_eq!(de.money(&d("1234567.891")), "1.234.567,89 €");
        let fr = DocumentLocale::new("EUR", "fr-FR");
        assert_eq!(fr.money(&d("1234.5")), "1 234,50 €");
        let gb = DocumentLocale::new("GBP", "en-GB");
        assert_eq!(gb.money(&d("99.999")), "£100.00");
        let ch = DocumentLocale::new("CHF", "de-CH");
        assert_eq!(ch.money(&d("1234.5")), "CHF 1'234.50");
        let jp = DocumentLocale::new("JPY", "ja-JP");
        assert_eq!(jp.money(&d("1234.5")), "¥1,235");
        let ca = DocumentLocale::new("CAD", "en-US");
        assert_eq!(ca.money(&d("3")), "CA$3.00");
        let odd = DocumentLocale::new("XYZ", "xx");
        assert_eq!(odd.money(&d("1000")), "XYZ 1,000.00");
    }

    #[test]
    fn dates_follow_the_locale() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 7).expect("date");
        assert_eq!(DocumentLocale::new("USD", "en-US").date(day), "12/07/2026");
        assert_eq!(DocumentLocale::new("GBP", "en-GB").date(day), "07/12/2026");
        assert_eq!(DocumentLocale::new("EUR", "de-DE").date(day), "07.12.2026");
        assert_eq!(DocumentLocale::new("EUR", "nl-NL").date(day), "07-12-2026");
        assert_eq!(DocumentLocale::new("CAD", "en-CA").date(day), "2026-12-07");
        assert_eq!(DocumentLocale::new("USD", "xx").date(day), "2026-12-07");
    }
}
