//! A purchase order as a PDF to send the vendor: who buys, from whom, what (SKU, item,
//! quantity in the purchase unit, unit cost, amount), tax, shipping and total, and the
//! order's notes. Written on request from the current rows (nothing is stored).

use bigdecimal::Zero;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::partners::model::VendorRow;
use crate::operations::purchasing::{model, rules};
use crate::platform::db::schema::items;
use crate::platform::documents::locale::DocumentLocale;
use crate::platform::documents::pdf::{Align, Column, Document, MARGIN, RIGHT};
use crate::platform::documents::{BODY, GeneratedDocument, SMALL, address, city_line, letterhead};
use crate::platform::error::AppResult;

/// The order `id` as the vendor sees it (404 `Purchase order not found`).
pub async fn purchase_order_pdf(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> AppResult<GeneratedDocument> {
    let po = model::find(conn, id).await?;
    let lines = model::lines_of(conn, &[id]).await?;
    let vendor = crate::master_data::partners::model::find_vendor(conn, po.vendor_id).await?;
    let settings = crate::master_data::settings::model::get(conn).await?;
    let fmt = settings.document_locale();
    let ids: Vec<i64> = lines.iter().map(|l| l.product_id).collect();
    let products: Vec<(i64, String, String)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((items::id, items::sku, items::name))
        .load(conn)
        .await?;

    let mut doc = Document::new(format!("Purchase order {}", po.po_number));
    letterhead(
        &mut doc,
        &settings.company(),
        "PURCHASE ORDER",
        &po.po_number,
    );
    let mut facts = format!("Status: {}", po.status);
    if let Some(date) = po.order_date {
        facts.push_str(&format!("    Ordered: {}", fmt.date(date)));
    }
    if let Some(date) = po.expected_date {
        facts.push_str(&format!("    Expected: {}", fmt.date(date)));
    }
    doc.line(MARGIN, &facts, BODY, false);
    if let Some(v) = &vendor {
        vendor_block(&mut doc, v);
    }
    doc.gap(14.0);
    line_table(&mut doc, &lines, &products, &fmt);
    doc.rule();
    doc.total("Subtotal", &fmt.money(&po.subtotal.0), BODY, false);
    if !po.tax_amount.0.is_zero() {
        doc.total("Tax", &fmt.money(&po.tax_amount.0), BODY, false);
    }
    if !po.shipping_cost.0.is_zero() {
        doc.total("Shipping", &fmt.money(&po.shipping_cost.0), BODY, false);
    }
    doc.total("Total", &fmt.money(&po.total_amount.0), 12.0, true);
    if let Some(notes) = po.notes.as_deref().filter(|t| !t.trim().is_empty()) {
        doc.gap(10.0);
        doc.line(MARGIN, "NOTES", SMALL, true);
        doc.paragraph(MARGIN, notes, SMALL);
    }
    Ok(GeneratedDocument::pdf(
        format!("{}.pdf", po.po_number),
        &doc.finish(),
    ))
}

/// The VENDOR block: name, contact, address, e-mail and phone, and the payment terms.
fn vendor_block(doc: &mut Document, v: &VendorRow) {
    let city = city_line(
        v.city.as_deref(),
        v.state.as_deref(),
        v.postal_code.as_deref(),
    );
    address(
        doc,
        "VENDOR",
        &[
            Some(v.name.as_str()),
            v.contact_name.as_deref(),
            v.address_line1.as_deref(),
            v.address_line2.as_deref(),
            Some(city.as_str()),
            v.country.as_deref(),
            v.email.as_deref(),
            v.phone.as_deref(),
        ],
    );
    if let Some(terms) = v.payment_terms.as_deref().filter(|t| !t.trim().is_empty()) {
        doc.line(MARGIN, &format!("Payment terms: {terms}"), SMALL, false);
    }
}

/// The table of lines: number, SKU, item (with the line's notes), quantity in the purchase
/// unit, unit cost and amount.
fn line_table(
    doc: &mut Document,
    lines: &[model::PurchaseOrderLineRow],
    products: &[(i64, String, String)],
    fmt: &DocumentLocale,
) {
    let columns = [
        Column {
            x: MARGIN,
            align: Align::Left,
            width: 24.0,
        },
        Column {
            x: MARGIN + 28.0,
            align: Align::Left,
            width: 100.0,
        },
        Column {
            x: MARGIN + 135.0,
            align: Align::Left,
            width: 150.0,
        },
        Column {
            x: RIGHT - 170.0,
            align: Align::Right,
            width: 70.0,
        },
        Column {
            x: RIGHT - 90.0,
            align: Align::Right,
            width: 70.0,
        },
        Column {
            x: RIGHT,
            align: Align::Right,
            width: 80.0,
        },
    ];
    doc.row(
        &columns,
        &["#", "SKU", "Item", "Qty", "Unit cost", "Amount"],
        SMALL,
        true,
    );
    doc.rule();
    for line in lines {
        let (sku, name) = products
            .iter()
            .find(|p| p.0 == line.product_id)
            .map(|p| (p.1.as_str(), p.2.as_str()))
            .unwrap_or(("", "(item removed)"));
        let quantity = format!(
            "{} {}",
            line.quantity_ordered.0.normalized(),
            line.purchase_unit
        );
        let amount = rules::line_total(&line.quantity_ordered.0, &line.unit_cost.0);
        doc.row(
            &columns,
            &[
                &line.line_number.to_string(),
                sku,
                name,
                &quantity,
                &fmt.money(&line.unit_cost.0),
                &fmt.money(&amount),
            ],
            BODY,
            false,
        );
        if let Some(notes) = line.notes.as_deref().filter(|n| !n.is_empty()) {
            doc.line(MARGIN + 135.0, notes, SMALL, false);
        }
    }
}
