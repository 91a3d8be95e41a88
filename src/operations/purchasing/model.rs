//! Purchasing rows (each is also its GraphQL object), their closed sets and the queries on
//! them: purchase orders, lines, events, documents, material lots and vendor items.

use async_graphql::SimpleObject;
use bigdecimal::BigDecimal;
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::platform::db::like_pattern;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::{
    material_lots, purchase_order_documents, purchase_order_events, purchase_order_lines,
    purchase_orders, vendor_items, vendors,
};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Where a purchase order stands (CONTRACT 6.3).
    pub enum PurchaseOrderStatus {
        /// Being written; lines can change.
        Draft,
        /// Sent to the vendor.
        Ordered,
        /// The vendor shipped it.
        Shipped,
        /// Everything arrived (or it was marked received).
        Received,
        /// Done with (terminal).
        Closed,
        /// Called off (terminal).
        Cancelled,
    }
}

impl PurchaseOrderStatus {
    /// The statuses a purchase order may move to from this one (CONTRACT 6.3).
    pub fn allowed(self) -> &'static [PurchaseOrderStatus] {
        use PurchaseOrderStatus::*;
        match self {
            Draft => &[Ordered, Cancelled],
            Ordered => &[Shipped, Received, Cancelled],
            Shipped => &[Received, Cancelled],
            Received => &[Closed, Cancelled],
            Closed | Cancelled => &[],
        }
    }

    /// Whether the order is still expected to bring stock (its unreceived quantities count
    /// as on order).
    pub fn is_open(self) -> bool {
        matches!(
            self,
            PurchaseOrderStatus::Draft
                | PurchaseOrderStatus::Ordered
                | PurchaseOrderStatus::Shipped
        )
    }
}

/// The statuses whose unreceived quantities are on order.
pub const OPEN_STATUSES: [PurchaseOrderStatus; 3] = [
    PurchaseOrderStatus::Draft,
    PurchaseOrderStatus::Ordered,
    PurchaseOrderStatus::Shipped,
];

crate::text_enum! {
    /// What a purchase order event records.
    pub enum PurchaseEventType {
        /// The order was created.
        Created,
        /// Its status changed.
        StatusChange,
        /// Goods were received.
        Receipt,
        /// A note.
        Note,
        /// A document was attached.
        Document,
    }
}

crate::text_enum! {
    /// What kind of document is attached to a purchase order.
    pub enum PurchaseDocumentType {
        /// The vendor's invoice.
        Invoice,
        /// The packing slip.
        PackingSlip,
        /// A receipt.
        Receipt,
        /// The vendor's quote.
        Quote,
        /// A shipping label.
        ShippingLabel,
        /// Anything else.
        Other,
    }
}

crate::text_enum! {
    /// Where a material lot stands (CONTRACT 6.7).
    pub enum LotStatus {
        /// In stock and usable.
        Active,
        /// Used up.
        Depleted,
        /// Held for inspection.
        Quarantine,
        /// Past its date.
        Expired,
        /// Recalled.
        Recalled,
    }
}

crate::text_enum! {
    /// A lot's inspection (CONTRACT 6.7).
    pub enum InspectionStatus {
        /// Not inspected yet.
        Pending,
        /// Passed.
        Passed,
        /// Failed.
        Failed,
        /// Not needed.
        Waived,
    }
}

crate::text_enum! {
    /// The columns purchase orders can be sorted by (default `created_at`, newest first).
    pub enum PurchaseOrderSort {
        /// The PO number.
        PoNumber,
        /// Status.
        Status,
        /// The vendor's name.
        VendorName,
        /// Order date.
        OrderDate,
        /// Expected date.
        ExpectedDate,
        /// Received date.
        ReceivedDate,
        /// Total amount.
        TotalAmount,
        /// Created.
        CreatedAt,
    }
}

/// A purchase order (`PO-YYYY-NNN`). Amounts in money, lines in their purchase units.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = purchase_orders, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PurchaseOrder", complex)]
pub struct PurchaseOrderRow {
    /// Id.
    pub id: i64,
    /// `PO-YYYY-NNN`.
    pub po_number: String,
    /// The vendor.
    pub vendor_id: i64,
    /// Where it stands.
    pub status: PurchaseOrderStatus,
    /// When it was ordered (set on `ordered` unless given).
    pub order_date: Option<NaiveDate>,
    /// When the goods are expected.
    pub expected_date: Option<NaiveDate>,
    /// When the vendor shipped.
    pub shipped_date: Option<NaiveDate>,
    /// When everything arrived.
    pub received_date: Option<NaiveDate>,
    /// Carrier tracking number.
    pub tracking_number: Option<String>,
    /// Carrier.
    pub carrier: Option<String>,
    /// Sum of the lines.
    pub subtotal: Decimal,
    /// Tax.
    pub tax_amount: Decimal,
    /// Shipping.
    pub shipping_cost: Decimal,
    /// Subtotal + tax + shipping.
    pub total_amount: Decimal,
    /// How it is paid.
    pub payment_method: Option<String>,
    /// Payment reference.
    pub payment_reference: Option<String>,
    /// A link to the vendor's document.
    pub document_url: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Who created it.
    pub created_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// A line of a purchase order: quantity and unit cost in the purchase unit.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = purchase_order_lines, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PurchaseOrderLine", complex)]
pub struct PurchaseOrderLineRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub purchase_order_id: i64,
    /// Position (1, 2, ...).
    pub line_number: i32,
    /// The item bought.
    pub product_id: i64,
    /// Quantity ordered, in the purchase unit.
    pub quantity_ordered: Decimal,
    /// Quantity received so far, in the purchase unit.
    pub quantity_received: Decimal,
    /// Cost per purchase unit.
    pub unit_cost: Decimal,
    /// The unit it is bought in (converted to the item's stocking unit on receipt).
    pub purchase_unit: String,
    /// Notes.
    pub notes: Option<String>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// Something that happened to a purchase order.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = purchase_order_events, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PurchaseOrderEvent", complex)]
pub struct PurchaseEventRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub purchase_order_id: i64,
    /// What kind of event.
    pub event_type: PurchaseEventType,
    /// Title, e.g. `Order Placed`.
    pub title: String,
    /// Details.
    pub description: Option<String>,
    /// Status before (status changes).
    pub old_status: Option<String>,
    /// Status after (status changes).
    pub new_status: Option<String>,
    /// Who.
    #[diesel(column_name = created_by)]
    pub user_id: Option<i64>,
    /// A fact the event carries, named (`payment_number`, `quantity_received`...).
    pub metadata_key: Option<String>,
    /// Its value.
    pub metadata_value: Option<String>,
    /// When.
    pub created_at: Timestamp,
}

/// A file attached to a purchase order (stored under `UPLOADS_DIR`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = purchase_order_documents, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "PurchaseOrderDocument", complex)]
pub struct PurchaseDocumentRow {
    /// Id.
    pub id: i64,
    /// The order.
    pub purchase_order_id: i64,
    /// What it is.
    pub document_type: PurchaseDocumentType,
    /// The uploaded file's name.
    #[graphql(name = "filename")]
    pub original_name: String,
    /// The stored file's name under the uploads folder.
    #[graphql(skip)]
    pub stored_name: String,
    /// MIME type.
    pub content_type: String,
    /// Size in bytes.
    pub size_bytes: i64,
    /// Notes.
    pub notes: Option<String>,
    /// Who uploaded it.
    pub uploaded_by: Option<i64>,
    /// When.
    pub created_at: Timestamp,
}

/// A material lot (CONTRACT 6.7): what one receipt line brought in, in stocking units.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = material_lots, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "MaterialLot", complex)]
pub struct MaterialLotRow {
    /// Id.
    pub id: i64,
    /// `{MATERIALCODE}-{YYYY}-{NNNN}` (or the number given at receipt).
    pub lot_number: String,
    /// The item.
    pub product_id: i64,
    /// The vendor.
    pub vendor_id: Option<i64>,
    /// The purchase order.
    pub purchase_order_id: Option<i64>,
    /// The purchase order line.
    pub purchase_order_line_id: Option<i64>,
    /// The vendor's own lot number.
    pub vendor_lot_number: Option<String>,
    /// Received, in stocking units.
    pub quantity_received: Decimal,
    /// Consumed.
    pub quantity_consumed: Decimal,
    /// Scrapped.
    pub quantity_scrapped: Decimal,
    /// Adjusted (signed).
    pub quantity_adjusted: Decimal,
    /// Where it stands.
    pub status: LotStatus,
    /// Inspection.
    pub inspection_status: InspectionStatus,
    /// Received on.
    pub received_date: NaiveDate,
    /// Expires on.
    pub expiration_date: Option<NaiveDate>,
    /// Cost per stocking unit.
    pub unit_cost: Option<Decimal>,
    /// Where it was received.
    pub location_id: Option<i64>,
    /// The receipt in the stock ledger.
    pub inventory_transaction_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
    /// Who received it.
    pub created_by: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// What a vendor sells: last price paid, lead time, whether it is the item's preferred
/// vendor.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = vendor_items, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "VendorItem", complex)]
pub struct VendorItemRow {
    /// Id.
    pub id: i64,
    /// The vendor.
    pub vendor_id: i64,
    /// The item.
    pub item_id: i64,
    /// The vendor's SKU.
    pub vendor_sku: Option<String>,
    /// Last price per purchase unit.
    pub last_price: Option<Decimal>,
    /// The purchase unit of that price.
    pub purchase_unit: Option<String>,
    /// Days from order to receipt last time (or as set).
    pub lead_time_days: Option<i32>,
    /// The item's preferred vendor for replenishment.
    pub is_preferred: bool,
    /// When it was last ordered.
    pub last_ordered_at: Option<Timestamp>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

/// How purchase orders are listed.
#[derive(Debug, Clone, Default)]
pub struct PurchaseOrderFilter {
    /// Only these statuses (any, when empty).
    pub status: Vec<PurchaseOrderStatus>,
    /// Only this vendor.
    pub vendor_id: Option<i64>,
    /// PO number or vendor name contains (case-insensitive).
    pub search: Option<String>,
    /// Sort column.
    pub sort_by: Option<PurchaseOrderSort>,
    /// Sort direction (default descending for dates, ascending otherwise).
    pub sort_order: Option<SortOrder>,
}

/// One page of purchase orders and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    filter: &PurchaseOrderFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<PurchaseOrderRow>, i64)> {
    let build = || {
        let mut q = purchase_orders::table
            .inner_join(vendors::table)
            .select((PurchaseOrderRow::as_select(), paging::total_count()))
            .into_boxed();
        if !filter.status.is_empty() {
            q = q.filter(purchase_orders::status.eq_any(filter.status.clone()));
        }
        if let Some(v) = filter.vendor_id {
            q = q.filter(purchase_orders::vendor_id.eq(v));
        }
        if let Some(s) = filter
            .search
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let p = like_pattern(s);
            q = q.filter(
                purchase_orders::po_number
                    .ilike(p.clone())
                    .or(vendors::name.ilike(p)),
            );
        }
        let sort = filter.sort_by.unwrap_or(PurchaseOrderSort::CreatedAt);
        let order = filter.sort_order.unwrap_or(match sort {
            PurchaseOrderSort::CreatedAt => SortOrder::Desc,
            _ => SortOrder::Asc,
        });
        let id = purchase_orders::id;
        match sort {
            PurchaseOrderSort::PoNumber => paging::sorted(q, purchase_orders::po_number, id, order),
            PurchaseOrderSort::Status => paging::sorted(q, purchase_orders::status, id, order),
            PurchaseOrderSort::VendorName => paging::sorted(q, vendors::name, id, order),
            PurchaseOrderSort::OrderDate => {
                paging::sorted(q, purchase_orders::order_date, id, order)
            }
            PurchaseOrderSort::ExpectedDate => {
                paging::sorted(q, purchase_orders::expected_date, id, order)
            }
            PurchaseOrderSort::ReceivedDate => {
                paging::sorted(q, purchase_orders::received_date, id, order)
            }
            PurchaseOrderSort::TotalAmount => {
                paging::sorted(q, purchase_orders::total_amount, id, order)
            }
            PurchaseOrderSort::CreatedAt => {
                paging::sorted(q, purchase_orders::created_at, id, order)
            }
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The purchase order with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<PurchaseOrderRow> {
    paging::find_or_404(
        conn,
        purchase_orders::table
            .find(id)
            .select(PurchaseOrderRow::as_select()),
        "Purchase order not found",
    )
    .await
}

/// The purchase order with this id, locked for the rest of the transaction.
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> QueryResult<Option<PurchaseOrderRow>> {
    purchase_orders::table
        .find(id)
        .select(PurchaseOrderRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()
}

/// The orders with these ids.
pub async fn by_ids(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<PurchaseOrderRow>> {
    Ok(purchase_orders::table
        .filter(purchase_orders::id.eq_any(ids))
        .select(PurchaseOrderRow::as_select())
        .load(conn)
        .await?)
}

/// The orders of these vendors, newest first.
pub async fn of_vendors(
    conn: &mut AsyncPgConnection,
    vendor_ids: &[i64],
) -> AppResult<Vec<PurchaseOrderRow>> {
    Ok(purchase_orders::table
        .filter(purchase_orders::vendor_id.eq_any(vendor_ids))
        .order((
            purchase_orders::created_at.desc(),
            purchase_orders::id.desc(),
        ))
        .select(PurchaseOrderRow::as_select())
        .load(conn)
        .await?)
}

/// The lines of these orders, by line number.
pub async fn lines_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<PurchaseOrderLineRow>> {
    Ok(purchase_order_lines::table
        .filter(purchase_order_lines::purchase_order_id.eq_any(order_ids))
        .order((
            purchase_order_lines::purchase_order_id,
            purchase_order_lines::line_number,
        ))
        .select(PurchaseOrderLineRow::as_select())
        .load(conn)
        .await?)
}

/// The lines of one order, locked for the rest of the transaction.
pub async fn lock_lines(
    conn: &mut AsyncPgConnection,
    order_id: i64,
) -> QueryResult<Vec<PurchaseOrderLineRow>> {
    purchase_order_lines::table
        .filter(purchase_order_lines::purchase_order_id.eq(order_id))
        .order(purchase_order_lines::line_number)
        .select(PurchaseOrderLineRow::as_select())
        .for_update()
        .load(conn)
        .await
}

/// The events of these orders, oldest first.
pub async fn events_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<PurchaseEventRow>> {
    Ok(purchase_order_events::table
        .filter(purchase_order_events::purchase_order_id.eq_any(order_ids))
        .order((
            purchase_order_events::purchase_order_id,
            purchase_order_events::id,
        ))
        .select(PurchaseEventRow::as_select())
        .load(conn)
        .await?)
}

/// The documents of these orders, oldest first.
pub async fn documents_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<PurchaseDocumentRow>> {
    Ok(purchase_order_documents::table
        .filter(purchase_order_documents::purchase_order_id.eq_any(order_ids))
        .order((
            purchase_order_documents::purchase_order_id,
            purchase_order_documents::id,
        ))
        .select(PurchaseDocumentRow::as_select())
        .load(conn)
        .await?)
}

/// The lots received on these orders, by id.
pub async fn lots_of(
    conn: &mut AsyncPgConnection,
    order_ids: &[i64],
) -> AppResult<Vec<MaterialLotRow>> {
    Ok(material_lots::table
        .filter(material_lots::purchase_order_id.eq_any(order_ids))
        .order(material_lots::id)
        .select(MaterialLotRow::as_select())
        .load(conn)
        .await?)
}

/// Lots by id.
pub async fn lots_by_ids(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<MaterialLotRow>> {
    Ok(material_lots::table
        .filter(material_lots::id.eq_any(ids))
        .order(material_lots::id)
        .select(MaterialLotRow::as_select())
        .load(conn)
        .await?)
}

/// The items a vendor sells, by item id.
/// The entry of `item_id` on `vendor_id`'s price list, if it is there.
pub async fn vendor_item(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
    item_id: i64,
) -> AppResult<Option<VendorItemRow>> {
    Ok(vendor_items::table
        .filter(vendor_items::vendor_id.eq(vendor_id))
        .filter(vendor_items::item_id.eq(item_id))
        .select(VendorItemRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

pub async fn vendor_items_of(
    conn: &mut AsyncPgConnection,
    vendor_id: i64,
) -> AppResult<Vec<VendorItemRow>> {
    Ok(vendor_items::table
        .filter(vendor_items::vendor_id.eq(vendor_id))
        .order(vendor_items::item_id)
        .select(VendorItemRow::as_select())
        .load(conn)
        .await?)
}

/// A line to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = purchase_order_lines)]
pub struct NewLine {
    /// Order.
    pub purchase_order_id: i64,
    /// Position.
    pub line_number: i32,
    /// Item.
    pub product_id: i64,
    /// Quantity.
    pub quantity_ordered: BigDecimal,
    /// Cost.
    pub unit_cost: BigDecimal,
    /// Unit.
    pub purchase_unit: String,
    /// Notes.
    pub notes: Option<String>,
}

/// An event to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = purchase_order_events)]
pub struct NewEvent {
    /// Order.
    pub purchase_order_id: i64,
    /// Kind.
    pub event_type: PurchaseEventType,
    /// Title.
    pub title: String,
    /// Details.
    pub description: Option<String>,
    /// Before.
    pub old_status: Option<String>,
    /// After.
    pub new_status: Option<String>,
    /// Who.
    pub created_by: Option<i64>,
    /// A fact the event carries, named.
    pub metadata_key: Option<String>,
    /// Its value.
    pub metadata_value: Option<String>,
}

/// A lot to insert.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = material_lots)]
pub struct NewLot {
    /// Number.
    pub lot_number: String,
    /// Item.
    pub product_id: i64,
    /// Vendor.
    pub vendor_id: Option<i64>,
    /// Order.
    pub purchase_order_id: Option<i64>,
    /// Line.
    pub purchase_order_line_id: Option<i64>,
    /// Vendor's lot.
    pub vendor_lot_number: Option<String>,
    /// Quantity (stocking units).
    pub quantity_received: BigDecimal,
    /// Received.
    pub received_date: NaiveDate,
    /// Cost per stocking unit.
    pub unit_cost: Option<BigDecimal>,
    /// Location.
    pub location_id: Option<i64>,
    /// Ledger row.
    pub inventory_transaction_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
    /// Who.
    pub created_by: Option<i64>,
}
