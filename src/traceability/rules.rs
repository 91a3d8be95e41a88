//! The rules of traceability: which finished units leave with a shipment, and what a
//! recall-impact request may name.

use diesel::sql_types::{BigInt, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::graphql::scalars::Timestamp;

/// One shipped line: the units of `product_id` it takes.
#[derive(Debug, Clone)]
pub struct ShippedLine {
    /// The sales order line.
    pub line_id: i64,
    /// Its product.
    pub product_id: i64,
    /// Whole units shipped.
    pub units: i64,
}

/// Gives a shipment its finished units: for each line, up to its quantity of the product's
/// units not yet sold (made or in stock, not failed in QC), those made for this sales order
/// first, then QC-passed ones, oldest first. They become `shipped` on the order, line and
/// shipment, with its tracking number. Products made without serial numbers simply have
/// none to take. One statement per line.
pub async fn assign_shipped_units(
    conn: &mut AsyncPgConnection,
    sales_order_id: i64,
    shipment_id: i64,
    tracking_number: &str,
    at: Timestamp,
    lines: &[ShippedLine],
) -> diesel::QueryResult<usize> {
    let mut assigned = 0;
    for line in lines.iter().filter(|l| l.units > 0) {
        assigned += diesel::sql_query(ASSIGN)
            .bind::<BigInt, _>(sales_order_id)
            .bind::<BigInt, _>(line.line_id)
            .bind::<BigInt, _>(shipment_id)
            .bind::<Timestamptz, _>(at.0)
            .bind::<Text, _>(tracking_number)
            .bind::<BigInt, _>(line.product_id)
            .bind::<BigInt, _>(line.units)
            .execute(conn)
            .await?;
    }
    Ok(assigned)
}

const ASSIGN: &str = "\
    UPDATE serial_numbers SET sales_order_id = $1, sales_order_line_id = $2, shipment_id = $3, \
           status = 'shipped', sold_at = COALESCE(sold_at, $4), shipped_at = $4, tracking_number = $5 \
     WHERE id IN ( \
        SELECT s.id FROM serial_numbers s \
          LEFT JOIN production_orders o ON o.id = s.production_order_id \
         WHERE s.product_id = $6 AND s.sales_order_id IS NULL \
           AND s.status IN ('manufactured', 'in_stock') \
           AND NOT (s.qc_date IS NOT NULL AND NOT s.qc_passed) \
         ORDER BY (o.sales_order_id IS NOT DISTINCT FROM $1) DESC, s.qc_passed DESC, \
                  s.manufactured_at, s.id \
         LIMIT $7 FOR UPDATE OF s SKIP LOCKED)";
