//! Vendors and customers in the schema: the types, the Query and Mutation fields and their
//! guards. The rules live in [`vendor`] and [`customer`], the CSV import in
//! [`import`](crate::master_data::partners::import); this file only translates.

use async_graphql::{Context, Object, SimpleObject, Upload};

use crate::master_data::partners::model::{
    self, CustomerFilter, CustomerRow, OrderStats, VendorFilter, VendorRow,
};
use crate::master_data::partners::{customer, import, vendor};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::UserError;

pub use crate::master_data::partners::customer::{
    CustomerCreateInput, CustomerStatus, CustomerUpdateInput,
};
pub use crate::master_data::partners::model::{VendorCreateInput, VendorUpdateInput};

/// Largest vendor page (CONTRACT 5.14: `limit` up to 500).
pub const MAX_VENDOR_PAGE: i64 = 500;
/// Largest customer page (CONTRACT 5.5: `limit` up to 200).
pub const MAX_CUSTOMER_PAGE: i64 = 200;

// ------------------------------------------------------------------------------ vendors

/// A supplier of materials and parts (spec 2.5).
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct Vendor {
    /// Id.
    pub id: i64,
    /// Code (`VND-001` unless typed; upper case, unique ignoring case).
    pub code: String,
    /// Name.
    pub name: String,
    /// E-mail (lower case).
    pub email: Option<String>,
    /// Contact person.
    pub contact_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Web site.
    pub website: Option<String>,
    /// The whole address as one text: street lines, then `city, state postal code`, then
    /// country, one per line (spec 2.5's `address`).
    pub address: Option<String>,
    /// Street address.
    pub address_line1: Option<String>,
    /// Second address line.
    pub address_line2: Option<String>,
    /// City.
    pub city: Option<String>,
    /// State or province.
    pub state: Option<String>,
    /// Postal code.
    pub postal_code: Option<String>,
    /// Country.
    pub country: Option<String>,
    /// Payment terms, free text such as `Net 30`.
    pub payment_terms: Option<String>,
    /// Our account number with the vendor.
    pub account_number: Option<String>,
    /// The vendor's tax id.
    pub tax_id: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Usual days from order to receipt.
    pub lead_time_days: Option<i32>,
    /// Rating from 1 (poor) to 5 (excellent).
    pub rating: Option<i32>,
    /// Whether new purchase orders may use it.
    pub is_active: bool,
    /// Purchase orders placed with the vendor.
    pub po_count: i64,
    /// Created.
    pub created_at: Timestamp,
    /// Last changed.
    pub updated_at: Timestamp,
}

fn join_address(r: &VendorRow) -> Option<String> {
    let place = [
        r.city.as_deref(),
        [r.state.as_deref(), r.postal_code.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
            .as_str()
            .into(),
    ]
    .into_iter()
    .flatten()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(", ");
    let lines: Vec<&str> = [
        r.address_line1.as_deref(),
        r.address_line2.as_deref(),
        Some(place.as_str()),
        r.country.as_deref(),
    ]
    .into_iter()
    .flatten()
    .filter(|s| !s.is_empty())
    .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

impl Vendor {
    /// The GraphQL view of a row with its purchase-order count.
    pub fn from_row(r: VendorRow, po_count: i64) -> Vendor {
        Vendor {
            address: join_address(&r),
            id: r.id,
            code: r.code,
            name: r.name,
            email: r.email,
            contact_name: r.contact_name,
            phone: r.phone,
            website: r.website,
            address_line1: r.address_line1,
            address_line2: r.address_line2,
            city: r.city,
            state: r.state,
            postal_code: r.postal_code,
            country: r.country,
            payment_terms: r.payment_terms,
            account_number: r.account_number,
            tax_id: r.tax_id,
            notes: r.notes,
            lead_time_days: r.lead_time_days,
            rating: r.rating,
            is_active: r.is_active,
            po_count,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// Rows with their purchase-order counts, looked up once for the whole list.
async fn vendors_with_counts(
    conn: &mut diesel_async::AsyncPgConnection,
    rows: Vec<VendorRow>,
) -> AppResult<Vec<Vendor>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let counts = model::purchase_order_counts(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let n = counts.get(&r.id).copied().unwrap_or(0);
            Vendor::from_row(r, n)
        })
        .collect())
}

/// The result of a vendor change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VendorPayload {
    /// The vendor after the change (for a delete: as it was, or deactivated).
    pub vendor: Option<Vendor>,
    /// What happened (delete: `Vendor VND-001 deleted` or `... deactivated (has N POs)`).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl VendorPayload {
    fn of(result: Result<VendorRow, Vec<UserError>>) -> VendorPayload {
        match result {
            Ok(row) => VendorPayload {
                vendor: Some(Vendor::from_row(row, 0)),
                ..Default::default()
            },
            Err(user_errors) => VendorPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

crate::connection!(
    /// A page of vendors.
    VendorConnection,
    Vendor
);

// ---------------------------------------------------------------------------- customers

/// A customer (spec 2.6). Customers are their own records, not users: they never sign in.
#[derive(Debug, Clone, SimpleObject)]
pub struct Customer {
    /// Id.
    pub id: i64,
    /// Number (`CUST-000001`).
    pub customer_number: String,
    /// E-mail (lower case, unique ignoring case).
    pub email: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
    /// Given and family name.
    pub full_name: String,
    /// Whether the customer may be sold to.
    pub status: CustomerStatus,
    /// Company.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Billing street address.
    pub billing_address_line1: Option<String>,
    /// Billing second line.
    pub billing_address_line2: Option<String>,
    /// Billing city.
    pub billing_city: Option<String>,
    /// Billing state.
    pub billing_state: Option<String>,
    /// Billing postal code.
    pub billing_zip: Option<String>,
    /// Billing country.
    pub billing_country: Option<String>,
    /// Shipping street address.
    pub shipping_address_line1: Option<String>,
    /// Shipping second line.
    pub shipping_address_line2: Option<String>,
    /// Shipping city.
    pub shipping_city: Option<String>,
    /// Shipping state.
    pub shipping_state: Option<String>,
    /// Shipping postal code.
    pub shipping_zip: Option<String>,
    /// Shipping country.
    pub shipping_country: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Sales orders placed (0 until sales exists).
    pub order_count: i64,
    /// Quotes (0 until sales exists).
    pub quote_count: i64,
    /// Sum of the order totals.
    pub total_spent: Decimal,
    /// Paid on its orders (completed payments less refunds; cancelled orders left out).
    pub total_paid: Decimal,
    /// Still owed on its orders: each order's total less what is paid on it, never below
    /// 0 (cancelled orders left out).
    pub outstanding_balance: Decimal,
    /// How the customer pays.
    pub payment_terms: crate::master_data::partners::model::PaymentTerms,
    /// The most it may owe on open orders (none: no cap).
    pub credit_limit: Option<Decimal>,
    /// An admin approved it for net terms.
    pub approved_for_terms: bool,
    /// When.
    pub approved_for_terms_at: Option<Timestamp>,
    /// By whom (a user id).
    pub approved_for_terms_by: Option<i64>,
    /// Exempt from sales tax.
    pub tax_exempt: bool,
    /// The exemption certificate's number.
    pub tax_exempt_certificate: Option<String>,
    /// The tax rate charged to it (before the shipping region's and the default).
    pub tax_rate_id: Option<i64>,
    /// Its price level (prices its orders' lines).
    pub price_level_id: Option<i64>,
    /// When the latest order was placed.
    pub last_order_date: Option<Timestamp>,
    /// Created.
    pub created_at: Timestamp,
    /// Last changed.
    pub updated_at: Timestamp,
}

impl Customer {
    /// The GraphQL view of a row with its order figures.
    pub fn from_row(r: CustomerRow, stats: OrderStats) -> Customer {
        Customer {
            full_name: r.full_name(),
            status: r.status,
            id: r.id,
            customer_number: r.customer_number,
            email: r.email,
            first_name: r.first_name,
            last_name: r.last_name,
            company_name: r.company_name,
            phone: r.phone,
            billing_address_line1: r.billing_address_line1,
            billing_address_line2: r.billing_address_line2,
            billing_city: r.billing_city,
            billing_state: r.billing_state,
            billing_zip: r.billing_zip,
            billing_country: r.billing_country,
            shipping_address_line1: r.shipping_address_line1,
            shipping_address_line2: r.shipping_address_line2,
            shipping_city: r.shipping_city,
            shipping_state: r.shipping_state,
            shipping_zip: r.shipping_zip,
            shipping_country: r.shipping_country,
            notes: r.notes,
            order_count: stats.order_count,
            quote_count: stats.quote_count,
            total_spent: Decimal(stats.total_spent.with_scale(2)),
            total_paid: Decimal(stats.total_paid.with_scale(2)),
            outstanding_balance: Decimal(stats.outstanding_balance.with_scale(2)),
            payment_terms: r.payment_terms,
            credit_limit: r.credit_limit.map(|l| Decimal(l.with_scale(2))),
            approved_for_terms: r.approved_for_terms,
            approved_for_terms_at: r.approved_for_terms_at.map(Timestamp),
            approved_for_terms_by: r.approved_for_terms_by,
            tax_exempt: r.tax_exempt,
            tax_exempt_certificate: r.tax_exempt_certificate,
            tax_rate_id: r.tax_rate_id,
            price_level_id: r.price_level_id,
            last_order_date: stats.last_order_at.map(Timestamp),
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// Rows with their order figures, looked up once for the whole list.
async fn customers_with_stats(
    conn: &mut diesel_async::AsyncPgConnection,
    rows: Vec<CustomerRow>,
) -> AppResult<Vec<Customer>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut stats = model::order_stats(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let s = stats.remove(&r.id).unwrap_or_default();
            Customer::from_row(r, s)
        })
        .collect())
}

/// The result of a customer change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct CustomerPayload {
    /// The customer after the change (for a delete: as it was, or deactivated).
    pub customer: Option<Customer>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl CustomerPayload {
    fn of(result: Result<CustomerRow, Vec<UserError>>) -> CustomerPayload {
        match result {
            Ok(row) => CustomerPayload {
                customer: Some(Customer::from_row(row, OrderStats::default())),
                ..Default::default()
            },
            Err(user_errors) => CustomerPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

crate::connection!(
    /// A page of customers.
    CustomerConnection,
    Customer
);

// -------------------------------------------------------------------------------- roots

/// Vendor and customer queries.
#[derive(Default)]
pub struct PartnersQuery;

#[Object]
impl PartnersQuery {
    /// Vendors by name (any signed-in user).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn vendors(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-500, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Code, name, contact or e-mail contains this (any case).")] search: Option<
            String,
        >,
        #[graphql(desc = "Only active vendors.", default = true)] active_only: bool,
        #[graphql(desc = "Sort column (default name); ties are broken by id.")] sort_by: Option<
            model::VendorSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<
            crate::platform::db::paging::SortOrder,
        >,
    ) -> AppResult<VendorConnection> {
        let page = Page::with_max(first, offset, MAX_VENDOR_PAGE)?;
        let filter = VendorFilter {
            search,
            active_only,
            sort_by,
            sort_order,
        };
        let mut conn = context::conn(ctx).await?;
        let (rows, total) =
            model::list_vendors(&mut conn, &filter, page.limit, page.offset).await?;
        Ok(VendorConnection {
            total_count: total,
            nodes: vendors_with_counts(&mut conn, rows).await?.into(),
            page_info: page.info(total),
        })
    }

    /// One vendor (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn vendor(&self, ctx: &Context<'_>, id: i64) -> AppResult<Vendor> {
        let mut conn = context::conn(ctx).await?;
        let row = model::find_vendor(&mut conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Vendor not found"))?;
        Ok(vendors_with_counts(&mut conn, vec![row]).await?.remove(0))
    }

    /// Customers, newest first (admins).
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn customers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-200, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(
            desc = "E-mail, given, family or full name, company, number or phone contains this (any case)."
        )]
        search: Option<String>,
        #[graphql(desc = "Only this status (then `includeInactive` does not matter).")]
        status: Option<CustomerStatus>,
        #[graphql(
            desc = "Without a status filter: also inactive and suspended customers.",
            default = false
        )]
        include_inactive: bool,
        #[graphql(desc = "Sort column (default created_at); ties are broken by id.")]
        sort_by: Option<model::CustomerSort>,
        #[graphql(desc = "Sort direction (default desc for created_at, else asc).")]
        sort_order: Option<crate::platform::db::paging::SortOrder>,
    ) -> AppResult<CustomerConnection> {
        let page = Page::with_max(first, offset, MAX_CUSTOMER_PAGE)?;
        let filter = CustomerFilter {
            search,
            status,
            include_inactive,
            sort_by,
            sort_order,
        };
        let mut conn = context::conn(ctx).await?;
        let (rows, total) =
            model::list_customers(&mut conn, &filter, page.limit, page.offset).await?;
        Ok(CustomerConnection {
            total_count: total,
            nodes: customers_with_stats(&mut conn, rows).await?.into(),
            page_info: page.info(total),
        })
    }

    /// Quick look-up of active customers for pickers (admins): the same match as the list's
    /// `search`, newest first. A blank `q` finds nothing.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn customer_search(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "What to look for.")] q: String,
        #[graphql(desc = "How many (1-200).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 200))]
        first: i64,
        #[graphql(desc = "Sort column (default created_at); ties are broken by id.")]
        sort_by: Option<model::CustomerSort>,
        #[graphql(desc = "Sort direction (default desc for created_at, else asc).")]
        sort_order: Option<crate::platform::db::paging::SortOrder>,
    ) -> AppResult<Vec<Customer>> {
        let page = Page::with_max(Some(first), None, MAX_CUSTOMER_PAGE)?;
        if q.trim().is_empty() {
            return Ok(Vec::new());
        }
        let filter = CustomerFilter {
            search: Some(q),
            status: None,
            include_inactive: false,
            sort_by,
            sort_order,
        };
        let mut conn = context::conn(ctx).await?;
        let (rows, _) = model::list_customers(&mut conn, &filter, page.limit, 0).await?;
        customers_with_stats(&mut conn, rows).await
    }

    /// One customer (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer(&self, ctx: &Context<'_>, id: i64) -> AppResult<Customer> {
        let mut conn = context::conn(ctx).await?;
        let row = model::find_customer(&mut conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Customer not found"))?;
        Ok(customers_with_stats(&mut conn, vec![row]).await?.remove(0))
    }

    /// The customer import's CSV template: every column the generic format reads, and one
    /// example row (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_import_template(&self) -> String {
        import::template()
    }
}

/// Vendor and customer mutations.
#[derive(Default)]
pub struct PartnersMutation;

#[Object]
impl PartnersMutation {
    /// Creates a vendor; without a code it gets the next `VND-NNN` (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn vendor_create(
        &self,
        ctx: &Context<'_>,
        input: VendorCreateInput,
    ) -> AppResult<VendorPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(VendorPayload::of(vendor::create(&mut conn, input).await?))
    }

    /// Changes a vendor (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn vendor_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: VendorUpdateInput,
    ) -> AppResult<VendorPayload> {
        let mut conn = context::conn(ctx).await?;
        let result = vendor::update(&mut conn, id, input).await?;
        let mut payload = VendorPayload::of(result);
        if let Some(v) = payload.vendor.as_mut() {
            v.po_count = vendor::purchase_order_count(&mut conn, id).await?;
        }
        Ok(payload)
    }

    /// Deletes a vendor no purchase order names; one with purchase orders is deactivated
    /// instead, so their history keeps it (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn vendor_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<VendorPayload> {
        let removal = vendor::remove(&mut *context::conn(ctx).await?, id).await?;
        Ok(VendorPayload {
            vendor: Some(Vendor::from_row(
                removal.vendor,
                removal.purchase_order_count,
            )),
            message: Some(removal.message),
            user_errors: vec![],
        })
    }

    /// Creates a customer with the next `CUST-NNNNNN` number (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_create(
        &self,
        ctx: &Context<'_>,
        input: CustomerCreateInput,
    ) -> AppResult<CustomerPayload> {
        let by = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let mut conn = context::conn(ctx).await?;
        Ok(CustomerPayload::of(
            customer::create(&mut conn, input, Some(by)).await?,
        ))
    }

    /// Changes a customer (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: CustomerUpdateInput,
    ) -> AppResult<CustomerPayload> {
        let by = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let mut conn = context::conn(ctx).await?;
        let result = customer::update(&mut conn, id, input, Some(by)).await?;
        Ok(match result {
            Ok(row) => CustomerPayload {
                customer: customers_with_stats(&mut conn, vec![row]).await?.pop(),
                ..Default::default()
            },
            Err(errors) => CustomerPayload::of(Err(errors)),
        })
    }

    /// Deletes a customer without orders; one with orders becomes inactive instead, so their
    /// history keeps it (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<CustomerPayload> {
        let removal = customer::remove(&mut *context::conn(ctx).await?, id).await?;
        Ok(CustomerPayload {
            customer: Some(Customer::from_row(removal.customer, removal.stats)),
            message: Some(removal.message),
            user_errors: vec![],
        })
    }

    /// Imports customers from a CSV file (admins): the template, any spreadsheet with
    /// ordinary headers, or a Shopify, WooCommerce, Squarespace, Etsy or Amazon export. Every
    /// valid row is inserted in one transaction; every other row is reported with its line
    /// and reason. With `dryRun` nothing is written (the preview).
    #[graphql(guard = "Access::Admin")]
    async fn customer_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The CSV file (multipart upload).")] file: Upload,
        #[graphql(desc = "Only check and report; change nothing.", default = false)] dry_run: bool,
    ) -> AppResult<crate::master_data::catalog::import::ImportReport> {
        let bytes = crate::platform::graphql::upload::read(ctx, file)?;
        import::import_customers(&mut *context::conn(ctx).await?, &bytes, dry_run).await
    }
}
