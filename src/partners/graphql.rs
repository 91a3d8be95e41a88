//! Vendors and customers in the schema (generated field lists kept in one place).

use async_graphql::{Context, InputObject, MaybeUndefined, Object, SimpleObject};

use crate::auth::Access;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::context;
use crate::graphql::pagination::Page;
use crate::graphql::scalars::{Decimal, Timestamp};
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::partners::fields::{self, Checker};
use crate::partners::model::{
    self, CustomerChanges, CustomerFilter, CustomerRow, NewCustomer, NewVendor, VendorChanges,
    VendorFilter, VendorRow,
};

/// A supplier.
#[derive(Debug, Clone, SimpleObject)]
pub struct Vendor {
    /// Id.
    pub id: i64,
    /// Code (`VND-001`; unique ignoring case).
    pub code: String,
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: Option<String>,
    /// Contact name.
    pub contact_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Website.
    pub website: Option<String>,
    /// Address line1.
    pub address_line1: Option<String>,
    /// Address line2.
    pub address_line2: Option<String>,
    /// City.
    pub city: Option<String>,
    /// State.
    pub state: Option<String>,
    /// Postal code.
    pub postal_code: Option<String>,
    /// Country.
    pub country: Option<String>,
    /// Payment terms.
    pub payment_terms: Option<String>,
    /// Account number.
    pub account_number: Option<String>,
    /// Tax id.
    pub tax_id: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Lead time in days.
    pub lead_time_days: Option<i32>,
    /// Rating, 1 to 5.
    pub rating: Option<i32>,
    /// Active.
    pub is_active: bool,
    /// Purchase orders placed with the vendor (purchasing arrives later; 0 until then).
    pub po_count: i64,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<VendorRow> for Vendor {
    fn from(r: VendorRow) -> Self {
        Vendor {
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
            po_count: 0,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// A new vendor.
#[derive(Debug, Clone, InputObject)]
pub struct VendorCreateInput {
    /// Code (blank: generated `VND-NNN`).
    pub code: Option<String>,
    /// Name (required).
    pub name: String,
    /// E-mail.
    pub email: Option<String>,
    /// Contact name.
    pub contact_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Website.
    pub website: Option<String>,
    /// Address line1.
    pub address_line1: Option<String>,
    /// Address line2.
    pub address_line2: Option<String>,
    /// City.
    pub city: Option<String>,
    /// State.
    pub state: Option<String>,
    /// Postal code.
    pub postal_code: Option<String>,
    /// Country.
    pub country: Option<String>,
    /// Payment terms.
    pub payment_terms: Option<String>,
    /// Account number.
    pub account_number: Option<String>,
    /// Tax id.
    pub tax_id: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Lead time in days (0 or more).
    pub lead_time_days: Option<i32>,
    /// Rating, 1 to 5.
    pub rating: Option<i32>,
    /// Active (default true).
    pub is_active: Option<bool>,
}

/// Changes to a vendor: omitted fields keep their value, null clears.
#[derive(Debug, Clone, InputObject)]
pub struct VendorUpdateInput {
    /// Code.
    pub code: Option<String>,
    /// Name.
    pub name: Option<String>,
    /// E-mail.
    pub email: MaybeUndefined<String>,
    /// Contact name.
    pub contact_name: MaybeUndefined<String>,
    /// Phone.
    pub phone: MaybeUndefined<String>,
    /// Website.
    pub website: MaybeUndefined<String>,
    /// Address line1.
    pub address_line1: MaybeUndefined<String>,
    /// Address line2.
    pub address_line2: MaybeUndefined<String>,
    /// City.
    pub city: MaybeUndefined<String>,
    /// State.
    pub state: MaybeUndefined<String>,
    /// Postal code.
    pub postal_code: MaybeUndefined<String>,
    /// Country.
    pub country: MaybeUndefined<String>,
    /// Payment terms.
    pub payment_terms: MaybeUndefined<String>,
    /// Account number.
    pub account_number: MaybeUndefined<String>,
    /// Tax id.
    pub tax_id: MaybeUndefined<String>,
    /// Notes.
    pub notes: MaybeUndefined<String>,
    /// Lead time in days.
    pub lead_time_days: MaybeUndefined<i32>,
    /// Rating, 1 to 5.
    pub rating: MaybeUndefined<i32>,
    /// Active.
    pub is_active: Option<bool>,
}

/// The result of a vendor change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct VendorPayload {
    /// The vendor after the change.
    pub vendor: Option<Vendor>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

crate::connection!(
    /// A page of vendors.
    VendorConnection,
    Vendor
);

/// A customer (not a user: customers never sign in to the back office).
#[derive(Debug, Clone, SimpleObject)]
pub struct Customer {
    /// Id.
    pub id: i64,
    /// Number (`CUST-000001`).
    pub customer_number: String,
    /// E-mail (unique ignoring case).
    pub email: String,
    /// Given name.
    pub first_name: String,
    /// Family name.
    pub last_name: String,
    /// Given and family name.
    pub full_name: String,
    /// active, inactive or suspended.
    pub status: String,
    /// Company name.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Billing address line1.
    pub billing_address_line1: Option<String>,
    /// Billing address line2.
    pub billing_address_line2: Option<String>,
    /// Billing city.
    pub billing_city: Option<String>,
    /// Billing state.
    pub billing_state: Option<String>,
    /// Billing zip.
    pub billing_zip: Option<String>,
    /// Billing country.
    pub billing_country: Option<String>,
    /// Shipping address line1.
    pub shipping_address_line1: Option<String>,
    /// Shipping address line2.
    pub shipping_address_line2: Option<String>,
    /// Shipping city.
    pub shipping_city: Option<String>,
    /// Shipping state.
    pub shipping_state: Option<String>,
    /// Shipping zip.
    pub shipping_zip: Option<String>,
    /// Shipping country.
    pub shipping_country: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// Orders placed (sales arrive later; 0 until then).
    pub order_count: i64,
    /// Quotes (0 until sales arrive).
    pub quote_count: i64,
    /// Total spent.
    pub total_spent: Decimal,
    /// Last order.
    pub last_order_date: Option<Timestamp>,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<CustomerRow> for Customer {
    fn from(r: CustomerRow) -> Self {
        Customer {
            full_name: r.full_name(),
            id: r.id,
            customer_number: r.customer_number,
            email: r.email,
            first_name: r.first_name,
            last_name: r.last_name,
            status: r.status,
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
            order_count: 0,
            quote_count: 0,
            total_spent: Decimal(bigdecimal::BigDecimal::from(0)),
            last_order_date: None,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// A new customer.
#[derive(Debug, Clone, InputObject)]
pub struct CustomerCreateInput {
    /// E-mail (required).
    pub email: String,
    /// Given name (required).
    pub first_name: String,
    /// Family name (required).
    pub last_name: String,
    /// active (default), inactive or suspended.
    pub status: Option<String>,
    /// Company name.
    pub company_name: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Billing address line1.
    pub billing_address_line1: Option<String>,
    /// Billing address line2.
    pub billing_address_line2: Option<String>,
    /// Billing city.
    pub billing_city: Option<String>,
    /// Billing state.
    pub billing_state: Option<String>,
    /// Billing zip.
    pub billing_zip: Option<String>,
    /// Billing country.
    pub billing_country: Option<String>,
    /// Shipping address line1.
    pub shipping_address_line1: Option<String>,
    /// Shipping address line2.
    pub shipping_address_line2: Option<String>,
    /// Shipping city.
    pub shipping_city: Option<String>,
    /// Shipping state.
    pub shipping_state: Option<String>,
    /// Shipping zip.
    pub shipping_zip: Option<String>,
    /// Shipping country.
    pub shipping_country: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

/// Changes to a customer: omitted fields keep their value, null clears.
#[derive(Debug, Clone, InputObject)]
pub struct CustomerUpdateInput {
    /// E-mail.
    pub email: Option<String>,
    /// Given name.
    pub first_name: Option<String>,
    /// Family name.
    pub last_name: Option<String>,
    /// active, inactive or suspended.
    pub status: Option<String>,
    /// Company name.
    pub company_name: MaybeUndefined<String>,
    /// Phone.
    pub phone: MaybeUndefined<String>,
    /// Billing address line1.
    pub billing_address_line1: MaybeUndefined<String>,
    /// Billing address line2.
    pub billing_address_line2: MaybeUndefined<String>,
    /// Billing city.
    pub billing_city: MaybeUndefined<String>,
    /// Billing state.
    pub billing_state: MaybeUndefined<String>,
    /// Billing zip.
    pub billing_zip: MaybeUndefined<String>,
    /// Billing country.
    pub billing_country: MaybeUndefined<String>,
    /// Shipping address line1.
    pub shipping_address_line1: MaybeUndefined<String>,
    /// Shipping address line2.
    pub shipping_address_line2: MaybeUndefined<String>,
    /// Shipping city.
    pub shipping_city: MaybeUndefined<String>,
    /// Shipping state.
    pub shipping_state: MaybeUndefined<String>,
    /// Shipping zip.
    pub shipping_zip: MaybeUndefined<String>,
    /// Shipping country.
    pub shipping_country: MaybeUndefined<String>,
    /// Notes.
    pub notes: MaybeUndefined<String>,
}

/// The result of a customer change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct CustomerPayload {
    /// The customer after the change.
    pub customer: Option<Customer>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

crate::connection!(
    /// A page of customers.
    CustomerConnection,
    Customer
);

const STATUSES: &[&str] = &["active", "inactive", "suspended"];

fn check_status(c: &mut Checker, raw: Option<&str>) -> Option<String> {
    let s = raw?.trim().to_ascii_lowercase();
    if STATUSES.contains(&s.as_str()) {
        Some(s)
    } else {
        c.invalid(
            "status",
            "Input should be 'active', 'inactive' or 'suspended'",
        );
        None
    }
}

/// Partner queries.
#[derive(Default)]
pub struct PartnersQuery;

#[Object]
impl PartnersQuery {
    /// Vendors by name.
    #[graphql(guard = "Access::User")]
    async fn vendors(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).")] first: Option<i64>,
        #[graphql(desc = "Rows to skip.")] offset: Option<i64>,
        #[graphql(desc = "Code, name, contact or e-mail contains this.")] search: Option<String>,
        #[graphql(desc = "Only active vendors (default true).", default = true)] active_only: bool,
    ) -> AppResult<VendorConnection> {
        let page = Page::new(first, offset)?;
        let filter = VendorFilter {
            search,
            active_only,
        };
        let (rows, total) = model::list_vendors(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(VendorConnection {
            total_count: total,
            nodes: rows.into_iter().map(Vendor::from).collect(),
            page_info: page.info(total),
        })
    }

    /// One vendor.
    #[graphql(guard = "Access::User")]
    async fn vendor(&self, ctx: &Context<'_>, id: i64) -> AppResult<Vendor> {
        model::find_vendor(&mut *context::conn(ctx).await?, id)
            .await?
            .map(Vendor::from)
            .ok_or_else(|| AppError::not_found("Vendor not found"))
    }

    /// Customers, newest first (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customers(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).")] first: Option<i64>,
        #[graphql(desc = "Rows to skip.")] offset: Option<i64>,
        #[graphql(desc = "E-mail, name, company, number or phone contains this.")] search: Option<
            String,
        >,
        #[graphql(desc = "Only this status.")] status: Option<String>,
        #[graphql(desc = "Without a status: also inactive customers.", default = false)]
        include_inactive: bool,
    ) -> AppResult<CustomerConnection> {
        let page = Page::new(first, offset)?;
        let filter = CustomerFilter {
            search,
            status,
            include_inactive,
        };
        let (rows, total) = model::list_customers(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(CustomerConnection {
            total_count: total,
            nodes: rows.into_iter().map(Customer::from).collect(),
            page_info: page.info(total),
        })
    }

    /// The CSV template of the customer import.
    #[graphql(guard = "Access::Admin")]
    async fn customer_import_template(&self) -> &'static str {
        crate::partners::import::TEMPLATE
    }

    /// One customer (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer(&self, ctx: &Context<'_>, id: i64) -> AppResult<Customer> {
        model::find_customer(&mut *context::conn(ctx).await?, id)
            .await?
            .map(Customer::from)
            .ok_or_else(|| AppError::not_found("Customer not found"))
    }
}

/// Partner mutations.
#[derive(Default)]
pub struct PartnersMutation;

#[Object]
impl PartnersMutation {
    /// Creates a vendor.
    #[graphql(guard = "Access::User")]
    async fn vendor_create(
        &self,
        ctx: &Context<'_>,
        input: VendorCreateInput,
    ) -> AppResult<VendorPayload> {
        let mut c = Checker::new();
        let name = c.required("name", &input.name, fields::NAME_MAX);
        let code = c
            .optional("code", input.code.as_deref(), fields::CODE_MAX)
            .map(|s| s.to_uppercase());
        let email = c.optional_email("email", input.email.as_deref());
        let contact_name = c.optional(
            "contactName",
            input.contact_name.as_deref(),
            fields::PERSON_NAME_MAX,
        );
        let phone = c.optional("phone", input.phone.as_deref(), fields::PHONE_MAX);
        let website = c.optional("website", input.website.as_deref(), fields::URL_MAX);
        let address_line1 = c.optional(
            "addressLine1",
            input.address_line1.as_deref(),
            fields::LINE_MAX,
        );
        let address_line2 = c.optional(
            "addressLine2",
            input.address_line2.as_deref(),
            fields::LINE_MAX,
        );
        let city = c.optional("city", input.city.as_deref(), fields::PLACE_MAX);
        let state = c.optional("state", input.state.as_deref(), fields::PLACE_MAX);
        let postal_code = c.optional(
            "postalCode",
            input.postal_code.as_deref(),
            fields::POSTAL_MAX,
        );
        let country = c.optional("country", input.country.as_deref(), fields::PLACE_MAX);
        let payment_terms = c.optional(
            "paymentTerms",
            input.payment_terms.as_deref(),
            fields::PLACE_MAX,
        );
        let account_number = c.optional(
            "accountNumber",
            input.account_number.as_deref(),
            fields::CODE_MAX,
        );
        let tax_id = c.optional("taxId", input.tax_id.as_deref(), fields::CODE_MAX);
        let notes = c.optional("notes", input.notes.as_deref(), fields::TEXT_MAX);
        let lead_time_days = c.range("leadTimeDays", input.lead_time_days, 0, 3650);
        let rating = c.range("rating", input.rating, 1, 5);
        if let Err(e) = c.finish() {
            return Ok(VendorPayload {
                user_errors: e,
                ..Default::default()
            });
        }
        let mut conn = context::conn(ctx).await?;
        let code = match code {
            Some(code) => {
                if model::vendor_id_by_code(&mut conn, &code).await?.is_some() {
                    return Ok(vendor_taken(&code));
                }
                code
            }
            None => model::next_vendor_code(&mut conn).await?,
        };
        let new = NewVendor {
            code: code.clone(),
            name,
            email,
            contact_name,
            phone,
            website,
            address_line1,
            address_line2,
            city,
            state,
            postal_code,
            country,
            payment_terms,
            account_number,
            tax_id,
            notes,
            lead_time_days,
            rating,
            is_active: input.is_active.unwrap_or(true),
        };
        match model::insert_vendor(&mut conn, &new).await {
            Ok(row) => Ok(VendorPayload {
                vendor: Some(row.into()),
                ..Default::default()
            }),
            Err(e) if e.code == ErrorCode::Conflict => Ok(vendor_taken(&code)),
            Err(e) => Err(e),
        }
    }

    /// Changes a vendor.
    #[graphql(guard = "Access::User")]
    async fn vendor_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: VendorUpdateInput,
    ) -> AppResult<VendorPayload> {
        let mut c = Checker::new();
        let name = input
            .name
            .as_deref()
            .map(|n| c.required("name", n, fields::NAME_MAX));
        let code = input
            .code
            .as_deref()
            .map(|code| c.required("code", code, fields::CODE_MAX).to_uppercase());
        let email = c.patch_email("email", &input.email);
        let contact_name = c.patch("contactName", &input.contact_name, fields::PERSON_NAME_MAX);
        let phone = c.patch("phone", &input.phone, fields::PHONE_MAX);
        let website = c.patch("website", &input.website, fields::URL_MAX);
        let address_line1 = c.patch("addressLine1", &input.address_line1, fields::LINE_MAX);
        let address_line2 = c.patch("addressLine2", &input.address_line2, fields::LINE_MAX);
        let city = c.patch("city", &input.city, fields::PLACE_MAX);
        let state = c.patch("state", &input.state, fields::PLACE_MAX);
        let postal_code = c.patch("postalCode", &input.postal_code, fields::POSTAL_MAX);
        let country = c.patch("country", &input.country, fields::PLACE_MAX);
        let payment_terms = c.patch("paymentTerms", &input.payment_terms, fields::PLACE_MAX);
        let account_number = c.patch("accountNumber", &input.account_number, fields::CODE_MAX);
        let tax_id = c.patch("taxId", &input.tax_id, fields::CODE_MAX);
        let notes = c.patch("notes", &input.notes, fields::TEXT_MAX);
        let lead_time_days = c.patch_range("leadTimeDays", &input.lead_time_days, 0, 3650);
        let rating = c.patch_range("rating", &input.rating, 1, 5);
        if let Err(e) = c.finish() {
            return Ok(VendorPayload {
                user_errors: e,
                ..Default::default()
            });
        }
        let mut conn = context::conn(ctx).await?;
        if let Some(code) = &code
            && model::vendor_id_by_code(&mut conn, code)
                .await?
                .is_some_and(|other| other != id)
        {
            return Ok(vendor_taken(code));
        }
        let changes = VendorChanges {
            code: code.clone(),
            name,
            email,
            contact_name,
            phone,
            website,
            address_line1,
            address_line2,
            city,
            state,
            postal_code,
            country,
            payment_terms,
            account_number,
            tax_id,
            notes,
            lead_time_days,
            rating,
            is_active: input.is_active,
        };
        match model::update_vendor(&mut conn, id, &changes).await {
            Ok(Some(row)) => Ok(VendorPayload {
                vendor: Some(row.into()),
                ..Default::default()
            }),
            Ok(None) => Err(AppError::not_found("Vendor not found")),
            Err(e) if e.code == ErrorCode::Conflict => {
                Ok(vendor_taken(code.as_deref().unwrap_or_default()))
            }
            Err(e) => Err(e),
        }
    }

    /// Deletes a vendor; one with purchase orders is deactivated instead.
    #[graphql(guard = "Access::User")]
    async fn vendor_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<VendorPayload> {
        let mut conn = context::conn(ctx).await?;
        let vendor = model::find_vendor(&mut conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Vendor not found"))?;
        let pos = model::purchase_order_counts(&mut conn, &[id])
            .await?
            .get(&id)
            .copied()
            .unwrap_or(0);
        if pos > 0 {
            let row = model::deactivate_vendor(&mut conn, id).await?;
            return Ok(VendorPayload {
                message: Some(format!(
                    "Vendor {} deactivated (has {pos} POs)",
                    vendor.code
                )),
                vendor: Some(row.into()),
                user_errors: vec![],
            });
        }
        model::delete_vendor(&mut conn, id).await?;
        Ok(VendorPayload {
            message: Some(format!("Vendor {} deleted", vendor.code)),
            vendor: Some(vendor.into()),
            user_errors: vec![],
        })
    }

    /// Creates a customer (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_create(
        &self,
        ctx: &Context<'_>,
        input: CustomerCreateInput,
    ) -> AppResult<CustomerPayload> {
        let mut c = Checker::new();
        let email = c.email("email", &input.email);
        let first_name = c.required("firstName", &input.first_name, fields::PERSON_NAME_MAX);
        let last_name = c.required("lastName", &input.last_name, fields::PERSON_NAME_MAX);
        let status =
            check_status(&mut c, input.status.as_deref()).unwrap_or_else(|| "active".into());
        let company_name = c.optional(
            "companyName",
            input.company_name.as_deref(),
            fields::NAME_MAX,
        );
        let phone = c.optional("phone", input.phone.as_deref(), fields::PHONE_MAX);
        let billing_address_line1 = c.optional(
            "billingAddressLine1",
            input.billing_address_line1.as_deref(),
            fields::LINE_MAX,
        );
        let billing_address_line2 = c.optional(
            "billingAddressLine2",
            input.billing_address_line2.as_deref(),
            fields::LINE_MAX,
        );
        let billing_city = c.optional(
            "billingCity",
            input.billing_city.as_deref(),
            fields::PLACE_MAX,
        );
        let billing_state = c.optional(
            "billingState",
            input.billing_state.as_deref(),
            fields::PLACE_MAX,
        );
        let billing_zip = c.optional(
            "billingZip",
            input.billing_zip.as_deref(),
            fields::POSTAL_MAX,
        );
        let billing_country = c.optional(
            "billingCountry",
            input.billing_country.as_deref(),
            fields::PLACE_MAX,
        );
        let shipping_address_line1 = c.optional(
            "shippingAddressLine1",
            input.shipping_address_line1.as_deref(),
            fields::LINE_MAX,
        );
        let shipping_address_line2 = c.optional(
            "shippingAddressLine2",
            input.shipping_address_line2.as_deref(),
            fields::LINE_MAX,
        );
        let shipping_city = c.optional(
            "shippingCity",
            input.shipping_city.as_deref(),
            fields::PLACE_MAX,
        );
        let shipping_state = c.optional(
            "shippingState",
            input.shipping_state.as_deref(),
            fields::PLACE_MAX,
        );
        let shipping_zip = c.optional(
            "shippingZip",
            input.shipping_zip.as_deref(),
            fields::POSTAL_MAX,
        );
        let shipping_country = c.optional(
            "shippingCountry",
            input.shipping_country.as_deref(),
            fields::PLACE_MAX,
        );
        let notes = c.optional("notes", input.notes.as_deref(), fields::TEXT_MAX);
        let email = match (c.finish(), email) {
            (Ok(()), Some(e)) => e,
            (Err(e), _) => {
                return Ok(CustomerPayload {
                    user_errors: e,
                    ..Default::default()
                });
            }
            (Ok(()), None) => {
                return Ok(CustomerPayload {
                    user_errors: vec![UserError::new(
                        "email",
                        UserErrorCode::Invalid,
                        "Field required",
                    )],
                    ..Default::default()
                });
            }
        };
        let mut conn = context::conn(ctx).await?;
        if model::customer_id_by_email(&mut conn, email.as_str())
            .await?
            .is_some()
        {
            return Ok(customer_taken());
        }
        let number = model::next_customer_numbers(&mut conn, 1)
            .await?
            .pop()
            .unwrap_or_default();
        let new = NewCustomer {
            customer_number: number,
            email: email.as_str().to_string(),
            first_name,
            last_name,
            status,
            company_name,
            phone,
            billing_address_line1,
            billing_address_line2,
            billing_city,
            billing_state,
            billing_zip,
            billing_country,
            shipping_address_line1,
            shipping_address_line2,
            shipping_city,
            shipping_state,
            shipping_zip,
            shipping_country,
            notes,
        };
        match model::insert_customer(&mut conn, &new).await {
            Ok(row) => Ok(CustomerPayload {
                customer: Some(row.into()),
                ..Default::default()
            }),
            Err(e) if e.code == ErrorCode::Conflict => Ok(customer_taken()),
            Err(e) => Err(e),
        }
    }

    /// Changes a customer (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: CustomerUpdateInput,
    ) -> AppResult<CustomerPayload> {
        let mut c = Checker::new();
        let email = input
            .email
            .as_deref()
            .and_then(|e| c.email("email", e))
            .map(|e| e.as_str().to_string());
        let first_name = input
            .first_name
            .as_deref()
            .map(|n| c.required("firstName", n, fields::PERSON_NAME_MAX));
        let last_name = input
            .last_name
            .as_deref()
            .map(|n| c.required("lastName", n, fields::PERSON_NAME_MAX));
        let status = check_status(&mut c, input.status.as_deref());
        let company_name = c.patch("companyName", &input.company_name, fields::NAME_MAX);
        let phone = c.patch("phone", &input.phone, fields::PHONE_MAX);
        let billing_address_line1 = c.patch(
            "billingAddressLine1",
            &input.billing_address_line1,
            fields::LINE_MAX,
        );
        let billing_address_line2 = c.patch(
            "billingAddressLine2",
            &input.billing_address_line2,
            fields::LINE_MAX,
        );
        let billing_city = c.patch("billingCity", &input.billing_city, fields::PLACE_MAX);
        let billing_state = c.patch("billingState", &input.billing_state, fields::PLACE_MAX);
        let billing_zip = c.patch("billingZip", &input.billing_zip, fields::POSTAL_MAX);
        let billing_country = c.patch("billingCountry", &input.billing_country, fields::PLACE_MAX);
        let shipping_address_line1 = c.patch(
            "shippingAddressLine1",
            &input.shipping_address_line1,
            fields::LINE_MAX,
        );
        let shipping_address_line2 = c.patch(
            "shippingAddressLine2",
            &input.shipping_address_line2,
            fields::LINE_MAX,
        );
        let shipping_city = c.patch("shippingCity", &input.shipping_city, fields::PLACE_MAX);
        let shipping_state = c.patch("shippingState", &input.shipping_state, fields::PLACE_MAX);
        let shipping_zip = c.patch("shippingZip", &input.shipping_zip, fields::POSTAL_MAX);
        let shipping_country = c.patch(
            "shippingCountry",
            &input.shipping_country,
            fields::PLACE_MAX,
        );
        let notes = c.patch("notes", &input.notes, fields::TEXT_MAX);
        if let Err(e) = c.finish() {
            return Ok(CustomerPayload {
                user_errors: e,
                ..Default::default()
            });
        }
        let mut conn = context::conn(ctx).await?;
        if let Some(e) = &email
            && model::customer_id_by_email(&mut conn, e)
                .await?
                .is_some_and(|other| other != id)
        {
            return Ok(customer_taken());
        }
        let changes = CustomerChanges {
            email,
            first_name,
            last_name,
            status,
            company_name,
            phone,
            billing_address_line1,
            billing_address_line2,
            billing_city,
            billing_state,
            billing_zip,
            billing_country,
            shipping_address_line1,
            shipping_address_line2,
            shipping_city,
            shipping_state,
            shipping_zip,
            shipping_country,
            notes,
        };
        match model::update_customer(&mut conn, id, &changes).await {
            Ok(Some(row)) => Ok(CustomerPayload {
                customer: Some(row.into()),
                ..Default::default()
            }),
            Ok(None) => Err(AppError::not_found("Customer not found")),
            Err(e) if e.code == ErrorCode::Conflict => Ok(customer_taken()),
            Err(e) => Err(e),
        }
    }

    /// Imports customers from a CSV file (admins). With `dryRun` it only reports.
    #[graphql(guard = "Access::Admin")]
    async fn customer_import(
        &self,
        ctx: &Context<'_>,
        file: async_graphql::Upload,
        #[graphql(desc = "Only check and report; change nothing.", default = false)] dry_run: bool,
    ) -> AppResult<crate::catalog::import::ImportReport> {
        let bytes = crate::catalog::files::read_upload(ctx, file)?;
        crate::partners::import::import_customers(&mut *context::conn(ctx).await?, &bytes, dry_run)
            .await
    }

    /// Deletes a customer; one with orders becomes inactive instead (admins).
    #[graphql(guard = "Access::Admin")]
    async fn customer_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<CustomerPayload> {
        let mut conn = context::conn(ctx).await?;
        let customer = model::find_customer(&mut conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Customer not found"))?;
        let orders = model::order_stats(&mut conn, &[id])
            .await?
            .get(&id)
            .map(|s| s.order_count)
            .unwrap_or(0);
        if orders > 0 {
            let changes = CustomerChanges {
                status: Some("inactive".into()),
                ..Default::default()
            };
            let row = model::update_customer(&mut conn, id, &changes).await?;
            return Ok(CustomerPayload {
                message: Some(format!(
                    "Customer {} has orders and was deactivated",
                    customer.customer_number
                )),
                customer: row.map(Customer::from),
                user_errors: vec![],
            });
        }
        model::delete_customer(&mut conn, id).await?;
        Ok(CustomerPayload {
            message: Some(format!("Customer {} deleted", customer.customer_number)),
            customer: Some(customer.into()),
            user_errors: vec![],
        })
    }
}

fn vendor_taken(code: &str) -> VendorPayload {
    VendorPayload {
        user_errors: vec![UserError::new(
            "code",
            UserErrorCode::Taken,
            format!("Vendor code '{code}' already exists"),
        )],
        ..Default::default()
    }
}

fn customer_taken() -> CustomerPayload {
    CustomerPayload {
        user_errors: vec![UserError::new(
            "email",
            UserErrorCode::Taken,
            "Email already registered",
        )],
        ..Default::default()
    }
}
