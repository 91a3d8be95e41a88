//! Vendor rules (spec 2.5, CONTRACT 5.14): generated `VND-NNN` codes unique ignoring case,
//! checked fields, and delete-or-deactivate depending on purchase orders.

use async_graphql::{InputObject, MaybeUndefined};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::db::schema::vendors;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::limits::{length, range};
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::identity::email::EMAIL_MAX;
use crate::partners::fields::{
    CODE_MAX, Checker, LINE_MAX, NAME_MAX, PHONE_MAX, PLACE_MAX, POSTAL_MAX, TEXT_MAX, URL_MAX,
};
use crate::partners::model::{self, NewVendor, VendorChanges, VendorRow};

/// A new vendor.
#[derive(Debug, Clone, Default, InputObject)]
pub struct VendorCreateInput {
    /// Code (stored in upper case); `VND-NNN` from a sequence when omitted or blank. Unique
    /// ignoring case.
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: Option<String>,
    /// Name (required).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: String,
    /// Contact person.
    #[graphql(directive = length::apply(NAME_MAX))]
    pub contact_name: Option<String>,
    /// E-mail (checked when given; special-use domains such as `.local` are refused).
    #[graphql(directive = length::apply(EMAIL_MAX))]
    pub email: Option<String>,
    /// Phone.
    #[graphql(directive = length::apply(PHONE_MAX))]
    pub phone: Option<String>,
    /// Web site.
    #[graphql(directive = length::apply(URL_MAX))]
    pub website: Option<String>,
    /// The whole address as one text (spec 2.5); kept as the street address unless
    /// `addressLine1` is also given.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub address: Option<String>,
    /// Street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line1: Option<String>,
    /// Second address line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line2: Option<String>,
    /// City.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub city: Option<String>,
    /// State or province.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub state: Option<String>,
    /// Postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub postal_code: Option<String>,
    /// Country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub country: Option<String>,
    /// Payment terms, free text such as `Net 30`.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub payment_terms: Option<String>,
    /// Our account number with the vendor.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub account_number: Option<String>,
    /// The vendor's tax id.
    #[graphql(directive = length::apply(CODE_MAX))]
    pub tax_id: Option<String>,
    /// Usual days from order to receipt (0 to 3650).
    #[graphql(directive = range::apply(0, i64::from(MAX_LEAD_TIME_DAYS)))]
    pub lead_time_days: Option<i32>,
    /// Rating from 1 (poor) to 5 (excellent).
    #[graphql(directive = range::apply(1, 5))]
    pub rating: Option<i32>,
    /// Notes.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub notes: Option<String>,
    /// Whether new purchase orders may use it (default true).
    pub is_active: Option<bool>,
}

/// Changes to a vendor: omitted fields keep their value, `null` clears an optional one.
#[derive(Debug, Clone, Default, InputObject)]
pub struct VendorUpdateInput {
    /// New code (unique ignoring case; cannot be cleared).
    #[graphql(directive = length::apply(CODE_MAX))]
    pub code: MaybeUndefined<String>,
    /// New name (cannot be cleared).
    #[graphql(directive = length::apply(NAME_MAX))]
    pub name: MaybeUndefined<String>,
    /// New contact person.
    #[graphql(directive = length::apply(NAME_MAX))]
    pub contact_name: MaybeUndefined<String>,
    /// New e-mail.
    #[graphql(directive = length::apply(EMAIL_MAX))]
    pub email: MaybeUndefined<String>,
    /// New phone.
    #[graphql(directive = length::apply(PHONE_MAX))]
    pub phone: MaybeUndefined<String>,
    /// New web site.
    #[graphql(directive = length::apply(URL_MAX))]
    pub website: MaybeUndefined<String>,
    /// The whole address as one text; sets the street address unless `addressLine1` is
    /// also given.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub address: MaybeUndefined<String>,
    /// New street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line1: MaybeUndefined<String>,
    /// New second address line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line2: MaybeUndefined<String>,
    /// New city.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub city: MaybeUndefined<String>,
    /// New state or province.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub state: MaybeUndefined<String>,
    /// New postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub postal_code: MaybeUndefined<String>,
    /// New country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub country: MaybeUndefined<String>,
    /// New payment terms.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub payment_terms: MaybeUndefined<String>,
    /// New account number.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub account_number: MaybeUndefined<String>,
    /// New tax id.
    #[graphql(directive = length::apply(CODE_MAX))]
    pub tax_id: MaybeUndefined<String>,
    /// New lead time in days (0 to 3650).
    #[graphql(directive = range::apply(0, i64::from(MAX_LEAD_TIME_DAYS)))]
    pub lead_time_days: MaybeUndefined<i32>,
    /// New rating (1..5).
    #[graphql(directive = range::apply(1, 5))]
    pub rating: MaybeUndefined<i32>,
    /// New notes.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub notes: MaybeUndefined<String>,
    /// New active flag.
    pub is_active: Option<bool>,
}

/// Longest lead time accepted (ten years).
pub const MAX_LEAD_TIME_DAYS: i32 = 3650;

fn code_taken(code: &str) -> UserError {
    UserError::new(
        "code",
        UserErrorCode::Taken,
        format!("Vendor code '{code}' already exists"),
    )
}

fn not_found() -> AppError {
    AppError::not_found("Vendor not found")
}

/// Checks a new vendor; the code is left empty when it is to be generated.
pub fn validate_new(input: &VendorCreateInput) -> Result<NewVendor, Vec<UserError>> {
    let mut c = Checker::new();
    let code = c
        .optional_name("code", input.code.as_deref(), CODE_MAX)
        .map(|s| s.to_uppercase());
    let address = c.optional("address", input.address.as_deref(), TEXT_MAX);
    let new = NewVendor {
        code: code.unwrap_or_default(),
        name: c.required("name", &input.name, NAME_MAX),
        contact_name: c.optional_name("contactName", input.contact_name.as_deref(), NAME_MAX),
        email: c.optional_email("email", input.email.as_deref()),
        phone: c.optional("phone", input.phone.as_deref(), PHONE_MAX),
        website: c.optional("website", input.website.as_deref(), URL_MAX),
        address_line1: c
            .optional("addressLine1", input.address_line1.as_deref(), LINE_MAX)
            .or(address),
        address_line2: c.optional("addressLine2", input.address_line2.as_deref(), LINE_MAX),
        city: c.optional("city", input.city.as_deref(), PLACE_MAX),
        state: c.optional("state", input.state.as_deref(), PLACE_MAX),
        postal_code: c.optional("postalCode", input.postal_code.as_deref(), POSTAL_MAX),
        country: c.optional("country", input.country.as_deref(), PLACE_MAX),
        payment_terms: c.optional("paymentTerms", input.payment_terms.as_deref(), PLACE_MAX),
        account_number: c.optional("accountNumber", input.account_number.as_deref(), PLACE_MAX),
        tax_id: c.optional("taxId", input.tax_id.as_deref(), CODE_MAX),
        lead_time_days: c.range("leadTimeDays", input.lead_time_days, 0, MAX_LEAD_TIME_DAYS),
        rating: c.range("rating", input.rating, 1, 5),
        notes: c.optional("notes", input.notes.as_deref(), TEXT_MAX),
        is_active: input.is_active.unwrap_or(true),
    };
    c.finish().map(|()| new)
}

/// Checks changes to a vendor.
pub fn validate_changes(input: &VendorUpdateInput) -> Result<VendorChanges, Vec<UserError>> {
    let mut c = Checker::new();
    let address = c.patch("address", &input.address, TEXT_MAX);
    let address_line1 = match c.patch("addressLine1", &input.address_line1, LINE_MAX) {
        Some(line) => Some(line),
        None => address,
    };
    let changes = VendorChanges {
        code: c
            .patch_required("code", &input.code, CODE_MAX)
            .map(|s| s.to_uppercase()),
        name: c.patch_required("name", &input.name, NAME_MAX),
        contact_name: c.patch_name("contactName", &input.contact_name, NAME_MAX),
        email: c.patch_email("email", &input.email),
        phone: c.patch("phone", &input.phone, PHONE_MAX),
        website: c.patch("website", &input.website, URL_MAX),
        address_line1,
        address_line2: c.patch("addressLine2", &input.address_line2, LINE_MAX),
        city: c.patch("city", &input.city, PLACE_MAX),
        state: c.patch("state", &input.state, PLACE_MAX),
        postal_code: c.patch("postalCode", &input.postal_code, POSTAL_MAX),
        country: c.patch("country", &input.country, PLACE_MAX),
        payment_terms: c.patch("paymentTerms", &input.payment_terms, PLACE_MAX),
        account_number: c.patch("accountNumber", &input.account_number, PLACE_MAX),
        tax_id: c.patch("taxId", &input.tax_id, CODE_MAX),
        lead_time_days: c.patch_range("leadTimeDays", &input.lead_time_days, 0, MAX_LEAD_TIME_DAYS),
        rating: c.patch_range("rating", &input.rating, 1, 5),
        notes: c.patch("notes", &input.notes, TEXT_MAX),
        is_active: input.is_active,
    };
    c.finish().map(|()| changes)
}

/// Creates a vendor: checks the fields, generates the code when none is given, refuses a
/// code another vendor has (ignoring case).
pub async fn create(
    conn: &mut AsyncPgConnection,
    input: &VendorCreateInput,
) -> AppResult<Result<VendorRow, Vec<UserError>>> {
    let mut new = match validate_new(input) {
        Ok(n) => n,
        Err(errors) => return Ok(Err(errors)),
    };
    if new.code.is_empty() {
        new.code = model::next_vendor_code(conn).await?;
    } else if model::vendor_id_by_code(conn, &new.code).await?.is_some() {
        return Ok(Err(vec![code_taken(&new.code)]));
    }
    match model::insert_vendor(conn, &new).await {
        Ok(row) => Ok(Ok(row)),
        // A concurrent create with the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![code_taken(&new.code)])),
        Err(e) => Err(e),
    }
}

/// Changes a vendor (404 when it does not exist; a code another vendor has is refused).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: &VendorUpdateInput,
) -> AppResult<Result<VendorRow, Vec<UserError>>> {
    let changes = match validate_changes(input) {
        Ok(c) => c,
        Err(errors) => return Ok(Err(errors)),
    };
    if let Some(code) = &changes.code
        && model::vendor_id_by_code(conn, code)
            .await?
            .is_some_and(|other| other != id)
    {
        return Ok(Err(vec![code_taken(code)]));
    }
    match model::update_vendor(conn, id, &changes).await {
        Ok(Some(row)) => Ok(Ok(row)),
        Ok(None) => Err(not_found()),
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![code_taken(
            changes.code.as_deref().unwrap_or_default(),
        )])),
        Err(e) => Err(e),
    }
}

/// How many purchase orders name this vendor (0 until purchasing exists; see
/// [`model::purchase_order_counts`]).
pub async fn purchase_order_count(conn: &mut AsyncPgConnection, vendor_id: i64) -> AppResult<i64> {
    Ok(model::purchase_order_counts(conn, &[vendor_id])
        .await?
        .get(&vendor_id)
        .copied()
        .unwrap_or(0))
}

/// What a delete did.
#[derive(Debug, Clone)]
pub struct VendorRemoval {
    /// The contract's message (`Vendor VND-001 deleted` or `... deactivated (has N POs)`).
    pub message: String,
    /// True when the row is gone; false when it was deactivated instead.
    pub deleted: bool,
    /// The vendor as it was (deleted) or after deactivation.
    pub vendor: VendorRow,
    /// Its purchase orders.
    pub purchase_order_count: i64,
}

/// Deletes a vendor that no purchase order names, and deactivates one that some do (their
/// history must keep its vendor). The row is locked while deciding, so a purchase order
/// created at the same moment cannot slip in between the count and the delete.
pub async fn remove(conn: &mut AsyncPgConnection, id: i64) -> AppResult<VendorRemoval> {
    conn.transaction::<_, AppError, _>(async move |conn| {
        let vendor: VendorRow = vendors::table
            .find(id)
            .select(VendorRow::as_select())
            .for_update()
            .first(conn)
            .await
            .optional()?
            .ok_or_else(not_found)?;
        let count = purchase_order_count(conn, id).await?;
        if count > 0 {
            let after = model::deactivate_vendor(conn, id).await?;
            Ok(VendorRemoval {
                message: format!("Vendor {} deactivated (has {count} POs)", vendor.code),
                deleted: false,
                vendor: after,
                purchase_order_count: count,
            })
        } else {
            model::delete_vendor(conn, id).await?;
            Ok(VendorRemoval {
                message: format!("Vendor {} deleted", vendor.code),
                deleted: true,
                vendor,
                purchase_order_count: 0,
            })
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_vendor_is_checked_field_by_field() {
        let input = VendorCreateInput {
            name: " ".into(),
            email: Some("buyer@vendor.local".into()),
            rating: Some(0),
            lead_time_days: Some(-2),
            ..Default::default()
        };
        let errors = validate_new(&input).expect_err("invalid");
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["name", "email", "leadTimeDays", "rating"]);
    }

    #[test]
    fn blank_optional_values_are_null_and_the_address_text_is_kept() {
        let input = VendorCreateInput {
            name: "Polymaker".into(),
            code: Some("  ".into()),
            email: Some(" ".into()),
            address: Some("1 Filament Way\nShanghai".into()),
            ..Default::default()
        };
        let new = validate_new(&input).expect("valid");
        assert_eq!(new.code, "");
        assert_eq!(new.email, None);
        assert_eq!(
            new.address_line1.as_deref(),
            Some("1 Filament Way\nShanghai")
        );
        assert!(new.is_active);
    }

    #[test]
    fn changes_keep_absent_fields_and_refuse_a_null_name() {
        let input = VendorUpdateInput {
            name: MaybeUndefined::Null,
            ..Default::default()
        };
        assert!(validate_changes(&input).is_err());
        let input = VendorUpdateInput {
            phone: MaybeUndefined::Null,
            rating: MaybeUndefined::Value(4),
            ..Default::default()
        };
        let changes = validate_changes(&input).expect("valid");
        assert_eq!(changes.phone, Some(None));
        assert_eq!(changes.rating, Some(Some(4)));
        assert_eq!(changes.name, None);
        assert_eq!(changes.address_line1, None);
    }
}
