//! Planning an import: the preview and report shapes, the products, customers and
//! duplicates each order needs, and the plan that preview and import share.

use super::*;

/// One order of the file and what became of it.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderImportPreview {
    /// The shop's order id.
    pub order_id: String,
    /// The file line of its first row.
    pub first_row: i64,
    /// How many rows (lines) it has.
    pub line_count: i32,
    /// Units over all lines.
    pub units: i64,
    /// The customer's e-mail (a placeholder when the file has none).
    pub customer_email: String,
    /// The customer's name as the file writes it.
    pub customer_name: Option<String>,
    /// `existing`, `created` (or `new` in a preview) or `none` (not linked: customers are
    /// not created on request).
    pub customer: String,
    /// Sum of the lines.
    pub subtotal: Option<Decimal>,
    /// Tax (the file's, else the company rate).
    pub tax_amount: Option<Decimal>,
    /// Shipping charged.
    pub shipping_cost: Option<Decimal>,
    /// subtotal + tax + shipping.
    pub grand_total: Option<Decimal>,
    /// `ready` (preview), `created`, `duplicate`, `cancelled` or `invalid`.
    pub outcome: String,
    /// The Strata order number, once created (or the existing one for a duplicate).
    pub order_number: Option<String>,
    /// Why it is not imported.
    pub errors: Vec<String>,
}

/// What an order import did (or would do, for a preview): the REST shape of CONTRACT 5.11
/// (`total_rows`, `created`, `skipped`, `errors`) and more.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderImportReport {
    /// Data rows in the file.
    pub total_rows: i64,
    /// Distinct orders (Order IDs) in the file.
    pub orders_found: i64,
    /// Orders created (for a preview: orders that would be).
    pub created: i64,
    /// Orders not created: invalid, already imported or cancelled in the file.
    pub skipped: i64,
    /// Customers created (for a preview: that would be).
    pub customers_created: i64,
    /// Every row problem, by file line (at most 200).
    pub errors: Vec<ImportRowError>,
    /// Things to know that are not errors.
    pub warnings: Vec<String>,
    /// The first 100 orders of the file.
    pub orders: Vec<OrderImportPreview>,
    /// True when the file has more orders than `orders` lists.
    pub truncated: bool,
    /// `shopify`, `squarespace`, `woocommerce`, `etsy`, `tiktok` or `strata` (the template).
    pub detected_format: String,
    /// The source the created orders carry.
    pub source: SalesOrderSource,
    /// False for a preview.
    pub applied: bool,
    /// One sentence for the user.
    pub message: String,
}

// ------------------------------------------------------------------------------ planning

#[derive(Debug, Clone)]
pub(super) struct Product {
    pub(super) id: i64,
    pub(super) sku: String,
    pub(super) name: String,
    pub(super) active: bool,
    pub(super) price: Option<BigDecimal>,
}

/// A customer the file names that exists: what an order copies, and whether it is active.
pub(super) type Known = (rules::CustomerFacts, bool);

/// An order ready to write.
pub(super) struct Planned {
    pub(super) at: usize,
    pub(super) customer_email: String,
    pub(super) existing_customer: Option<i64>,
    pub(super) new_customer: Option<partners::CustomerForm>,
    pub(super) customer_name: Option<String>,
    pub(super) phone: Option<String>,
    pub(super) address: [Option<String>; 6],
    pub(super) totals: rules::Totals,
    pub(super) lines: Vec<(i64, i32, BigDecimal, BigDecimal)>,
    pub(super) product_name: String,
}

/// Options of one import.
#[derive(Debug, Clone, Copy)]
pub struct ImportOptions {
    /// Create customers that do not exist (by e-mail).
    pub create_customers: bool,
    /// The source the orders carry (default: judged from the file, else manual).
    pub source: Option<SalesOrderSource>,
    /// Only check and report.
    pub dry_run: bool,
}

/// Previews (`dry_run`) or imports an order CSV file for `user`.
pub async fn import_orders(
    conn: &mut AsyncPgConnection,
    bytes: &[u8],
    options: ImportOptions,
    user: i64,
) -> AppResult<OrderImportReport> {
    let file = parse(bytes)?;
    if options.dry_run {
        return plan_and_write(conn, file, options, user).await;
    }
    conn.transaction::<_, AppError, _>(async |conn| {
        // Two imports of one file at once would both see its orders as new.
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext('strata.order_import'))")
            .execute(conn)
            .await?;
        plan_and_write(conn, file, options, user).await
    })
    .await
}

pub(super) async fn plan_and_write(
    conn: &mut AsyncPgConnection,
    mut file: ParsedFile,
    options: ImportOptions,
    user: i64,
) -> AppResult<OrderImportReport> {
    let source = options
        .source
        .or(file.source)
        .unwrap_or(SalesOrderSource::Manual);
    let products = products_of(conn, &file.orders).await?;
    let duplicates = existing_orders(conn, source, &file.orders).await?;
    for order in &mut file.orders {
        if order.email.is_none() {
            order.email = Some(placeholder_email(&order.order_id));
        }
    }
    let customers = customers_of(conn, &file.orders).await?;
    let tax_rate = rules::company_tax(conn).await?.rate;
    let mut outcomes: Vec<Outcome> = vec![(String::new(), None); file.orders.len()];
    let mut planned: Vec<Planned> = Vec::new();
    let mut planner = Planner {
        products: &products,
        duplicates: &duplicates,
        customers: &customers,
        tax_rate: &tax_rate,
        create_customers: options.create_customers,
        shipped_in_file: 0,
        paid_in_file: 0,
        new_emails: HashSet::new(),
    };
    for (at, order) in file.orders.iter_mut().enumerate() {
        let (outcome, plan) = planner.plan(at, order);
        outcomes[at] = outcome;
        planned.extend(plan);
    }
    let (shipped_in_file, paid_in_file) = (planner.shipped_in_file, planner.paid_in_file);
    let customers_created = planned.iter().filter(|p| p.new_customer.is_some()).count();
    let mut numbers: HashMap<usize, String> = HashMap::new();
    if !options.dry_run && !planned.is_empty() {
        numbers = write(conn, &file, &planned, source, user).await?;
    }
    for p in &planned {
        outcomes[p.at] = if options.dry_run {
            ("ready".into(), None)
        } else {
            ("created".into(), numbers.get(&p.at).cloned())
        };
    }
    Ok(report(
        &file,
        &planned,
        &outcomes,
        ReportFacts {
            source,
            applied: !options.dry_run,
            customers_created,
            create_customers: options.create_customers,
            shipped_in_file,
            paid_in_file,
            customers: &customers,
        },
    ))
}

/// What became of one order: `ready`, `created`, `duplicate`, `cancelled` or `invalid`, and
/// its Strata order number when it has one.
pub(super) type Outcome = (String, Option<String>);

/// A line priced for an order: the product, the quantity, the unit price and the line total.
type PricedLine = (Product, i32, BigDecimal, BigDecimal);

/// What planning the orders of one file reads, and what it counts as it goes.
struct Planner<'a> {
    products: &'a HashMap<String, Product>,
    duplicates: &'a HashMap<String, String>,
    customers: &'a HashMap<String, Known>,
    tax_rate: &'a BigDecimal,
    create_customers: bool,
    /// Orders the file says are shipped.
    shipped_in_file: usize,
    /// Orders the file says are paid.
    paid_in_file: usize,
    /// E-mails of the customers planned so far, so one customer is created once.
    new_emails: HashSet<String>,
}

impl Planner<'_> {
    /// Plans one order of the file (its problems go into the order): its outcome and, when
    /// it is ready, what to write.
    fn plan(&mut self, at: usize, order: &mut FileOrder) -> (Outcome, Option<Planned>) {
        let first_row = order.rows.as_slice().first().copied().unwrap_or(0);
        if let Some(number) = self.duplicates.get(&order.order_id) {
            order.refuse(
                first_row,
                Some(Column::OrderId),
                format!("Order {} was already imported as {number}", order.order_id),
            );
            return (("duplicate".into(), Some(number.clone())), None);
        }
        let lines = self.priced_lines(order);
        let email = order.email.clone().unwrap_or_default();
        let known = self.customers.get(&email);
        let new_customer = self.check_customer(order, first_row, &email);
        if shop_status(order.status.as_deref()) == ShopStatus::Cancelled {
            return (("cancelled".into(), None), None);
        }
        if !order.problems.is_empty() {
            return (("invalid".into(), None), None);
        }
        if shop_status(order.status.as_deref()) == ShopStatus::Shipped {
            self.shipped_in_file += 1;
        }
        if shop_paid(order.payment.as_deref()) {
            self.paid_in_file += 1;
        }
        if new_customer.is_some() {
            self.new_emails.insert(email.clone());
        }
        let totals = order_totals(order, &lines, self.tax_rate);
        let product_name = match lines.as_slice() {
            [(p, q, _, _)] => format!("{} x{q}", p.name),
            many => format!("{} items", many.len()),
        };
        let address = if order.address.iter().any(Option::is_some) {
            order.address.clone()
        } else {
            known.map(|k| k.0.address.clone()).unwrap_or_default()
        };
        let planned = Planned {
            at,
            customer_email: email,
            existing_customer: known.and_then(|k| k.0.id),
            new_customer,
            customer_name: order
                .name
                .clone()
                .or_else(|| known.and_then(|k| k.0.name.clone())),
            phone: order
                .phone
                .clone()
                .or_else(|| known.and_then(|k| k.0.phone.clone())),
            address,
            totals,
            lines: lines
                .into_iter()
                .map(|(p, q, price, total)| (p.id, q, price, total))
                .collect(),
            product_name,
        };
        (("ready".into(), None), Some(planned))
    }

    /// The order's lines with their products and prices; a line whose product is unknown,
    /// discontinued or without a price is refused.
    fn priced_lines(&self, order: &mut FileOrder) -> Vec<PricedLine> {
        let mut lines = Vec::new();
        for line in order.lines.clone() {
            let (Some(sku), Some(quantity)) = (&line.sku, line.quantity) else {
                continue;
            };
            let Some(p) = self.products.get(&sku.to_uppercase()) else {
                order.refuse(
                    line.row,
                    Some(Column::Sku),
                    format!("Product SKU '{sku}' not found"),
                );
                continue;
            };
            if !p.active {
                order.refuse(
                    line.row,
                    Some(Column::Sku),
                    format!("Product '{}' is discontinued and cannot be ordered", p.sku),
                );
                continue;
            }
            let price = match (&line.unit_price, &p.price) {
                (Some(given), _) => given.clone(),
                (None, Some(price)) if *price > BigDecimal::zero() => cents(price),
                _ => {
                    order.refuse(
                        line.row,
                        Some(Column::UnitPrice),
                        format!(
                            "Product '{}' has no selling price configured; give a Unit Price",
                            p.sku
                        ),
                    );
                    continue;
                }
            };
            let total = rules::line_total(quantity, &price, &BigDecimal::zero());
            lines.push((p.clone(), quantity, price, total));
        }
        lines
    }

    /// Refuses an inactive customer; the customer to create when the e-mail is unknown and
    /// customers are created (once per e-mail).
    fn check_customer(
        &self,
        order: &mut FileOrder,
        first_row: i64,
        email: &str,
    ) -> Option<partners::CustomerForm> {
        let known = self.customers.get(email);
        if let Some(k) = known
            && !k.1
        {
            order.refuse(
                first_row,
                Some(Column::Email),
                format!("Customer {email} is not active"),
            );
        }
        match known {
            None if self.create_customers && !self.new_emails.contains(email) => {
                match new_customer(order, email) {
                    Ok(c) => Some(c),
                    Err(reason) => {
                        order.refuse(first_row, Some(Column::Name), reason);
                        None
                    }
                }
            }
            _ => None,
        }
    }
}

/// An order's totals at the company tax rate, unless the file gives the tax: the shop's tax
/// is what the customer paid, kept with its effective rate.
fn order_totals(order: &FileOrder, lines: &[PricedLine], tax_rate: &BigDecimal) -> rules::Totals {
    let line_totals: Vec<BigDecimal> = lines.iter().map(|l| l.3.clone()).collect();
    let shipping = order.shipping.clone().unwrap_or_default();
    let mut totals = rules::totals(&line_totals, &shipping, tax_rate);
    if let Some(tax) = &order.tax {
        // The shop's tax is what the customer paid; keep it, with its effective rate.
        totals.tax_amount = tax.clone();
        totals.tax_rate = if totals.subtotal.is_zero() {
            BigDecimal::zero()
        } else {
            (tax / &totals.subtotal)
                .with_scale_round(6, bigdecimal::RoundingMode::HalfUp)
                .min(BigDecimal::from(9))
        };
        totals.grand_total = &totals.subtotal + &totals.shipping_cost + tax;
    }
    totals
}

/// The customer an order creates: the file's name split into given and family name (a
/// single word is the given name; no name at all takes the e-mail's local part).
pub(super) fn new_customer(
    order: &FileOrder,
    email: &str,
) -> Result<partners::CustomerForm, String> {
    let full = order.name.clone().unwrap_or_default();
    let mut parts = full.trim().splitn(2, char::is_whitespace);
    let given = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let family = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let local = email.split('@').next().unwrap_or(email).to_string();
    let [line1, line2, city, state, zip, country] = order.address.clone();
    // The placeholder's reserved `.local` domain is refused by the e-mail rule on purpose: it
    // is checked as an ordinary address and stored as it is.
    let checked = if email.ends_with(PLACEHOLDER_DOMAIN) {
        "import@example.com".to_string()
    } else {
        email.to_string()
    };
    let input = CustomerCreateInput {
        email: checked,
        first_name: given.map_or(local, str::to_string),
        last_name: family.unwrap_or("-").to_string(),
        phone: order.phone.clone(),
        shipping_address_line1: line1,
        shipping_address_line2: line2,
        shipping_city: city,
        shipping_state: state,
        shipping_zip: zip,
        shipping_country: country,
        notes: Some(format!(
            "Created by the order import (order {})",
            order.order_id
        )),
        ..Default::default()
    };
    customer::new_form(input)
        .map(|new| partners::CustomerForm {
            email: Some(email.to_string()),
            ..new
        })
        .map_err(|errors| {
            errors
                .iter()
                .map(|e| match &e.field {
                    Some(field) => format!("customer {field}: {}", e.message),
                    None => format!("customer: {}", e.message),
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
}

/// The products the file names, by upper-cased SKU (codes compare in upper case), in one statement per 5,000 SKUs.
pub(super) async fn products_of(
    conn: &mut AsyncPgConnection,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, Product>> {
    let skus: Vec<String> = orders
        .iter()
        .flat_map(|o| o.lines.iter().filter_map(|l| l.sku.as_ref()))
        .map(|s| s.to_uppercase())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut found = HashMap::new();
    for chunk in skus.chunks(LOOKUP_CHUNK) {
        let rows: Vec<(i64, String, String, bool, Option<BigDecimal>)> = items::table
            .filter(upper(items::sku).eq_any(chunk))
            .select((
                items::id,
                items::sku,
                items::name,
                items::active,
                items::selling_price,
            ))
            .load(conn)
            .await?;
        for (id, sku, name, active, price) in rows {
            found.insert(
                sku.to_uppercase(),
                Product {
                    id,
                    sku,
                    name,
                    active,
                    price,
                },
            );
        }
    }
    Ok(found)
}

/// The file's orders already imported from `source`: order id -> Strata number.
pub(super) async fn existing_orders(
    conn: &mut AsyncPgConnection,
    source: SalesOrderSource,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, String>> {
    let ids: Vec<String> = orders.iter().map(|o| o.order_id.clone()).collect();
    let mut found = HashMap::new();
    for chunk in ids.chunks(LOOKUP_CHUNK) {
        let rows: Vec<(Option<String>, String)> = sales_orders::table
            .filter(sales_orders::source.eq(source))
            .filter(sales_orders::source_order_id.eq_any(chunk))
            .select((sales_orders::source_order_id, sales_orders::order_number))
            .load(conn)
            .await?;
        found.extend(rows.into_iter().filter_map(|(id, n)| id.map(|id| (id, n))));
    }
    Ok(found)
}

/// The customers the file's e-mails name, by lower-cased e-mail.
pub(super) async fn customers_of(
    conn: &mut AsyncPgConnection,
    orders: &[FileOrder],
) -> AppResult<HashMap<String, Known>> {
    let emails: Vec<String> = orders
        .iter()
        .filter_map(|o| o.email.clone())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut found = HashMap::new();
    for chunk in emails.chunks(LOOKUP_CHUNK) {
        let rows: Vec<rules::CustomerTuple> = customers::table
            .filter(lower(customers::email).eq_any(chunk))
            .select(rules::customer_columns())
            .load(conn)
            .await?;
        for row in rows {
            let known = rules::facts_of(row);
            if let Some(email) = known.0.email.clone() {
                found.insert(email.to_lowercase(), known);
            }
        }
    }
    Ok(found)
}
