//! Spools in the schema (admins only, spec 4.5): the rolls of each material, their weight,
//! corrections and consumption. The object is the row ([`SpoolRow`]); this file adds its
//! computed fields (names through the inventory loaders, usage through
//! [`crate::ledgers::spools::loaders`]) and the resolvers.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};

use crate::ledgers::inventory::loaders::{ItemFactsOf, LocationNames};
use crate::ledgers::spools::loaders::SpoolUsage;
use crate::ledgers::spools::model::{self, SpoolFilter, SpoolRow, SpoolStatus, SpoolUsageRow};
use crate::ledgers::spools::rules::{
    self, SpoolConsumeInput, SpoolCreateInput, SpoolPosting, SpoolUpdateInput,
};
use crate::platform::auth::Access;
use crate::platform::error::AppResult;
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;

/// The largest page of spools (CONTRACT 5.10: `limit` up to 500).
pub const MAX_SPOOL_PAGE: i64 = 500;

#[ComplexObject]
impl SpoolRow {
    /// The material item's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.sku))
    }

    /// The material item's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.product_id)
            .await?
            .map(|f| f.name))
    }

    /// The storage location's name.
    async fn location_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        match self.location_id {
            Some(id) => Ok(data::<LocationNames>(ctx)?
                .load_one(id)
                .await?
                .map(|(_, name)| name)),
            None => Ok(None),
        }
    }

    /// The initial weight in grams as a JSON number (FilaOps's `initial_weight_kg`, which
    /// carries grams as a number).
    async fn initial_weight_number(&self) -> f64 {
        bigdecimal::ToPrimitive::to_f64(&self.initial_weight_grams.0).unwrap_or(0.0)
    }

    /// The weight left in grams as a JSON number (FilaOps's `current_weight_kg`).
    async fn current_weight_number(&self) -> f64 {
        bigdecimal::ToPrimitive::to_f64(&self.current_weight_grams.0).unwrap_or(0.0)
    }

    /// Filament taken from it so far (initial less current weight), in grams.
    async fn consumed_grams(&self) -> Decimal {
        Decimal(&self.initial_weight_grams.0 - &self.current_weight_grams.0)
    }

    /// Filament left as a percentage of the initial weight.
    async fn weight_remaining_percent(&self) -> Decimal {
        Decimal(rules::remaining_percent(
            &self.initial_weight_grams.0,
            &self.current_weight_grams.0,
        ))
    }

    /// Active with less than 10 % of the initial weight left.
    async fn is_low(&self) -> bool {
        rules::is_low(
            self.status,
            &self.initial_weight_grams.0,
            &self.current_weight_grams.0,
        )
    }

    /// Less than 0.05 g left, or marked empty.
    async fn is_empty(&self) -> bool {
        rules::is_empty(self.status, &self.current_weight_grams.0)
    }

    /// What was taken from this spool, oldest first.
    async fn usage_history(&self, ctx: &Context<'_>) -> AppResult<Vec<SpoolUsageRow>> {
        Ok(data::<SpoolUsage>(ctx)?
            .load_one(self.id)
            .await?
            .unwrap_or_default())
    }
}

crate::connection!(
    /// A page of spools.
    SpoolConnection,
    SpoolRow
);

/// Spool queries (admins).
#[derive(Default)]
pub struct SpoolsQuery;

#[Object]
impl SpoolsQuery {
    /// Spools, newest first, with filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn spools(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only spools of this material item.")] product_id: Option<i64>,
        #[graphql(desc = "Only this status.")] status: Option<SpoolStatus>,
        #[graphql(desc = "Only spools at this location.")] location_id: Option<i64>,
        #[graphql(
            desc = "Only active spools with less than 10 % of their weight left.",
            default = false
        )]
        low_weight: bool,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
    ) -> AppResult<SpoolConnection> {
        let page = Page::with_max(Some(first), Some(offset), MAX_SPOOL_PAGE)?;
        let filter = SpoolFilter {
            product_id,
            status,
            location_id,
            low_weight,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(SpoolConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One spool by id.
    #[graphql(guard = "Access::User")]
    async fn spool(&self, ctx: &Context<'_>, id: i64) -> AppResult<SpoolRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// The spools of a material item that can still be used (active, filament left), in
    /// the order to use them: oldest expiry first, then oldest received.
    #[graphql(guard = "Access::User")]
    async fn spools_available_for_product(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The material item.")] product_id: i64,
    ) -> AppResult<Vec<SpoolRow>> {
        model::available_for(&mut *context::conn(ctx).await?, product_id).await
    }
}

/// The result of creating a spool.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SpoolCreatePayload {
    /// The new spool.
    pub spool: Option<SpoolRow>,
    /// What happened, for people.
    pub message: Option<String>,
    /// Rule violations (nothing was created when present).
    pub user_errors: Vec<UserError>,
}

/// The result of a spool change or consumption.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct SpoolPostingPayload {
    /// What the change did.
    pub result: Option<SpoolPosting>,
    /// Rule violations (nothing was changed or posted when present).
    pub user_errors: Vec<UserError>,
}

crate::payload_from_result!(SpoolPostingPayload {
    result: SpoolPosting
});

/// Spool mutations (admins).
#[derive(Default)]
pub struct SpoolsMutation;

#[Object]
impl SpoolsMutation {
    /// Registers a spool of a material item (stock the ledger already holds; nothing is
    /// posted).
    #[graphql(guard = "Access::Admin")]
    async fn spool_create(
        &self,
        ctx: &Context<'_>,
        input: SpoolCreateInput,
    ) -> AppResult<SpoolCreatePayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::create(conn, input, user)) {
                Ok(spool) => SpoolCreatePayload {
                    spool: Some(spool),
                    message: Some("Spool created successfully".into()),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => SpoolCreatePayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Changes a spool's weight, status, location or notes. A weight change needs a
    /// reason and posts the difference as a `spool_adjustment` with its journal entry, in
    /// one database transaction.
    #[graphql(guard = "Access::Admin")]
    async fn spool_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: SpoolUpdateInput,
    ) -> AppResult<SpoolPostingPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(crate::in_transaction!(ctx, |conn| rules::update(conn, id, input, user)).into())
    }

    /// Records filament a production order took from a spool: the usage, the spool's new
    /// weight, a `consumption` in the stock ledger and its journal entry (1210 WIP / 1200
    /// Raw materials), in one database transaction. The order must exist and be released or
    /// in progress.
    #[graphql(guard = "Access::User")]
    async fn spool_consume(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: SpoolConsumeInput,
    ) -> AppResult<SpoolPostingPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let check = *crate::platform::graphql::context::data::<rules::ProductionOrderCheck>(ctx)?;
        Ok(crate::in_transaction!(ctx, |conn| rules::consume(
            conn,
            id,
            input,
            user,
            Some(check)
        ))
        .into())
    }
}
