//! Customer rules (spec 2.6, CONTRACT 5.5): first name, last name and e-mail required, the
//! e-mail unique ignoring case, `CUST-NNNNNN` numbers from a sequence, and
//! delete-or-deactivate depending on orders. Customers are their own records, not users.

use async_graphql::{Enum, InputObject, MaybeUndefined};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::db::schema::customers;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::graphql::limits::length;
use crate::graphql::user_error::{UserError, UserErrorCode};
use crate::identity::email::EMAIL_MAX;
use crate::partners::fields::{
    Checker, LINE_MAX, NAME_MAX, PERSON_NAME_MAX, PHONE_MAX, PLACE_MAX, POSTAL_MAX, TEXT_MAX,
};
use crate::partners::model::{self, CustomerChanges, CustomerRow, NewCustomer, OrderStats};

/// Whether a customer may be sold to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[graphql(rename_items = "snake_case")]
pub enum CustomerStatus {
    /// May be sold to; listed by default.
    Active,
    /// Kept for history (for instance deleted while it had orders).
    Inactive,
    /// Blocked for now.
    Suspended,
}

impl CustomerStatus {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            CustomerStatus::Active => "active",
            CustomerStatus::Inactive => "inactive",
            CustomerStatus::Suspended => "suspended",
        }
    }

    /// Reads the stored text (unknown values read as inactive).
    pub fn parse(s: &str) -> CustomerStatus {
        match s.trim().to_ascii_lowercase().as_str() {
            "active" => CustomerStatus::Active,
            "suspended" => CustomerStatus::Suspended,
            _ => CustomerStatus::Inactive,
        }
    }
}

/// A new customer.
#[derive(Debug, Clone, Default, InputObject)]
pub struct CustomerCreateInput {
    /// E-mail (required, unique ignoring case; special-use domains such as `.local` are
    /// refused).
    #[graphql(directive = length::apply(EMAIL_MAX))]
    pub email: String,
    /// Given name (required).
    #[graphql(directive = length::apply(PERSON_NAME_MAX))]
    pub first_name: String,
    /// Family name (required).
    #[graphql(directive = length::apply(PERSON_NAME_MAX))]
    pub last_name: String,
    /// Company.
    #[graphql(directive = length::apply(NAME_MAX))]
    pub company_name: Option<String>,
    /// Phone.
    #[graphql(directive = length::apply(PHONE_MAX))]
    pub phone: Option<String>,
    /// The customer's address (spec 2.6): street line, used for billing and shipping unless
    /// the billing or shipping field itself is given. Likewise the next five fields.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line1: Option<String>,
    /// Second address line (billing and shipping unless given separately).
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line2: Option<String>,
    /// City (billing and shipping unless given separately).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub city: Option<String>,
    /// State or province (billing and shipping unless given separately).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub state: Option<String>,
    /// Postal code (billing and shipping unless given separately).
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub postal_code: Option<String>,
    /// Country (billing and shipping unless given separately; `USA` when none is given).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub country: Option<String>,
    /// Billing street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub billing_address_line1: Option<String>,
    /// Billing second line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub billing_address_line2: Option<String>,
    /// Billing city.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_city: Option<String>,
    /// Billing state.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_state: Option<String>,
    /// Billing postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub billing_zip: Option<String>,
    /// Billing country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_country: Option<String>,
    /// Shipping street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub shipping_address_line1: Option<String>,
    /// Shipping second line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub shipping_address_line2: Option<String>,
    /// Shipping city.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_city: Option<String>,
    /// Shipping state.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_state: Option<String>,
    /// Shipping postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub shipping_zip: Option<String>,
    /// Shipping country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_country: Option<String>,
    /// Notes.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub notes: Option<String>,
    /// Status (default active).
    pub status: Option<CustomerStatus>,
}

/// Changes to a customer: omitted fields keep their value, `null` clears an optional one.
#[derive(Debug, Clone, Default, InputObject)]
pub struct CustomerUpdateInput {
    /// New e-mail (unique ignoring case; cannot be cleared).
    #[graphql(directive = length::apply(EMAIL_MAX))]
    pub email: MaybeUndefined<String>,
    /// New given name (cannot be cleared).
    #[graphql(directive = length::apply(PERSON_NAME_MAX))]
    pub first_name: MaybeUndefined<String>,
    /// New family name (cannot be cleared).
    #[graphql(directive = length::apply(PERSON_NAME_MAX))]
    pub last_name: MaybeUndefined<String>,
    /// New company.
    #[graphql(directive = length::apply(NAME_MAX))]
    pub company_name: MaybeUndefined<String>,
    /// New phone.
    #[graphql(directive = length::apply(PHONE_MAX))]
    pub phone: MaybeUndefined<String>,
    /// New street line of the customer's address: sets billing and shipping unless the
    /// billing or shipping field itself is given. Likewise the next five fields.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line1: MaybeUndefined<String>,
    /// New second address line (billing and shipping).
    #[graphql(directive = length::apply(LINE_MAX))]
    pub address_line2: MaybeUndefined<String>,
    /// New city (billing and shipping).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub city: MaybeUndefined<String>,
    /// New state (billing and shipping).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub state: MaybeUndefined<String>,
    /// New postal code (billing and shipping).
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub postal_code: MaybeUndefined<String>,
    /// New country (billing and shipping).
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub country: MaybeUndefined<String>,
    /// New billing street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub billing_address_line1: MaybeUndefined<String>,
    /// New billing second line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub billing_address_line2: MaybeUndefined<String>,
    /// New billing city.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_city: MaybeUndefined<String>,
    /// New billing state.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_state: MaybeUndefined<String>,
    /// New billing postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub billing_zip: MaybeUndefined<String>,
    /// New billing country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub billing_country: MaybeUndefined<String>,
    /// New shipping street address.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub shipping_address_line1: MaybeUndefined<String>,
    /// New shipping second line.
    #[graphql(directive = length::apply(LINE_MAX))]
    pub shipping_address_line2: MaybeUndefined<String>,
    /// New shipping city.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_city: MaybeUndefined<String>,
    /// New shipping state.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_state: MaybeUndefined<String>,
    /// New shipping postal code.
    #[graphql(directive = length::apply(POSTAL_MAX))]
    pub shipping_zip: MaybeUndefined<String>,
    /// New shipping country.
    #[graphql(directive = length::apply(PLACE_MAX))]
    pub shipping_country: MaybeUndefined<String>,
    /// New notes.
    #[graphql(directive = length::apply(TEXT_MAX))]
    pub notes: MaybeUndefined<String>,
    /// New status.
    pub status: Option<CustomerStatus>,
}

/// The answer to an e-mail another customer has.
pub fn email_taken() -> UserError {
    UserError::new("email", UserErrorCode::Taken, "Email already registered")
}

fn not_found() -> AppError {
    AppError::not_found("Customer not found")
}

/// Checks a new customer; the number is left empty (it is drawn when inserting).
pub fn validate_new(input: &CustomerCreateInput) -> Result<NewCustomer, Vec<UserError>> {
    let mut c = Checker::new();
    let email = c.email("email", &input.email);
    let first_name = c.required("firstName", &input.first_name, PERSON_NAME_MAX);
    let last_name = c.required("lastName", &input.last_name, PERSON_NAME_MAX);
    let company_name = c.optional_name("companyName", input.company_name.as_deref(), NAME_MAX);
    let phone = c.optional("phone", input.phone.as_deref(), PHONE_MAX);
    let line1 = c.optional("addressLine1", input.address_line1.as_deref(), LINE_MAX);
    let line2 = c.optional("addressLine2", input.address_line2.as_deref(), LINE_MAX);
    let city = c.optional("city", input.city.as_deref(), PLACE_MAX);
    let state = c.optional("state", input.state.as_deref(), PLACE_MAX);
    let zip = c.optional("postalCode", input.postal_code.as_deref(), POSTAL_MAX);
    let country = c.optional("country", input.country.as_deref(), PLACE_MAX);
    let mut one = |field: &str, value: &Option<String>, max: usize, fallback: &Option<String>| {
        c.optional(field, value.as_deref(), max)
            .or_else(|| fallback.clone())
    };
    let new = NewCustomer {
        customer_number: String::new(),
        email: String::new(),
        first_name,
        last_name,
        company_name,
        phone,
        status: input
            .status
            .unwrap_or(CustomerStatus::Active)
            .as_str()
            .to_string(),
        billing_address_line1: one(
            "billingAddressLine1",
            &input.billing_address_line1,
            LINE_MAX,
            &line1,
        ),
        billing_address_line2: one(
            "billingAddressLine2",
            &input.billing_address_line2,
            LINE_MAX,
            &line2,
        ),
        billing_city: one("billingCity", &input.billing_city, PLACE_MAX, &city),
        billing_state: one("billingState", &input.billing_state, PLACE_MAX, &state),
        billing_zip: one("billingZip", &input.billing_zip, POSTAL_MAX, &zip),
        billing_country: one(
            "billingCountry",
            &input.billing_country,
            PLACE_MAX,
            &country,
        ),
        shipping_address_line1: one(
            "shippingAddressLine1",
            &input.shipping_address_line1,
            LINE_MAX,
            &line1,
        ),
        shipping_address_line2: one(
            "shippingAddressLine2",
            &input.shipping_address_line2,
            LINE_MAX,
            &line2,
        ),
        shipping_city: one("shippingCity", &input.shipping_city, PLACE_MAX, &city),
        shipping_state: one("shippingState", &input.shipping_state, PLACE_MAX, &state),
        shipping_zip: one("shippingZip", &input.shipping_zip, POSTAL_MAX, &zip),
        shipping_country: one(
            "shippingCountry",
            &input.shipping_country,
            PLACE_MAX,
            &country,
        ),
        notes: one("notes", &input.notes, TEXT_MAX, &None),
    };
    c.finish()?;
    match email {
        Some(e) => Ok(NewCustomer {
            email: e.as_str().to_string(),
            ..new
        }),
        None => Err(vec![UserError::new(
            "email",
            UserErrorCode::Invalid,
            "value is not a valid email address",
        )]),
    }
}

/// Checks changes to a customer.
pub fn validate_changes(input: &CustomerUpdateInput) -> Result<CustomerChanges, Vec<UserError>> {
    let mut c = Checker::new();
    let email = match &input.email {
        MaybeUndefined::Undefined => None,
        MaybeUndefined::Null => {
            c.invalid("email", "Input should be a valid string");
            None
        }
        MaybeUndefined::Value(raw) => c.email("email", raw).map(|e| e.as_str().to_string()),
    };
    let first_name = c.patch_required("firstName", &input.first_name, PERSON_NAME_MAX);
    let last_name = c.patch_required("lastName", &input.last_name, PERSON_NAME_MAX);
    let company_name = c.patch_name("companyName", &input.company_name, NAME_MAX);
    let phone = c.patch("phone", &input.phone, PHONE_MAX);
    let line1 = c.patch("addressLine1", &input.address_line1, LINE_MAX);
    let line2 = c.patch("addressLine2", &input.address_line2, LINE_MAX);
    let city = c.patch("city", &input.city, PLACE_MAX);
    let state = c.patch("state", &input.state, PLACE_MAX);
    let zip = c.patch("postalCode", &input.postal_code, POSTAL_MAX);
    let country = c.patch("country", &input.country, PLACE_MAX);
    let mut one = |field: &str,
                   value: &MaybeUndefined<String>,
                   max: usize,
                   fallback: &Option<Option<String>>| {
        c.patch(field, value, max).or_else(|| fallback.clone())
    };
    let changes = CustomerChanges {
        email,
        first_name,
        last_name,
        company_name,
        phone,
        status: input.status.map(|s| s.as_str().to_string()),
        billing_address_line1: one(
            "billingAddressLine1",
            &input.billing_address_line1,
            LINE_MAX,
            &line1,
        ),
        billing_address_line2: one(
            "billingAddressLine2",
            &input.billing_address_line2,
            LINE_MAX,
            &line2,
        ),
        billing_city: one("billingCity", &input.billing_city, PLACE_MAX, &city),
        billing_state: one("billingState", &input.billing_state, PLACE_MAX, &state),
        billing_zip: one("billingZip", &input.billing_zip, POSTAL_MAX, &zip),
        billing_country: one(
            "billingCountry",
            &input.billing_country,
            PLACE_MAX,
            &country,
        ),
        shipping_address_line1: one(
            "shippingAddressLine1",
            &input.shipping_address_line1,
            LINE_MAX,
            &line1,
        ),
        shipping_address_line2: one(
            "shippingAddressLine2",
            &input.shipping_address_line2,
            LINE_MAX,
            &line2,
        ),
        shipping_city: one("shippingCity", &input.shipping_city, PLACE_MAX, &city),
        shipping_state: one("shippingState", &input.shipping_state, PLACE_MAX, &state),
        shipping_zip: one("shippingZip", &input.shipping_zip, POSTAL_MAX, &zip),
        shipping_country: one(
            "shippingCountry",
            &input.shipping_country,
            PLACE_MAX,
            &country,
        ),
        notes: one("notes", &input.notes, TEXT_MAX, &None),
    };
    c.finish().map(|()| changes)
}

/// Creates a customer with the next `CUST-NNNNNN` number; an e-mail another customer has
/// (ignoring case) is refused.
pub async fn create(
    conn: &mut AsyncPgConnection,
    input: &CustomerCreateInput,
) -> AppResult<Result<CustomerRow, Vec<UserError>>> {
    let mut new = match validate_new(input) {
        Ok(n) => n,
        Err(errors) => return Ok(Err(errors)),
    };
    if model::customer_id_by_email(conn, &new.email)
        .await?
        .is_some()
    {
        return Ok(Err(vec![email_taken()]));
    }
    new.customer_number = model::next_customer_numbers(conn, 1)
        .await?
        .pop()
        .ok_or_else(|| AppError::internal("the customer number sequence returned nothing"))?;
    match model::insert_customer(conn, &new).await {
        Ok(row) => Ok(Ok(row)),
        // A concurrent create with the same e-mail lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => Ok(Err(vec![email_taken()])),
        Err(e) => Err(e),
    }
}

/// Changes a customer (404 when it does not exist; an e-mail another customer has is
/// refused).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: &CustomerUpdateInput,
) -> AppResult<Result<CustomerRow, Vec<UserError>>> {
    let changes = match validate_changes(input) {
        Ok(c) => c,
        Err(errors) => return Ok(Err(errors)),
    };
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
                &CustomerChanges {
                    status: Some(CustomerStatus::Inactive.as_str().into()),
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
    use super::*;

    fn ada() -> CustomerCreateInput {
        CustomerCreateInput {
            email: " Ada@Example.com ".into(),
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            ..Default::default()
        }
    }

    #[test]
    fn names_and_email_are_required() {
        let input = CustomerCreateInput {
            email: "nope".into(),
            first_name: " ".into(),
            ..Default::default()
        };
        let errors = validate_new(&input).expect_err("invalid");
        let fields: Vec<_> = errors.iter().filter_map(|e| e.field.as_deref()).collect();
        assert_eq!(fields, ["email", "firstName", "lastName"]);
    }

    #[test]
    fn the_address_fills_billing_and_shipping_unless_given_separately() {
        let input = CustomerCreateInput {
            address_line1: Some("1 Analytical Row".into()),
            city: Some("London".into()),
            shipping_city: Some("Oxford".into()),
            ..ada()
        };
        let new = validate_new(&input).expect("valid");
        assert_eq!(new.email, "ada@example.com");
        assert_eq!(new.status, "active");
        assert_eq!(
            new.billing_address_line1.as_deref(),
            Some("1 Analytical Row")
        );
        assert_eq!(
            new.shipping_address_line1.as_deref(),
            Some("1 Analytical Row")
        );
        assert_eq!(new.billing_city.as_deref(), Some("London"));
        assert_eq!(new.shipping_city.as_deref(), Some("Oxford"));
        assert_eq!(new.billing_country, None);
    }

    #[test]
    fn changes_clear_with_null_and_refuse_a_null_email() {
        let input = CustomerUpdateInput {
            city: MaybeUndefined::Null,
            billing_city: MaybeUndefined::Value("Leeds".into()),
            ..Default::default()
        };
        let changes = validate_changes(&input).expect("valid");
        assert_eq!(changes.billing_city, Some(Some("Leeds".into())));
        assert_eq!(changes.shipping_city, Some(None));
        assert_eq!(changes.email, None);
        let input = CustomerUpdateInput {
            email: MaybeUndefined::Null,
            ..Default::default()
        };
        assert!(validate_changes(&input).is_err());
    }
}
