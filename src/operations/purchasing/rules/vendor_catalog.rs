//! What each vendor sells: a vendor item per vendor SKU, saved, changed, deleted, and
//! remembered from a purchase order line.

use super::*;

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

pub(super) fn vendor_item_not_found() -> Stop {
    Stop::refuse("itemId", UserErrorCode::NotFound, "Vendor item not found")
}

/// Records what the vendor charged and how long it took (vendor items).
pub(super) async fn remember_vendor_item(
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
