//! Vendor and customer rows and the queries on them.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::fields::{
    CODE_MAX, LINE_MAX, NAME_MAX, PERSON_NAME_MAX, PHONE_MAX, PLACE_MAX, POSTAL_MAX, TEXT_MAX,
    URL_MAX,
};
use crate::master_data::partners::vendor::MAX_LEAD_TIME_DAYS;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::{customers, vendors};
use crate::platform::email::EMAIL_MAX;
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::{email_address, length, range};

use crate::platform::db::text::{lower, upper};

pub use crate::platform::db::like_pattern;

fn search_term(search: Option<&str>) -> Option<String> {
    search
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(like_pattern)
}

// ------------------------------------------------------------------------------ vendors

/// A stored vendor.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = vendors)]
pub struct VendorRow {
    /// Id.
    pub id: i64,
    /// Code (`VND-001` unless typed), unique ignoring case.
    pub code: String,
    /// Name.
    pub name: String,
    /// Contact person.
    pub contact_name: Option<String>,
    /// Lower-cased e-mail.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Web site.
    pub website: Option<String>,
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
    /// Payment terms (free text such as `Net 30`).
    pub payment_terms: Option<String>,
    /// Our account number with the vendor.
    pub account_number: Option<String>,
    /// The vendor's tax id.
    pub tax_id: Option<String>,
    /// Usual days from order to receipt.
    pub lead_time_days: Option<i32>,
    /// Rating 1..5.
    pub rating: Option<i32>,
    /// Notes.
    pub notes: Option<String>,
    /// Whether new purchase orders may use it.
    pub is_active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = vendors;
    /// A new vendor.
    create VendorCreateInput;
    /// Changes to a vendor: omitted fields keep their value, `null` clears an optional one
    /// (the code, name and active flag cannot be cleared).
    update VendorUpdateInput;
    /// A vendor's writable columns, checked and normalised by `vendor::check`.
    form VendorForm;
    {
        /// Code (stored in upper case); `VND-NNN` from a sequence when omitted or blank on
        /// create. Unique ignoring case.
        [directive = length::apply(CODE_MAX)]
        code: optional String,
        /// Name.
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Contact person.
        [directive = length::apply(NAME_MAX)]
        contact_name: clearable String,
        /// E-mail (checked when given; special-use domains such as `.local` are refused).
        [directive = length::apply(EMAIL_MAX), directive = email_address::apply()]
        email: clearable String,
        /// Phone.
        [directive = length::apply(PHONE_MAX)]
        phone: clearable String,
        /// Web site.
        [directive = length::apply(URL_MAX)]
        website: clearable String,
        /// Street address.
        [directive = length::apply(LINE_MAX)]
        address_line1: clearable String,
        /// Second address line.
        [directive = length::apply(LINE_MAX)]
        address_line2: clearable String,
        /// City.
        [directive = length::apply(PLACE_MAX)]
        city: clearable String,
        /// State or province.
        [directive = length::apply(PLACE_MAX)]
        state: clearable String,
        /// Postal code.
        [directive = length::apply(POSTAL_MAX)]
        postal_code: clearable String,
        /// Country.
        [directive = length::apply(PLACE_MAX)]
        country: clearable String,
        /// Payment terms, free text such as `Net 30`.
        [directive = length::apply(PLACE_MAX)]
        payment_terms: clearable String,
        /// Our account number with the vendor.
        [directive = length::apply(PLACE_MAX)]
        account_number: clearable String,
        /// The vendor's tax id.
        [directive = length::apply(CODE_MAX)]
        tax_id: clearable String,
        /// Usual days from order to receipt (0 to 3650).
        [directive = range::apply(0, i64::from(MAX_LEAD_TIME_DAYS))]
        lead_time_days: clearable i32,
        /// Rating from 1 (poor) to 5 (excellent).
        [directive = range::apply(1, 5)]
        rating: clearable i32,
        /// Notes.
        [directive = length::apply(TEXT_MAX)]
        notes: clearable String,
        /// Whether new purchase orders may use it (default true).
        is_active: optional bool,
    }
    inputs {
        /// The whole address as one text (spec 2.5); sets the street address unless
        /// `addressLine1` is also given.
        #[graphql(directive = length::apply(TEXT_MAX))]
        address: async_graphql::MaybeUndefined<String>,
    }
}

crate::text_enum! {
    /// The columns vendors can be sorted by (default `name`).
    pub enum VendorSort {
        /// Code.
        Code,
        /// Name.
        Name,
        /// Contact.
        ContactName,
        /// E-mail.
        Email,
        /// City.
        City,
        /// Country.
        Country,
        /// Lead time.
        LeadTimeDays,
        /// Rating.
        Rating,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

crate::text_enum! {
    /// The columns customers can be sorted by (default `created_at`, newest first).
    pub enum CustomerSort {
        /// Customer number.
        CustomerNumber,
        /// E-mail.
        Email,
        /// First name.
        FirstName,
        /// Last name.
        LastName,
        /// Company.
        CompanyName,
        /// Status.
        Status,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// Filters of the vendor list.
#[derive(Debug, Clone, Default)]
pub struct VendorFilter {
    /// Match code, name, contact or e-mail.
    pub search: Option<String>,
    /// Only active vendors.
    pub active_only: bool,
    /// Sort column (default name).
    pub sort_by: Option<VendorSort>,
    /// Sort direction (default ascending).
    pub sort_order: Option<SortOrder>,
}

/// One page of vendors (by name) and the total.
pub async fn list_vendors(
    conn: &mut AsyncPgConnection,
    filter: &VendorFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<VendorRow>, i64)> {
    let pattern = search_term(filter.search.as_deref());
    let build = || {
        let mut q = vendors::table
            .select((VendorRow::as_select(), paging::total_count()))
            .into_boxed();
        if filter.active_only {
            q = q.filter(vendors::is_active.eq(true));
        }
        if let Some(p) = &pattern {
            q = q.filter(
                vendors::code
                    .ilike(p.clone())
                    .or(vendors::name.ilike(p.clone()))
                    .or(vendors::contact_name.ilike(p.clone()))
                    .or(vendors::email.ilike(p.clone())),
            );
        }
        let order = filter.sort_order.unwrap_or(SortOrder::Asc);
        let id = vendors::id;
        match filter.sort_by.unwrap_or(VendorSort::Name) {
            VendorSort::Code => paging::sorted(q, vendors::code, id, order),
            VendorSort::Name => paging::sorted(q, vendors::name, id, order),
            VendorSort::ContactName => paging::sorted(q, vendors::contact_name, id, order),
            VendorSort::Email => paging::sorted(q, vendors::email, id, order),
            VendorSort::City => paging::sorted(q, vendors::city, id, order),
            VendorSort::Country => paging::sorted(q, vendors::country, id, order),
            VendorSort::LeadTimeDays => paging::sorted(q, vendors::lead_time_days, id, order),
            VendorSort::Rating => paging::sorted(q, vendors::rating, id, order),
            VendorSort::CreatedAt => paging::sorted(q, vendors::created_at, id, order),
            VendorSort::UpdatedAt => paging::sorted(q, vendors::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The vendor with this id.
pub async fn find_vendor(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<VendorRow>> {
    Ok(vendors::table
        .find(id)
        .select(VendorRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The id of the vendor with this code (any case), if one has it.
pub async fn vendor_id_by_code(conn: &mut AsyncPgConnection, code: &str) -> AppResult<Option<i64>> {
    Ok(vendors::table
        .filter(upper(vendors::code).eq(code.to_uppercase()))
        .select(vendors::id)
        .first(conn)
        .await
        .optional()?)
}

/// The next free generated code `VND-NNN`: numbers come from `vendor_code_seq` (unique under
/// concurrency, gaps allowed); a number whose code was typed by hand is skipped.
pub async fn next_vendor_code(conn: &mut AsyncPgConnection) -> AppResult<String> {
    loop {
        let n: i64 = diesel::select(diesel::dsl::sql::<BigInt>("nextval('vendor_code_seq')"))
            .get_result(conn)
            .await?;
        let code = format!("VND-{n:03}");
        if vendor_id_by_code(conn, &code).await?.is_none() {
            return Ok(code);
        }
    }
}

/// Inserts a vendor.
pub async fn insert_vendor(conn: &mut AsyncPgConnection, new: &VendorForm) -> AppResult<VendorRow> {
    Ok(diesel::insert_into(vendors::table)
        .values(new)
        .returning(VendorRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Applies changes to a vendor; `None` when it does not exist.
pub async fn update_vendor(
    conn: &mut AsyncPgConnection,
    id: i64,
    changes: &VendorForm,
) -> AppResult<Option<VendorRow>> {
    let result = diesel::update(vendors::table.find(id))
        .set(changes)
        .returning(VendorRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => find_vendor(conn, id).await,
        other => Ok(other.optional()?),
    }
}

/// Marks a vendor inactive.
pub async fn deactivate_vendor(conn: &mut AsyncPgConnection, id: i64) -> AppResult<VendorRow> {
    Ok(diesel::update(vendors::table.find(id))
        .set(vendors::is_active.eq(false))
        .returning(VendorRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Deletes a vendor row.
pub async fn delete_vendor(conn: &mut AsyncPgConnection, id: i64) -> AppResult<()> {
    diesel::delete(vendors::table.find(id))
        .execute(conn)
        .await?;
    Ok(())
}

/// Purchase orders per vendor, for many vendors in one query (lists never ask per row); a
/// missing id has none.
pub async fn purchase_order_counts(
    conn: &mut AsyncPgConnection,
    vendor_ids: &[i64],
) -> AppResult<HashMap<i64, i64>> {
    use crate::platform::db::schema::purchase_orders;
    Ok(purchase_orders::table
        .filter(purchase_orders::vendor_id.eq_any(vendor_ids))
        .group_by(purchase_orders::vendor_id)
        .select((purchase_orders::vendor_id, diesel::dsl::count_star()))
        .load::<(i64, i64)>(conn)
        .await?
        .into_iter()
        .collect())
}

// ---------------------------------------------------------------------------- customers

/// A stored customer (a customer is not a user: customers do not sign in).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = customers)]
pub struct CustomerRow {
    /// Id.
    pub id: i64,
    /// `CUST-NNNNNN`.
    pub customer_number: String,
    /// Lower-cased e-mail, unique.
    pub email: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
    /// Company.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Whether the customer may be sold to.
    pub status: CustomerStatus,
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
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Last changed.
    pub updated_at: DateTime<Utc>,
    /// How the customer pays.
    pub payment_terms: PaymentTerms,
    /// The most the customer may owe on open orders (none: no cap).
    pub credit_limit: Option<bigdecimal::BigDecimal>,
    /// An admin approved the customer for net terms.
    pub approved_for_terms: bool,
    /// When that approval was given.
    pub approved_for_terms_at: Option<DateTime<Utc>>,
    /// Who gave it.
    pub approved_for_terms_by: Option<i64>,
    /// Exempt from sales tax (nothing is charged on its quotes, orders and invoices).
    pub tax_exempt: bool,
    /// The exemption certificate's number.
    pub tax_exempt_certificate: Option<String>,
    /// The tax rate charged to it (before the shipping region's and the default).
    pub tax_rate_id: Option<i64>,
    /// Its price level (prices its orders' lines).
    pub price_level_id: Option<i64>,
}

impl CustomerRow {
    /// "First Last".
    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_string()
    }
}

crate::text_enum! {
    /// Whether a customer may be sold to.
    pub enum CustomerStatus {
        /// May be sold to; listed by default.
        Active,
        /// Kept for history (for instance deleted while it had orders).
        Inactive,
        /// Blocked for now.
        Suspended,
    }
}

crate::text_enum! {
    /// How a customer pays (FilaOps's terms).
    pub enum PaymentTerms {
        /// Cash on delivery.
        Cod,
        /// Paid before the order is made.
        Prepay,
        /// Due 15 days after shipping (needs approval for terms).
        #[graphql(name = "net15")]
        #[strum(serialize = "net15")]
        Net15,
        /// Due 30 days after shipping (needs approval for terms).
        #[graphql(name = "net30")]
        #[strum(serialize = "net30")]
        Net30,
        /// Due 60 days after shipping (needs approval for terms).
        #[graphql(name = "net60")]
        #[strum(serialize = "net60")]
        Net60,
        /// Charged to a card kept on file.
        CardOnFile,
    }
}

impl PaymentTerms {
    /// Days from shipment to the due date: net terms give their days, the rest are due at
    /// once.
    pub fn days(self) -> i64 {
        match self {
            PaymentTerms::Net15 => 15,
            PaymentTerms::Net30 => 30,
            PaymentTerms::Net60 => 60,
            PaymentTerms::Cod | PaymentTerms::Prepay | PaymentTerms::CardOnFile => 0,
        }
    }

    /// Whether the terms give credit (net days), which needs an admin's approval.
    pub fn is_net(self) -> bool {
        self.days() > 0
    }
}

crate::input_forms! {
    table = customers;
    /// A new customer.
    #[derive(Default)]
    create CustomerCreateInput;
    /// Changes to a customer: omitted fields keep their value, `null` clears an optional one
    /// (the e-mail and the names cannot be cleared; a `null` status changes nothing).
    update CustomerUpdateInput;
    /// A customer's writable columns, checked and normalised by `customer::check`.
    form CustomerForm;
    {
        /// `CUST-NNNNNN`, drawn from a sequence when the customer is created.
        @create[skip] @update[skip]
        customer_number: optional String,
        /// E-mail (unique ignoring case, stored in lower case; special-use domains such as
        /// `.local` are refused).
        [directive = length::apply(EMAIL_MAX), directive = email_address::apply()]
        email: required String,
        /// Given name.
        [directive = length::apply(PERSON_NAME_MAX)]
        first_name: required String,
        /// Family name.
        [directive = length::apply(PERSON_NAME_MAX)]
        last_name: required String,
        /// Company.
        [directive = length::apply(NAME_MAX)]
        company_name: clearable String,
        /// Phone.
        [directive = length::apply(PHONE_MAX)]
        phone: clearable String,
        /// Whether the customer may be sold to (default active).
        status: optional CustomerStatus,
        /// Billing street address (else the shared `addressLine1`).
        [directive = length::apply(LINE_MAX)]
        billing_address_line1: clearable String,
        /// Billing second line.
        [directive = length::apply(LINE_MAX)]
        billing_address_line2: clearable String,
        /// Billing city.
        [directive = length::apply(PLACE_MAX)]
        billing_city: clearable String,
        /// Billing state.
        [directive = length::apply(PLACE_MAX)]
        billing_state: clearable String,
        /// Billing postal code.
        [directive = length::apply(POSTAL_MAX)]
        billing_zip: clearable String,
        /// Billing country (`USA` when a new customer has none).
        [directive = length::apply(PLACE_MAX)]
        billing_country: clearable String,
        /// Shipping street address (else the shared `addressLine1`).
        [directive = length::apply(LINE_MAX)]
        shipping_address_line1: clearable String,
        /// Shipping second line.
        [directive = length::apply(LINE_MAX)]
        shipping_address_line2: clearable String,
        /// Shipping city.
        [directive = length::apply(PLACE_MAX)]
        shipping_city: clearable String,
        /// Shipping state.
        [directive = length::apply(PLACE_MAX)]
        shipping_state: clearable String,
        /// Shipping postal code.
        [directive = length::apply(POSTAL_MAX)]
        shipping_zip: clearable String,
        /// Shipping country (`USA` when a new customer has none).
        [directive = length::apply(PLACE_MAX)]
        shipping_country: clearable String,
        /// Notes.
        [directive = length::apply(TEXT_MAX)]
        notes: clearable String,
        /// How the customer pays (default `cod`); net terms need `approvedForTerms`.
        payment_terms: optional PaymentTerms,
        /// The most the customer may owe on open orders, 0 or more (`null`: no cap).
        credit_limit: clearable crate::platform::graphql::scalars::Decimal,
        /// An admin approved the customer for net terms (default false).
        approved_for_terms: optional bool,
        /// When the approval was given (set by the server).
        @create[skip] @update[skip]
        approved_for_terms_at: clearable DateTime<Utc>,
        /// Who gave it (set by the server).
        @create[skip] @update[skip]
        approved_for_terms_by: clearable i64,
        /// Exempt from sales tax (default false).
        tax_exempt: optional bool,
        /// The exemption certificate's number.
        [directive = length::apply(PLACE_MAX)]
        tax_exempt_certificate: clearable String,
        /// The tax rate charged to it (an active rate; null: the region's or the default).
        tax_rate_id: clearable i64,
        /// Its price level (an active level; null: list prices).
        price_level_id: clearable i64,
    }
    inputs {
        /// The customer's address (spec 2.6): street line, used for billing and shipping
        /// unless the billing or shipping field itself is given. Likewise the next five.
        #[graphql(directive = length::apply(LINE_MAX))]
        address_line1: async_graphql::MaybeUndefined<String>,
        /// Second address line (billing and shipping unless given separately).
        #[graphql(directive = length::apply(LINE_MAX))]
        address_line2: async_graphql::MaybeUndefined<String>,
        /// City (billing and shipping unless given separately).
        #[graphql(directive = length::apply(PLACE_MAX))]
        city: async_graphql::MaybeUndefined<String>,
        /// State or province (billing and shipping unless given separately).
        #[graphql(directive = length::apply(PLACE_MAX))]
        state: async_graphql::MaybeUndefined<String>,
        /// Postal code (billing and shipping unless given separately).
        #[graphql(directive = length::apply(POSTAL_MAX))]
        postal_code: async_graphql::MaybeUndefined<String>,
        /// Country (billing and shipping unless given separately).
        #[graphql(directive = length::apply(PLACE_MAX))]
        country: async_graphql::MaybeUndefined<String>,
    }
}

/// Filters of the customer list.
#[derive(Debug, Clone, Default)]
pub struct CustomerFilter {
    /// Match e-mail, names, company, customer number or phone.
    pub search: Option<String>,
    /// Only this status (then `include_inactive` is not consulted).
    pub status: Option<CustomerStatus>,
    /// Without a status filter: also inactive and suspended customers.
    pub include_inactive: bool,
    /// Sort column (default created_at, newest first).
    pub sort_by: Option<CustomerSort>,
    /// Sort direction (ascending unless only the default column applies).
    pub sort_order: Option<SortOrder>,
}

/// One page of customers (newest first) and the total.
pub async fn list_customers(
    conn: &mut AsyncPgConnection,
    filter: &CustomerFilter,
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<CustomerRow>, i64)> {
    let pattern = search_term(filter.search.as_deref());
    let build = || {
        let mut q = customers::table
            .select((CustomerRow::as_select(), paging::total_count()))
            .into_boxed();
        match &filter.status {
            Some(s) => q = q.filter(customers::status.eq(*s)),
            None if !filter.include_inactive => {
                q = q.filter(customers::status.eq(CustomerStatus::Active))
            }
            None => {}
        }
        if let Some(p) = &pattern {
            q = q.filter(
                customers::email
                    .ilike(p.clone())
                    .or(customers::first_name.ilike(p.clone()))
                    .or(customers::last_name.ilike(p.clone()))
                    .or(customers::first_name
                        .concat(" ")
                        .concat(customers::last_name)
                        .ilike(p.clone()))
                    .or(customers::company_name.ilike(p.clone()))
                    .or(customers::customer_number.ilike(p.clone()))
                    .or(customers::phone.ilike(p.clone())),
            );
        }
        // Newest first unless sorted otherwise.
        let (sort, default_order) = match filter.sort_by {
            Some(sort) => (sort, SortOrder::Asc),
            None => (CustomerSort::CreatedAt, SortOrder::Desc),
        };
        let order = filter.sort_order.unwrap_or(default_order);
        let id = customers::id;
        match sort {
            CustomerSort::CustomerNumber => {
                paging::sorted(q, customers::customer_number, id, order)
            }
            CustomerSort::Email => paging::sorted(q, customers::email, id, order),
            CustomerSort::FirstName => paging::sorted(q, customers::first_name, id, order),
            CustomerSort::LastName => paging::sorted(q, customers::last_name, id, order),
            CustomerSort::CompanyName => paging::sorted(q, customers::company_name, id, order),
            CustomerSort::Status => paging::sorted(q, customers::status, id, order),
            CustomerSort::CreatedAt => paging::sorted(q, customers::created_at, id, order),
            CustomerSort::UpdatedAt => paging::sorted(q, customers::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The customer with this id.
pub async fn find_customer(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<Option<CustomerRow>> {
    Ok(customers::table
        .find(id)
        .select(CustomerRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The id of the customer with this e-mail (any case), if one has it.
pub async fn customer_id_by_email(
    conn: &mut AsyncPgConnection,
    email: &str,
) -> AppResult<Option<i64>> {
    Ok(customers::table
        .filter(lower(customers::email).eq(email.to_lowercase()))
        .select(customers::id)
        .first(conn)
        .await
        .optional()?)
}

/// Which of these (lower-cased) e-mails already belong to a customer.
pub async fn existing_customer_emails(
    conn: &mut AsyncPgConnection,
    emails: &[String],
) -> AppResult<Vec<String>> {
    if emails.is_empty() {
        return Ok(Vec::new());
    }
    Ok(customers::table
        .filter(lower(customers::email).eq_any(emails))
        .select(lower(customers::email))
        .load(conn)
        .await?)
}

/// `n` fresh customer numbers `CUST-NNNNNN` from `customer_number_seq`, in one round trip.
pub async fn next_customer_numbers(
    conn: &mut AsyncPgConnection,
    n: usize,
) -> AppResult<Vec<String>> {
    Ok(
        crate::platform::db::next_values(conn, "customer_number_seq", n)
            .await?
            .into_iter()
            .map(customer_number)
            .collect(),
    )
}

/// The display form of a customer number: `CUST-000042` (more digits once past a million).
pub fn customer_number(n: i64) -> String {
    format!("CUST-{n:06}")
}

/// Inserts a customer.
pub async fn insert_customer(
    conn: &mut AsyncPgConnection,
    new: &CustomerForm,
) -> AppResult<CustomerRow> {
    Ok(diesel::insert_into(customers::table)
        .values(new)
        .returning(CustomerRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Inserts many customers in one statement; a row whose e-mail (or number) is already taken
/// is left out rather than failing the statement. Returns the e-mails that were inserted.
pub async fn insert_customers_skipping_taken(
    conn: &mut AsyncPgConnection,
    rows: &[CustomerForm],
) -> AppResult<Vec<String>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    Ok(diesel::insert_into(customers::table)
        .values(rows)
        .on_conflict_do_nothing()
        .returning(customers::email)
        .get_results(conn)
        .await?)
}

/// Applies changes to a customer; `None` when it does not exist.
pub async fn update_customer(
    conn: &mut AsyncPgConnection,
    id: i64,
    changes: &CustomerForm,
) -> AppResult<Option<CustomerRow>> {
    let result = diesel::update(customers::table.find(id))
        .set(changes)
        .returning(CustomerRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(e) if crate::platform::db::is_empty_update(&e) => find_customer(conn, id).await,
        other => Ok(other.optional()?),
    }
}

/// Deletes a customer row.
pub async fn delete_customer(conn: &mut AsyncPgConnection, id: i64) -> AppResult<()> {
    diesel::delete(customers::table.find(id))
        .execute(conn)
        .await?;
    Ok(())
}

/// What a customer has bought: figures for the list and detail views.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrderStats {
    /// Sales orders.
    pub order_count: i64,
    /// Quotes.
    pub quote_count: i64,
    /// Sum of the order totals.
    pub total_spent: bigdecimal::BigDecimal,
    /// Completed payments less refunds on the orders (not cancelled ones).
    pub total_paid: bigdecimal::BigDecimal,
    /// Each order's total less what is paid on it, never below 0, summed (not cancelled).
    pub outstanding_balance: bigdecimal::BigDecimal,
    /// The latest order.
    pub last_order_at: Option<DateTime<Utc>>,
}

/// A customer's id, order count, money spent and latest order, as one grouped row reads.
type CustomerOrderFigures = (
    Option<i64>,
    i64,
    Option<bigdecimal::BigDecimal>,
    Option<DateTime<Utc>>,
);

/// Order figures per customer, for many customers at once (lists never ask per row): one
/// grouped statement over their sales orders and one over their quotes. A customer missing
/// from the map has no orders. Cancelled orders count as orders but not as money spent.
pub async fn order_stats(
    conn: &mut AsyncPgConnection,
    customer_ids: &[i64],
) -> AppResult<HashMap<i64, OrderStats>> {
    use crate::platform::db::schema::{quotes, sales_orders};
    use diesel::dsl::{count_star, max, sql};
    use diesel::sql_types::{Nullable, Numeric};

    if customer_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<Option<i64>> = customer_ids.iter().copied().map(Some).collect();
    let orders: Vec<CustomerOrderFigures> = sales_orders::table
        .filter(sales_orders::customer_id.eq_any(&ids))
        .group_by(sales_orders::customer_id)
        .select((
            sales_orders::customer_id,
            count_star(),
            sql::<Nullable<Numeric>>("SUM(grand_total) FILTER (WHERE status <> 'cancelled')"),
            max(sales_orders::created_at),
        ))
        .load(conn)
        .await?;
    let quoted: Vec<(Option<i64>, i64)> = quotes::table
        .filter(quotes::customer_id.eq_any(&ids))
        .group_by(quotes::customer_id)
        .select((quotes::customer_id, count_star()))
        .load(conn)
        .await?;
    let mut stats: HashMap<i64, OrderStats> = HashMap::new();
    for (id, count, spent, last) in orders {
        let Some(id) = id else { continue };
        let entry = stats.entry(id).or_default();
        entry.order_count = count;
        entry.total_spent = spent.unwrap_or_default();
        entry.last_order_at = last;
    }
    for (id, count) in quoted {
        let Some(id) = id else { continue };
        stats.entry(id).or_default().quote_count = count;
    }
    for balance in balances_of(conn, customer_ids).await? {
        let entry = stats.entry(balance.customer_id).or_default();
        entry.total_paid = balance.total_paid;
        entry.outstanding_balance = balance.outstanding;
    }
    Ok(stats)
}

/// What a customer has paid and still owes on its orders (cancelled ones left out).
#[derive(Debug, Clone, QueryableByName)]
pub struct CustomerBalance {
    /// The customer.
    #[diesel(sql_type = BigInt)]
    pub customer_id: i64,
    /// Completed payments less refunds.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub total_paid: bigdecimal::BigDecimal,
    /// Each order's total less what is paid on it, never below 0, summed.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub outstanding: bigdecimal::BigDecimal,
}

/// [`CustomerBalance`] of these customers in one statement (customers without orders are
/// missing from the answer).
pub async fn balances_of(
    conn: &mut AsyncPgConnection,
    customer_ids: &[i64],
) -> AppResult<Vec<CustomerBalance>> {
    Ok(diesel::sql_query(
        "SELECT o.customer_id, \
                COALESCE(SUM(p.paid), 0) AS total_paid, \
                COALESCE(SUM(GREATEST(o.grand_total - COALESCE(p.paid, 0), 0)), 0) AS outstanding \
         FROM sales_orders o \
         LEFT JOIN (SELECT sales_order_id, SUM(amount) AS paid FROM payments \
                    WHERE status = 'completed' GROUP BY sales_order_id) p \
                ON p.sales_order_id = o.id \
         WHERE o.customer_id = ANY($1) AND o.status <> 'cancelled' \
         GROUP BY o.customer_id",
    )
    .bind::<diesel::sql_types::Array<BigInt>, _>(customer_ids)
    .load(conn)
    .await?)
}
