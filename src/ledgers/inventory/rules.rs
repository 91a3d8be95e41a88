//! Rules of the stock-facing routes: manual transactions (CONTRACT 5.8), cycle counts and
//! their variances, the default location, adjustment reasons, approving negative stock. Each
//! action posts stock and its journal entry in one database transaction (DOMAIN "Postings":
//! manual movements against 5030 Inventory adjustment, scrap against 5020).

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::ledger::{self, Movement, MovementKind, Posted};
use crate::ledgers::inventory::model::{ReferenceType, TransactionRow, TransactionType};
use crate::platform::db::schema::{inventory_balances, inventory_transactions, locations};
use crate::platform::db::text::hidden_characters;
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

pub use crate::platform::db::scale::QUANTITY_SCALE;
/// Most lines of one cycle count.
pub const MAX_COUNT_LINES: usize = 1000;
/// Longest lot or serial number.
pub const LOT_MAX: usize = 100;
/// Longest reason.
pub const REASON_MAX: usize = 255;
/// Longest notes.
pub const NOTES_MAX: usize = 2000;

crate::text_enum! {
    /// Why stock was adjusted (`/admin/inventory/transactions/adjustment-reasons`).
    pub enum AdjustmentReason {
        /// A count found a different quantity.
        CycleCount,
        /// Damaged in storage or handling.
        Damaged,
        /// Past its shelf life (wet or brittle filament).
        Expired,
        /// Could not be found.
        Lost,
        /// Found stock that was not on the books.
        Found,
        /// Stolen.
        Theft,
        /// Failed a quality check.
        QualityIssue,
        /// Given away as a sample.
        Sample,
        /// An earlier entry was wrong.
        DataCorrection,
        /// Anything else (say what in the notes).
        Other,
    }
}

/// An adjustment reason with its label.
#[derive(Debug, Clone, SimpleObject)]
pub struct AdjustmentReasonInfo {
    /// The code.
    pub code: AdjustmentReason,
    /// The label.
    pub name: String,
    /// When to use it.
    pub description: String,
}

/// Every adjustment reason, in the order a picker shows them.
pub fn adjustment_reasons() -> Vec<AdjustmentReasonInfo> {
    use AdjustmentReason as R;
    [
        (
            R::CycleCount,
            "Cycle count",
            "A count found a different quantity",
        ),
        (R::Damaged, "Damaged", "Damaged in storage or handling"),
        (
            R::Expired,
            "Expired",
            "Past its shelf life (wet or brittle filament)",
        ),
        (R::Lost, "Lost", "Could not be found"),
        (R::Found, "Found", "Stock that was not on the books"),
        (R::Theft, "Theft", "Stolen"),
        (R::QualityIssue, "Quality issue", "Failed a quality check"),
        (R::Sample, "Sample", "Given away as a sample"),
        (
            R::DataCorrection,
            "Data correction",
            "An earlier entry was wrong",
        ),
        (R::Other, "Other", "Anything else (say what in the notes)"),
    ]
    .into_iter()
    .map(|(code, name, description)| AdjustmentReasonInfo {
        code,
        name: name.into(),
        description: description.into(),
    })
    .collect()
}

use crate::platform::graphql::user_error::invalid;

/// A quantity's decimal places and size: errors on `field`.
pub fn check_quantity(errors: &mut Vec<UserError>, field: &str, value: &BigDecimal) {
    let (_, scale) = value.normalized().as_bigint_and_exponent();
    if scale > QUANTITY_SCALE {
        errors.push(invalid(
            field,
            format!("Use at most {QUANTITY_SCALE} decimal places"),
        ));
    }
}

/// An optional text: trimmed, blank becomes `None`, too long or hidden characters is an
/// error.
pub fn optional_text(
    errors: &mut Vec<UserError>,
    field: &str,
    value: &mut Option<String>,
    max: usize,
) {
    if let Some(text) = value.take() {
        let text = text.trim().to_string();
        if text.is_empty() {
            return;
        }
        if let Some(e) = hidden_characters(field, &text) {
            errors.push(e);
        } else if text.chars().count() > max {
            errors.push(invalid(
                field,
                format!("String should have at most {max} characters"),
            ));
        }
        *value = Some(text);
    }
}

/// The location stock goes to when none is named: the first active warehouse, creating
/// `MAIN` "Main Warehouse" when there is none (CONTRACT 5.8).
pub async fn default_location(conn: &mut AsyncPgConnection) -> Result<i64, Stop> {
    if let Some(id) = first_warehouse(conn).await? {
        return Ok(id);
    }
    let id: Option<i64> = diesel::insert_into(locations::table)
        .values((
            locations::code.eq(crate::master_data::locations::model::MAIN_CODE),
            locations::name.eq("Main Warehouse"),
            locations::kind.eq("warehouse"),
        ))
        .on_conflict_do_nothing()
        .returning(locations::id)
        .get_result(conn)
        .await
        .optional()?;
    match id {
        Some(id) => Ok(id),
        // MAIN exists but is inactive or not a warehouse: use it rather than fail.
        None => Ok(locations::table
            .filter(crate::platform::db::text::code_matches(
                locations::code,
                crate::master_data::locations::model::MAIN_CODE,
            ))
            .select(locations::id)
            .first(conn)
            .await?),
    }
}

/// The first active warehouse, if there is one (reads only).
pub async fn first_warehouse(
    conn: &mut AsyncPgConnection,
) -> crate::platform::error::AppResult<Option<i64>> {
    Ok(locations::table
        .filter(locations::kind.eq("warehouse"))
        .filter(locations::active.eq(true))
        .order(locations::id)
        .select(locations::id)
        .first(conn)
        .await
        .optional()?)
}

/// Books the value of a manual movement on `date` (DOMAIN "Costing"): against 5030
/// Inventory adjustment, scrap against 5020 Scrap expense; a transfer moves no money. Links
/// the entry to the movement's rows and answers its id.
pub async fn book_manual(
    conn: &mut AsyncPgConnection,
    posted: &Posted,
    date: chrono::NaiveDate,
    description: String,
    source: SourceType,
    user: Option<i64>,
) -> Result<Option<i64>, Stop> {
    let counter = match <[_]>::first(&posted.transactions).map(|t| t.transaction_type) {
        Some(TransactionType::Scrap) => SystemAccount::ScrapExpense,
        _ => SystemAccount::InventoryAdjustment,
    };
    let source_id = <[_]>::first(&posted.transactions).map(|t| t.id);
    let draft = EntryDraft::new(date, description)
        .source(source, source_id)
        .by(user)
        .transfer(
            posted.account,
            counter,
            &posted.value,
            Some(posted.item.sku.clone()),
        );
    let Some(entry) = books::post(conn, draft).await? else {
        return Ok(None);
    };
    let ids: Vec<i64> = posted.transactions.iter().map(|t| t.id).collect();
    ledger::link_journal_entry(conn, &ids, entry.id).await?;
    Ok(Some(entry.id))
}

/// Today in UTC: the booking date of postings made now.
pub fn today() -> chrono::NaiveDate {
    chrono::Utc::now().date_naive()
}

/// A manual stock transaction (`POST /admin/inventory/transactions`).
#[derive(Debug, Clone, InputObject)]
pub struct InventoryTransactionInput {
    /// The item.
    pub product_id: i64,
    /// Where (default: the first warehouse).
    pub location_id: Option<i64>,
    /// One of receipt, issue, transfer, adjustment, consumption, scrap.
    pub transaction_type: String,
    /// How much in the item's stocking unit: positive; an adjustment's sign says which way.
    pub quantity: Decimal,
    /// Cost per unit of a receipt (recomputes the moving average; default: the average).
    pub cost_per_unit: Option<Decimal>,
    /// The kind of record it belongs to.
    pub reference_type: Option<ReferenceType>,
    /// The record.
    pub reference_id: Option<i64>,
    /// Lot number.
    #[graphql(directive = length::apply(LOT_MAX))]
    pub lot_number: Option<String>,
    /// Serial number.
    #[graphql(directive = length::apply(LOT_MAX))]
    pub serial_number: Option<String>,
    /// Why (an adjustment reason code or words).
    #[graphql(directive = length::apply(REASON_MAX))]
    pub reason: Option<String>,
    /// Notes.
    #[graphql(directive = length::apply(NOTES_MAX))]
    pub notes: Option<String>,
    /// Where a transfer goes.
    pub to_location_id: Option<i64>,
}

/// The message of an unknown or system-only transaction type (CONTRACT 5.8).
pub fn invalid_type_message() -> String {
    let names: Vec<&str> = TransactionType::MANUAL.iter().map(|t| t.as_ref()).collect();
    format!(
        "Invalid transaction_type. Must be one of: {}",
        names.join(", ")
    )
}

/// Posts a manual transaction and its journal entry in the caller's transaction; answers
/// the first ledger row (the issue side of a transfer).
pub async fn create_manual(
    conn: &mut AsyncPgConnection,
    mut input: InventoryTransactionInput,
    user: i64,
) -> Result<TransactionRow, Stop> {
    let kind: Option<TransactionType> = input
        .transaction_type
        .trim()
        .to_ascii_lowercase()
        .parse()
        .ok();
    let Some(kind) = kind.filter(|k| TransactionType::MANUAL.contains(k)) else {
        return Err(Stop::refuse(
            "transactionType",
            UserErrorCode::NotAllowed,
            invalid_type_message(),
        ));
    };
    let mut errors = Vec::new();
    check_quantity(&mut errors, "quantity", &input.quantity.0);
    if kind != TransactionType::Adjustment && input.quantity.0 <= BigDecimal::zero() {
        errors.push(invalid("quantity", "Input should be greater than 0"));
    }
    if kind == TransactionType::Adjustment && input.quantity.0.is_zero() {
        errors.push(invalid(
            "quantity",
            "An adjustment must change the quantity",
        ));
    }
    if let Some(cost) = &input.cost_per_unit {
        if cost.0 < BigDecimal::zero() {
            errors.push(invalid(
                "costPerUnit",
                "Input should be greater than or equal to 0",
            ));
        }
        check_quantity(&mut errors, "costPerUnit", &cost.0);
    }
    if kind == TransactionType::Transfer && input.to_location_id.is_none() {
        errors.push(invalid(
            "toLocationId",
            "A transfer needs a destination location",
        ));
    }
    optional_text(&mut errors, "lotNumber", &mut input.lot_number, LOT_MAX);
    optional_text(
        &mut errors,
        "serialNumber",
        &mut input.serial_number,
        LOT_MAX,
    );
    optional_text(&mut errors, "reason", &mut input.reason, REASON_MAX);
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let location_id = match input.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let cost = input.cost_per_unit.map(|c| c.0);
    let movement_kind = match kind {
        TransactionType::Receipt => MovementKind::Receipt { unit_cost: cost },
        TransactionType::Issue => MovementKind::Issue,
        TransactionType::Consumption => MovementKind::Consumption,
        TransactionType::Scrap => MovementKind::Scrap,
        TransactionType::Adjustment => MovementKind::Adjustment { unit_cost: cost },
        _ => MovementKind::Transfer {
            to_location_id: input.to_location_id.unwrap_or(location_id),
        },
    };
    let movement = Movement {
        reference_type: input.reference_type.or(Some(ReferenceType::Adjustment)),
        reference_id: input.reference_id,
        lot_number: input.lot_number,
        serial_number: input.serial_number,
        reason: input.reason,
        notes: input.notes,
        created_by: Some(user),
        ..Movement::new(
            input.product_id,
            location_id,
            movement_kind,
            input.quantity.0,
        )
    };
    let posted = ledger::post(conn, &movement).await?;
    let description = format!(
        "Inventory {}: {} {} {}",
        kind,
        movement.quantity.normalized(),
        posted.item.unit,
        posted.item.sku
    );
    let entry = book_manual(
        conn,
        &posted,
        today(),
        description,
        SourceType::Adjustment,
        Some(user),
    )
    .await?;
    let mut first = posted.transactions.into_iter().next().ok_or_else(|| {
        Stop::Failed(crate::platform::error::AppError::internal(
            "a posting wrote no row",
        ))
    })?;
    first.journal_entry_id = entry;
    Ok(first)
}

/// One counted item.
#[derive(Debug, Clone, InputObject)]
pub struct CycleCountLine {
    /// The item.
    pub product_id: i64,
    /// What the count found, in the stocking unit.
    pub counted_quantity: Decimal,
    /// Why it differs (required).
    pub reason: String,
}

/// A cycle count (`POST /admin/inventory/transactions/batch`).
#[derive(Debug, Clone, InputObject)]
pub struct CycleCountInput {
    /// The counted items (or one item as `productId` and `countedQty`).
    #[graphql(default)]
    pub items: Vec<CycleCountLine>,
    /// Where they were counted (default: the first warehouse).
    pub location_id: Option<i64>,
    /// A name for the count (default `Cycle Count YYYY-MM-DD HH:MM`).
    pub count_reference: Option<String>,
    /// One item counted, as FilaOps's reconciliation page sends it (instead of `items`).
    pub product_id: Option<i64>,
    /// What the count of that one item found.
    pub counted_qty: Option<Decimal>,
    /// Notes on that count (its reason).
    pub notes: Option<String>,
}

/// What a count did for one item.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct CycleCountLineResult {
    /// The item.
    pub product_id: i64,
    /// Its SKU (when it exists).
    pub product_sku: Option<String>,
    /// Its name.
    pub product_name: Option<String>,
    /// On hand before the count.
    pub previous_quantity: Option<Decimal>,
    /// What was counted.
    pub counted_quantity: Decimal,
    /// Counted minus previous.
    pub variance: Option<Decimal>,
    /// The adjustment posted (none when nothing differed).
    pub transaction_id: Option<i64>,
    /// Its journal entry.
    pub journal_entry_id: Option<i64>,
    /// The line was applied.
    pub success: bool,
    /// Why not.
    pub error: Option<String>,
}

#[async_graphql::ComplexObject]
impl CycleCountLineResult {
    /// The quantity before, as a number (FilaOps's `previous_quantity`).
    async fn previous_quantity_number(&self) -> Option<f64> {
        self.previous_quantity
            .as_ref()
            .and_then(|q| bigdecimal::ToPrimitive::to_f64(&q.0))
    }

    /// The quantity counted, as a number (FilaOps's `new_quantity`).
    async fn counted_quantity_number(&self) -> f64 {
        bigdecimal::ToPrimitive::to_f64(&self.counted_quantity.0).unwrap_or(0.0)
    }
}

/// The outcome of a count.
#[derive(Debug, Clone, SimpleObject)]
pub struct CycleCountResult {
    /// Lines sent.
    pub total_items: i64,
    /// Lines applied.
    pub successful: i64,
    /// Lines refused (see each line's `error`).
    pub failed: i64,
    /// One per line, in order.
    pub results: Vec<CycleCountLineResult>,
    /// The count's name.
    pub count_reference: String,
    /// The location counted.
    pub location_id: i64,
}

/// Applies a count in the caller's transaction: each line's variance posts an adjustment
/// and its journal entry; lines that cannot be applied (unknown item, bad number, no
/// reason, counted twice) are reported and skipped.
pub async fn count(
    conn: &mut AsyncPgConnection,
    mut input: CycleCountInput,
    user: i64,
) -> Result<CycleCountResult, Stop> {
    if input.items.is_empty()
        && let (Some(product_id), Some(counted_quantity)) =
            (input.product_id, input.counted_qty.take())
    {
        let reason = input
            .notes
            .take()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Physical count".to_string());
        input.items.push(CycleCountLine {
            product_id,
            counted_quantity,
            reason,
        });
    }
    if input.items.is_empty() {
        return Err(Stop::Refused(vec![invalid(
            "items",
            "List should have at least 1 item",
        )]));
    }
    if input.items.len() > MAX_COUNT_LINES {
        return Err(Stop::Refused(vec![invalid(
            "items",
            format!("List should have at most {MAX_COUNT_LINES} items"),
        )]));
    }
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "countReference",
        &mut input.count_reference,
        REASON_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let location_id = match input.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let reference = input.count_reference.unwrap_or_else(|| {
        format!(
            "Cycle Count {}",
            chrono::Utc::now().format("%Y-%m-%d %H:%M")
        )
    });
    let mut results = Vec::with_capacity(input.items.len());
    let mut seen = std::collections::HashSet::new();
    for line in input.items {
        let (result, _) =
            count_line(conn, &line, location_id, &reference, user, &mut seen, true).await?;
        results.push(result);
    }
    let successful = results.iter().filter(|r| r.success).count() as i64;
    Ok(CycleCountResult {
        total_items: results.len() as i64,
        failed: results.len() as i64 - successful,
        successful,
        results,
        count_reference: reference,
        location_id,
    })
}

/// Which part of a count line was refused (a quantity correction names it as its field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineField {
    Quantity,
    Reason,
    Item,
}

/// A count line's result, and which part was refused when it failed.
type CountedLine = (CycleCountLineResult, Option<LineField>);

async fn count_line(
    conn: &mut AsyncPgConnection,
    line: &CycleCountLine,
    location_id: i64,
    reference: &str,
    user: i64,
    seen: &mut std::collections::HashSet<i64>,
    mark_counted: bool,
) -> Result<CountedLine, Stop> {
    let mut result = CycleCountLineResult {
        product_id: line.product_id,
        product_sku: None,
        product_name: None,
        previous_quantity: None,
        counted_quantity: line.counted_quantity.clone(),
        variance: None,
        transaction_id: None,
        journal_entry_id: None,
        success: false,
        error: None,
    };
    let reason = line.reason.trim();
    if let Some((field, problem)) = line_problem(line, reason, seen) {
        result.error = Some(problem);
        return Ok((result, Some(field)));
    }
    let item = match ledger::lock_item(conn, line.product_id).await {
        Ok(item) => item,
        Err(Stop::Refused(e)) => {
            result.error = <[_]>::first(&e).map(|e| e.message.clone());
            return Ok((result, Some(LineField::Item)));
        }
        Err(e) => return Err(e),
    };
    result.product_sku = Some(item.sku.clone());
    result.product_name = Some(item.name.clone());
    if item.account().is_none() {
        result.error = Some(format!("{} is a service and carries no stock", item.sku));
        return Ok((result, Some(LineField::Item)));
    }
    let previous = ledger::balance(conn, item.id, location_id)
        .await?
        .map(|b| b.on_hand_quantity.0)
        .unwrap_or_default()
        .with_scale(QUANTITY_SCALE);
    let variance = (&line.counted_quantity.0 - &previous).with_scale(QUANTITY_SCALE);
    result.previous_quantity = Some(Decimal(previous));
    result.variance = Some(Decimal(variance.clone()));
    if !variance.is_zero() {
        let counted = CountedVariance {
            location_id,
            reference,
            reason,
            variance,
            user,
        };
        let (transaction_id, journal_entry_id) = counted.post(conn, &item).await?;
        result.journal_entry_id = journal_entry_id;
        result.transaction_id = transaction_id;
    }
    if mark_counted {
        mark_item_counted(conn, item.id, location_id).await?;
    }
    result.success = true;
    Ok((result, None))
}

/// What is wrong with a count line before anything is read (a negative or malformed
/// quantity, a missing or bad reason, an item counted twice in the batch), if anything.
/// Records the line's item in `seen` when the rest is fine.
fn line_problem(
    line: &CycleCountLine,
    reason: &str,
    seen: &mut std::collections::HashSet<i64>,
) -> Option<(LineField, String)> {
    let mut problems = Vec::new();
    check_quantity(&mut problems, "countedQuantity", &line.counted_quantity.0);
    if line.counted_quantity.0 < BigDecimal::zero() {
        Some((
            LineField::Quantity,
            "Counted quantity cannot be negative".to_string(),
        ))
    } else if let Some(p) = <[_]>::first(&problems) {
        Some((LineField::Quantity, p.message.clone()))
    } else if reason.is_empty() {
        Some((LineField::Reason, "A reason is required".to_string()))
    } else if reason.chars().count() > REASON_MAX
        || crate::platform::db::text::has_hidden_characters(reason)
    {
        Some((
            LineField::Reason,
            format!("The reason must be plain text of at most {REASON_MAX} characters"),
        ))
    } else if !seen.insert(line.product_id) {
        Some((LineField::Item, "Counted twice in this batch".to_string()))
    } else {
        None
    }
}

/// A count line's non-zero variance at a location, to be posted.
struct CountedVariance<'a> {
    location_id: i64,
    reference: &'a str,
    reason: &'a str,
    variance: BigDecimal,
    user: i64,
}

impl CountedVariance<'_> {
    /// Posts the variance as a cycle-count adjustment and its journal entry (overage or
    /// shortage); answers the stock transaction and the entry.
    async fn post(
        &self,
        conn: &mut AsyncPgConnection,
        item: &ledger::StockItem,
    ) -> Result<(Option<i64>, Option<i64>), Stop> {
        let variance = &self.variance;
        let reference = self.reference;
        let movement = Movement {
            reference_type: Some(ReferenceType::CycleCount),
            reason: Some(self.reason.to_string()),
            notes: Some(reference.to_string()),
            created_by: Some(self.user),
            ..Movement::new(
                item.id,
                self.location_id,
                MovementKind::Adjustment { unit_cost: None },
                variance.clone(),
            )
        };
        let posted = ledger::post(conn, &movement).await?;
        let description = format!(
            "{reference}: {} {} {}",
            item.sku,
            if *variance > BigDecimal::zero() {
                "overage"
            } else {
                "shortage"
            },
            variance.abs().normalized()
        );
        let journal_entry_id = book_manual(
            conn,
            &posted,
            today(),
            description,
            SourceType::Adjustment,
            Some(self.user),
        )
        .await?;
        Ok((
            <[_]>::first(&posted.transactions).map(|t| t.id),
            journal_entry_id,
        ))
    }
}

/// Records that an item was counted at a location now (its balance row's
/// `last_counted_at`, created when missing).
async fn mark_item_counted(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    location_id: i64,
) -> Result<(), Stop> {
    diesel::insert_into(inventory_balances::table)
        .values((
            inventory_balances::item_id.eq(item_id),
            inventory_balances::location_id.eq(location_id),
            inventory_balances::last_counted_at.eq(Some(chrono::Utc::now())),
        ))
        .on_conflict((inventory_balances::item_id, inventory_balances::location_id))
        .do_update()
        .set(inventory_balances::last_counted_at.eq(Some(chrono::Utc::now())))
        .execute(conn)
        .await?;
    Ok(())
}

/// A single quantity correction (`POST /inventory/adjust-quantity`): either the quantity
/// found (`new_quantity`, which also counts as a count of the item there) or a signed change.
#[derive(Debug, Clone, InputObject)]
pub struct AdjustQuantityInput {
    /// The item.
    pub product_id: i64,
    /// Where (default: the first warehouse).
    pub location_id: Option<i64>,
    /// The quantity now on hand, in the stocking unit.
    #[graphql(directive = crate::platform::graphql::limits::rest_alias::apply("new_on_hand_quantity".into()))]
    pub new_quantity: Option<Decimal>,
    /// Or: how much to add (positive) or remove (negative).
    pub quantity_change: Option<Decimal>,
    /// Why (required: an adjustment reason code or words).
    #[graphql(directive = crate::platform::graphql::limits::rest_alias::apply("adjustment_reason".into()))]
    pub reason: String,
    /// Notes (the journal entry's description names them).
    pub notes: Option<String>,
}

/// Applies one quantity correction in the caller's transaction: an adjustment for the
/// difference and its journal entry. Unlike a count line, a problem refuses the request.
pub async fn adjust_quantity(
    conn: &mut AsyncPgConnection,
    mut input: AdjustQuantityInput,
    user: i64,
) -> Result<CycleCountLineResult, Stop> {
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut input.notes, REASON_MAX);
    let given = [&input.new_quantity, &input.quantity_change]
        .iter()
        .filter(|v| v.is_some())
        .count();
    if given != 1 {
        errors.push(invalid(
            "newQuantity",
            "Give either new_quantity or quantity_change",
        ));
    }
    if let Some(change) = &input.quantity_change {
        check_quantity(&mut errors, "quantityChange", &change.0);
        if change.0.is_zero() {
            errors.push(invalid("quantityChange", "The change cannot be zero"));
        }
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let location_id = match input.location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let counted = match (&input.new_quantity, &input.quantity_change) {
        (Some(q), _) => q.clone(),
        (None, Some(change)) => {
            // Lock first so the change applies to the quantity the posting sees.
            ledger::lock_item(conn, input.product_id).await?;
            let on_hand = ledger::balance(conn, input.product_id, location_id)
                .await?
                .map(|b| b.on_hand_quantity.0)
                .unwrap_or_default();
            Decimal(on_hand + &change.0)
        }
        (None, None) => return Err(Stop::Refused(vec![invalid("newQuantity", "Required")])),
    };
    let reference = input
        .notes
        .unwrap_or_else(|| "Quantity adjustment".to_string());
    let line = CycleCountLine {
        product_id: input.product_id,
        counted_quantity: counted,
        reason: input.reason,
    };
    let mut seen = std::collections::HashSet::new();
    let (result, refused_on) = count_line(
        conn,
        &line,
        location_id,
        &reference,
        user,
        &mut seen,
        input.new_quantity.is_some(),
    )
    .await?;
    let field = match refused_on {
        None => return Ok(result),
        Some(LineField::Reason) => "reason",
        Some(LineField::Item) => "productId",
        Some(LineField::Quantity) if input.new_quantity.is_some() => "newQuantity",
        Some(LineField::Quantity) => "quantityChange",
    };
    let message = result.error.unwrap_or_else(|| "Not applied".to_string());
    Err(Stop::Refused(vec![invalid(field, message)]))
}

/// What confirming the remaining lines of a count did.
#[derive(Debug, Clone, SimpleObject)]
pub struct ConfirmStoredResult {
    /// The location counted.
    pub location_id: i64,
    /// Balances confirmed at their stored quantity (no stock moved).
    pub confirmed: i64,
    /// When they count as counted.
    pub counted_at: crate::platform::graphql::scalars::Timestamp,
}

/// Ends a reconciliation: every balance at the location not counted since `since` is taken
/// as counted at its stored quantity (`POST /admin/inventory/reconciliation/count/all-to-stored`).
/// Posts nothing; it only dates the count, so the next reconciliation starts fresh.
pub async fn confirm_stored(
    conn: &mut AsyncPgConnection,
    location_id: Option<i64>,
    since: chrono::DateTime<chrono::Utc>,
) -> Result<ConfirmStoredResult, Stop> {
    let location_id = match location_id {
        Some(id) => id,
        None => default_location(conn).await?,
    };
    let exists: bool = diesel::select(diesel::dsl::exists(
        locations::table.filter(locations::id.eq(location_id)),
    ))
    .get_result(conn)
    .await?;
    if !exists {
        return Err(Stop::refuse(
            "locationId",
            UserErrorCode::NotFound,
            "Location not found",
        ));
    }
    let now = chrono::Utc::now();
    let confirmed = diesel::update(
        inventory_balances::table
            .filter(inventory_balances::location_id.eq(location_id))
            .filter(
                inventory_balances::last_counted_at
                    .is_null()
                    .or(inventory_balances::last_counted_at.lt(since)),
            ),
    )
    .set(inventory_balances::last_counted_at.eq(Some(now)))
    .execute(conn)
    .await?;
    Ok(ConfirmStoredResult {
        location_id,
        confirmed: confirmed as i64,
        counted_at: now.into(),
    })
}

/// The start of today (UTC): a reconciliation's default "counted since".
pub fn start_of_today() -> chrono::DateTime<chrono::Utc> {
    today().and_time(chrono::NaiveTime::MIN).and_utc()
}

/// Approves a transaction that took stock below zero.
pub async fn approve_negative(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: i64,
) -> Result<TransactionRow, Stop> {
    let row: TransactionRow = inventory_transactions::table
        .find(id)
        .select(TransactionRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Transaction not found"))?;
    if !row.requires_approval {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            "This transaction does not need approval",
        ));
    }
    if row.approved_at.is_some() {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            "This transaction is already approved",
        ));
    }
    Ok(diesel::update(inventory_transactions::table.find(id))
        .set((
            inventory_transactions::approved_by.eq(Some(user)),
            inventory_transactions::approved_at.eq(Some(chrono::Utc::now())),
        ))
        .returning(TransactionRow::as_returning())
        .get_result(conn)
        .await?)
}
