//! GraphQL of invoices (admins): the list, one invoice with its lines, the summary, the
//! receivables ageing and the PDF; writing, paying, sending and voiding.

use async_graphql::{ComplexObject, Context, InputObject, Object, SimpleObject};

use crate::ledgers::accounting::ledger::SystemAccount;
use crate::ledgers::inventory::rules::today;
use crate::operations::sales::invoices::model::{
    self, AgingRow, InvoiceFilter, InvoiceLineRow, InvoiceListStatus, InvoiceRow, InvoiceSort,
    InvoiceStatus, InvoiceSummary,
};
use crate::operations::sales::invoices::rules::{
    self, InvoiceCreateInput, InvoiceSendInput, InvoiceVoidInput,
};
use crate::operations::sales::loaders::{InvoiceLines, SalesOrdersById};
use crate::operations::sales::payments::{self, PaymentInput, PaymentMethod};
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::documents::GeneratedDocument;
use crate::platform::error::AppResult;
use crate::platform::graphql::context::{self, data};
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError};

/// The largest page of invoices (FilaOps's `limit` cap).
pub const MAX_INVOICE_PAGE: i64 = 500;

crate::connection!(
    /// A page of invoices.
    InvoiceConnection,
    InvoiceRow
);

#[ComplexObject]
impl InvoiceRow {
    /// The billed order's number.
    async fn order_number(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<SalesOrdersById>(ctx)?
            .load_one(self.sales_order_id)
            .await?
            .map(|o| o.order_number))
    }

    /// What is still owed (total less paid; nothing once voided).
    async fn amount_due(&self) -> Decimal {
        Decimal(self.balance_due())
    }

    /// Sent or partly paid and past its due date.
    async fn is_overdue(&self) -> bool {
        rules::days_overdue(self) > 0
    }

    /// Days past the due date while still owed (0 otherwise).
    async fn days_overdue(&self) -> i64 {
        rules::days_overdue(self)
    }

    /// The status to show: `overdue` for a sent or partly paid invoice past due, else the
    /// stored status.
    async fn display_status(&self) -> String {
        if rules::days_overdue(self) > 0 {
            "overdue".into()
        } else {
            self.status.to_string()
        }
    }

    /// What it bills, line by line.
    async fn lines(&self, ctx: &Context<'_>) -> AppResult<Vec<InvoiceLineRow>> {
        Ok(data::<InvoiceLines>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

/// The receivables ageing: per customer and in total.
#[derive(Debug, Clone, SimpleObject)]
pub struct ReceivablesAging {
    /// The day it is judged on.
    pub as_of: chrono::NaiveDate,
    /// One row per customer owing, largest balance first.
    pub customers: Vec<AgingRow>,
    /// All customers together.
    pub totals: AgingRow,
    /// Whether 1100 Accounts Receivable on the ledger equals the open invoices' balances.
    pub ledger_agrees: bool,
    /// 1100's balance.
    pub ledger_balance: Decimal,
}

/// Invoice queries.
#[derive(Default)]
pub struct InvoicesQuery;

#[Object]
impl InvoicesQuery {
    /// Invoices, newest first unless sorted (admins).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn invoices(
        &self,
        ctx: &Context<'_>,
        #[graphql(
            desc = "Which statuses (default all; `overdue`: sent or partly paid and past due; `open`: still owed)."
        )]
        status: Option<InvoiceListStatus>,
        #[graphql(
            desc = "Invoice or order number, customer name, company or e-mail contains this."
        )]
        search: Option<String>,
        #[graphql(desc = "One order's invoices.")] sales_order_id: Option<i64>,
        #[graphql(desc = "One customer's invoices.")] customer_id: Option<i64>,
        #[graphql(desc = "Sort column (default created_at).")] sort_by: Option<InvoiceSort>,
        #[graphql(desc = "Sort direction (default desc).")] sort_order: Option<SortOrder>,
        #[graphql(desc = "Page size (1-500).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, MAX_INVOICE_PAGE))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<InvoiceConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_INVOICE_PAGE)?;
        let filter = InvoiceFilter {
            status,
            search,
            sales_order_id,
            customer_id,
            sort_by,
            sort_order,
            today: today(),
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(InvoiceConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One invoice (admins; 404 `Invoice not found`).
    #[graphql(guard = "Access::Admin")]
    async fn invoice(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The invoice.")] id: i64,
    ) -> AppResult<InvoiceRow> {
        found(model::find(&mut *context::conn(ctx).await?, id).await?)
    }

    /// Overdue count and amount, what is owed in total, open and draft counts (admins).
    #[graphql(guard = "Access::Admin")]
    async fn invoice_summary(&self, ctx: &Context<'_>) -> AppResult<InvoiceSummary> {
        model::summary(&mut *context::conn(ctx).await?, today()).await
    }

    /// The invoice as a PDF on the company's letterhead (admins).
    #[graphql(guard = "Access::Admin")]
    async fn invoice_pdf(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The invoice.")] id: i64,
    ) -> AppResult<GeneratedDocument> {
        let conn = &mut *context::conn(ctx).await?;
        let invoice = found(model::find(conn, id).await?)?;
        crate::operations::sales::documents::invoice_pdf(conn, &invoice).await
    }

    /// What customers owe by how late it is: not yet due, 1-30, 31-60, 61-90 and over 90
    /// days past due, per customer and in total, checked against 1100 on the ledger (admins).
    #[graphql(guard = "Access::Admin")]
    async fn receivables_aging(&self, ctx: &Context<'_>) -> AppResult<ReceivablesAging> {
        let conn = &mut *context::conn(ctx).await?;
        let as_of = today();
        let mut rows = model::aging(conn, as_of).await?;
        let totals = rows.pop().ok_or_else(|| {
            crate::platform::error::AppError::internal("the ageing has no totals row")
        })?;
        let ledger_balance = crate::ledgers::accounting::model::totals_as_of(conn, as_of)
            .await?
            .into_iter()
            .find(|a| a.account_code == SystemAccount::AccountsReceivable.code())
            .map(|a| a.debits - a.credits)
            .unwrap_or_default();
        Ok(ReceivablesAging {
            as_of,
            ledger_agrees: ledger_balance == totals.total.0,
            ledger_balance: Decimal(ledger_balance),
            customers: rows,
            totals,
        })
    }
}

/// 404 `Invoice not found` for none.
fn found(invoice: Option<InvoiceRow>) -> AppResult<InvoiceRow> {
    invoice.ok_or_else(|| crate::platform::error::AppError::not_found("Invoice not found"))
}

/// A change to an invoice (`PATCH /invoices/{id}`): `status: sent` marks a draft sent;
/// `amountPaid` with `paymentMethod` records a payment of that amount against it.
#[derive(Debug, Clone, Default, InputObject)]
pub struct InvoiceUpdateInput {
    /// Only `sent` (from draft); other statuses follow payments, sending and voiding.
    pub status: Option<InvoiceStatus>,
    /// A payment to record against the invoice (with `paymentMethod`).
    pub amount_paid: Option<Decimal>,
    /// How it was paid.
    pub payment_method: Option<PaymentMethod>,
    /// The processor's or check reference.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(200))]
    pub payment_reference: Option<String>,
}

/// The result of an invoice change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct InvoicePayload {
    /// The invoice after the change.
    pub invoice: Option<InvoiceRow>,
    /// Whether an e-mail with the PDF was queued (sending, with mail configured).
    pub emailed: bool,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<InvoiceRow, Vec<UserError>>> for InvoicePayload {
    fn from(outcome: Result<InvoiceRow, Vec<UserError>>) -> Self {
        match outcome {
            Ok(invoice) => InvoicePayload {
                invoice: Some(invoice),
                ..InvoicePayload::default()
            },
            Err(user_errors) => InvoicePayload {
                user_errors,
                ..InvoicePayload::default()
            },
        }
    }
}

/// Invoice mutations.
#[derive(Default)]
pub struct InvoicesMutation;

#[Object]
impl InvoicesMutation {
    /// Writes an invoice `INV-YYYY-NNNN` for what an order has not been billed yet, or for
    /// `amount` of it (a deposit), and books it Dr 1100 / Cr 4000, 2100, 4200 (admins).
    #[graphql(guard = "Access::Admin")]
    async fn invoice_create(
        &self,
        ctx: &Context<'_>,
        input: InvoiceCreateInput,
    ) -> AppResult<InvoicePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::create(conn, input, user)).into())
    }

    /// Marks a draft sent, or records a payment against the invoice (admins). Any other
    /// status is refused (422): send, void and payments change it.
    #[graphql(guard = "Access::Admin")]
    async fn invoice_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The invoice.")] id: i64,
        input: InvoiceUpdateInput,
    ) -> AppResult<InvoicePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| update(conn, id, input, user)).into())
    }

    /// Sends the invoice: e-mails its PDF to `to` (default the customer's address) through
    /// the job queue when mail is configured, and records that it was sent; a draft becomes
    /// sent (admins).
    #[graphql(guard = "Access::Admin")]
    async fn invoice_send(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The invoice.")] id: i64,
        #[graphql(default)] input: InvoiceSendInput,
    ) -> AppResult<InvoicePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let mail = context::mailer(ctx)?.is_configured();
        let outcome = crate::in_transaction!(ctx, |conn| send(conn, id, input, mail, user));
        Ok(match outcome {
            Ok((invoice, emailed)) => InvoicePayload {
                invoice: Some(invoice),
                emailed,
                user_errors: Vec::new(),
            },
            Err(user_errors) => InvoicePayload {
                user_errors,
                ..InvoicePayload::default()
            },
        })
    }

    /// Voids the invoice with a reason: the receivable entry mirrored (admins; 409 while
    /// payments are applied to it).
    #[graphql(guard = "Access::Admin")]
    async fn invoice_void(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The invoice.")] id: i64,
        input: InvoiceVoidInput,
    ) -> AppResult<InvoicePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::void(conn, id, input, user)).into())
    }
}

/// `PATCH /invoices/{id}`: a payment, or draft to sent.
async fn update(
    conn: &mut diesel_async::AsyncPgConnection,
    id: i64,
    input: InvoiceUpdateInput,
    user: i64,
) -> Result<InvoiceRow, Stop> {
    let invoice = model::find(conn, id).await?.ok_or_else(|| {
        Stop::refuse(
            "id",
            crate::platform::graphql::user_error::UserErrorCode::NotFound,
            "Invoice not found",
        )
    })?;
    if let (Some(amount), Some(method)) = (&input.amount_paid, input.payment_method) {
        rules::check_invoice_payment(&invoice, &amount.0)?;
        payments::record(
            conn,
            PaymentInput {
                sales_order_id: invoice.sales_order_id,
                amount: amount.clone(),
                payment_method: method,
                payment_date: None,
                transaction_id: input.payment_reference.clone(),
                check_number: None,
                notes: Some(format!("Invoice {}", invoice.invoice_number)),
            },
            false,
            user,
        )
        .await?;
    } else if input.amount_paid.is_some() {
        return Err(crate::platform::graphql::user_error::invalid(
            "paymentMethod",
            "Give the payment method with the amount paid",
        )
        .into());
    }
    match input.status {
        None => {}
        Some(InvoiceStatus::Sent) if invoice.status == InvoiceStatus::Draft => {
            rules::mark_sent(conn, id, None, user).await?;
        }
        Some(other) => {
            return Err(crate::platform::graphql::user_error::invalid(
                "status",
                format!(
                    "Invoice status cannot be set to '{other}' here: send it to mark it sent, void it to void it, or record a payment to mark it paid"
                ),
            )
            .into());
        }
    }
    model::find(conn, id).await?.ok_or_else(|| {
        Stop::Failed(crate::platform::error::AppError::not_found(
            "Invoice not found",
        ))
    })
}

/// `POST /invoices/{id}/send`: records the sending and, with mail configured, queues the
/// e-mail with the PDF in the same transaction. Answers the invoice and whether it was
/// e-mailed.
async fn send(
    conn: &mut diesel_async::AsyncPgConnection,
    id: i64,
    input: InvoiceSendInput,
    mail: bool,
    user: i64,
) -> Result<(InvoiceRow, bool), Stop> {
    let invoice = model::find(conn, id).await?.ok_or_else(|| {
        Stop::refuse(
            "id",
            crate::platform::graphql::user_error::UserErrorCode::NotFound,
            "Invoice not found",
        )
    })?;
    let to = if mail {
        Some(rules::recipient(&invoice, input.to)?)
    } else {
        input
            .to
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .or_else(|| invoice.customer_email.clone())
    };
    let sent = rules::mark_sent(conn, id, to.as_deref(), user).await?;
    let Some(to) = to.filter(|_| mail) else {
        return Ok((sent, false));
    };
    let pdf = crate::operations::sales::documents::invoice_pdf(conn, &sent).await?;
    let settings = crate::master_data::settings::model::get(conn).await?;
    let company = settings
        .company_name
        .clone()
        .unwrap_or_else(|| "Strata".into());
    let due = sent.balance_due();
    let fmt = settings.document_locale();
    crate::platform::jobs::enqueue(
        conn,
        &crate::platform::mail::SendMail(crate::platform::mail::OutgoingMail {
            to,
            subject: format!("Invoice {} from {company}", sent.invoice_number),
            body: format!(
                "Hello {name},\n\nPlease find attached invoice {number} for {total}, due {due_date}.\n\
                 Amount due: {due}.\n\nThank you for your business.\n{company}\n",
                name = sent.customer_name.as_deref().unwrap_or("there"),
                number = sent.invoice_number,
                total = fmt.money(&sent.total.0),
                due_date = fmt.date(sent.due_date),
                due = fmt.money(&due),
            ),
            attachments: vec![crate::platform::mail::MailAttachment::of(&pdf)],
        }),
    )
    .await?;
    Ok((sent, true))
}
