//! Tax rate rows and the queries on them.

use bigdecimal::BigDecimal;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::tax::rules::{DESCRIPTION_MAX, NAME_MAX, REGION_MAX};
use crate::platform::db::schema::tax_rates;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;

/// A stored tax rate.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tax_rates)]
pub struct TaxRateRow {
    /// Id.
    pub id: i64,
    /// Name ("State sales tax", "VAT 20%").
    pub name: String,
    /// The rate as a fraction (0.0825 for 8.25 %).
    pub rate: BigDecimal,
    /// Description.
    pub description: Option<String>,
    /// The shipping state or region it applies to (matched ignoring case).
    pub region: Option<String>,
    /// The default rate (at most one).
    pub is_default: bool,
    /// Active (deleting a rate deactivates it: documents that charged it keep it).
    pub is_active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = tax_rates;
    /// A new tax rate.
    create TaxRateCreateInput;
    /// Changes to a tax rate: omitted fields keep their value.
    update TaxRateUpdateInput;
    /// A tax rate's writable columns, checked and normalised by `rules::save`.
    form TaxRateForm;
    {
        /// Name (1-100 characters, unique among the active rates ignoring case).
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// The rate as a fraction: set from `ratePercent`, never sent itself.
        @create[skip] @update[skip]
        rate: optional BigDecimal,
        /// Description (null clears it).
        [directive = length::apply(DESCRIPTION_MAX)]
        description: clearable String,
        /// The shipping state or region it applies to, e.g. `TX` (null: none; one active
        /// rate per region).
        [directive = length::apply(REGION_MAX)]
        region: clearable String,
        /// Make it the default (the one default before it stops being one).
        is_default: optional bool,
        /// Active (set by delete).
        @create[skip] @update[skip]
        is_active: optional bool,
        /// Changed (set by the server).
        @create[skip] @update[skip]
        updated_at: optional DateTime<Utc>,
    }
    inputs {
        /// The rate in percent, 0 to 100 with at most 4 decimals (8.25 for 8.25 %); required
        /// on create.
        rate_percent: Option<crate::platform::graphql::scalars::Decimal>,
    }
}

/// The rates, default first then by name; inactive ones only when asked.
pub async fn list(
    conn: &mut AsyncPgConnection,
    include_inactive: bool,
) -> AppResult<Vec<TaxRateRow>> {
    let mut q = tax_rates::table
        .select(TaxRateRow::as_select())
        .into_boxed();
    if !include_inactive {
        q = q.filter(tax_rates::is_active.eq(true));
    }
    Ok(
        q.order((tax_rates::is_default.desc(), tax_rates::name, tax_rates::id))
            .load(conn)
            .await?,
    )
}

/// The rate with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<TaxRateRow>> {
    Ok(tax_rates::table
        .find(id)
        .select(TaxRateRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The rate with this id, or 404.
pub async fn get(conn: &mut AsyncPgConnection, id: i64) -> AppResult<TaxRateRow> {
    find(conn, id).await?.ok_or_else(not_found)
}

/// "Tax rate not found" (FilaOps's words).
pub fn not_found() -> AppError {
    AppError::not_found("Tax rate not found")
}

/// The rates with these ids (for a page of customers or documents).
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<TaxRateRow>> {
    Ok(tax_rates::table
        .filter(tax_rates::id.eq_any(ids))
        .select(TaxRateRow::as_select())
        .load(conn)
        .await?)
}
