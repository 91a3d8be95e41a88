//! Scalars with the wire formats of CONTRACT: UTC datetimes end in `Z`.

use async_graphql::{InputValueError, InputValueResult, Scalar, ScalarType, Value};
use chrono::{DateTime, SecondsFormat, Utc};

/// An instant, ISO 8601 in UTC with a `Z` (for example `2026-11-22T09:15:00.123Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Decimal(pub bigdecimal::BigDecimal);

/// An exact decimal as a string, e.g. `"19.99"`; input also accepts a number.
#[Scalar(name = "Decimal")]
impl ScalarType for Decimal {
    fn parse(value: Value) -> InputValueResult<Self> {
        let text = match &value {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            _ => return Err(InputValueError::expected_type(value)),
        };
        text.parse::<bigdecimal::BigDecimal>()
            .map(Decimal)
            .map_err(|_| InputValueError::custom("Input should be a valid decimal"))
    }

    fn to_value(&self) -> Value {
        Value::String(self.0.normalized().to_plain_string_min_scale(&self.0))
    }
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
