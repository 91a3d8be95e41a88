//! Catalog overview routes of the original (CONTRACT 5.6): item counts, the category tree, one
//! category, deleting an unused category, items at or below their reorder point, and
//! duplicating an item. On-hand quantities are 0 until the inventory area exists; the
//! low-stock query already compares each reorder point with that on-hand figure.

use async_graphql::{Context, Object, SimpleObject};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::auth::Access;
use crate::catalog::graphql::{Item, ItemCategory};
use crate::catalog::model::{self, CategoryRow};
use crate::db::schema::{item_categories, items};
use crate::error::{AppError, AppResult};
use crate::graphql::context;
use crate::graphql::scalars::Decimal;
use crate::graphql::user_error::{UserError, UserErrorCode};

/// Items per type (the types of CONTRACT 6.6).
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemTypeCounts {
    /// Finished goods.
    pub finished_good: i64,
    /// Components.
    pub component: i64,
    /// Supplies.
    pub supply: i64,
    /// Services.
    pub service: i64,
    /// Materials (filament).
    pub material: i64,
    /// Packaging.
    pub packaging: i64,
}

/// Counts over the catalog.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemStats {
    /// Every item, active or not.
    pub total_items: i64,
    /// Active items.
    pub active_items: i64,
    /// Inactive (deleted) items.
    pub inactive_items: i64,
    /// Active items per type.
    pub by_type: ItemTypeCounts,
    /// Active items at or below their reorder point.
    pub low_stock_count: i64,
    /// Active categories.
    pub category_count: i64,
}

/// A category with its sub-categories.
#[derive(Debug, Clone, SimpleObject)]
pub struct ItemCategoryNode {
    /// Id.
    pub id: i64,
    /// Short code.
    pub code: String,
    /// Name.
    pub name: String,
    /// Parent category.
    pub parent_id: Option<i64>,
    /// Description.
    pub description: Option<String>,
    /// Order among siblings.
    pub sort_order: i32,
    /// Active.
    pub active: bool,
    /// Sub-categories, in order.
    pub children: Vec<ItemCategoryNode>,
}

/// An item at or below its reorder point.
#[derive(Debug, Clone, SimpleObject)]
pub struct LowStockItem {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Type.
    pub item_type: String,
    /// Stocking unit.
    pub unit: String,
    /// The reorder point.
    pub reorder_point: Decimal,
    /// Available over every location.
    pub on_hand_qty: Decimal,
    /// Still to arrive on open purchase orders (draft, ordered, shipped).
    pub on_order_qty: Decimal,
    /// Reorder point minus available minus on order.
    pub shortfall: Decimal,
}

/// The result of deleting a category.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemCategoryDeletePayload {
    /// `Category X deleted`.
    pub message: Option<String>,
    /// Why it was refused (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// The result of duplicating an item.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ItemDuplicatePayload {
    /// The copy.
    pub item: Option<Item>,
    /// Rule violations (nothing was created when present).
    pub user_errors: Vec<UserError>,
}

fn node(all: &[CategoryRow], c: &CategoryRow, depth: usize) -> ItemCategoryNode {
    ItemCategoryNode {
        id: c.id,
        code: c.code.clone(),
        name: c.name.clone(),
        parent_id: c.parent_id,
        description: c.description.clone(),
        sort_order: c.sort_order,
        active: c.active,
        // The parent check forbids cycles; the bound only guards against a corrupt table.
        children: if depth > 64 {
            Vec::new()
        } else {
            all.iter()
                .filter(|k| k.parent_id == Some(c.id))
                .map(|k| node(all, k, depth + 1))
                .collect()
        },
    }
}

/// The nested tree of `all` (already in sibling order); inactive ones only when asked.
pub fn tree(all: &[CategoryRow], include_inactive: bool) -> Vec<ItemCategoryNode> {
    let shown: Vec<CategoryRow> = all
        .iter()
        .filter(|c| include_inactive || c.active)
        .cloned()
        .collect();
    shown
        .iter()
        // A root, or a child whose parent is hidden (inactive): shown at the top.
        .filter(|c| c.parent_id.is_none_or(|p| !shown.iter().any(|x| x.id == p)))
        .map(|c| node(&shown, c, 0))
        .collect()
}

#[derive(QueryableByName)]
struct LowStockRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    sku: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    item_type: String,
    #[diesel(sql_type = Text)]
    unit: String,
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    reorder_point: BigDecimal,
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    on_hand_qty: BigDecimal,
}

/// Active items whose available stock (over every location) is at or below their reorder
/// point.
const LOW_STOCK_SQL: &str = "\
    WITH on_hand AS (SELECT i.id AS item_id, COALESCE(SUM(b.available_quantity), 0) AS qty \
                     FROM items i LEFT JOIN inventory_balances b ON b.item_id = i.id GROUP BY i.id) \
    SELECT i.id, i.sku, i.name, i.item_type, i.unit, i.reorder_point, oh.qty AS on_hand_qty \
    FROM items i JOIN on_hand oh ON oh.item_id = i.id \
    WHERE i.active AND i.reorder_point > 0 AND oh.qty <= i.reorder_point \
    ORDER BY i.sku";

/// Active items below their reorder point: available stock plus what is still to arrive on
/// open purchase orders is at or below the reorder point (so an item already on order is not
/// suggested twice).
pub async fn low_stock(conn: &mut diesel_async::AsyncPgConnection) -> AppResult<Vec<LowStockItem>> {
    let rows: Vec<LowStockRow> = diesel::sql_query(LOW_STOCK_SQL).load(conn).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let on_order = crate::purchasing::rules::on_order(conn, &ids).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let ordered = on_order.get(&r.id).cloned().unwrap_or_default();
            let covered = &r.on_hand_qty + &ordered;
            (covered <= r.reorder_point).then(|| LowStockItem {
                shortfall: Decimal(&r.reorder_point - &covered),
                id: r.id,
                sku: r.sku,
                name: r.name,
                item_type: r.item_type,
                unit: r.unit,
                reorder_point: Decimal(r.reorder_point),
                on_hand_qty: Decimal(r.on_hand_qty),
                on_order_qty: Decimal(ordered),
            })
        })
        .collect())
}

/// Where an item's stock is going and coming from (`GET /items/{id}/demand-summary`), in its
/// stocking unit. Demand counts open orders only (sales orders not shipped, closed, drafted
/// or cancelled; production orders not complete, cancelled, split or scrapped); the
/// unreserved part is what no reservation covers yet.
#[derive(Debug, Clone, QueryableByName, SimpleObject)]
pub struct DemandSummary {
    /// The item.
    #[diesel(sql_type = BigInt)]
    pub item_id: i64,
    /// Its SKU.
    #[diesel(sql_type = Text)]
    pub sku: String,
    /// Its name.
    #[diesel(sql_type = Text)]
    pub name: String,
    /// Its stocking unit.
    #[diesel(sql_type = Text)]
    pub unit: String,
    /// On hand over every location.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub on_hand: Decimal,
    /// Reserved for orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub allocated: Decimal,
    /// On hand minus reserved.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub available: Decimal,
    /// Still to ship on open sales orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub sales_demand: Decimal,
    /// The part of it no reservation covers.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub sales_unreserved: Decimal,
    /// Still to consume as a component of open production orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub production_demand: Decimal,
    /// The part of it no reservation covers.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub production_unreserved: Decimal,
    /// Still to make on open production orders of this item.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub in_production: Decimal,
    /// Still to receive on open purchase orders.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub on_order: Decimal,
    /// Available + in production + on order - unreserved demand.
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub projected: Decimal,
    /// How much more is needed (0 when the projection is not negative).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub shortage: Decimal,
}

/// The demand summary without what is on order (added from purchasing's own conversion).
const DEMAND_SQL: &str = "\
    WITH stock AS (SELECT COALESCE(SUM(on_hand_quantity), 0) AS on_hand, \
                          COALESCE(SUM(allocated_quantity), 0) AS allocated \
                   FROM inventory_balances WHERE item_id = $1), \
    sales AS (SELECT COALESCE(SUM(l.quantity - l.quantity_shipped), 0) AS demand, \
                     COALESCE(SUM(GREATEST(l.quantity - l.quantity_shipped - l.quantity_allocated, 0)), 0) AS unreserved \
              FROM sales_order_lines l JOIN sales_orders o ON o.id = l.sales_order_id \
              WHERE l.product_id = $1 \
                AND o.status IN ('pending', 'pending_confirmation', 'confirmed', 'in_production', 'ready_to_ship', 'on_hold')), \
    made AS (SELECT COALESCE(SUM(GREATEST(m.quantity_required - m.quantity_consumed, 0)), 0) AS demand, \
                    COALESCE(SUM(GREATEST(m.quantity_required - m.quantity_consumed - m.quantity_allocated, 0)), 0) AS unreserved \
             FROM production_order_materials m JOIN production_orders p ON p.id = m.production_order_id \
             WHERE m.component_id = $1 AND p.status IN ('draft', 'released', 'in_progress', 'on_hold')), \
    making AS (SELECT COALESCE(SUM(GREATEST(p.quantity_ordered - p.quantity_completed - p.quantity_scrapped, 0)), 0) AS qty \
               FROM production_orders p \
               WHERE p.product_id = $1 AND p.status IN ('draft', 'released', 'in_progress', 'on_hold')) \
    SELECT i.id AS item_id, i.sku, i.name, i.unit, stock.on_hand, stock.allocated, \
           stock.on_hand - stock.allocated AS available, \
           sales.demand AS sales_demand, sales.unreserved AS sales_unreserved, \
           made.demand AS production_demand, made.unreserved AS production_unreserved, \
           making.qty AS in_production, 0::numeric AS on_order, \
           stock.on_hand - stock.allocated + making.qty - sales.unreserved - made.unreserved AS projected, \
           0::numeric AS shortage \
    FROM items i, stock, sales, made, making WHERE i.id = $1";

/// An item's demand summary; `None` for an unknown item.
pub async fn demand_summary(
    conn: &mut diesel_async::AsyncPgConnection,
    item_id: i64,
) -> AppResult<Option<DemandSummary>> {
    let row: Option<DemandSummary> = diesel::sql_query(DEMAND_SQL)
        .bind::<BigInt, _>(item_id)
        .get_result(conn)
        .await
        .optional()?;
    let Some(mut row) = row else {
        return Ok(None);
    };
    let on_order = crate::purchasing::rules::on_order(conn, &[item_id])
        .await?
        .remove(&item_id)
        .unwrap_or_default();
    let projected = &row.projected.0 + &on_order;
    row.shortage = Decimal(if projected.sign() == bigdecimal::num_bigint::Sign::Minus {
        -projected.clone()
    } else {
        BigDecimal::default()
    });
    row.projected = Decimal(projected);
    row.on_order = Decimal(on_order);
    Ok(Some(row))
}

/// Catalog overview queries.
#[derive(Default)]
pub struct CatalogStatsQuery;

#[Object]
impl CatalogStatsQuery {
    /// Where an item's stock is going and coming from: on hand, reserved, open sales and
    /// production demand, what is being made and what is on order, the projection and the
    /// shortage (404 `Item not found`).
    #[graphql(guard = "Access::User")]
    async fn item_demand_summary(&self, ctx: &Context<'_>, id: i64) -> AppResult<DemandSummary> {
        demand_summary(&mut *context::conn(ctx).await?, id)
            .await?
            .ok_or_else(|| AppError::not_found("Item not found"))
    }

    /// Counts over the catalog (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn item_stats(&self, ctx: &Context<'_>) -> AppResult<ItemStats> {
        let mut conn = context::conn(ctx).await?;
        let per_type: Vec<(String, bool, i64)> = items::table
            .group_by((items::item_type, items::active))
            .select((items::item_type, items::active, diesel::dsl::count_star()))
            .load(&mut *conn)
            .await?;
        let mut stats = ItemStats::default();
        for (item_type, active, n) in per_type {
            stats.total_items += n;
            if !active {
                stats.inactive_items += n;
                continue;
            }
            stats.active_items += n;
            let t = &mut stats.by_type;
            match item_type.as_str() {
                "finished_good" => t.finished_good += n,
                "component" => t.component += n,
                "supply" => t.supply += n,
                "service" => t.service += n,
                "material" => t.material += n,
                "packaging" => t.packaging += n,
                _ => {}
            }
        }
        stats.low_stock_count = low_stock(&mut conn).await?.len() as i64;
        stats.category_count = item_categories::table
            .filter(item_categories::active.eq(true))
            .count()
            .get_result(&mut *conn)
            .await?;
        Ok(stats)
    }

    /// The category tree, nested (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn item_category_tree(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include inactive categories.", default = false)] include_inactive: bool,
    ) -> AppResult<Vec<ItemCategoryNode>> {
        let all = model::categories(&mut *context::conn(ctx).await?).await?;
        Ok(tree(&all, include_inactive))
    }

    /// One item category with its path (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn item_category(&self, ctx: &Context<'_>, id: i64) -> AppResult<ItemCategory> {
        let all = model::categories(&mut *context::conn(ctx).await?).await?;
        let c = all
            .iter()
            .find(|c| c.id == id)
            .ok_or_else(|| AppError::not_found("Category not found"))?;
        let path = model::path(&all, c.id);
        Ok(ItemCategory {
            id: c.id,
            code: c.code.clone(),
            name: c.name.clone(),
            parent_id: c.parent_id,
            description: c.description.clone(),
            sort_order: c.sort_order,
            active: c.active,
            depth: path.matches(" > ").count() as i32,
            path,
        })
    }

    /// Active items at or below their reorder point (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn low_stock_items(&self, ctx: &Context<'_>) -> AppResult<Vec<LowStockItem>> {
        low_stock(&mut *context::conn(ctx).await?).await
    }
}

/// Catalog overview mutations.
#[derive(Default)]
pub struct CatalogStatsMutation;

#[Object]
impl CatalogStatsMutation {
    /// Deletes an item category (admins); refused while items or sub-categories use it.
    #[graphql(guard = "Access::Admin")]
    async fn item_category_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<ItemCategoryDeletePayload> {
        let mut conn = context::conn(ctx).await?;
        conn.transaction::<_, AppError, _>(async move |conn| {
            let category: CategoryRow = item_categories::table
                .find(id)
                .select(CategoryRow::as_select())
                .for_update()
                .first(conn)
                .await
                .optional()?
                .ok_or_else(|| AppError::not_found("Category not found"))?;
            let used_by: i64 = items::table
                .filter(items::category_id.eq(id))
                .count()
                .get_result(conn)
                .await?;
            let children: i64 = item_categories::table
                .filter(item_categories::parent_id.eq(id))
                .count()
                .get_result(conn)
                .await?;
            let mut reasons = Vec::new();
            if used_by > 0 {
                reasons.push(format!("{used_by} item(s) use it"));
            }
            if children > 0 {
                reasons.push(format!("it has {children} sub-categor(ies)"));
            }
            if !reasons.is_empty() {
                return Ok(ItemCategoryDeletePayload {
                    message: None,
                    user_errors: vec![UserError::general(
                        UserErrorCode::NotAllowed,
                        format!(
                            "Cannot delete category {}: {}",
                            category.code,
                            reasons.join(" and ")
                        ),
                    )],
                });
            }
            diesel::delete(item_categories::table.find(id))
                .execute(conn)
                .await?;
            Ok(ItemCategoryDeletePayload {
                message: Some(format!("Category {} deleted", category.code)),
                user_errors: vec![],
            })
        })
        .await
    }

    /// Copies an item under a new SKU (given, or generated from its type like a new item's)
    /// and name (given, or the original's with ` (Copy)`). Stock and files are not copied.
    #[graphql(guard = "Access::User")]
    async fn item_duplicate(
        &self,
        ctx: &Context<'_>,
        id: i64,
        #[graphql(desc = "The copy's SKU (blank: generated).")] new_sku: Option<String>,
        #[graphql(desc = "The copy's name (blank: the original's with ` (Copy)`).")]
        new_name: Option<String>,
    ) -> AppResult<ItemDuplicatePayload> {
        let mut conn = context::conn(ctx).await?;
        conn.transaction::<_, AppError, _>(async move |conn| {
            let original = model::find(conn, id)
                .await?
                .ok_or_else(|| AppError::not_found("Item not found"))?;
            let mut errors = Vec::new();
            let sku = match new_sku.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                Some(s) => s.to_uppercase(),
                None => {
                    let prefix = crate::catalog::items::sku_prefix(original.item_type);
                    model::next_sku(conn, prefix).await?
                }
            };
            if sku.chars().count() > crate::catalog::rules::SKU_MAX {
                errors.push(UserError::new(
                    "newSku",
                    UserErrorCode::Invalid,
                    format!(
                        "String should have at most {} characters",
                        crate::catalog::rules::SKU_MAX
                    ),
                ));
            } else if model::find_by_sku(conn, &sku).await?.is_some() {
                errors.push(UserError::new(
                    "newSku",
                    UserErrorCode::Taken,
                    format!("SKU '{sku}' already exists"),
                ));
            }
            let name = new_name
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .unwrap_or_else(|| format!("{} (Copy)", original.name));
            if name.chars().count() > crate::catalog::rules::NAME_MAX {
                errors.push(UserError::new(
                    "newName",
                    UserErrorCode::Invalid,
                    format!(
                        "String should have at most {} characters",
                        crate::catalog::rules::NAME_MAX
                    ),
                ));
            }
            if !errors.is_empty() {
                return Ok(ItemDuplicatePayload {
                    item: None,
                    user_errors: errors,
                });
            }
            #[derive(QueryableByName)]
            struct NewId {
                #[diesel(sql_type = BigInt)]
                id: i64,
            }
            // Copied by the database in one statement; costs history, UPC and legacy SKU
            // belong to the original only.
            let copy: NewId = diesel::sql_query(
                "INSERT INTO items (sku, name, description, category_id, item_type, \
                 procurement_type, unit, purchase_uom, purchase_factor, cost_method, \
                 standard_cost, average_cost, last_cost, selling_price, weight_oz, length_in, \
                 width_in, height_in, lead_time_days, min_order_qty, reorder_point, reorder_qty, \
                 stocking_policy, upc, legacy_sku, image_url, is_raw_material, track_lots, \
                 track_serials, active) \
                 SELECT $1, $2, description, category_id, item_type, procurement_type, unit, \
                 purchase_uom, purchase_factor, cost_method, standard_cost, NULL, NULL, \
                 selling_price, weight_oz, length_in, width_in, height_in, lead_time_days, \
                 min_order_qty, reorder_point, reorder_qty, stocking_policy, NULL, NULL, \
                 image_url, is_raw_material, track_lots, track_serials, true \
                 FROM items WHERE id = $3 RETURNING id",
            )
            .bind::<Text, _>(&sku)
            .bind::<Text, _>(&name)
            .bind::<BigInt, _>(id)
            .get_result(conn)
            .await?;
            let row = model::find(conn, copy.id)
                .await?
                .ok_or_else(|| AppError::internal("the copied item vanished"))?;
            Ok(ItemDuplicatePayload {
                item: Some(Item::from(row)),
                user_errors: vec![],
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn cat(id: i64, parent: Option<i64>, active: bool) -> CategoryRow {
        CategoryRow {
            id,
            code: format!("C{id}"),
            name: format!("Category {id}"),
            parent_id: parent,
            description: None,
            sort_order: 0,
            active,
            created_at: Utc::now(),
            updated_at: Utc::now(),
        }
    }

    #[test]
    fn the_tree_nests_children_under_parents() {
        let all = [
            cat(1, None, true),
            cat(2, Some(1), true),
            cat(3, Some(2), true),
            cat(4, None, false),
        ];
        let t = tree(&all, false);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].children[0].children[0].id, 3);
        assert_eq!(tree(&all, true).len(), 2);
    }
}
