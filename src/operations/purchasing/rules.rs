//! Every rule of purchasing: what a valid purchase order and line are, the status flow of
//! CONTRACT 6.3 with its exact messages, what may be edited in which state, and what a
//! receipt does. A receipt runs in the caller's database transaction: under a lock on the
//! order and its lines it checks each line's remaining quantity, converts the purchase unit
//! to the stocking unit, posts the receipts through the stock ledger at unit cost (moving
//! average), creates material lots and spools, books one journal entry (DOMAIN "Postings":
//! inventory account / 2000 Accounts payable) and moves the order to `received` when every
//! line is complete. A second receipt of the same quantity waits for the lock and then finds
//! nothing left to receive, so stock is never counted twice (DOMAIN invariant 6).

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
    diesel::insert_into(purchase_order_events::table)
        .values(NewEvent {
            purchase_order_id: order,
            event_type: kind,
            title: title.to_string(),
            description,
            old_status: status.map(|s| s.0.to_string()),
            new_status: status.map(|s| s.1.to_string()),
            created_by: user,
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

// ------------------------------------------------------------------------------ orders

/// Creates a draft purchase order with its lines in the caller's transaction.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: PurchaseOrderCreateInput,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut errors = Vec::new();
    texts(
        &mut errors,
        &mut input.notes,
        &mut input.tracking_number,
        &mut input.carrier,
        &mut input.payment_method,
        &mut input.payment_reference,
        &mut input.document_url,
    );
    let tax = input
        .tax_amount
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    let shipping = input
        .shipping_cost
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    money(&mut errors, "taxAmount", &tax);
    money(&mut errors, "shippingCost", &shipping);
    for (i, line) in input.lines.iter_mut().enumerate() {
        check_line_values(&mut errors, &format!("lines.{i}."), line);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    check_vendor(conn, input.vendor_id).await?;
    let mut units = Vec::with_capacity(input.lines.len());
    for (i, line) in input.lines.iter().enumerate() {
        units.push(
            check_line_item(
                conn,
                &mut errors,
                &format!("lines.{i}."),
                line.product_id,
                line.purchase_unit.as_deref(),
            )
            .await?,
        );
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let number = next_number(conn, today()).await?;
    let id: i64 = diesel::insert_into(purchase_orders::table)
        .values((
            purchase_orders::po_number.eq(&number),
            purchase_orders::vendor_id.eq(input.vendor_id),
            purchase_orders::order_date.eq(input.order_date),
            purchase_orders::expected_date.eq(input.expected_date),
            purchase_orders::notes.eq(&input.notes),
            purchase_orders::tracking_number.eq(&input.tracking_number),
            purchase_orders::carrier.eq(&input.carrier),
            purchase_orders::tax_amount.eq(&tax),
            purchase_orders::shipping_cost.eq(&shipping),
            purchase_orders::payment_method.eq(&input.payment_method),
            purchase_orders::payment_reference.eq(&input.payment_reference),
            purchase_orders::document_url.eq(&input.document_url),
            purchase_orders::created_by.eq(Some(user)),
        ))
        .returning(purchase_orders::id)
        .get_result(conn)
        .await?;
    let rows: Vec<NewLine> = input
        .lines
        .into_iter()
        .zip(units)
        .enumerate()
        .map(|(i, (line, unit))| NewLine {
            purchase_order_id: id,
            line_number: i as i32 + 1,
            product_id: line.product_id,
            quantity_ordered: line.quantity_ordered.0.with_scale(QUANTITY_SCALE),
            unit_cost: line.unit_cost.0.with_scale(COST_SCALE),
            purchase_unit: unit.unwrap_or_default(),
            notes: line.notes,
        })
        .collect();
    if !rows.is_empty() {
        diesel::insert_into(purchase_order_lines::table)
            .values(&rows)
            .execute(conn)
            .await?;
    }
    event(
        conn,
        id,
        PurchaseEventType::Created,
        "Purchase Order Created",
        Some(format!("{number} created as draft")),
        None,
        Some(user),
    )
    .await?;
    recompute_totals(conn, id).await
}

/// Changes an order's header. Closed and cancelled orders cannot change; the vendor only
/// while the order is a draft.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderUpdateInput,
) -> Result<PurchaseOrderRow, Stop> {
    // Blank text clears a field (omitted keeps it): note which were sent blank before the
    // text rules turn blanks into "nothing given".
    let blank = |v: &Option<String>| v.as_deref().is_some_and(|t| t.trim().is_empty());
    let cleared = [
        blank(&input.notes),
        blank(&input.tracking_number),
        blank(&input.carrier),
        blank(&input.payment_method),
        blank(&input.payment_reference),
        blank(&input.document_url),
    ];
    let mut errors = Vec::new();
    texts(
        &mut errors,
        &mut input.notes,
        &mut input.tracking_number,
        &mut input.carrier,
        &mut input.payment_method,
        &mut input.payment_reference,
        &mut input.document_url,
    );
    if let Some(t) = &input.tax_amount {
        money(&mut errors, "taxAmount", &t.0);
    }
    if let Some(s) = &input.shipping_cost {
        money(&mut errors, "shippingCost", &s.0);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    if matches!(
        po.status,
        PurchaseOrderStatus::Closed | PurchaseOrderStatus::Cancelled
    ) {
        return Err(not_allowed(
            "id",
            format!("Cannot edit PO in '{}' status", po.status),
        ));
    }
    if let Some(v) = input.vendor_id
        && v != po.vendor_id
    {
        if po.status != PurchaseOrderStatus::Draft {
            return Err(not_allowed(
                "vendorId",
                format!("Cannot change the vendor of a PO in '{}' status", po.status),
            ));
        }
        check_vendor(conn, v).await?;
    }
    #[derive(AsChangeset)]
    #[diesel(table_name = purchase_orders)]
    struct Changes {
        vendor_id: Option<i64>,
        order_date: Option<NaiveDate>,
        expected_date: Option<NaiveDate>,
        notes: Option<Option<String>>,
        tracking_number: Option<Option<String>>,
        carrier: Option<Option<String>>,
        tax_amount: Option<BigDecimal>,
        shipping_cost: Option<BigDecimal>,
        payment_method: Option<Option<String>>,
        payment_reference: Option<Option<String>>,
        document_url: Option<Option<String>>,
    }
    // `Some(None)` writes NULL; `None` leaves the column alone.
    let text = |value: Option<String>, clear: bool| {
        if clear { Some(None) } else { value.map(Some) }
    };
    let changes = Changes {
        vendor_id: input.vendor_id,
        order_date: input.order_date,
        expected_date: input.expected_date,
        notes: text(input.notes, cleared[0]),
        tracking_number: text(input.tracking_number, cleared[1]),
        carrier: text(input.carrier, cleared[2]),
        tax_amount: input.tax_amount.map(|d| d.0),
        shipping_cost: input.shipping_cost.map(|d| d.0),
        payment_method: text(input.payment_method, cleared[3]),
        payment_reference: text(input.payment_reference, cleared[4]),
        document_url: text(input.document_url, cleared[5]),
    };
    match diesel::update(purchase_orders::table.find(id))
        .set(&changes)
        .execute(conn)
        .await
    {
        Ok(_) => {}
        Err(e) if crate::platform::db::is_empty_update(&e) => {}
        Err(e) => return Err(e.into()),
    }
    recompute_totals(conn, id).await
}

/// What a delete did.
#[derive(Debug, Clone, SimpleObject)]
pub struct PurchaseOrderRemoval {
    /// `Purchase order PO-2026-001 deleted`.
    pub message: String,
}

/// Deletes a draft order (CONTRACT 5.14); any other is refused with the contract's message.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<PurchaseOrderRemoval, Stop> {
    let po = locked(conn, id).await?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed(
            "id",
            format!(
                "Cannot delete PO in '{}' status. Cancel it instead.",
                po.status
            ),
        ));
    }
    diesel::delete(purchase_orders::table.find(id))
        .execute(conn)
        .await?;
    Ok(PurchaseOrderRemoval {
        message: format!("Purchase order {} deleted", po.po_number),
    })
}

fn lines_locked_message(status: PurchaseOrderStatus) -> String {
    format!("Cannot modify lines on PO in '{status}' status")
}

/// Adds a line to a draft order.
pub async fn add_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderLineInput,
) -> Result<PurchaseOrderLineRow, Stop> {
    let mut errors = Vec::new();
    check_line_values(&mut errors, "", &mut input);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed("id", lines_locked_message(po.status)));
    }
    let unit = check_line_item(
        conn,
        &mut errors,
        "",
        input.product_id,
        input.purchase_unit.as_deref(),
    )
    .await?;
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let next: Option<i32> = purchase_order_lines::table
        .filter(purchase_order_lines::purchase_order_id.eq(id))
        .select(diesel::dsl::max(purchase_order_lines::line_number))
        .first(conn)
        .await?;
    let row = diesel::insert_into(purchase_order_lines::table)
        .values(NewLine {
            purchase_order_id: id,
            line_number: next.unwrap_or(0) + 1,
            product_id: input.product_id,
            quantity_ordered: input.quantity_ordered.0.with_scale(QUANTITY_SCALE),
            unit_cost: input.unit_cost.0.with_scale(COST_SCALE),
            purchase_unit: unit.unwrap_or_default(),
            notes: input.notes,
        })
        .returning(PurchaseOrderLineRow::as_returning())
        .get_result(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(row)
}

async fn locked_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
) -> Result<(PurchaseOrderRow, PurchaseOrderLineRow), Stop> {
    let po = locked(conn, id).await?;
    let line = model::lock_lines(conn, id)
        .await?
        .into_iter()
        .find(|l| l.id == line_id)
        .ok_or_else(|| Stop::refuse("lineId", UserErrorCode::NotFound, "Line not found"))?;
    if po.status != PurchaseOrderStatus::Draft {
        return Err(not_allowed("lineId", lines_locked_message(po.status)));
    }
    Ok((po, line))
}

/// Changes a line of a draft order.
pub async fn update_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
    mut input: PurchaseOrderLineUpdateInput,
) -> Result<PurchaseOrderLineRow, Stop> {
    let mut errors = Vec::new();
    if let Some(q) = &input.quantity_ordered {
        quantity(&mut errors, "quantityOrdered", &q.0);
    }
    if let Some(c) = &input.unit_cost {
        unit_cost(&mut errors, "unitCost", &c.0);
    }
    let clear_notes = input.notes.as_deref().is_some_and(|n| n.trim().is_empty());
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let (_, line) = locked_line(conn, id, line_id).await?;
    let unit = match &input.purchase_unit {
        Some(u) => {
            let unit = check_line_item(conn, &mut errors, "", line.product_id, Some(u)).await?;
            if !errors.is_empty() {
                return Err(Stop::Refused(errors));
            }
            unit
        }
        None => None,
    };
    let row = diesel::update(purchase_order_lines::table.find(line_id))
        .set((
            purchase_order_lines::quantity_ordered.eq(input
                .quantity_ordered
                .map_or(line.quantity_ordered.0, |q| q.0.with_scale(QUANTITY_SCALE))),
            purchase_order_lines::unit_cost.eq(input
                .unit_cost
                .map_or(line.unit_cost.0, |c| c.0.with_scale(COST_SCALE))),
            purchase_order_lines::purchase_unit.eq(unit.unwrap_or(line.purchase_unit)),
            purchase_order_lines::notes.eq(if clear_notes {
                None
            } else {
                input.notes.or(line.notes)
            }),
        ))
        .returning(PurchaseOrderLineRow::as_returning())
        .get_result(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(row)
}

/// Removes a line of a draft order.
pub async fn delete_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
) -> Result<PurchaseOrderLineRow, Stop> {
    let (_, line) = locked_line(conn, id, line_id).await?;
    diesel::delete(purchase_order_lines::table.find(line_id))
        .execute(conn)
        .await?;
    recompute_totals(conn, id).await?;
    Ok(line)
}

/// The event title of a move into `to` (CONTRACT 6.3).
pub fn status_title(to: PurchaseOrderStatus) -> &'static str {
    match to {
        PurchaseOrderStatus::Ordered => "Order Placed",
        PurchaseOrderStatus::Shipped => "Marked as Shipped",
        PurchaseOrderStatus::Received => "Marked as Received",
        PurchaseOrderStatus::Closed => "Order Closed",
        PurchaseOrderStatus::Cancelled => "Order Cancelled",
        PurchaseOrderStatus::Draft => "Returned to Draft",
    }
}

/// Whether `from -> to` is in the transition table; the contract's message otherwise.
pub fn check_transition(
    from: PurchaseOrderStatus,
    to: &str,
) -> Result<PurchaseOrderStatus, String> {
    let refused = || format!("Cannot transition from '{from}' to '{to}'");
    let to = PurchaseOrderStatus::from_str(to.trim()).map_err(|_| refused())?;
    if from.allowed().contains(&to) {
        Ok(to)
    } else {
        Err(refused())
    }
}

/// Moves an order along the status flow (CONTRACT 6.3) with its side effects and event.
pub async fn change_status(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseOrderStatusInput,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "trackingNumber",
        &mut input.tracking_number,
        SHORT_MAX,
    );
    optional_text(&mut errors, "carrier", &mut input.carrier, 100);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let po = locked(conn, id).await?;
    let to = check_transition(po.status, &input.status).map_err(|m| not_allowed("status", m))?;
    if to == PurchaseOrderStatus::Ordered && model::lines_of(conn, &[id]).await?.is_empty() {
        return Err(not_allowed("status", "Cannot order a PO with no lines"));
    }
    set_status(
        conn,
        &po,
        to,
        input.tracking_number,
        input.carrier,
        today(),
        user,
    )
    .await
}

async fn set_status(
    conn: &mut AsyncPgConnection,
    po: &PurchaseOrderRow,
    to: PurchaseOrderStatus,
    tracking: Option<String>,
    carrier: Option<String>,
    date: NaiveDate,
    user: i64,
) -> Result<PurchaseOrderRow, Stop> {
    let mut order_date = po.order_date;
    let mut shipped_date = po.shipped_date;
    let mut received_date = po.received_date;
    match to {
        PurchaseOrderStatus::Ordered => order_date = order_date.or(Some(date)),
        PurchaseOrderStatus::Shipped => shipped_date = Some(date),
        PurchaseOrderStatus::Received => received_date = Some(date),
        _ => {}
    }
    let row = diesel::update(purchase_orders::table.find(po.id))
        .set((
            purchase_orders::status.eq(to),
            purchase_orders::order_date.eq(order_date),
            purchase_orders::shipped_date.eq(shipped_date),
            purchase_orders::received_date.eq(received_date),
            purchase_orders::tracking_number.eq(tracking.or(po.tracking_number.clone())),
            purchase_orders::carrier.eq(carrier.or(po.carrier.clone())),
        ))
        .returning(PurchaseOrderRow::as_returning())
        .get_result(conn)
        .await?;
    event(
        conn,
        po.id,
        PurchaseEventType::StatusChange,
        status_title(to),
        Some(format!("Status changed from {} to {}", po.status, to)),
        Some((po.status, to)),
        Some(user),
    )
    .await?;
    Ok(row)
}

/// Adds a note event to an order.
pub async fn add_event(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut title: String,
    mut description: Option<String>,
    user: i64,
) -> Result<(), Stop> {
    let mut errors = Vec::new();
    let mut t = Some(std::mem::take(&mut title));
    crate::platform::db::text::required(&mut errors, "title", &mut t, false, 255);
    optional_text(&mut errors, "description", &mut description, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    locked(conn, id).await?;
    event(
        conn,
        id,
        PurchaseEventType::Note,
        &t.unwrap_or_default(),
        description,
        None,
        Some(user),
    )
    .await?;
    Ok(())
}

/// Quantities still to arrive on open orders (draft, ordered, shipped), per item, in each
/// item's stocking unit.
pub async fn on_order(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> QueryResult<HashMap<i64, BigDecimal>> {
    let rows: Vec<(i64, BigDecimal, BigDecimal, String, PurchasedItem)> =
        purchase_order_lines::table
            .inner_join(purchase_orders::table)
            .inner_join(items::table)
            .filter(purchase_order_lines::product_id.eq_any(item_ids))
            .filter(purchase_orders::status.eq_any(model::OPEN_STATUSES))
            .filter(
                purchase_order_lines::quantity_received.lt(purchase_order_lines::quantity_ordered),
            )
            .select((
                purchase_order_lines::product_id,
                purchase_order_lines::quantity_ordered,
                purchase_order_lines::quantity_received,
                purchase_order_lines::purchase_unit,
                (
                    items::id,
                    items::sku,
                    items::unit,
                    items::purchase_uom,
                    items::purchase_factor,
                    items::item_type,
                    items::track_lots,
                ),
            ))
            .load(conn)
            .await?;
    let mut out = HashMap::new();
    if rows.is_empty() {
        return Ok(out);
    }
    let units: HashMap<String, UomRow> = units_of_measure::table
        .select(UomRow::as_select())
        .load(conn)
        .await?
        .into_iter()
        .map(|u| (u.code.clone(), u))
        .collect();
    for (product, ordered, received, purchase_unit, item) in rows {
        let factor = match (units.get(&purchase_unit), units.get(&item.unit)) {
            (Some(p), Some(s)) => stock_factor(&item, p, s).unwrap_or_else(|| BigDecimal::from(1)),
            _ => BigDecimal::from(1),
        };
        *out.entry(product).or_insert_with(BigDecimal::zero) += (ordered - received) * factor;
    }
    Ok(out)
}

// ------------------------------------------------------------------------------ receiving

/// The next material lot number of an item, `{MATERIALCODE}-{YYYY}-{NNNN}` (CONTRACT 6.7):
/// the item's material type code when it has one, else its SKU; the year given; the next
/// value of the lot sequence (so no two calls hand out the same number).
pub async fn next_lot_number(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    sku: &str,
    year: i32,
) -> QueryResult<String> {
    let code: Option<String> = material_colors::table
        .inner_join(material_types::table)
        .filter(material_colors::item_id.eq(item_id))
        .select(material_types::code)
        .first(conn)
        .await
        .optional()?;
    let n: i64 = diesel::select(nextval("material_lot_number_seq"))
        .get_result(conn)
        .await?;
    Ok(format!("{}-{year}-{n:04}", code.as_deref().unwrap_or(sku)))
}

/// Whether a lot number is in use (ignoring case).
pub async fn lot_taken(conn: &mut AsyncPgConnection, number: &str) -> QueryResult<bool> {
    Ok(material_lots::table
        .filter(crate::platform::db::text::code_matches(
            material_lots::lot_number,
            number,
        ))
        .select(material_lots::id)
        .first::<i64>(conn)
        .await
        .optional()?
        .is_some())
}

/// Receives goods against an order in the caller's transaction (see the module docs).
pub async fn receive(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PurchaseReceiveInput,
    user: i64,
) -> Result<PurchaseReceipt, Stop> {
    let mut errors = Vec::new();
    if input.lines.is_empty() {
        errors.push(invalid("lines", "List should have at least 1 item"));
    }
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    let mut seen = HashSet::new();
    for (i, line) in input.lines.iter_mut().enumerate() {
        let p = format!("lines.{i}.");
        quantity(
            &mut errors,
            &format!("{p}quantityReceived"),
            &line.quantity_received.0,
        );
        optional_text(
            &mut errors,
            &format!("{p}lotNumber"),
            &mut line.lot_number,
            100,
        );
        optional_text(
            &mut errors,
            &format!("{p}vendorLotNumber"),
            &mut line.vendor_lot_number,
            100,
        );
        optional_text(
            &mut errors,
            &format!("{p}notes"),
            &mut line.notes,
            NOTES_MAX,
        );
        if !seen.insert(line.line_id) {
            errors.push(invalid(
                &format!("{p}lineId"),
                format!("Line {} is listed twice", line.line_id),
            ));
        }
        for (k, spool) in line.spools.iter().enumerate() {
            let f = format!("{p}spools.{k}.weightG");
            check_quantity(&mut errors, &f, &spool.weight_g.0);
            if spool.weight_g.0 <= BigDecimal::zero() {
                errors.push(invalid(&f, "Input should be greater than 0"));
            }
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }

    // The order and its lines stay locked until commit: a second receipt waits here and
    // then sees what this one received.
    let po = locked(conn, id).await?;
    if !matches!(
        po.status,
        PurchaseOrderStatus::Ordered | PurchaseOrderStatus::Shipped | PurchaseOrderStatus::Received
    ) {
        return Err(not_allowed(
            "id",
            format!("Cannot receive items on PO in '{}' status", po.status),
        ));
    }
    let lines: HashMap<i64, PurchaseOrderLineRow> = model::lock_lines(conn, id)
        .await?
        .into_iter()
        .map(|l| (l.id, l))
        .collect();
    for (i, r) in input.lines.iter().enumerate() {
        let Some(line) = lines.get(&r.line_id) else {
            errors.push(UserError::new(
                format!("lines.{i}.lineId"),
                UserErrorCode::NotFound,
                format!("Line {} not found on {}", r.line_id, po.po_number),
            ));
            continue;
        };
        let remaining = &line.quantity_ordered.0 - &line.quantity_received.0;
        if !input.allow_over_receipt && r.quantity_received.0 > remaining {
            errors.push(UserError::new(
                format!("lines.{i}.quantityReceived"),
                UserErrorCode::NotAllowed,
                format!(
                    "Cannot receive {} on line {}: only {} remaining",
                    r.quantity_received.0.normalized(),
                    line.line_number,
                    remaining.max(BigDecimal::zero()).normalized()
                ),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let location_id = match input.location_id {
        Some(l) => {
            let active: Option<bool> = locations::table
                .find(l)
                .select(locations::active)
                .first(conn)
                .await
                .optional()?;
            match active {
                None => {
                    return Err(Stop::refuse(
                        "locationId",
                        UserErrorCode::NotFound,
                        format!("Location {l} not found"),
                    ));
                }
                Some(false) => {
                    return Err(not_allowed(
                        "locationId",
                        format!("Location {l} is inactive"),
                    ));
                }
                Some(true) => l,
            }
        }
        None => default_location(conn).await?,
    };
    let date = input.received_date.unwrap_or_else(today);

    let mut draft = EntryDraft::new(date, format!("Receipt against {}", po.po_number))
        .source(SourceType::PurchaseOrder, Some(po.id))
        .by(Some(user));
    let mut transactions = Vec::new();
    let mut lots_created = Vec::new();
    let mut spools_created = Vec::new();
    let mut total = BigDecimal::zero();
    for (i, r) in input.lines.iter().enumerate() {
        let p = format!("lines.{i}.");
        let Some(line) = lines.get(&r.line_id) else {
            continue;
        };
        let Some(item) = purchased_item(conn, line.product_id).await? else {
            return Err(Stop::refuse(
                &format!("{p}lineId"),
                UserErrorCode::NotFound,
                "Product not found",
            ));
        };
        let (Some(purchase), Some(stock)) = (
            unit(conn, &line.purchase_unit).await?,
            unit(conn, &item.unit).await?,
        ) else {
            return Err(not_allowed(
                &format!("{p}lineId"),
                "The line's unit is unknown",
            ));
        };
        let Some(factor) = stock_factor(&item, &purchase, &stock) else {
            return Err(not_allowed(
                &format!("{p}lineId"),
                format!("Cannot convert {} to {}", purchase.code, stock.code),
            ));
        };
        let qty = &r.quantity_received.0;
        let stock_qty = (qty * &factor).with_scale_round(QUANTITY_SCALE, RoundingMode::HalfEven);
        let stock_cost =
            (&line.unit_cost.0 / &factor).with_scale_round(COST_SCALE, RoundingMode::HalfUp);
        let wants_lot =
            item.item_type == ItemType::Material || item.track_lots || r.lot_number.is_some();
        let lot_number = if wants_lot {
            Some(match &r.lot_number {
                Some(given) => {
                    if lot_taken(conn, given).await? {
                        return Err(Stop::refuse(
                            &format!("{p}lotNumber"),
                            UserErrorCode::Taken,
                            format!("Lot number '{given}' already exists"),
                        ));
                    }
                    given.clone()
                }
                None => next_lot_number(conn, item.id, &item.sku, date.year()).await?,
            })
        } else {
            None
        };
        let movement = Movement {
            reference_type: Some(ReferenceType::PurchaseOrder),
            reference_id: Some(po.id),
            lot_number: lot_number.clone(),
            notes: Some(format!("{} line {}", po.po_number, line.line_number)),
            created_by: Some(user),
            ..Movement::new(
                item.id,
                location_id,
                MovementKind::Receipt {
                    unit_cost: Some(stock_cost.clone()),
                },
                stock_qty.clone(),
            )
        };
        let posted = ledger::post(conn, &movement).await?;
        let transaction = <[_]>::first(&posted.transactions).map(|t| t.id);
        transactions.extend(posted.transactions.iter().map(|t| t.id));
        draft = draft.transfer(
            posted.account,
            SystemAccount::AccountsPayable,
            &posted.value,
            Some(format!(
                "{} line {}: {}",
                po.po_number, line.line_number, item.sku
            )),
        );
        let mut lot_id = None;
        if let Some(number) = &lot_number {
            let id: i64 = diesel::insert_into(material_lots::table)
                .values(NewLot {
                    lot_number: number.clone(),
                    product_id: item.id,
                    vendor_id: Some(po.vendor_id),
                    purchase_order_id: Some(po.id),
                    purchase_order_line_id: Some(line.id),
                    vendor_lot_number: r.vendor_lot_number.clone(),
                    quantity_received: stock_qty.clone(),
                    received_date: date,
                    unit_cost: Some(stock_cost.clone()),
                    location_id: Some(location_id),
                    inventory_transaction_id: transaction,
                    notes: r.notes.clone(),
                    created_by: Some(user),
                })
                .returning(material_lots::id)
                .get_result(conn)
                .await?;
            lot_id = Some(id);
            lots_created.push(number.clone());
        }
        if r.create_spools || !r.spools.is_empty() {
            if item.unit != "G" {
                return Err(not_allowed(
                    &format!("{p}spools"),
                    format!(
                        "{} is not stocked in grams; spools hold materials weighed in grams",
                        item.sku
                    ),
                ));
            }
            let weights: Vec<(BigDecimal, Option<&ReceiveSpoolInput>)> = if r.spools.is_empty() {
                let whole = qty.with_scale_round(0, RoundingMode::Down);
                let count = whole.to_string().parse::<i64>().unwrap_or(0).min(1000);
                (0..count).map(|_| (factor.clone(), None)).collect()
            } else {
                r.spools
                    .iter()
                    .map(|s| (s.weight_g.0.clone(), Some(s)))
                    .collect()
            };
            let sum: BigDecimal = weights.iter().map(|w| w.0.clone()).sum();
            if sum > stock_qty {
                return Err(not_allowed(
                    &format!("{p}spools"),
                    format!(
                        "The spools weigh {} g but only {} g were received",
                        sum.normalized(),
                        stock_qty.normalized()
                    ),
                ));
            }
            for (k, (grams, given)) in weights.into_iter().enumerate() {
                let base = lot_number.clone().unwrap_or_else(|| po.po_number.clone());
                let spool = crate::ledgers::spools::rules::create(
                    conn,
                    SpoolCreateInput {
                        spool_number: given
                            .and_then(|g| g.spool_number.clone())
                            .unwrap_or_else(|| format!("{base}-{:02}", k + 1)),
                        product_id: item.id,
                        initial_weight_grams: Decimal(grams),
                        current_weight_grams: None,
                        location_id: Some(location_id),
                        supplier_lot_number: given
                            .and_then(|g| g.supplier_lot_number.clone())
                            .or_else(|| r.vendor_lot_number.clone())
                            .or_else(|| lot_number.clone()),
                        received_date: Some(date),
                        expiry_date: given.and_then(|g| g.expiry_date),
                        notes: given.and_then(|g| g.notes.clone()),
                    },
                    user,
                )
                .await
                .map_err(|stop| match stop {
                    Stop::Refused(errs) => Stop::Refused(
                        errs.into_iter()
                            .map(|mut e| {
                                e.field =
                                    Some(format!("{p}spools.{k}.{}", e.field.unwrap_or_default()));
                                e
                            })
                            .collect(),
                    ),
                    other => other,
                })?;
                // The spool's lot, for traceability (lot -> spool -> production order).
                if lot_id.is_some() {
                    diesel::update(spools::table.find(spool.id))
                        .set(spools::material_lot_id.eq(lot_id))
                        .execute(conn)
                        .await?;
                }
                spools_created.push(spool.spool_number);
            }
        }
        diesel::update(purchase_order_lines::table.find(line.id))
            .set(
                purchase_order_lines::quantity_received
                    .eq(purchase_order_lines::quantity_received + qty.with_scale(QUANTITY_SCALE)),
            )
            .execute(conn)
            .await?;
        remember_vendor_item(conn, &po, line, date).await?;
        total += qty;
    }
    let entry = books::post(conn, draft).await?.map(|e| e.id);
    if let Some(entry) = entry {
        ledger::link_journal_entry(conn, &transactions, entry).await?;
    }
    let description = format!(
        "Received {} line(s){}",
        input.lines.len(),
        input
            .notes
            .as_deref()
            .map(|n| format!(": {n}"))
            .unwrap_or_default()
    );
    event(
        conn,
        po.id,
        PurchaseEventType::Receipt,
        "Items Received",
        Some(description),
        None,
        Some(user),
    )
    .await?;
    let complete = model::lines_of(conn, &[po.id])
        .await?
        .iter()
        .all(|l| l.quantity_received.0 >= l.quantity_ordered.0);
    let order = if complete && po.status != PurchaseOrderStatus::Received {
        set_status(
            conn,
            &po,
            PurchaseOrderStatus::Received,
            None,
            None,
            date,
            user,
        )
        .await?
    } else {
        model::find(conn, po.id).await?
    };
    Ok(PurchaseReceipt {
        po_number: po.po_number.clone(),
        lines_received: input.lines.len() as i32,
        total_quantity: Decimal(total.normalized()),
        inventory_updated: !transactions.is_empty(),
        transactions_created: transactions,
        spools_created,
        material_lots_created: lots_created,
        journal_entry_id: entry,
        purchase_order: order,
    })
}

/// An item on a vendor's list (`POST /vendors/{vendor_id}/items`): what the vendor calls
/// it, what it costs per purchase unit and how long it takes. Sent again for the same item,
/// it updates the entry (omitted fields keep their value).
#[derive(Debug, Clone, InputObject)]
pub struct VendorItemInput {
    /// The item.
    pub product_id: i64,
    /// What the vendor calls it, charges and takes.
    #[graphql(flatten)]
    pub fields: VendorItemChanges,
}

/// The fields of a vendor's price-list entry (all optional: omitted ones keep their value).
#[derive(Debug, Clone, InputObject)]
pub struct VendorItemChanges {
    /// The vendor's SKU.
    pub vendor_sku: Option<String>,
    /// Price per purchase unit (≥ 0).
    pub unit_cost: Option<Decimal>,
    /// The purchase unit of that price (default the item's purchase unit).
    pub purchase_unit: Option<String>,
    /// Days from order to receipt (0-3650).
    pub lead_time_days: Option<i32>,
    /// The item's preferred vendor for replenishment (one per item: setting it moves the
    /// mark from another vendor).
    pub is_preferred: Option<bool>,
}

/// Puts an item on a vendor's list or updates its entry; answers the entry.
pub async fn save_vendor_item(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
    input: VendorItemInput,
) -> Result<model::VendorItemRow, Stop> {
    let VendorItemInput {
        product_id,
        fields: mut input,
    } = input;
    check_vendor(conn, vendor_id).await?;
    let mut errors = Vec::new();
    let unit = check_line_item(
        conn,
        &mut errors,
        "",
        product_id,
        input.purchase_unit.as_deref(),
    )
    .await?;
    optional_text(
        &mut errors,
        "vendorSku",
        &mut input.vendor_sku,
        VENDOR_SKU_MAX,
    );
    if let Some(cost) = &input.unit_cost {
        check_quantity(&mut errors, "unitCost", &cost.0);
        if cost.0 < BigDecimal::zero() {
            errors.push(invalid(
                "unitCost",
                "Input should be greater than or equal to 0",
            ));
        }
    }
    if let Some(days) = input.lead_time_days
        && !(0..=3650).contains(&days)
    {
        errors.push(invalid(
            "leadTimeDays",
            "Lead time must be between 0 and 3650 days",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    // `unit` is the given unit normalised, or the item's purchase unit: a new entry takes
    // it, an existing one only when a unit was given.
    let price = input
        .unit_cost
        .map(|c| c.0.with_scale_round(COST_SCALE, RoundingMode::HalfUp));
    if input.is_preferred == Some(true) {
        diesel::update(
            vendor_items::table
                .filter(vendor_items::item_id.eq(product_id))
                .filter(vendor_items::vendor_id.ne(vendor_id)),
        )
        .set(vendor_items::is_preferred.eq(false))
        .execute(conn)
        .await?;
    }
    let now = chrono::Utc::now();
    let row = diesel::insert_into(vendor_items::table)
        .values((
            vendor_items::vendor_id.eq(vendor_id),
            vendor_items::item_id.eq(product_id),
            vendor_items::vendor_sku.eq(&input.vendor_sku),
            vendor_items::last_price.eq(&price),
            vendor_items::purchase_unit.eq(&unit),
            vendor_items::lead_time_days.eq(input.lead_time_days),
            vendor_items::is_preferred.eq(input.is_preferred.unwrap_or(false)),
        ))
        .on_conflict((vendor_items::vendor_id, vendor_items::item_id))
        .do_update()
        .set((
            input
                .vendor_sku
                .as_ref()
                .map(|v| vendor_items::vendor_sku.eq(Some(v.clone()))),
            price
                .as_ref()
                .map(|p| vendor_items::last_price.eq(Some(p.clone()))),
            input
                .purchase_unit
                .as_ref()
                .and(unit.as_ref())
                .map(|u| vendor_items::purchase_unit.eq(Some(u.clone()))),
            input
                .lead_time_days
                .map(|d| vendor_items::lead_time_days.eq(Some(d))),
            input.is_preferred.map(|p| vendor_items::is_preferred.eq(p)),
            vendor_items::updated_at.eq(now),
        ))
        .returning(model::VendorItemRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// Changes the entry of `item_id` on `vendor_id`'s price list (`PUT
/// /vendors/{vendor_id}/items/{item_id}`): 404 `Vendor item not found` when the vendor does
/// not sell it, otherwise as [`save_vendor_item`].
pub async fn update_vendor_item(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
    item_id: i64,
    fields: VendorItemChanges,
) -> Result<model::VendorItemRow, Stop> {
    if model::vendor_item(conn, vendor_id, item_id)
        .await?
        .is_none()
    {
        return Err(vendor_item_not_found());
    }
    save_vendor_item(
        conn,
        vendor_id,
        VendorItemInput {
            product_id: item_id,
            fields,
        },
    )
    .await
}

/// Takes `item_id` off `vendor_id`'s price list; answers the entry as it was.
pub async fn delete_vendor_item(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
    item_id: i64,
) -> Result<model::VendorItemRow, Stop> {
    diesel::delete(
        vendor_items::table
            .filter(vendor_items::vendor_id.eq(vendor_id))
            .filter(vendor_items::item_id.eq(item_id)),
    )
    .returning(model::VendorItemRow::as_returning())
    .get_result(conn)
    .await
    .optional()?
    .ok_or_else(vendor_item_not_found)
}

fn vendor_item_not_found() -> Stop {
    Stop::refuse("itemId", UserErrorCode::NotFound, "Vendor item not found")
}

/// Records what the vendor charged and how long it took (vendor items).
async fn remember_vendor_item(
    conn: &mut AsyncPgConnection,
    po: &PurchaseOrderRow,
    line: &PurchaseOrderLineRow,
    received: NaiveDate,
) -> QueryResult<()> {
    let lead = po
        .order_date
        .map(|d| (received - d).num_days().clamp(0, 3650) as i32);
    diesel::insert_into(vendor_items::table)
        .values((
            vendor_items::vendor_id.eq(po.vendor_id),
            vendor_items::item_id.eq(line.product_id),
            vendor_items::last_price.eq(Some(line.unit_cost.0.clone())),
            vendor_items::purchase_unit.eq(Some(line.purchase_unit.clone())),
            vendor_items::lead_time_days.eq(lead),
            vendor_items::last_ordered_at.eq(Some(chrono::Utc::now())),
        ))
        .on_conflict((vendor_items::vendor_id, vendor_items::item_id))
        .do_update()
        .set((
            vendor_items::last_price.eq(Some(line.unit_cost.0.clone())),
            vendor_items::purchase_unit.eq(Some(line.purchase_unit.clone())),
            vendor_items::lead_time_days.eq(lead),
            vendor_items::last_ordered_at.eq(Some(chrono::Utc::now())),
        ))
        .execute(conn)
        .await?;
    Ok(())
}

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
