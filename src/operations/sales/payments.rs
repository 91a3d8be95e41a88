//! Payments `PAY-YYYY-NNNN` (CONTRACT 5.4, admins): recording, refunding and voiding, each
//! with its journal entry (1000 Cash / 1100 AR; a refund or a void the reverse) and the
//! order's payment status recomputed, in one database transaction.

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use chrono::{DateTime, Datelike, Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount, cents};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::rules::{NOTES_MAX, optional_text};
use crate::operations::sales::model::{self as sales, SalesEventType, SalesOrderStatus};
use crate::operations::sales::rules::{
    event, event_noting, invalid, next_number, not_allowed, now, recompute_payment_status,
};
use crate::platform::db::like_pattern;
use crate::platform::db::paging;
use crate::platform::db::schema::{payments, sales_orders};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

pub use crate::ledgers::accounting::payment_kinds::{
    PaymentMethod, PaymentRecordStatus, PaymentType,
};

/// A payment (or refund) against a sales order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = payments, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Payment", complex)]
pub struct PaymentRow {
    /// Id.
    pub id: i64,
    /// `PAY-YYYY-NNNN`.
    pub payment_number: String,
    /// The order.
    pub sales_order_id: i64,
    /// Amount (refunds negative).
    pub amount: Decimal,
    /// How.
    pub payment_method: PaymentMethod,
    /// Payment, refund or adjustment.
    pub payment_type: PaymentType,
    /// Where it stands.
    pub status: PaymentRecordStatus,
    /// The processor's reference.
    pub transaction_id: Option<String>,
    /// Check number.
    pub check_number: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// When it was paid.
    pub payment_date: Timestamp,
    /// Who recorded it.
    pub recorded_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// A payment to record (`POST /payments`) or a refund (`POST /payments/refund`).
#[derive(Debug, Clone, InputObject)]
pub struct PaymentInput {
    /// The order.
    pub sales_order_id: i64,
    /// Amount (more than 0; a refund is stored negative).
    pub amount: Decimal,
    /// How.
    pub payment_method: PaymentMethod,
    /// When (default now).
    pub payment_date: Option<Timestamp>,
    /// The processor's reference.
    pub transaction_id: Option<String>,
    /// Check number.
    pub check_number: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

/// Changes to a payment (`PATCH /payments/{id}`): notes, or `voided`.
#[derive(Debug, Clone, Default, InputObject)]
pub struct PaymentUpdateInput {
    /// Notes.
    pub notes: Option<String>,
    /// `voided` voids it; other statuses cannot be set by hand.
    pub status: Option<PaymentRecordStatus>,
}

/// How payments are listed.
#[derive(Debug, Clone, Default)]
pub struct PaymentFilter {
    /// One order's payments.
    pub order_id: Option<i64>,
    /// One method.
    pub payment_method: Option<PaymentMethod>,
    /// One status.
    pub status: Option<PaymentRecordStatus>,
    /// One type.
    pub payment_type: Option<PaymentType>,
    /// Paid at or after.
    pub from_date: Option<DateTime<Utc>>,
    /// Paid at or before.
    pub to_date: Option<DateTime<Utc>>,
    /// Payment or order number, transaction id contains.
    pub search: Option<String>,
}

/// A page of payments, newest first, and the total.
pub async fn list(
    conn: &mut AsyncPgConnection,
    f: &PaymentFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<PaymentRow>, i64)> {
    let build = || {
        let mut q = payments::table
            .inner_join(sales_orders::table)
            .select((PaymentRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(v) = f.order_id {
            q = q.filter(payments::sales_order_id.eq(v));
        }
        if let Some(v) = f.payment_method {
            q = q.filter(payments::payment_method.eq(v));
        }
        if let Some(v) = f.status {
            q = q.filter(payments::status.eq(v));
        }
        if let Some(v) = f.payment_type {
            q = q.filter(payments::payment_type.eq(v));
        }
        if let Some(v) = f.from_date {
            q = q.filter(payments::payment_date.ge(v));
        }
        if let Some(v) = f.to_date {
            q = q.filter(payments::payment_date.le(v));
        }
        if let Some(s) = f.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            let p = like_pattern(s);
            q = q.filter(
                payments::payment_number
                    .ilike(p.clone())
                    .or(sales_orders::order_number.ilike(p.clone()))
                    .or(payments::transaction_id.ilike(p)),
            );
        }
        q.order((payments::payment_date.desc(), payments::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The payments of these orders, oldest first.
pub async fn of_orders(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<PaymentRow>> {
    Ok(payments::table
        .filter(payments::sales_order_id.eq_any(order_ids))
        .order((payments::sales_order_id, payments::id))
        .select(PaymentRow::as_select())
        .load(conn)
        .await?)
}

/// The payment with this id, or a 404 `Payment not found`.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<PaymentRow> {
    paging::find_or_404(
        conn,
        payments::table.find(id).select(PaymentRow::as_select()),
        "Payment not found",
    )
    .await
}

fn check(input: &mut PaymentInput) -> Result<(), Stop> {
    let mut errors: Vec<UserError> = Vec::new();
    if input.amount.0 <= BigDecimal::zero() {
        errors.push(invalid("amount", "Input should be greater than 0"));
    } else if cents(&input.amount.0) != input.amount.0 {
        errors.push(invalid("amount", "Use at most 2 decimal places"));
    } else if input.amount.0 >= 1_000_000_000i64 {
        errors.push(invalid("amount", "The amount is too large"));
    }
    optional_text(&mut errors, "transactionId", &mut input.transaction_id, 255);
    optional_text(&mut errors, "checkNumber", &mut input.check_number, 100);
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Stop::Refused(errors))
    }
}

fn cash_entry(row: &PaymentRow, description: String, signed: &BigDecimal, user: i64) -> EntryDraft {
    EntryDraft::new(row.payment_date.0.date_naive(), description)
        .source(SourceType::Payment, Some(row.id))
        .by(Some(user))
        .transfer(
            SystemAccount::Cash,
            SystemAccount::AccountsReceivable,
            signed,
            Some(row.payment_number.clone()),
        )
}

/// Records a payment (or, with `refund`, a refund: never more than is paid), books it and
/// recomputes the order's payment status.
pub async fn record(
    conn: &mut AsyncPgConnection,
    mut input: PaymentInput,
    refund: bool,
    user: i64,
) -> Result<PaymentRow, Stop> {
    check(&mut input)?;
    let order = sales::lock(conn, input.sales_order_id)
        .await?
        .ok_or_else(|| {
            Stop::refuse(
                "salesOrderId",
                UserErrorCode::NotFound,
                "Sales order not found",
            )
        })?;
    if order.status == SalesOrderStatus::Cancelled && !refund {
        return Err(not_allowed("Cannot record a payment for a cancelled order"));
    }
    let amount = input.amount.0.with_scale(2);
    // The order's row lock (above) serialises payments and refunds on one order, so the
    // balance read here is the balance the new row is checked against.
    let paid = sales::paid_of(conn, &[order.id])
        .await?
        .into_iter()
        .next()
        .map(|(_, p)| p)
        .unwrap_or_default();
    if refund && amount > paid {
        return Err(not_allowed(format!(
            "Refund amount ({amount}) exceeds the amount paid ({})",
            paid.with_scale(2)
        )));
    }
    let balance = (&order.grand_total.0 - &paid).with_scale(2);
    if !refund && amount > balance {
        let due = if balance > BigDecimal::zero() {
            balance.to_string()
        } else {
            "0.00".to_string()
        };
        return Err(not_allowed(format!(
            "Payment amount ({amount}) exceeds the balance due ({due})"
        )));
    }
    let signed = if refund {
        -amount.clone()
    } else {
        amount.clone()
    };
    let number = next_number(conn, "payment_seq", "PAY").await?;
    let row: PaymentRow = diesel::insert_into(payments::table)
        .values((
            payments::payment_number.eq(&number),
            payments::sales_order_id.eq(order.id),
            payments::amount.eq(&signed),
            payments::payment_method.eq(input.payment_method),
            payments::payment_type.eq(if refund {
                PaymentType::Refund
            } else {
                PaymentType::Payment
            }),
            payments::status.eq(PaymentRecordStatus::Completed),
            payments::transaction_id.eq(input.transaction_id),
            payments::check_number.eq(if refund { None } else { input.check_number }),
            payments::notes.eq(input.notes),
            payments::payment_date.eq(input.payment_date.map(|t| t.0).unwrap_or_else(now)),
            payments::recorded_by.eq(Some(user)),
        ))
        .returning(PaymentRow::as_returning())
        .get_result(conn)
        .await?;
    let what = if refund { "Refund" } else { "Payment" };
    books::post(
        conn,
        cash_entry(
            &row,
            format!("{what} {number} for sales order {}", order.order_number),
            &signed,
            user,
        ),
    )
    .await?;
    recompute_payment_status(conn, &order).await?;
    crate::operations::sales::invoices::rules::apply_payments(conn, order.id, user).await?;
    event_noting(
        conn,
        order.id,
        SalesEventType::Payment,
        format!("{what} Recorded"),
        Some(format!("{number}: {signed} by {}", row.payment_method)),
        None,
        Some(user),
        Some(("payment_number", row.payment_number.clone())),
    )
    .await?;
    Ok(row)
}

/// Voids a completed payment: its journal entry is reversed and the order's payment status
/// recomputed. A voided payment cannot be voided again.
pub async fn void(conn: &mut AsyncPgConnection, id: i64, user: i64) -> Result<PaymentRow, Stop> {
    let row: PaymentRow = payments::table
        .find(id)
        .select(PaymentRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Payment not found"))?;
    if row.status == PaymentRecordStatus::Voided {
        return Err(not_allowed("Payment is already voided"));
    }
    let order = sales::lock(conn, row.sales_order_id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Sales order not found"))?;
    let was_completed = row.status == PaymentRecordStatus::Completed;
    let voided: PaymentRow = diesel::update(payments::table.find(id))
        .set((
            payments::status.eq(PaymentRecordStatus::Voided),
            payments::updated_at.eq(now()),
        ))
        .returning(PaymentRow::as_returning())
        .get_result(conn)
        .await?;
    if was_completed {
        let mut entry = cash_entry(
            &row,
            format!(
                "Void of {} for sales order {}",
                row.payment_number, order.order_number
            ),
            &(-row.amount.0.clone()),
            user,
        );
        entry.date = crate::ledgers::inventory::rules::today();
        books::post(conn, entry).await?;
    }
    recompute_payment_status(conn, &order).await?;
    crate::operations::sales::invoices::rules::apply_payments(conn, order.id, user).await?;
    event(
        conn,
        order.id,
        SalesEventType::Payment,
        "Payment Voided",
        Some(row.payment_number.clone()),
        None,
        Some(user),
    )
    .await?;
    Ok(voided)
}

/// Changes a payment's notes, or voids it (`status: voided`).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: PaymentUpdateInput,
    user: i64,
) -> Result<PaymentRow, Stop> {
    let mut errors = Vec::new();
    let clear = input.notes.as_deref().is_some_and(|n| n.trim().is_empty());
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    match input.status {
        None => {}
        Some(PaymentRecordStatus::Voided) => {
            void(conn, id, user).await?;
        }
        Some(s) => {
            return Err(Stop::refuse(
                "status",
                UserErrorCode::Invalid,
                format!("Status '{s}' cannot be set by hand; only 'voided'"),
            ));
        }
    }
    find(conn, id).await?;
    if input.notes.is_some() || clear {
        diesel::update(payments::table.find(id))
            .set(payments::notes.eq(input.notes))
            .execute(conn)
            .await?;
    }
    Ok(find(conn, id).await?)
}

/// What an order owes (`GET /payments/order/{id}/summary`).
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderPaymentSummary {
    /// Grand total.
    pub order_total: Decimal,
    /// Completed payments.
    pub total_paid: Decimal,
    /// Completed refunds (positive).
    pub total_refunded: Decimal,
    /// order total - paid + refunded.
    pub balance_due: Decimal,
    /// Completed payments and refunds.
    pub payment_count: i64,
    /// The latest completed payment.
    pub last_payment_date: Option<Timestamp>,
}

/// An order's payment summary.
pub async fn order_summary(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> AppResult<OrderPaymentSummary> {
    let order = sales::find(conn, order_id).await?;
    let rows = of_orders(conn, &[order_id]).await?;
    let done: Vec<&PaymentRow> = rows
        .iter()
        .filter(|p| p.status == PaymentRecordStatus::Completed)
        .collect();
    let paid = done
        .iter()
        .filter(|p| p.amount.0 > BigDecimal::zero())
        .fold(BigDecimal::zero(), |a, p| a + &p.amount.0);
    let refunded = done
        .iter()
        .filter(|p| p.amount.0 < BigDecimal::zero())
        .fold(BigDecimal::zero(), |a, p| a - &p.amount.0);
    Ok(OrderPaymentSummary {
        balance_due: Decimal((&order.grand_total.0 - &paid + &refunded).with_scale(2)),
        order_total: order.grand_total,
        total_paid: Decimal(paid.with_scale(2)),
        total_refunded: Decimal(refunded.with_scale(2)),
        payment_count: done.len() as i64,
        last_payment_date: done
            .iter()
            .filter(|p| p.amount.0 > BigDecimal::zero())
            .map(|p| p.payment_date)
            .max_by_key(|t| t.0),
    })
}

/// An order's net completed payments (refunds subtracted) and whether a completed refund is
/// among them: what an admin's payment status must agree with.
pub async fn paid_and_refunded(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> AppResult<(BigDecimal, bool)> {
    let rows = of_orders(conn, &[order_id]).await?;
    let done = rows
        .iter()
        .filter(|p| p.status == PaymentRecordStatus::Completed);
    let net = done
        .clone()
        .fold(BigDecimal::zero(), |a, p| a + &p.amount.0);
    let refunded_any = done.clone().any(|p| p.amount.0 < BigDecimal::zero());
    Ok((net, refunded_any))
}

/// The payments dashboard (`GET /payments/dashboard`).
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentsDashboard {
    /// Completed payments today.
    pub payments_today: i64,
    /// Their amount.
    pub amount_today: Decimal,
    /// Completed payments this week (from Monday).
    pub payments_this_week: i64,
    /// Their amount.
    pub amount_this_week: Decimal,
    /// Completed payments this month.
    pub payments_this_month: i64,
    /// Their amount.
    pub amount_this_month: Decimal,
    /// Open orders with something still to pay.
    pub orders_with_balance: i64,
    /// What they still owe.
    pub total_outstanding: Decimal,
    /// Amount per method this month, as a JSON object.
    pub by_method: async_graphql::Json<serde_json::Map<String, serde_json::Value>>,
}

/// The payments dashboard, from two aggregate queries.
pub async fn dashboard(conn: &mut AsyncPgConnection) -> AppResult<PaymentsDashboard> {
    let today = crate::ledgers::inventory::rules::today();
    let week = today - Duration::days(today.weekday().num_days_from_monday() as i64);
    let month = today.with_day(1).unwrap_or(today);
    let start = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let rows: Vec<(DateTime<Utc>, BigDecimal, PaymentMethod)> = payments::table
        .filter(payments::status.eq(PaymentRecordStatus::Completed))
        .filter(payments::payment_type.eq(PaymentType::Payment))
        .filter(payments::payment_date.ge(start(week.min(month))))
        .select((
            payments::payment_date,
            payments::amount,
            payments::payment_method,
        ))
        .load(conn)
        .await?;
    let mut out = PaymentsDashboard {
        payments_today: 0,
        amount_today: Decimal(BigDecimal::zero().with_scale(2)),
        payments_this_week: 0,
        amount_this_week: Decimal(BigDecimal::zero().with_scale(2)),
        payments_this_month: 0,
        amount_this_month: Decimal(BigDecimal::zero().with_scale(2)),
        orders_with_balance: 0,
        total_outstanding: Decimal(BigDecimal::zero().with_scale(2)),
        by_method: async_graphql::Json(serde_json::Map::new()),
    };
    let mut by_method: std::collections::BTreeMap<String, BigDecimal> = Default::default();
    for (at, amount, method) in rows {
        if at >= start(today) {
            out.payments_today += 1;
            out.amount_today.0 += &amount;
        }
        if at >= start(week) {
            out.payments_this_week += 1;
            out.amount_this_week.0 += &amount;
        }
        if at >= start(month) {
            out.payments_this_month += 1;
            out.amount_this_month.0 += &amount;
            *by_method.entry(method.to_string()).or_default() += &amount;
        }
    }
    out.by_method = async_graphql::Json(
        by_method
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v.with_scale(2).to_string())))
            .collect(),
    );
    let owed: Vec<(BigDecimal, Option<BigDecimal>)> = sales_orders::table
        .left_join(
            payments::table.on(payments::sales_order_id
                .eq(sales_orders::id)
                .and(payments::status.eq(PaymentRecordStatus::Completed))),
        )
        .filter(sales_orders::status.ne_all([SalesOrderStatus::Cancelled, SalesOrderStatus::Draft]))
        .group_by(sales_orders::id)
        .select((
            sales_orders::grand_total,
            diesel::dsl::sum(payments::amount.nullable()),
        ))
        .load(conn)
        .await?;
    for (total, paid) in owed {
        let due = total - paid.unwrap_or_default();
        if due > BigDecimal::zero() {
            out.orders_with_balance += 1;
            out.total_outstanding.0 += due;
        }
    }
    Ok(out)
}
