//! The records of traceability an admin keeps by hand (CONTRACT 5.19, 6.7): customers'
//! traceability profiles and the material a production order drew from a lot without a
//! spool. Rows, the one field list of profiles, and their queries; the rules that guard them
//! are in [`rules`](super::rules).

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::schema::{
    customer_traceability_profiles as profiles, customers, production_lot_consumptions,
};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// How far a customer's orders must be traceable (CONTRACT 6.7).
    pub enum TraceabilityLevel {
        /// Nothing beyond the order itself.
        None,
        /// Material lots per order.
        Lot,
        /// A serial number per unit.
        Serial,
        /// Lots and serials, down to every unit's material.
        Full,
    }
}

/// The longest record retention a profile may ask for (100 years, in days).
pub const MAX_RETENTION_DAYS: i32 = 36_500;

/// A customer's traceability profile: what their orders must carry.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = profiles, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "TraceabilityProfile")]
pub struct ProfileRow {
    /// Id.
    pub id: i64,
    /// The customer (one profile each; the original called it `user_id`).
    pub customer_id: i64,
    /// How far their orders must be traceable.
    pub traceability_level: TraceabilityLevel,
    /// A certificate of conformance ships with every order.
    pub requires_coc: bool,
    /// A certificate of analysis of the material ships with every order.
    pub requires_coa: bool,
    /// The first unit of every order is inspected before the rest are made.
    pub requires_first_article: bool,
    /// How long their records are kept, in days (default 2555, seven years).
    pub record_retention_days: i32,
    /// A prefix for their units' serial numbers.
    pub custom_serial_prefix: Option<String>,
    /// Standards their orders follow (e.g. `ISO 9001, AS9100`).
    pub compliance_standards: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = customer_traceability_profiles;
    /// A new traceability profile.
    create TraceabilityProfileCreateInput;
    /// Changes to a profile: omitted fields keep their value, `null` clears a clearable one.
    update TraceabilityProfileUpdateInput;
    /// A profile's writable columns, checked by `rules::check_profile`.
    form ProfileForm;
    {
        /// The customer (one profile each).
        customer_id: required i64,
        /// How far their orders must be traceable (default none).
        traceability_level: optional TraceabilityLevel,
        /// A certificate of conformance ships with every order (default false).
        requires_coc: optional bool,
        /// A certificate of analysis ships with every order (default false).
        requires_coa: optional bool,
        /// First-article inspection (default false).
        requires_first_article: optional bool,
        /// Record retention in days, 1-36500 (default 2555).
        record_retention_days: optional i32,
        /// A prefix for their units' serial numbers (letters, digits, `-`; at most 20).
        custom_serial_prefix: clearable String,
        /// Standards their orders follow.
        compliance_standards: clearable String,
        /// Notes.
        notes: clearable String,
    }
}

use crate::platform::db::schema::customer_traceability_profiles;

/// A profile with the customer it belongs to.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(name = "TraceabilityProfileEntry")]
pub struct Profile {
    /// The profile.
    #[graphql(flatten)]
    pub profile: ProfileRow,
    /// The customer's name (company, else first and last).
    pub customer_name: String,
    /// The customer's e-mail.
    pub customer_email: String,
}

type Named = (ProfileRow, String, String, String, Option<String>);

fn named((profile, email, first, last, company): Named) -> Profile {
    let customer_name = company
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| format!("{first} {last}").trim().to_string());
    Profile {
        profile,
        customer_name,
        customer_email: email,
    }
}

macro_rules! named_profiles {
    () => {
        profiles::table.inner_join(customers::table).select((
            ProfileRow::as_select(),
            customers::email,
            customers::first_name,
            customers::last_name,
            customers::company_name,
        ))
    };
}

/// Every profile, by customer name.
pub async fn all_profiles(conn: &mut AsyncPgConnection) -> AppResult<Vec<Profile>> {
    let rows: Vec<Named> = named_profiles!()
        .order((
            customers::company_name.asc(),
            customers::last_name,
            customers::first_name,
            profiles::id,
        ))
        .load(conn)
        .await?;
    Ok(rows.into_iter().map(named).collect())
}

/// The profile of a customer (404 when the customer has none).
pub async fn profile_of(conn: &mut AsyncPgConnection, customer_id: i64) -> AppResult<Profile> {
    let row: Option<Named> = named_profiles!()
        .filter(profiles::customer_id.eq(customer_id))
        .first(conn)
        .await
        .optional()?;
    row.map(named)
        .ok_or_else(|| AppError::not_found("Traceability profile not found"))
}

/// Inserts a checked profile.
pub async fn insert_profile(conn: &mut AsyncPgConnection, form: &ProfileForm) -> QueryResult<i64> {
    diesel::insert_into(profiles::table)
        .values(form)
        .returning(profiles::id)
        .get_result(conn)
        .await
}

/// Updates a customer's profile with a checked form (an empty change leaves it as it is).
pub async fn update_profile(
    conn: &mut AsyncPgConnection,
    customer_id: i64,
    form: &ProfileForm,
) -> AppResult<()> {
    let result = diesel::update(profiles::table.filter(profiles::customer_id.eq(customer_id)))
        .set(form)
        .execute(conn)
        .await;
    match result {
        Ok(0) => Err(AppError::not_found("Traceability profile not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => Ok(()),
        other => other.map(|_| ()).map_err(Into::into),
    }
}

/// Material a production order drew from a lot (CONTRACT 6.7 `production_lot_consumptions`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = production_lot_consumptions, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "LotConsumption")]
pub struct ConsumptionRow {
    /// Id.
    pub id: i64,
    /// The production order.
    pub production_order_id: i64,
    /// The lot.
    pub material_lot_id: i64,
    /// The unit it went into, when one is named.
    pub serial_number_id: Option<i64>,
    /// The BOM line it filled, when one is named.
    pub bom_line_id: Option<i64>,
    /// How much, in the lot's stocking unit.
    pub quantity_consumed: Decimal,
    /// When.
    pub consumed_at: Timestamp,
    /// Notes.
    pub notes: Option<String>,
    /// Who recorded it.
    pub created_by: Option<i64>,
    /// Recorded.
    pub created_at: Timestamp,
}

/// A consumption to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = production_lot_consumptions)]
pub struct NewConsumption {
    /// The production order.
    pub production_order_id: i64,
    /// The lot.
    pub material_lot_id: i64,
    /// The unit.
    pub serial_number_id: Option<i64>,
    /// The BOM line.
    pub bom_line_id: Option<i64>,
    /// How much.
    pub quantity_consumed: bigdecimal::BigDecimal,
    /// Notes.
    pub notes: Option<String>,
    /// Who.
    pub created_by: Option<i64>,
}

/// Records a consumption.
pub async fn insert_consumption(
    conn: &mut AsyncPgConnection,
    new: &NewConsumption,
) -> QueryResult<ConsumptionRow> {
    diesel::insert_into(production_lot_consumptions::table)
        .values(new)
        .returning(ConsumptionRow::as_returning())
        .get_result(conn)
        .await
}
