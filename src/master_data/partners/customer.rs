//! Customer rules (spec 2.6, CONTRACT 5.5): first name, last name and e-mail required, the
//! e-mail unique ignoring case, `CUST-NNNNNN` numbers from a sequence, and
//! delete-or-deactivate depending on orders. Customers are their own records, not users.

use async_graphql::MaybeUndefined;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::fields::{
    Checker, LINE_MAX, NAME_MAX, PERSON_NAME_MAX, PHONE_MAX, PLACE_MAX, POSTAL_MAX, TEXT_MAX,
};
use crate::master_data::partners::model::{self, CustomerForm, CustomerRow, OrderStats};
pub use crate::master_data::partners::model::{
    CustomerCreateInput, CustomerStatus, CustomerUpdateInput, PaymentTerms,
};
use crate::platform::db::schema::customers;
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

/// The answer to an e-mail another customer has.
pub fn email_taken() -> UserError {
    UserError::new("email", UserErrorCode::Taken, "Email already registered")
}

fn not_found() -> AppError {
    AppError::not_found("Customer not found")
}

/// The input's shared address (line 1, line 2, city, state, postal code, country), taken
/// out of a create or an update input: each part fills the billing and the shipping column.
macro_rules! take_shared_address {
    ($input:expr) => {
        [
            std::mem::take(&mut $input.address_line1),
            std::mem::take(&mut $input.address_line2),
            std::mem::take(&mut $input.city),
            std::mem::take(&mut $input.state),
            std::mem::take(&mut $input.postal_code),
            std::mem::take(&mut $input.country),
        ]
    };
}

/// Checks and normalises a new (`creating`) or changed customer's form. `shared` is the
/// input's shared address (see [`take_shared_address`]): each part sets the billing and the
/// shipping column unless that column is given itself (on create: given and not blank). A
/// new customer's blank column takes the database default, so a country is `USA` unless
/// one is given.
pub fn check(
    form: &mut CustomerForm,
    shared: [MaybeUndefined<String>; 6],
    creating: bool,
) -> Result<(), Vec<UserError>> {
    let mut c = Checker::new();
    match form.email.take() {
        Some(raw) => form.email = c.email("email", &raw).map(|e| e.as_str().to_string()),
        None if creating => c.invalid("email", "Field required"),
        None => {}
    }
    for (field, value) in [
        ("firstName", &mut form.first_name),
        ("lastName", &mut form.last_name),
    ] {
        match value.take() {
            Some(v) => *value = Some(c.required(field, &v, PERSON_NAME_MAX)),
            None if creating => c.invalid(field, "Field required"),
            None => {}
        }
    }
    c.form_name("companyName", &mut form.company_name, NAME_MAX);
    c.form_text("phone", &mut form.phone, PHONE_MAX);
    let parts = [
        ("addressLine1", LINE_MAX),
        ("addressLine2", LINE_MAX),
        ("city", PLACE_MAX),
        ("state", PLACE_MAX),
        ("postalCode", POSTAL_MAX),
        ("country", PLACE_MAX),
    ];
    let shared: Vec<Option<Option<String>>> = parts
        .iter()
        .zip(&shared)
        .map(|(&(field, max), value)| c.patch(field, value, max))
        .collect();
    let billing = [
        ("billingAddressLine1", &mut form.billing_address_line1),
        ("billingAddressLine2", &mut form.billing_address_line2),
        ("billingCity", &mut form.billing_city),
        ("billingState", &mut form.billing_state),
        ("billingZip", &mut form.billing_zip),
        ("billingCountry", &mut form.billing_country),
    ];
    let shipping = [
        ("shippingAddressLine1", &mut form.shipping_address_line1),
        ("shippingAddressLine2", &mut form.shipping_address_line2),
        ("shippingCity", &mut form.shipping_city),
        ("shippingState", &mut form.shipping_state),
        ("shippingZip", &mut form.shipping_zip),
        ("shippingCountry", &mut form.shipping_country),
    ];
    for columns in [billing, shipping] {
        for (((field, column), (_, max)), shared) in columns.into_iter().zip(parts).zip(&shared) {
            c.form_text(field, column, max);
            let given = match column {
                Some(value) => !creating || value.is_some(),
                None => false,
            };
            if !given {
                column.clone_from(shared);
            }
            if creating && *column == Some(None) {
                *column = None;
            }
        }
    }
    c.form_text("notes", &mut form.notes, TEXT_MAX);
    c.form_text(
        "taxExemptCertificate",
        &mut form.tax_exempt_certificate,
        PLACE_MAX,
    );
    if let Some(Some(limit)) = &form.credit_limit
        && limit.0 < 0
    {
        c.invalid("creditLimit", "Input should be greater than or equal to 0");
    }
    if creating {
        terms_need_approval(
            &mut c,
            form.payment_terms.unwrap_or(PaymentTerms::Cod),
            form.approved_for_terms.unwrap_or(false),
        );
    }
    c.finish()
}

/// Net terms give credit, which an admin approves first (FilaOps's rule and message).
fn terms_need_approval(c: &mut Checker, terms: PaymentTerms, approved: bool) {
    if terms.is_net() && !approved {
        c.invalid(
            "paymentTerms",
            format!("Payment terms '{terms}' require approved_for_terms=true"),
        );
    }
}

/// Stamps who approved the customer for terms and when, when this change approves it;
/// withdrawing the approval clears both.
fn stamp_approval(form: &mut CustomerForm, was_approved: bool, by: Option<i64>) {
    match form.approved_for_terms {
        Some(true) if !was_approved => {
            form.approved_for_terms_at = Some(Some(chrono::Utc::now()));
            form.approved_for_terms_by = Some(by);
        }
        Some(false) if was_approved => {
            form.approved_for_terms_at = Some(None);
            form.approved_for_terms_by = Some(None);
        }
        _ => {}
    }
}

/// A tax rate or price level named on the customer that is not an active one, as the
/// refusal to give.
async fn unknown_references(
    conn: &mut AsyncPgConnection,
    form: &CustomerForm,
) -> AppResult<Option<UserError>> {
    use crate::platform::graphql::user_error::UserErrorCode::NotFound;
    if let Some(Some(id)) = form.tax_rate_id {
        let active = crate::master_data::tax::model::find(conn, id)
            .await?
            .is_some_and(|r| r.is_active);
        if !active {
            return Ok(Some(UserError::new(
                "taxRateId",
                NotFound,
                format!("Tax rate {id} not found"),
            )));
        }
    }
    if let Some(Some(id)) = form.price_level_id {
        let active = crate::master_data::pricing::model::find(conn, id)
            .await?
            .is_some_and(|r| r.is_active);
        if !active {
            return Ok(Some(UserError::new(
                "priceLevelId",
                NotFound,
                format!("Price level {id} not found"),
            )));
        }
    }
    Ok(None)
}

/// A new customer's form, checked ([`check`]); the number is left empty (it is drawn when
/// inserting). The CSV importers build their rows through this too.
pub fn new_form(mut input: CustomerCreateInput) -> Result<CustomerForm, Vec<UserError>> {
    let shared = take_shared_address!(input);
    let mut form = CustomerForm::from(input);
    check(&mut form, shared, true).map(|()| form)
}

/// Creates a customer with the next `CUST-NNNNNN` number; an e-mail another customer has
/// (ignoring case) is refused.
pub async fn create(
    conn: &mut AsyncPgConnection,
    input: CustomerCreateInput,
    by: Option<i64>,
) -> AppResult<Result<CustomerRow, Vec<UserError>>> {
    let mut form = match new_form(input) {
        Ok(form) => form,
        Err(errors) => return Ok(Err(errors)),
    };
    stamp_approval(&mut form, false, by);
    if let Some(refusal) = unknown_references(conn, &form).await? {
        return Ok(Err(vec![refusal]));
    }
    let email = form.email.clone().unwrap_or_default();
    if model::customer_id_by_email(conn, &email).await?.is_some() {
        return Ok(Err(vec![email_taken()]));
    }
    let number = model::next_customer_numbers(conn, 1).await?.pop();
    form.customer_number = Some(
        number
            .ok_or_else(|| AppError::internal("the customer number sequence returned nothing"))?,
    );
    match model::insert_customer(conn, &form).await {
        Ok(row) => Ok(Ok(row)),
        // A concurrent create with the same e-mail lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![email_taken()])),
        Err(e) => Err(e),
    }
}

/// Changes a customer (404 when it does not exist; an e-mail another customer has is
/// refused; net terms without approval, as the change leaves the customer, are refused).
/// `by` is the admin making the change, stamped on a new approval for terms.
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    mut input: CustomerUpdateInput,
    by: Option<i64>,
) -> AppResult<Result<CustomerRow, Vec<UserError>>> {
    // A `null` e-mail, name or status (which cannot be cleared) keeps the value: FilaOps's
    // client sends null for "not given".
    let shared = take_shared_address!(input);
    let mut changes = CustomerForm::from(input);
    if let Err(errors) = check(&mut changes, shared, false) {
        return Ok(Err(errors));
    }
    if let Some(refusal) = unknown_references(conn, &changes).await? {
        return Ok(Err(vec![refusal]));
    }
    if changes.payment_terms.is_some() || changes.approved_for_terms.is_some() {
        // Locked: two admins changing terms and approval at once cannot leave net terms
        // unapproved between them.
        let current: CustomerRow = match customers::table
            .find(id)
            .select(CustomerRow::as_select())
            .for_update()
            .first(conn)
            .await
            .optional()?
        {
            Some(row) => row,
            None => return Err(not_found()),
        };
        let mut c = Checker::new();
        terms_need_approval(
            &mut c,
            changes.payment_terms.unwrap_or(current.payment_terms),
            changes
                .approved_for_terms
                .unwrap_or(current.approved_for_terms),
        );
        if let Err(errors) = c.finish() {
            return Ok(Err(errors));
        }
        stamp_approval(&mut changes, current.approved_for_terms, by);
    }
    if let Some(email) = &changes.email
        && model::customer_id_by_email(conn, email)
            .await?
            .is_some_and(|other| other != id)
    {
        return Ok(Err(vec![email_taken()]));
    }
    match model::update_customer(conn, id, &changes).await {
        Ok(Some(row)) => Ok(Ok(row)),
        Ok(None) => Err(not_found()),
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![email_taken()])),
        Err(e) => Err(e),
    }
}

/// A customer's order figures (none until sales exists; see [`model::order_stats`]).
pub async fn order_stats(conn: &mut AsyncPgConnection, customer_id: i64) -> AppResult<OrderStats> {
    Ok(model::order_stats(conn, &[customer_id])
        .await?
        .remove(&customer_id)
        .unwrap_or_default())
}

/// What a delete did.
#[derive(Debug, Clone)]
pub struct CustomerRemoval {
    /// True when the row is gone; false when it was set inactive instead.
    pub deleted: bool,
    /// The customer as it was (deleted) or after deactivation.
    pub customer: CustomerRow,
    /// Its order figures.
    pub stats: OrderStats,
    /// What happened, in words.
    pub message: String,
}

/// Deletes a customer without orders; one with orders becomes inactive instead (their
/// history must keep its customer). The row is locked while deciding, so an order placed at
/// the same moment cannot slip in between the count and the delete.
pub async fn remove(conn: &mut AsyncPgConnection, id: i64) -> AppResult<CustomerRemoval> {
    conn.transaction::<_, AppError, _>(async move |conn| {
        let customer: CustomerRow = customers::table
            .find(id)
            .select(CustomerRow::as_select())
            .for_update()
            .first(conn)
            .await
            .optional()?
            .ok_or_else(not_found)?;
        let stats = order_stats(conn, id).await?;
        if stats.order_count > 0 {
            let after = model::update_customer(
                conn,
                id,
                &CustomerForm {
                    status: Some(CustomerStatus::Inactive),
                    ..Default::default()
                },
            )
            .await?
            .ok_or_else(not_found)?;
            Ok(CustomerRemoval {
                deleted: false,
                message: format!(
                    "Customer {} deactivated (has {} orders)",
                    customer.customer_number, stats.order_count
                ),
                customer: after,
                stats,
            })
        } else {
            model::delete_customer(conn, id).await?;
            Ok(CustomerRemoval {
                deleted: true,
                message: format!("Customer {} deleted", customer.customer_number),
                customer,
                stats,
            })
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use async_graphql::{InputType, Value, value};

    use super::*;

    fn create_input(value: Value) -> CustomerCreateInput {
        CustomerCreateInput::parse(Some(value)).expect("a create input")
    }

    fn update_input(value: Value) -> CustomerUpdateInput {
        CustomerUpdateInput::parse(Some(value)).expect("an update input")
    }

    fn changes(value: Value) -> Result<CustomerForm, Vec<UserError>> {
        let mut input = update_input(value);
        let shared = take_shared_address!(input);
        let mut form = CustomerForm::from(input);
        check(&mut form, shared, false).map(|()| form)
    }

    #[test]
    fn names_and_email_are_required() {
        let input = create_input(value!({"email": "nope", "firstName": " ", "lastName": ""}));
        let errors = new_form(input).expect_err("invalid");
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["email", "firstName", "lastName"]);
    }

    #[test]
    fn the_address_fills_billing_and_shipping_unless_given_separately() {
        let input = create_input(value!({
            "email": " Ada@Example.com ", "firstName": "Ada", "lastName": "Lovelace",
            "addressLine1": "1 Analytical Row", "city": "London", "shippingCity": "Oxford",
            "billingCountry": " ",
        }));
        let new = new_form(input).expect("valid");
        assert_eq!(new.email.as_deref(), Some("ada@example.com"));
        assert_eq!(new.status, None, "the database's default: active");
        assert_eq!(new.customer_number, None);
        let line1 = Some(Some("1 Analytical Row".to_string()));
        assert_eq!(new.billing_address_line1, line1);
        assert_eq!(new.shipping_address_line1, line1);
        assert_eq!(new.billing_city, Some(Some("London".into())));
        assert_eq!(new.shipping_city, Some(Some("Oxford".into())));
        assert_eq!(
            new.billing_country, None,
            "a blank country takes the default"
        );
        assert_eq!(new.shipping_country, None);
    }

    #[test]
    fn changes_clear_with_null_and_keep_a_null_email_or_name() {
        let form =
            changes(value!({"city": null, "billingCity": "Leeds", "status": null})).expect("valid");
        assert_eq!(form.billing_city, Some(Some("Leeds".into())));
        assert_eq!(form.shipping_city, Some(None));
        assert_eq!(form.email, None);
        assert_eq!(form.status, None);
        let form = changes(value!({"status": "suspended", "country": " "})).expect("valid");
        assert_eq!(form.status, Some(CustomerStatus::Suspended));
        assert_eq!(form.billing_country, Some(None), "blank clears on update");
        let form = changes(value!({"email": null, "lastName": null})).expect("kept");
        assert_eq!(
            (form.email, form.last_name),
            (None, None),
            "null keeps them"
        );
    }
}
