//! Vendor rules (spec 2.5, CONTRACT 5.14): generated `VND-NNN` codes unique ignoring case,
//! checked fields, and delete-or-deactivate depending on purchase orders.

use async_graphql::MaybeUndefined;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::fields::{
    CODE_MAX, Checker, LINE_MAX, NAME_MAX, PHONE_MAX, PLACE_MAX, POSTAL_MAX, TEXT_MAX, URL_MAX,
};
use crate::master_data::partners::model::{
    self, VendorCreateInput, VendorForm, VendorRow, VendorUpdateInput,
};
use crate::platform::db::schema::vendors;
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

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

/// Checks and normalises a new (`creating`) or changed vendor's form. `address` is the
/// input's whole-address text: it sets the street address unless `addressLine1` is given.
/// A blank or omitted code on create is left empty, to be generated.
pub fn check(
    form: &mut VendorForm,
    address: MaybeUndefined<String>,
    creating: bool,
) -> Result<(), Vec<UserError>> {
    let mut c = Checker::new();
    form.code = match form.code.take() {
        Some(code) if creating => c.optional_name("code", Some(&code), CODE_MAX),
        // FilaOps's vendor form sends `""` for a code it does not change: keep it.
        Some(code) if code.trim().is_empty() => None,
        Some(code) => Some(c.required("code", &code, CODE_MAX)),
        None => None,
    }
    .map(|s| s.to_uppercase());
    match form.name.take() {
        Some(name) => form.name = Some(c.required("name", &name, NAME_MAX)),
        None if creating => c.invalid("name", "Field required"),
        None => {}
    }
    c.form_name("contactName", &mut form.contact_name, NAME_MAX);
    if let Some(v) = form.email.take() {
        form.email = Some(c.optional_email("email", v.as_deref()));
    }
    c.form_text("phone", &mut form.phone, PHONE_MAX);
    c.form_text("website", &mut form.website, URL_MAX);
    let address = c.patch("address", &address, TEXT_MAX);
    c.form_text("addressLine1", &mut form.address_line1, LINE_MAX);
    // The street address wins when given (on create, when not blank).
    let line1_given = match &form.address_line1 {
        Some(line) => !creating || line.is_some(),
        None => false,
    };
    if !line1_given && address.is_some() {
        form.address_line1 = address;
    }
    c.form_text("addressLine2", &mut form.address_line2, LINE_MAX);
    c.form_text("city", &mut form.city, PLACE_MAX);
    c.form_text("state", &mut form.state, PLACE_MAX);
    c.form_text("postalCode", &mut form.postal_code, POSTAL_MAX);
    c.form_text("country", &mut form.country, PLACE_MAX);
    c.form_text("paymentTerms", &mut form.payment_terms, PLACE_MAX);
    c.form_text("accountNumber", &mut form.account_number, PLACE_MAX);
    c.form_text("taxId", &mut form.tax_id, CODE_MAX);
    c.form_text("notes", &mut form.notes, TEXT_MAX);
    if let Some(v) = form.lead_time_days.take() {
        form.lead_time_days = Some(c.range("leadTimeDays", v, 0, MAX_LEAD_TIME_DAYS));
    }
    if let Some(v) = form.rating.take() {
        form.rating = Some(c.range("rating", v, 1, 5));
    }
    c.finish()
}

/// Creates a vendor: checks the fields, generates the code when none is given, refuses a
/// code another vendor has (ignoring case).
pub async fn create(
    conn: &mut AsyncPgConnection,
    mut input: VendorCreateInput,
) -> AppResult<Result<VendorRow, Vec<UserError>>> {
    let address = std::mem::take(&mut input.address);
    let mut form = VendorForm::from(input);
    if let Err(errors) = check(&mut form, address, true) {
        return Ok(Err(errors));
    }
    let code = match form.code.take() {
        Some(code) => {
            if model::vendor_id_by_code(conn, &code).await?.is_some() {
                return Ok(Err(vec![code_taken(&code)]));
            }
            code
        }
        None => model::next_vendor_code(conn).await?,
    };
    form.code = Some(code.clone());
    match model::insert_vendor(conn, &form).await {
        Ok(row) => Ok(Ok(row)),
        // A concurrent create with the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![code_taken(&code)])),
        Err(e) => Err(e),
    }
}

/// Changes a vendor (404 when it does not exist; a code another vendor has is refused).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: VendorUpdateInput,
) -> AppResult<Result<VendorRow, Vec<UserError>>> {
    // A `null` code, name or active flag (which cannot be cleared) keeps the value: FilaOps's
    // client sends null for "not given".
    let address = std::mem::take(&mut input.address);
    let mut changes = VendorForm::from(input);
    if let Err(errors) = check(&mut changes, address, false) {
        return Ok(Err(errors));
    }
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
        let mut form = VendorForm {
            name: Some(" ".into()),
            email: Some(Some("buyer@vendor.local".into())),
            rating: Some(Some(0)),
            lead_time_days: Some(Some(-2)),
            ..Default::default()
        };
        let errors = check(&mut form, MaybeUndefined::Undefined, true).expect_err("invalid");
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["name", "email", "leadTimeDays", "rating"]);
    }

    #[test]
    fn blank_optional_values_are_null_and_the_address_text_is_kept() {
        let mut form = VendorForm {
            name: Some("Polymaker".into()),
            code: Some("  ".into()),
            email: Some(Some(" ".into())),
            address_line1: Some(None),
            ..Default::default()
        };
        let address = MaybeUndefined::Value("1 Filament Way\nShanghai".to_string());
        check(&mut form, address, true).expect("valid");
        assert_eq!(form.code, None);
        assert_eq!(form.email, Some(None));
        assert_eq!(
            form.address_line1,
            Some(Some("1 Filament Way\nShanghai".to_string()))
        );
        // Omitted: the database's default (active).
        assert_eq!(form.is_active, None);
    }

    #[test]
    fn changes_keep_absent_fields_and_a_null_name() {
        let input = VendorUpdateInput {
            name: MaybeUndefined::Null,
            phone: MaybeUndefined::Null,
            rating: MaybeUndefined::Value(4),
            ..Default::default()
        };
        let mut changes = VendorForm::from(input);
        check(&mut changes, MaybeUndefined::Undefined, false).expect("valid");
        assert_eq!(changes.phone, Some(None));
        assert_eq!(changes.rating, Some(Some(4)));
        assert_eq!(changes.name, None);
        assert_eq!(changes.address_line1, None);
    }
}
