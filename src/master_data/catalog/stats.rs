//! Catalog overview routes of the original (CONTRACT 5.6): the category tree, one category,
//! deleting an unused category, and duplicating an item. The counts and the low-stock list
//! weigh what is on order, so they are purchasing's (`crate::operations::purchasing::item_demand`).

use async_graphql::{Context, Object, SimpleObject};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::master_data::catalog::graphql::{Item, ItemCategory};
use crate::master_data::catalog::model::{self, CategoryRow};
use crate::platform::auth::Access;
use crate::platform::db::schema::{item_categories, items};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::user_error::{UserError, UserErrorCode};

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
    /// Active items filed directly under it.
    pub item_count: i64,
    /// Sub-categories, in order.
    pub children: Vec<ItemCategoryNode>,
}

/// Sets each node's [`ItemCategoryNode::item_count`] from `counts` (category id -> items).
fn fill_item_counts(nodes: &mut [ItemCategoryNode], counts: &std::collections::HashMap<i64, i64>) {
    for n in nodes {
        n.item_count = counts.get(&n.id).copied().unwrap_or(0);
        fill_item_counts(&mut n.children, counts);
    }
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
        item_count: 0,
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

/// Catalog overview queries.
#[derive(Default)]
pub struct CatalogStatsQuery;

#[Object]
impl CatalogStatsQuery {
    /// The category tree, nested (any signed-in user).
    #[graphql(guard = "Access::User")]
    async fn item_category_tree(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include inactive categories.", default = false)] include_inactive: bool,
    ) -> AppResult<Vec<ItemCategoryNode>> {
        let mut conn = context::conn(ctx).await?;
        let all = model::categories(&mut conn).await?;
        let counts: Vec<(Option<i64>, i64)> = items::table
            .filter(items::active.eq(true))
            .filter(items::category_id.is_not_null())
            .group_by(items::category_id)
            .select((items::category_id, diesel::dsl::count_star()))
            .load(&mut *conn)
            .await?;
        let counts = counts
            .into_iter()
            .filter_map(|(c, n)| c.map(|c| (c, n)))
            .collect();
        let mut nodes = tree(&all, include_inactive);
        fill_item_counts(&mut nodes, &counts);
        Ok(nodes)
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
                    let prefix = crate::master_data::catalog::items::sku_prefix(original.item_type);
                    model::next_sku(conn, prefix).await?
                }
            };
            if sku.chars().count() > crate::master_data::catalog::rules::SKU_MAX {
                errors.push(UserError::new(
                    "newSku",
                    UserErrorCode::Invalid,
                    format!(
                        "String should have at most {} characters",
                        crate::master_data::catalog::rules::SKU_MAX
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
            if name.chars().count() > crate::master_data::catalog::rules::NAME_MAX {
                errors.push(UserError::new(
                    "newName",
                    UserErrorCode::Invalid,
                    format!(
                        "String should have at most {} characters",
                        crate::master_data::catalog::rules::NAME_MAX
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
