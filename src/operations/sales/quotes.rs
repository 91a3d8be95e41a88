//! Quotes `Q-YYYY-NNNN` (CONTRACT 5.3, 6.4): the row (its GraphQL object), the queries, and
//! the rules: totals with the company's tax unless told otherwise, the status changes, the
//! computed `expired`, and converting an approved or accepted quote to a sales order.

use async_graphql::{ComplexObject, InputObject, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use chrono::{Duration, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::cents;
use crate::ledgers::inventory::rules::{NOTES_MAX, optional_text};
use crate::operations::sales::model::{
    self as sales, NewLine, RushLevel, SalesEventType, SalesOrderSource, SalesOrderType,
};
use crate::operations::sales::rules::{
    NewOrder, SHORT_MAX, TaxQuestion, customer_facts, event, invalid, line_total, next_number,
    not_allowed, now, resolve_tax, totals,
};
use crate::platform::db::like_pattern;
use crate::platform::db::paging;
use crate::platform::db::schema::{items, quotes, sales_order_lines, sales_orders};
use crate::platform::error::AppResult;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

crate::text_enum! {
    /// Where a quote stands (CONTRACT 6.4).
    pub enum QuoteStatus {
        /// Waiting for a decision (the default).
        Pending,
        /// Approved by staff.
        Approved,
        /// Rejected.
        Rejected,
        /// Accepted by the customer.
        Accepted,
        /// Called off.
        Cancelled,
        /// Turned into a sales order.
        Converted,
    }
}

/// A quote.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = quotes, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Quote", complex)]
pub struct QuoteRow {
    /// Id.
    pub id: i64,
    /// `Q-YYYY-NNNN`.
    pub quote_number: String,
    /// Who wrote it.
    pub user_id: Option<i64>,
    /// The product, when it is one of ours.
    pub product_id: Option<i64>,
    /// What is quoted.
    pub product_name: String,
    /// Details.
    pub description: Option<String>,
    /// Units.
    pub quantity: i32,
    /// Price per unit.
    pub unit_price: Decimal,
    /// quantity x unit price.
    pub subtotal: Decimal,
    /// Tax rate applied (a fraction).
    pub tax_rate: Decimal,
    /// Tax.
    pub tax_amount: Decimal,
    /// Shipping.
    pub shipping_cost: Decimal,
    /// subtotal + tax + shipping.
    pub total_price: Decimal,
    /// Where it stands.
    pub status: QuoteStatus,
    /// The customer.
    pub customer_id: Option<i64>,
    /// The customer's name.
    pub customer_name: Option<String>,
    /// The customer's e-mail.
    pub customer_email: Option<String>,
    /// Material.
    pub material_type: String,
    /// Color.
    pub color: Option<String>,
    /// The customer's notes.
    pub customer_notes: Option<String>,
    /// Staff notes.
    pub admin_notes: Option<String>,
    /// Why it was rejected.
    pub rejection_reason: Option<String>,
    /// Ship to.
    pub shipping_name: Option<String>,
    /// Ship to.
    pub shipping_address_line1: Option<String>,
    /// Ship to.
    pub shipping_address_line2: Option<String>,
    /// Ship to.
    pub shipping_city: Option<String>,
    /// Ship to.
    pub shipping_state: Option<String>,
    /// Ship to.
    pub shipping_zip: Option<String>,
    /// Ship to.
    pub shipping_country: Option<String>,
    /// Ship to.
    pub shipping_phone: Option<String>,
    /// When it stops being valid.
    pub expires_at: Timestamp,
    /// When it was approved.
    pub approved_at: Option<Timestamp>,
    /// Who approved it.
    pub approved_by: Option<i64>,
    /// How it was approved (`manual`).
    pub approval_method: Option<String>,
    /// When it was converted.
    pub converted_at: Option<Timestamp>,
    /// The order it became.
    pub sales_order_id: Option<i64>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
    /// The stored image's generated name under `UPLOADS_DIR/quotes/` (served by
    /// `GET /quotes/{id}/image`, never exposed as a path).
    #[graphql(skip)]
    pub image_filename: Option<String>,
    /// The named tax rate charged.
    pub tax_rate_id: Option<i64>,
    /// What the tax is called on the quote ("Tax exempt (...)", the rate's name).
    pub tax_rate_name: Option<String>,
}

#[ComplexObject]
impl QuoteRow {
    /// Pending or approved and past its expiry (computed, never stored).
    async fn expired(&self) -> bool {
        is_expired(self)
    }

    /// Whether a picture of the part is attached (`GET /quotes/{id}/image`).
    async fn has_image(&self) -> bool {
        self.image_filename.is_some()
    }
}

/// Pending or approved and past `expires_at`.
pub fn is_expired(q: &QuoteRow) -> bool {
    matches!(q.status, QuoteStatus::Pending | QuoteStatus::Approved) && q.expires_at.0 < Utc::now()
}

/// A quote written by staff (`POST /quotes/`).
#[derive(Debug, Clone, InputObject)]
pub struct QuoteCreateInput {
    /// The product, when it is one of ours.
    pub product_id: Option<i64>,
    /// What is quoted.
    pub product_name: String,
    /// Details.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub description: Option<String>,
    /// Units (1 to 10000, default 1).
    pub quantity: Option<i32>,
    /// Price per unit (>= 0).
    pub unit_price: Decimal,
    /// The customer.
    pub customer_id: Option<i64>,
    /// The customer's name.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub customer_name: Option<String>,
    /// The customer's e-mail.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub customer_email: Option<String>,
    /// Material (default PLA).
    pub material_type: Option<String>,
    /// Color.
    pub color: Option<String>,
    /// Charge tax (null: as the customer, region, default rate and company settings say;
    /// false: none).
    pub apply_tax: Option<bool>,
    /// The tax rate to charge (overrides the lookup; a tax exempt customer still pays none).
    pub tax_rate_id: Option<i64>,
    /// Shipping (default 0).
    pub shipping_cost: Option<Decimal>,
    /// The customer's notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub customer_notes: Option<String>,
    /// Staff notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub admin_notes: Option<String>,
    /// Days it stays valid (1 to 365, default 30).
    pub valid_days: Option<i32>,
}

/// Changes to a quote (not once converted): omitted fields keep their value.
#[derive(Debug, Clone, Default, InputObject)]
pub struct QuoteUpdateInput {
    /// What is quoted.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub product_name: Option<String>,
    /// Details.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub description: Option<String>,
    /// Units.
    pub quantity: Option<i32>,
    /// Price per unit.
    pub unit_price: Option<Decimal>,
    /// Shipping.
    pub shipping_cost: Option<Decimal>,
    /// Color.
    pub color: Option<String>,
    /// The customer's notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub customer_notes: Option<String>,
    /// Staff notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub admin_notes: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_name: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_address_line1: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_address_line2: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_city: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_state: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_zip: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_country: Option<String>,
    /// Ship to.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub shipping_phone: Option<String>,
}

/// A status change (`PATCH /quotes/{id}/status`).
#[derive(Debug, Clone, InputObject)]
pub struct QuoteStatusInput {
    /// pending, approved, rejected, accepted or cancelled.
    pub status: QuoteStatus,
    /// Why it was rejected.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub rejection_reason: Option<String>,
    /// Staff notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub admin_notes: Option<String>,
}

/// What converting did.
#[derive(Debug, Clone, SimpleObject)]
pub struct QuoteConversion {
    /// `Quote converted to order SO-...`.
    pub message: String,
    /// The new order's id.
    pub order_id: i64,
    /// Its number.
    pub order_number: String,
}

/// Quote figures (`GET /quotes/stats`).
#[derive(Debug, Clone, SimpleObject)]
pub struct QuoteStats {
    /// Quotes.
    pub total: i64,
    /// Pending.
    pub pending: i64,
    /// Approved.
    pub approved: i64,
    /// Accepted.
    pub accepted: i64,
    /// Rejected.
    pub rejected: i64,
    /// Converted.
    pub converted: i64,
    /// Pending or approved past their expiry.
    pub expired: i64,
    /// Sum of every total.
    pub total_value: Decimal,
    /// Sum of the pending totals.
    pub pending_value: Decimal,
}

/// A page of quotes, newest first.
pub async fn list(
    conn: &mut AsyncPgConnection,
    status: Option<QuoteStatus>,
    search: Option<&str>,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<QuoteRow>, i64)> {
    let build = || {
        let mut q = quotes::table
            .select((QuoteRow::as_select(), paging::total_count()))
            .into_boxed();
        if let Some(s) = status {
            q = q.filter(quotes::status.eq(s));
        }
        if let Some(s) = search.map(str::trim).filter(|s| !s.is_empty()) {
            let p = like_pattern(s);
            q = q.filter(
                quotes::quote_number
                    .ilike(p.clone())
                    .or(quotes::product_name.ilike(p.clone()))
                    .or(quotes::customer_name.ilike(p.clone()))
                    .or(quotes::customer_email.ilike(p)),
            );
        }
        q.order((quotes::created_at.desc(), quotes::id.desc()))
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The quote with this id, or a 404 `Quote not found`.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<QuoteRow> {
    paging::find_or_404(
        conn,
        quotes::table.find(id).select(QuoteRow::as_select()),
        "Quote not found",
    )
    .await
}

async fn locked(conn: &mut AsyncPgConnection, id: i64) -> Result<QuoteRow, Stop> {
    quotes::table
        .find(id)
        .select(QuoteRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Quote not found"))
}

fn check_amounts(
    errors: &mut Vec<crate::platform::graphql::user_error::UserError>,
    quantity: i32,
    price: &BigDecimal,
    shipping: &BigDecimal,
) {
    if !(1..=10_000).contains(&quantity) {
        errors.push(invalid("quantity", "Input should be between 1 and 10000"));
    }
    if *price < BigDecimal::zero() {
        errors.push(invalid(
            "unitPrice",
            "Input should be greater than or equal to 0",
        ));
    }
    if *shipping < BigDecimal::zero() {
        errors.push(invalid(
            "shippingCost",
            "Input should be greater than or equal to 0",
        ));
    }
}

/// Creates a `pending` quote `Q-YYYY-NNNN`.
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: QuoteCreateInput,
    user: i64,
) -> Result<QuoteRow, Stop> {
    let mut errors = Vec::new();
    let quantity = input.quantity.unwrap_or(1);
    let shipping = input
        .shipping_cost
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or_default();
    check_amounts(&mut errors, quantity, &input.unit_price.0, &shipping);
    let name = input.product_name.trim().to_string();
    if name.is_empty() {
        errors.push(invalid("productName", "Field required"));
    } else if name.chars().count() > SHORT_MAX {
        errors.push(invalid(
            "productName",
            format!("String should have at most {SHORT_MAX} characters"),
        ));
    }
    let days = input.valid_days.unwrap_or(30);
    if !(1..=365).contains(&days) {
        errors.push(invalid("validDays", "Input should be between 1 and 365"));
    }
    for (field, value, max) in [
        ("description", &mut input.description, NOTES_MAX),
        ("customerName", &mut input.customer_name, SHORT_MAX),
        ("customerEmail", &mut input.customer_email, SHORT_MAX),
        ("materialType", &mut input.material_type, 50),
        ("color", &mut input.color, 50),
        ("customerNotes", &mut input.customer_notes, NOTES_MAX),
        ("adminNotes", &mut input.admin_notes, NOTES_MAX),
    ] {
        optional_text(&mut errors, field, value, max);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(p) = input.product_id {
        let found: i64 = items::table
            .filter(items::id.eq(p))
            .count()
            .get_result(conn)
            .await?;
        if found == 0 {
            return Err(Stop::refuse(
                "productId",
                UserErrorCode::NotFound,
                format!("Product ID {p} not found"),
            ));
        }
    }
    let customer = customer_facts(conn, input.customer_id, None).await?;
    let tax = resolve_tax(
        conn,
        TaxQuestion {
            customer_id: customer.id,
            region: customer.address[3].as_deref(),
            chosen: input.tax_rate_id,
            apply: input.apply_tax,
        },
    )
    .await?;
    let rate = tax.rate.clone();
    let price = cents(&input.unit_price.0);
    let t = totals(
        &[line_total(quantity, &price, &BigDecimal::zero())],
        &shipping,
        &rate,
    );
    let number = next_number(conn, "quote_seq", "Q").await?;
    let [a1, a2, city, state, zip, country] = customer.address.clone();
    let row = diesel::insert_into(quotes::table)
        .values((
            quotes::quote_number.eq(number),
            quotes::user_id.eq(Some(user)),
            quotes::product_id.eq(input.product_id),
            quotes::product_name.eq(name),
            quotes::description.eq(input.description),
            quotes::quantity.eq(quantity),
            quotes::unit_price.eq(price),
            quotes::subtotal.eq(t.subtotal),
            quotes::tax_rate.eq(t.tax_rate),
            quotes::tax_amount.eq(t.tax_amount),
            quotes::tax_rate_id.eq(tax.tax_rate_id),
            quotes::tax_rate_name.eq(tax.name),
            quotes::shipping_cost.eq(t.shipping_cost),
            quotes::total_price.eq(t.grand_total),
            quotes::customer_id.eq(customer.id),
            quotes::customer_name.eq(input.customer_name.or(customer.name)),
            quotes::customer_email.eq(input.customer_email.or(customer.email)),
            quotes::material_type.eq(input.material_type.unwrap_or_else(|| "PLA".into())),
            quotes::color.eq(input.color),
            quotes::customer_notes.eq(input.customer_notes),
            quotes::admin_notes.eq(input.admin_notes),
            quotes::shipping_address_line1.eq(a1),
            quotes::shipping_address_line2.eq(a2),
            quotes::shipping_city.eq(city),
            quotes::shipping_state.eq(state),
            quotes::shipping_zip.eq(zip),
            quotes::shipping_country.eq(country),
            quotes::expires_at.eq(now() + Duration::days(days.into())),
        ))
        .returning(QuoteRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// Changes a quote (a converted quote refuses with 400); the totals follow.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: QuoteUpdateInput,
) -> Result<QuoteRow, Stop> {
    let q = locked(conn, id).await?;
    if q.status == QuoteStatus::Converted {
        return Err(not_allowed("Cannot edit a converted quote"));
    }
    let mut errors = Vec::new();
    let quantity = input.quantity.unwrap_or(q.quantity);
    let price = input
        .unit_price
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or(q.unit_price.0.clone());
    let shipping = input
        .shipping_cost
        .as_ref()
        .map(|d| d.0.clone())
        .unwrap_or(q.shipping_cost.0.clone());
    check_amounts(&mut errors, quantity, &price, &shipping);
    for (field, value, max) in [
        ("productName", &mut input.product_name, SHORT_MAX),
        ("description", &mut input.description, NOTES_MAX),
        ("color", &mut input.color, 50),
        ("customerNotes", &mut input.customer_notes, NOTES_MAX),
        ("adminNotes", &mut input.admin_notes, NOTES_MAX),
        ("shippingName", &mut input.shipping_name, SHORT_MAX),
        (
            "shippingAddressLine1",
            &mut input.shipping_address_line1,
            SHORT_MAX,
        ),
        (
            "shippingAddressLine2",
            &mut input.shipping_address_line2,
            SHORT_MAX,
        ),
        ("shippingCity", &mut input.shipping_city, SHORT_MAX),
        ("shippingState", &mut input.shipping_state, SHORT_MAX),
        ("shippingZip", &mut input.shipping_zip, SHORT_MAX),
        ("shippingCountry", &mut input.shipping_country, SHORT_MAX),
        ("shippingPhone", &mut input.shipping_phone, SHORT_MAX),
    ] {
        optional_text(&mut errors, field, value, max);
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let price = cents(&price);
    let t = totals(
        &[line_total(quantity, &price, &BigDecimal::zero())],
        &shipping,
        &q.tax_rate.0,
    );
    let keep = |new: Option<String>, old: &Option<String>| new.or_else(|| old.clone());
    let row = diesel::update(quotes::table.find(id))
        .set((
            quotes::product_name.eq(input.product_name.unwrap_or(q.product_name.clone())),
            quotes::description.eq(keep(input.description, &q.description)),
            quotes::quantity.eq(quantity),
            quotes::unit_price.eq(price),
            quotes::subtotal.eq(t.subtotal),
            quotes::tax_amount.eq(t.tax_amount),
            quotes::shipping_cost.eq(t.shipping_cost),
            quotes::total_price.eq(t.grand_total),
            quotes::color.eq(keep(input.color, &q.color)),
            quotes::customer_notes.eq(keep(input.customer_notes, &q.customer_notes)),
            quotes::admin_notes.eq(keep(input.admin_notes, &q.admin_notes)),
            quotes::shipping_name.eq(keep(input.shipping_name, &q.shipping_name)),
            (
                quotes::shipping_address_line1.eq(keep(
                    input.shipping_address_line1,
                    &q.shipping_address_line1,
                )),
                quotes::shipping_address_line2.eq(keep(
                    input.shipping_address_line2,
                    &q.shipping_address_line2,
                )),
                quotes::shipping_city.eq(keep(input.shipping_city, &q.shipping_city)),
                quotes::shipping_state.eq(keep(input.shipping_state, &q.shipping_state)),
                quotes::shipping_zip.eq(keep(input.shipping_zip, &q.shipping_zip)),
                quotes::shipping_country.eq(keep(input.shipping_country, &q.shipping_country)),
                quotes::shipping_phone.eq(keep(input.shipping_phone, &q.shipping_phone)),
                quotes::updated_at.eq(now()),
            ),
        ))
        .returning(QuoteRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// Changes a quote's status (a converted quote refuses: `Cannot change status of a converted
/// quote`; `converted` is set only by converting). `approved` records who and when.
pub async fn change_status(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: QuoteStatusInput,
    user: i64,
) -> Result<QuoteRow, Stop> {
    let mut errors = Vec::new();
    if input.status == QuoteStatus::Converted {
        errors.push(invalid(
            "status",
            "Input should be 'pending', 'approved', 'rejected', 'accepted' or 'cancelled'",
        ));
    }
    optional_text(
        &mut errors,
        "rejectionReason",
        &mut input.rejection_reason,
        NOTES_MAX,
    );
    optional_text(&mut errors, "adminNotes", &mut input.admin_notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let q = locked(conn, id).await?;
    if q.status == QuoteStatus::Converted {
        return Err(not_allowed("Cannot change status of a converted quote"));
    }
    let approved = input.status == QuoteStatus::Approved;
    let row = diesel::update(quotes::table.find(id))
        .set((
            quotes::status.eq(input.status),
            quotes::rejection_reason.eq(input.rejection_reason.or(q.rejection_reason.clone())),
            quotes::admin_notes.eq(input.admin_notes.or(q.admin_notes.clone())),
            quotes::approved_at.eq(if approved {
                Some(now())
            } else {
                q.approved_at.as_ref().map(|t| t.0)
            }),
            quotes::approved_by.eq(if approved { Some(user) } else { q.approved_by }),
            quotes::approval_method.eq(if approved {
                Some("manual".to_string())
            } else {
                q.approval_method.clone()
            }),
            quotes::updated_at.eq(now()),
        ))
        .returning(QuoteRow::as_returning())
        .get_result(conn)
        .await?;
    Ok(row)
}

/// Converts an approved or accepted quote into a `pending` quote-based sales order (with one
/// line when the quote names a product); the quote becomes `converted`.
pub async fn convert(
    conn: &mut AsyncPgConnection,
    id: i64,
    user: i64,
) -> Result<QuoteConversion, Stop> {
    let q = locked(conn, id).await?;
    if !matches!(q.status, QuoteStatus::Approved | QuoteStatus::Accepted) {
        return Err(not_allowed(format!(
            "Quote must be approved or accepted before converting (status is '{}')",
            q.status
        )));
    }
    if is_expired(&q) {
        return Err(not_allowed("Quote has expired"));
    }
    let number = next_number(conn, "sales_order_seq", "SO").await?;
    let order_id: i64 = diesel::insert_into(sales_orders::table)
        .values(NewOrder {
            order_number: number.clone(),
            user_id: Some(user),
            customer_id: q.customer_id,
            quote_id: Some(q.id),
            order_type: SalesOrderType::QuoteBased,
            source: SalesOrderSource::Manual,
            source_order_id: None,
            rush_level: RushLevel::Standard,
            product_name: Some(format!("{} x{}", q.product_name, q.quantity)),
            customer_name: q.customer_name.clone(),
            customer_email: q.customer_email.clone(),
            customer_phone: q.shipping_phone.clone(),
            subtotal: q.subtotal.0.clone(),
            tax_rate: q.tax_rate.0.clone(),
            tax_amount: q.tax_amount.0.clone(),
            tax_rate_id: q.tax_rate_id,
            tax_rate_name: q.tax_rate_name.clone(),
            shipping_cost: q.shipping_cost.0.clone(),
            grand_total: q.total_price.0.clone(),
            shipping_address_line1: q.shipping_address_line1.clone(),
            shipping_address_line2: q.shipping_address_line2.clone(),
            shipping_city: q.shipping_city.clone(),
            shipping_state: q.shipping_state.clone(),
            shipping_zip: q.shipping_zip.clone(),
            shipping_country: q.shipping_country.clone().or_else(|| Some("USA".into())),
            customer_notes: q.customer_notes.clone(),
            internal_notes: None,
            due_date: None,
            created_at: None,
        })
        .returning(sales_orders::id)
        .get_result(conn)
        .await?;
    if let Some(product) = q.product_id {
        diesel::insert_into(sales_order_lines::table)
            .values(NewLine {
                sales_order_id: order_id,
                line_number: 1,
                product_id: product,
                quantity: q.quantity,
                unit_price: q.unit_price.0.clone(),
                total: q.subtotal.0.clone(),
                notes: None,
                list_price: None,
                price_level_name: None,
            })
            .execute(conn)
            .await?;
    }
    event(
        conn,
        order_id,
        SalesEventType::Created,
        "Order Created",
        Some(format!("Converted from quote {}", q.quote_number)),
        None,
        Some(user),
    )
    .await?;
    diesel::update(quotes::table.find(id))
        .set((
            quotes::status.eq(QuoteStatus::Converted),
            quotes::converted_at.eq(Some(now())),
            quotes::sales_order_id.eq(Some(order_id)),
        ))
        .execute(conn)
        .await?;
    sales::find(conn, order_id).await?;
    Ok(QuoteConversion {
        message: format!("Quote converted to order {number}"),
        order_id,
        order_number: number,
    })
}

/// Deletes a quote that was not converted.
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> Result<QuoteRow, Stop> {
    let q = locked(conn, id).await?;
    if q.status == QuoteStatus::Converted {
        return Err(not_allowed("Cannot delete a converted quote"));
    }
    diesel::delete(quotes::table.find(id)).execute(conn).await?;
    Ok(q)
}

/// Quote figures, from one pass over the quotes' statuses and totals.
pub async fn stats(conn: &mut AsyncPgConnection) -> AppResult<QuoteStats> {
    let rows: Vec<(QuoteStatus, BigDecimal, chrono::DateTime<Utc>)> = quotes::table
        .select((quotes::status, quotes::total_price, quotes::expires_at))
        .load(conn)
        .await?;
    let at = Utc::now();
    let count = |s: QuoteStatus| rows.iter().filter(|r| r.0 == s).count() as i64;
    Ok(QuoteStats {
        total: rows.len() as i64,
        pending: count(QuoteStatus::Pending),
        approved: count(QuoteStatus::Approved),
        accepted: count(QuoteStatus::Accepted),
        rejected: count(QuoteStatus::Rejected),
        converted: count(QuoteStatus::Converted),
        expired: rows
            .iter()
            .filter(|r| matches!(r.0, QuoteStatus::Pending | QuoteStatus::Approved) && r.2 < at)
            .count() as i64,
        total_value: Decimal(
            rows.iter()
                .fold(BigDecimal::zero(), |a, r| a + &r.1)
                .with_scale(2),
        ),
        pending_value: Decimal(
            rows.iter()
                .filter(|r| r.0 == QuoteStatus::Pending)
                .fold(BigDecimal::zero(), |a, r| a + &r.1)
                .with_scale(2),
        ),
    })
}
