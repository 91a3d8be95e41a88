//! Every rule of spools: what a valid spool is, when it is low or empty, and what creating,
//! correcting and consuming one does. Weight corrections and consumption post through the
//! stock ledger ([`crate::ledgers::inventory::ledger::post`]) and book their value in the general
//! ledger in the caller's database transaction (DOMAIN "Postings" and "Manual
//! transactions"): a correction against 5030 Inventory adjustment, a consumption as 1210
//! WIP / 1200 Raw materials.

use std::str::FromStr;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind, Posted};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{
    NOTES_MAX, QUANTITY_SCALE, REASON_MAX, book_manual, check_quantity, default_location,
    optional_text, today,
};
use crate::ledgers::spools::model::{
    self, NewSpool, NewUsage, SpoolChanges, SpoolRow, SpoolStatus,
};
use crate::master_data::catalog::model::ItemType;
use crate::platform::db::schema::{items, locations, spool_usage, spools};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest spool number.
pub const NUMBER_MAX: usize = 100;
/// Longest supplier lot number or production order code.
pub const LOT_MAX: usize = 100;
/// A spool is low below this share of its initial weight (10 %).
pub const LOW_WEIGHT_FRACTION: &str = "0.1";
/// A spool is empty below this many grams.
pub const EMPTY_BELOW_GRAMS: &str = "0.05";

/// [`LOW_WEIGHT_FRACTION`] as a number.
pub fn low_weight_fraction() -> BigDecimal {
    BigDecimal::from_str(LOW_WEIGHT_FRACTION).unwrap_or_default()
}

/// [`EMPTY_BELOW_GRAMS`] as a number.
pub fn empty_below() -> BigDecimal {
    BigDecimal::from_str(EMPTY_BELOW_GRAMS).unwrap_or_default()
}

/// Filament left as a percentage of the initial weight (two decimals).
pub fn remaining_percent(initial: &BigDecimal, current: &BigDecimal) -> BigDecimal {
    if *initial <= BigDecimal::zero() {
        return BigDecimal::zero();
    }
    (current * BigDecimal::from(100) / initial).with_scale_round(2, RoundingMode::HalfUp)
}

/// Low: active with less than 10 % of its initial weight left (CONTRACT 5.10).
pub fn is_low(status: SpoolStatus, initial: &BigDecimal, current: &BigDecimal) -> bool {
    status == SpoolStatus::Active && *current < initial * low_weight_fraction()
}

/// Empty: less than 0.05 g left, or marked empty (CONTRACT 5.10).
pub fn is_empty(status: SpoolStatus, current: &BigDecimal) -> bool {
    status == SpoolStatus::Empty || *current < empty_below()
}

use crate::platform::graphql::user_error::invalid;

fn weight(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal, positive: bool) {
    check_quantity(errors, field, value);
    if positive && *value <= BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than 0"));
    } else if !positive && *value < BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than or equal to 0"));
    } else if *value >= 10_000_000_000i64 {
        errors.push(invalid(field, "The weight is too large"));
    }
}

/// A new spool (`POST /spools/`; weights in grams).
#[derive(Debug, Clone, InputObject)]
pub struct SpoolCreateInput {
    /// The spool's number (unique ignoring case).
    pub spool_number: String,
    /// The material item it is a roll of.
    pub product_id: i64,
    /// Filament on the spool when received, in grams.
    pub initial_weight_grams: Decimal,
    /// Filament left now, in grams (default: the initial weight).
    pub current_weight_grams: Option<Decimal>,
    /// Where it is stored (default: the first warehouse, `MAIN`).
    pub location_id: Option<i64>,
    /// The supplier's lot number.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::spools::rules::LOT_MAX))]
    pub supplier_lot_number: Option<String>,
    /// When it was received (default: today).
    pub received_date: Option<NaiveDate>,
    /// When it expires.
    pub expiry_date: Option<NaiveDate>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
}

/// Changes to a spool (`PATCH /spools/{id}`): omitted fields keep their value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct SpoolUpdateInput {
    /// Filament left, in grams: a change posts a `spool_adjustment` through the stock
    /// ledger and needs a `reason`.
    pub current_weight_grams: Option<Decimal>,
    /// The new status (default: `empty` when the weight drops below 0.05 g, `active` when an
    /// empty spool gets filament back).
    pub status: Option<SpoolStatus>,
    /// Where it is stored now (its ledger postings use this location from now on).
    pub location_id: Option<i64>,
    /// Notes (blank clears them).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// Why the weight changed (required when it does).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::REASON_MAX))]
    pub reason: Option<String>,
}

/// What a spool change did.
#[derive(Debug, Clone, SimpleObject)]
pub struct SpoolPosting {
    /// The spool after the change.
    pub spool: SpoolRow,
    /// The stock transaction posted (a weight change or a consumption), if any.
    pub transaction_id: Option<i64>,
    /// Its journal entry, if value moved.
    pub journal_entry_id: Option<i64>,
    /// What happened, for people.
    pub message: String,
}

async fn check_location(
    conn: &mut AsyncPgConnection,
    errors: &mut Vec<UserError>,
    id: i64,
) -> Result<(), Stop> {
    let found: Option<bool> = locations::table
        .find(id)
        .select(locations::active)
        .first(conn)
        .await
        .optional()?;
    match found {
        None => errors.push(UserError::new(
            "locationId",
            UserErrorCode::NotFound,
            format!("Location {id} not found"),
        )),
        Some(false) => errors.push(UserError::new(
            "locationId",
            UserErrorCode::NotAllowed,
            format!("Location {id} is inactive"),
        )),
        Some(true) => {}
    }
    Ok(())
}

/// Creates a spool in the caller's transaction. It records stock the ledger already holds,
/// so nothing is posted.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: SpoolCreateInput,
    user: i64,
) -> Result<SpoolRow, Stop> {
    let mut errors = Vec::new();
    let mut number = Some(input.spool_number.clone());
    crate::platform::db::text::required(&mut errors, "spoolNumber", &mut number, true, NUMBER_MAX);
    let number = number.unwrap_or_default();
    let initial = input.initial_weight_grams.0.clone();
    weight(&mut errors, "initialWeightGrams", &initial, true);
    let current = input
        .current_weight_grams
        .as_ref()
        .map_or_else(|| initial.clone(), |c| c.0.clone());
    if input.current_weight_grams.is_some() {
        weight(&mut errors, "currentWeightGrams", &current, false);
        if current > initial {
            errors.push(invalid(
                "currentWeightGrams",
                "The current weight cannot exceed the initial weight",
            ));
        }
    }
    optional_text(
        &mut errors,
        "supplierLotNumber",
        &mut input.supplier_lot_number,
        LOT_MAX,
    );
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    let received = input.received_date.unwrap_or_else(today);
    if let Some(expiry) = input.expiry_date
        && expiry < received
    {
        errors.push(invalid(
            "expiryDate",
            "The expiry date cannot be before the received date",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let product: Option<(String, ItemType)> = items::table
        .find(input.product_id)
        .select((items::sku, items::item_type))
        .first(conn)
        .await
        .optional()?;
    match product {
        None => errors.push(UserError::new(
            "productId",
            UserErrorCode::NotFound,
            "Product not found",
        )),
        Some((sku, kind)) if kind != ItemType::Material => errors.push(UserError::new(
            "productId",
            UserErrorCode::NotAllowed,
            format!("{sku} is not a material; spools hold materials"),
        )),
        Some(_) => {}
    }
    if let Some(id) = input.location_id {
        check_location(conn, &mut errors, id).await?;
    }
    if model::number_taken(conn, &number, None).await? {
        errors.push(UserError::new(
            "spoolNumber",
            UserErrorCode::Taken,
            format!("Spool number '{number}' already exists"),
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let location_id = match input.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let status = if is_empty(SpoolStatus::Active, &current) {
        SpoolStatus::Empty
    } else {
        SpoolStatus::Active
    };
    let row = diesel::insert_into(spools::table)
        .values(NewSpool {
            spool_number: number,
            product_id: input.product_id,
            initial_weight_g: initial.with_scale(QUANTITY_SCALE),
            current_weight_g: current.with_scale(QUANTITY_SCALE),
            status,
            received_date: received,
            expiry_date: input.expiry_date,
            location_id: Some(location_id),
            supplier_lot_number: input.supplier_lot_number,
            notes: input.notes,
            created_by: Some(user),
        })
        .returning(SpoolRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<SpoolRow, Stop> {
    model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Spool not found"))
}

async fn stock_location(conn: &mut AsyncPgConnection, spool: &SpoolRow) -> Result<i64, Stop> {
    Ok(match spool.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    })
}

fn first_transaction(posted: &Posted) -> Option<i64> {
    <[_]>::first(&posted.transactions).map(|t| t.id)
}

/// Changes a spool in the caller's transaction. A weight change needs a reason and posts
/// the difference as an adjustment (`reference_type` `spool_adjustment`) with its journal
/// entry against 5030 Inventory adjustment.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SpoolUpdateInput,
    user: i64,
) -> Result<SpoolPosting, Stop> {
    let clear_notes = validate_update(&mut input)?;
    let mut errors = Vec::new();
    let spool = locked(conn, id).await?;
    if let Some(location) = input.location_id {
        check_location(conn, &mut errors, location).await?;
    }
    let before = spool.current_weight_grams.0.clone();
    let after = input
        .current_weight_grams
        .as_ref()
        .map(|w| w.0.with_scale(QUANTITY_SCALE));
    let delta = after.as_ref().map(|a| a - &before).filter(|d| !d.is_zero());
    if delta.is_some() && input.reason.is_none() {
        errors.push(UserError::new(
            "reason",
            UserErrorCode::NotAllowed,
            "A reason is required when the weight changes",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let changes = spool_changes(&spool, &input, after, delta.is_some(), clear_notes);
    // Where the spool's grams sit on the books before this change: a weight correction
    // posts there, then a move carries the grams to the new place.
    let was_at = stock_location(conn, &spool).await?;
    let spool = if changes.current_weight_g.is_none()
        && changes.status.is_none()
        && changes.location_id.is_none()
        && changes.notes.is_none()
    {
        spool
    } else {
        diesel::update(spools::table.find(id))
            .set(&changes)
            .returning(SpoolRow::as_returning())
            .get_result(conn)
            .await?
    };
    let moved_to = input.location_id.filter(|to| *to != was_at);
    let Some(delta) = delta else {
        let transaction_id = match moved_to {
            Some(to) => move_grams(conn, &spool, was_at, to, user).await?,
            None => None,
        };
        return Ok(SpoolPosting {
            spool,
            transaction_id,
            journal_entry_id: None,
            message: "Spool updated successfully".into(),
        });
    };
    let (transaction_id, entry) =
        post_weight_correction(conn, &spool, was_at, delta, input.reason.clone(), user).await?;
    if let Some(to) = moved_to {
        move_grams(conn, &spool, was_at, to, user).await?;
    }
    Ok(SpoolPosting {
        transaction_id,
        journal_entry_id: entry,
        message: "Spool updated successfully".into(),
        spool,
    })
}

/// Checks the fields of a spool change (trimming its texts); answers whether the notes are
/// to be cleared (given blank).
fn validate_update(input: &mut SpoolUpdateInput) -> Result<bool, Stop> {
    let mut errors = Vec::new();
    if let Some(w) = &input.current_weight_grams {
        weight(&mut errors, "currentWeightGrams", &w.0, false);
    }
    optional_text(&mut errors, "reason", &mut input.reason, REASON_MAX);
    let clear_notes = input.notes.as_deref().is_some_and(|n| n.trim().is_empty());
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(clear_notes)
}

/// The columns a spool change sets: the new weight when it changed, the status given (or
/// empty / active again as the new weight implies), the location and the notes.
fn spool_changes(
    spool: &SpoolRow,
    input: &SpoolUpdateInput,
    after: Option<BigDecimal>,
    weight_changed: bool,
    clear_notes: bool,
) -> SpoolChanges {
    let weight_now = after
        .clone()
        .unwrap_or_else(|| spool.current_weight_grams.0.clone());
    let status = input.status.or_else(|| {
        if !weight_changed {
            None
        } else if is_empty(SpoolStatus::Active, &weight_now) {
            Some(SpoolStatus::Empty)
        } else if spool.status == SpoolStatus::Empty {
            Some(SpoolStatus::Active)
        } else {
            None
        }
    });
    SpoolChanges {
        current_weight_g: after.filter(|_| weight_changed),
        status,
        location_id: input.location_id.map(Some),
        notes: if clear_notes {
            Some(None)
        } else {
            input.notes.clone().map(Some)
        },
    }
}

/// Posts a spool's weight correction at `location_id` as a `spool_adjustment` with its
/// journal entry against 5030 Inventory adjustment; answers the stock transaction and the
/// entry.
async fn post_weight_correction(
    conn: &mut AsyncPgConnection,
    spool: &SpoolRow,
    location_id: i64,
    delta: BigDecimal,
    reason: Option<String>,
    user: i64,
) -> Result<(Option<i64>, Option<i64>), Stop> {
    let movement = Movement {
        reference_type: Some(ReferenceType::SpoolAdjustment),
        reference_id: Some(spool.id),
        lot_number: spool.supplier_lot_number.clone(),
        reason,
        notes: Some(format!("Spool {}", spool.spool_number)),
        created_by: Some(user),
        ..Movement::new(
            spool.product_id,
            location_id,
            MovementKind::Adjustment { unit_cost: None },
            delta.clone(),
        )
    };
    let posted = ledger::post(conn, &movement).await?;
    let description = format!(
        "Spool {} weight correction: {} {} {}",
        spool.spool_number,
        delta.normalized(),
        posted.item.unit,
        posted.item.sku
    );
    let entry = book_manual(
        conn,
        &posted,
        today(),
        description,
        SourceType::SpoolAdjustment,
        Some(user),
    )
    .await?;
    Ok((first_transaction(&posted), entry))
}

/// Carries a moved spool's grams on the books from `from` to `to`: a transfer (an issue
/// there and a receipt here, at the average cost, so no journal entry). Only what the books
/// hold free at `from` can go: a spool registered without a receipt has no grams on the books
/// to move, and stock reserved for orders stays where it is. Answers the issue row, if any.
async fn move_grams(
    conn: &mut AsyncPgConnection,
    spool: &SpoolRow,
    from: i64,
    to: i64,
    user: i64,
) -> Result<Option<i64>, Stop> {
    let grams = spool.current_weight_grams.0.clone();
    if grams <= BigDecimal::zero() {
        return Ok(None);
    }
    ledger::lock_item(conn, spool.product_id).await?;
    let free = ledger::balance(conn, spool.product_id, from)
        .await?
        .map(|b| b.available_quantity.0)
        .unwrap_or_default();
    let quantity = grams.min(free);
    if quantity <= BigDecimal::zero() {
        return Ok(None);
    }
    let movement = Movement {
        reference_type: Some(ReferenceType::Transfer),
        reference_id: Some(spool.id),
        lot_number: spool.supplier_lot_number.clone(),
        notes: Some(format!("Spool {} moved", spool.spool_number)),
        created_by: Some(user),
        ..Movement::new(
            spool.product_id,
            from,
            MovementKind::Transfer { to_location_id: to },
            quantity,
        )
    };
    let posted = ledger::post(conn, &movement).await?;
    Ok(first_transaction(&posted))
}

/// What production took from a spool (`POST /spools/{id}/consume`).
#[derive(Debug, Clone, InputObject)]
pub struct SpoolConsumeInput {
    /// The production order that used the filament.
    pub production_order_id: i64,
    /// That order's code (`WO-YYYY-NNNN`), when known.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::spools::rules::LOT_MAX))]
    pub production_order_code: Option<String>,
    /// Grams consumed.
    pub weight_consumed_grams: Decimal,
}

/// Checks, in the consuming transaction, that a production order exists and can take
/// material (released or in progress), locking it; answers its code. Production sits above
/// the spools, so it provides this and the application attaches it
/// (`crate::application::hooks`).
pub type CheckProductionOrder =
    for<'c> fn(
        &'c mut AsyncPgConnection,
        i64,
    ) -> futures_util::future::BoxFuture<'c, Result<String, Stop>>;

/// The schema's [`CheckProductionOrder`].
#[derive(Clone, Copy)]
pub struct ProductionOrderCheck(pub CheckProductionOrder);

/// Consumes filament from a spool in the caller's transaction: the usage row, the spool's
/// new weight (empty below 0.05 g), a `consumption` in the stock ledger referencing the
/// production order, and its journal entry 1210 WIP / inventory account. A caller outside
/// production passes the [`ProductionOrderCheck`]: the order must exist and be released or
/// in progress (its code fills a missing `production_order_code`); production itself, which
/// has the order locked already, passes `None`.
pub async fn consume(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: SpoolConsumeInput,
    user: i64,
    order_check: Option<ProductionOrderCheck>,
) -> Result<SpoolPosting, Stop> {
    let grams = validate_consume(&mut input)?;
    let spool = locked(conn, id).await?;
    let left = check_consumable(&spool, &grams)?;
    if let Some(check) = order_check {
        let code = (check.0)(conn, input.production_order_id).await?;
        input.production_order_code.get_or_insert(code);
    }
    let (transaction_id, entry) = book_consumption(conn, &spool, &input, &grams, user).await?;
    diesel::insert_into(spool_usage::table)
        .values(NewUsage {
            spool_id: spool.id,
            production_order_id: Some(input.production_order_id),
            production_order_code: input.production_order_code,
            weight_consumed_g: grams.with_scale(QUANTITY_SCALE),
            inventory_transaction_id: transaction_id,
            created_by: Some(user),
        })
        .execute(conn)
        .await?;
    let remaining = (&left - &grams).with_scale(QUANTITY_SCALE);
    let status = if is_empty(SpoolStatus::Active, &remaining) {
        SpoolStatus::Empty
    } else {
        SpoolStatus::Active
    };
    let spool: SpoolRow = diesel::update(spools::table.find(id))
        .set((
            spools::current_weight_g.eq(&remaining),
            spools::status.eq(status),
        ))
        .returning(SpoolRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(SpoolPosting {
        message: format!(
            "Consumed {} g from spool {}",
            grams.normalized(),
            spool.spool_number
        ),
        spool,
        transaction_id,
        journal_entry_id: entry,
    })
}

/// Checks the fields of a consumption (trimming the order code); answers the grams.
fn validate_consume(input: &mut SpoolConsumeInput) -> Result<BigDecimal, Stop> {
    let mut errors = Vec::new();
    let grams = input.weight_consumed_grams.0.clone();
    weight(&mut errors, "weightConsumedGrams", &grams, true);
    if input.production_order_id <= 0 {
        errors.push(invalid(
            "productionOrderId",
            "Input should be greater than 0",
        ));
    }
    optional_text(
        &mut errors,
        "productionOrderCode",
        &mut input.production_order_code,
        LOT_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(grams)
}

/// Refuses a consumption from a spool that is not active or holds fewer grams; answers
/// the grams left.
fn check_consumable(spool: &SpoolRow, grams: &BigDecimal) -> Result<BigDecimal, Stop> {
    if spool.status != SpoolStatus::Active {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            format!(
                "Spool {} is {} and cannot be consumed from",
                spool.spool_number, spool.status
            ),
        ));
    }
    let left = spool.current_weight_grams.0.clone();
    if *grams > left {
        return Err(Stop::refuse(
            "weightConsumedGrams",
            UserErrorCode::NotAllowed,
            format!(
                "Cannot consume {} g: spool {} has {} g left",
                grams.normalized(),
                spool.spool_number,
                left.normalized()
            ),
        ));
    }
    Ok(left)
}

/// Posts the consumption in the stock ledger (referencing the production order) and its
/// journal entry 1210 WIP / inventory account, linked to the stock rows; answers the stock
/// transaction and the entry.
async fn book_consumption(
    conn: &mut AsyncPgConnection,
    spool: &SpoolRow,
    input: &SpoolConsumeInput,
    grams: &BigDecimal,
    user: i64,
) -> Result<(Option<i64>, Option<i64>), Stop> {
    let location_id = stock_location(conn, spool).await?;
    let movement = Movement {
        reference_type: Some(ReferenceType::ProductionOrder),
        reference_id: Some(input.production_order_id),
        lot_number: spool.supplier_lot_number.clone(),
        notes: Some(format!("Spool {}", spool.spool_number)),
        created_by: Some(user),
        ..Movement::new(
            spool.product_id,
            location_id,
            MovementKind::Consumption,
            grams.clone(),
        )
    };
    let posted = ledger::post(conn, &movement).await?;
    let transaction_id = first_transaction(&posted);
    let draft = EntryDraft::new(
        today(),
        format!(
            "Spool {}: {} {} {} to production order {}",
            spool.spool_number,
            grams.normalized(),
            posted.item.unit,
            posted.item.sku,
            input
                .production_order_code
                .clone()
                .unwrap_or_else(|| input.production_order_id.to_string())
        ),
    )
    .source(SourceType::ProductionOrder, Some(input.production_order_id))
    .by(Some(user))
    .transfer(
        SystemAccount::WorkInProgress,
        posted.account,
        &(-posted.value.clone()),
        Some(posted.item.sku.clone()),
    );
    let entry = books::post(conn, draft).await?.map(|e| e.id);
    if let Some(entry) = entry {
        let ids: Vec<i64> = posted.transactions.iter().map(|t| t.id).collect();
        ledger::link_journal_entry(conn, &ids, entry).await?;
    }
    Ok((transaction_id, entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn low_and_empty_follow_the_contract() {
        assert!(is_low(SpoolStatus::Active, &d("1000"), &d("99.99")));
        assert!(!is_low(SpoolStatus::Active, &d("1000"), &d("100")));
        assert!(!is_low(SpoolStatus::Damaged, &d("1000"), &d("5")));
        assert!(is_empty(SpoolStatus::Active, &d("0.049")));
        assert!(!is_empty(SpoolStatus::Active, &d("0.05")));
        assert!(is_empty(SpoolStatus::Empty, &d("500")));
        assert_eq!(remaining_percent(&d("1000"), &d("333")), d("33.30"));
        assert_eq!(remaining_percent(&d("0"), &d("5")), d("0"));
    }
}
