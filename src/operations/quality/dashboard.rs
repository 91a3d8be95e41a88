//! The quality dashboard: the inspection queue, first-pass yield, scrap rate and scrap cost
//! by reason over a period, the latest verdicts, and a daily trend for charts. Each answer
//! is one statement (two for a paged queue).

use async_graphql::SimpleObject;
use chrono::{Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Double, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{OrderRow, OrderStatus, QcStatus};
use crate::platform::db::schema::production_orders;
use crate::platform::error::AppResult;

/// The quality figures of a period.
#[derive(Debug, Clone, SimpleObject, QueryableByName)]
pub struct QualityMetrics {
    /// The period, in days back from now.
    #[diesel(sql_type = BigInt)]
    pub period_days: i64,
    /// Orders whose first inspection fell in the period.
    #[diesel(sql_type = BigInt)]
    pub total_inspections: i64,
    /// ... of which passed at once.
    #[diesel(sql_type = BigInt)]
    pub passed: i64,
    /// ... of which failed.
    #[diesel(sql_type = BigInt)]
    pub failed: i64,
    /// Passed / (passed + failed) of first inspections, percent to one place (null when
    /// none).
    #[diesel(sql_type = Nullable<Double>)]
    pub first_pass_yield: Option<f64>,
    /// Complete orders waiting for QC now.
    #[diesel(sql_type = BigInt)]
    pub pending_inspections: i64,
    /// Scrapped / (completed + scrapped) units of orders finished in the period, percent to
    /// one place (null when none).
    #[diesel(sql_type = Nullable<Double>)]
    pub scrap_rate: Option<f64>,
    /// Value written off to scrap in the period.
    #[diesel(sql_type = Double)]
    pub total_scrapped_cost: f64,
}

/// Scrap of a period by reason.
#[derive(Debug, Clone, SimpleObject, QueryableByName)]
pub struct ScrapByReason {
    /// The reason's code (`UNCAT` when none was given).
    #[diesel(sql_type = Text)]
    pub reason_code: String,
    /// The reason's name.
    #[diesel(sql_type = Text)]
    pub reason_name: String,
    /// How many scrap events.
    #[diesel(sql_type = BigInt)]
    pub count: i64,
    /// Units scrapped.
    #[diesel(sql_type = Double)]
    pub total_quantity: f64,
    /// Value written off.
    #[diesel(sql_type = Double)]
    pub total_cost: f64,
}

/// One day of the quality trend.
#[derive(Debug, Clone, SimpleObject, QueryableByName)]
pub struct QualityTrendDay {
    /// The day.
    #[diesel(sql_type = Date)]
    pub day: NaiveDate,
    /// Inspections recorded.
    #[diesel(sql_type = BigInt)]
    pub inspections: i64,
    /// First inspections that passed.
    #[diesel(sql_type = BigInt)]
    pub first_passed: i64,
    /// First inspections that failed.
    #[diesel(sql_type = BigInt)]
    pub first_failed: i64,
    /// First-pass yield of the day, percent (null when no first inspection).
    #[diesel(sql_type = Nullable<Double>)]
    pub first_pass_yield: Option<f64>,
    /// Value scrapped that day.
    #[diesel(sql_type = Double)]
    pub scrap_cost: f64,
}

/// The orders waiting for QC, most urgent first.
#[derive(Debug, Clone, SimpleObject)]
pub struct InspectionQueue {
    /// The orders of this page.
    pub items: Vec<OrderRow>,
    /// How many wait, over all pages.
    pub total: i64,
}

fn cutoff(days: i64) -> chrono::DateTime<Utc> {
    Utc::now() - Duration::days(days)
}

/// The figures of the last `days` days.
pub async fn metrics(conn: &mut AsyncPgConnection, days: i64) -> AppResult<QualityMetrics> {
    Ok(diesel::sql_query(
        "WITH first AS ( \
             SELECT DISTINCT ON (production_order_id) production_order_id, result, inspected_at \
             FROM qc_inspections ORDER BY production_order_id, id), \
         counted AS ( \
             SELECT count(*) FILTER (WHERE result = 'passed') AS passed, \
                    count(*) FILTER (WHERE result = 'failed') AS failed, \
                    count(*) AS total \
             FROM first WHERE inspected_at >= $2), \
         made AS ( \
             SELECT COALESCE(sum(quantity_completed), 0) AS c, COALESCE(sum(quantity_scrapped), 0) AS s \
             FROM production_orders WHERE actual_end >= $2 AND status IN ('complete', 'scrapped')) \
         SELECT $1 AS period_days, counted.total AS total_inspections, counted.passed, counted.failed, \
                CASE WHEN counted.passed + counted.failed = 0 THEN NULL \
                     ELSE round(counted.passed * 100.0 / (counted.passed + counted.failed), 1)::float8 END \
                     AS first_pass_yield, \
                (SELECT count(*) FROM production_orders WHERE qc_status = 'pending' AND status = 'complete') \
                     AS pending_inspections, \
                CASE WHEN made.c + made.s = 0 THEN NULL \
                     ELSE round(made.s * 100.0 / (made.c + made.s), 1)::float8 END AS scrap_rate, \
                (SELECT COALESCE(sum(total_cost), 0)::float8 FROM scrap_records WHERE created_at >= $2) \
                     AS total_scrapped_cost \
         FROM counted, made",
    )
    .bind::<BigInt, _>(days)
    .bind::<Timestamptz, _>(cutoff(days))
    .get_result(conn)
    .await?)
}

/// Scrap of the last `days` days by reason, costliest first.
pub async fn scrap_by_reason(
    conn: &mut AsyncPgConnection,
    days: i64,
) -> AppResult<Vec<ScrapByReason>> {
    Ok(diesel::sql_query(
        "SELECT COALESCE(r.code, 'UNCAT') AS reason_code, COALESCE(r.name, 'Uncategorized') AS reason_name, \
                count(*) AS count, COALESCE(sum(s.quantity), 0)::float8 AS total_quantity, \
                COALESCE(sum(s.total_cost), 0)::float8 AS total_cost \
         FROM scrap_records s \
         LEFT JOIN scrap_reasons r ON lower(r.code) = lower(s.reason_code) \
         WHERE s.created_at >= $1 \
         GROUP BY 1, 2 ORDER BY total_cost DESC, reason_code",
    )
    .bind::<Timestamptz, _>(cutoff(days))
    .load(conn)
    .await?)
}

/// The last `days` days, a row per day (days without activity included).
pub async fn trend(conn: &mut AsyncPgConnection, days: i64) -> AppResult<Vec<QualityTrendDay>> {
    Ok(diesel::sql_query(
        "WITH days AS (SELECT generate_series(($1::date - ($2 - 1)::int), $1::date, interval '1 day')::date AS day), \
         first AS (SELECT DISTINCT ON (production_order_id) id FROM qc_inspections ORDER BY production_order_id, id), \
         insp AS (SELECT i.inspected_at::date AS day, count(*) AS n, \
                         count(*) FILTER (WHERE f.id IS NOT NULL AND i.result = 'passed') AS p, \
                         count(*) FILTER (WHERE f.id IS NOT NULL AND i.result = 'failed') AS f \
                  FROM qc_inspections i LEFT JOIN first f ON f.id = i.id \
                  WHERE i.inspected_at::date > $1::date - $2::int GROUP BY 1), \
         scrap AS (SELECT created_at::date AS day, sum(total_cost) AS cost FROM scrap_records \
                   WHERE created_at::date > $1::date - $2::int GROUP BY 1) \
         SELECT d.day, COALESCE(insp.n, 0) AS inspections, COALESCE(insp.p, 0) AS first_passed, \
                COALESCE(insp.f, 0) AS first_failed, \
                CASE WHEN COALESCE(insp.p, 0) + COALESCE(insp.f, 0) = 0 THEN NULL \
                     ELSE round(insp.p * 100.0 / (insp.p + insp.f), 1)::float8 END AS first_pass_yield, \
                COALESCE(scrap.cost, 0)::float8 AS scrap_cost \
         FROM days d LEFT JOIN insp ON insp.day = d.day LEFT JOIN scrap ON scrap.day = d.day \
         ORDER BY d.day",
    )
    .bind::<Date, _>(Utc::now().date_naive())
    .bind::<BigInt, _>(days)
    .load(conn)
    .await?)
}

/// Complete orders waiting for QC, by priority then due date.
pub async fn queue(
    conn: &mut AsyncPgConnection,
    limit: i64,
    offset: i64,
) -> AppResult<InspectionQueue> {
    let waiting = || {
        production_orders::table
            .filter(production_orders::qc_status.eq(QcStatus::Pending))
            .filter(production_orders::status.eq(OrderStatus::Complete))
    };
    let total = waiting().count().get_result(conn).await?;
    let items = waiting()
        .order((
            production_orders::priority.asc(),
            production_orders::due_date.asc().nulls_last(),
            production_orders::id,
        ))
        .limit(limit)
        .offset(offset)
        .select(OrderRow::as_select())
        .load(conn)
        .await?;
    Ok(InspectionQueue { items, total })
}

/// The latest verdicts on orders, newest first.
pub async fn recent(conn: &mut AsyncPgConnection, limit: i64) -> AppResult<Vec<OrderRow>> {
    Ok(production_orders::table
        .filter(production_orders::qc_status.eq_any([
            QcStatus::Passed,
            QcStatus::Failed,
            QcStatus::Waived,
        ]))
        .filter(production_orders::qc_inspected_at.is_not_null())
        .order(production_orders::qc_inspected_at.desc())
        .limit(limit)
        .select(OrderRow::as_select())
        .load(conn)
        .await?)
}
