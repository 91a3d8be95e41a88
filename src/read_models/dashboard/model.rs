//! The dashboard's figures and the aggregate queries behind them.

use std::collections::BTreeMap;

use async_graphql::SimpleObject;
use bigdecimal::{BigDecimal, ToPrimitive, Zero};
use chrono::{Datelike, Duration, NaiveDate, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::OrderStatus;
use crate::operations::sales::model::RecentOrder;
use crate::operations::sales::model::{SalesOrderRow, SalesOrderStatus};
use crate::operations::sales::payments::{PaymentRecordStatus, PaymentType};
use crate::operations::sales::quotes::QuoteStatus;
use crate::platform::db::schema::{
    boms, payments, production_orders, quotes, sales_orders, shipments,
};
use crate::platform::error::AppResult;

diesel::define_sql_function! {
    /// PostgreSQL's `date(timestamptz)` (the UTC day, the sessions run in UTC).
    #[sql_name = "date"]
    fn day_of(x: diesel::sql_types::Timestamptz) -> diesel::sql_types::Date;
}

crate::text_enum! {
    /// A dashboard period (CONTRACT 5.1).
    pub enum TrendPeriod {
        /// Week to date (from Monday).
        Wtd,
        /// Month to date (the default).
        Mtd,
        /// Quarter to date.
        Qtd,
        /// Year to date.
        Ytd,
        /// The last 365 days.
        All,
    }
}

impl TrendPeriod {
    /// The first day of the period that holds `today`.
    pub fn start(self, today: NaiveDate) -> NaiveDate {
        match self {
            TrendPeriod::Wtd => {
                today - Duration::days(today.weekday().num_days_from_monday().into())
            }
            TrendPeriod::Mtd => today.with_day(1).unwrap_or(today),
            TrendPeriod::Qtd => {
                let month = (today.month0() / 3) * 3 + 1;
                NaiveDate::from_ymd_opt(today.year(), month, 1).unwrap_or(today)
            }
            TrendPeriod::Ytd => NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap_or(today),
            TrendPeriod::All => today - Duration::days(365),
        }
    }

    /// The REST spelling (`WTD`, ...).
    pub fn label(self) -> String {
        self.to_string().to_uppercase()
    }
}

/// Parses `WTD|MTD|QTD|YTD|ALL` (any case; MTD when missing).
pub fn parse_period(text: Option<&str>) -> Option<TrendPeriod> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Some(TrendPeriod::Mtd),
        Some(t) => t.to_lowercase().parse().ok(),
    }
}

fn money(d: &BigDecimal) -> f64 {
    d.with_scale(2).to_f64().unwrap_or_default()
}

fn start_of(d: NaiveDate) -> chrono::DateTime<Utc> {
    d.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc()
}

/// Sums and counts `(day, amount)` rows per day, oldest first.
fn per_day(rows: Vec<(NaiveDate, BigDecimal)>) -> BTreeMap<NaiveDate, (BigDecimal, i64)> {
    let mut out: BTreeMap<NaiveDate, (BigDecimal, i64)> = BTreeMap::new();
    for (d, amount) in rows {
        let e = out.entry(d).or_insert_with(|| (BigDecimal::zero(), 0));
        e.0 += amount;
        e.1 += 1;
    }
    out
}

/// One day of the sales trend.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesTrendDay {
    /// `YYYY-MM-DD`.
    pub date: NaiveDate,
    /// Sales total of the day (as `sales`).
    pub total: f64,
    /// Sales total of the day.
    pub sales: f64,
    /// Orders placed.
    pub orders: i64,
    /// Payments received.
    pub payments: f64,
    /// How many payments.
    pub payment_count: i64,
}

/// The sales trend of a period.
#[derive(Debug, Clone, SimpleObject)]
pub struct SalesTrend {
    /// `WTD`, `MTD`, `QTD`, `YTD` or `ALL`.
    pub period: String,
    /// First day.
    pub start_date: NaiveDate,
    /// Today.
    pub end_date: NaiveDate,
    /// Sales in the period (orders not cancelled or draft, by grand total).
    pub total_revenue: f64,
    /// Their count.
    pub total_orders: i64,
    /// Completed payments in the period.
    pub total_payments: f64,
    /// Their count.
    pub total_payment_count: i64,
    /// Per day with activity, oldest first.
    pub data: Vec<SalesTrendDay>,
}

/// The sales trend: two statements (the orders and the payments of the window).
pub async fn sales_trend(
    conn: &mut AsyncPgConnection,
    period: TrendPeriod,
) -> AppResult<SalesTrend> {
    let today = Utc::now().date_naive();
    let from = period.start(today);
    // One statement per series: the day and amount of each row in the window, summed here.
    let orders = per_day(
        sales_orders::table
            .filter(sales_orders::created_at.ge(start_of(from)))
            .filter(
                sales_orders::status.ne_all([SalesOrderStatus::Cancelled, SalesOrderStatus::Draft]),
            )
            .select((day_of(sales_orders::created_at), sales_orders::grand_total))
            .load(conn)
            .await?,
    );
    let paid = per_day(
        payments::table
            .filter(payments::payment_date.ge(start_of(from)))
            .filter(payments::status.eq(PaymentRecordStatus::Completed))
            .filter(payments::payment_type.eq(PaymentType::Payment))
            .select((day_of(payments::payment_date), payments::amount))
            .load(conn)
            .await?,
    );
    let mut days: BTreeMap<NaiveDate, SalesTrendDay> = BTreeMap::new();
    let blank = |date| SalesTrendDay {
        date,
        total: 0.0,
        sales: 0.0,
        orders: 0,
        payments: 0.0,
        payment_count: 0,
    };
    let (mut revenue, mut count, mut received, mut receipts) =
        (BigDecimal::zero(), 0, BigDecimal::zero(), 0);
    for (d, (sum, n)) in orders {
        let day = days.entry(d).or_insert_with(|| blank(d));
        day.sales = money(&sum);
        day.total = day.sales;
        day.orders = n;
        revenue += sum;
        count += n;
    }
    for (d, (sum, n)) in paid {
        let day = days.entry(d).or_insert_with(|| blank(d));
        day.payments = money(&sum);
        day.payment_count = n;
        received += sum;
        receipts += n;
    }
    Ok(SalesTrend {
        period: period.label(),
        start_date: from,
        end_date: today,
        total_revenue: money(&revenue),
        total_orders: count,
        total_payments: money(&received),
        total_payment_count: receipts,
        data: days.into_values().collect(),
    })
}

/// One day of the shipping trend.
#[derive(Debug, Clone, SimpleObject)]
pub struct ShippingTrendDay {
    /// `YYYY-MM-DD`.
    pub date: NaiveDate,
    /// Shipments.
    pub shipped: i64,
}

/// The shipping trend of a period.
#[derive(Debug, Clone, SimpleObject)]
pub struct ShippingTrend {
    /// The period.
    pub period: String,
    /// First day.
    pub start_date: NaiveDate,
    /// Today.
    pub end_date: NaiveDate,
    /// Shipments in the period.
    pub total_shipped: i64,
    /// Per day with shipments.
    pub data: Vec<ShippingTrendDay>,
}

/// Shipments per day (one statement).
pub async fn shipping_trend(
    conn: &mut AsyncPgConnection,
    period: TrendPeriod,
) -> AppResult<ShippingTrend> {
    let today = Utc::now().date_naive();
    let from = period.start(today);
    let rows: Vec<(NaiveDate, i64)> = per_day(
        shipments::table
            .filter(shipments::shipped_at.ge(start_of(from)))
            .select((day_of(shipments::shipped_at), shipments::cost_of_goods))
            .load(conn)
            .await?,
    )
    .into_iter()
    .map(|(d, (_, n))| (d, n))
    .collect();
    Ok(ShippingTrend {
        period: period.label(),
        start_date: from,
        end_date: today,
        total_shipped: rows.iter().map(|r| r.1).sum(),
        data: rows
            .into_iter()
            .map(|(date, shipped)| ShippingTrendDay { date, shipped })
            .collect(),
    })
}

/// Profit of what shipped in a period.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProfitSummary {
    /// The period.
    pub period: String,
    /// First day.
    pub start_date: NaiveDate,
    /// Today.
    pub end_date: NaiveDate,
    /// Sales (subtotals) of the orders shipped.
    pub revenue: f64,
    /// Cost of the goods and packaging shipped.
    pub cost_of_goods: f64,
    /// revenue - cost.
    pub gross_profit: f64,
    /// gross profit / revenue x 100 (0 without revenue).
    pub gross_margin_percent: f64,
    /// Shipments.
    pub shipments: i64,
}

/// Revenue and cost of what shipped in the period (one aggregate query).
pub async fn profit_summary(
    conn: &mut AsyncPgConnection,
    period: TrendPeriod,
) -> AppResult<ProfitSummary> {
    let today = Utc::now().date_naive();
    let from = period.start(today);
    let (revenue, goods, packaging, n): (
        Option<BigDecimal>,
        Option<BigDecimal>,
        Option<BigDecimal>,
        i64,
    ) = shipments::table
        .inner_join(sales_orders::table)
        .filter(shipments::shipped_at.ge(start_of(from)))
        .select((
            diesel::dsl::sum(sales_orders::subtotal),
            diesel::dsl::sum(shipments::cost_of_goods),
            diesel::dsl::sum(shipments::packaging_cost),
            diesel::dsl::count(shipments::id),
        ))
        .first(conn)
        .await?;
    let revenue = revenue.unwrap_or_default();
    let cost = goods.unwrap_or_default() + packaging.unwrap_or_default();
    let profit = &revenue - &cost;
    let margin = if revenue > BigDecimal::zero() {
        (&profit * BigDecimal::from(100) / &revenue).with_scale(1)
    } else {
        BigDecimal::zero()
    };
    Ok(ProfitSummary {
        period: period.label(),
        start_date: from,
        end_date: today,
        revenue: money(&revenue),
        cost_of_goods: money(&cost),
        gross_profit: money(&profit),
        gross_margin_percent: margin.to_f64().unwrap_or_default(),
        shipments: n,
    })
}

/// Counts for the dashboard's cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct Counts {
    /// Pending quotes.
    pub pending_quotes: i64,
    /// Quotes written today.
    pub quotes_today: i64,
    /// Quotes written this week.
    pub quotes_this_week: i64,
    /// Pending orders.
    pub pending_orders: i64,
    /// Confirmed orders.
    pub confirmed_orders: i64,
    /// Orders in production.
    pub orders_in_production: i64,
    /// Orders ready to ship.
    pub orders_ready_to_ship: i64,
    /// Open orders past their due date.
    pub overdue_orders: i64,
    /// Production orders in progress.
    pub production_in_progress: i64,
    /// Production orders released (scheduled).
    pub production_scheduled: i64,
    /// Production orders in draft (ready to release).
    pub production_ready_to_start: i64,
    /// Production orders completed today.
    pub production_complete_today: i64,
    /// Active BOMs.
    pub active_boms: i64,
    /// Active BOMs needing review (see [`crate::operations::bom::model::needing_review`]).
    pub boms_needing_review: i64,
    /// Sales in the last 30 days (orders not cancelled or draft).
    pub revenue_30_days: f64,
    /// Their count.
    pub orders_30_days: i64,
}

/// The counts, from five grouped queries.
pub async fn counts(conn: &mut AsyncPgConnection) -> AppResult<Counts> {
    let today = Utc::now().date_naive();
    let week = TrendPeriod::Wtd.start(today);
    let orders: Vec<(SalesOrderStatus, i64)> = sales_orders::table
        .group_by(sales_orders::status)
        .select((sales_orders::status, diesel::dsl::count(sales_orders::id)))
        .load(conn)
        .await?;
    let of = |s: SalesOrderStatus| orders.iter().find(|o| o.0 == s).map_or(0, |o| o.1);
    let overdue: i64 = sales_orders::table
        .filter(sales_orders::due_date.lt(today))
        .filter(sales_orders::status.eq_any([
            SalesOrderStatus::Pending,
            SalesOrderStatus::Confirmed,
            SalesOrderStatus::InProduction,
            SalesOrderStatus::ReadyToShip,
            SalesOrderStatus::OnHold,
        ]))
        .count()
        .get_result(conn)
        .await?;
    let (revenue, n30): (Option<BigDecimal>, i64) = sales_orders::table
        .filter(sales_orders::created_at.ge(start_of(today - Duration::days(30))))
        .filter(sales_orders::status.ne_all([SalesOrderStatus::Cancelled, SalesOrderStatus::Draft]))
        .select((
            diesel::dsl::sum(sales_orders::grand_total),
            diesel::dsl::count(sales_orders::id),
        ))
        .first(conn)
        .await?;
    let q: Vec<(QuoteStatus, chrono::DateTime<Utc>)> = quotes::table
        .filter(
            quotes::status
                .eq(QuoteStatus::Pending)
                .or(quotes::created_at.ge(start_of(week))),
        )
        .select((quotes::status, quotes::created_at))
        .load(conn)
        .await?;
    let production: Vec<(OrderStatus, i64)> = production_orders::table
        .group_by(production_orders::status)
        .select((
            production_orders::status,
            diesel::dsl::count(production_orders::id),
        ))
        .load(conn)
        .await?;
    let wo = |s: OrderStatus| production.iter().find(|o| o.0 == s).map_or(0, |o| o.1);
    let production_complete_today: i64 = production_orders::table
        .filter(production_orders::status.eq(OrderStatus::Complete))
        .filter(production_orders::completed_at.ge(start_of(today)))
        .count()
        .get_result(conn)
        .await?;
    let active_boms: i64 = boms::table
        .filter(boms::active.eq(true))
        .count()
        .get_result(conn)
        .await?;
    let boms_needing_review = crate::operations::bom::model::needing_review(conn, 1)
        .await?
        .into_iter()
        .next()
        .map_or(0, |r| r.total);
    Ok(Counts {
        pending_quotes: q.iter().filter(|r| r.0 == QuoteStatus::Pending).count() as i64,
        quotes_today: q.iter().filter(|r| r.1 >= start_of(today)).count() as i64,
        quotes_this_week: q.iter().filter(|r| r.1 >= start_of(week)).count() as i64,
        pending_orders: of(SalesOrderStatus::Pending),
        confirmed_orders: of(SalesOrderStatus::Confirmed),
        orders_in_production: of(SalesOrderStatus::InProduction),
        orders_ready_to_ship: of(SalesOrderStatus::ReadyToShip),
        overdue_orders: overdue,
        production_in_progress: wo(OrderStatus::InProgress),
        production_scheduled: wo(OrderStatus::Released),
        production_ready_to_start: wo(OrderStatus::Draft),
        production_complete_today,
        active_boms,
        boms_needing_review,
        revenue_30_days: money(&revenue.unwrap_or_default()),
        orders_30_days: n30,
    })
}

/// The latest orders, newest first.
pub async fn recent_orders(
    conn: &mut AsyncPgConnection,
    limit: i64,
) -> AppResult<Vec<SalesOrderRow>> {
    Ok(sales_orders::table
        .order((sales_orders::created_at.desc(), sales_orders::id.desc()))
        .limit(limit)
        .select(SalesOrderRow::as_select())
        .load(conn)
        .await?)
}

/// Quote cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardQuotes {
    /// Pending.
    pub pending: i64,
    /// Written this week.
    pub this_week: i64,
}

/// Order cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardOrders {
    /// Confirmed.
    pub confirmed: i64,
    /// In production.
    pub in_production: i64,
    /// Ready to ship.
    pub ready_to_ship: i64,
    /// Open and past due.
    pub overdue: i64,
}

/// Production cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardProduction {
    /// In progress.
    pub in_progress: i64,
    /// Released.
    pub scheduled: i64,
    /// Draft.
    pub ready_to_start: i64,
    /// Completed today.
    pub complete_today: i64,
}

/// BOM cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardBoms {
    /// Active BOMs needing review (no lines, a discontinued component or no cost).
    pub needs_review: i64,
    /// Active BOMs.
    pub active: i64,
}

/// Inventory cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardInventory {
    /// Items at or below their reorder point.
    pub low_stock_count: i64,
    /// Orders still to ship.
    pub active_orders: i64,
}

/// Revenue cards.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardRevenue {
    /// Sales in the last 30 days.
    pub last_30_days: f64,
    /// Their count.
    pub orders_last_30_days: i64,
}

/// The SPA dashboard's summary (CONTRACT 5.1 `/admin/dashboard/summary`).
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardSummary {
    /// Quotes.
    pub quotes: DashboardQuotes,
    /// Orders.
    pub orders: DashboardOrders,
    /// Production.
    pub production: DashboardProduction,
    /// BOMs.
    pub boms: DashboardBoms,
    /// Inventory.
    pub inventory: DashboardInventory,
    /// Revenue.
    pub revenue: DashboardRevenue,
}

/// Items to reorder: what the purchasing suggestions list.
async fn low_stock_count(conn: &mut AsyncPgConnection) -> AppResult<i64> {
    match crate::operations::purchasing::replenish::suggestions(conn).await {
        Ok(s) => Ok(s.len() as i64),
        Err(crate::platform::graphql::user_error::Stop::Failed(e)) => Err(e),
        Err(crate::platform::graphql::user_error::Stop::Refused(_)) => Ok(0),
    }
}

/// The summary, from the counts and the low-stock list.
pub async fn summary(conn: &mut AsyncPgConnection) -> AppResult<DashboardSummary> {
    let c = counts(conn).await?;
    let low = low_stock_count(conn).await?;
    Ok(DashboardSummary {
        quotes: DashboardQuotes {
            pending: c.pending_quotes,
            this_week: c.quotes_this_week,
        },
        orders: DashboardOrders {
            confirmed: c.confirmed_orders,
            in_production: c.orders_in_production,
            ready_to_ship: c.orders_ready_to_ship,
            overdue: c.overdue_orders,
        },
        production: DashboardProduction {
            in_progress: c.production_in_progress,
            scheduled: c.production_scheduled,
            ready_to_start: c.production_ready_to_start,
            complete_today: c.production_complete_today,
        },
        boms: DashboardBoms {
            needs_review: c.boms_needing_review,
            active: c.active_boms,
        },
        inventory: DashboardInventory {
            low_stock_count: low,
            active_orders: c.pending_orders
                + c.confirmed_orders
                + c.orders_in_production
                + c.orders_ready_to_ship,
        },
        revenue: DashboardRevenue {
            last_30_days: c.revenue_30_days,
            orders_last_30_days: c.orders_30_days,
        },
    })
}

/// `GET /admin/dashboard/`: the counts and the latest orders.
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardOverview {
    /// The counts.
    pub summary: Counts,
    /// The modules with their badges.
    pub modules: Vec<DashboardModule>,
    /// The five latest orders.
    pub recent_orders: Vec<RecentOrder>,
    /// The ten newest BOMs needing review.
    pub pending_bom_reviews: Vec<crate::operations::bom::model::BomReview>,
}

crate::text_enum! {
    /// How a module's badge reads.
    pub enum BadgeType {
        /// Work waiting.
        Info,
        /// Something to fix.
        Warning,
    }
}

/// A module of the back office with what waits in it (CONTRACT 5.1 `modules`).
#[derive(Debug, Clone, SimpleObject)]
pub struct DashboardModule {
    /// Its name.
    pub name: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Where it is in the app.
    pub route: &'static str,
    /// Its icon (a lucide icon name).
    pub icon: &'static str,
    /// How many things wait there (none when nothing is counted).
    pub badge_count: Option<i64>,
    /// How the badge reads (none without a badge).
    pub badge_type: Option<BadgeType>,
}

/// The modules and their badges, from the counts: a badge only when something waits.
pub fn modules(c: &Counts, low_stock: i64) -> Vec<DashboardModule> {
    let m = |name, description, route, icon, count: i64, kind| DashboardModule {
        name,
        description,
        route,
        icon,
        badge_count: (count > 0).then_some(count),
        badge_type: (count > 0).then_some(kind),
    };
    vec![
        m(
            "Quotes",
            "Price requests and their approval",
            "/admin/quotes",
            "FileText",
            c.pending_quotes,
            BadgeType::Info,
        ),
        m(
            "Orders",
            "Sales orders from quote to delivery",
            "/admin/orders",
            "ShoppingCart",
            c.pending_orders,
            BadgeType::Info,
        ),
        m(
            "Production",
            "Production orders and their operations",
            "/admin/production",
            "Factory",
            c.production_ready_to_start + c.production_scheduled,
            BadgeType::Info,
        ),
        m(
            "Shipping",
            "Orders ready to ship and shipments",
            "/admin/shipping",
            "Truck",
            c.orders_ready_to_ship,
            BadgeType::Info,
        ),
        m(
            "Bills of materials",
            "What each product is made of and what it costs",
            "/admin/bom",
            "Layers",
            c.boms_needing_review,
            BadgeType::Warning,
        ),
        m(
            "Items",
            "Products, materials and stock",
            "/admin/items",
            "Package",
            low_stock,
            BadgeType::Warning,
        ),
        m(
            "Purchasing",
            "Purchase orders and vendors",
            "/admin/purchasing",
            "ClipboardList",
            0,
            BadgeType::Info,
        ),
        m(
            "Payments",
            "Payments and refunds",
            "/admin/payments",
            "Banknote",
            c.overdue_orders,
            BadgeType::Warning,
        ),
    ]
}

/// The overview: counts, modules, the five latest orders and the BOMs needing review.
pub async fn overview(conn: &mut AsyncPgConnection) -> AppResult<DashboardOverview> {
    let summary = counts(conn).await?;
    let low = low_stock_count(conn).await?;
    Ok(DashboardOverview {
        modules: modules(&summary, low),
        summary,
        recent_orders: recent_orders(conn, 5)
            .await?
            .into_iter()
            .map(RecentOrder::from)
            .collect(),
        pending_bom_reviews: crate::operations::bom::model::needing_review(conn, 10).await?,
    })
}
