//! Scalars with the wire formats of CONTRACT: UTC datetimes end in `Z`.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};
use chrono::{DateTime, SecondsFormat, Utc};

/// An instant, ISO 8601 in UTC with a `Z` (for example `2026-11-22T09:15:00.123Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, diesel::expression::AsExpression)]
#[diesel(sql_type = diesel::sql_types::Timestamptz)]
pub struct Timestamp(pub DateTime<Utc>);

/// A UTC instant in ISO 8601 with a `Z`, e.g. `2026-11-22T09:15:00.123Z`. Input accepts any
/// RFC 3339 offset and converts it to UTC.
#[Scalar(name = "DateTime")]
impl ScalarType for Timestamp {
    fn parse(value: Value) -> InputValueResult<Self> {
        match &value {
            Value::String(s) => DateTime::parse_from_rfc3339(s)
                .map(|d| Timestamp(d.with_timezone(&Utc)))
                .map_err(|_| {
                    InputValueError::custom("Input should be a valid datetime (RFC 3339)")
                }),
            _ => Err(InputValueError::expected_type(value)),
        }
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.to_rfc3339_opts(SecondsFormat::Millis, true))
    }
}

impl From<DateTime<Utc>> for Timestamp {
    fn from(d: DateTime<Utc>) -> Self {
        Timestamp(d)
    }
}

/// An exact decimal (money, quantities), written as a JSON string such as `"19.99"` so no
/// client ever rounds it through a float. Input accepts a string or a number.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, diesel::expression::AsExpression)]
#[diesel(sql_type = diesel::sql_types::Numeric)]
pub struct Decimal(pub bigdecimal::BigDecimal);

/// Most digits before the decimal point a `Decimal` input may have (the widest column,
/// `NUMERIC(14, 2)`, holds 12).
pub const DECIMAL_MAX_INTEGER_DIGITS: i64 = 12;
/// Most digits after the decimal point a `Decimal` input may have (the finest column,
/// conversion factors, holds 10; money columns round to their 2 or 4 places).
pub const DECIMAL_MAX_FRACTION_DIGITS: i64 = 10;
/// Longest decimal text read at all (so `1e999999999` is never expanded).
const DECIMAL_MAX_TEXT: usize = 40;

/// An exact decimal as a string, e.g. `"19.99"`; input also accepts a number. At most 12
/// digits before the point and 10 after it.
#[Scalar(name = "Decimal")]
impl ScalarType for Decimal {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = match &value {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            _ => return Err(InputValueError::expected_type(value)),
        };
        parse_decimal(&text)
            .map(Decimal)
            .map_err(InputValueError::custom)
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.normalized().to_plain_string_min_scale(&self.0))
    }
}

/// Reads a decimal within the bounds every `Decimal` input has (at most
/// [`DECIMAL_MAX_INTEGER_DIGITS`] digits before the point and
/// [`DECIMAL_MAX_FRACTION_DIGITS`] after it, trailing zeros aside); the error is a message
/// for the client. The REST facade checks its input with the same function.
pub fn parse_decimal(text: &str) -> Result<bigdecimal::BigDecimal, String> {
    let text = text.trim();
    if text.len() > DECIMAL_MAX_TEXT {
        return Err("Input should be a valid decimal".into());
    }
    let decimal = text
        .parse::<bigdecimal::BigDecimal>()
        .map_err(|_| "Input should be a valid decimal".to_string())?;
    let (digits, scale) = decimal.as_bigint_and_exponent();
    let total_digits = if digits == num_bigint_zero() {
        1
    } else {
        digits.to_string().trim_start_matches('-').len() as i64
    };
    if total_digits - scale > DECIMAL_MAX_INTEGER_DIGITS {
        return Err(format!(
            "Input should have at most {DECIMAL_MAX_INTEGER_DIGITS} digits before the decimal point"
        ));
    }
    if scale > DECIMAL_MAX_FRACTION_DIGITS {
        let normalized = decimal.normalized();
        if normalized.fractional_digit_count() > DECIMAL_MAX_FRACTION_DIGITS {
            return Err(format!(
                "Input should have at most {DECIMAL_MAX_FRACTION_DIGITS} decimal places"
            ));
        }
        return Ok(normalized);
    }
    Ok(decimal)
}

fn num_bigint_zero() -> bigdecimal::num_bigint::BigInt {
    bigdecimal::num_bigint::BigInt::from(0)
}

trait PlainString {
    fn to_plain_string_min_scale(&self, original: &bigdecimal::BigDecimal) -> String;
}

impl PlainString for bigdecimal::BigDecimal {
    /// Plain notation (never `1E+2`), keeping at least two decimals for money-like values
    /// stored with a scale of 2 or more (`19.90`, not `19.9`).
    fn to_plain_string_min_scale(&self, original: &bigdecimal::BigDecimal) -> String {
        let scale = original.fractional_digit_count().clamp(0, 2);
        let normalized_scale = self.fractional_digit_count().max(scale);
        self.with_scale(normalized_scale).to_plain_string()
    }
}

impl From<bigdecimal::BigDecimal> for Decimal {
    fn from(d: bigdecimal::BigDecimal) -> Self {
        Decimal(d)
    }
}
