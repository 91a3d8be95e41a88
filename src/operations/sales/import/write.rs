//! Writing an import: the orders, lines, customers and events in multi-row inserts in one
//! transaction, and the report of what was written.

use super::*;

/// Writes the planned orders: customers, orders, lines and events, each in multi-row
/// inserts. Returns each order's Strata number by its place in the file.
pub(super) async fn write(
    conn: &mut AsyncPgConnection,
    file: &ParsedFile,
    planned: &[Planned],
    source: SalesOrderSource,
    user: i64,
) -> AppResult<HashMap<usize, String>> {
    // Customers first, so orders can name them.
    let customer_ids = insert_customers(conn, planned).await?;
    let numbers = rules::next_numbers(conn, "sales_order_seq", "SO", planned.len()).await?;
    let by = Writer {
        file,
        planned,
        numbers: &numbers,
        source,
        user,
    };
    let orders = by.orders(&customer_ids);
    let mut ids: HashMap<String, i64> = HashMap::new();
    for chunk in orders.chunks(ORDER_CHUNK) {
        let rows: Vec<(i64, String)> = diesel::insert_into(sales_orders::table)
            .values(chunk)
            .returning((sales_orders::id, sales_orders::order_number))
            .get_results(conn)
            .await?;
        ids.extend(rows.into_iter().map(|(id, n)| (n, id)));
    }
    let (lines, events, by_place) = by.lines_and_events(&ids);
    for chunk in lines.chunks(LINE_CHUNK) {
        diesel::insert_into(sales_order_lines::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    for chunk in events.chunks(LINE_CHUNK) {
        diesel::insert_into(sales_order_events::table)
            .values(chunk)
            .execute(conn)
            .await?;
    }
    Ok(by_place)
}

/// Creates the customers the plan makes, numbered in one go: their ids by lower-cased
/// e-mail.
async fn insert_customers(
    conn: &mut AsyncPgConnection,
    planned: &[Planned],
) -> AppResult<HashMap<String, i64>> {
    let fresh: Vec<&partners::CustomerForm> = planned
        .iter()
        .filter_map(|p| p.new_customer.as_ref())
        .collect();
    let mut customer_ids: HashMap<String, i64> = HashMap::new();
    if !fresh.is_empty() {
        let numbers = partners::next_customer_numbers(conn, fresh.len()).await?;
        let batch: Vec<partners::CustomerForm> = fresh
            .into_iter()
            .zip(numbers)
            .map(|(c, number)| partners::CustomerForm {
                customer_number: Some(number),
                ..c.clone()
            })
            .collect();
        for chunk in batch.chunks(ORDER_CHUNK) {
            let rows: Vec<(i64, String)> = diesel::insert_into(customers::table)
                .values(chunk)
                .returning((customers::id, customers::email))
                .get_results(conn)
                .await?;
            customer_ids.extend(rows.into_iter().map(|(id, e)| (e.to_lowercase(), id)));
        }
    }
    Ok(customer_ids)
}

/// The planned orders of a file with their Strata numbers (in plan order), and who
/// imports them from which source: the rows to write.
struct Writer<'a> {
    file: &'a ParsedFile,
    planned: &'a [Planned],
    numbers: &'a [String],
    source: SalesOrderSource,
    user: i64,
}

impl Writer<'_> {
    /// The order rows, naming the existing or just created customer.
    fn orders(&self, customer_ids: &HashMap<String, i64>) -> Vec<NewOrder> {
        let (source, user) = (self.source, self.user);
        self.planned
            .iter()
            .zip(self.numbers)
            .filter_map(|(p, number)| {
                let o = self.file.orders.get(p.at)?;
                let [a1, a2, city, state, zip, country] = p.address.clone();
                Some(NewOrder {
                    order_number: number.clone(),
                    user_id: Some(user),
                    customer_id: p
                        .existing_customer
                        .or_else(|| customer_ids.get(&p.customer_email).copied()),
                    quote_id: None,
                    order_type: SalesOrderType::LineItem,
                    source,
                    source_order_id: Some(o.order_id.clone()),
                    rush_level: RushLevel::Standard,
                    product_name: Some(p.product_name.clone()),
                    customer_name: p.customer_name.clone(),
                    customer_email: Some(p.customer_email.clone()),
                    customer_phone: p.phone.clone(),
                    subtotal: p.totals.subtotal.clone(),
                    tax_rate: p.totals.tax_rate.clone(),
                    tax_amount: p.totals.tax_amount.clone(),
                    // An import charges the file's tax or the company's rate, never a
                    // customer's or a region's: no named rate is recorded.
                    tax_rate_id: None,
                    tax_rate_name: None,
                    shipping_cost: p.totals.shipping_cost.clone(),
                    grand_total: p.totals.grand_total.clone(),
                    shipping_address_line1: a1,
                    shipping_address_line2: a2,
                    shipping_city: city,
                    shipping_state: state,
                    shipping_zip: zip,
                    shipping_country: country.or_else(|| Some("USA".into())),
                    customer_notes: o.notes.clone(),
                    internal_notes: Some(format!("Imported from {source} order {}", o.order_id)),
                    due_date: None,
                    created_at: o.date,
                })
            })
            .collect()
    }

    /// The line rows and the "Order Imported" event of every order written (`ids`: order
    /// id by Strata number), and each written order's number by its place in the file.
    fn lines_and_events(
        &self,
        ids: &HashMap<String, i64>,
    ) -> (Vec<NewLine>, Vec<NewEvent>, HashMap<usize, String>) {
        let (source, user) = (self.source, self.user);
        let mut lines = Vec::new();
        let mut events = Vec::new();
        let mut by_place = HashMap::new();
        for (p, number) in self.planned.iter().zip(self.numbers) {
            let Some(&order_id) = ids.get(number) else {
                continue;
            };
            by_place.insert(p.at, number.clone());
            for (i, (product_id, quantity, price, total)) in p.lines.iter().enumerate() {
                lines.push(NewLine {
                    sales_order_id: order_id,
                    line_number: i32::try_from(i + 1).unwrap_or(i32::MAX),
                    product_id: *product_id,
                    quantity: *quantity,
                    unit_price: price.clone(),
                    total: total.clone(),
                    notes: None,
                    list_price: None,
                    price_level_name: None,
                });
            }
            let shop_id = self.file.orders.get(p.at).map(|o| o.order_id.as_str());
            events.push(NewEvent {
                sales_order_id: order_id,
                event_type: SalesEventType::Created,
                title: "Order Imported".into(),
                description: Some(format!(
                    "Order {number} imported from {source} order {}",
                    shop_id.unwrap_or_default()
                )),
                old_status: None,
                new_status: None,
                created_by: Some(user),
                metadata_key: None,
                metadata_value: None,
            });
        }
        (lines, events, by_place)
    }
}

pub(super) struct ReportFacts<'a> {
    pub(super) source: SalesOrderSource,
    pub(super) applied: bool,
    pub(super) customers_created: usize,
    pub(super) create_customers: bool,
    pub(super) shipped_in_file: usize,
    pub(super) paid_in_file: usize,
    pub(super) customers: &'a HashMap<String, Known>,
}

pub(super) fn report(
    file: &ParsedFile,
    planned: &[Planned],
    outcomes: &[Outcome],
    facts: ReportFacts<'_>,
) -> OrderImportReport {
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let mut errors: Vec<ImportRowError> = file
        .loose
        .iter()
        .cloned()
        .chain(file.orders.iter().flat_map(|o| o.problems.iter().cloned()))
        .collect();
    errors.sort_by_key(|e| e.row);
    let unlisted = errors.len().saturating_sub(MAX_ERRORS);
    errors.truncate(MAX_ERRORS);
    let orders = previews(file, planned, outcomes, &facts);
    let created = planned.len();
    let skipped = file.orders.len() - created;
    let warnings = warnings(file, outcomes, &facts, unlisted);
    let message = if !facts.applied {
        format!("{created} of {} orders can be imported", file.orders.len())
    } else if skipped == 0 {
        format!("Imported {created} orders")
    } else {
        format!(
            "Imported {created} orders; skipped {skipped} (listed in errors and warnings; nothing else was changed)"
        )
    };
    OrderImportReport {
        total_rows: count(file.total_rows),
        orders_found: count(file.orders.len()),
        created: count(created),
        skipped: count(skipped),
        customers_created: count(facts.customers_created),
        errors,
        warnings,
        orders,
        truncated: file.orders.len() > PREVIEW_ORDERS,
        detected_format: file
            .source
            .map_or_else(|| "strata".to_string(), |s| s.to_string()),
        source: facts.source,
        applied: facts.applied,
        message,
    }
}

/// The preview of the file's first orders: what each holds and what became of it.
fn previews(
    file: &ParsedFile,
    planned: &[Planned],
    outcomes: &[Outcome],
    facts: &ReportFacts<'_>,
) -> Vec<OrderImportPreview> {
    let plans: HashMap<usize, &Planned> = planned.iter().map(|p| (p.at, p)).collect();
    let money = |v: &BigDecimal| Some(Decimal(v.clone()));
    file.orders
        .iter()
        .enumerate()
        .take(PREVIEW_ORDERS)
        .map(|(at, o)| {
            let plan = plans.get(&at);
            let email = o.email.clone().unwrap_or_default();
            let customer = if facts.customers.contains_key(&email) {
                "existing"
            } else if plan.is_some_and(|p| p.new_customer.is_some())
                || (facts.create_customers && plan.is_some())
            {
                if facts.applied { "created" } else { "new" }
            } else {
                "none"
            };
            let (outcome, number) = outcomes.get(at).cloned().unwrap_or_default();
            OrderImportPreview {
                order_id: o.order_id.clone(),
                first_row: o.rows.as_slice().first().copied().unwrap_or(0),
                line_count: i32::try_from(o.lines.len()).unwrap_or(i32::MAX),
                units: o
                    .lines
                    .iter()
                    .filter_map(|l| l.quantity)
                    .map(i64::from)
                    .sum(),
                customer_email: email,
                customer_name: o.name.clone(),
                customer: customer.into(),
                subtotal: plan.and_then(|p| money(&p.totals.subtotal)),
                tax_amount: plan.and_then(|p| money(&p.totals.tax_amount)),
                shipping_cost: plan.and_then(|p| money(&p.totals.shipping_cost)),
                grand_total: plan.and_then(|p| money(&p.totals.grand_total)),
                outcome,
                order_number: number,
                errors: o
                    .problems
                    .iter()
                    .map(|e| match &e.field {
                        Some(f) => format!("row {}: {f}: {}", e.row, e.reason),
                        None => format!("row {}: {}", e.row, e.reason),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The report's warnings: cancelled orders not imported, shipped and paid orders to follow
/// up in Strata, and row problems not listed.
fn warnings(
    file: &ParsedFile,
    outcomes: &[Outcome],
    facts: &ReportFacts<'_>,
    unlisted: usize,
) -> Vec<String> {
    let cancelled: Vec<&str> = file
        .orders
        .iter()
        .zip(outcomes)
        .filter(|(_, (o, _))| o == "cancelled")
        .map(|(o, _)| o.order_id.as_str())
        .collect();
    let mut warnings = Vec::new();
    if !cancelled.is_empty() {
        warnings.push(format!(
            "{} cancelled or refunded order{} not imported: {}",
            cancelled.len(),
            if cancelled.len() == 1 { " is" } else { "s are" },
            cancelled
                .iter()
                .take(20)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if facts.shipped_in_file > 0 {
        warnings.push(format!(
            "{} order{} shipped in the file; imported orders start as pending: confirm and ship them in Strata so stock and the books follow",
            facts.shipped_in_file,
            if facts.shipped_in_file == 1 { " is" } else { "s are" }
        ));
    }
    if facts.paid_in_file > 0 {
        warnings.push(format!(
            "{} order{} paid in the file; record the payments in Strata (Payments) so the books follow",
            facts.paid_in_file,
            if facts.paid_in_file == 1 { " is" } else { "s are" }
        ));
    }
    if unlisted > 0 {
        warnings.push(format!(
            "{unlisted} more row problems are not listed; fix the ones shown and check the file again"
        ));
    }
    warnings
}
