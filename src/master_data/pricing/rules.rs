//! Pricing rules: a level's name is trimmed and unique ignoring case, its discount 0-100
//! with two decimals; a level's own item price is 0 or more. [`price_for`] is the one place
//! an order line's price comes from: the customer's active level's price for the item, else
//! the selling price less the level's discount, else the selling price.

use std::collections::HashMap;

use bigdecimal::{BigDecimal, RoundingMode, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::catalog::model::ItemType;
use crate::master_data::pricing::model::{self, PriceLevelForm, PriceLevelRow};
use crate::platform::db::schema::{customers, items, price_level_items, price_levels};
use crate::platform::db::text;
use crate::platform::error::{AppError, ErrorCode};
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode};

/// Longest name.
pub const NAME_MAX: usize = 100;
/// Longest description.
pub const DESCRIPTION_MAX: usize = 2_000;

fn invalid(field: &str, message: impl Into<String>) -> UserError {
    UserError::new(field, UserErrorCode::Invalid, message)
}

/// Checks and normalises a new (`creating`) or changed level.
fn check_fields(form: &mut PriceLevelForm, creating: bool) -> Vec<UserError> {
    let mut errors = Vec::new();
    text::required(&mut errors, "name", &mut form.name, creating, NAME_MAX);
    text::clearable(
        &mut errors,
        "description",
        &mut form.description,
        DESCRIPTION_MAX,
    );
    if let Some(d) = &form.discount_percent {
        let hundred = BigDecimal::from(100);
        if d.0 < BigDecimal::zero() || d.0 > hundred {
            errors.push(invalid(
                "discountPercent",
                "Input should be between 0 and 100",
            ));
        } else if d.0.normalized().fractional_digit_count() > 2 {
            errors.push(invalid(
                "discountPercent",
                "Input should have at most 2 decimal places",
            ));
        }
    }
    errors
}

fn taken(name: &str) -> Stop {
    Stop::refuse(
        "name",
        UserErrorCode::Taken,
        format!("Price level '{name}' already exists"),
    )
}

/// Saves a new (`id` is `None`) or changed level; nothing is written when a rule fails.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: Option<i64>,
    mut form: PriceLevelForm,
) -> Result<PriceLevelRow, Stop> {
    if let Some(id) = id {
        model::find(conn, id).await?.ok_or_else(model::not_found)?;
        form.updated_at = Some(chrono::Utc::now());
    }
    let errors = check_fields(&mut form, id.is_none());
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(name) = &form.name {
        let mut same = price_levels::table
            .filter(
                diesel::dsl::sql::<diesel::sql_types::Bool>("lower(name) = lower(")
                    .bind::<diesel::sql_types::Text, _>(name.clone())
                    .sql(")"),
            )
            .into_boxed();
        if let Some(id) = id {
            same = same.filter(price_levels::id.ne(id));
        }
        let clashes: i64 = same.count().get_result(conn).await?;
        if clashes > 0 {
            return Err(taken(name));
        }
    }
    let written = match id {
        Some(id) => {
            diesel::update(price_levels::table.find(id))
                .set(&form)
                .returning(PriceLevelRow::as_returning())
                .get_result(conn)
                .await
        }
        None => {
            diesel::insert_into(price_levels::table)
                .values(&form)
                .returning(PriceLevelRow::as_returning())
                .get_result(conn)
                .await
        }
    };
    match written.map_err(AppError::from) {
        Ok(row) => Ok(row),
        // A concurrent save took the name first.
        Err(e) if e.code == ErrorCode::Conflict => {
            Err(taken(form.name.as_deref().unwrap_or_default()))
        }
        Err(e) => Err(e.into()),
    }
}

/// Deactivates a level: it prices nothing from now on; orders it priced keep their prices.
pub async fn deactivate(conn: &mut AsyncPgConnection, id: i64) -> Result<PriceLevelRow, Stop> {
    diesel::update(price_levels::table.find(id))
        .set((
            price_levels::is_active.eq(false),
            price_levels::updated_at.eq(chrono::Utc::now()),
        ))
        .returning(PriceLevelRow::as_returning())
        .get_result(conn)
        .await
        .optional()?
        .ok_or_else(|| model::not_found().into())
}

/// Sets (`Some`) or removes (`None`) a level's own price for an item.
pub async fn set_item_price(
    conn: &mut AsyncPgConnection,
    level: i64,
    item: i64,
    unit_price: Option<BigDecimal>,
) -> Result<(), Stop> {
    model::find(conn, level)
        .await?
        .ok_or_else(model::not_found)?;
    let known: i64 = items::table
        .filter(items::id.eq(item))
        .count()
        .get_result(conn)
        .await?;
    if known == 0 {
        return Err(Stop::refuse(
            "itemId",
            UserErrorCode::NotFound,
            format!("Item {item} not found"),
        ));
    }
    match unit_price {
        Some(price) if price < BigDecimal::zero() => Err(Stop::refuse(
            "unitPrice",
            UserErrorCode::Invalid,
            "Input should be greater than or equal to 0",
        )),
        Some(price) => {
            let price = price.with_scale_round(2, RoundingMode::HalfUp);
            diesel::insert_into(price_level_items::table)
                .values((
                    price_level_items::price_level_id.eq(level),
                    price_level_items::item_id.eq(item),
                    price_level_items::unit_price.eq(&price),
                ))
                .on_conflict((
                    price_level_items::price_level_id,
                    price_level_items::item_id,
                ))
                .do_update()
                .set((
                    price_level_items::unit_price.eq(&price),
                    price_level_items::updated_at.eq(chrono::Utc::now()),
                ))
                .execute(conn)
                .await?;
            Ok(())
        }
        None => {
            diesel::delete(
                price_level_items::table
                    .filter(price_level_items::price_level_id.eq(level))
                    .filter(price_level_items::item_id.eq(item)),
            )
            .execute(conn)
            .await?;
            Ok(())
        }
    }
}

/// A line's price under a customer's level.
#[derive(Debug, Clone)]
pub struct LevelPrice {
    /// The price charged per unit.
    pub unit_price: BigDecimal,
    /// The level that priced it.
    pub level_name: String,
}

/// The selling price less a discount, to the cent.
pub fn discounted(selling_price: &BigDecimal, discount_percent: &BigDecimal) -> BigDecimal {
    let factor = (BigDecimal::from(100) - discount_percent) / BigDecimal::from(100);
    (selling_price * factor).with_scale_round(2, RoundingMode::HalfUp)
}

/// The prices a customer's active price level gives these items (by item id, with their
/// selling prices): the level's own price for an item, else the selling price less the
/// level's discount. Empty when the customer has no active level, or the level changes
/// nothing for an item.
pub async fn price_for(
    conn: &mut AsyncPgConnection,
    customer: Option<i64>,
    selling: &[(i64, BigDecimal)],
) -> Result<HashMap<i64, LevelPrice>, Stop> {
    let Some(customer) = customer else {
        return Ok(HashMap::new());
    };
    let level: Option<PriceLevelRow> = customers::table
        .inner_join(
            price_levels::table.on(price_levels::id.nullable().eq(customers::price_level_id)),
        )
        .filter(customers::id.eq(customer))
        .filter(price_levels::is_active.eq(true))
        .select(PriceLevelRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let Some(level) = level else {
        return Ok(HashMap::new());
    };
    let ids: Vec<i64> = selling.iter().map(|(id, _)| *id).collect();
    let own: HashMap<i64, BigDecimal> = price_level_items::table
        .filter(price_level_items::price_level_id.eq(level.id))
        .filter(price_level_items::item_id.eq_any(&ids))
        .select((price_level_items::item_id, price_level_items::unit_price))
        .load::<(i64, BigDecimal)>(conn)
        .await?
        .into_iter()
        .collect();
    Ok(selling
        .iter()
        .filter_map(|(id, price)| {
            let unit_price = match own.get(id) {
                Some(p) => p.clone(),
                None if level.discount_percent.is_zero() => return None,
                None => discounted(price, &level.discount_percent),
            };
            Some((
                *id,
                LevelPrice {
                    unit_price,
                    level_name: level.name.clone(),
                },
            ))
        })
        .collect())
}

/// An item whose selling price can be suggested from its cost.
#[derive(Debug, Clone, diesel::QueryableByName)]
pub struct Candidate {
    /// Id.
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    pub id: i64,
    /// SKU.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub sku: String,
    /// Name.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub name: String,
    /// Type.
    #[diesel(sql_type = diesel::sql_types::Text)]
    pub item_type: ItemType,
    /// Standard cost (more than 0).
    #[diesel(sql_type = diesel::sql_types::Numeric)]
    pub standard_cost: BigDecimal,
    /// Current selling price.
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Numeric>)]
    pub selling_price: Option<BigDecimal>,
}

/// Active items with a standard cost, materials and supplies left out (they are bought and
/// used, not sold at a margin), of one type and one category with its descendants when
/// asked, by SKU.
pub async fn candidates(
    conn: &mut AsyncPgConnection,
    item_type: Option<ItemType>,
    category: Option<i64>,
) -> Result<Vec<Candidate>, Stop> {
    use diesel::sql_types::{BigInt, Nullable, Text};
    Ok(diesel::sql_query(
        "SELECT id, sku, name, item_type, standard_cost, selling_price FROM items \
         WHERE active AND standard_cost > 0 AND item_type NOT IN ('material', 'supply') \
           AND ($1::text IS NULL OR item_type = $1) \
           AND ($2::bigint IS NULL OR category_id IN ( \
             WITH RECURSIVE tree(id) AS ( \
               SELECT $2::bigint \
               UNION ALL SELECT c.id FROM item_categories c JOIN tree t ON c.parent_id = t.id) \
             SELECT id FROM tree)) \
         ORDER BY sku",
    )
    .bind::<Nullable<Text>, _>(item_type.map(|t| t.to_string()))
    .bind::<Nullable<BigInt>, _>(category)
    .load(conn)
    .await?)
}

/// The selling price that earns `margin_percent` on `cost` (cost / (1 - margin)), to the
/// cent; none at a margin of 100 % or more.
pub fn suggested(cost: &BigDecimal, margin_percent: &BigDecimal) -> Option<BigDecimal> {
    let hundred = BigDecimal::from(100);
    if *margin_percent >= hundred || *margin_percent < BigDecimal::zero() {
        return None;
    }
    let keep = (&hundred - margin_percent) / &hundred;
    Some((cost / keep).with_scale_round(2, RoundingMode::HalfUp))
}

/// One applied price: the item, its old and new selling price.
#[derive(Debug, Clone)]
pub struct AppliedPrice {
    /// Item id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// The price before.
    pub old_price: Option<BigDecimal>,
    /// The price now.
    pub new_price: BigDecimal,
}

/// Sets the chosen items' selling prices (rows locked, one transaction): unknown items,
/// materials and supplies, negative prices and prices that do not change are skipped and
/// counted. Returns what changed and how many were skipped.
pub async fn apply_prices(
    conn: &mut AsyncPgConnection,
    chosen: &[(i64, BigDecimal)],
) -> Result<(Vec<AppliedPrice>, i64), Stop> {
    let ids: Vec<i64> = chosen.iter().map(|(id, _)| *id).collect();
    let current: HashMap<i64, (String, ItemType, Option<BigDecimal>)> = items::table
        .filter(items::id.eq_any(&ids))
        .select((
            items::id,
            items::sku,
            items::item_type,
            items::selling_price,
        ))
        .order(items::id)
        .for_update()
        .load::<(i64, String, ItemType, Option<BigDecimal>)>(conn)
        .await?
        .into_iter()
        .map(|(id, sku, kind, price)| (id, (sku, kind, price)))
        .collect();
    let (mut applied, mut skipped) = (Vec::new(), 0);
    for (id, price) in chosen {
        let price = price.with_scale_round(2, RoundingMode::HalfUp);
        let Some((sku, kind, old)) = current.get(id) else {
            skipped += 1;
            continue;
        };
        let unchanged = old.as_ref().is_some_and(|o| *o == price);
        let not_sold = matches!(kind, ItemType::Material | ItemType::Supply);
        if not_sold || price < BigDecimal::zero() || unchanged {
            skipped += 1;
            continue;
        }
        diesel::update(items::table.find(id))
            .set((
                items::selling_price.eq(&price),
                items::updated_at.eq(chrono::Utc::now()),
            ))
            .execute(conn)
            .await?;
        applied.push(AppliedPrice {
            id: *id,
            sku: sku.clone(),
            old_price: old.clone(),
            new_price: price,
        });
    }
    Ok((applied, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn a_discount_rounds_to_the_cent() {
        let d = |s: &str| BigDecimal::from_str(s).unwrap();
        assert_eq!(discounted(&d("19.99"), &d("15")), d("16.99"));
        assert_eq!(discounted(&d("10.00"), &d("0")), d("10.00"));
        assert_eq!(discounted(&d("10.00"), &d("100")), d("0.00"));
        assert_eq!(discounted(&d("0.05"), &d("50")), d("0.03"));
    }

    #[test]
    fn a_margin_divides_the_cost() {
        let d = |s: &str| BigDecimal::from_str(s).unwrap();
        assert_eq!(suggested(&d("4.00"), &d("60")), Some(d("10.00")));
        assert_eq!(suggested(&d("3.00"), &d("0")), Some(d("3.00")));
        assert_eq!(suggested(&d("3.00"), &d("100")), None);
    }
}
