//! How closed sets and the GraphQL scalars travel to and from PostgreSQL, so a row struct can
//! be the GraphQL object itself (no copy of every field into a second struct).

use diesel::deserialize::{self, FromSql, Queryable};
use diesel::pg::{Pg, PgValue};
use diesel::sql_types::{Numeric, Timestamptz};

use crate::platform::graphql::scalars::{Decimal, Timestamp};

/// Declares a closed set once: a Rust enum that is a GraphQL enum (snake_case values, the
/// REST wire values too), converts to and from its text (`as_ref()`, `parse()`, `Display`,
/// through `strum`) and is stored in a `TEXT` column (diesel `ToSql`/`FromSql<Text>`). Never
/// compare the text by hand: read and write the enum.
///
/// ```text
/// strata::text_enum! {
///     /// What a printer is doing.
///     pub enum PrinterStatus { /// Not reachable.
///         Offline, /// Printing.
///         Printing }
/// }
/// ```
#[macro_export]
macro_rules! text_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash,
            ::async_graphql::Enum,
            ::strum::AsRefStr, ::strum::EnumString, ::strum::Display, ::strum::VariantArray,
            ::diesel::expression::AsExpression, ::diesel::deserialize::FromSqlRow,
        )]
        #[graphql(rename_items = "snake_case")]
        #[strum(serialize_all = "snake_case")]
        #[diesel(sql_type = ::diesel::sql_types::Text)]
        $vis enum $name { $($(#[$vmeta])* $variant),+ }

        impl ::diesel::serialize::ToSql<::diesel::sql_types::Text, ::diesel::pg::Pg> for $name {
            fn to_sql<'b>(
                &'b self,
                out: &mut ::diesel::serialize::Output<'b, '_, ::diesel::pg::Pg>,
            ) -> ::diesel::serialize::Result {
                <str as ::diesel::serialize::ToSql<::diesel::sql_types::Text, ::diesel::pg::Pg>>::to_sql(
                    self.as_ref(),
                    out,
                )
            }
        }

        impl ::diesel::deserialize::FromSql<::diesel::sql_types::Text, ::diesel::pg::Pg> for $name {
            fn from_sql(bytes: ::diesel::pg::PgValue<'_>) -> ::diesel::deserialize::Result<Self> {
                let text = <String as ::diesel::deserialize::FromSql<
                    ::diesel::sql_types::Text,
                    ::diesel::pg::Pg,
                >>::from_sql(bytes)?;
                text.parse()
                    .map_err(|_| format!("unknown {} value {text:?}", stringify!($name)).into())
            }
        }
    };
}

impl FromSql<Timestamptz, Pg> for Timestamp {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        <chrono::DateTime<chrono::Utc> as FromSql<Timestamptz, Pg>>::from_sql(bytes).map(Timestamp)
    }
}

impl diesel::serialize::ToSql<Timestamptz, Pg> for Timestamp {
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, Pg>,
    ) -> diesel::serialize::Result {
        <chrono::DateTime<chrono::Utc> as diesel::serialize::ToSql<Timestamptz, Pg>>::to_sql(
            &self.0, out,
        )
    }
}

impl Queryable<Timestamptz, Pg> for Timestamp {
    type Row = Self;
    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}

impl FromSql<Numeric, Pg> for Decimal {
    fn from_sql(bytes: PgValue<'_>) -> deserialize::Result<Self> {
        <bigdecimal::BigDecimal as FromSql<Numeric, Pg>>::from_sql(bytes).map(Decimal)
    }
}

impl diesel::serialize::ToSql<Numeric, Pg> for Decimal {
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, Pg>,
    ) -> diesel::serialize::Result {
        <bigdecimal::BigDecimal as diesel::serialize::ToSql<Numeric, Pg>>::to_sql(&self.0, out)
    }
}

impl Queryable<Numeric, Pg> for Decimal {
    type Row = Self;
    fn build(row: Self) -> deserialize::Result<Self> {
        Ok(row)
    }
}
