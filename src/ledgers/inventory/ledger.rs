//! Moving stock: the one way any area changes on-hand or allocated quantities. Every
//! function runs inside the caller's database transaction and writes the ledger row and the
//! balance together (DOMAIN invariant 1). Postings of one item are serialised by a lock on
//! the item's row, which also keeps its moving-average cost right under concurrency.
//!
//! The value a movement adds to or takes from stock comes back in [`Posted::value`]; the
//! caller books it in the general ledger in the same transaction (the accounts depend on
//! the business event, see DOMAIN "Postings").

use std::collections::HashMap;

use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{SystemAccount, cents};
use crate::ledgers::accounting::rules::inventory_account;
use crate::ledgers::inventory::model::{
    BalanceRow, ReferenceType, TransactionRow, TransactionType,
};
use crate::master_data::catalog::model::ItemType;
use crate::platform::db::schema::{
    company_settings, inventory_balances, inventory_transactions, items, locations,
};
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// What a movement does to stock.
#[derive(Debug, Clone, PartialEq)]
pub enum MovementKind {
    /// Stock arrives (a purchase, a manual receipt, an opening balance). A unit cost
    /// recomputes the moving average; without one the stock is valued at the average.
    Receipt {
        /// Cost per stocking unit, when known.
        unit_cost: Option<BigDecimal>,
    },
    /// Finished goods received from production at their actual cost.
    Production {
        /// Cost per unit.
        unit_cost: BigDecimal,
    },
    /// Stock leaves without an order (a manual issue).
    Issue,
    /// Stock used up by production.
    Consumption,
    /// Stock thrown away.
    Scrap,
    /// Stock shipped to a customer.
    Shipment,
    /// A signed correction (a count variance, a spool weight change); an increase with a
    /// cost is valued at that cost, anything else at the average.
    Adjustment {
        /// Cost per unit of an increase, when known.
        unit_cost: Option<BigDecimal>,
    },
    /// Stock moves to another location: an issue here and a receipt there, at the average
    /// cost, so no value changes.
    Transfer {
        /// Where it goes.
        to_location_id: i64,
    },
}

impl MovementKind {
    fn transaction_type(&self) -> TransactionType {
        match self {
            MovementKind::Receipt { .. } => TransactionType::Receipt,
            MovementKind::Production { .. } => TransactionType::Production,
            MovementKind::Issue | MovementKind::Transfer { .. } => TransactionType::Issue,
            MovementKind::Consumption => TransactionType::Consumption,
            MovementKind::Scrap => TransactionType::Scrap,
            MovementKind::Shipment => TransactionType::Shipment,
            MovementKind::Adjustment { .. } => TransactionType::Adjustment,
        }
    }

    /// Stock leaves: the quantity is taken off on hand.
    fn is_outgoing(&self) -> bool {
        matches!(
            self,
            MovementKind::Issue
                | MovementKind::Consumption
                | MovementKind::Scrap
                | MovementKind::Shipment
                | MovementKind::Transfer { .. }
        )
    }
}

/// A stock movement to post.
#[derive(Debug, Clone)]
pub struct Movement {
    /// The item.
    pub item_id: i64,
    /// Where.
    pub location_id: i64,
    /// What happens.
    pub kind: MovementKind,
    /// How much, in the item's stocking unit: positive, except for an adjustment, whose sign
    /// says which way.
    pub quantity: BigDecimal,
    /// The kind of record it belongs to.
    pub reference_type: Option<ReferenceType>,
    /// The record.
    pub reference_id: Option<i64>,
    /// Lot number.
    pub lot_number: Option<String>,
    /// Serial number.
    pub serial_number: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Who.
    pub created_by: Option<i64>,
    /// An outgoing movement that uses up the caller's own reservation at this location: the
    /// reservation is released by the same quantity (up to what this reference holds), and stock
    /// reserved for others is not protected from it.
    pub from_reservation: bool,
    /// When this movement is one part of a larger request (a shipment line issued from its
    /// reservation, then from free stock), the whole request: a refusal names the line's
    /// numbers, not this part's.
    pub part_of: Option<WholeRequest>,
}

/// The request a movement is part of: what was on hand when it began, and how much it asks
/// for in all.
#[derive(Debug, Clone)]
pub struct WholeRequest {
    /// On hand at the location before the request's first movement.
    pub on_hand: BigDecimal,
    /// The whole quantity requested.
    pub quantity: BigDecimal,
}

impl Movement {
    /// A movement with no reference, lot, notes or author.
    pub fn new(
        item_id: i64,
        location_id: i64,
        kind: MovementKind,
        quantity: BigDecimal,
    ) -> Movement {
        Movement {
            item_id,
            location_id,
            kind,
            quantity,
            reference_type: None,
            reference_id: None,
            lot_number: None,
            serial_number: None,
            reason: None,
            notes: None,
            created_by: None,
            from_reservation: false,
            part_of: None,
        }
    }
}

/// The item facts a posting needs (its row is locked while they are used).
#[derive(Debug, Clone, Queryable)]
pub struct StockItem {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Stocking unit.
    pub unit: String,
    /// Item type (its text).
    pub item_type: ItemType,
    /// Moving-average cost.
    pub average_cost: Option<BigDecimal>,
    /// Standard cost.
    pub standard_cost: Option<BigDecimal>,
}

impl StockItem {
    /// The cost stock of this item is valued at when no other is given: the moving average,
    /// else the standard cost, else zero.
    pub fn valuation_cost(&self) -> BigDecimal {
        self.average_cost
            .clone()
            .or_else(|| self.standard_cost.clone())
            .unwrap_or_default()
    }

    /// The inventory account its stock is booked in.
    pub fn account(&self) -> Option<SystemAccount> {
        inventory_account(self.item_type)
    }
}

/// What a posting did.
#[derive(Debug, Clone)]
pub struct Posted {
    /// The ledger rows (two for a transfer: the issue, then the receipt).
    pub transactions: Vec<TransactionRow>,
    /// The item.
    pub item: StockItem,
    /// The inventory account its value sits in.
    pub account: SystemAccount,
    /// The signed value that entered (positive) or left (negative) stock, in cents; zero
    /// for a transfer.
    pub value: BigDecimal,
    /// On hand at the location before.
    pub previous_on_hand: BigDecimal,
    /// The balance at the location after.
    pub balance: BalanceRow,
    /// It took stock below zero (allowed by the setting): flagged for approval.
    pub requires_approval: bool,
}

/// Whether stock may go below zero (company setting `allow_negative_inventory`).
pub async fn negative_allowed(conn: &mut AsyncPgConnection) -> Result<bool, Stop> {
    Ok(company_settings::table
        .select(company_settings::allow_negative_inventory)
        .first::<bool>(conn)
        .await
        .optional()?
        .unwrap_or(false))
}

/// Locks an item's row for the rest of the transaction and answers what postings need.
pub async fn lock_item(conn: &mut AsyncPgConnection, item_id: i64) -> Result<StockItem, Stop> {
    items::table
        .find(item_id)
        .select((
            items::id,
            items::sku,
            items::name,
            items::unit,
            items::item_type,
            items::average_cost,
            items::standard_cost,
        ))
        .for_update()
        .first::<StockItem>(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                format!("Item {item_id} not found"),
            )
        })
}

async fn check_location(
    conn: &mut AsyncPgConnection,
    field: &str,
    id: i64,
) -> Result<String, Stop> {
    let found: Option<(String, bool)> = locations::table
        .find(id)
        .select((locations::code, locations::active))
        .first(conn)
        .await
        .optional()?;
    match found {
        None => Err(Stop::refuse(
            field,
            UserErrorCode::NotFound,
            format!("Location {id} not found"),
        )),
        Some((code, false)) => Err(Stop::refuse(
            field,
            UserErrorCode::NotAllowed,
            format!("Location {code} is inactive"),
        )),
        Some((code, true)) => Ok(code),
    }
}

/// Adds to a balance (creating it at zero first) and answers it after the change.
async fn change_balance(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    location_id: i64,
    on_hand: &BigDecimal,
    allocated: &BigDecimal,
) -> Result<BalanceRow, Stop> {
    use inventory_balances::dsl as b;
    Ok(diesel::insert_into(b::inventory_balances)
        .values((
            b::item_id.eq(item_id),
            b::location_id.eq(location_id),
            b::on_hand_quantity.eq(on_hand),
            b::allocated_quantity.eq(allocated.max(&BigDecimal::zero()).clone()),
        ))
        .on_conflict((b::item_id, b::location_id))
        .do_update()
        .set((
            b::on_hand_quantity.eq(b::on_hand_quantity + excluded(b::on_hand_quantity)),
            b::allocated_quantity.eq(b::allocated_quantity + allocated),
            b::updated_at.eq(diesel::dsl::now),
        ))
        .returning(BalanceRow::as_returning())
        .get_result(conn)
        .await?)
}

/// The balance of an item at a location (zero when it never moved there).
pub async fn balance(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    location_id: i64,
) -> Result<Option<BalanceRow>, Stop> {
    Ok(inventory_balances::table
        .find((item_id, location_id))
        .select(BalanceRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// What one reference (a sales order, a production order, or none) still holds reserved of
/// an item at a location: the sum of its reservation rows. Releases are clamped to it, so
/// one order can never give back (or draw down) stock reserved for another.
async fn held_by(
    conn: &mut AsyncPgConnection,
    item_id: i64,
    location_id: i64,
    m: &Movement,
) -> Result<BigDecimal, Stop> {
    use diesel::dsl::sum;
    let mut q = inventory_transactions::table
        .filter(inventory_transactions::item_id.eq(item_id))
        .filter(inventory_transactions::location_id.eq(location_id))
        .filter(inventory_transactions::transaction_type.eq_any([
            TransactionType::Reservation,
            TransactionType::Release,
            TransactionType::ReservationRelease,
        ]))
        .select(sum(inventory_transactions::quantity))
        .into_boxed();
    q = match m.reference_type {
        Some(t) => q.filter(inventory_transactions::reference_type.eq(t)),
        None => q.filter(inventory_transactions::reference_type.is_null()),
    };
    q = match m.reference_id {
        Some(id) => q.filter(inventory_transactions::reference_id.eq(id)),
        None => q.filter(inventory_transactions::reference_id.is_null()),
    };
    let held: Option<BigDecimal> = q.first(conn).await?;
    Ok(held.unwrap_or_default().max(BigDecimal::zero()))
}

/// On hand of an item over every location.
async fn total_on_hand(conn: &mut AsyncPgConnection, item_id: i64) -> Result<BigDecimal, Stop> {
    use diesel::dsl::sum;
    let total: Option<BigDecimal> = inventory_balances::table
        .filter(inventory_balances::item_id.eq(item_id))
        .select(sum(inventory_balances::on_hand_quantity))
        .first(conn)
        .await?;
    Ok(total.unwrap_or_default())
}

/// The moving average after a receipt (DOMAIN "Costing"): `(on_hand x average + qty x
/// cost) / (on_hand + qty)` over all locations, or the receipt's cost when nothing (or less
/// than nothing) was on hand. Four decimal places.
pub fn moving_average(
    on_hand: &BigDecimal,
    average: &BigDecimal,
    qty: &BigDecimal,
    cost: &BigDecimal,
) -> BigDecimal {
    let after = on_hand + qty;
    let value = if *on_hand <= BigDecimal::zero() || after <= BigDecimal::zero() {
        cost.clone()
    } else {
        (on_hand * average + qty * cost) / after
    };
    value.with_scale_round(4, RoundingMode::HalfUp)
}

/// A ledger row to append: every column a posting writes, named once.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = inventory_transactions)]
struct NewTransaction {
    item_id: i64,
    location_id: i64,
    transaction_type: TransactionType,
    quantity: BigDecimal,
    unit: String,
    cost_per_unit: Option<BigDecimal>,
    total_cost: Option<BigDecimal>,
    reference_type: Option<ReferenceType>,
    reference_id: Option<i64>,
    lot_number: Option<String>,
    serial_number: Option<String>,
    reason: Option<String>,
    notes: Option<String>,
    to_location_id: Option<i64>,
    requires_approval: bool,
    created_by: Option<i64>,
    /// Set at insert only by batch receipts whose journal entry is opened first; every other
    /// posting links its rows once the entry exists ([`link_journal_entry`]).
    journal_entry_id: Option<i64>,
}

impl NewTransaction {
    /// The row of a movement of `quantity` (signed) at `location_id`, valued at `cost`
    /// (`None` for reservations, which move no value).
    fn of(
        m: &Movement,
        item: &StockItem,
        kind: TransactionType,
        location_id: i64,
        quantity: &BigDecimal,
        cost: Option<&BigDecimal>,
    ) -> NewTransaction {
        let to_location_id = match m.kind {
            MovementKind::Transfer { to_location_id } if !kind.is_allocation() => {
                Some(to_location_id)
            }
            _ => None,
        };
        NewTransaction {
            item_id: item.id,
            location_id,
            transaction_type: kind,
            quantity: quantity.clone(),
            unit: item.unit.clone(),
            cost_per_unit: cost.map(|c| c.with_scale_round(4, RoundingMode::HalfUp)),
            total_cost: cost.map(|c| cents(&(quantity * c))),
            reference_type: m
                .reference_type
                .or(to_location_id.map(|_| ReferenceType::Transfer)),
            reference_id: m.reference_id,
            lot_number: m.lot_number.clone(),
            serial_number: m.serial_number.clone(),
            reason: m.reason.clone(),
            notes: m.notes.clone(),
            to_location_id,
            requires_approval: false,
            created_by: m.created_by,
            journal_entry_id: None,
        }
    }

    async fn append(self, conn: &mut AsyncPgConnection) -> Result<TransactionRow, Stop> {
        Ok(diesel::insert_into(inventory_transactions::table)
            .values(self)
            .returning(TransactionRow::as_returning())
            .get_result(conn)
            .await?)
    }
}

/// Posts a stock movement inside the caller's transaction: the ledger row(s), the
/// balance(s), the item's average and last cost on a receipt with a cost. Refuses (and so
/// rolls the caller's transaction back) a quantity of the wrong sign, a service item, an
/// unknown or inactive location, and stock below zero or below what is reserved for
/// others, unless `allow_negative_inventory` is on (the row is then flagged for approval).
pub async fn post(conn: &mut AsyncPgConnection, m: &Movement) -> Result<Posted, Stop> {
    let zero = BigDecimal::zero();
    check_sign(m)?;
    let (item, account, location_code) = lock_and_check(conn, m).await?;
    let delta = if m.kind.is_outgoing() {
        -m.quantity.clone()
    } else {
        m.quantity.clone()
    };
    let cost = cost_and_average(conn, m, &item, &delta).await?;
    let BalanceChange {
        balance,
        previous_on_hand,
        released,
        requires_approval,
    } = change_checked(conn, m, &item, &location_code, &delta).await?;

    let mut first = NewTransaction::of(
        m,
        &item,
        m.kind.transaction_type(),
        m.location_id,
        &delta,
        Some(&cost),
    );
    first.requires_approval = requires_approval;
    let mut rows = vec![first];
    let mut balance = balance;
    if let MovementKind::Transfer { to_location_id } = m.kind {
        rows.push(NewTransaction::of(
            m,
            &item,
            TransactionType::Receipt,
            to_location_id,
            &m.quantity,
            Some(&cost),
        ));
        // The answer describes the source location; the destination is updated too.
        change_balance(conn, item.id, to_location_id, &m.quantity, &zero).await?;
        balance = self::balance(conn, item.id, m.location_id)
            .await?
            .unwrap_or(balance);
    }
    let mut transactions: Vec<TransactionRow> = Vec::with_capacity(rows.len() + 1);
    for row in rows {
        transactions.push(row.append(conn).await?);
    }
    if released > zero {
        allocation_row(
            conn,
            &item,
            m,
            TransactionType::ReservationRelease,
            &(-released),
        )
        .await?;
    }
    let value = match m.kind {
        MovementKind::Transfer { .. } => zero,
        _ => cents(&(&delta * &cost)),
    };
    Ok(Posted {
        transactions,
        item,
        account,
        value,
        previous_on_hand,
        balance,
        requires_approval,
    })
}

/// Refuses a movement of the wrong sign: an adjustment must change the quantity, anything
/// else needs a positive quantity.
fn check_sign(m: &Movement) -> Result<(), Stop> {
    let adjustment = matches!(m.kind, MovementKind::Adjustment { .. });
    if (adjustment && m.quantity.is_zero()) || (!adjustment && m.quantity <= BigDecimal::zero()) {
        return Err(Stop::refuse(
            "quantity",
            UserErrorCode::Invalid,
            if adjustment {
                "An adjustment must change the quantity"
            } else {
                "Quantity must be greater than 0"
            },
        ));
    }
    Ok(())
}

/// Locks the movement's item and checks it carries stock, and checks its location (and a
/// transfer's destination): the item, its inventory account and the location's code.
async fn lock_and_check(
    conn: &mut AsyncPgConnection,
    m: &Movement,
) -> Result<(StockItem, SystemAccount, String), Stop> {
    let item = lock_item(conn, m.item_id).await?;
    let Some(account) = item.account() else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotAllowed,
            format!("{} is a service and carries no stock", item.sku),
        ));
    };
    let location_code = check_location(conn, "locationId", m.location_id).await?;
    if let MovementKind::Transfer { to_location_id } = m.kind {
        if to_location_id == m.location_id {
            return Err(Stop::refuse(
                "toLocationId",
                UserErrorCode::Invalid,
                "A transfer needs a different destination location",
            ));
        }
        check_location(conn, "toLocationId", to_location_id).await?;
    }
    Ok((item, account, location_code))
}

/// The unit cost a movement is valued at: a receipt's own cost when given, else the average
/// the stock is valued at. A receipt (or production) with its own cost recomputes the item's
/// moving average and last cost.
async fn cost_and_average(
    conn: &mut AsyncPgConnection,
    m: &Movement,
    item: &StockItem,
    delta: &BigDecimal,
) -> Result<BigDecimal, Stop> {
    let given_cost = match &m.kind {
        MovementKind::Receipt { unit_cost } | MovementKind::Adjustment { unit_cost }
            if *delta > BigDecimal::zero() =>
        {
            unit_cost.clone()
        }
        MovementKind::Production { unit_cost } => Some(unit_cost.clone()),
        _ => None,
    };
    let cost = given_cost.clone().unwrap_or_else(|| item.valuation_cost());
    let recompute = given_cost.is_some()
        && matches!(
            m.kind,
            MovementKind::Receipt { .. } | MovementKind::Production { .. }
        );
    if recompute {
        let on_hand = total_on_hand(conn, item.id).await?;
        let average = moving_average(&on_hand, &item.valuation_cost(), delta, &cost);
        diesel::update(items::table.find(item.id))
            .set((
                items::average_cost.eq(Some(average)),
                items::last_cost.eq(Some(cost.clone())),
            ))
            .execute(conn)
            .await?;
    }
    Ok(cost)
}

/// What a movement did to its balance.
struct BalanceChange {
    /// The balance after.
    balance: BalanceRow,
    /// On hand before.
    previous_on_hand: BigDecimal,
    /// The caller's own reservation released by drawing it down.
    released: BigDecimal,
    /// Stock went below zero or below what is reserved, as the setting allows.
    requires_approval: bool,
}

/// Changes the balance by `delta` (releasing the caller's own reservation it draws down) and
/// refuses stock below zero or below what is reserved for others, unless allowed.
async fn change_checked(
    conn: &mut AsyncPgConnection,
    m: &Movement,
    item: &StockItem,
    location_code: &str,
    delta: &BigDecimal,
) -> Result<BalanceChange, Stop> {
    let zero = BigDecimal::zero();
    // Drawing down the caller's own reservation releases it by the same quantity.
    let before = balance(conn, item.id, m.location_id).await?;
    let allocated_before = before
        .as_ref()
        .map(|b| b.allocated_quantity.0.clone())
        .unwrap_or_default();
    let previous_on_hand = before
        .as_ref()
        .map(|b| b.on_hand_quantity.0.clone())
        .unwrap_or_default();
    let released = if m.from_reservation && *delta < zero {
        (-delta.clone())
            .min(allocated_before.clone())
            .min(held_by(conn, item.id, m.location_id, m).await?)
    } else {
        zero.clone()
    };
    let balance = change_balance(conn, item.id, m.location_id, delta, &(-released.clone())).await?;

    let allow_negative = negative_allowed(conn).await?;
    let below_zero = balance.on_hand_quantity.0 < zero && *delta < zero;
    let below_reserved = *delta < zero
        && m.kind.is_outgoing()
        && !m.from_reservation
        && balance.available_quantity.0 < zero;
    if (below_zero || below_reserved) && !allow_negative {
        let (on_hand, requested) = match &m.part_of {
            Some(whole) => (&whole.on_hand, &whole.quantity),
            None => (&previous_on_hand, &m.quantity),
        };
        let message = if below_zero {
            format!(
                "Insufficient stock of {} at {}: {} on hand, {} requested",
                item.sku,
                location_code,
                on_hand.normalized(),
                requested.normalized()
            )
        } else {
            format!(
                "Insufficient available stock of {} at {}: {} available ({} reserved), {} requested",
                item.sku,
                location_code,
                (&previous_on_hand - &allocated_before).normalized(),
                allocated_before.normalized(),
                m.quantity.normalized()
            )
        };
        return Err(Stop::refuse("quantity", UserErrorCode::NotAllowed, message));
    }
    Ok(BalanceChange {
        balance,
        previous_on_hand,
        released,
        requires_approval: below_zero || below_reserved,
    })
}

async fn allocation_row(
    conn: &mut AsyncPgConnection,
    item: &StockItem,
    m: &Movement,
    kind: TransactionType,
    quantity: &BigDecimal,
) -> Result<TransactionRow, Stop> {
    NewTransaction::of(m, item, kind, m.location_id, quantity, None)
        .append(conn)
        .await
}

/// Reserves up to `m.quantity` of an item at a location for an order (DOMAIN "Allocation
/// order": never more than is available). Answers the quantity reserved (zero when nothing
/// is available) and the ledger row, if any.
pub async fn reserve(
    conn: &mut AsyncPgConnection,
    m: &Movement,
) -> Result<(BigDecimal, Option<TransactionRow>), Stop> {
    let zero = BigDecimal::zero();
    if m.quantity <= zero {
        return Err(Stop::refuse(
            "quantity",
            UserErrorCode::Invalid,
            "Quantity must be greater than 0",
        ));
    }
    let item = lock_item(conn, m.item_id).await?;
    check_location(conn, "locationId", m.location_id).await?;
    let available = balance(conn, item.id, m.location_id)
        .await?
        .map(|b| b.available_quantity.0)
        .unwrap_or_default();
    let reserved = m.quantity.clone().min(available.max(zero.clone()));
    if reserved <= zero {
        return Ok((zero, None));
    }
    change_balance(conn, item.id, m.location_id, &zero, &reserved).await?;
    let row = allocation_row(conn, &item, m, TransactionType::Reservation, &reserved).await?;
    Ok((reserved, Some(row)))
}

/// Gives back up to `m.quantity` of the reference's own reservation (never more than it
/// holds, nor than is allocated). Answers
/// the quantity released and the ledger row, if any.
pub async fn release(
    conn: &mut AsyncPgConnection,
    m: &Movement,
) -> Result<(BigDecimal, Option<TransactionRow>), Stop> {
    let zero = BigDecimal::zero();
    if m.quantity <= zero {
        return Err(Stop::refuse(
            "quantity",
            UserErrorCode::Invalid,
            "Quantity must be greater than 0",
        ));
    }
    let item = lock_item(conn, m.item_id).await?;
    let allocated = balance(conn, item.id, m.location_id)
        .await?
        .map(|b| b.allocated_quantity.0)
        .unwrap_or_default();
    let released = m
        .quantity
        .clone()
        .min(allocated)
        .min(held_by(conn, item.id, m.location_id, m).await?);
    if released <= zero {
        return Ok((zero, None));
    }
    change_balance(conn, item.id, m.location_id, &zero, &(-released.clone())).await?;
    let row = allocation_row(
        conn,
        &item,
        m,
        TransactionType::Release,
        &(-released.clone()),
    )
    .await?;
    Ok((released, Some(row)))
}

/// Records which journal entry booked these transactions' value (the one change a ledger
/// row accepts, once).
pub async fn link_journal_entry(
    conn: &mut AsyncPgConnection,
    transactions: &[i64],
    entry: i64,
) -> Result<(), Stop> {
    diesel::update(
        inventory_transactions::table.filter(inventory_transactions::id.eq_any(transactions)),
    )
    .set(inventory_transactions::journal_entry_id.eq(Some(entry)))
    .execute(conn)
    .await?;
    Ok(())
}

/// One receipt posted by [`prepare_receipts`] and [`PreparedReceipts::write`].
#[derive(Debug, Clone)]
pub struct Received {
    /// The ledger row.
    pub transaction: TransactionRow,
    /// The inventory account its value sits in.
    pub account: SystemAccount,
    /// The value that entered stock, in cents.
    pub value: BigDecimal,
}

/// Many receipts at one location, checked and valued, their items' costs and balances
/// already written, their ledger rows not yet: [`PreparedReceipts::write`] appends them, so
/// a caller can open the journal entry in between and write the rows already linked to it
/// (an UPDATE of thousands of fresh ledger rows afterwards cost as much as their INSERT).
pub struct PreparedReceipts {
    rows: Vec<NewTransaction>,
    accounts: HashMap<i64, (SystemAccount, BigDecimal)>,
}

impl PreparedReceipts {
    /// Whether any receipt moves value (a journal entry will have lines).
    pub fn moves_value(&self) -> bool {
        self.accounts.values().any(|(_, value)| !value.is_zero())
    }

    /// Appends the ledger rows, linked to `journal_entry_id` when given; answers one
    /// [`Received`] per movement, in order.
    pub async fn write(
        mut self,
        conn: &mut AsyncPgConnection,
        journal_entry_id: Option<i64>,
    ) -> Result<Vec<Received>, Stop> {
        for row in &mut self.rows {
            row.journal_entry_id = journal_entry_id;
        }
        let mut out = Vec::with_capacity(self.rows.len());
        for chunk in self.rows.chunks(1000) {
            let written: Vec<TransactionRow> = diesel::insert_into(inventory_transactions::table)
                .values(chunk)
                .returning(TransactionRow::as_returning())
                .get_results(conn)
                .await?;
            for transaction in written {
                let (account, value) =
                    self.accounts.remove(&transaction.item_id).ok_or_else(|| {
                        crate::platform::error::AppError::internal("a receipt without its item")
                    })?;
                out.push(Received {
                    transaction,
                    account,
                    value,
                });
            }
        }
        Ok(out)
    }
}

/// Posts many receipts at one location in a handful of statements, inside the caller's
/// transaction (imports of opening balances: thousands of rows). Each item at most once;
/// every movement must be a [`MovementKind::Receipt`] at `location_id` with a positive
/// quantity. Same effects as [`post`] for each: the ledger row, the balance, the moving
/// average and last cost when a unit cost is given. The rows are appended by
/// [`PreparedReceipts::write`].
pub async fn prepare_receipts(
    conn: &mut AsyncPgConnection,
    location_id: i64,
    movements: &[Movement],
) -> Result<PreparedReceipts, Stop> {
    if movements.is_empty() {
        return Ok(PreparedReceipts {
            rows: Vec::new(),
            accounts: HashMap::new(),
        });
    }
    let ids = check_receipts(location_id, movements)?;
    let locked: Vec<StockItem> = items::table
        .filter(items::id.eq_any(&ids))
        .order(items::id)
        .select((
            items::id,
            items::sku,
            items::name,
            items::unit,
            items::item_type,
            items::average_cost,
            items::standard_cost,
        ))
        .for_update()
        .load(conn)
        .await?;
    let by_id: HashMap<i64, StockItem> = locked.into_iter().map(|i| (i.id, i)).collect();
    check_location(conn, "locationId", location_id).await?;
    let on_hand: HashMap<i64, BigDecimal> = {
        use diesel::dsl::sum;
        inventory_balances::table
            .filter(inventory_balances::item_id.eq_any(&ids))
            .group_by(inventory_balances::item_id)
            .select((
                inventory_balances::item_id,
                sum(inventory_balances::on_hand_quantity),
            ))
            .load::<(i64, Option<BigDecimal>)>(conn)
            .await?
            .into_iter()
            .map(|(id, q)| (id, q.unwrap_or_default()))
            .collect()
    };
    let (prepared, costed) = value_receipts(location_id, movements, &by_id, &on_hand)?;
    costed.write(conn).await?;
    add_receipts_to_balances(conn, location_id, movements).await?;
    Ok(prepared)
}

/// Checks a batch of receipts (each a receipt of a distinct item at `location_id`, with a
/// positive quantity): their item ids, sorted (the order their rows are locked in).
fn check_receipts(location_id: i64, movements: &[Movement]) -> Result<Vec<i64>, Stop> {
    use std::collections::HashSet;
    let zero = BigDecimal::zero();
    let mut seen = HashSet::new();
    for m in movements {
        if !matches!(m.kind, MovementKind::Receipt { .. })
            || m.location_id != location_id
            || !seen.insert(m.item_id)
        {
            return Err(crate::platform::error::AppError::internal(
                "post_receipts takes receipts of distinct items at one location",
            )
            .into());
        }
        if m.quantity <= zero {
            return Err(Stop::refuse(
                "quantity",
                UserErrorCode::Invalid,
                "Quantity must be greater than 0",
            ));
        }
    }
    let mut ids: Vec<i64> = seen.into_iter().collect();
    ids.sort_unstable();
    Ok(ids)
}

/// The new average and last cost of the items received with a cost, as parallel arrays.
#[derive(Default)]
struct CostUpdates {
    ids: Vec<i64>,
    averages: Vec<BigDecimal>,
    costs: Vec<BigDecimal>,
}

impl CostUpdates {
    /// Writes the items' average and last costs in one statement (rows already right are
    /// left alone).
    async fn write(self, conn: &mut AsyncPgConnection) -> Result<(), Stop> {
        use diesel::sql_types::{Array, BigInt, Numeric};
        if !self.ids.is_empty() {
            diesel::sql_query(
                "UPDATE items SET average_cost = v.average, last_cost = v.cost \
                 FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS v(id, average, cost) \
                 WHERE items.id = v.id \
                   AND (items.average_cost IS DISTINCT FROM v.average \
                        OR items.last_cost IS DISTINCT FROM v.cost)",
            )
            .bind::<Array<BigInt>, _>(self.ids)
            .bind::<Array<Numeric>, _>(self.averages)
            .bind::<Array<Numeric>, _>(self.costs)
            .execute(conn)
            .await?;
        }
        Ok(())
    }
}

/// Values each receipt (its own cost, else the item's valuation cost): the ledger rows and
/// values to write, and the items whose moving average it changes.
fn value_receipts(
    location_id: i64,
    movements: &[Movement],
    by_id: &HashMap<i64, StockItem>,
    on_hand: &HashMap<i64, BigDecimal>,
) -> Result<(PreparedReceipts, CostUpdates), Stop> {
    let mut rows = Vec::with_capacity(movements.len());
    let mut accounts: HashMap<i64, (SystemAccount, BigDecimal)> =
        HashMap::with_capacity(movements.len());
    let mut costed = CostUpdates::default();
    for m in movements {
        let Some(item) = by_id.get(&m.item_id) else {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                format!("Item {} not found", m.item_id),
            ));
        };
        let Some(account) = item.account() else {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotAllowed,
                format!("{} is a service and carries no stock", item.sku),
            ));
        };
        let given = match &m.kind {
            MovementKind::Receipt { unit_cost } => unit_cost.clone(),
            _ => None,
        };
        let cost = given.clone().unwrap_or_else(|| item.valuation_cost());
        if given.is_some() {
            let before = on_hand.get(&item.id).cloned().unwrap_or_default();
            costed.ids.push(item.id);
            costed.averages.push(moving_average(
                &before,
                &item.valuation_cost(),
                &m.quantity,
                &cost,
            ));
            costed.costs.push(cost.clone());
        }
        accounts.insert(item.id, (account, cents(&(&m.quantity * &cost))));
        rows.push(NewTransaction::of(
            m,
            item,
            TransactionType::Receipt,
            location_id,
            &m.quantity,
            Some(&cost),
        ));
    }
    Ok((PreparedReceipts { rows, accounts }, costed))
}

/// Adds the received quantities to the balances at `location_id` (creating them), in a few
/// statements.
async fn add_receipts_to_balances(
    conn: &mut AsyncPgConnection,
    location_id: i64,
    movements: &[Movement],
) -> Result<(), Stop> {
    use inventory_balances::dsl as b;
    let zero = BigDecimal::zero();
    let values: Vec<_> = movements
        .iter()
        .map(|m| {
            (
                b::item_id.eq(m.item_id),
                b::location_id.eq(location_id),
                b::on_hand_quantity.eq(m.quantity.clone()),
                b::allocated_quantity.eq(zero.clone()),
            )
        })
        .collect();
    for chunk in values.chunks(2000) {
        diesel::insert_into(b::inventory_balances)
            .values(chunk)
            .on_conflict((b::item_id, b::location_id))
            .do_update()
            .set((
                b::on_hand_quantity.eq(b::on_hand_quantity + excluded(b::on_hand_quantity)),
                b::updated_at.eq(diesel::dsl::now),
            ))
            .execute(conn)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn the_moving_average_weighs_what_is_on_hand() {
        assert_eq!(
            moving_average(&d("10"), &d("2"), &d("10"), &d("4")),
            d("3.0000")
        );
        // Nothing (or less than nothing) on hand: the receipt's cost.
        assert_eq!(
            moving_average(&d("0"), &d("2"), &d("5"), &d("7")),
            d("7.0000")
        );
        assert_eq!(
            moving_average(&d("-3"), &d("2"), &d("5"), &d("7")),
            d("7.0000")
        );
        assert_eq!(
            moving_average(&d("3"), &d("1"), &d("0"), &d("9")),
            d("1.0000")
        );
    }
}
