//! Purchasing in the schema (any signed-in user, CONTRACT 5.14): purchase orders with their
//! lines, events and documents, receipts, and the vendor's side (orders, items, metrics).
//! The objects are the rows; their relations go through [`crate::operations::purchasing::loaders`].

pub use crate::operations::purchasing::item_demand::ItemDemandQuery;
use async_graphql::{ComplexObject, Context, Object, SimpleObject};
use bigdecimal::BigDecimal;

use crate::ledgers::inventory::loaders::{ItemFactsOf, ItemStock};
use crate::master_data::partners::graphql::Vendor;
use crate::operations::purchasing::loaders::{
    OnOrder, OrderDocuments, OrderEvents, OrderLines, VendorNames, VendorOrders,
};
use crate::operations::purchasing::model::{
    self, PurchaseDocumentRow, PurchaseEventRow, PurchaseOrderFilter, PurchaseOrderLineRow,
    PurchaseOrderRow, PurchaseOrderSort, PurchaseOrderStatus,
};
use crate::operations::purchasing::replenish::{
    self, FromLowStockInput, FromLowStockResult, PurchasingTrendPoint, QuickReorderInput,
    ReorderSuggestion, VendorMetrics,
};
use crate::operations::purchasing::rules::{
    self, PurchaseOrderCreateInput, PurchaseOrderLineInput, PurchaseOrderLineUpdateInput,
    PurchaseOrderRemoval, PurchaseOrderStatusInput, PurchaseOrderUpdateInput, PurchaseReceipt,
    PurchaseReceiveInput,
};
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserError};

/// The largest page of purchase orders (CONTRACT 5.14: `limit` up to 500).
pub const MAX_PO_PAGE: i64 = 500;

#[ComplexObject]
impl crate::operations::purchasing::model::PurchaseEventRow {
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
impl PurchaseOrderRow {
    /// The vendor's name (`Unknown` when it is missing).
    async fn vendor_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(data::<VendorNames>(ctx)?
            .load_one(self.vendor_id)
            .await?
            .unwrap_or_else(|| "Unknown".into()))
    }

    /// The lines, by line number.
    async fn lines(&self, ctx: &Context<'_>) -> AppResult<Vec<PurchaseOrderLineRow>> {
        Ok(data::<OrderLines>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// How many lines it has.
    async fn line_count(&self, ctx: &Context<'_>) -> AppResult<i64> {
        Ok(data::<OrderLines>(ctx)?
            .load_one(self.id)
            .await?
            .map_or(0, |l| l.len() as i64))
    }

    /// What happened to it, oldest first.
    async fn events(&self, ctx: &Context<'_>) -> AppResult<Vec<PurchaseEventRow>> {
        Ok(data::<OrderEvents>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }

    /// The attached documents.
    async fn documents(&self, ctx: &Context<'_>) -> AppResult<Vec<PurchaseDocumentRow>> {
        Ok(data::<OrderDocuments>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

/// The item a line buys, with its stock and what is still on order for it.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct PurchasedItemInfo {
    /// The item's id.
    pub id: i64,
}

#[ComplexObject]
impl PurchasedItemInfo {
    /// SKU.
    async fn sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.id)
            .await?
            .map(|f| f.sku))
    }

    /// Name.
    async fn name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.id)
            .await?
            .map(|f| f.name))
    }

    /// Stocking unit.
    async fn unit(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.id)
            .await?
            .map(|f| f.unit))
    }

    /// On hand over every location, in the stocking unit.
    async fn on_hand(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            data::<ItemStock>(ctx)?
                .load_one(self.id)
                .await?
                .map(|s| s.on_hand)
                .unwrap_or_default(),
        ))
    }

    /// Available (on hand less allocated) over every location.
    async fn available(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            data::<ItemStock>(ctx)?
                .load_one(self.id)
                .await?
                .map(|s| s.available)
                .unwrap_or_default(),
        ))
    }

    /// Still to arrive on open purchase orders (draft, ordered, shipped), in the stocking
    /// unit: the item's open demand on vendors.
    async fn on_order(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            data::<OnOrder>(ctx)?
                .load_one(self.id)
                .await?
                .unwrap_or_default(),
        ))
    }
}

#[ComplexObject]
impl PurchaseOrderLineRow {
    /// Quantity x unit cost, in cents.
    async fn line_total(&self) -> Decimal {
        Decimal(rules::line_total(
            &self.quantity_ordered.0,
            &self.unit_cost.0,
        ))
    }

    /// Still to receive, in the purchase unit (never below zero).
    async fn quantity_remaining(&self) -> Decimal {
        let left = &self.quantity_ordered.0 - &self.quantity_received.0;
        Decimal(left.max(BigDecimal::from(0)))
    }

    /// The item bought, with its stock.
    async fn item(&self) -> PurchasedItemInfo {
        PurchasedItemInfo {
            id: self.product_id,
        }
    }

    /// The item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.sku))
    }

    /// The item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.name))
    }

    /// The item's stocking unit.
    async fn product_unit(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.unit))
    }
}

#[ComplexObject]
impl crate::operations::purchasing::model::VendorItemRow {
    /// The item's SKU.
    async fn item_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.item_id)
            .await?
            .map(|f| f.sku))
    }

    /// The item's name.
    async fn item_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.item_id)
            .await?
            .map(|f| f.name))
    }
}

#[ComplexObject]
impl PurchaseDocumentRow {
    /// Where the engine serves the file.
    async fn download_url(&self) -> String {
        format!(
            "/api/v1/purchase-orders/{}/documents/{}/download",
            self.purchase_order_id, self.id
        )
    }

    /// The stored file's key under the uploads folder (for the engine's download).
    async fn storage_key(&self) -> String {
        self.stored_name.clone()
    }
}

/// A vendor's purchase orders, newest first.
#[ComplexObject]
impl Vendor {
    /// The vendor's purchase orders, newest first.
    async fn purchase_orders(&self, ctx: &Context<'_>) -> AppResult<Vec<PurchaseOrderRow>> {
        Ok(data::<VendorOrders>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

crate::connection!(
    /// A page of purchase orders.
    PurchaseOrderConnection,
    PurchaseOrderRow
);

/// Purchasing queries (any signed-in user).
#[derive(Default)]
pub struct PurchasingQuery;

#[Object]
impl PurchasingQuery {
    /// Purchase orders (newest first unless sorted), with filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn purchase_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only these statuses (one or a list).")] status: Option<
            Vec<PurchaseOrderStatus>,
        >,
        #[graphql(desc = "Only this vendor's orders.")] vendor_id: Option<i64>,
        #[graphql(desc = "PO number or vendor name contains.")] search: Option<String>,
        #[graphql(desc = "Sort column (default created_at).")] sort_by: Option<PurchaseOrderSort>,
        #[graphql(desc = "Sort direction.")] sort_order: Option<SortOrder>,
        #[graphql(desc = "Page size (1-500, default 50).", default = 50, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<PurchaseOrderConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_PO_PAGE)?;
        let filter = PurchaseOrderFilter {
            status: status.unwrap_or_default(),
            vendor_id,
            search,
            sort_by,
            sort_order,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(PurchaseOrderConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One purchase order by id.
    #[graphql(guard = "Access::User")]
    async fn purchase_order(&self, ctx: &Context<'_>, id: i64) -> AppResult<PurchaseOrderRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// A purchase order as a PDF to send the vendor (vendor, lines in their purchase units,
    /// unit costs, tax, shipping, total, notes).
    #[graphql(guard = "Access::User")]
    async fn purchase_order_pdf(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The purchase order.")] id: i64,
    ) -> AppResult<crate::platform::documents::GeneratedDocument> {
        crate::operations::purchasing::pdf::purchase_order_pdf(&mut *context::conn(ctx).await?, id)
            .await
    }

    /// One entry of a vendor's price list (404 `Vendor item not found`).
    #[graphql(guard = "Access::User")]
    async fn vendor_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The vendor.")] vendor_id: i64,
        #[graphql(desc = "The item.")] item_id: i64,
    ) -> AppResult<model::VendorItemRow> {
        model::vendor_item(&mut *context::conn(ctx).await?, vendor_id, item_id)
            .await?
            .ok_or_else(|| crate::platform::error::AppError::not_found("Vendor item not found"))
    }

    /// Low-stock items (available plus on order at or below the reorder point) with the
    /// vendor and quantity to order.
    #[graphql(guard = "Access::User")]
    async fn purchase_low_stock(&self, ctx: &Context<'_>) -> AppResult<Vec<ReorderSuggestion>> {
        match replenish::suggestions(&mut *context::conn(ctx).await?).await {
            Ok(s) => Ok(s),
            Err(Stop::Failed(e)) => Err(e),
            Err(Stop::Refused(_)) => Ok(Vec::new()),
        }
    }

    /// What a vendor sells: last price, purchase unit, lead time (404 for an unknown vendor).
    #[graphql(guard = "Access::User")]
    async fn vendor_items(
        &self,
        ctx: &Context<'_>,
        vendor_id: i64,
    ) -> AppResult<Vec<model::VendorItemRow>> {
        let mut conn = context::conn(ctx).await?;
        replenish::metrics(&mut conn, vendor_id).await?;
        model::vendor_items_of(&mut conn, vendor_id).await
    }

    /// How a vendor performs: orders, spend, on-time rate, average lead time.
    #[graphql(guard = "Access::User")]
    async fn vendor_metrics(&self, ctx: &Context<'_>, vendor_id: i64) -> AppResult<VendorMetrics> {
        replenish::metrics(&mut *context::conn(ctx).await?, vendor_id).await
    }

    /// Money placed with vendors per month (the dashboard's purchasing trend).
    #[graphql(guard = "Access::User")]
    async fn purchasing_trend(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many months, this one included (1-60).", default = 6, directive = crate::platform::graphql::limits::range::apply(1, 60))]
        months: i64,
    ) -> AppResult<Vec<PurchasingTrendPoint>> {
        replenish::trend(&mut *context::conn(ctx).await?, months).await
    }

    /// FilaOps's purchasing trend: orders received over a `period` (WTD, MTD, QTD or YTD;
    /// any other value, or none, the last 365 days) with totals and the pipeline now, and
    /// the money placed per month over `months` months.
    #[graphql(guard = "Access::User")]
    async fn purchasing_trend_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "WTD, MTD, QTD or YTD.")] period: Option<String>,
        #[graphql(desc = "How many months, this one included (1-60).", default = 6, directive = crate::platform::graphql::limits::range::apply(1, 60))]
        months: i64,
    ) -> AppResult<replenish::PurchasingTrendReport> {
        let today = crate::ledgers::inventory::rules::today();
        let days = crate::ledgers::accounting::rules::period_days(
            period.as_deref().unwrap_or_default(),
            today,
        );
        let start = today - chrono::Days::new((days - 1).max(0) as u64);
        replenish::trend_report(&mut *context::conn(ctx).await?, period, start, months).await
    }

    /// One document of a purchase order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_document(
        &self,
        ctx: &Context<'_>,
        id: i64,
        document_id: i64,
    ) -> AppResult<PurchaseDocumentRow> {
        crate::operations::purchasing::documents::find(ctx, id, document_id).await
    }

    /// The material lots received on a purchase order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_lots(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<Vec<model::MaterialLotRow>> {
        let mut conn = context::conn(ctx).await?;
        model::find(&mut conn, id).await?;
        model::lots_of(&mut conn, &[id]).await
    }
}

/// The result of a purchase order change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseOrderPayload {
    /// The order after the change.
    pub purchase_order: Option<PurchaseOrderRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(PurchaseOrderPayload {
    purchase_order: PurchaseOrderRow
});

/// The result of a line change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseOrderLinePayload {
    /// The line (for a delete: as it was).
    pub line: Option<PurchaseOrderLineRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(PurchaseOrderLinePayload {
    line: PurchaseOrderLineRow
});

/// The result of saving a vendor item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VendorItemPayload {
    /// The vendor's entry for the item.
    pub vendor_item: Option<crate::operations::purchasing::model::VendorItemRow>,
    /// Rule violations (nothing changed when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(VendorItemPayload {
    vendor_item: crate::operations::purchasing::model::VendorItemRow
});

/// The result of deleting an order.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseOrderDeletePayload {
    /// What happened.
    pub result: Option<PurchaseOrderRemoval>,
    /// Rule violations (nothing deleted when present).
    pub user_errors: Vec<UserError>,
}

/// The result of a receipt.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseReceivePayload {
    /// What the receipt did.
    pub result: Option<PurchaseReceipt>,
    /// Rule violations (nothing was received or posted when present).
    pub user_errors: Vec<UserError>,
}

/// The result of ordering from low stock.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct FromLowStockPayload {
    /// What was created.
    pub result: Option<FromLowStockResult>,
    /// Rule violations (nothing created when present).
    pub user_errors: Vec<UserError>,
}

/// The result of adding an event.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PurchaseEventPayload {
    /// The order's events after the addition.
    pub events: Vec<PurchaseEventRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}

/// Purchasing mutations (any signed-in user).
#[derive(Default)]
pub struct PurchasingMutation;

#[Object]
impl PurchasingMutation {
    /// Puts an item on a vendor's list, or updates its entry: vendor SKU, price per
    /// purchase unit, lead time, preferred (one preferred vendor per item).
    #[graphql(guard = "Access::User")]
    async fn vendor_item_save(
        &self,
        ctx: &Context<'_>,
        vendor_id: i64,
        input: crate::operations::purchasing::rules::VendorItemInput,
    ) -> AppResult<VendorItemPayload> {
        Ok(crate::in_transaction!(ctx, |conn| {
            crate::operations::purchasing::rules::save_vendor_item(conn, vendor_id, input)
        })
        .into())
    }

    /// Changes an entry of a vendor's price list (404 when the vendor does not sell the
    /// item); omitted fields keep their value.
    #[graphql(guard = "Access::User")]
    async fn vendor_item_update(
        &self,
        ctx: &Context<'_>,
        vendor_id: i64,
        item_id: i64,
        input: crate::operations::purchasing::rules::VendorItemChanges,
    ) -> AppResult<VendorItemPayload> {
        Ok(crate::in_transaction!(ctx, |conn| {
            crate::operations::purchasing::rules::update_vendor_item(
                conn, vendor_id, item_id, input,
            )
        })
        .into())
    }

    /// Takes an item off a vendor's price list (404 when it is not on it).
    #[graphql(guard = "Access::User")]
    async fn vendor_item_delete(
        &self,
        ctx: &Context<'_>,
        vendor_id: i64,
        item_id: i64,
    ) -> AppResult<VendorItemPayload> {
        Ok(crate::in_transaction!(ctx, |conn| {
            crate::operations::purchasing::rules::delete_vendor_item(conn, vendor_id, item_id)
        })
        .into())
    }

    /// Creates a draft purchase order (`PO-YYYY-NNN`) with its lines.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_create(
        &self,
        ctx: &Context<'_>,
        input: PurchaseOrderCreateInput,
    ) -> AppResult<PurchaseOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::create(conn, input, user)).into())
    }

    /// Changes an order's header (not once closed or cancelled; the vendor only on drafts).
    #[graphql(guard = "Access::User")]
    async fn purchase_order_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PurchaseOrderUpdateInput,
    ) -> AppResult<PurchaseOrderPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::update(conn, id, input)).into())
    }

    /// Deletes a draft order (any other is refused: cancel it instead).
    #[graphql(guard = "Access::User")]
    async fn purchase_order_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<PurchaseOrderDeletePayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::delete(conn, id)) {
                Ok(r) => PurchaseOrderDeletePayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => PurchaseOrderDeletePayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Adds a line to a draft order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_line_add(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PurchaseOrderLineInput,
    ) -> AppResult<PurchaseOrderLinePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::add_line(conn, id, input)).into())
    }

    /// Changes a line of a draft order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_line_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        line_id: i64,
        input: PurchaseOrderLineUpdateInput,
    ) -> AppResult<PurchaseOrderLinePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::update_line(conn, id, line_id, input)).into())
    }

    /// Removes a line of a draft order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_line_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
        line_id: i64,
    ) -> AppResult<PurchaseOrderLinePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::delete_line(conn, id, line_id)).into())
    }

    /// Moves an order along the status flow (CONTRACT 6.3), recording the event.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_status(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PurchaseOrderStatusInput,
    ) -> AppResult<PurchaseOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::change_status(conn, id, input, user)).into())
    }

    /// Receives goods: stock at unit cost, lots, spools, the journal entry (inventory / 2000
    /// Accounts payable) and the order's status, in one database transaction; what is
    /// already received cannot be received again.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_receive(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: PurchaseReceiveInput,
    ) -> AppResult<PurchaseReceivePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::receive(conn, id, input, user)) {
                Ok(r) => PurchaseReceivePayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => PurchaseReceivePayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Creates draft orders for low-stock items, one per vendor (the preferred one, else the
    /// last one bought from; `vendorId` for items with none).
    #[graphql(guard = "Access::User")]
    async fn purchase_orders_from_low_stock(
        &self,
        ctx: &Context<'_>,
        #[graphql(default)] input: FromLowStockInput,
    ) -> AppResult<FromLowStockPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| replenish::from_low_stock(conn, input, user)) {
                Ok(r) => FromLowStockPayload {
                    result: Some(r),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => FromLowStockPayload {
                    result: None,
                    user_errors,
                },
            },
        )
    }

    /// Creates a draft order for one item from its preferred (or last) vendor.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_quick_reorder(
        &self,
        ctx: &Context<'_>,
        product_id: i64,
        #[graphql(default)] input: QuickReorderInput,
    ) -> AppResult<PurchaseOrderPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| replenish::quick_reorder(
            conn, product_id, input, user
        ))
        .into())
    }

    /// Attaches a document (PDF, image...) to a purchase order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_document_upload(
        &self,
        ctx: &Context<'_>,
        id: i64,
        file: async_graphql::Upload,
        document_type: Option<String>,
        notes: Option<String>,
    ) -> AppResult<crate::operations::purchasing::documents::PurchaseDocumentPayload> {
        crate::operations::purchasing::documents::upload(ctx, id, file, document_type, notes).await
    }

    /// Removes a document from a purchase order.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_document_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
        document_id: i64,
    ) -> AppResult<crate::operations::purchasing::documents::PurchaseDocumentPayload> {
        crate::operations::purchasing::documents::delete(ctx, id, document_id).await
    }

    /// Adds a note to an order's history.
    #[graphql(guard = "Access::User")]
    async fn purchase_order_event_add(
        &self,
        ctx: &Context<'_>,
        id: i64,
        title: String,
        description: Option<String>,
    ) -> AppResult<PurchaseEventPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::add_event(
                conn,
                id,
                title,
                description,
                user
            )) {
                Ok(()) => PurchaseEventPayload {
                    events: model::events_of(&mut *context::conn(ctx).await?, &[id]).await?,
                    user_errors: Vec::new(),
                },
                Err(user_errors) => PurchaseEventPayload {
                    events: Vec::new(),
                    user_errors,
                },
            },
        )
    }
}
