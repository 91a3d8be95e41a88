//! REST routes of the dashboard (CONTRACT 5.1; staff): declarations only. The production and
//! purchasing trends are declared by their own areas.

use crate::platform::rest::Route;

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/admin/dashboard/", stored_op!("dashboard.graphql", "recent_order", "dashboard_stats", "dashboard_module", "bom_review"), "dashboardOverview")
        .summary("The dashboard: `summary` counts, `modules` with their badges, the five latest orders as `recent_orders` and the BOMs needing review as `pending_bom_reviews`"),
    Route::get("/admin/dashboard/stats", stored_op!("dashboard_stats.graphql", "dashboard_stats"), "dashboardOverview.summary")
        .summary("The dashboard's counts (the `summary` of `GET /admin/dashboard/`)"),
    Route::get("/admin/dashboard/modules", stored_op!("dashboard_modules.graphql", "dashboard_module"), "dashboardOverview.modules")
        .summary("The back office's modules, each with a badge (`badge_count`, `badge_type` info or warning) when something waits in it"),
    Route::get("/admin/dashboard/pending-bom-reviews", stored_op!("pending_bom_reviews.graphql", "bom_review"), "dashboardPendingBomReviews")
        .summary("Active BOMs needing review, newest first (`limit`, default 20, up to 100): no lines, a discontinued component or no cost, named in `reasons`"),
    Route::get("/admin/dashboard/summary", stored_op!("dashboard_summary.graphql"), "dashboardSummary")
        .summary("The SPA's cards: quotes, orders, production, BOMs, inventory and the last 30 days' revenue"),
    Route::get("/admin/dashboard/recent-orders", stored_op!("recent_orders.graphql", "recent_order"), "dashboardRecentOrders")
        .summary("The latest orders, a bare array (`limit`, default 5); `customer_name` is `Unknown` when missing"),
    Route::get("/admin/dashboard/sales-trend/", stored_op!("sales_trend.graphql"), "dashboardSalesTrend")
        .summary("Sales and payments per day for `period` WTD, MTD (default), QTD, YTD or ALL (the last 365 days); 422 for another period"),
    Route::get("/admin/dashboard/shipping-trend", stored_op!("shipping_trend.graphql"), "dashboardShippingTrend")
        .summary("Shipments per day for `period`"),
    Route::get("/admin/dashboard/profit-summary", stored_op!("profit_summary.graphql"), "dashboardProfitSummary")
        .summary("Revenue, cost of goods and gross margin of what shipped in `period`"),
];
