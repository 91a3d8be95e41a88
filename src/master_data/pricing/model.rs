//! Price level rows, their item prices, and the queries on them.

use bigdecimal::BigDecimal;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::pricing::rules::{DESCRIPTION_MAX, NAME_MAX};
use crate::platform::db::schema::{items, price_level_items, price_levels};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;

/// A stored price level.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = price_levels)]
pub struct PriceLevelRow {
    /// Id.
    pub id: i64,
    /// Name ("Wholesale"), unique ignoring case.
    pub name: String,
    /// Percent off the selling price (0-100, two decimals).
    pub discount_percent: BigDecimal,
    /// Description.
    pub description: Option<String>,
    /// Active (deleting a level deactivates it; an inactive level prices nothing).
    pub is_active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = price_levels;
    /// A new price level.
    create PriceLevelCreateInput;
    /// Changes to a price level: omitted fields keep their value; a null description
    /// clears it.
    update PriceLevelUpdateInput;
    /// A price level's writable columns, checked by `rules::save`.
    form PriceLevelForm;
    {
        /// Name (1-100 characters, unique ignoring case).
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Percent off the items' selling prices, 0 to 100 with at most 2 decimals
        /// (default 0: only the level's own item prices apply).
        discount_percent: optional crate::platform::graphql::scalars::Decimal,
        /// Description.
        [directive = length::apply(DESCRIPTION_MAX)]
        description: clearable String,
        /// Active (default true).
        is_active: optional bool,
        /// Changed (set by the server).
        @create[skip] @update[skip]
        updated_at: optional DateTime<Utc>,
    }
}

/// "Price level not found" (FilaOps's words).
pub fn not_found() -> AppError {
    AppError::not_found("Price level not found")
}

/// Every level by name (FilaOps's order), inactive ones too unless asked otherwise.
pub async fn list(
    conn: &mut AsyncPgConnection,
    active_only: bool,
) -> AppResult<Vec<PriceLevelRow>> {
    let mut q = price_levels::table
        .select(PriceLevelRow::as_select())
        .into_boxed();
    if active_only {
        q = q.filter(price_levels::is_active.eq(true));
    }
    Ok(q.order((price_levels::name, price_levels::id))
        .load(conn)
        .await?)
}

/// The level with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<PriceLevelRow>> {
    Ok(price_levels::table
        .find(id)
        .select(PriceLevelRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// A level's own price for an item.
#[derive(Debug, Clone, Queryable)]
pub struct LevelItemPrice {
    /// The item.
    pub item_id: i64,
    /// Its SKU.
    pub sku: String,
    /// Its name.
    pub name: String,
    /// Its selling price.
    pub selling_price: Option<BigDecimal>,
    /// The level's price for it.
    pub unit_price: BigDecimal,
}

/// The item prices of these levels, by level, then SKU.
pub async fn item_prices(
    conn: &mut AsyncPgConnection,
    level_ids: &[i64],
) -> AppResult<Vec<(i64, LevelItemPrice)>> {
    let rows: Vec<(i64, i64, String, String, Option<BigDecimal>, BigDecimal)> =
        price_level_items::table
            .inner_join(items::table.on(items::id.eq(price_level_items::item_id)))
            .filter(price_level_items::price_level_id.eq_any(level_ids))
            .select((
                price_level_items::price_level_id,
                items::id,
                items::sku,
                items::name,
                items::selling_price,
                price_level_items::unit_price,
            ))
            .order((price_level_items::price_level_id, items::sku))
            .load(conn)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(level, item_id, sku, name, selling_price, unit_price)| {
            (
                level,
                LevelItemPrice {
                    item_id,
                    sku,
                    name,
                    selling_price,
                    unit_price,
                },
            )
        })
        .collect())
}
