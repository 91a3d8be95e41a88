//! The dashboard in the schema (staff, i.e. any signed-in user).

use async_graphql::{Context, Object};

use crate::operations::sales::model::RecentOrder;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::read_models::dashboard::model::{
    self, Counts, ProfitSummary, SalesTrend, ShippingTrend, parse_period,
};

/// The `period` parameter; another value is a 422 naming the field (a bad query parameter,
/// as everywhere else; CONTRACT 5.1 gives no status of its own).
fn period(text: Option<String>) -> AppResult<model::TrendPeriod> {
    parse_period(text.as_deref()).ok_or_else(|| {
        AppError::validation(vec![crate::platform::error::FieldError::new(
            "period",
            "Invalid period. Use one of: WTD, MTD, QTD, YTD, ALL",
        )])
    })
}

/// Dashboard queries.
#[derive(Default)]
pub struct DashboardQuery;

#[Object]
impl DashboardQuery {
    /// The accounting dashboard (admins): the books' figures for a window (default the
    /// last 30 days) and FilaOps's month- and year-to-date blocks (revenue and tax of the
    /// orders shipped, payments received and owed, the month's COGS and gross profit, and
    /// production movements not yet journaled).
    #[graphql(guard = "Access::Admin")]
    async fn accounting_overview(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "First day of the window (default: 30 days up to its end).")]
        start_date: Option<chrono::NaiveDate>,
        #[graphql(desc = "Last day of the window (default today).")] end_date: Option<
            chrono::NaiveDate,
        >,
    ) -> AppResult<crate::read_models::dashboard::accounting::AccountingOverview> {
        let window =
            crate::ledgers::accounting::journals::books_dashboard(ctx, start_date, end_date)
                .await?;
        crate::read_models::dashboard::accounting::overview(
            &mut *context::conn(ctx).await?,
            window,
            chrono::Utc::now(),
        )
        .await
    }

    /// Counts of quotes, orders, production and BOMs, and the last 30 days' sales.
    #[graphql(guard = "Access::User")]
    async fn dashboard_counts(&self, ctx: &Context<'_>) -> AppResult<Counts> {
        model::counts(&mut *context::conn(ctx).await?).await
    }

    /// The counts, the modules with their badges, the five latest orders and the BOMs
    /// needing review.
    #[graphql(guard = "Access::User")]
    async fn dashboard_overview(&self, ctx: &Context<'_>) -> AppResult<model::DashboardOverview> {
        model::overview(&mut *context::conn(ctx).await?).await
    }

    /// Active BOMs needing review, newest first (1-100, default 20): no lines, a
    /// discontinued component or no cost.
    #[graphql(guard = "Access::User")]
    async fn dashboard_pending_bom_reviews(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        limit: i64,
    ) -> AppResult<Vec<crate::operations::bom::model::BomReview>> {
        let page = crate::platform::graphql::pagination::Page::with_max(Some(limit), Some(0), 100)?;
        crate::operations::bom::model::needing_review(&mut *context::conn(ctx).await?, page.limit)
            .await
    }

    /// The SPA dashboard's cards: quotes, orders, production, BOMs, inventory, revenue.
    #[graphql(guard = "Access::User")]
    async fn dashboard_summary(&self, ctx: &Context<'_>) -> AppResult<model::DashboardSummary> {
        model::summary(&mut *context::conn(ctx).await?).await
    }

    /// The latest orders (1-50, default 5).
    #[graphql(guard = "Access::User")]
    async fn dashboard_recent_orders(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-50).", default = 5, directive = crate::platform::graphql::limits::range::apply(1, 50))]
        limit: i64,
    ) -> AppResult<Vec<RecentOrder>> {
        let rows =
            model::recent_orders(&mut *context::conn(ctx).await?, limit.clamp(1, 50)).await?;
        Ok(rows.into_iter().map(RecentOrder::from).collect())
    }

    /// Sales and payments per day of a period (WTD, MTD (default), QTD, YTD, ALL).
    #[graphql(guard = "Access::User")]
    async fn dashboard_sales_trend(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "WTD, MTD, QTD, YTD or ALL.")] period: Option<String>,
    ) -> AppResult<SalesTrend> {
        let p = self::period(period)?;
        model::sales_trend(&mut *context::conn(ctx).await?, p).await
    }

    /// Shipments per day of a period.
    #[graphql(guard = "Access::User")]
    async fn dashboard_shipping_trend(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "WTD, MTD, QTD, YTD or ALL.")] period: Option<String>,
    ) -> AppResult<ShippingTrend> {
        let p = self::period(period)?;
        model::shipping_trend(&mut *context::conn(ctx).await?, p).await
    }

    /// Revenue, cost and margin of what shipped in a period.
    #[graphql(guard = "Access::User")]
    async fn dashboard_profit_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "WTD, MTD, QTD, YTD or ALL.")] period: Option<String>,
    ) -> AppResult<ProfitSummary> {
        let p = self::period(period)?;
        model::profit_summary(&mut *context::conn(ctx).await?, p).await
    }
}
