//! Credit limits (issue 34, receivables): confirming an order commits the customer to owing
//! its balance, so a customer with a credit limit cannot be taken over it by a confirmation
//! unless an admin gives a reason, which the order's history and the security audit log keep.

use super::*;

/// What the customer would owe after confirming an order, against its limit.
#[derive(Debug, Clone, PartialEq)]
pub struct CreditExposure {
    /// The customer's credit limit.
    pub limit: BigDecimal,
    /// Owed on its other committed orders (confirmed or later, not cancelled).
    pub open_elsewhere: BigDecimal,
    /// Owed on this order (its total less what is paid on it).
    pub this_order: BigDecimal,
}

impl CreditExposure {
    /// The open balance confirming would leave.
    pub fn after(&self) -> BigDecimal {
        &self.open_elsewhere + &self.this_order
    }

    /// Whether that balance is over the limit.
    pub fn is_over(&self) -> bool {
        self.after() > self.limit
    }
}

/// What confirming `order` would leave its customer owing against its credit limit, with
/// the customer's row locked (two confirmations for one customer at once are checked one
/// after the other, so neither slips under the limit the other uses). `None` when the order
/// has no customer or the customer has no limit.
pub async fn credit_exposure(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
) -> Result<Option<(String, CreditExposure)>, Stop> {
    let Some(customer) = order.customer_id else {
        return Ok(None);
    };
    let row: Option<(Option<BigDecimal>, String, String, Option<String>)> = customers::table
        .find(customer)
        .select((
            customers::credit_limit,
            customers::first_name,
            customers::last_name,
            customers::company_name,
        ))
        .for_update()
        .first(conn)
        .await
        .optional()?;
    let Some((Some(limit), first, last, company)) = row else {
        return Ok(None);
    };
    let name = company
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| format!("{first} {last}").trim().to_string());
    let paid: BigDecimal = model::paid_of(conn, &[order.id])
        .await?
        .into_iter()
        .map(|(_, p)| p)
        .sum();
    let this_order = (&order.grand_total.0 - paid).max(BigDecimal::zero());
    let open_elsewhere: BigDecimal = diesel::sql_query(
        "SELECT COALESCE(SUM(GREATEST(o.grand_total - COALESCE(p.paid, 0), 0)), 0) AS owed \
         FROM sales_orders o \
         LEFT JOIN (SELECT sales_order_id, SUM(amount) AS paid FROM payments \
                    WHERE status = 'completed' GROUP BY sales_order_id) p \
                ON p.sales_order_id = o.id \
         WHERE o.customer_id = $1 AND o.id <> $2 AND o.status NOT IN ('pending', 'cancelled')",
    )
    .bind::<diesel::sql_types::BigInt, _>(customer)
    .bind::<diesel::sql_types::BigInt, _>(order.id)
    .get_result::<Owed>(conn)
    .await?
    .owed;
    Ok(Some((
        name,
        CreditExposure {
            limit,
            open_elsewhere,
            this_order,
        },
    )))
}

#[derive(QueryableByName)]
struct Owed {
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    owed: BigDecimal,
}

/// Refuses to confirm an order that would take its customer over its credit limit, naming
/// the numbers; with an override reason the order is confirmed and the override recorded
/// (the order's history and the security audit log, in the same transaction).
pub async fn check_credit(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    override_reason: Option<&str>,
    user: i64,
) -> Result<(), Stop> {
    let Some((customer, exposure)) = credit_exposure(conn, order).await? else {
        return Ok(());
    };
    if !exposure.is_over() {
        return Ok(());
    }
    use crate::platform::documents::money;
    let numbers = format!(
        "{} owed after confirming ({} on other open orders, {} on this one), credit limit {}",
        money(&exposure.after()),
        money(&exposure.open_elsewhere),
        money(&exposure.this_order),
        money(&exposure.limit)
    );
    let Some(reason) = override_reason.filter(|r| !r.trim().is_empty()) else {
        return Err(not_allowed(format!(
            "Confirming {} would take {customer} over its credit limit: {numbers}. \
             An admin may confirm it anyway with a reason (credit_override_reason).",
            order.order_number
        )));
    };
    event_noting(
        conn,
        order.id,
        SalesEventType::Note,
        "Credit limit overridden",
        Some(format!("{reason} ({numbers})")),
        None,
        Some(user),
        Some(("credit_override", money(&exposure.after()))),
    )
    .await?;
    let event = crate::master_data::audit::model::AuditEvent {
        user_id: Some(user),
        ..crate::master_data::audit::model::AuditEvent::new(
            "credit_limit_override",
            crate::master_data::audit::model::Outcome::Success,
        )
    }
    .details(serde_json::json!({
        "sales_order_id": order.id,
        "order_number": order.order_number,
        "customer_id": order.customer_id,
        "credit_limit": exposure.limit.to_string(),
        "owed_after": exposure.after().to_string(),
        "reason": reason,
    }));
    crate::master_data::audit::model::record_in(conn, None, &event).await?;
    Ok(())
}
