//! Price levels and price suggestions in the schema. Reading levels and candidates is for
//! any signed-in user (the order form shows a customer's level); changing levels is for
//! admins; applying suggested prices changes items, which any signed-in user may do
//! (as `itemUpdate`, and as FilaOps allows).

use async_graphql::{ComplexObject, Context, InputObject, Object, SimpleObject};
use bigdecimal::BigDecimal;

use crate::master_data::catalog::model::ItemType;
use crate::master_data::pricing::model::{
    self, PriceLevelCreateInput, PriceLevelRow, PriceLevelUpdateInput,
};
use crate::master_data::pricing::rules;
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::{Decimal, Timestamp};
use crate::platform::graphql::user_error::{Stop, UserError};

/// A price level: a named tier with a discount off the selling prices and its own prices
/// for some items.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct PriceLevel {
    /// Id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Percent off the items' selling prices.
    pub discount_percent: Decimal,
    /// Description.
    pub description: Option<String>,
    /// Active.
    pub is_active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<PriceLevelRow> for PriceLevel {
    fn from(r: PriceLevelRow) -> Self {
        PriceLevel {
            id: r.id,
            name: r.name,
            discount_percent: Decimal(r.discount_percent.with_scale(2)),
            description: r.description,
            is_active: r.is_active,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

/// A level's own price for an item.
#[derive(Debug, Clone, SimpleObject)]
pub struct PriceLevelItem {
    /// The item.
    pub item_id: i64,
    /// Its SKU.
    pub sku: String,
    /// Its name.
    pub name: String,
    /// Its selling price.
    pub selling_price: Option<Decimal>,
    /// The level's price for it.
    pub unit_price: Decimal,
}

#[ComplexObject]
impl PriceLevel {
    /// The level's own item prices (they beat its discount), by SKU.
    async fn item_prices(&self, ctx: &Context<'_>) -> AppResult<Vec<PriceLevelItem>> {
        let rows = model::item_prices(&mut *context::conn(ctx).await?, &[self.id]).await?;
        Ok(rows
            .into_iter()
            .map(|(_, p)| PriceLevelItem {
                item_id: p.item_id,
                sku: p.sku,
                name: p.name,
                selling_price: p.selling_price.map(Decimal),
                unit_price: Decimal(p.unit_price),
            })
            .collect())
    }
}

/// An item whose selling price can be suggested from its cost.
#[derive(Debug, Clone, SimpleObject)]
pub struct PriceCandidate {
    /// Id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// Name.
    pub name: String,
    /// Type.
    pub item_type: ItemType,
    /// Standard cost.
    pub standard_cost: Decimal,
    /// Current selling price.
    pub current_selling_price: Option<Decimal>,
    /// The price at the margin asked for (or the company's default margin); none without a
    /// margin below 100 %.
    pub suggested_price: Option<Decimal>,
}

/// A suggested price to apply.
#[derive(Debug, Clone, InputObject)]
pub struct SuggestedPriceInput {
    /// The item.
    pub id: i64,
    /// Its new selling price (rounded to the cent).
    pub selling_price: Decimal,
}

/// One item whose price changed.
#[derive(Debug, Clone, SimpleObject)]
pub struct AppliedPrice {
    /// Item id.
    pub id: i64,
    /// SKU.
    pub sku: String,
    /// The price before.
    pub old_price: Option<Decimal>,
    /// The price now.
    pub new_price: Decimal,
}

/// What applying suggested prices did.
#[derive(Debug, Clone, SimpleObject)]
pub struct AppliedPrices {
    /// Items changed.
    pub updated: i64,
    /// Items left as they were (unknown, a material or supply, a negative or an unchanged
    /// price).
    pub skipped: i64,
    /// The items changed.
    pub items: Vec<AppliedPrice>,
}

/// Pricing queries (any signed-in user).
#[derive(Default)]
pub struct PricingQuery;

#[Object]
impl PricingQuery {
    /// Price levels by name (inactive ones too unless `activeOnly`).
    #[graphql(guard = "Access::User")]
    async fn price_levels(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only active levels.", default = false)] active_only: bool,
    ) -> AppResult<Vec<PriceLevel>> {
        let rows = model::list(&mut *context::conn(ctx).await?, active_only).await?;
        Ok(rows.into_iter().map(PriceLevel::from).collect())
    }

    /// One price level.
    #[graphql(guard = "Access::User")]
    async fn price_level(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The level's id.")] id: i64,
    ) -> AppResult<PriceLevel> {
        model::find(&mut *context::conn(ctx).await?, id)
            .await?
            .map(PriceLevel::from)
            .ok_or_else(model::not_found)
    }

    /// Items whose selling price can be suggested from their cost (active, with a standard
    /// cost, not materials or supplies), by SKU, each with the price at the margin given
    /// (else the company's default margin).
    #[graphql(guard = "Access::User")]
    async fn price_candidates(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this type.")] item_type: Option<ItemType>,
        #[graphql(desc = "Only this category and its descendants.")] category_id: Option<i64>,
        #[graphql(desc = "Target margin in percent (0 to under 100).")] margin_percent: Option<
            Decimal,
        >,
    ) -> AppResult<Vec<PriceCandidate>> {
        let mut conn = context::conn(ctx).await?;
        let margin: Option<BigDecimal> = match margin_percent {
            Some(m) => Some(m.0),
            None => {
                crate::master_data::settings::model::get(&mut conn)
                    .await?
                    .default_margin_percent
            }
        };
        let rows = Stop::into_app(rules::candidates(&mut conn, item_type, category_id).await)?;
        Ok(rows
            .into_iter()
            .map(|c| PriceCandidate {
                suggested_price: margin
                    .as_ref()
                    .and_then(|m| rules::suggested(&c.standard_cost, m))
                    .map(Decimal),
                id: c.id,
                sku: c.sku,
                name: c.name,
                item_type: c.item_type,
                standard_cost: Decimal(c.standard_cost),
                current_selling_price: c.selling_price.map(Decimal),
            })
            .collect())
    }
}

/// The result of a price level change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct PriceLevelPayload {
    /// The level after the change.
    pub price_level: Option<PriceLevel>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<PriceLevelRow, Vec<UserError>>> for PriceLevelPayload {
    fn from(saved: Result<PriceLevelRow, Vec<UserError>>) -> Self {
        match saved {
            Ok(row) => PriceLevelPayload {
                price_level: Some(row.into()),
                user_errors: Vec::new(),
            },
            Err(user_errors) => PriceLevelPayload {
                price_level: None,
                user_errors,
            },
        }
    }
}

/// Pricing mutations.
#[derive(Default)]
pub struct PricingMutation;

#[Object]
impl PricingMutation {
    /// Adds a price level (admins).
    #[graphql(guard = "Access::Admin")]
    async fn price_level_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The new level.")] input: PriceLevelCreateInput,
    ) -> AppResult<PriceLevelPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::save(conn, None, input.into())).into())
    }

    /// Changes a price level (admins); orders already priced keep their prices.
    #[graphql(guard = "Access::Admin")]
    async fn price_level_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The level's id.")] id: i64,
        #[graphql(desc = "The changes.")] input: PriceLevelUpdateInput,
    ) -> AppResult<PriceLevelPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::save(conn, Some(id), input.into())).into())
    }

    /// Deactivates a price level (admins): it prices nothing from now on.
    #[graphql(guard = "Access::Admin")]
    async fn price_level_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The level's id.")] id: i64,
    ) -> AppResult<PriceLevelPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::deactivate(conn, id)).into())
    }

    /// Sets a level's own price for an item, or removes it with a null price (admins).
    /// Answers the level.
    #[graphql(guard = "Access::Admin")]
    async fn price_level_set_item_price(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The level's id.")] id: i64,
        #[graphql(desc = "The item.")] item_id: i64,
        #[graphql(desc = "The level's price for it, 0 or more (null: remove it).")]
        unit_price: Option<Decimal>,
    ) -> AppResult<PriceLevelPayload> {
        let price = unit_price.map(|p| p.0);
        Ok(crate::in_transaction!(ctx, |conn| async move {
            rules::set_item_price(conn, id, item_id, price).await?;
            model::find(conn, id)
                .await?
                .ok_or_else(|| Stop::from(model::not_found()))
        })
        .into())
    }

    /// Sets the chosen items' selling prices (a suggestion applied selectively), in one
    /// transaction; items that cannot or need not change are skipped and counted.
    #[graphql(guard = "Access::User")]
    async fn apply_suggested_prices(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The items and their new prices.")] items: Vec<SuggestedPriceInput>,
    ) -> AppResult<AppliedPrices> {
        let chosen: Vec<(i64, BigDecimal)> = items
            .into_iter()
            .map(|i| (i.id, i.selling_price.0))
            .collect();
        let chosen = &chosen;
        let outcome = crate::in_transaction!(ctx, |conn| rules::apply_prices(conn, chosen));
        let (applied, skipped) = Stop::into_app(outcome.map_err(Stop::Refused))?;
        Ok(AppliedPrices {
            updated: i64::try_from(applied.len()).unwrap_or(i64::MAX),
            skipped,
            items: applied
                .into_iter()
                .map(|a| AppliedPrice {
                    id: a.id,
                    sku: a.sku,
                    old_price: a.old_price.map(Decimal),
                    new_price: Decimal(a.new_price),
                })
                .collect(),
        })
    }
}
