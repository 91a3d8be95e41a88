//! Amending an order after it was entered (issue 34; FilaOps's `PATCH /sales-orders/{id}/lines`
//! and `DELETE /sales-orders/{id}/lines/{line_id}`): a line's quantity or price changed, a
//! line removed. Pending, confirmed, in-production and on-hold orders only; never below what
//! shipped or what production already made, never the last line, never below what is
//! invoiced. Each amendment gives back reservations a smaller line no longer needs, reserves
//! for a larger one, recomputes the totals, the payment status and the invoices' payments,
//! and is recorded in the order's history, all in the caller's transaction.

use super::*;

/// The statuses whose lines may change.
const AMENDABLE: [SalesOrderStatus; 4] = [
    SalesOrderStatus::Pending,
    SalesOrderStatus::Confirmed,
    SalesOrderStatus::InProduction,
    SalesOrderStatus::OnHold,
];

/// One line's change.
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderLineEdit {
    /// The line.
    pub line_id: i64,
    /// Its new quantity (1 to 10000; unchanged when omitted).
    pub new_quantity: Option<i32>,
    /// Its new unit price (0 or more; unchanged when omitted).
    pub new_unit_price: Option<Decimal>,
    /// Why (kept in the order's history).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub reason: String,
}

/// Changes to an order's lines (`PATCH /sales-orders/{id}/lines`).
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderLinesEditInput {
    /// The lines to change.
    pub lines: Vec<SalesOrderLineEdit>,
}

/// The order locked, when its lines may change (400 naming the allowed statuses otherwise).
async fn amendable(
    conn: &mut AsyncPgConnection,
    id: i64,
    what: &str,
) -> Result<SalesOrderRow, Stop> {
    let order = model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Sales order not found"))?;
    if !AMENDABLE.contains(&order.status) {
        let mut allowed: Vec<String> = AMENDABLE.iter().map(|s| s.to_string()).collect();
        allowed.sort();
        return Err(not_allowed(format!(
            "Cannot {what} lines on order with status '{}'. Allowed statuses: {}",
            order.status,
            allowed.join(", ")
        )));
    }
    Ok(order)
}

/// Units production already made for a line (completed on its production orders, or on the
/// order's production orders of the line's item that name no line).
async fn made_for(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    line: &SalesOrderLineRow,
) -> Result<BigDecimal, Stop> {
    let made: Option<BigDecimal> = production_orders::table
        .filter(production_orders::sales_order_id.eq(order.id))
        .filter(production_orders::product_id.eq(line.product_id))
        .filter(
            production_orders::sales_order_line_id
                .eq(line.id)
                .or(production_orders::sales_order_line_id.is_null()),
        )
        .filter(production_orders::status.ne(OrderStatus::Cancelled))
        .select(diesel::dsl::sum(production_orders::quantity_completed))
        .first(conn)
        .await?;
    Ok(made.unwrap_or_default())
}

/// Gives back what a line holds beyond `keep` units.
async fn release_beyond(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    line: &SalesOrderLineRow,
    keep: &BigDecimal,
    user: i64,
) -> Result<(), Stop> {
    let excess = &line.quantity_allocated.0 - keep.max(&BigDecimal::zero());
    let Some(location) = line.location_id else {
        return Ok(());
    };
    if excess <= BigDecimal::zero() {
        return Ok(());
    }
    ledger::release(
        conn,
        &Movement {
            created_by: Some(user),
            ..super::fulfilment::so_movement(order, line.product_id, location, excess.clone())
        },
    )
    .await?;
    diesel::update(sales_order_lines::table.find(line.id))
        .set(
            sales_order_lines::quantity_allocated
                .eq((&line.quantity_allocated.0 - &excess).with_scale(QUANTITY_SCALE)),
        )
        .execute(conn)
        .await?;
    Ok(())
}

/// After lines changed: the totals from the lines (the order's tax rate and shipping kept),
/// refused when they fall below what is invoiced; reservations for what larger lines now
/// need (confirmed and in-production orders); payment status and invoice payments.
async fn settle(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    user: i64,
) -> Result<(), Stop> {
    let lines = model::lock_lines(conn, order.id).await?;
    let line_totals: Vec<BigDecimal> = lines.iter().map(|l| l.total.0.clone()).collect();
    let t = totals(&line_totals, &order.shipping_cost.0, &order.tax_rate.0);
    let invoiced =
        crate::operations::sales::invoices::model::invoiced_total(conn, order.id).await?;
    if t.grand_total < invoiced {
        return Err(not_allowed(format!(
            "The order's total would fall to {} below the {} already invoiced; void the invoice first",
            t.grand_total,
            cents(&invoiced)
        )));
    }
    let order: SalesOrderRow = diesel::update(sales_orders::table.find(order.id))
        .set((
            sales_orders::subtotal.eq(&t.subtotal),
            sales_orders::tax_amount.eq(&t.tax_amount),
            sales_orders::grand_total.eq(&t.grand_total),
            sales_orders::updated_at.eq(now()),
        ))
        .returning(SalesOrderRow::as_returning())
        .get_result(conn)
        .await?;
    if matches!(
        order.status,
        SalesOrderStatus::Confirmed | SalesOrderStatus::InProduction
    ) {
        allocate(conn, &order, Some(user)).await?;
    }
    recompute_payment_status(conn, &order).await?;
    crate::operations::sales::invoices::rules::apply_payments(conn, order.id, user).await?;
    Ok(())
}

/// Changes lines' quantities and prices (admins): see the module's rules. 404 `Line {id} not
/// found on order {SO}`; 400 below shipped or made; 422 a blank reason, a quantity out of
/// 1-10000 or a negative price.
pub async fn edit_lines(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: SalesOrderLinesEditInput,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let order = amendable(conn, id, "edit").await?;
    if input.lines.is_empty() {
        return Err(invalid("lines", "Give at least one line to change").into());
    }
    let lines = model::lock_lines(conn, order.id).await?;
    let names = item_names(conn, &lines).await?;
    for (i, edit) in input.lines.iter().enumerate() {
        let field = |f: &str| format!("lines.{i}.{f}");
        let Some(line) = lines.iter().find(|l| l.id == edit.line_id) else {
            return Err(Stop::refuse(
                &field("lineId"),
                UserErrorCode::NotFound,
                format!(
                    "Line {} not found on order {}",
                    edit.line_id, order.order_number
                ),
            ));
        };
        let reason = edit.reason.trim();
        if reason.is_empty() {
            return Err(invalid(&field("reason"), "Give a reason for the change").into());
        }
        let quantity = edit.new_quantity.unwrap_or(line.quantity);
        if !(1..=LINE_QUANTITY_MAX).contains(&quantity) {
            return Err(invalid(
                &field("newQuantity"),
                format!("Quantity must be between 1 and {LINE_QUANTITY_MAX}; remove the line instead of setting 0"),
            )
            .into());
        }
        let price = edit
            .new_unit_price
            .as_ref()
            .map(|p| cents(&p.0))
            .unwrap_or_else(|| line.unit_price.0.clone());
        if price < BigDecimal::zero() {
            return Err(invalid(&field("newUnitPrice"), "Unit price must be 0 or more").into());
        }
        let new_q = BigDecimal::from(quantity);
        if new_q < line.quantity_shipped.0 {
            return Err(not_allowed(format!(
                "Cannot reduce line {} below shipped quantity ({})",
                line.id,
                line.quantity_shipped.0.normalized()
            )));
        }
        let made = made_for(conn, &order, line).await?;
        if quantity < line.quantity && new_q < made {
            return Err(not_allowed(format!(
                "Cannot reduce line {} to {quantity}: production already made {} for it",
                line.id,
                made.normalized()
            )));
        }
        diesel::update(sales_order_lines::table.find(line.id))
            .set((
                sales_order_lines::quantity.eq(quantity),
                sales_order_lines::unit_price.eq(&price),
                sales_order_lines::total.eq(line_total(quantity, &price, &line.discount.0)),
                sales_order_lines::updated_at.eq(now()),
            ))
            .execute(conn)
            .await?;
        release_beyond(
            conn,
            &order,
            line,
            &(&new_q - &line.quantity_shipped.0),
            user,
        )
        .await?;
        let mut changes = Vec::new();
        if quantity != line.quantity {
            changes.push(format!("quantity {} -> {quantity}", line.quantity));
        }
        if price != line.unit_price.0 {
            changes.push(format!("unit price {} -> {price}", line.unit_price.0));
        }
        let name = names
            .iter()
            .find(|(id, _)| *id == line.product_id)
            .map(|(_, n)| n.as_str())
            .unwrap_or("Line");
        event_noting(
            conn,
            order.id,
            SalesEventType::Amendment,
            format!("{name} line changed"),
            Some(format!(
                "Line {}: {}. Reason: {reason}",
                line.line_number,
                if changes.is_empty() {
                    "no change".to_string()
                } else {
                    changes.join("; ")
                }
            )),
            None,
            Some(user),
            Some(("line_id", line.id.to_string())),
        )
        .await?;
    }
    settle(conn, &order, user).await?;
    Ok(model::find(conn, order.id).await?)
}

/// A line added to an order after it was entered (`POST /sales-orders/{id}/lines`).
#[derive(Debug, Clone, InputObject)]
pub struct SalesOrderLineAddInput {
    /// The product (active, with a selling price).
    pub product_id: i64,
    /// Units (1 to 10000).
    pub quantity: i32,
    /// The unit price (default: the product's price, the customer's price level applied).
    pub unit_price: Option<Decimal>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// Why (kept in the order's history).
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::sales::rules::SHORT_MAX))]
    pub reason: String,
}

/// Adds a line (admins) to a pending, confirmed, in-production or on-hold order, priced like
/// the order's own lines; confirmed orders reserve stock for it at once. 404 for an unknown
/// product, 400 a discontinued one or one without a price, 422 a blank reason, a quantity
/// out of 1-10000 or a negative price.
pub async fn add_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: SalesOrderLineAddInput,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let reason = input.reason.trim().to_string();
    let mut errors = Vec::new();
    if reason.is_empty() {
        errors.push(invalid("reason", "Give a reason for the change"));
    }
    if !(1..=LINE_QUANTITY_MAX).contains(&input.quantity) {
        errors.push(invalid(
            "quantity",
            format!("Quantity must be between 1 and {LINE_QUANTITY_MAX}"),
        ));
    }
    if input
        .unit_price
        .as_ref()
        .is_some_and(|p| p.0 < BigDecimal::zero())
    {
        errors.push(invalid("unitPrice", "Unit price must be 0 or more"));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let order = amendable(conn, id, "add").await?;
    let wanted = SalesOrderLineInput {
        product_id: input.product_id,
        quantity: input.quantity,
        unit_price: None,
        notes: input
            .notes
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty()),
    };
    let priced =
        super::orders::price_lines(conn, std::slice::from_ref(&wanted), order.customer_id).await?;
    let Some((line, product, list_price, level)) = priced.into_iter().next() else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            format!("Product ID {} not found", input.product_id),
        ));
    };
    let price = input
        .unit_price
        .map(|p| cents(&p.0))
        .unwrap_or_else(|| list_price.clone());
    let existing = model::lock_lines(conn, order.id).await?;
    let number = existing.iter().map(|l| l.line_number).max().unwrap_or(0) + 1;
    diesel::insert_into(sales_order_lines::table)
        .values(&model::NewLine {
            sales_order_id: order.id,
            line_number: number,
            product_id: line.product_id,
            quantity: line.quantity,
            unit_price: price.clone(),
            total: line_total(line.quantity, &price, &BigDecimal::zero()),
            notes: line.notes,
            list_price: level
                .as_ref()
                .and(product.selling_price.as_ref().map(cents)),
            price_level_name: level.map(|lv| lv.level_name),
        })
        .execute(conn)
        .await?;
    event_noting(
        conn,
        order.id,
        SalesEventType::Amendment,
        format!("{} line added", product.name),
        Some(format!(
            "Line {number}: {} x {price}. Reason: {reason}",
            line.quantity
        )),
        None,
        Some(user),
        Some(("line_number", number.to_string())),
    )
    .await?;
    settle(conn, &order, user).await?;
    Ok(model::find(conn, order.id).await?)
}

/// Removes a line (admins): never the last (400 `Cannot remove the last line from an order.
/// Cancel the order instead.`), never one that shipped (400), never one production orders
/// still run for (409 naming them). Its reservation is given back.
pub async fn remove_line(
    conn: &mut AsyncPgConnection,
    id: i64,
    line_id: i64,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let order = amendable(conn, id, "remove").await?;
    let lines = model::lock_lines(conn, order.id).await?;
    let Some(line) = lines.iter().find(|l| l.id == line_id) else {
        return Err(Stop::refuse(
            "lineId",
            UserErrorCode::NotFound,
            format!("Line {line_id} not found on order {}", order.order_number),
        ));
    };
    if lines.len() <= 1 {
        return Err(not_allowed(
            "Cannot remove the last line from an order. Cancel the order instead.",
        ));
    }
    if line.quantity_shipped.0 > BigDecimal::zero() {
        return Err(not_allowed(format!(
            "Cannot remove line {line_id}: {} units have already been shipped.",
            line.quantity_shipped.0.normalized()
        )));
    }
    let running: Vec<String> = production_orders::table
        .filter(production_orders::sales_order_id.eq(order.id))
        .filter(production_orders::product_id.eq(line.product_id))
        .filter(
            production_orders::sales_order_line_id
                .eq(line.id)
                .or(production_orders::sales_order_line_id.is_null()),
        )
        .filter(production_orders::status.ne(OrderStatus::Cancelled))
        .order(production_orders::id)
        .select(production_orders::code)
        .load(conn)
        .await?;
    if !running.is_empty() {
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::Conflict,
            format!(
                "Cannot remove line {line_id}: production order(s) exist: {}. Cancel them first.",
                running.join(", ")
            ),
        )]));
    }
    release_beyond(conn, &order, line, &BigDecimal::zero(), user).await?;
    diesel::delete(sales_order_lines::table.find(line.id))
        .execute(conn)
        .await?;
    let name = item_names(conn, std::slice::from_ref(line))
        .await?
        .into_iter()
        .next()
        .map(|(_, n)| n)
        .unwrap_or_else(|| "Line".into());
    event_noting(
        conn,
        order.id,
        SalesEventType::Amendment,
        format!("{name} line removed"),
        Some(format!(
            "Line {} ({name}, qty {}) removed from the order",
            line.line_number, line.quantity
        )),
        None,
        Some(user),
        Some(("line_id", line.id.to_string())),
    )
    .await?;
    settle(conn, &order, user).await?;
    Ok(model::find(conn, order.id).await?)
}

/// The names of the lines' items.
async fn item_names(
    conn: &mut AsyncPgConnection,
    lines: &[SalesOrderLineRow],
) -> Result<Vec<(i64, String)>, Stop> {
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    Ok(items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::name))
        .load(conn)
        .await?)
}

/// The statuses an order may be closed short from.
const CLOSABLE: [SalesOrderStatus; 3] = [
    SalesOrderStatus::Confirmed,
    SalesOrderStatus::InProduction,
    SalesOrderStatus::ReadyToShip,
];

/// One line of a close-short preview.
#[derive(Debug, Clone, SimpleObject)]
pub struct CloseShortLine {
    /// The line.
    pub line_id: i64,
    /// Its item.
    pub product_id: i64,
    /// The item's SKU.
    pub product_sku: Option<String>,
    /// The item's name.
    pub product_name: Option<String>,
    /// Ordered now.
    pub ordered_qty: Decimal,
    /// Already shipped.
    pub shipped_qty: Decimal,
    /// Reserved to it now.
    pub reserved_qty: Decimal,
    /// What it ships when closed short: shipped, reserved and the free stock it would take.
    pub achievable_qty: Decimal,
    /// Whether the line shrinks (to 0: it is removed).
    pub will_adjust: bool,
    /// Why, for people.
    pub reason: String,
}

/// A production order of the order, and what closing short does to it.
#[derive(Debug, Clone, SimpleObject)]
pub struct CloseShortProductionOrder {
    /// Its id.
    pub id: i64,
    /// `WO-YYYY-NNNN`.
    pub po_number: String,
    /// Its status now.
    pub status: String,
    /// Units ordered.
    pub ordered: Decimal,
    /// Units completed.
    pub completed: Decimal,
    /// `cancel`: it still runs and is cancelled (its reservations given back).
    pub action: String,
}

/// What closing an order short would do (`GET /sales-orders/{id}/close-short-preview`).
#[derive(Debug, Clone, SimpleObject)]
pub struct CloseShortPreview {
    /// The order.
    pub sales_order_id: i64,
    /// Its number.
    pub order_number: String,
    /// Its status.
    pub status: SalesOrderStatus,
    /// Whether it may be closed short now.
    pub can_close: bool,
    /// Why not, when it may not.
    pub blocking_reason: Option<String>,
    /// Each line: what it ships.
    pub lines: Vec<CloseShortLine>,
    /// The production orders still running for it, all cancelled when it closes short.
    pub production_orders: Vec<CloseShortProductionOrder>,
    /// Whether no production order still runs (FilaOps's name).
    pub all_pos_resolved: bool,
    /// The running ones' numbers.
    pub unresolved_pos: Vec<String>,
    /// The subtotal after.
    pub new_subtotal: Decimal,
    /// The grand total after.
    pub new_grand_total: Decimal,
    /// What the order's invoices already bill (the total may not fall below it).
    pub invoiced: Decimal,
}

/// Why closing short is refused now, if it is.
fn close_refusal(order: &SalesOrderRow, lines: &[CloseShortLine]) -> Option<String> {
    if !CLOSABLE.contains(&order.status) {
        let mut allowed: Vec<String> = CLOSABLE.iter().map(|s| s.to_string()).collect();
        allowed.sort();
        return Some(format!(
            "Cannot close short an order with status '{}'. Allowed statuses: {}",
            order.status,
            allowed.join(", ")
        ));
    }
    if !lines.iter().any(|l| l.will_adjust) {
        return Some("Nothing to close short: every line can ship in full".into());
    }
    if lines
        .iter()
        .all(|l| l.achievable_qty.0 <= BigDecimal::zero())
    {
        return Some("Nothing can ship: cancel the order instead".into());
    }
    None
}

/// The preview of closing `order` short (lines as locked or read by the caller).
async fn close_short_plan(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    lines: &[SalesOrderLineRow],
) -> Result<CloseShortPreview, Stop> {
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let facts: Vec<(i64, String, String)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::sku, items::name))
        .load(conn)
        .await?;
    let stock = crate::operations::sales::readiness::StockAt::load(conn, &ids).await?;
    let refs: Vec<&SalesOrderLineRow> = lines.iter().collect();
    let cover = crate::operations::sales::readiness::line_cover(&refs, &stock);
    let mut out = Vec::new();
    let mut totals_after = Vec::new();
    for (l, c) in lines.iter().zip(cover) {
        let achievable =
            (BigDecimal::from(l.quantity) - &c.short).max(l.quantity_shipped.0.clone());
        let will_adjust = achievable < l.quantity;
        let fact = facts.iter().find(|f| f.0 == l.product_id);
        let keep = achievable
            .with_scale_round(0, RoundingMode::Down)
            .to_string()
            .parse::<i32>()
            .unwrap_or(0);
        totals_after.push(line_total(keep, &l.unit_price.0, &l.discount.0));
        out.push(CloseShortLine {
            line_id: l.id,
            product_id: l.product_id,
            product_sku: fact.map(|f| f.1.clone()),
            product_name: fact.map(|f| f.2.clone()),
            // Whole units as whole numbers: "2", not "2.00".
            ordered_qty: Decimal(BigDecimal::from(l.quantity)),
            shipped_qty: Decimal(l.quantity_shipped.0.normalized()),
            reserved_qty: Decimal(l.quantity_allocated.0.normalized()),
            achievable_qty: Decimal(achievable.normalized()),
            will_adjust,
            reason: if !will_adjust {
                "Ships in full".into()
            } else if keep == 0 {
                "Nothing made or in stock for it: the line is removed".into()
            } else {
                format!(
                    "{} short: reduced to what is shipped, reserved or in stock",
                    c.short.normalized()
                )
            },
        });
    }
    let running = running_production_orders_of(conn, &[order.id]).await?;
    let t = totals(&totals_after, &order.shipping_cost.0, &order.tax_rate.0);
    let invoiced =
        crate::operations::sales::invoices::model::invoiced_total(conn, order.id).await?;
    let blocking = close_refusal(order, &out);
    Ok(CloseShortPreview {
        sales_order_id: order.id,
        order_number: order.order_number.clone(),
        status: order.status,
        can_close: blocking.is_none(),
        blocking_reason: blocking,
        lines: out,
        all_pos_resolved: running.is_empty(),
        unresolved_pos: running.iter().map(|p| p.code.clone()).collect(),
        production_orders: running
            .into_iter()
            .map(|p| CloseShortProductionOrder {
                id: p.id,
                po_number: p.code,
                status: p.status.to_string(),
                ordered: p.quantity_ordered,
                completed: p.quantity_completed,
                action: "cancel".into(),
            })
            .collect(),
        new_subtotal: Decimal(t.subtotal),
        new_grand_total: Decimal(t.grand_total),
        invoiced: Decimal(cents(&invoiced)),
    })
}

/// What closing an order short would do, changing nothing (admins).
pub async fn close_short_preview(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<CloseShortPreview, Stop> {
    let order = model::find(conn, id).await?;
    let lines = model::lines_of(conn, &[order.id]).await?;
    close_short_plan(conn, &order, &lines).await
}

/// Closes an order short (admins; a reason is required): the production orders still
/// running for it are cancelled, each line shrinks to what is shipped, reserved or in stock
/// (a line with nothing goes), reservations and totals follow, and the order is ready to
/// ship. 400 with the preview's reason when it may not.
pub async fn close_short(
    conn: &mut AsyncPgConnection,
    id: i64,
    reason: String,
    user: i64,
) -> Result<SalesOrderRow, Stop> {
    let reason = reason.trim().to_string();
    if reason.is_empty() {
        return Err(invalid("reason", "Give a reason for closing the order short").into());
    }
    let order = model::lock(conn, id)
        .await?
        .ok_or_else(|| Stop::refuse("id", UserErrorCode::NotFound, "Sales order not found"))?;
    // Production first: cancelling gives back what it reserved, which the lines may then use.
    let running = running_production_orders_of(conn, &[order.id]).await?;
    if !CLOSABLE.contains(&order.status) {
        let lines = model::lock_lines(conn, order.id).await?;
        let plan = close_short_plan(conn, &order, &lines).await?;
        return Err(not_allowed(plan.blocking_reason.unwrap_or_default()));
    }
    for p in &running {
        crate::operations::production::rules::cancel(
            conn,
            p.id,
            Some(format!(
                "Sales order {} closed short: {reason}",
                order.order_number
            )),
            Some(user),
        )
        .await?;
    }
    let lines = model::lock_lines(conn, order.id).await?;
    let plan = close_short_plan(conn, &order, &lines).await?;
    if let Some(why) = plan.blocking_reason {
        return Err(not_allowed(why));
    }
    let mut changed = Vec::new();
    for (l, p) in lines.iter().zip(&plan.lines) {
        if !p.will_adjust {
            continue;
        }
        let keep = p.achievable_qty.0.with_scale_round(0, RoundingMode::Down);
        let keep_units = keep.to_string().parse::<i32>().unwrap_or(0);
        release_beyond(conn, &order, l, &(&keep - &l.quantity_shipped.0), user).await?;
        if keep_units == 0 {
            diesel::delete(sales_order_lines::table.find(l.id))
                .execute(conn)
                .await?;
        } else {
            diesel::update(sales_order_lines::table.find(l.id))
                .set((
                    sales_order_lines::quantity.eq(keep_units),
                    sales_order_lines::total.eq(line_total(
                        keep_units,
                        &l.unit_price.0,
                        &l.discount.0,
                    )),
                    sales_order_lines::updated_at.eq(now()),
                ))
                .execute(conn)
                .await?;
        }
        changed.push(format!(
            "line {} {} -> {keep_units}",
            l.line_number, l.quantity
        ));
    }
    settle(conn, &order, user).await?;
    let order = model::find(conn, order.id).await?;
    if order.status != SalesOrderStatus::ReadyToShip {
        set_status(conn, &order, SalesOrderStatus::ReadyToShip, Some(user)).await?;
    }
    let cancelled: Vec<String> = running.iter().map(|p| p.code.clone()).collect();
    event_noting(
        conn,
        order.id,
        SalesEventType::Amendment,
        "Closed Short",
        Some(format!(
            "{}{}. Reason: {reason}",
            changed.join("; "),
            if cancelled.is_empty() {
                String::new()
            } else {
                format!("; cancelled {}", cancelled.join(", "))
            }
        )),
        None,
        Some(user),
        None,
    )
    .await?;
    Ok(model::find(conn, order.id).await?)
}
