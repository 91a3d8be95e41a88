//! The sales documents: a quote and an invoice as PDFs to send the customer, and a packing
//! slip to put in the box. All are written on request from the current rows (nothing is
//! stored).

use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::model::PaymentTerms;
use crate::master_data::settings::model::SettingsRow;
use crate::operations::sales::invoices::model::{InvoiceRow, InvoiceStatus};
use crate::operations::sales::model::{self, SalesOrderRow};
use crate::operations::sales::quotes::QuoteRow;
use crate::platform::db::schema::{items, sales_orders};
use crate::platform::documents::locale::DocumentLocale;
use crate::platform::documents::pdf::{Align, Column, Document, MARGIN, RIGHT};
use crate::platform::documents::{BODY, GeneratedDocument, SMALL, address, city_line, letterhead};
use crate::platform::error::AppResult;

/// The quote as the customer sees it: what, how many, the price, tax, shipping and total,
/// validity, their notes and the company's quote terms and footer.
pub fn quote_pdf(quote: &QuoteRow, settings: &SettingsRow) -> GeneratedDocument {
    let fmt = settings.document_locale();
    let mut doc = Document::new(format!("Quote {}", quote.quote_number));
    letterhead(&mut doc, &settings.company(), "QUOTE", &quote.quote_number);
    quote_parties(&mut doc, quote, &fmt);
    doc.gap(14.0);
    quote_item(&mut doc, quote, &fmt);
    doc.rule();
    doc.total("Subtotal", &fmt.money(&quote.subtotal.0), BODY, false);
    tax_line(
        &mut doc,
        settings,
        quote.tax_rate_name.as_deref(),
        &quote.tax_rate.0,
        &quote.tax_amount.0,
    );
    if !quote.shipping_cost.0.is_zero() {
        doc.total("Shipping", &fmt.money(&quote.shipping_cost.0), BODY, false);
    }
    doc.total("Total", &fmt.money(&quote.total_price.0), 12.0, true);
    for (title, text) in [
        ("NOTES", quote.customer_notes.as_deref()),
        ("TERMS", settings.quote_terms.as_deref()),
    ] {
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            doc.gap(10.0);
            doc.line(MARGIN, title, SMALL, true);
            doc.paragraph(MARGIN, text, SMALL);
        }
    }
    if let Some(footer) = settings
        .quote_footer
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        doc.gap(14.0);
        doc.paragraph(MARGIN, footer, SMALL);
    }
    GeneratedDocument::pdf(format!("{}.pdf", quote.quote_number), &doc.finish())
}

/// The quote's dates, who it is for and where it ships.
fn quote_parties(doc: &mut Document, quote: &QuoteRow, fmt: &DocumentLocale) {
    doc.line(
        MARGIN,
        &format!(
            "Date: {}    Valid until: {}",
            fmt.date(quote.created_at.0.date_naive()),
            fmt.date(quote.expires_at.0.date_naive())
        ),
        BODY,
        false,
    );
    let city = city_line(
        quote.shipping_city.as_deref(),
        quote.shipping_state.as_deref(),
        quote.shipping_zip.as_deref(),
    );
    address(
        doc,
        "FOR",
        &[
            quote.customer_name.as_deref(),
            quote.customer_email.as_deref(),
        ],
    );
    address(
        doc,
        "SHIP TO",
        &[
            quote.shipping_name.as_deref(),
            quote.shipping_address_line1.as_deref(),
            quote.shipping_address_line2.as_deref(),
            Some(city.as_str()),
            quote.shipping_country.as_deref(),
        ],
    );
}

/// The columns of a priced table (item, quantity, unit price, amount), with their heading
/// and rule written.
fn priced_columns(doc: &mut Document) -> [Column; 4] {
    let columns = [
        Column {
            x: MARGIN,
            align: Align::Left,
            width: 260.0,
        },
        Column {
            x: RIGHT - 190.0,
            align: Align::Right,
            width: 60.0,
        },
        Column {
            x: RIGHT - 100.0,
            align: Align::Right,
            width: 80.0,
        },
        Column {
            x: RIGHT,
            align: Align::Right,
            width: 90.0,
        },
    ];
    doc.row(
        &columns,
        &["Item", "Qty", "Unit price", "Amount"],
        SMALL,
        true,
    );
    doc.rule();
    columns
}

/// The invoice as the customer receives it: who is billed, the invoice and due dates and
/// terms, the lines, subtotal, discount, tax, shipping, total, paid and due, and the
/// company's footer.
pub async fn invoice_pdf(
    conn: &mut AsyncPgConnection,
    invoice: &InvoiceRow,
) -> AppResult<GeneratedDocument> {
    let settings = crate::master_data::settings::model::get(conn).await?;
    let fmt = settings.document_locale();
    let lines = crate::operations::sales::invoices::model::lines_of(conn, &[invoice.id]).await?;
    let order_number: Option<String> = sales_orders::table
        .find(invoice.sales_order_id)
        .select(sales_orders::order_number)
        .first(conn)
        .await
        .optional()?;
    let mut doc = Document::new(format!("Invoice {}", invoice.invoice_number));
    letterhead(
        &mut doc,
        &settings.company(),
        "INVOICE",
        &invoice.invoice_number,
    );
    doc.line(
        MARGIN,
        &format!(
            "Date: {}    Due: {}    Terms: {}",
            fmt.date(invoice.invoice_date),
            fmt.date(invoice.due_date),
            terms_label(invoice.payment_terms)
        ),
        BODY,
        false,
    );
    if let Some(number) = &order_number {
        doc.line(MARGIN, &format!("Order: {number}"), BODY, false);
    }
    let city = city_line(
        invoice.bill_to_city.as_deref(),
        invoice.bill_to_state.as_deref(),
        invoice.bill_to_zip.as_deref(),
    );
    address(
        &mut doc,
        "BILL TO",
        &[
            invoice.customer_company.as_deref(),
            invoice.customer_name.as_deref(),
            invoice.bill_to_line1.as_deref(),
            Some(city.as_str()),
            invoice.customer_email.as_deref(),
        ],
    );
    doc.gap(14.0);
    let columns = priced_columns(&mut doc);
    for line in &lines {
        let item = match line.sku.as_deref().filter(|s| !s.is_empty()) {
            Some(sku) => format!("{} ({sku})", line.description),
            None => line.description.clone(),
        };
        doc.row(
            &columns,
            &[
                &item,
                &line.quantity.0.normalized().to_string(),
                &fmt.money(&line.unit_price.0),
                &fmt.money(&line.line_total.0),
            ],
            BODY,
            false,
        );
    }
    doc.rule();
    doc.total("Subtotal", &fmt.money(&invoice.subtotal.0), BODY, false);
    if !invoice.discount_amount.0.is_zero() {
        doc.total(
            "Discount",
            &fmt.money(&-invoice.discount_amount.0.clone()),
            BODY,
            false,
        );
    }
    tax_line(
        &mut doc,
        &settings,
        invoice.tax_rate_name.as_deref(),
        &invoice.tax_rate.0,
        &invoice.tax_amount.0,
    );
    if !invoice.shipping_amount.0.is_zero() {
        doc.total(
            "Shipping",
            &fmt.money(&invoice.shipping_amount.0),
            BODY,
            false,
        );
    }
    doc.total("Total", &fmt.money(&invoice.total.0), 12.0, true);
    if !invoice.amount_paid.0.is_zero() {
        doc.total("Paid", &fmt.money(&invoice.amount_paid.0), BODY, false);
    }
    doc.total("Amount due", &fmt.money(&invoice.balance_due()), 12.0, true);
    if invoice.status == InvoiceStatus::Voided {
        doc.gap(10.0);
        doc.line(MARGIN, "VOID", 14.0, true);
        if let Some(reason) = invoice.void_reason.as_deref() {
            doc.paragraph(MARGIN, reason, SMALL);
        }
    }
    doc.gap(10.0);
    doc.paragraph(
        MARGIN,
        &format!(
            "Payment terms: {}. Please quote {} with your payment.",
            terms_label(invoice.payment_terms),
            invoice.invoice_number
        ),
        SMALL,
    );
    if let Some(footer) = settings
        .quote_footer
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        doc.gap(14.0);
        doc.paragraph(MARGIN, footer, SMALL);
    }
    Ok(GeneratedDocument::pdf(
        format!("{}.pdf", invoice.invoice_number),
        &doc.finish(),
    ))
}

/// Terms as people write them.
/// The tax line of a document's totals, named as the document's rate is (else the
/// settings' tax name). A document that names its rate but charged none (a tax exempt
/// customer) still shows the line at 0.00, so the customer sees why.
fn tax_line(
    doc: &mut Document,
    settings: &SettingsRow,
    name: Option<&str>,
    rate: &BigDecimal,
    amount: &BigDecimal,
) {
    let fmt = settings.document_locale();
    if amount.is_zero() {
        if let Some(name) = name {
            doc.total(name, &fmt.money(amount), BODY, false);
        }
        return;
    }
    let percent = (rate * BigDecimal::from(100)).normalized();
    let name = name.or(settings.tax_name.as_deref()).unwrap_or("Tax");
    doc.total(
        &format!("{name} ({percent}%)"),
        &fmt.money(amount),
        BODY,
        false,
    );
}

fn terms_label(terms: PaymentTerms) -> &'static str {
    match terms {
        PaymentTerms::Cod => "Due on receipt (COD)",
        PaymentTerms::Prepay => "Prepaid",
        PaymentTerms::Net15 => "Net 15",
        PaymentTerms::Net30 => "Net 30",
        PaymentTerms::Net60 => "Net 60",
        PaymentTerms::CardOnFile => "Card on file",
    }
}

/// The quoted item's table: item, quantity, unit price and amount, then its material and
/// colour and its description.
fn quote_item(doc: &mut Document, quote: &QuoteRow, fmt: &DocumentLocale) {
    let columns = priced_columns(doc);
    let quantity = quote.quantity.to_string();
    doc.row(
        &columns,
        &[
            &quote.product_name,
            &quantity,
            &fmt.money(&quote.unit_price.0),
            &fmt.money(&quote.subtotal.0),
        ],
        BODY,
        false,
    );
    let material = match quote.color.as_deref() {
        Some(color) if !color.is_empty() => format!("{}, {color}", quote.material_type),
        _ => quote.material_type.clone(),
    };
    doc.line(MARGIN + 8.0, &material, SMALL, false);
    if let Some(description) = quote.description.as_deref().filter(|d| !d.is_empty()) {
        doc.paragraph(MARGIN + 8.0, description, SMALL);
    }
}

/// The packing slip of an order: ship-to, carrier and tracking, and per line the SKU, item,
/// quantity ordered and shipped. No prices: it goes in the box.
pub async fn packing_slip_pdf(
    conn: &mut AsyncPgConnection,
    order: &SalesOrderRow,
    settings: &SettingsRow,
) -> AppResult<GeneratedDocument> {
    let lines = model::lines_of(conn, &[order.id]).await?;
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let products: Vec<(i64, String, String, String)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::sku, items::name, items::unit))
        .load(conn)
        .await?;
    let mut doc = Document::new(format!("Packing slip {}", order.order_number));
    letterhead(
        &mut doc,
        &settings.company(),
        "PACKING SLIP",
        &order.order_number,
    );
    slip_shipping(&mut doc, order, &settings.document_locale());
    doc.gap(14.0);
    let units = slip_lines(&mut doc, &lines, &products);
    doc.rule();
    doc.total("Units", &units.to_string(), BODY, true);
    if let Some(notes) = order
        .customer_notes
        .as_deref()
        .filter(|t| !t.trim().is_empty())
    {
        doc.gap(10.0);
        doc.line(MARGIN, "NOTES", SMALL, true);
        doc.paragraph(MARGIN, notes, SMALL);
    }
    doc.gap(10.0);
    doc.paragraph(
        MARGIN,
        "Thank you for your order. Please check the contents against this slip and tell us within 14 days if anything is missing or damaged.",
        SMALL,
    );
    Ok(GeneratedDocument::pdf(
        format!("packing-slip-{}.pdf", order.order_number),
        &doc.finish(),
    ))
}

/// The order and shipping dates, the carrier's tracking number and where it ships.
fn slip_shipping(doc: &mut Document, order: &SalesOrderRow, fmt: &DocumentLocale) {
    let mut facts = format!("Order date: {}", fmt.date(order.created_at.0.date_naive()));
    if let Some(shipped) = &order.shipped_at {
        facts.push_str(&format!(
            "    Shipped: {}",
            fmt.date(shipped.0.date_naive())
        ));
    }
    doc.line(MARGIN, &facts, BODY, false);
    if let Some(tracking) = order.tracking_number.as_deref().filter(|t| !t.is_empty()) {
        let carrier = order.carrier.as_deref().unwrap_or("Carrier");
        doc.line(
            MARGIN,
            &format!("{carrier} tracking: {tracking}"),
            BODY,
            false,
        );
    }
    let city = city_line(
        order.shipping_city.as_deref(),
        order.shipping_state.as_deref(),
        order.shipping_zip.as_deref(),
    );
    address(
        doc,
        "SHIP TO",
        &[
            order.customer_name.as_deref(),
            order.shipping_address_line1.as_deref(),
            order.shipping_address_line2.as_deref(),
            Some(city.as_str()),
            order.shipping_country.as_deref(),
            order.customer_phone.as_deref(),
        ],
    );
}

/// The table of lines: number, SKU, item (with the line's notes), quantity ordered in the
/// item's unit and quantity shipped. Answers the units ordered.
fn slip_lines(
    doc: &mut Document,
    lines: &[model::SalesOrderLineRow],
    products: &[(i64, String, String, String)],
) -> i64 {
    let columns = [
        Column {
            x: MARGIN,
            align: Align::Left,
            width: 24.0,
        },
        Column {
            x: MARGIN + 28.0,
            align: Align::Left,
            width: 110.0,
        },
        Column {
            x: MARGIN + 145.0,
            align: Align::Left,
            width: 210.0,
        },
        Column {
            x: RIGHT - 70.0,
            align: Align::Right,
            width: 60.0,
        },
        Column {
            x: RIGHT,
            align: Align::Right,
            width: 60.0,
        },
    ];
    doc.row(
        &columns,
        &["#", "SKU", "Item", "Ordered", "Shipped"],
        SMALL,
        true,
    );
    doc.rule();
    let mut units = 0i64;
    for line in lines {
        let (sku, name, unit) = products
            .iter()
            .find(|p| p.0 == line.product_id)
            .map(|p| (p.1.as_str(), p.2.as_str(), p.3.as_str()))
            .unwrap_or(("", "(item removed)", "EA"));
        units += i64::from(line.quantity);
        let shipped = line.quantity_shipped.0.normalized().to_string();
        doc.row(
            &columns,
            &[
                &line.line_number.to_string(),
                sku,
                name,
                &format!("{} {unit}", line.quantity),
                &shipped,
            ],
            BODY,
            false,
        );
        if let Some(notes) = line.notes.as_deref().filter(|n| !n.is_empty()) {
            doc.line(MARGIN + 145.0, notes, SMALL, false);
        }
    }
    units
}
