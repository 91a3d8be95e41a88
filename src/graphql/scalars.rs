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
