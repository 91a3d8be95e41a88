//! Inventory rows, the closed sets of stock movements and the queries on them.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::like_pattern;
use crate::platform::db::paging;
use crate::platform::db::schema::{
    inventory_balances, inventory_transactions, item_categories, items, locations,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// What a stock transaction did (CONTRACT 6.5).
    pub enum TransactionType {
        /// Stock arrived (purchase, manual receipt, opening balance).
        Receipt,
        /// Stock left (manual issue; the out side of a transfer).
        Issue,
        /// Stock moved between locations (manual requests; posted as an issue and a receipt).
        Transfer,
        /// A correction (cycle count variance, spool weight), signed.
        Adjustment,
        /// Used up by production.
        Consumption,
        /// Thrown away.
        Scrap,
        /// Shipped to a customer.
        Shipment,
        /// Reserved for an order (changes allocated, not on hand).
        Reservation,
        /// A reservation given back (changes allocated).
        Release,
        /// A reservation used up by the order it was for (changes allocated).
        ReservationRelease,
        /// Finished goods received from production.
        Production,
        /// Machine time booked to production.
        MachineTime,
        /// A correction below zero.
        NegativeAdjustment,
    }
}

impl TransactionType {
    /// The types a person may post through the transactions API (CONTRACT 5.8).
    pub const MANUAL: [TransactionType; 6] = [
        TransactionType::Receipt,
        TransactionType::Issue,
        TransactionType::Transfer,
        TransactionType::Adjustment,
        TransactionType::Consumption,
        TransactionType::Scrap,
    ];

    /// True for the types that change allocated quantity rather than on hand.
    pub fn is_allocation(self) -> bool {
        matches!(
            self,
            TransactionType::Reservation
                | TransactionType::Release
                | TransactionType::ReservationRelease
        )
    }
}

crate::text_enum! {
    /// What kind of record a stock transaction belongs to.
    pub enum ReferenceType {
        /// A sales order.
        SalesOrder,
        /// A purchase order.
        PurchaseOrder,
        /// A production order.
        ProductionOrder,
        /// A print job.
        PrintJob,
        /// A manual adjustment.
        Adjustment,
        /// A spool weight correction.
        SpoolAdjustment,
        /// A cycle count.
        CycleCount,
        /// A transfer between locations.
        Transfer,
        /// The inventory import (opening balances).
        InventoryImport,
    }
}

/// A stock transaction as stored (append-only).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = inventory_transactions, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "InventoryTransaction", complex)]
pub struct TransactionRow {
    /// Id.
    pub id: i64,
    /// The item.
    pub item_id: i64,
    /// Where.
    pub location_id: i64,
    /// What it did.
    pub transaction_type: TransactionType,
    /// The signed change: of on hand for stock movements, of allocated for reservations.
    pub quantity: Decimal,
    /// Whether it changed on hand (false for reservation types).
    pub affects_on_hand: bool,
    /// The item's stocking unit.
    pub unit: String,
    /// Cost per unit it was valued at.
    pub cost_per_unit: Option<Decimal>,
    /// quantity x cost, in cents, signed like quantity.
    pub total_cost: Option<Decimal>,
    /// The kind of record it belongs to.
    pub reference_type: Option<ReferenceType>,
    /// The record it belongs to.
    pub reference_id: Option<i64>,
    /// Lot number.
    pub lot_number: Option<String>,
    /// Serial number.
    pub serial_number: Option<String>,
    /// Why (adjustments, counts).
    pub reason: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// The other side of a transfer.
    pub to_location_id: Option<i64>,
    /// The journal entry that booked its value.
    pub journal_entry_id: Option<i64>,
    /// It took stock below zero (allowed by the setting) and waits for approval.
    pub requires_approval: bool,
    /// Who approved it.
    pub approved_by: Option<i64>,
    /// When it was approved.
    pub approved_at: Option<Timestamp>,
    /// Who posted it.
    pub created_by: Option<i64>,
    /// When.
    pub created_at: Timestamp,
}

/// Stock of one item at one location.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = inventory_balances, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "StockBalance", complex)]
pub struct BalanceRow {
    /// Id (the summary's `inventory_id`).
    pub id: i64,
    /// The item.
    pub item_id: i64,
    /// The location.
    pub location_id: i64,
    /// On hand: the sum of its stock transactions.
    pub on_hand_quantity: Decimal,
    /// Reserved for orders.
    pub allocated_quantity: Decimal,
    /// On hand minus allocated.
    pub available_quantity: Decimal,
    /// When it was last counted.
    pub last_counted_at: Option<Timestamp>,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// How transactions are listed (newest first).
#[derive(Debug, Clone, Default)]
pub struct TransactionFilter {
    /// Only this item.
    pub item_id: Option<i64>,
    /// Only this type.
    pub transaction_type: Option<TransactionType>,
    /// Only this location.
    pub location_id: Option<i64>,
    /// Only this kind of record.
    pub reference_type: Option<ReferenceType>,
    /// Only this record.
    pub reference_id: Option<i64>,
    /// SKU or item name contains.
    pub search: Option<String>,
    /// Only rows waiting for approval.
    pub pending_approval: bool,
    /// Only rows written at or after this moment.
    pub from: Option<chrono::DateTime<chrono::Utc>>,
    /// Only rows written before this moment.
    pub before: Option<chrono::DateTime<chrono::Utc>>,
}

/// One page of transactions, newest first, and the total.
pub async fn transactions(
    conn: &mut AsyncPgConnection,
    filter: &TransactionFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<TransactionRow>, i64)> {
    let search = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(like_pattern);
    // The filters on the ledger's own columns, shared by the count and the page.
    let own = || {
        let mut q = inventory_transactions::table.into_boxed();
        if let Some(v) = filter.item_id {
            q = q.filter(inventory_transactions::item_id.eq(v));
        }
        if let Some(v) = filter.transaction_type {
            q = q.filter(inventory_transactions::transaction_type.eq(v));
        }
        if let Some(v) = filter.location_id {
            q = q.filter(inventory_transactions::location_id.eq(v));
        }
        if let Some(v) = filter.reference_type {
            q = q.filter(inventory_transactions::reference_type.eq(v));
        }
        if let Some(v) = filter.reference_id {
            q = q.filter(inventory_transactions::reference_id.eq(v));
        }
        if filter.pending_approval {
            q = q
                .filter(inventory_transactions::requires_approval.eq(true))
                .filter(inventory_transactions::approved_at.is_null());
        }
        if let Some(v) = filter.from {
            q = q.filter(inventory_transactions::created_at.ge(v));
        }
        if let Some(v) = filter.before {
            q = q.filter(inventory_transactions::created_at.lt(v));
        }
        q
    };
    // The same as `balances`: a `COUNT(*) OVER()` beside the page made PostgreSQL join and
    // sort every matching row before the limit (137 ms a page at 100,000 rows). The count
    // joins the items only when the search needs them, and the page walks the
    // `(created_at DESC, id DESC)` index.
    let total: i64 = match &search {
        Some(p) => {
            own()
                .filter(
                    inventory_transactions::item_id.eq_any(
                        items::table
                            .filter(items::sku.ilike(p.clone()).or(items::name.ilike(p.clone())))
                            .select(items::id),
                    ),
                )
                .count()
                .get_result(conn)
                .await?
        }
        None => own().count().get_result(conn).await?,
    };
    if total == 0 || offset >= total {
        return Ok((Vec::new(), total));
    }
    let mut page = own()
        .inner_join(items::table)
        .select(TransactionRow::as_select());
    if let Some(p) = &search {
        page = page.filter(items::sku.ilike(p.clone()).or(items::name.ilike(p.clone())));
    }
    let rows = page
        .order((
            inventory_transactions::created_at.desc(),
            inventory_transactions::id.desc(),
        ))
        .limit(limit)
        .offset(offset)
        .load(conn)
        .await?;
    Ok((rows, total))
}

/// How the inventory summary is filtered (by SKU, then location).
#[derive(Debug, Clone, Default)]
pub struct SummaryFilter {
    /// Only this location.
    pub location_id: Option<i64>,
    /// Only this category.
    pub category_id: Option<i64>,
    /// Only this item.
    pub item_id: Option<i64>,
    /// SKU or name contains.
    pub search: Option<String>,
    /// Include balances with nothing on hand.
    pub show_zero: bool,
    /// Only balances below zero.
    pub negative_only: bool,
    /// Only balances not counted since this moment (a reconciliation's remaining lines).
    pub uncounted_since: Option<chrono::DateTime<chrono::Utc>>,
}

/// One page of balances with names, and the total: two statements. (One with
/// `COUNT(*) OVER()` made PostgreSQL join and sort every balance before the limit: 157 ms a
/// page at 100,000 balances. The count alone is a narrow scan that joins the items only when
/// a search or category needs them, and the page can be read in SKU order from the index.)
pub async fn balances(
    conn: &mut AsyncPgConnection,
    filter: &SummaryFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<BalanceRow>, i64)> {
    let search = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(like_pattern);
    // The filters on the balance's own columns, shared by the count and the page.
    let own = || {
        let mut q = inventory_balances::table.into_boxed();
        if let Some(v) = filter.location_id {
            q = q.filter(inventory_balances::location_id.eq(v));
        }
        if let Some(v) = filter.item_id {
            q = q.filter(inventory_balances::item_id.eq(v));
        }
        if filter.negative_only {
            q = q.filter(inventory_balances::on_hand_quantity.lt(BigDecimal::from(0)));
        }
        if !filter.show_zero {
            q = q.filter(
                inventory_balances::on_hand_quantity
                    .ne(BigDecimal::from(0))
                    .or(inventory_balances::allocated_quantity.ne(BigDecimal::from(0))),
            );
        }
        if let Some(since) = filter.uncounted_since {
            q = q.filter(
                inventory_balances::last_counted_at
                    .is_null()
                    .or(inventory_balances::last_counted_at.lt(since)),
            );
        }
        q
    };
    let total: i64 = if search.is_none() && filter.category_id.is_none() {
        own().count().get_result(conn).await?
    } else {
        let mut matching = items::table.select(items::id).into_boxed();
        if let Some(p) = &search {
            matching =
                matching.filter(items::sku.ilike(p.clone()).or(items::name.ilike(p.clone())));
        }
        if let Some(v) = filter.category_id {
            matching = matching.filter(items::category_id.eq(v));
        }
        own()
            .filter(inventory_balances::item_id.eq_any(matching))
            .count()
            .get_result(conn)
            .await?
    };
    if total == 0 || offset >= total {
        return Ok((Vec::new(), total));
    }
    let mut page = own()
        .inner_join(items::table)
        .inner_join(locations::table)
        .select(BalanceRow::as_select());
    if let Some(p) = &search {
        page = page.filter(items::sku.ilike(p.clone()).or(items::name.ilike(p.clone())));
    }
    if let Some(v) = filter.category_id {
        page = page.filter(items::category_id.eq(v));
    }
    let rows = page
        .order((items::sku, locations::code, inventory_balances::id))
        .limit(limit)
        .offset(offset)
        .load(conn)
        .await?;
    Ok((rows, total))
}

/// How far a reconciliation has come at one location: balances there, and how many of them
/// were counted since the given moment.
pub async fn count_progress(
    conn: &mut AsyncPgConnection,
    location_id: i64,
    since: chrono::DateTime<chrono::Utc>,
) -> AppResult<(i64, i64)> {
    use diesel::dsl::count_star;
    let balances: i64 = inventory_balances::table
        .filter(inventory_balances::location_id.eq(location_id))
        .select(count_star())
        .get_result(conn)
        .await?;
    let counted: i64 = inventory_balances::table
        .filter(inventory_balances::location_id.eq(location_id))
        .filter(inventory_balances::last_counted_at.ge(since))
        .select(count_star())
        .get_result(conn)
        .await?;
    Ok((balances, counted))
}

/// The balances of these items, by item then location.
pub async fn balances_of(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
) -> AppResult<Vec<BalanceRow>> {
    Ok(inventory_balances::table
        .filter(inventory_balances::item_id.eq_any(item_ids))
        .order((inventory_balances::item_id, inventory_balances::location_id))
        .select(BalanceRow::as_select())
        .load(conn)
        .await?)
}

pub use crate::master_data::catalog::model::{StockTotals, totals_of};

/// Whether any stock transaction ever touched a location.
pub async fn location_has_history(
    conn: &mut AsyncPgConnection,
    location_id: i64,
) -> AppResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        inventory_transactions::table.filter(
            inventory_transactions::location_id
                .eq(location_id)
                .or(inventory_transactions::to_location_id.eq(location_id)),
        ),
    ))
    .get_result(conn)
    .await?)
}

/// The most recent transactions of these (item, location) balances, `limit` each, newest
/// first: one statement for every balance.
pub async fn recent_of_balances(
    conn: &mut AsyncPgConnection,
    keys: &[(i64, i64)],
    limit: i64,
) -> AppResult<Vec<TransactionRow>> {
    let items: Vec<i64> = keys.iter().map(|k| k.0).collect();
    let locations: Vec<i64> = keys.iter().map(|k| k.1).collect();
    #[derive(QueryableByName)]
    struct Id {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        id: i64,
    }
    use diesel::sql_types::{Array, BigInt};
    let ids: Vec<Id> = diesel::sql_query(
        "SELECT id FROM ( \
           SELECT t.id, ROW_NUMBER() OVER (PARTITION BY t.item_id, t.location_id ORDER BY t.id DESC) AS n \
           FROM inventory_transactions t \
           JOIN unnest($1::bigint[], $2::bigint[]) AS k(item_id, location_id) \
             ON k.item_id = t.item_id AND k.location_id = t.location_id \
         ) r WHERE n <= $3",
    )
    .bind::<Array<BigInt>, _>(items)
    .bind::<Array<BigInt>, _>(locations)
    .bind::<BigInt, _>(limit)
    .load(conn)
    .await?;
    let ids: Vec<i64> = ids.into_iter().map(|i| i.id).collect();
    Ok(inventory_transactions::table
        .filter(inventory_transactions::id.eq_any(ids))
        .order(inventory_transactions::id.desc())
        .select(TransactionRow::as_select())
        .load(conn)
        .await?)
}

/// A balance that disagrees with the sum of its ledger rows.
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct LedgerMismatch {
    /// The item.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub item_id: i64,
    /// The location.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub location_id: i64,
    /// On hand as kept.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub on_hand_quantity: Decimal,
    /// On hand as the ledger sums it.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub ledger_on_hand: Decimal,
    /// Allocated as kept.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub allocated_quantity: Decimal,
    /// Allocated as the ledger sums it.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub ledger_allocated: Decimal,
}

/// Every balance that does not equal the sum of its transactions (DOMAIN invariant 1): an
/// empty answer proves the balances.
pub async fn mismatches(conn: &mut AsyncPgConnection) -> AppResult<Vec<LedgerMismatch>> {
    Ok(diesel::sql_query(
        "WITH ledger AS ( \
           SELECT item_id, location_id, \
                  COALESCE(SUM(quantity) FILTER (WHERE affects_on_hand), 0) AS on_hand, \
                  COALESCE(SUM(quantity) FILTER (WHERE NOT affects_on_hand), 0) AS allocated \
           FROM inventory_transactions GROUP BY item_id, location_id) \
         SELECT COALESCE(b.item_id, l.item_id) AS item_id, COALESCE(b.location_id, l.location_id) AS location_id, \
                COALESCE(b.on_hand_quantity, 0) AS on_hand_quantity, COALESCE(l.on_hand, 0) AS ledger_on_hand, \
                COALESCE(b.allocated_quantity, 0) AS allocated_quantity, COALESCE(l.allocated, 0) AS ledger_allocated \
         FROM inventory_balances b FULL JOIN ledger l ON l.item_id = b.item_id AND l.location_id = b.location_id \
         WHERE COALESCE(b.on_hand_quantity, 0) <> COALESCE(l.on_hand, 0) \
            OR COALESCE(b.allocated_quantity, 0) <> COALESCE(l.allocated, 0) \
         ORDER BY 1, 2",
    )
    .load(conn)
    .await?)
}

/// What stock rows show of an item.
#[derive(Debug, Clone, Queryable)]
pub struct ItemFacts {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// Category name.
    pub category_name: Option<String>,
}

/// [`ItemFacts`] of these items.
pub async fn item_facts(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<ItemFacts>> {
    Ok(items::table
        .left_join(item_categories::table)
        .filter(items::id.eq_any(ids))
        .select((
            items::id,
            items::sku,
            items::name,
            items::unit,
            item_categories::name.nullable(),
        ))
        .load(conn)
        .await?)
}

/// (id, code, name) of these locations.
pub async fn location_names(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<(i64, String, String)>> {
    Ok(locations::table
        .filter(locations::id.eq_any(ids))
        .select((locations::id, locations::code, locations::name))
        .load(conn)
        .await?)
}

/// One transaction, or a 404.
pub async fn transaction(conn: &mut AsyncPgConnection, id: i64) -> AppResult<TransactionRow> {
    paging::find_or_404(
        conn,
        inventory_transactions::table
            .find(id)
            .select(TransactionRow::as_select()),
        "Transaction not found",
    )
    .await
}

/// On hand and allocated of these items (every item when `None`), over every location.
pub async fn stock_of(
    conn: &mut AsyncPgConnection,
    ids: Option<&[i64]>,
) -> AppResult<std::collections::HashMap<i64, (BigDecimal, BigDecimal)>> {
    let every = ids.is_none();
    let rows: Vec<(i64, Option<BigDecimal>, Option<BigDecimal>)> = inventory_balances::table
        .filter(
            every
                .into_sql::<diesel::sql_types::Bool>()
                .or(inventory_balances::item_id.eq_any(ids.unwrap_or_default())),
        )
        .group_by(inventory_balances::item_id)
        .select((
            inventory_balances::item_id,
            diesel::dsl::sum(inventory_balances::on_hand_quantity),
            diesel::dsl::sum(inventory_balances::allocated_quantity),
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, on_hand, allocated)| {
            (
                id,
                (on_hand.unwrap_or_default(), allocated.unwrap_or_default()),
            )
        })
        .collect())
}

/// How many balances at a location disagree with the sum of the movements that change
/// on-hand stock there.
pub async fn drifted_balances(conn: &mut AsyncPgConnection, location: i64) -> AppResult<i64> {
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let row: Count = diesel::sql_query(
        "SELECT count(*) AS n FROM inventory_balances b \
         WHERE b.location_id = $1 AND b.on_hand_quantity <> COALESCE(( \
             SELECT SUM(t.quantity) FROM inventory_transactions t \
             WHERE t.item_id = b.item_id AND t.location_id = b.location_id AND t.affects_on_hand), 0)",
    )
    .bind::<diesel::sql_types::BigInt, _>(location)
    .get_result(conn)
    .await?;
    Ok(row.n)
}

/// The movements that took stock below zero, newest first (at most 500): negative
/// adjustments and every movement held for approval, in a window, with or without the
/// approved and the pending ones.
pub async fn negative_movements(
    conn: &mut AsyncPgConnection,
    from: Option<chrono::DateTime<chrono::Utc>>,
    to: Option<chrono::DateTime<chrono::Utc>>,
    include_approved: bool,
    include_pending: bool,
) -> AppResult<Vec<TransactionRow>> {
    let mut q = inventory_transactions::table
        .filter(
            inventory_transactions::transaction_type
                .eq(TransactionType::NegativeAdjustment)
                .or(inventory_transactions::requires_approval.eq(true)),
        )
        .into_boxed();
    if let Some(from) = from {
        q = q.filter(inventory_transactions::created_at.ge(from));
    }
    if let Some(to) = to {
        q = q.filter(inventory_transactions::created_at.le(to));
    }
    if !include_approved {
        q = q.filter(inventory_transactions::approved_by.is_null());
    }
    if !include_pending {
        q = q.filter(
            inventory_transactions::requires_approval
                .eq(false)
                .or(inventory_transactions::approved_by.is_not_null()),
        );
    }
    Ok(q.order((
        inventory_transactions::created_at.desc(),
        inventory_transactions::id.desc(),
    ))
    .limit(500)
    .select(TransactionRow::as_select())
    .load(conn)
    .await?)
}
