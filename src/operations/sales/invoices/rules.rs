//! What invoices do, each inside the caller's transaction with the order's row locked:
//! write one for what an order has not been billed yet (at shipment, or by hand, whole or as
//! a deposit), book it, apply the order's payments to its invoices oldest first, send it,
//! void it.
//!
//! The books stay whole by one rule: an order's net payments are applied to its open
//! invoices oldest first, and whatever no invoice takes sits in 2300 Customer Deposits.
//! [`apply_payments`] moves the difference between 1100 and 2300 after every change, so 1100
//! is always the sum of the open invoices' balances.

use async_graphql::InputObject;
use bigdecimal::{BigDecimal, Zero};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::{self as books, EntryDraft, SystemAccount, cents};
use crate::ledgers::accounting::model::SourceType;
use crate::ledgers::inventory::rules::today;
use crate::master_data::partners::model::{PaymentTerms, find_customer};
use crate::operations::sales::invoices::model::{self, InvoiceRow, InvoiceStatus};
use crate::operations::sales::model::{
    self as sales, SalesEventType, SalesOrderRow, SalesOrderStatus,
};
use crate::operations::sales::payments::PaymentMethod;
use crate::operations::sales::rules::{event_noting, next_number, not_allowed, now};
use crate::platform::db::schema::{
    gl_accounts, gl_journal_entries, gl_journal_entry_lines, invoice_lines, invoices, items,
    payments,
};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// The longest void reason.
pub const REASON_MAX: usize = 255;

/// An invoice to write by hand (`POST /invoices`).
#[derive(Debug, Clone, InputObject)]
pub struct InvoiceCreateInput {
    /// The order to bill.
    pub sales_order_id: i64,
    /// Bill only this much (a deposit or part payment request); default: everything the
    /// order has not been billed yet.
    pub amount: Option<Decimal>,
}

/// Why an invoice is voided (`POST /invoices/{id}/void`).
#[derive(Debug, Clone, InputObject)]
pub struct InvoiceVoidInput {
    /// Why (1-255 characters).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::invoices::rules::REASON_MAX))]
    pub reason: String,
}

/// Whom to send an invoice to (`POST /invoices/{id}/send`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct InvoiceSendInput {
    /// The address (default: the customer's e-mail on the invoice).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(254))]
    pub to: Option<String>,
}

/// The money of an invoice, by where it is booked.
#[derive(Debug, Clone, Default, PartialEq)]
struct Amounts {
    /// The lines (4000, with the discount).
    subtotal: BigDecimal,
    /// Off the subtotal.
    discount: BigDecimal,
    /// Tax (2100).
    tax: BigDecimal,
    /// Shipping (4200).
    shipping: BigDecimal,
}

impl Amounts {
    /// What the customer owes for them.
    fn total(&self) -> BigDecimal {
        &self.subtotal - &self.discount + &self.tax + &self.shipping
    }

    /// An order's figures (its discount is what its grand total leaves out).
    fn of_order(order: &SalesOrderRow) -> Amounts {
        let subtotal = order.subtotal.0.clone();
        let tax = order.tax_amount.0.clone();
        let shipping = order.shipping_cost.0.clone();
        let discount = &subtotal + &tax + &shipping - &order.grand_total.0;
        Amounts {
            subtotal,
            discount,
            tax,
            shipping,
        }
    }

    /// An invoice's figures.
    fn of_invoice(invoice: &InvoiceRow) -> Amounts {
        Amounts {
            subtotal: invoice.subtotal.0.clone(),
            discount: invoice.discount_amount.0.clone(),
            tax: invoice.tax_amount.0.clone(),
            shipping: invoice.shipping_amount.0.clone(),
        }
    }

    /// These figures less `other`'s.
    fn less(&self, other: &Amounts) -> Amounts {
        Amounts {
            subtotal: &self.subtotal - &other.subtotal,
            discount: &self.discount - &other.discount,
            tax: &self.tax - &other.tax,
            shipping: &self.shipping - &other.shipping,
        }
    }

    /// `amount` of these figures, shared in their proportions; the cent left by rounding
    /// goes to the subtotal.
    fn share(&self, amount: &BigDecimal) -> Amounts {
        let whole = self.total();
        if whole.is_zero() {
            return Amounts::default();
        }
        let part = |v: &BigDecimal| cents(&(v * amount / &whole));
        let discount = part(&self.discount);
        let tax = part(&self.tax);
        let shipping = part(&self.shipping);
        let subtotal = amount + &discount - &tax - &shipping;
        Amounts {
            subtotal,
            discount,
            tax,
            shipping,
        }
    }
}

/// The journal entry that books an invoice (or, `sign` -1, its mirror when voided):
/// Dr 1100 / Cr 4000 (subtotal less discount), 2100 (tax), 4200 (shipping). Sourced to the
/// sales order, as the journals read invoices.
fn receivable_entry(
    invoice: &InvoiceRow,
    order_number: &str,
    date: NaiveDate,
    sign: i32,
    user: i64,
) -> EntryDraft {
    let a = Amounts::of_invoice(invoice);
    let sign = BigDecimal::from(sign);
    let description = if sign > BigDecimal::zero() {
        format!(
            "Invoice {} for sales order {order_number}",
            invoice.invoice_number
        )
    } else {
        format!(
            "Void of invoice {} for sales order {order_number}",
            invoice.invoice_number
        )
    };
    let memo = |what: &str| Some(format!("{what} {}", invoice.invoice_number));
    EntryDraft::new(date, description)
        .source(SourceType::SalesOrder, Some(invoice.sales_order_id))
        .by(Some(user))
        .transfer(
            SystemAccount::AccountsReceivable,
            SystemAccount::SalesRevenue,
            &((&a.subtotal - &a.discount) * &sign),
            memo("Sales"),
        )
        .transfer(
            SystemAccount::AccountsReceivable,
            SystemAccount::SalesTaxPayable,
            &(&a.tax * &sign),
            memo("Sales tax"),
        )
        .transfer(
            SystemAccount::AccountsReceivable,
            SystemAccount::ShippingRevenue,
            &(&a.shipping * &sign),
            memo("Shipping"),
        )
}

/// Whether an order in this status may be billed by hand.
fn billable(status: SalesOrderStatus) -> bool {
    matches!(
        status,
        SalesOrderStatus::Confirmed
            | SalesOrderStatus::InProduction
            | SalesOrderStatus::ReadyToShip
            | SalesOrderStatus::Shipped
            | SalesOrderStatus::Delivered
            | SalesOrderStatus::Completed
    )
}

/// A line to insert.
struct NewLine {
    /// The order line billed.
    sales_order_line_id: Option<i64>,
    /// The item.
    product_id: Option<i64>,
    /// Its SKU.
    sku: Option<String>,
    /// What.
    description: String,
    /// How many.
    quantity: BigDecimal,
    /// Price of one.
    unit_price: BigDecimal,
    /// Total.
    line_total: BigDecimal,
}

/// The lines of an invoice for `bill` of the order: the order's lines, less what earlier
/// invoices billed, when it bills the rest; one deposit line when it bills a part.
async fn lines_for(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    earlier: &[InvoiceRow],
    bill: &Amounts,
    rest: bool,
) -> Result<Vec<NewLine>, Stop> {
    if !rest {
        return Ok(vec![NewLine {
            sales_order_line_id: None,
            product_id: None,
            sku: None,
            description: format!("Deposit toward sales order {}", order.order_number),
            quantity: BigDecimal::from(1),
            unit_price: bill.subtotal.clone(),
            line_total: bill.subtotal.clone(),
        }]);
    }
    let lines = sales::lines_of(conn, &[order.id]).await?;
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let names: Vec<(i64, String, String)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::sku, items::name))
        .load(conn)
        .await?;
    let mut out: Vec<NewLine> = lines
        .iter()
        .map(|l| {
            let item = names.iter().find(|n| n.0 == l.product_id);
            NewLine {
                sales_order_line_id: Some(l.id),
                product_id: Some(l.product_id),
                sku: item.map(|n| n.1.clone()),
                description: item
                    .map(|n| n.2.clone())
                    .unwrap_or_else(|| "(item removed)".into()),
                quantity: BigDecimal::from(l.quantity),
                unit_price: l.unit_price.0.clone(),
                line_total: l.total.0.clone(),
            }
        })
        .collect();
    out.extend(
        earlier
            .iter()
            .filter(|i| !i.subtotal.0.is_zero())
            .map(|i| NewLine {
                sales_order_line_id: None,
                product_id: None,
                sku: None,
                description: format!("Less billed on invoice {}", i.invoice_number),
                quantity: BigDecimal::from(1),
                unit_price: -i.subtotal.0.clone(),
                line_total: -i.subtotal.0.clone(),
            }),
    );
    Ok(out)
}

/// Writes and books an invoice for what `order` (locked) has not been billed yet, or for
/// `amount` of it. `None` when nothing is left to bill.
async fn write(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    amount: Option<&BigDecimal>,
    shipment_id: Option<i64>,
    user: i64,
) -> Result<Option<InvoiceRow>, Stop> {
    let earlier: Vec<InvoiceRow> = model::of_orders(conn, &[order.id])
        .await?
        .into_iter()
        .filter(|i| i.status != InvoiceStatus::Voided)
        .collect();
    let billed = earlier
        .iter()
        .map(Amounts::of_invoice)
        .fold(Amounts::default(), |sum, a| Amounts {
            subtotal: sum.subtotal + a.subtotal,
            discount: sum.discount + a.discount,
            tax: sum.tax + a.tax,
            shipping: sum.shipping + a.shipping,
        });
    let rest = Amounts::of_order(order).less(&billed);
    let left = rest.total();
    if left <= BigDecimal::zero() {
        return Ok(None);
    }
    let (bill, whole) = match amount {
        Some(a) if *a < left => (rest.share(a), false),
        _ => (rest, true),
    };
    let customer = match order.customer_id {
        Some(id) => find_customer(conn, id).await?,
        None => None,
    };
    let terms = customer
        .as_ref()
        .map(|c| c.payment_terms)
        .unwrap_or(PaymentTerms::Cod);
    let date = today();
    let number = next_number(conn, "invoice_seq", "INV").await?;
    let lines = lines_for(conn, order, &earlier, &bill, whole).await?;
    let total = bill.total();
    let row: InvoiceRow = diesel::insert_into(invoices::table)
        .values((
            invoices::invoice_number.eq(&number),
            invoices::sales_order_id.eq(order.id),
            invoices::shipment_id.eq(shipment_id),
            invoices::customer_id.eq(order.customer_id),
            // The person billed; the company has its own field.
            invoices::customer_name.eq(customer
                .as_ref()
                .map(|c| c.full_name())
                .filter(|n| !n.is_empty())
                .or_else(|| order.customer_name.clone())),
            invoices::customer_email.eq(order
                .customer_email
                .clone()
                .or_else(|| customer.as_ref().map(|c| c.email.clone()))),
            invoices::customer_company.eq(customer.as_ref().and_then(|c| c.company_name.clone())),
            invoices::bill_to_line1.eq(customer
                .as_ref()
                .and_then(|c| c.billing_address_line1.clone())),
            invoices::bill_to_city.eq(customer.as_ref().and_then(|c| c.billing_city.clone())),
            invoices::bill_to_state.eq(customer.as_ref().and_then(|c| c.billing_state.clone())),
            invoices::bill_to_zip.eq(customer.as_ref().and_then(|c| c.billing_zip.clone())),
            invoices::payment_terms.eq(terms),
            invoices::invoice_date.eq(date),
            invoices::due_date.eq(date + chrono::Duration::days(terms.days())),
            invoices::subtotal.eq(cents(&bill.subtotal)),
            invoices::discount_amount.eq(cents(&bill.discount)),
            invoices::tax_rate.eq(&order.tax_rate.0),
            invoices::tax_rate_name.eq(&order.tax_rate_name),
            invoices::tax_amount.eq(cents(&bill.tax)),
            invoices::shipping_amount.eq(cents(&bill.shipping)),
            invoices::total.eq(cents(&total)),
            invoices::created_by.eq(Some(user)),
        ))
        .returning(InvoiceRow::as_returning())
        .get_result(conn)
        .await?;
    diesel::insert_into(invoice_lines::table)
        .values(
            lines
                .into_iter()
                .map(|l| {
                    (
                        invoice_lines::invoice_id.eq(row.id),
                        invoice_lines::sales_order_line_id.eq(l.sales_order_line_id),
                        invoice_lines::product_id.eq(l.product_id),
                        invoice_lines::sku.eq(l.sku),
                        invoice_lines::description.eq(l.description),
                        invoice_lines::quantity.eq(l.quantity),
                        invoice_lines::unit_price.eq(cents(&l.unit_price)),
                        invoice_lines::line_total.eq(cents(&l.line_total)),
                    )
                })
                .collect::<Vec<_>>(),
        )
        .execute(conn)
        .await?;
    let entry = books::post(
        conn,
        receivable_entry(&row, &order.order_number, date, 1, user),
    )
    .await?;
    diesel::update(invoices::table.find(row.id))
        .set(invoices::journal_entry_id.eq(entry.map(|e| e.id)))
        .execute(conn)
        .await?;
    event_noting(
        conn,
        order.id,
        SalesEventType::Invoice,
        "Invoice Created",
        Some(format!("{number}: {}, due {}", cents(&total), row.due_date)),
        None,
        Some(user),
        Some(("invoice_number", number.clone())),
    )
    .await?;
    apply_payments(conn, order.id, user).await?;
    Ok(model::find(conn, row.id).await?)
}

/// Bills what a shipment of `order` (locked) leaves unbilled, as shipping does: the one
/// receivable posting of the shipment.
pub async fn bill_shipment(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    shipment_id: i64,
    user: i64,
) -> Result<Option<InvoiceRow>, Stop> {
    write(conn, order, None, Some(shipment_id), user).await
}

/// Writes an invoice by hand: the order must be confirmed or further along (400 `Cannot
/// invoice an order with status '{s}'`) and have something left to bill (400 naming the
/// invoices that bill it); `amount`, when given, more than 0 and at most what is left (422).
pub async fn create(
    conn: &mut AsyncPgConnection,
    input: InvoiceCreateInput,
    user: i64,
) -> Result<InvoiceRow, Stop> {
    let order = sales::lock(conn, input.sales_order_id)
        .await?
        .ok_or_else(|| {
            Stop::refuse(
                "salesOrderId",
                UserErrorCode::NotFound,
                "Sales order not found",
            )
        })?;
    if !billable(order.status) {
        return Err(not_allowed(format!(
            "Cannot invoice an order with status '{}'",
            order.status
        )));
    }
    let amount = input.amount.map(|a| a.0);
    if let Some(a) = &amount
        && (*a <= BigDecimal::zero() || cents(a) != *a)
    {
        return Err(invalid("amount", "Amount must be more than 0, to the cent").into());
    }
    let open: Vec<InvoiceRow> = model::of_orders(conn, &[order.id])
        .await?
        .into_iter()
        .filter(|i| i.status != InvoiceStatus::Voided)
        .collect();
    let billed: BigDecimal = open.iter().map(|i| i.total.0.clone()).sum();
    let left = &order.grand_total.0 - &billed;
    if left <= BigDecimal::zero() {
        let numbers: Vec<&str> = open.iter().map(|i| i.invoice_number.as_str()).collect();
        return Err(not_allowed(format!(
            "Sales order {} is fully invoiced ({})",
            order.order_number,
            numbers.join(", ")
        )));
    }
    if let Some(a) = &amount
        && *a > left
    {
        return Err(invalid(
            "amount",
            format!(
                "Amount ({a}) exceeds what is left to invoice ({})",
                cents(&left)
            ),
        )
        .into());
    }
    write(conn, &order, amount.as_ref(), None, user)
        .await?
        .ok_or_else(|| not_allowed("Nothing is left to invoice"))
}

/// The order's current balance in 2300 Customer Deposits (credits less debits).
async fn deposit_balance(conn: &mut AsyncPgConnection, order_id: i64) -> Result<BigDecimal, Stop> {
    let (credits, debits): (Option<BigDecimal>, Option<BigDecimal>) = gl_journal_entry_lines::table
        .inner_join(gl_journal_entries::table)
        .inner_join(gl_accounts::table)
        .filter(gl_accounts::account_code.eq(SystemAccount::CustomerDeposits.code()))
        .filter(gl_journal_entries::source_type.eq(SourceType::CustomerDeposit))
        .filter(gl_journal_entries::source_id.eq(order_id))
        .filter(gl_journal_entries::status.eq("posted"))
        .select((
            diesel::dsl::sum(gl_journal_entry_lines::credit_amount),
            diesel::dsl::sum(gl_journal_entry_lines::debit_amount),
        ))
        .first(conn)
        .await?;
    Ok(credits.unwrap_or_default() - debits.unwrap_or_default())
}

/// The latest completed payment of an order: its method and reference.
async fn latest_payment(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> Result<Option<(PaymentMethod, Option<String>, Option<String>)>, Stop> {
    Ok(payments::table
        .filter(payments::sales_order_id.eq(order_id))
        .filter(payments::status.eq("completed"))
        .filter(payments::amount.gt(BigDecimal::zero()))
        .order((payments::payment_date.desc(), payments::id.desc()))
        .select((
            payments::payment_method,
            payments::transaction_id,
            payments::check_number,
        ))
        .first(conn)
        .await
        .optional()?)
}

/// Applies an order's (locked) net payments to its invoices, oldest first, and moves what
/// no invoice takes to 2300 Customer Deposits (and back), so 1100 holds exactly the open
/// invoices' balances. Each invoice's paid amount and status follow.
pub async fn apply_payments(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    user: i64,
) -> Result<(), Stop> {
    let invoices_of: Vec<InvoiceRow> = invoices::table
        .filter(invoices::sales_order_id.eq(order_id))
        .filter(invoices::status.ne(InvoiceStatus::Voided))
        .order(invoices::id)
        .select(InvoiceRow::as_select())
        .for_update()
        .load(conn)
        .await?;
    let paid = sales::paid_of(conn, &[order_id])
        .await?
        .into_iter()
        .next()
        .map(|(_, p)| p)
        .unwrap_or_default();
    let mut left = paid.max(BigDecimal::zero());
    let latest = latest_payment(conn, order_id).await?;
    for invoice in &invoices_of {
        let applied = left
            .clone()
            .min(invoice.total.0.clone().max(BigDecimal::zero()));
        left -= &applied;
        let status = if applied > BigDecimal::zero() && applied >= invoice.total.0 {
            InvoiceStatus::Paid
        } else if applied > BigDecimal::zero() {
            InvoiceStatus::PartiallyPaid
        } else if invoice.sent_at.is_some() {
            InvoiceStatus::Sent
        } else if invoice.total.0 <= BigDecimal::zero() {
            InvoiceStatus::Paid
        } else {
            InvoiceStatus::Draft
        };
        if applied == invoice.amount_paid.0 && status == invoice.status {
            continue;
        }
        let paid_at = match status {
            InvoiceStatus::Paid => Some(invoice.paid_at.as_ref().map(|t| t.0).unwrap_or_else(now)),
            _ => None,
        };
        let (method, reference) = match (&latest, applied > BigDecimal::zero()) {
            (Some((m, tx, check)), true) => (Some(*m), tx.clone().or_else(|| check.clone())),
            _ => (None, None),
        };
        diesel::update(invoices::table.find(invoice.id))
            .set((
                invoices::amount_paid.eq(&applied),
                invoices::status.eq(status),
                invoices::paid_at.eq(paid_at),
                invoices::payment_method.eq(method),
                invoices::payment_reference.eq(reference),
                invoices::updated_at.eq(now()),
            ))
            .execute(conn)
            .await?;
    }
    let moved = &left - deposit_balance(conn, order_id).await?;
    if !moved.is_zero() {
        let order_number: String = crate::platform::db::schema::sales_orders::table
            .find(order_id)
            .select(crate::platform::db::schema::sales_orders::order_number)
            .first(conn)
            .await?;
        let description = if moved > BigDecimal::zero() {
            format!("Payments ahead of invoices on sales order {order_number}")
        } else {
            format!("Deposits applied to invoices of sales order {order_number}")
        };
        books::post(
            conn,
            EntryDraft::new(today(), description)
                .source(SourceType::CustomerDeposit, Some(order_id))
                .by(Some(user))
                .transfer(
                    SystemAccount::AccountsReceivable,
                    SystemAccount::CustomerDeposits,
                    &moved,
                    Some(order_number),
                ),
        )
        .await?;
    }
    Ok(())
}

/// Voids an invoice: a reason is required (422); already voided is refused (400); one with
/// payments applied is refused (409: refund or void the payments first). The receivable
/// entry is mirrored, and the order's payments are applied again.
pub async fn void(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: InvoiceVoidInput,
    user: i64,
) -> Result<InvoiceRow, Stop> {
    let reason = input.reason.trim().to_string();
    if reason.is_empty() {
        return Err(invalid("reason", "Void reason is required").into());
    }
    let found = model::find(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Invoice not found"))?;
    // The order first, then the invoice: the lock order every payment takes too.
    let order = sales::lock(conn, found.sales_order_id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Sales order not found"))?;
    let invoice = model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Invoice not found"))?;
    if invoice.status == InvoiceStatus::Voided {
        return Err(not_allowed("Invoice is already voided"));
    }
    if invoice.amount_paid.0 > BigDecimal::zero() {
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::Conflict,
            format!(
                "Invoice {} has payments applied ({}); refund or void them first, then void the invoice",
                invoice.invoice_number,
                cents(&invoice.amount_paid.0)
            ),
        )]));
    }
    if invoice.journal_entry_id.is_some() {
        books::post(
            conn,
            receivable_entry(&invoice, &order.order_number, today(), -1, user),
        )
        .await?;
    }
    let voided: InvoiceRow = diesel::update(invoices::table.find(id))
        .set((
            invoices::status.eq(InvoiceStatus::Voided),
            invoices::voided_at.eq(Some(now())),
            invoices::voided_by_id.eq(Some(user)),
            invoices::void_reason.eq(Some(&reason)),
            invoices::updated_at.eq(now()),
        ))
        .returning(InvoiceRow::as_returning())
        .get_result(conn)
        .await?;
    event_noting(
        conn,
        order.id,
        SalesEventType::Invoice,
        "Invoice Voided",
        Some(format!("{}: {reason}", invoice.invoice_number)),
        None,
        Some(user),
        Some(("invoice_number", invoice.invoice_number.clone())),
    )
    .await?;
    apply_payments(conn, order.id, user).await?;
    Ok(voided)
}

/// Records that an invoice was sent to `to` (a draft becomes sent). Voided invoices are
/// refused (400).
pub async fn mark_sent(
    conn: &mut AsyncPgConnection,
    id: i64,
    to: Option<&str>,
    user: i64,
) -> Result<InvoiceRow, Stop> {
    let invoice = model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Invoice not found"))?;
    if invoice.status == InvoiceStatus::Voided {
        return Err(not_allowed("Cannot send a voided invoice"));
    }
    let status = if invoice.status == InvoiceStatus::Draft {
        InvoiceStatus::Sent
    } else {
        invoice.status
    };
    let sent: InvoiceRow = diesel::update(invoices::table.find(id))
        .set((
            invoices::status.eq(status),
            invoices::sent_at.eq(Some(now())),
            invoices::sent_to.eq(to),
            invoices::updated_at.eq(now()),
        ))
        .returning(InvoiceRow::as_returning())
        .get_result(conn)
        .await?;
    event_noting(
        conn,
        invoice.sales_order_id,
        SalesEventType::Invoice,
        "Invoice Sent",
        Some(match to {
            Some(to) => format!("{} to {to}", invoice.invoice_number),
            None => invoice.invoice_number.clone(),
        }),
        None,
        Some(user),
        Some(("invoice_number", invoice.invoice_number.clone())),
    )
    .await?;
    Ok(sent)
}

/// Checks an address to send to: the one given or the invoice's, with an `@` (422 on `to`).
pub fn recipient(invoice: &InvoiceRow, to: Option<String>) -> Result<String, Stop> {
    let to = to
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .or_else(|| invoice.customer_email.clone());
    match to {
        Some(t) if t.contains('@') && t.parse::<lettre::Address>().is_ok() => Ok(t),
        Some(_) => Err(invalid("to", "Enter a valid e-mail address").into()),
        None => Err(invalid(
            "to",
            "The invoice has no customer e-mail address; give one to send it to",
        )
        .into()),
    }
}

/// When a payment is recorded against one invoice: more than 0 and at most what it still
/// owes (422 on `amountPaid`).
pub fn check_invoice_payment(invoice: &InvoiceRow, amount: &BigDecimal) -> Result<(), Stop> {
    if matches!(invoice.status, InvoiceStatus::Voided | InvoiceStatus::Paid) {
        return Err(not_allowed(format!(
            "Cannot record a payment on a {} invoice",
            invoice.status
        )));
    }
    let due = invoice.balance_due();
    if *amount <= BigDecimal::zero() {
        return Err(invalid("amountPaid", "Payment amount must be more than 0").into());
    }
    if *amount > due {
        return Err(invalid(
            "amountPaid",
            format!(
                "Payment amount ({}) exceeds the invoice's balance due ({})",
                cents(amount),
                cents(&due)
            ),
        )
        .into());
    }
    Ok(())
}

/// Days overdue of the invoice today.
pub fn days_overdue(invoice: &InvoiceRow) -> i64 {
    invoice.overdue_days(today())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).expect("decimal")
    }

    #[test]
    fn a_deposit_shares_the_order_in_its_proportions_and_adds_up_to_the_cent() {
        let rest = Amounts {
            subtotal: d("100.00"),
            discount: d("0"),
            tax: d("8.25"),
            shipping: d("10.00"),
        };
        let part = rest.share(&d("33.33"));
        assert_eq!(part.total(), d("33.33"));
        assert_eq!(part.tax, d("2.33"));
        assert_eq!(part.shipping, d("2.82"));
        let after = rest.less(&part);
        assert_eq!(after.total(), d("84.92"));
    }
}
