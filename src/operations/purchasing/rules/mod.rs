//! Every rule of purchasing: what a valid purchase order and line are, the status flow of
//! CONTRACT 6.3 with its exact messages, what may be edited in which state, and what a
//! receipt does. A receipt runs in the caller's database transaction: under a lock on the
//! order and its lines it checks each line's remaining quantity, converts the purchase unit
//! to the stocking unit, posts the receipts through the stock ledger at unit cost (moving
//! average), creates material lots and spools, books one journal entry (DOMAIN "Postings":
//! inventory account / 2000 Accounts payable) and moves the order to `received` when every
//! line is complete. A second receipt of the same quantity waits for the lock and then finds
//! nothing left to receive, so stock is never counted twice (DOMAIN invariant 6).

//!
//! By resource: [`orders`] (create, change, lines, status, events, on order), [`receiving`]
//! (receipts, lots and spools) and [`vendor_catalog`] (what each vendor sells). The inputs, checks
//! and helpers they share are here.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{Datelike, NaiveDate};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount, cents};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind};
use crate::ledgers::inventory::model::ReferenceType;
use crate::ledgers::inventory::rules::{
    NOTES_MAX, QUANTITY_SCALE, check_quantity, default_location, optional_text, today,
};
use crate::ledgers::spools::rules::SpoolCreateInput;
use crate::master_data::catalog::model::{ItemType, UomRow};
use crate::operations::purchasing::model::{
    self, NewEvent, NewLine, NewLot, PurchaseEventType, PurchaseOrderLineRow, PurchaseOrderRow,
    PurchaseOrderStatus,
};
use crate::platform::db::schema::{
    items, locations, material_colors, material_lots, material_types, purchase_order_events,
    purchase_order_lines, purchase_orders, spools, units_of_measure, vendor_items, vendors,
};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest short text (tracking number, references, lot numbers).
pub const SHORT_MAX: usize = 200;
/// Longest vendor SKU (the column's CHECK).
pub const VENDOR_SKU_MAX: usize = 100;
/// Longest URL.
pub const URL_MAX: usize = 2000;
pub use crate::platform::db::scale::COST_SCALE;

fn invalid(field: &str, message: impl Into<String>) -> UserError {
    UserError::new(field, UserErrorCode::Invalid, message)
}

fn not_allowed(field: &str, message: impl Into<String>) -> Stop {
    Stop::refuse(field, UserErrorCode::NotAllowed, message)
}

diesel::define_sql_function! {
    /// PostgreSQL's `nextval`.
    fn nextval(sequence: diesel::sql_types::Text) -> diesel::sql_types::BigInt;
}

// ------------------------------------------------------------------------------ inputs

/// A line of a purchase order (quantity and unit cost in the purchase unit).
#[derive(Debug, Clone, InputObject)]
pub struct PurchaseOrderLineInput {
    /// The item bought.
    pub product_id: i64,
    /// Quantity, in the purchase unit (> 0).
    pub quantity_ordered: Decimal,
    /// Cost per purchase unit (>= 0).
    pub unit_cost: Decimal,
    /// The unit it is bought in (default: the item's purchase unit).
    pub purchase_unit: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

/// Changes to a line (draft orders only): omitted fields keep their value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct PurchaseOrderLineUpdateInput {
    /// New quantity.
    pub quantity_ordered: Option<Decimal>,
    /// New unit cost.
    pub unit_cost: Option<Decimal>,
    /// New purchase unit.
    pub purchase_unit: Option<String>,
    /// New notes (blank clears them).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
}

/// A new purchase order (it starts as `draft`).
#[derive(Debug, Clone, InputObject)]
pub struct PurchaseOrderCreateInput {
    /// The vendor (404 when it does not exist).
    pub vendor_id: i64,
    /// Order date.
    pub order_date: Option<NaiveDate>,
    /// Expected date.
    pub expected_date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
    /// Tracking number.
    pub tracking_number: Option<String>,
    /// Carrier.
    pub carrier: Option<String>,
    /// Tax (default 0).
    pub tax_amount: Option<Decimal>,
    /// Shipping (default 0).
    pub shipping_cost: Option<Decimal>,
    /// Payment method.
    pub payment_method: Option<String>,
    /// Payment reference.
    pub payment_reference: Option<String>,
    /// A link to the vendor's document.
    pub document_url: Option<String>,
    /// The lines.
    #[graphql(default)]
    pub lines: Vec<PurchaseOrderLineInput>,
}

/// Changes to a purchase order's header: omitted fields keep their value, blank text clears.
#[derive(Debug, Clone, Default, InputObject)]
pub struct PurchaseOrderUpdateInput {
    /// Another vendor (draft orders only).
    pub vendor_id: Option<i64>,
    /// Order date.
    pub order_date: Option<NaiveDate>,
    /// Expected date.
    pub expected_date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
    /// Tracking number.
    pub tracking_number: Option<String>,
    /// Carrier.
    pub carrier: Option<String>,
    /// Tax.
    pub tax_amount: Option<Decimal>,
    /// Shipping.
    pub shipping_cost: Option<Decimal>,
    /// Payment method.
    pub payment_method: Option<String>,
    /// Payment reference.
    pub payment_reference: Option<String>,
    /// Document link.
    pub document_url: Option<String>,
}

/// A status change (`POST /purchase-orders/{id}/status`).
#[derive(Debug, Clone, InputObject)]
pub struct PurchaseOrderStatusInput {
    /// The new status.
    pub status: String,
    /// Tracking number (kept when shipping).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::purchasing::rules::SHORT_MAX))]
    pub tracking_number: Option<String>,
    /// Carrier (kept when shipping).
    pub carrier: Option<String>,
}

/// One spool of a received roll (weights in grams).
#[derive(Debug, Clone, InputObject)]
pub struct ReceiveSpoolInput {
    /// Filament on the spool, in grams.
    pub weight_g: Decimal,
    /// Its number (default: the lot number and a counter).
    pub spool_number: Option<String>,
    /// The supplier's lot number (default: the vendor lot, else the material lot).
    pub supplier_lot_number: Option<String>,
    /// When it expires.
    pub expiry_date: Option<NaiveDate>,
    /// Notes.
    pub notes: Option<String>,
}

/// What arrived of one line.
#[derive(Debug, Clone, InputObject)]
pub struct ReceiveLineInput {
    /// The line.
    pub line_id: i64,
    /// How much arrived, in the line's purchase unit (> 0).
    pub quantity_received: Decimal,
    /// Our lot number (default `{MATERIALCODE}-{YYYY}-{NNNN}`).
    pub lot_number: Option<String>,
    /// The vendor's lot number.
    pub vendor_lot_number: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Create spools for the rolls (one per whole purchase unit when `spools` is empty).
    #[graphql(default)]
    pub create_spools: bool,
    /// The spools received, with their weights in grams.
    #[graphql(default)]
    pub spools: Vec<ReceiveSpoolInput>,
}

/// A receipt (`POST /purchase-orders/{id}/receive`).
#[derive(Debug, Clone, InputObject)]
pub struct PurchaseReceiveInput {
    /// What arrived, per line.
    pub lines: Vec<ReceiveLineInput>,
    /// Where it goes (default: the first warehouse).
    pub location_id: Option<i64>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// When it arrived (default today).
    pub received_date: Option<NaiveDate>,
    /// Accept more than was ordered (refused otherwise).
    #[graphql(default)]
    pub allow_over_receipt: bool,
}

/// What a receipt did (CONTRACT 5.14).
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchaseReceipt {
    /// The order's number.
    pub po_number: String,
    /// How many lines received something.
    pub lines_received: i32,
    /// The quantity received over all lines, in purchase units.
    pub total_quantity: Decimal,
    /// Stock was posted.
    pub inventory_updated: bool,
    /// The stock ledger rows posted.
    pub transactions_created: Vec<i64>,
    /// The spools created.
    pub spools_created: Vec<String>,
    /// The material lots created.
    pub material_lots_created: Vec<String>,
    /// The journal entry (inventory / 2000 Accounts payable).
    pub journal_entry_id: Option<i64>,
    /// The order after the receipt.
    pub purchase_order: PurchaseOrderRow,
}

// ------------------------------------------------------------------------------ helpers

fn money(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    if *value < BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than or equal to 0"));
    } else if *value >= 1_000_000_000_000i64 {
        errors.push(invalid(field, "The amount is too large"));
    }
    let (_, scale) = value.normalized().as_bigint_and_exponent();
    if scale > 2 {
        errors.push(invalid(field, "Use at most 2 decimal places"));
    }
}

fn quantity(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    check_quantity(errors, field, value);
    if *value <= BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than 0"));
    } else if *value >= 10_000_000_000i64 {
        errors.push(invalid(field, "The quantity is too large"));
    }
}

fn unit_cost(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    if *value < BigDecimal::zero() {
        errors.push(invalid(field, "Input should be greater than or equal to 0"));
    } else if *value >= 10_000_000_000i64 {
        errors.push(invalid(field, "The cost is too large"));
    }
    let (_, scale) = value.normalized().as_bigint_and_exponent();
    if scale > COST_SCALE {
        errors.push(invalid(
            field,
            format!("Use at most {COST_SCALE} decimal places"),
        ));
    }
}

/// The facts of an item a purchase line needs.
#[derive(Debug, Clone, Queryable)]
pub struct PurchasedItem {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Stocking unit.
    pub unit: String,
    /// Default purchase unit.
    pub purchase_uom: String,
    /// Stocking units per purchase unit.
    pub purchase_factor: BigDecimal,
    /// Type.
    pub item_type: ItemType,
    /// Lot tracking.
    pub track_lots: bool,
}

async fn purchased_item(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> QueryResult<Option<PurchasedItem>> {
    items::table
        .find(id)
        .select((
            items::id,
            items::sku,
            items::unit,
            items::purchase_uom,
            items::purchase_factor,
            items::item_type,
            items::track_lots,
        ))
        .first(conn)
        .await
        .optional()
}

async fn unit(conn: &mut AsyncPgConnection, code: &str) -> QueryResult<Option<UomRow>> {
    units_of_measure::table
        .filter(units_of_measure::code.eq(code))
        .select(UomRow::as_select())
        .first(conn)
        .await
        .optional()
}

/// Stocking units per purchase unit: 1 for the stocking unit itself, the UOM factors within
/// a class (KG -> G is 1000), else the item's own purchase factor for its purchase unit
/// (a ROLL of 1000 G). Another unit cannot be converted.
pub fn stock_factor(item: &PurchasedItem, purchase: &UomRow, stock: &UomRow) -> Option<BigDecimal> {
    if purchase.code == stock.code {
        return Some(BigDecimal::from(1));
    }
    if let Ok((_, factor)) =
        crate::master_data::catalog::uom::convert(&BigDecimal::from(1), purchase, stock)
    {
        return Some(factor);
    }
    (purchase.code == item.purchase_uom).then(|| item.purchase_factor.clone())
}

/// Checks a line's item and unit; returns the normalised unit code.
async fn check_line_item(
    conn: &mut AsyncPgConnection,
    errors: &mut Vec<UserError>,
    prefix: &str,
    product_id: i64,
    purchase_unit: Option<&str>,
) -> Result<Option<String>, Stop> {
    let Some(item) = purchased_item(conn, product_id).await? else {
        errors.push(UserError::new(
            format!("{prefix}productId"),
            UserErrorCode::NotFound,
            format!("Product {product_id} not found"),
        ));
        return Ok(None);
    };
    if item.item_type == ItemType::Service {
        errors.push(UserError::new(
            format!("{prefix}productId"),
            UserErrorCode::NotAllowed,
            format!(
                "{} is a service and cannot be received into stock",
                item.sku
            ),
        ));
        return Ok(None);
    }
    let code = purchase_unit
        .map(|u| u.trim().to_uppercase())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| item.purchase_uom.clone());
    let (Some(purchase), Some(stock)) = (unit(conn, &code).await?, unit(conn, &item.unit).await?)
    else {
        errors.push(invalid(
            &format!("{prefix}purchaseUnit"),
            format!("Unknown unit of measure '{code}'"),
        ));
        return Ok(None);
    };
    if stock_factor(&item, &purchase, &stock).is_none() {
        errors.push(UserError::new(
            format!("{prefix}purchaseUnit"),
            UserErrorCode::NotAllowed,
            format!(
                "Cannot convert {} to {}, the stocking unit of {}",
                purchase.code, stock.code, item.sku
            ),
        ));
        return Ok(None);
    }
    Ok(Some(code))
}

fn check_line_values(errors: &mut Vec<UserError>, prefix: &str, line: &mut PurchaseOrderLineInput) {
    quantity(
        errors,
        &format!("{prefix}quantityOrdered"),
        &line.quantity_ordered.0,
    );
    unit_cost(errors, &format!("{prefix}unitCost"), &line.unit_cost.0);
    optional_text(
        errors,
        &format!("{prefix}notes"),
        &mut line.notes,
        NOTES_MAX,
    );
}

async fn next_number(conn: &mut AsyncPgConnection, date: NaiveDate) -> QueryResult<String> {
    let n: i64 = diesel::select(nextval("purchase_order_number_seq"))
        .get_result(conn)
        .await?;
    Ok(format!("PO-{}-{n:03}", date.year()))
}

/// Recomputes an order's subtotal (lines rounded to cents) and total.
pub async fn recompute_totals(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let lines = model::lines_of(conn, &[id]).await?;
    let subtotal: BigDecimal = lines
        .iter()
        .map(|l| line_total(&l.quantity_ordered.0, &l.unit_cost.0))
        .sum();
    let row = diesel::update(purchase_orders::table.find(id))
        .set((
            purchase_orders::subtotal.eq(&subtotal),
            purchase_orders::total_amount.eq(purchase_orders::tax_amount
                + purchase_orders::shipping_cost
                + subtotal.clone()),
        ))
        .returning(PurchaseOrderRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// A line's money: quantity x unit cost in cents.
pub fn line_total(quantity: &BigDecimal, cost: &BigDecimal) -> BigDecimal {
    cents(&(quantity * cost))
}

async fn event(
    conn: &mut AsyncPgConnection,
    order: i64,
    kind: PurchaseEventType,
    title: &str,
    description: Option<String>,
    status: Option<(PurchaseOrderStatus, PurchaseOrderStatus)>,
    user: Option<i64>,
) -> QueryResult<()> {
    event_noting(conn, order, kind, title, description, status, user, None).await
}

/// Records an event that carries one named fact (`quantity_received` and the units a
/// receipt took in), which the activity panel shows as "key: value".
#[allow(clippy::too_many_arguments)]
async fn event_noting(
    conn: &mut AsyncPgConnection,
    order: i64,
    kind: PurchaseEventType,
    title: &str,
    description: Option<String>,
    status: Option<(PurchaseOrderStatus, PurchaseOrderStatus)>,
    user: Option<i64>,
    metadata: Option<(&str, String)>,
) -> QueryResult<()> {
    let (metadata_key, metadata_value) = metadata
        .map(|(k, v)| (Some(k.to_string()), Some(v)))
        .unwrap_or_default();
    diesel::insert_into(purchase_order_events::table)
        .values(NewEvent {
            purchase_order_id: order,
            event_type: kind,
            title: title.to_string(),
            description,
            old_status: status.map(|s| s.0.to_string()),
            new_status: status.map(|s| s.1.to_string()),
            created_by: user,
            metadata_key,
            metadata_value,
        })
        .execute(conn)
        .await?;
    Ok(())
}

async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<PurchaseOrderRow, Stop> {
    model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Purchase order not found"))
}

async fn check_vendor(conn: &mut AsyncPgConnection, id: i64) -> Result<(), Stop> {
    let found: Option<(String, bool)> = vendors::table
        .find(id)
        .select((vendors::code, vendors::is_active))
        .first(conn)
        .await
        .optional()?;
    match found {
        None => Err(Stop::refuse(
            "vendorId",
            UserErrorCode::NotFound,
            "Vendor not found",
        )),
        Some((code, false)) => Err(not_allowed(
            "vendorId",
            format!("Vendor {code} is inactive"),
        )),
        Some(_) => Ok(()),
    }
}

fn texts(
    errors: &mut Vec<UserError>,
    notes: &mut Option<String>,
    tracking: &mut Option<String>,
    carrier: &mut Option<String>,
    method: &mut Option<String>,
    reference: &mut Option<String>,
    url: &mut Option<String>,
) {
    optional_text(errors, "notes", notes, NOTES_MAX);
    optional_text(errors, "trackingNumber", tracking, SHORT_MAX);
    optional_text(errors, "carrier", carrier, 100);
    optional_text(errors, "paymentMethod", method, 100);
    optional_text(errors, "paymentReference", reference, SHORT_MAX);
    optional_text(errors, "documentUrl", url, URL_MAX);
}

mod orders;
mod receiving;
mod vendor_catalog;

pub use orders::*;
pub use receiving::*;
pub use vendor_catalog::*;

#[cfg(test)]
mod tests {
    use super::*;
    use PurchaseOrderStatus::*;

    #[test]
    fn the_transition_table_is_the_contracts() {
        let all = [Draft, Ordered, Shipped, Received, Closed, Cancelled];
        let allowed = [
            (Draft, Ordered),
            (Draft, Cancelled),
            (Ordered, Shipped),
            (Ordered, Received),
            (Ordered, Cancelled),
            (Shipped, Received),
            (Shipped, Cancelled),
            (Received, Closed),
            (Received, Cancelled),
        ];
        for from in all {
            for to in all {
                let r = check_transition(from, to.as_ref());
                if allowed.contains(&(from, to)) {
                    assert_eq!(r, Ok(to));
                } else {
                    assert_eq!(r, Err(format!("Cannot transition from '{from}' to '{to}'")));
                }
            }
        }
        assert_eq!(
            check_transition(Draft, "bogus"),
            Err("Cannot transition from 'draft' to 'bogus'".into())
        );
    }

    #[test]
    fn line_totals_are_cents() {
        let d = |s: &str| BigDecimal::from_str(s).unwrap();
        assert_eq!(line_total(&d("3"), &d("19.999")), d("60.00"));
        assert_eq!(line_total(&d("2.5"), &d("20")), d("50.00"));
    }
}
