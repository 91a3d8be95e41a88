//! Sales in the schema (CONTRACT 5.2, 5.4): sales orders (any signed-in user; non-admins see
//! and act on their own orders only), their lines, events, payments, shipments and production
//! orders, and payments (admins). The objects are the rows; their relations go through
//! [`crate::operations::sales::loaders`].

use async_graphql::{ComplexObject, Context, Json, Object, SimpleObject};
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use chrono::NaiveDate;
use serde_json::{Value, json};
use strum::VariantArray;

use crate::ledgers::inventory::loaders::ItemFactsOf;
use crate::operations::production::model::OrderRow as ProductionOrderRow;
pub use crate::operations::sales::invoices::graphql::{InvoicesMutation, InvoicesQuery};
use crate::operations::sales::loaders::{
    SalesOrderEvents, SalesOrderLines, SalesOrderPayments, SalesOrderShipments, SalesOrdersById,
};
pub use crate::operations::sales::messages::graphql::{MessagesMutation, MessagesQuery};
use crate::operations::sales::model::{
    self, FulfillmentState, SalesEventRow, SalesOrderFilter, SalesOrderLineRow, SalesOrderRow,
    SalesOrderSort, SalesOrderSource, SalesOrderStatus, SalesPaymentStatus,
};
use crate::operations::sales::payments::{
    self, OrderPaymentSummary, PaymentFilter, PaymentInput, PaymentMethod, PaymentRecordStatus,
    PaymentRow, PaymentType, PaymentUpdateInput, PaymentsDashboard,
};
use crate::operations::sales::quotes::{
    self, QuoteConversion, QuoteCreateInput, QuoteRow, QuoteStats, QuoteStatus, QuoteStatusInput,
    QuoteUpdateInput,
};
use crate::operations::sales::rules::{
    self, SalesOrderCreateInput, SalesOrderRemoval, SalesOrderStatusInput,
};
use crate::operations::sales::shipments::ShipmentRow;
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError};

/// The largest page of sales orders (CONTRACT 5.2: `limit` silently capped at 100).
pub const MAX_SO_PAGE: i64 = 100;
/// The largest page of payments (CONTRACT 5.4).
pub const MAX_PAYMENT_PAGE: i64 = 100;

fn to_f64(d: &BigDecimal) -> f64 {
    d.to_f64().unwrap_or_default()
}

/// The fulfillment of an order, computed from its allocations (CONTRACT 6.1).
#[derive(Debug, Clone, SimpleObject)]
pub struct FulfillmentSummary {
    /// ready_to_ship, partially_ready, blocked, shipped or cancelled.
    pub state: FulfillmentState,
    /// Lines.
    pub lines_total: i32,
    /// Lines allocated in full.
    pub lines_ready: i32,
    /// Lines not allocated in full.
    pub lines_blocked: i32,
    /// lines_ready / lines_total x 100.
    pub fulfillment_percent: f64,
    /// Some lines could ship now.
    pub can_ship_partial: bool,
    /// Every line could ship now.
    pub can_ship_complete: bool,
    /// When production should be done.
    pub estimated_complete_date: Option<NaiveDate>,
}

/// The result of adding a note.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SalesOrderEventPayload {
    /// The note, as the history shows it.
    pub event: Option<SalesEventRow>,
    /// Why nothing was added.
    pub user_errors: Vec<UserError>,
}

/// The result of recording a tracking update.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ShippingEventPayload {
    /// The update.
    pub shipping_event: Option<crate::operations::sales::events::ShippingEventRow>,
    /// Why nothing was recorded.
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(SalesOrderEventPayload {
    event: SalesEventRow
});
crate::payload_from_result!(ShippingEventPayload {
    shipping_event: crate::operations::sales::events::ShippingEventRow
});

#[ComplexObject]
impl model::RecentOrder {
    /// Paid on the order: completed payments less completed refunds.
    async fn amount_paid(&self, ctx: &Context<'_>) -> AppResult<f64> {
        Ok(
            bigdecimal::ToPrimitive::to_f64(&net_paid(ctx, self.id).await?.with_scale(2))
                .unwrap_or_default(),
        )
    }

    /// Still owed: the grand total less what is paid, never below 0 (0 on a cancelled
    /// order).
    async fn balance_due(&self, ctx: &Context<'_>) -> AppResult<f64> {
        if self.status == SalesOrderStatus::Cancelled {
            return Ok(0.0);
        }
        let due = (&self.total - net_paid(ctx, self.id).await?).max(BigDecimal::zero());
        Ok(bigdecimal::ToPrimitive::to_f64(&due.with_scale(2)).unwrap_or_default())
    }
}

#[ComplexObject]
impl SalesOrderRow {
    /// Paid on the order: completed payments less completed refunds.
    async fn amount_paid(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(net_paid(ctx, self.id).await?.with_scale(2)))
    }

    /// Still owed: the grand total less what is paid, never below 0 (0 on a cancelled
    /// order).
    async fn balance_due(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        if self.status == SalesOrderStatus::Cancelled {
            return Ok(Decimal(BigDecimal::zero().with_scale(2)));
        }
        let due = (&self.grand_total.0 - net_paid(ctx, self.id).await?).max(BigDecimal::zero());
        Ok(Decimal(due.with_scale(2)))
    }

    /// The lines, by line number.
    async fn lines(&self, ctx: &Context<'_>) -> AppResult<Vec<SalesOrderLineRow>> {
        Ok(data::<SalesOrderLines>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// Units over every line.
    async fn quantity(&self, ctx: &Context<'_>) -> AppResult<i64> {
        Ok(data::<SalesOrderLines>(ctx)?
            .load_one(self.id)
            .await?
            .map_or(0, |l| l.iter().map(|l| l.quantity as i64).sum()))
    }

    /// The first line's product (one-product orders).
    async fn product_id(&self, ctx: &Context<'_>) -> AppResult<Option<i64>> {
        Ok(data::<SalesOrderLines>(ctx)?
            .load_one(self.id)
            .await?
            .and_then(|l| l.first().map(|l| l.product_id)))
    }

    /// The grand total (the spec's `total_amount`).
    async fn total_amount(&self) -> Decimal {
        self.grand_total.clone()
    }

    /// The fulfillment summary.
    async fn fulfillment(&self) -> FulfillmentSummary {
        let shippable = matches!(
            self.status,
            SalesOrderStatus::Confirmed
                | SalesOrderStatus::InProduction
                | SalesOrderStatus::ReadyToShip
        );
        FulfillmentSummary {
            state: self.fulfillment_state,
            lines_total: self.lines_total,
            lines_ready: self.lines_ready,
            lines_blocked: self.lines_total - self.lines_ready,
            fulfillment_percent: to_f64(&self.fulfillment_percent.0),
            can_ship_partial: shippable && self.lines_ready > 0,
            can_ship_complete: shippable && self.fulfillment_state == FulfillmentState::ReadyToShip,
            estimated_complete_date: self.estimated_completion_date,
        }
    }

    /// Pending, confirmed or on hold.
    async fn is_cancellable(&self) -> bool {
        self.status.is_cancellable()
    }

    /// Paid in full.
    async fn is_paid(&self) -> bool {
        self.payment_status == SalesPaymentStatus::Paid
    }

    /// Ready to ship.
    async fn is_ready_to_ship(&self) -> bool {
        self.status == SalesOrderStatus::ReadyToShip
    }

    /// Delivered or completed.
    async fn is_complete(&self) -> bool {
        matches!(
            self.status,
            SalesOrderStatus::Delivered | SalesOrderStatus::Completed
        )
    }

    /// What happened to it, oldest first.
    async fn events(&self, ctx: &Context<'_>) -> AppResult<Vec<SalesEventRow>> {
        Ok(data::<SalesOrderEvents>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// Its payments and refunds, oldest first.
    async fn payments(&self, ctx: &Context<'_>) -> AppResult<Vec<PaymentRow>> {
        Ok(data::<SalesOrderPayments>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// Its invoices, oldest first (voided ones too).
    async fn invoices(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::sales::invoices::model::InvoiceRow>> {
        Ok(
            data::<crate::operations::sales::loaders::SalesOrderInvoices>(ctx)?
                .load_one(self.id)
                .await?
                .unwrap_or_default(),
        )
    }

    /// Its shipments.
    async fn shipments(&self, ctx: &Context<'_>) -> AppResult<Vec<ShipmentRow>> {
        Ok(data::<SalesOrderShipments>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// Its tracking updates, oldest first (one statement; read on one order at a time).
    async fn shipping_events(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::sales::events::ShippingEventRow>> {
        let mut conn = context::conn(ctx).await?;
        Ok(crate::operations::sales::events::of_order(&mut conn, self.id).await?)
    }

    /// The production orders making it (one statement; read on one order at a time).
    async fn production_orders(&self, ctx: &Context<'_>) -> AppResult<Vec<ProductionOrderRow>> {
        use diesel::prelude::*;
        use diesel_async::RunQueryDsl;
        let mut conn = context::conn(ctx).await?;
        Ok(crate::platform::db::schema::production_orders::table
            .filter(crate::platform::db::schema::production_orders::sales_order_id.eq(self.id))
            .order(crate::platform::db::schema::production_orders::id)
            .select(ProductionOrderRow::as_select())
            .load(&mut *conn)
            .await?)
    }
}

#[ComplexObject]
impl SalesOrderLineRow {
    /// The product, whole: a report nests its BOM, components and stock by location from
    /// here.
    async fn product(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Option<crate::master_data::catalog::graphql::Item>> {
        Ok(data::<crate::operations::bom::loaders::Items>(ctx)?
            .load_one(self.product_id)
            .await?)
    }

    /// The product's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.sku))
    }

    /// The product's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.name))
    }

    /// Whole quantity allocated or shipped.
    async fn is_ready(&self) -> bool {
        &self.quantity_allocated.0 + &self.quantity_shipped.0 >= self.quantity
    }

    /// Still to ship: ordered less shipped (never below 0).
    async fn quantity_remaining(&self) -> Decimal {
        Decimal(
            (BigDecimal::from(self.quantity) - &self.quantity_shipped.0).max(BigDecimal::zero()),
        )
    }

    /// Still to find: what remains to ship less what is allocated to it (never below 0).
    async fn shortage(&self) -> Decimal {
        let remaining =
            (BigDecimal::from(self.quantity) - &self.quantity_shipped.0).max(BigDecimal::zero());
        Decimal((remaining - &self.quantity_allocated.0).max(BigDecimal::zero()))
    }
}

#[ComplexObject]
impl crate::operations::sales::model::SalesEventRow {
    /// Who, by name ("First Last", else the e-mail address); none for the system's own.
    async fn user_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        match self.user_id {
            Some(id) => Ok(
                data::<crate::master_data::identity::loaders::UserNames>(ctx)?
                    .load_one(id)
                    .await?,
            ),
            None => Ok(None),
        }
    }
}

#[ComplexObject]
impl PaymentRow {
    /// The order's number.
    async fn order_number(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<SalesOrdersById>(ctx)?
            .load_one(self.sales_order_id)
            .await?
            .map(|o| o.order_number))
    }
}

#[ComplexObject]
impl ShipmentRow {
    /// The order's number.
    async fn order_number(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<SalesOrdersById>(ctx)?
            .load_one(self.sales_order_id)
            .await?
            .map(|o| o.order_number))
    }

    /// The order's customer.
    async fn customer_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<SalesOrdersById>(ctx)?
            .load_one(self.sales_order_id)
            .await?
            .and_then(|o| o.customer_name))
    }
}

crate::connection!(
    /// A page of sales orders.
    SalesOrderConnection,
    SalesOrderRow
);

/// A page of payments as CONTRACT 5.4 answers it.
#[derive(Debug, Clone, SimpleObject)]
pub struct PaymentPage {
    /// The payments of this page.
    pub items: Vec<PaymentRow>,
    /// How many match.
    pub total: i64,
    /// This page (from 1).
    pub page: i64,
    /// Page size.
    pub page_size: i64,
    /// How many pages.
    pub total_pages: i64,
}

/// Parses `fulfillment_state` (a comma list; anything else is a 400, CONTRACT 5.2).
pub fn parse_states(text: Option<&str>) -> AppResult<Vec<FulfillmentState>> {
    let mut out = Vec::new();
    for part in text
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        match part.parse::<FulfillmentState>() {
            Ok(s) => out.push(s),
            Err(_) => {
                return Err(AppError::bad_request(format!(
                    "Invalid fulfillment_state '{part}'. Valid values: ready_to_ship, partially_ready, blocked, shipped, cancelled"
                )));
            }
        }
    }
    Ok(out)
}

/// Sales queries.
#[derive(Default)]
pub struct SalesQuery;

#[Object]
impl SalesQuery {
    /// The order import's CSV template (CONTRACT 5.11's header and an example order of two
    /// lines). Public, like the original's.
    async fn order_import_template(&self) -> String {
        crate::operations::sales::import::template()
    }

    /// Sales orders, newest first unless sorted; non-admins see their own only.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn sales_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only these statuses.")] status: Option<Vec<SalesOrderStatus>>,
        #[graphql(desc = "Only this status (legacy).")] status_filter: Option<SalesOrderStatus>,
        #[graphql(desc = "Comma list of fulfillment states.")] fulfillment_state: Option<String>,
        #[graphql(desc = "Only this customer's orders.")] customer_id: Option<i64>,
        #[graphql(desc = "Only this source.")] source: Option<SalesOrderSource>,
        #[graphql(desc = "Shipped on or after.")] shipped_after: Option<NaiveDate>,
        #[graphql(
            desc = "Order number, customer name or email, product, tracking number or the source's order number contains this (case-insensitive)."
        )]
        search: Option<String>,
        #[graphql(desc = "Sort column (default order_date).")] sort_by: Option<SalesOrderSort>,
        #[graphql(desc = "Sort direction.")] sort_order: Option<SortOrder>,
        #[graphql(desc = "Page size (silently capped at 100).", default = 50)] first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<SalesOrderConnection> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let page = Page::with_max(Some(first.min(MAX_SO_PAGE)), Some(offset), MAX_SO_PAGE)?;
        let mut statuses = status.unwrap_or_default();
        statuses.extend(status_filter);
        let filter = SalesOrderFilter {
            statuses,
            fulfillment_states: parse_states(fulfillment_state.as_deref())?,
            user_id: (!user.is_admin()).then_some(user.id),
            customer_id,
            source,
            shipped_after,
            search,
            sort_by,
            sort_order,
            // The bare-array REST list selects only the nodes: it need not count.
            count_total: {
                let ahead = ctx.look_ahead();
                ahead.field("totalCount").exists() || ahead.field("pageInfo").exists()
            },
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(SalesOrderConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// What closing an order short would do: per line what ships, the production orders
    /// cancelled, the totals after (admins; changes nothing).
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_close_short_preview(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
    ) -> AppResult<rules::CloseShortPreview> {
        Stop::into_app(rules::close_short_preview(&mut *context::conn(ctx).await?, id).await)
    }

    /// A customer's latest orders, newest first (admins; CONTRACT 5.5 `GET
    /// /admin/customers/{id}/orders`): 404 `Customer not found` for an unknown customer.
    #[graphql(guard = "Access::Admin")]
    async fn customer_orders(
        &self,
        ctx: &Context<'_>,
        customer_id: i64,
        #[graphql(desc = "How many (1-100).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        limit: i64,
    ) -> AppResult<Vec<model::RecentOrder>> {
        let page = Page::with_max(Some(limit), Some(0), MAX_SO_PAGE)?;
        let mut conn = context::conn(ctx).await?;
        crate::master_data::partners::model::find_customer(&mut conn, customer_id)
            .await?
            .ok_or_else(|| AppError::not_found("Customer not found"))?;
        let filter = SalesOrderFilter {
            customer_id: Some(customer_id),
            ..SalesOrderFilter::default()
        };
        let (rows, _) = model::list(&mut conn, &filter, page.limit, 0).await?;
        Ok(rows.into_iter().map(Into::into).collect())
    }

    /// One sales order (owner or admin: 403 `Not authorized to view this order`).
    #[graphql(guard = "Access::User")]
    async fn sales_order(&self, ctx: &Context<'_>, id: i64) -> AppResult<SalesOrderRow> {
        visible_order(ctx, id).await
    }

    /// Whether the order can ship now, and each reason it cannot (owner or admin): its
    /// status, a missing address, lines short beyond their reservation and free stock,
    /// production still running; then line by line what blocks it (production, material,
    /// purchase orders on their way) and the steps that would clear it.
    #[graphql(guard = "Access::User")]
    async fn sales_order_blocking_issues(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The sales order.")] id: i64,
    ) -> AppResult<crate::operations::sales::blockers::SalesOrderBlockers> {
        let order = visible_order(ctx, id).await?;
        crate::operations::sales::blockers::sales_order_blockers(
            &mut *context::conn(ctx).await?,
            &order,
        )
        .await
    }

    /// Whether each open order (confirmed, in production or ready to ship) can ship now, and
    /// why not (the shipping queue's preflight; at most 500, oldest first; non-admins see
    /// their own).
    #[graphql(guard = "Access::User")]
    async fn sales_orders_ship_readiness(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<Vec<crate::operations::sales::readiness::ShipReadiness>> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let owner = (!user.is_admin()).then_some(user.id);
        let conn = &mut *context::conn(ctx).await?;
        // Every order the shipping page lists (confirmed, in production, ready to ship), so
        // each row has its answer; FilaOps's own covers ready-to-ship orders only.
        let orders = model::in_statuses(
            conn,
            &crate::operations::sales::readiness::SHIPPABLE,
            owner,
            500,
        )
        .await?;
        crate::operations::sales::readiness::ship_readiness_of(conn, &orders).await
    }

    /// The components the order still needs through its products' BOMs, against available
    /// stock (owner or admin).
    #[graphql(guard = "Access::User")]
    async fn sales_order_material_requirements(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The sales order.")] id: i64,
    ) -> AppResult<crate::operations::sales::readiness::MaterialRequirements> {
        let order = visible_order(ctx, id).await?;
        crate::operations::sales::readiness::material_requirements(
            &mut *context::conn(ctx).await?,
            &order,
        )
        .await
    }

    /// An order's packing slip as a PDF (owner or admin, as the order itself): ship-to,
    /// tracking, and per line the SKU, item, quantity ordered and shipped; no prices.
    #[graphql(guard = "Access::User")]
    async fn packing_slip_pdf(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The sales order.")] id: i64,
    ) -> AppResult<crate::platform::documents::GeneratedDocument> {
        let order = visible_order(ctx, id).await?;
        let conn = &mut *context::conn(ctx).await?;
        let settings = crate::master_data::settings::model::get(conn).await?;
        crate::operations::sales::documents::packing_slip_pdf(conn, &order, &settings).await
    }

    /// The status flow (CONTRACT 6.1): every status with its moves, or one status's moves.
    #[graphql(guard = "Access::User")]
    async fn sales_order_status_transitions(
        &self,
        #[graphql(desc = "Only this status's moves.")] current_status: Option<SalesOrderStatus>,
    ) -> Json<Value> {
        crate::platform::graphql::flow::status_flow(
            SalesOrderStatus::VARIANTS,
            |s| s.allowed().iter().copied(),
            current_status,
        )
    }

    /// The payment statuses with their meaning.
    #[graphql(guard = "Access::User")]
    async fn sales_payment_statuses(&self) -> Json<Value> {
        Json(json!({
            "statuses": ["pending", "partial", "paid", "refunded", "overdue"],
            "descriptions": {
                "pending": "No payment received",
                "partial": "Partially paid",
                "paid": "Paid in full",
                "refunded": "Payment refunded",
                "overdue": "Payment overdue",
            }
        }))
    }

    /// Payments, newest first (admins).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn payments(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "One order's payments.")] order_id: Option<i64>,
        #[graphql(desc = "One method.")] payment_method: Option<PaymentMethod>,
        #[graphql(desc = "One status.")] status: Option<PaymentRecordStatus>,
        #[graphql(desc = "One type.")] payment_type: Option<PaymentType>,
        #[graphql(desc = "Paid at or after.")] from_date: Option<Timestamp>,
        #[graphql(desc = "Paid at or before.")] to_date: Option<Timestamp>,
        #[graphql(desc = "Payment or order number contains.")] search: Option<String>,
        #[graphql(desc = "Page (from 1).", default = 1)] page: i64,
        #[graphql(desc = "Page size (1-100).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        page_size: i64,
    ) -> AppResult<PaymentPage> {
        if page < 1 {
            return Err(AppError::validation(vec![
                crate::platform::error::FieldError::new(
                    "page",
                    "Input should be greater than or equal to 1",
                ),
            ]));
        }
        let p = Page::with_max(
            Some(page_size),
            Some((page - 1).saturating_mul(page_size.max(1))),
            MAX_PAYMENT_PAGE,
        )?;
        let filter = PaymentFilter {
            order_id,
            payment_method,
            status,
            payment_type,
            from_date: from_date.map(|t| t.0),
            to_date: to_date.map(|t| t.0),
            search,
        };
        let (nodes, total) =
            payments::list(&mut *context::conn(ctx).await?, &filter, p.limit, p.offset).await?;
        Ok(PaymentPage {
            items: nodes,
            total,
            page,
            page_size: p.limit,
            total_pages: (total + p.limit - 1) / p.limit,
        })
    }

    /// One payment (admins).
    #[graphql(guard = "Access::Admin")]
    async fn payment(&self, ctx: &Context<'_>, id: i64) -> AppResult<PaymentRow> {
        payments::find(&mut *context::conn(ctx).await?, id).await
    }

    /// What an order owes (admins).
    #[graphql(guard = "Access::Admin")]
    async fn payment_order_summary(
        &self,
        ctx: &Context<'_>,
        order_id: i64,
    ) -> AppResult<OrderPaymentSummary> {
        payments::order_summary(&mut *context::conn(ctx).await?, order_id).await
    }

    /// Payments today, this week and month, and what is outstanding (admins).
    #[graphql(guard = "Access::Admin")]
    async fn payments_dashboard(&self, ctx: &Context<'_>) -> AppResult<PaymentsDashboard> {
        payments::dashboard(&mut *context::conn(ctx).await?).await
    }
}

/// The result of a sales order change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SalesOrderPayload {
    /// The order after the change.
    pub sales_order: Option<SalesOrderRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(SalesOrderPayload {
    sales_order: SalesOrderRow
});

/// The result of deleting an order.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SalesOrderDeletePayload {
    /// What was deleted.
    pub result: Option<SalesOrderRemoval>,
    /// Rule violations (nothing deleted when present).
    pub user_errors: Vec<UserError>,
}

/// What generating production orders did.
#[derive(Debug, Clone, SimpleObject)]
pub struct GeneratedProductionOrders {
    /// What happened, for people.
    pub message: String,
    /// The orders created.
    pub created_orders: Vec<ProductionOrderRow>,
    /// Their codes.
    pub created_codes: Vec<String>,
}

/// The result of generating production orders.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct GenerateProductionOrdersPayload {
    /// What was created.
    pub result: Option<GeneratedProductionOrders>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

/// The result of a payment change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PaymentPayload {
    /// The payment after the change.
    pub payment: Option<PaymentRow>,
    /// Rule violations (nothing changed or posted when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(PaymentPayload {
    payment: PaymentRow
});

/// Sales mutations.
#[derive(Default)]
pub struct SalesMutation;

#[Object]
impl SalesMutation {
    /// Imports orders from a CSV file (admins): the template or a Shopify, Squarespace,
    /// WooCommerce, Etsy or TikTok export. Rows sharing an Order ID become one `pending`
    /// order; an order with a bad row, one already imported from the same source, or one
    /// cancelled in the file is skipped and reported. Everything else is written in one
    /// transaction. With `dryRun` nothing is written (the preview).
    #[graphql(guard = "Access::Admin")]
    async fn order_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The CSV file (multipart upload).")] file: async_graphql::Upload,
        #[graphql(
            desc = "Create the customers the file names that do not exist yet (by e-mail).",
            default = true
        )]
        create_customers: bool,
        #[graphql(
            desc = "The shop the orders come from (default: judged from the file's header, else manual)."
        )]
        source: Option<crate::operations::sales::model::SalesOrderSource>,
        #[graphql(desc = "Only check and report; change nothing.", default = false)] dry_run: bool,
    ) -> AppResult<crate::operations::sales::import::OrderImportReport> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        let options = crate::operations::sales::import::ImportOptions {
            create_customers,
            source,
            dry_run,
        };
        crate::operations::sales::import::import_orders(
            &mut *context::conn(ctx).await?,
            &bytes,
            options,
            user,
        )
        .await
    }

    /// Creates a `pending` order `SO-YYYY-NNNN` with its lines, priced from the products.
    #[graphql(guard = "Access::User")]
    async fn sales_order_create(
        &self,
        ctx: &Context<'_>,
        input: SalesOrderCreateInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::create(conn, input, user)).into())
    }

    /// Moves an order along CONTRACT 6.1 (admins only, like every admin route: 403 `Admin
    /// access required`). Confirming reserves stock and orders production for the rest.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_status(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: SalesOrderStatusInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let ship = *data::<rules::Shipper>(ctx)?;
        Ok(crate::in_transaction!(ctx, |conn| rules::change_status(
            conn, id, input, user.id, ship
        ))
        .into())
    }

    /// Changes where an order ships (owner or admin), until it has shipped.
    #[graphql(guard = "Access::User")]
    async fn sales_order_address(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: rules::SalesOrderAddressInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let admin = user.is_admin();
        Ok(crate::in_transaction!(ctx, |conn| rules::change_address(
            conn, id, input, user.id, admin
        ))
        .into())
    }

    /// Adds a note to an order's history (owner or admin).
    #[graphql(guard = "Access::User")]
    async fn sales_order_note_add(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: crate::operations::sales::events::SalesOrderNoteInput,
    ) -> AppResult<SalesOrderEventPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let admin = user.is_admin();
        Ok(
            crate::in_transaction!(ctx, |conn| crate::operations::sales::events::add_note(
                conn, id, input, user.id, admin
            ))
            .into(),
        )
    }

    /// Records a carrier's tracking update on a shipped order (admins); a delivered update
    /// moves a shipped order to delivered.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_shipping_event_record(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: crate::operations::sales::events::ShippingEventInput,
    ) -> AppResult<ShippingEventPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| {
            crate::operations::sales::events::record_shipping_event(conn, id, input, user)
        })
        .into())
    }

    /// Records an order's carrier, tracking number or ship date (admins).
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_shipping(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: rules::SalesOrderShippingInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            crate::in_transaction!(ctx, |conn| rules::change_shipping(conn, id, input, user))
                .into(),
        )
    }

    /// Sets an order's payment method, transaction reference or payment status (admins).
    /// The status otherwise follows the payments: `overdue` (an unpaid balance past due),
    /// `refunded` (refunds gave everything back) or what the payments already say.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_payment(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: rules::SalesOrderPaymentInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::change_payment(conn, id, input, user)).into())
    }

    /// Changes lines' quantities or prices (admins): pending, confirmed, in-production or
    /// on-hold orders; never below what shipped or production made; reservations, totals,
    /// payment status and invoice payments follow; each change is in the order's history.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_lines_edit(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        input: rules::SalesOrderLinesEditInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::edit_lines(conn, id, input, user)).into())
    }

    /// Adds a line (admins) to a pending, confirmed, in-production or on-hold order, priced
    /// like its other lines (the customer's price level applied unless a price is given);
    /// reservations, totals, payment status and invoice payments follow; recorded in the
    /// order's history.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_line_add(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        input: rules::SalesOrderLineAddInput,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::add_line(conn, id, input, user)).into())
    }

    /// Closes an order short (admins; `reason` required): the production orders still
    /// running for it cancelled, each line shrunk to what is shipped, reserved or in stock,
    /// reservations and totals following; the order becomes ready to ship.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_close_short(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        #[graphql(desc = "Why (kept in the order's history).", directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
        reason: String,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::close_short(conn, id, reason, user)).into())
    }

    /// Removes a line (admins): never the last, one that shipped, or one production still
    /// runs for (409); its reservation given back and the totals recomputed.
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_line_remove(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The order.")] id: i64,
        #[graphql(desc = "The line.")] line_id: i64,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::remove_line(conn, id, line_id, user)).into())
    }

    /// Cancels an order (owner or admin): reservations released.
    #[graphql(guard = "Access::User")]
    async fn sales_order_cancel(
        &self,
        ctx: &Context<'_>,
        id: i64,
        cancellation_reason: String,
    ) -> AppResult<SalesOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let admin = user.is_admin();
        Ok(crate::in_transaction!(ctx, |conn| rules::cancel(
            conn,
            id,
            cancellation_reason,
            user.id,
            admin
        ))
        .into())
    }

    /// Deletes a pending or cancelled order (admins).
    #[graphql(guard = "Access::Admin")]
    async fn sales_order_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<SalesOrderDeletePayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::delete(conn, id)) {
                Ok(r) => SalesOrderDeletePayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => SalesOrderDeletePayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Creates production orders for what the order's lines lack (owner or admin).
    #[graphql(guard = "Access::User")]
    async fn sales_order_generate_production_orders(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<GenerateProductionOrdersPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?;
        let admin = user.is_admin();
        let outcome = crate::in_transaction!(ctx, |conn| async move {
            let order = rules::locked_for(conn, id, user.id, admin).await?;
            rules::generate_production_orders(conn, &order, Some(user.id)).await
        });
        Ok(match outcome {
            Ok(created) => GenerateProductionOrdersPayload {
                result: Some(GeneratedProductionOrders {
                    message: format!("Created {} production order(s)", created.len()),
                    created_codes: created.iter().map(|o| o.code.clone()).collect(),
                    created_orders: created,
                }),
                user_errors: Vec::new(),
            },
            Err(user_errors) => GenerateProductionOrdersPayload {
                result: None,
                user_errors,
            },
        })
    }

    /// Records a payment `PAY-YYYY-NNNN` (admins): 1000 Cash / 1100 AR, payment status
    /// recomputed.
    #[graphql(guard = "Access::Admin")]
    async fn payment_record(
        &self,
        ctx: &Context<'_>,
        input: PaymentInput,
    ) -> AppResult<PaymentPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| payments::record(conn, input, false, user)).into())
    }

    /// Records a refund (admins; never more than is paid): the reverse entry, stored negative.
    #[graphql(guard = "Access::Admin")]
    async fn payment_refund(
        &self,
        ctx: &Context<'_>,
        input: PaymentInput,
    ) -> AppResult<PaymentPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| payments::record(conn, input, true, user)).into())
    }

    /// Changes a payment's notes or voids it (admins).
    #[graphql(guard = "Access::Admin")]
    async fn payment_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PaymentUpdateInput,
    ) -> AppResult<PaymentPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| payments::update(conn, id, input, user)).into())
    }

    /// Voids a payment (admins): its entry reversed, payment status recomputed.
    #[graphql(guard = "Access::Admin")]
    async fn payment_void(&self, ctx: &Context<'_>, id: i64) -> AppResult<PaymentPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| payments::void(conn, id, user)).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fulfillment_states_parse_as_a_comma_list() {
        assert_eq!(
            parse_states(Some("ready_to_ship, blocked")).ok(),
            Some(vec![
                FulfillmentState::ReadyToShip,
                FulfillmentState::Blocked
            ])
        );
        assert!(parse_states(Some("nope")).is_err());
        assert_eq!(parse_states(None).ok(), Some(vec![]));
    }
}

/// The largest page of quotes (CONTRACT 5.3).
pub const MAX_QUOTE_PAGE: i64 = 200;

/// The order, when the viewer may see it: its owner or an admin (403 `Not authorized to view
/// this order` otherwise).
async fn visible_order(ctx: &Context<'_>, id: i64) -> AppResult<SalesOrderRow> {
    let user = crate::platform::auth::viewer::current_user(ctx).await?;
    let order = model::find(&mut *context::conn(ctx).await?, id).await?;
    if !user.is_admin() && order.user_id != Some(user.id) {
        return Err(AppError::forbidden("Not authorized to view this order"));
    }
    Ok(order)
}

/// Quote queries (any signed-in user).
#[derive(Default)]
pub struct QuotesQuery;

#[Object]
impl QuotesQuery {
    /// Quotes, newest first.
    #[graphql(guard = "Access::User")]
    async fn quotes(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this status.")] status: Option<QuoteStatus>,
        #[graphql(desc = "Quote number, product, customer name or e-mail contains.")]
        search: Option<String>,
        #[graphql(desc = "Page size (1-200, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<QuoteConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_QUOTE_PAGE)?;
        let (nodes, total) = quotes::list(
            &mut *context::conn(ctx).await?,
            status,
            search.as_deref(),
            page.limit,
            page.offset,
        )
        .await?;
        Ok(QuoteConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One quote.
    #[graphql(guard = "Access::User")]
    async fn quote(&self, ctx: &Context<'_>, id: i64) -> AppResult<QuoteRow> {
        quotes::find(&mut *context::conn(ctx).await?, id).await
    }

    /// A quote as a PDF to send the customer (item, quantity, prices, tax, shipping, total,
    /// validity, the company's quote terms and footer).
    #[graphql(guard = "Access::User")]
    async fn quote_pdf(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The quote.")] id: i64,
    ) -> AppResult<crate::platform::documents::GeneratedDocument> {
        let conn = &mut *context::conn(ctx).await?;
        let quote = quotes::find(conn, id).await?;
        let settings = crate::master_data::settings::model::get(conn).await?;
        Ok(crate::operations::sales::documents::quote_pdf(
            &quote, &settings,
        ))
    }

    /// A quote's picture, as a file (not found when it has none).
    #[graphql(guard = "Access::User")]
    async fn quote_image(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The quote.")] id: i64,
    ) -> AppResult<crate::operations::sales::quote_images::QuoteImage> {
        crate::operations::sales::quote_images::image(ctx, id).await
    }

    /// Quote figures.
    #[graphql(guard = "Access::User")]
    async fn quote_stats(&self, ctx: &Context<'_>) -> AppResult<QuoteStats> {
        quotes::stats(&mut *context::conn(ctx).await?).await
    }
}

crate::connection!(
    /// A page of quotes.
    QuoteConnection,
    QuoteRow
);

/// The result of a quote change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct QuotePayload {
    /// The quote after the change (for a delete: as it was).
    pub quote: Option<QuoteRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(QuotePayload { quote: QuoteRow });

/// The result of converting a quote.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct QuoteConvertPayload {
    /// What converting did.
    pub result: Option<QuoteConversion>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

/// Quote mutations (any signed-in user).
#[derive(Default)]
pub struct QuotesMutation;

#[Object]
impl QuotesMutation {
    /// Writes a `pending` quote `Q-YYYY-NNNN`.
    #[graphql(guard = "Access::User")]
    async fn quote_create(
        &self,
        ctx: &Context<'_>,
        input: QuoteCreateInput,
    ) -> AppResult<QuotePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| quotes::create(conn, input, user)).into())
    }

    /// Changes a quote (not once converted).
    #[graphql(guard = "Access::User")]
    async fn quote_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: QuoteUpdateInput,
    ) -> AppResult<QuotePayload> {
        Ok(crate::in_transaction!(ctx, |conn| quotes::update(conn, id, input)).into())
    }

    /// Changes a quote's status.
    #[graphql(guard = "Access::User")]
    async fn quote_status(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: QuoteStatusInput,
    ) -> AppResult<QuotePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| quotes::change_status(conn, id, input, user)).into())
    }

    /// Converts an approved or accepted quote to a sales order.
    #[graphql(guard = "Access::User")]
    async fn quote_convert(&self, ctx: &Context<'_>, id: i64) -> AppResult<QuoteConvertPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| quotes::convert(conn, id, user)) {
                Ok(r) => QuoteConvertPayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => QuoteConvertPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Deletes a quote that was not converted (its picture too).
    #[graphql(guard = "Access::User")]
    async fn quote_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<QuotePayload> {
        let payload: QuotePayload =
            crate::in_transaction!(ctx, |conn| quotes::delete(conn, id)).into();
        if let Some(stored) = payload
            .quote
            .as_ref()
            .and_then(|q| q.image_filename.as_deref())
        {
            crate::operations::sales::quote_images::remove_stored(ctx, stored).await?;
        }
        Ok(payload)
    }

    /// Attaches a picture of the part to a quote (PNG or JPEG by content, at most
    /// `MAX_UPLOAD_BYTES`), replacing the previous one.
    #[graphql(guard = "Access::User")]
    async fn quote_image_upload(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The quote.")] id: i64,
        #[graphql(desc = "The picture.")] file: async_graphql::Upload,
    ) -> AppResult<QuotePayload> {
        crate::operations::sales::quote_images::upload(ctx, id, file).await
    }

    /// Removes a quote's picture (not found when it has none).
    #[graphql(guard = "Access::User")]
    async fn quote_image_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The quote.")] id: i64,
    ) -> AppResult<QuotePayload> {
        crate::operations::sales::quote_images::delete(ctx, id).await
    }
}

/// Completed payments less completed refunds of an order (through the request's payments
/// loader: one query for a page of orders).
async fn net_paid(ctx: &Context<'_>, order: i64) -> AppResult<BigDecimal> {
    Ok(data::<SalesOrderPayments>(ctx)?
        .load_one(order)
        .await?
        .unwrap_or_default()
        .iter()
        .filter(|p| p.status == crate::operations::sales::payments::PaymentRecordStatus::Completed)
        .fold(BigDecimal::zero(), |sum, p| sum + &p.amount.0))
}
