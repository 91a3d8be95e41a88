//! Catalog rules.
//!
//! - Item categories: required name, codes upper case and unique ignoring case (generated
//!   from the name when blank), no control or text-direction characters in either, and a
//!   tree without cycles. A change runs in one transaction holding the tree lock and the row
//!   lock, and the cycle check is a recursive query in that transaction (the locations
//!   treatment), so two concurrent moves cannot close a cycle that neither saw.
//! - Bulk changes (`POST /items/bulk-update`): a few fields of many items in one statement,
//!   all or nothing.
//!
//! Material items live with the materials (`crate::ledgers::materials::items`), recosting
//! with the BOMs (`crate::operations::bom::costing`): both need areas above the catalog.

use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::master_data::catalog::model::{self, CategoryForm, CategoryRow, ItemForm};
use crate::platform::db::schema::{item_categories, items as items_table};
use crate::platform::db::text::{code_matches, hidden_characters, normalize_code};
use crate::platform::error::{AppError, AppResult, ErrorCode};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

fn fail(field: &str, code: UserErrorCode, message: impl Into<String>) -> Vec<UserError> {
    vec![UserError::new(field, code, message)]
}

fn taken(code: &str) -> Vec<UserError> {
    fail(
        "code",
        UserErrorCode::Taken,
        format!("Category code '{code}' already exists"),
    )
}

/// Checks and normalises a new (`creating`) or changed category's own fields.
pub fn check_fields(values: &mut CategoryForm, creating: bool) -> Result<(), Vec<UserError>> {
    values.name = values.name.take().map(|n| n.trim().to_string());
    match values.name.as_deref() {
        None if creating => return Err(fail("name", UserErrorCode::Invalid, "Field required")),
        Some("") => {
            return Err(fail(
                "name",
                UserErrorCode::Invalid,
                "String should have at least 1 character",
            ));
        }
        _ => {}
    }
    values.code = values
        .code
        .take()
        .map(|c| normalize_code(&c))
        .filter(|c| !c.is_empty())
        .or_else(|| {
            creating.then(|| {
                normalize_code(values.name.as_deref().unwrap_or_default()).replace(' ', "_")
            })
        });
    // The name before the code: a code made from the name is the name's fault.
    let errors: Vec<UserError> = [("name", &values.name), ("code", &values.code)]
        .into_iter()
        .find_map(|(field, text)| hidden_characters(field, text.as_deref()?))
        .into_iter()
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[derive(QueryableByName)]
struct Flag {
    #[diesel(sql_type = Bool)]
    flag: bool,
}

/// True when making `candidate` the parent of `id` would close a cycle (`candidate` is `id`
/// or one of its descendants), walking up from the candidate.
pub async fn would_cycle(conn: &mut AsyncPgConnection, id: i64, candidate: i64) -> AppResult<bool> {
    if id == candidate {
        return Ok(true);
    }
    // UNION (not UNION ALL) stops even on a damaged tree.
    let found: Flag = diesel::sql_query(
        "WITH RECURSIVE up(id, parent_id) AS ( \
             SELECT id, parent_id FROM item_categories WHERE id = $1 \
             UNION \
             SELECT c.id, c.parent_id FROM item_categories c JOIN up ON c.id = up.parent_id \
         ) SELECT EXISTS (SELECT 1 FROM up WHERE id = $2) AS flag",
    )
    .bind::<BigInt, _>(candidate)
    .bind::<BigInt, _>(id)
    .get_result(conn)
    .await?;
    Ok(found.flag)
}

/// Creates (`id` is `None`) or changes a category in one transaction. Rule violations come
/// back as `Err` and nothing is written.
pub async fn save_category(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut values: CategoryForm,
) -> AppResult<Result<CategoryRow, Vec<UserError>>> {
    if let Err(errors) = check_fields(&mut values, id.is_none()) {
        return Ok(Err(errors));
    }
    let code = values.code.clone();
    let result = conn
        .transaction::<_, AppError, _>(async move |conn| {
            diesel::sql_query(
                "SELECT pg_advisory_xact_lock(hashtext('strata.item_categories.tree'))",
            )
            .execute(conn)
            .await?;
            if let Some(id) = id {
                item_categories::table
                    .find(id)
                    .select(item_categories::id)
                    .for_update()
                    .first::<i64>(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| AppError::not_found("Category not found"))?;
            }
            if let Some(code) = &values.code {
                let other: Option<i64> = item_categories::table
                    .filter(code_matches(item_categories::code, code))
                    .select(item_categories::id)
                    .first(conn)
                    .await
                    .optional()?;
                if other.is_some_and(|o| Some(o) != id) {
                    return Ok(Err(taken(code)));
                }
            }
            if let Some(Some(parent)) = values.parent_id {
                let exists: Option<i64> = item_categories::table
                    .find(parent)
                    .select(item_categories::id)
                    .first(conn)
                    .await
                    .optional()?;
                if exists.is_none() {
                    return Ok(Err(fail(
                        "parentId",
                        UserErrorCode::Invalid,
                        format!("Category {parent} does not exist"),
                    )));
                }
                if let Some(me) = id
                    && would_cycle(conn, me, parent).await?
                {
                    return Ok(Err(fail(
                        "parentId",
                        UserErrorCode::NotAllowed,
                        "A category cannot be placed under itself or one of its descendants",
                    )));
                }
            }
            let row = match id {
                Some(id) => model::update_category(conn, id, &values).await?,
                None => model::insert_category(conn, &values).await?,
            };
            Ok(Ok(row))
        })
        .await;
    match result {
        // A concurrent insert of the same code lost the race to the unique index.
        Err(e) if e.code == ErrorCode::Conflict => {
            Ok(Err(taken(code.as_deref().unwrap_or_default())))
        }
        other => other,
    }
}

// -------------------------------------------------------------------------- bulk changes

/// The most items one bulk change may touch.
pub const MAX_BULK_ITEMS: usize = 500;

/// Longest SKU.
pub const SKU_MAX: usize = 50;
/// Longest item name.
pub const NAME_MAX: usize = 255;
/// Longest item description.
pub const DESCRIPTION_MAX: usize = 10_000;
/// Longest UPC.
pub const UPC_MAX: usize = 64;
/// Longest image address.
pub const URL_MAX: usize = 2_048;

/// Applies the same changes to many items in one statement, in the caller's transaction.
/// Nothing is written unless every id exists and every value is valid; answers how many
/// items were changed.
pub async fn bulk_update(
    conn: &mut AsyncPgConnection,
    item_ids: &[i64],
    values: &ItemForm,
) -> Result<usize, Stop> {
    let mut ids = item_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Err(Stop::Refused(vec![invalid(
            "itemIds",
            "No items specified",
        )]));
    }
    if ids.len() > MAX_BULK_ITEMS {
        return Err(Stop::Refused(vec![invalid(
            "itemIds",
            format!("At most {MAX_BULK_ITEMS} items can be changed at once"),
        )]));
    }
    let nothing = values.category_id.is_none()
        && values.active.is_none()
        && values.item_type.is_none()
        && values.procurement_type.is_none()
        && values.stocking_policy.is_none()
        && values.reorder_point.is_none();
    if nothing {
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            "Nothing to change: give category_id, is_active, item_type, procurement_type, stocking_policy or reorder_point",
        )]));
    }
    let mut errors = Vec::new();
    if values
        .reorder_point
        .as_ref()
        .and_then(Option::as_ref)
        .is_some_and(|v| v.0 < BigDecimal::zero())
    {
        errors.push(invalid(
            "reorderPoint",
            "Input should be greater than or equal to 0",
        ));
    }
    if let Some(Some(category)) = values.category_id {
        let exists: Option<i64> = item_categories::table
            .find(category)
            .select(item_categories::id)
            .first(conn)
            .await
            .optional()?;
        if exists.is_none() {
            errors.push(invalid(
                "categoryId",
                format!("Category {category} does not exist"),
            ));
        }
    }
    // The rows are locked in id order, so two bulk changes cannot deadlock.
    let found: Vec<i64> = items_table::table
        .filter(items_table::id.eq_any(&ids))
        .order(items_table::id)
        .select(items_table::id)
        .for_update()
        .load(conn)
        .await?;
    if found.len() != ids.len() {
        let missing: Vec<String> = ids
            .iter()
            .filter(|id| found.binary_search(id).is_err())
            .take(20)
            .map(i64::to_string)
            .collect();
        errors.push(invalid(
            "itemIds",
            format!("Items not found: {}", missing.join(", ")),
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    Ok(
        diesel::update(items_table::table.filter(items_table::id.eq_any(&ids)))
            .set(values)
            .execute(conn)
            .await?,
    )
}
