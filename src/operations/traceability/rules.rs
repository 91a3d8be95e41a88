//! The rules of traceability: which finished units leave with a shipment, and the records
//! an admin keeps by hand (units, lots, lot consumptions, customers' profiles).

use async_graphql::{InputObject, MaybeUndefined};
use bigdecimal::{BigDecimal, Zero};
use chrono::{Datelike, NaiveDate};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{OrderStatus, SerialStatus};
use crate::operations::purchasing::model::{InspectionStatus, LotStatus, NewLot};
use crate::operations::traceability::records::{
    self, ConsumptionRow, MAX_RETENTION_DAYS, NewConsumption, Profile, ProfileForm,
};
use crate::platform::db::schema::{
    bom_lines, customer_traceability_profiles as profiles, customers, items, locations,
    material_lots, production_orders, purchase_orders, serial_numbers, vendors,
};
use crate::platform::db::text;
use crate::platform::error::AppError;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// One shipped line: the units of `product_id` it takes.
#[derive(Debug, Clone)]
pub struct ShippedLine {
    /// The sales order line.
    pub line_id: i64,
    /// Its product.
    pub product_id: i64,
    /// Whole units shipped.
    pub units: i64,
}

/// Gives a shipment its finished units: for each line, up to its quantity of the product's
/// units not yet sold (made or in stock, not failed in QC), those made for this sales order
/// first, then QC-passed ones, oldest first. They become `shipped` on the order, line and
/// shipment, with its tracking number. Products made without serial numbers simply have
/// none to take. One statement per line.
pub async fn assign_shipped_units(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
    shipment_id: i64,
    tracking_number: &str,
    at: Timestamp,
    lines: &[ShippedLine],
) -> diesel::QueryResult<usize> {
    let mut assigned = 0;
    for line in lines.iter().filter(|l| l.units > 0) {
        assigned += diesel::sql_query(ASSIGN)
            .bind::<BigInt, _>(sales_order_id)
            .bind::<BigInt, _>(line.line_id)
            .bind::<BigInt, _>(shipment_id)
            .bind::<Timestamptz, _>(at.0)
            .bind::<Text, _>(tracking_number)
            .bind::<BigInt, _>(line.product_id)
            .bind::<BigInt, _>(line.units)
            .execute(conn)
            .await?;
    }
    Ok(assigned)
}

const ASSIGN: &str = "\
    UPDATE serial_numbers SET sales_order_id = $1, sales_order_line_id = $2, shipment_id = $3, \
           status = 'shipped', sold_at = COALESCE(sold_at, $4), shipped_at = $4, tracking_number = $5 \
     WHERE id IN ( \
        SELECT s.id FROM serial_numbers s \
          LEFT JOIN production_orders o ON o.id = s.production_order_id \
         WHERE s.product_id = $6 AND s.sales_order_id IS NULL \
           AND s.status IN ('manufactured', 'in_stock') \
           AND NOT (s.qc_date IS NOT NULL AND NOT s.qc_passed) \
         ORDER BY (o.sales_order_id IS NOT DISTINCT FROM $1) DESC, s.qc_passed DESC, \
                  s.manufactured_at, s.id \
         LIMIT $7 FOR UPDATE OF s SKIP LOCKED)";

// ------------------------------------------------------------------ admin records (5.19)

/// The most units one request may number.
pub const MAX_NEW_SERIALS: i64 = 1000;
/// The longest lot number, vendor lot number or serial prefix text.
const NUMBER_MAX: usize = 50;
/// The longest notes, standards or reason.
const NOTES_MAX: usize = 2000;
/// The longest custom serial prefix.
const PREFIX_MAX: usize = 20;

use crate::platform::graphql::user_error::invalid;

fn refuse(field: &str, message: impl Into<String>) -> Stop {
    Stop::refuse(field, UserErrorCode::NotAllowed, message)
}

fn missing(field: &str, what: &str) -> Stop {
    Stop::refuse(field, UserErrorCode::NotFound, format!("{what} not found"))
}

/// Checks and normalises a profile form: retention 1-36500 days, the serial prefix upper
/// case letters, digits and dashes, texts trimmed and bounded.
pub fn check_profile(form: &mut ProfileForm) -> Vec<UserError> {
    let mut errors = Vec::new();
    if form.customer_id.is_some_and(|id| id <= 0) {
        errors.push(invalid("customerId", "Input should be greater than 0"));
    }
    if let Some(days) = form.record_retention_days
        && !(1..=MAX_RETENTION_DAYS).contains(&days)
    {
        errors.push(invalid(
            "recordRetentionDays",
            format!("Input should be between 1 and {MAX_RETENTION_DAYS}"),
        ));
    }
    text::clearable(
        &mut errors,
        "customSerialPrefix",
        &mut form.custom_serial_prefix,
        PREFIX_MAX,
    );
    if let Some(Some(prefix)) = form.custom_serial_prefix.as_mut() {
        *prefix = prefix.to_uppercase();
        if !prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            errors.push(invalid(
                "customSerialPrefix",
                "Use letters, digits and dashes only",
            ));
        }
    }
    text::clearable(
        &mut errors,
        "complianceStandards",
        &mut form.compliance_standards,
        NOTES_MAX,
    );
    text::clearable(&mut errors, "notes", &mut form.notes, NOTES_MAX);
    errors
}

/// Creates a customer's profile (`customer_id` `None`) or changes the profile of the
/// customer named by the path. The customer's row is locked first, so two creates for one
/// customer cannot both pass the "already has one" check.
pub async fn save_profile(
    conn: &mut AsyncPgConnection,
    customer_id: Option<i64>,
    mut form: ProfileForm,
) -> Result<Profile, Stop> {
    let errors = check_profile(&mut form);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    match customer_id {
        Some(id) => {
            if form.customer_id.is_some_and(|c| c != id) {
                return Err(Stop::refuse(
                    "customerId",
                    UserErrorCode::Invalid,
                    "A profile cannot move to another customer",
                ));
            }
            form.customer_id = None;
            records::update_profile(conn, id, &form).await?;
            Ok(records::profile_of(conn, id).await?)
        }
        None => {
            let id = form.customer_id.unwrap_or_default();
            let found: Option<i64> = customers::table
                .find(id)
                .select(customers::id)
                .for_update()
                .first(conn)
                .await
                .optional()?;
            if found.is_none() {
                return Err(missing("customerId", "Customer"));
            }
            let taken: Option<i64> = profiles::table
                .filter(profiles::customer_id.eq(id))
                .select(profiles::id)
                .first(conn)
                .await
                .optional()?;
            if taken.is_some() {
                return Err(Stop::refuse(
                    "customerId",
                    UserErrorCode::Taken,
                    "Customer already has a traceability profile",
                ));
            }
            records::insert_profile(conn, &form).await?;
            Ok(records::profile_of(conn, id).await?)
        }
    }
}

/// New finished units numbered by hand (`POST /admin/traceability/serials`): units made
/// outside a production order, or missing from one.
#[derive(Debug, Clone, InputObject)]
pub struct SerialNumberCreateInput {
    /// The product (it must track serial numbers).
    pub product_id: i64,
    /// The production order that made them (its product must be the same).
    pub production_order_id: Option<i64>,
    /// How many units (1-1000, default 1).
    #[graphql(default = 1)]
    pub quantity: i64,
    /// Where they stand (manufactured, the default, or in_stock).
    #[graphql(default_with = "SerialStatus::Manufactured")]
    pub status: SerialStatus,
}

/// Numbers new units; answers their ids.
pub async fn create_serials(
    conn: &mut AsyncPgConnection,
    input: &SerialNumberCreateInput,
) -> Result<Vec<i64>, Stop> {
    if !(1..=MAX_NEW_SERIALS).contains(&input.quantity) {
        return Err(Stop::refuse(
            "quantity",
            UserErrorCode::Invalid,
            format!("Input should be between 1 and {MAX_NEW_SERIALS}"),
        ));
    }
    if !matches!(
        input.status,
        SerialStatus::Manufactured | SerialStatus::InStock
    ) {
        return Err(Stop::refuse(
            "status",
            UserErrorCode::Invalid,
            "New units are manufactured or in_stock",
        ));
    }
    let product: Option<(String, bool)> = items::table
        .find(input.product_id)
        .select((items::sku, items::track_serials))
        .first(conn)
        .await
        .optional()?;
    let Some((sku, tracked)) = product else {
        return Err(missing("productId", "Item"));
    };
    if !tracked {
        return Err(refuse(
            "productId",
            format!("{sku} does not track serial numbers"),
        ));
    }
    if let Some(order_id) = input.production_order_id {
        let order: Option<(String, i64, OrderStatus)> = production_orders::table
            .find(order_id)
            .select((
                production_orders::code,
                production_orders::product_id,
                production_orders::status,
            ))
            .first(conn)
            .await
            .optional()?;
        let Some((code, product_id, status)) = order else {
            return Err(missing("productionOrderId", "Production order"));
        };
        if product_id != input.product_id {
            return Err(Stop::refuse(
                "productionOrderId",
                UserErrorCode::Invalid,
                format!("{code} makes another product"),
            ));
        }
        if matches!(status, OrderStatus::Cancelled | OrderStatus::Draft) {
            return Err(refuse(
                "productionOrderId",
                format!("{code} is {status}; it makes no units"),
            ));
        }
    }
    Ok(crate::operations::production::rules::new_serials(
        conn,
        input.product_id,
        input.production_order_id,
        input.quantity,
        input.status,
    )
    .await?)
}

/// Changes to a finished unit (`PATCH /admin/traceability/serials/{id}`).
#[derive(Debug, Clone, Default, InputObject)]
pub struct SerialNumberUpdateInput {
    /// A new status: manufactured -> in_stock or scrapped; in_stock -> scrapped;
    /// sold or shipped -> returned (with a reason); returned -> in_stock or scrapped.
    pub status: Option<SerialStatus>,
    /// The QC decision (sets the QC date).
    pub qc_passed: Option<bool>,
    /// The inspector's notes.
    pub qc_notes: MaybeUndefined<String>,
    /// The tracking number it shipped under.
    pub tracking_number: MaybeUndefined<String>,
    /// Why it came back (required when it becomes returned).
    pub return_reason: MaybeUndefined<String>,
}

/// Whether a unit may move from one status to another by hand (shipping and production
/// move units along their own way).
pub fn serial_move_allowed(from: SerialStatus, to: SerialStatus) -> bool {
    use SerialStatus as S;
    from == to
        || matches!(
            (from, to),
            (S::Manufactured, S::InStock | S::Scrapped)
                | (S::InStock, S::Scrapped)
                | (S::Sold | S::Shipped, S::Returned)
                | (S::Returned, S::InStock | S::Scrapped)
        )
}

#[derive(AsChangeset, Default)]
#[diesel(table_name = serial_numbers)]
struct SerialChanges {
    status: Option<SerialStatus>,
    qc_passed: Option<bool>,
    qc_date: Option<chrono::DateTime<chrono::Utc>>,
    qc_notes: Option<Option<String>>,
    tracking_number: Option<Option<String>>,
    return_reason: Option<Option<String>>,
    returned_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// Changes a unit under a row lock.
pub async fn update_serial(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: SerialNumberUpdateInput,
) -> Result<(), Stop> {
    let found: Option<(String, SerialStatus, Option<String>)> = serial_numbers::table
        .find(id)
        .select((
            serial_numbers::serial_number,
            serial_numbers::status,
            serial_numbers::return_reason,
        ))
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some((number, from, reason_before)) = found else {
        return Err(Stop::Failed(AppError::not_found("Serial number not found")));
    };
    let mut errors = Vec::new();
    let mut changes = SerialChanges {
        status: input.status,
        qc_passed: input.qc_passed,
        qc_date: input.qc_passed.map(|_| chrono::Utc::now()),
        qc_notes: crate::platform::db::forms::patch(input.qc_notes),
        tracking_number: crate::platform::db::forms::patch(input.tracking_number),
        return_reason: crate::platform::db::forms::patch(input.return_reason),
        returned_at: None,
    };
    text::clearable(&mut errors, "qcNotes", &mut changes.qc_notes, NOTES_MAX);
    text::clearable(
        &mut errors,
        "trackingNumber",
        &mut changes.tracking_number,
        NUMBER_MAX,
    );
    text::clearable(
        &mut errors,
        "returnReason",
        &mut changes.return_reason,
        NOTES_MAX,
    );
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(to) = input.status {
        if !serial_move_allowed(from, to) {
            return Err(refuse(
                "status",
                format!("{number} is {from}; it cannot become {to}"),
            ));
        }
        if to == SerialStatus::Returned && from != SerialStatus::Returned {
            let reason = match &changes.return_reason {
                Some(given) => given.clone(),
                None => reason_before,
            };
            if reason.is_none() {
                return Err(Stop::refuse(
                    "returnReason",
                    UserErrorCode::Invalid,
                    "A returned unit needs a reason",
                ));
            }
            changes.returned_at = Some(chrono::Utc::now());
        }
    }
    match diesel::update(serial_numbers::table.find(id))
        .set(&changes)
        .execute(conn)
        .await
    {
        Err(e) if crate::platform::db::is_empty_update(&e) => Ok(()),
        other => other.map(|_| ()).map_err(Stop::from),
    }
}

/// A lot recorded by hand (`POST /admin/traceability/lots`): opening balances, consigned or
/// customer-supplied material. It records the lot only and posts no stock: receive through
/// a purchase order or an inventory receipt for that.
#[derive(Debug, Clone, InputObject)]
pub struct MaterialLotCreateInput {
    /// The item.
    pub product_id: i64,
    /// The lot number (unique ignoring case); omitted, the next `{MATERIALCODE}-{YYYY}-{NNNN}`.
    pub lot_number: Option<String>,
    /// The vendor (taken from the purchase order when omitted).
    pub vendor_id: Option<i64>,
    /// The purchase order it came on.
    pub purchase_order_id: Option<i64>,
    /// The vendor's own lot number.
    pub vendor_lot_number: Option<String>,
    /// How much, in the item's stocking unit (more than 0).
    pub quantity_received: Decimal,
    /// Received on (default today).
    pub received_date: Option<NaiveDate>,
    /// Expires on (not before the receipt).
    pub expiration_date: Option<NaiveDate>,
    /// Cost per stocking unit (0 or more).
    pub unit_cost: Option<Decimal>,
    /// Where it is.
    pub location_id: Option<i64>,
    /// Where it stands (default active).
    #[graphql(default_with = "LotStatus::Active")]
    pub status: LotStatus,
    /// Its inspection (default pending).
    #[graphql(default_with = "InspectionStatus::Pending")]
    pub inspection_status: InspectionStatus,
    /// Notes.
    pub notes: Option<String>,
}

async fn exists<T>(conn: &mut AsyncPgConnection, query: T) -> Result<bool, Stop>
where
    T: diesel_async::methods::LoadQuery<'static, AsyncPgConnection, i64> + Send + 'static,
{
    Ok(query.get_result::<i64>(conn).await.optional()?.is_some())
}

/// Records a lot; answers its id.
pub async fn create_lot(
    conn: &mut AsyncPgConnection,
    input: MaterialLotCreateInput,
    user: i64,
) -> Result<i64, Stop> {
    let checked = check_new_lot(&input)?;
    let item: Option<String> = items::table
        .find(input.product_id)
        .select(items::sku)
        .first(conn)
        .await
        .optional()?;
    let Some(sku) = item else {
        return Err(missing("productId", "Item"));
    };
    let vendor_id = lot_vendor(conn, input.vendor_id, input.purchase_order_id).await?;
    if let Some(l) = input.location_id
        && !exists(conn, locations::table.find(l).select(locations::id)).await?
    {
        return Err(missing("locationId", "Location"));
    }
    let number = match checked.lot_number {
        Some(given) => {
            if crate::operations::purchasing::rules::lot_taken(conn, &given).await? {
                return Err(Stop::refuse(
                    "lotNumber",
                    UserErrorCode::Taken,
                    format!("Lot number '{given}' already exists"),
                ));
            }
            given
        }
        None => {
            crate::operations::purchasing::rules::next_lot_number(
                conn,
                input.product_id,
                &sku,
                checked.received.year(),
            )
            .await?
        }
    };
    let new = NewLot {
        lot_number: number,
        product_id: input.product_id,
        vendor_id,
        purchase_order_id: input.purchase_order_id,
        purchase_order_line_id: None,
        vendor_lot_number: checked.vendor_lot,
        quantity_received: checked.quantity,
        received_date: checked.received,
        unit_cost: input.unit_cost.map(|c| c.0),
        location_id: input.location_id,
        inventory_transaction_id: None,
        notes: checked.notes,
        created_by: Some(user),
    };
    Ok(diesel::insert_into(material_lots::table)
        .values((
            new,
            material_lots::status.eq(input.status),
            material_lots::inspection_status.eq(input.inspection_status),
            material_lots::expiration_date.eq(input.expiration_date),
        ))
        .returning(material_lots::id)
        .get_result(conn)
        .await?)
}

/// The values of a new lot, checked and trimmed.
struct CheckedLot {
    /// The lot number given (one is generated when there is none).
    lot_number: Option<String>,
    vendor_lot: Option<String>,
    notes: Option<String>,
    quantity: BigDecimal,
    /// Received on (default today).
    received: NaiveDate,
}

/// Checks a new lot's texts, quantity, cost and dates.
fn check_new_lot(input: &MaterialLotCreateInput) -> Result<CheckedLot, Stop> {
    let mut errors = Vec::new();
    let mut lot_number = input.lot_number.clone().map(Some);
    text::clearable(&mut errors, "lotNumber", &mut lot_number, NUMBER_MAX);
    if let Some(Some(n)) = &lot_number
        && let Some(e) = text::hidden_characters("lotNumber", n)
    {
        errors.push(e);
    }
    let mut vendor_lot = input.vendor_lot_number.clone().map(Some);
    text::clearable(&mut errors, "vendorLotNumber", &mut vendor_lot, NUMBER_MAX);
    let mut notes = input.notes.clone().map(Some);
    text::clearable(&mut errors, "notes", &mut notes, NOTES_MAX);
    let quantity = input.quantity_received.0.clone();
    if quantity <= BigDecimal::zero() {
        errors.push(invalid(
            "quantityReceived",
            "Input should be greater than 0",
        ));
    }
    if input
        .unit_cost
        .as_ref()
        .is_some_and(|c| c.0 < BigDecimal::zero())
    {
        errors.push(invalid(
            "unitCost",
            "Input should be greater than or equal to 0",
        ));
    }
    let received = input
        .received_date
        .unwrap_or_else(crate::ledgers::inventory::rules::today);
    if input.expiration_date.is_some_and(|e| e < received) {
        errors.push(invalid(
            "expirationDate",
            "The expiration date is before the receipt",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(CheckedLot {
        lot_number: lot_number.flatten(),
        vendor_lot: vendor_lot.flatten(),
        notes: notes.flatten(),
        quantity,
        received,
    })
}

/// The vendor of a new lot: the purchase order's when one is named (a different vendor
/// given is refused), else the one given; it must exist.
async fn lot_vendor(
    conn: &mut AsyncPgConnection,
    vendor_id: Option<i64>,
    purchase_order_id: Option<i64>,
) -> Result<Option<i64>, Stop> {
    let mut vendor_id = vendor_id;
    if let Some(po) = purchase_order_id {
        let order: Option<(String, i64)> = purchase_orders::table
            .find(po)
            .select((purchase_orders::po_number, purchase_orders::vendor_id))
            .first(conn)
            .await
            .optional()?;
        let Some((number, po_vendor)) = order else {
            return Err(missing("purchaseOrderId", "Purchase order"));
        };
        if vendor_id.is_some_and(|v| v != po_vendor) {
            return Err(Stop::refuse(
                "vendorId",
                UserErrorCode::Invalid,
                format!("{number} is from another vendor"),
            ));
        }
        vendor_id = Some(po_vendor);
    }
    if let Some(v) = vendor_id
        && !exists(conn, vendors::table.find(v).select(vendors::id)).await?
    {
        return Err(missing("vendorId", "Vendor"));
    }
    Ok(vendor_id)
}

/// Changes to a lot (`PATCH /admin/traceability/lots/{id}`). Quantities move only with
/// consumptions and stock postings, never by hand.
#[derive(Debug, Clone, Default, InputObject)]
pub struct MaterialLotUpdateInput {
    /// The vendor's own lot number.
    pub vendor_lot_number: MaybeUndefined<String>,
    /// Where it stands (quarantine or recall it here).
    pub status: Option<LotStatus>,
    /// Its inspection.
    pub inspection_status: Option<InspectionStatus>,
    /// Expires on (not before the receipt).
    pub expiration_date: MaybeUndefined<NaiveDate>,
    /// Where it is.
    pub location_id: MaybeUndefined<i64>,
    /// Notes.
    pub notes: MaybeUndefined<String>,
}

#[derive(AsChangeset, Default)]
#[diesel(table_name = material_lots)]
struct LotChanges {
    vendor_lot_number: Option<Option<String>>,
    status: Option<LotStatus>,
    inspection_status: Option<InspectionStatus>,
    expiration_date: Option<Option<NaiveDate>>,
    location_id: Option<Option<i64>>,
    notes: Option<Option<String>>,
    updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// Changes a lot under a row lock.
pub async fn update_lot(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: MaterialLotUpdateInput,
) -> Result<(), Stop> {
    let found: Option<NaiveDate> = material_lots::table
        .find(id)
        .select(material_lots::received_date)
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some(received) = found else {
        return Err(Stop::Failed(AppError::not_found("Lot not found")));
    };
    let mut changes = LotChanges {
        vendor_lot_number: crate::platform::db::forms::patch(input.vendor_lot_number),
        status: input.status,
        inspection_status: input.inspection_status,
        expiration_date: crate::platform::db::forms::patch(input.expiration_date),
        location_id: crate::platform::db::forms::patch(input.location_id),
        notes: crate::platform::db::forms::patch(input.notes),
        updated_at: Some(chrono::Utc::now()),
    };
    let mut errors = Vec::new();
    text::clearable(
        &mut errors,
        "vendorLotNumber",
        &mut changes.vendor_lot_number,
        NUMBER_MAX,
    );
    text::clearable(&mut errors, "notes", &mut changes.notes, NOTES_MAX);
    if changes
        .expiration_date
        .flatten()
        .is_some_and(|e| e < received)
    {
        errors.push(invalid(
            "expirationDate",
            "The expiration date is before the receipt",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(Some(l)) = changes.location_id
        && !exists(conn, locations::table.find(l).select(locations::id)).await?
    {
        return Err(missing("locationId", "Location"));
    }
    diesel::update(material_lots::table.find(id))
        .set(&changes)
        .execute(conn)
        .await?;
    Ok(())
}

/// The next lot number for an item, handed out once (`POST .../lots/generate-number`).
pub async fn generate_lot_number(
    conn: &mut AsyncPgConnection,
    product_id: i64,
) -> Result<String, Stop> {
    let sku: Option<String> = items::table
        .find(product_id)
        .select(items::sku)
        .first(conn)
        .await
        .optional()?;
    let Some(sku) = sku else {
        return Err(missing("productId", "Item"));
    };
    let year = crate::ledgers::inventory::rules::today().year();
    Ok(crate::operations::purchasing::rules::next_lot_number(conn, product_id, &sku, year).await?)
}

/// Material a production order drew from a lot (`POST /admin/traceability/consumptions`).
/// It records the genealogy and the lot's consumed quantity; the stock itself moves with the
/// production order's issue.
#[derive(Debug, Clone, InputObject)]
pub struct LotConsumptionInput {
    /// The production order.
    pub production_order_id: i64,
    /// The lot.
    pub material_lot_id: i64,
    /// How much, in the lot's stocking unit (more than 0, at most what is left).
    pub quantity_consumed: Decimal,
    /// The unit it went into (one of the order's).
    pub serial_number_id: Option<i64>,
    /// The BOM line it filled (its component must be the lot's item).
    pub bom_line_id: Option<i64>,
    /// Notes.
    pub notes: Option<String>,
}

/// Records a consumption under a lock on the lot: the lot must be active and not failed in
/// inspection, the quantity at most what is left; a lot drawn to nothing becomes depleted.
pub async fn record_consumption(
    conn: &mut AsyncPgConnection,
    input: LotConsumptionInput,
    user: i64,
) -> Result<ConsumptionRow, Stop> {
    let quantity = input.quantity_consumed.0.clone();
    if quantity <= BigDecimal::zero() {
        return Err(Stop::refuse(
            "quantityConsumed",
            UserErrorCode::Invalid,
            "Input should be greater than 0",
        ));
    }
    let mut notes = input.notes.clone().map(Some);
    let mut errors = Vec::new();
    text::clearable(&mut errors, "notes", &mut notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let lot = lock_consumable_lot(conn, input.material_lot_id).await?;
    check_consumer(conn, &input, &lot).await?;
    let left = lot.left;
    let number = lot.number;
    if quantity > left {
        return Err(refuse(
            "quantityConsumed",
            format!("Only {} left in lot {number}", left.normalized()),
        ));
    }
    let depleted = quantity == left;
    diesel::update(material_lots::table.find(input.material_lot_id))
        .set((
            material_lots::quantity_consumed.eq(material_lots::quantity_consumed + &quantity),
            material_lots::updated_at.eq(chrono::Utc::now()),
        ))
        .execute(conn)
        .await?;
    if depleted {
        diesel::update(material_lots::table.find(input.material_lot_id))
            .set(material_lots::status.eq(LotStatus::Depleted))
            .execute(conn)
            .await?;
    }
    Ok(records::insert_consumption(
        conn,
        &NewConsumption {
            production_order_id: input.production_order_id,
            material_lot_id: input.material_lot_id,
            serial_number_id: input.serial_number_id,
            bom_line_id: input.bom_line_id,
            quantity_consumed: quantity,
            notes: notes.flatten(),
            created_by: Some(user),
        },
    )
    .await?)
}

/// A lot locked for a consumption.
struct ConsumableLot {
    /// Its lot number.
    number: String,
    /// Its item.
    product_id: i64,
    /// What is left: received - consumed - scrapped + adjusted.
    left: BigDecimal,
}

/// Locks a lot and refuses one that is not active or failed inspection.
async fn lock_consumable_lot(
    conn: &mut AsyncPgConnection,
    lot_id: i64,
) -> Result<ConsumableLot, Stop> {
    type LotFacts = (
        String,
        i64,
        LotStatus,
        InspectionStatus,
        BigDecimal,
        BigDecimal,
        BigDecimal,
        BigDecimal,
    );
    let lot: Option<LotFacts> = material_lots::table
        .find(lot_id)
        .select((
            material_lots::lot_number,
            material_lots::product_id,
            material_lots::status,
            material_lots::inspection_status,
            material_lots::quantity_received,
            material_lots::quantity_consumed,
            material_lots::quantity_scrapped,
            material_lots::quantity_adjusted,
        ))
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some((number, product_id, status, inspection, received, consumed, scrapped, adjusted)) =
        lot
    else {
        return Err(missing("materialLotId", "Lot"));
    };
    if status != LotStatus::Active {
        return Err(refuse(
            "materialLotId",
            format!("Lot {number} is {status}; it cannot be consumed"),
        ));
    }
    if inspection == InspectionStatus::Failed {
        return Err(refuse(
            "materialLotId",
            format!("Lot {number} failed inspection; it cannot be consumed"),
        ));
    }
    Ok(ConsumableLot {
        number,
        product_id,
        left: received - consumed - scrapped + adjusted,
    })
}

/// Checks what a consumption names: a production order that consumes (not draft or
/// cancelled), one of its units, and a BOM line for the lot's item.
async fn check_consumer(
    conn: &mut AsyncPgConnection,
    input: &LotConsumptionInput,
    lot: &ConsumableLot,
) -> Result<(), Stop> {
    let order: Option<(String, OrderStatus)> = production_orders::table
        .find(input.production_order_id)
        .select((production_orders::code, production_orders::status))
        .first(conn)
        .await
        .optional()?;
    let Some((code, order_status)) = order else {
        return Err(missing("productionOrderId", "Production order"));
    };
    if matches!(order_status, OrderStatus::Cancelled | OrderStatus::Draft) {
        return Err(refuse(
            "productionOrderId",
            format!("{code} is {order_status}; it consumes nothing"),
        ));
    }
    if let Some(serial) = input.serial_number_id {
        let of: Option<Option<i64>> = serial_numbers::table
            .find(serial)
            .select(serial_numbers::production_order_id)
            .first(conn)
            .await
            .optional()?;
        match of {
            None => return Err(missing("serialNumberId", "Serial number")),
            Some(o) if o != Some(input.production_order_id) => {
                return Err(Stop::refuse(
                    "serialNumberId",
                    UserErrorCode::Invalid,
                    format!("That unit was not made by {code}"),
                ));
            }
            Some(_) => {}
        }
    }
    if let Some(line) = input.bom_line_id {
        let component: Option<i64> = bom_lines::table
            .find(line)
            .select(bom_lines::component_id)
            .first(conn)
            .await
            .optional()?;
        match component {
            None => return Err(missing("bomLineId", "BOM line")),
            Some(c) if c != lot.product_id => {
                return Err(Stop::refuse(
                    "bomLineId",
                    UserErrorCode::Invalid,
                    format!(
                        "That BOM line is for another component than lot {}",
                        lot.number
                    ),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}
