//! Bills of materials in the schema (any signed-in user: CONTRACT 5.7 "STAFF"). The objects
//! are the rows ([`BomRow`], [`BomLineRow`]); this file adds their relations and live costs
//! (all through the loaders of [`crate::operations::bom::loaders`]) and the resolvers.

pub use crate::operations::bom::costing::BomCostingMutation;
use async_graphql::{ComplexObject, Context, InputObject, Object, SimpleObject};
use bigdecimal::{BigDecimal, Signed};

use crate::ledgers::inventory::loaders::ItemStock;
use crate::ledgers::inventory::model::StockTotals;
use crate::master_data::catalog::graphql::Item;
use crate::operations::bom::loaders::{ActiveBoms, BomLines, CostSheet, CostSheets, Items, Parts};
use crate::operations::bom::model::{
    self, BomCreateInput, BomFilter, BomForm, BomLineCreateInput, BomLineForm, BomLineRow,
    BomLineUpdateInput, BomRow, BomSort, BomUpdateInput, ConsumeStage, Part,
};
use crate::operations::bom::rules;
use crate::operations::bom::tree::{Exploded, Tree, item_unit_cost};
use crate::platform::auth::Access;
use crate::platform::db::paging::SortOrder;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::context::data;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;

/// The largest page of BOMs (CONTRACT 5.7: `limit` up to 100).
pub const MAX_BOM_PAGE: i64 = 100;

async fn part(ctx: &Context<'_>, id: i64) -> AppResult<Part> {
    data::<Parts>(ctx)?
        .load_one(id)
        .await?
        .ok_or_else(|| AppError::internal("BOM row without its item"))
}

async fn sheet(ctx: &Context<'_>, bom_id: i64) -> AppResult<CostSheet> {
    Ok(data::<CostSheets>(ctx)?
        .load_one(bom_id)
        .await?
        .unwrap_or_default())
}

async fn stock(ctx: &Context<'_>, item_id: i64) -> AppResult<StockTotals> {
    Ok(data::<ItemStock>(ctx)?
        .load_one(item_id)
        .await?
        .unwrap_or_default())
}

async fn active_bom(ctx: &Context<'_>, product_id: i64) -> AppResult<Option<BomRow>> {
    data::<ActiveBoms>(ctx)?.load_one(product_id).await
}

async fn lines_of(ctx: &Context<'_>, bom_id: i64) -> AppResult<Vec<BomLineRow>> {
    Ok(data::<BomLines>(ctx)?
        .load_one(bom_id)
        .await?
        .unwrap_or_default())
}

/// The quantity a line needs per unit of its product, in the component's unit.
async fn needed_of(ctx: &Context<'_>, line: &BomLineRow) -> AppResult<BigDecimal> {
    Ok(sheet(ctx, line.bom_id)
        .await?
        .lines
        .get(&line.id)
        .map(|c| c.needed.clone())
        .unwrap_or_else(|| line.quantity.0.clone()))
}

/// The active BOM of an item (for the item's `bom` field).
pub async fn bom_of_item(ctx: &Context<'_>, item_id: i64) -> AppResult<Option<BomRow>> {
    active_bom(ctx, item_id).await
}

#[ComplexObject]
impl BomRow {
    /// The product's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.product_id).await?.sku)
    }

    /// The product's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.product_id).await?.name)
    }

    /// The product.
    async fn product(&self, ctx: &Context<'_>) -> AppResult<Option<Item>> {
        Ok(data::<Items>(ctx)?.load_one(self.product_id).await?)
    }

    /// The lines, by sequence.
    async fn lines(&self, ctx: &Context<'_>) -> AppResult<Vec<BomLineRow>> {
        lines_of(ctx, self.id).await
    }

    /// How many lines it has.
    async fn line_count(&self, ctx: &Context<'_>) -> AppResult<i64> {
        Ok(lines_of(ctx, self.id).await?.len() as i64)
    }

    /// Component cost per unit now (sub-assemblies rolled up through their own BOMs).
    async fn material_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(sheet(ctx, self.id).await?.material))
    }

    /// Component cost as stored by the last change or recalculation (what lists sort by).
    async fn recalculated_material_cost(&self) -> Decimal {
        self.material_cost.clone()
    }

    /// Cost of one unit now: components plus process cost.
    async fn total_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(sheet(ctx, self.id).await?.total))
    }

    /// Why the costs are zero, when the structure holds its own product.
    async fn cost_error(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(sheet(ctx, self.id).await?.cycle)
    }
}

#[ComplexObject]
impl BomLineRow {
    /// The component item.
    async fn component(&self, ctx: &Context<'_>) -> AppResult<Option<Item>> {
        Ok(data::<Items>(ctx)?.load_one(self.component_id).await?)
    }

    /// The component's SKU.
    async fn component_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.sku)
    }

    /// The component's name.
    async fn component_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.name)
    }

    /// The component's stocking unit.
    async fn component_unit(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.unit)
    }

    /// Cost of one stocking unit of the component (its own BOM's roll-up when it has one,
    /// else its standard, average or last cost).
    async fn component_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        match sheet(ctx, self.bom_id).await?.lines.get(&self.id) {
            Some(c) => Ok(Decimal(c.unit_cost.clone())),
            None => Ok(Decimal(item_unit_cost(
                &part(ctx, self.component_id).await?,
            ))),
        }
    }

    /// The quantity needed per unit of the product, in the component's stocking unit,
    /// scrap included.
    async fn quantity_needed(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(needed_of(ctx, self).await?))
    }

    /// `quantityNeeded × componentCost`.
    async fn line_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(
            sheet(ctx, self.bom_id)
                .await?
                .lines
                .get(&self.id)
                .map(|c| c.line_cost.clone())
                .unwrap_or_default(),
        ))
    }

    /// Where the component cost came from: `bom` (a roll-up) or `item`.
    async fn cost_source(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(sheet(ctx, self.bom_id)
            .await?
            .lines
            .get(&self.id)
            .map(|c| c.source)
            .unwrap_or("item")
            .to_string())
    }

    /// The component's stock on hand over every location.
    async fn inventory_on_hand(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(stock(ctx, self.component_id).await?.on_hand))
    }

    /// The component's stock available (on hand less allocated).
    async fn inventory_available(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(stock(ctx, self.component_id).await?.available))
    }

    /// Whether the available stock covers one unit of the product.
    async fn is_available(&self, ctx: &Context<'_>) -> AppResult<bool> {
        let need = needed_of(ctx, self).await?;
        Ok(self.is_cost_only || stock(ctx, self.component_id).await?.available >= need)
    }

    /// What is missing for one unit of the product (0 when covered).
    async fn shortage(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let need = needed_of(ctx, self).await?;
        let available = stock(ctx, self.component_id).await?.available;
        let short = need - available;
        Ok(Decimal(if self.is_cost_only || short.is_negative() {
            BigDecimal::from(0)
        } else {
            short
        }))
    }

    /// Whether the component has an active BOM of its own.
    async fn has_bom(&self, ctx: &Context<'_>) -> AppResult<bool> {
        Ok(active_bom(ctx, self.component_id).await?.is_some())
    }

    /// The component's active BOM (its sub-assembly structure).
    async fn component_bom(&self, ctx: &Context<'_>) -> AppResult<Option<BomRow>> {
        active_bom(ctx, self.component_id).await
    }
}

crate::connection!(
    /// A page of BOMs.
    BomConnection,
    BomRow
);

/// One row of an explosion: a line at some level, with quantities for the whole run.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct ExplodedLine {
    /// 1 for the BOM's own lines, 2 for their components' lines...
    pub level: i32,
    /// The BOM the line is on.
    pub bom_id: i64,
    /// The line.
    pub line_id: i64,
    /// The component.
    pub component_id: i64,
    /// Quantity per unit of the parent, in `unit`.
    pub quantity_per: Decimal,
    /// The line's unit.
    pub unit: String,
    /// Quantity needed for the whole explosion, in the component's stocking unit, scrap
    /// included.
    pub extended_quantity: Decimal,
    /// Cost of one stocking unit.
    pub unit_cost: Decimal,
    /// `extendedQuantity × unitCost`.
    pub extended_cost: Decimal,
    /// Whether the component has its own BOM (its lines follow, one level deeper).
    pub has_bom: bool,
    /// Counted in the cost, never issued.
    pub is_cost_only: bool,
    /// When it leaves stock.
    pub consume_stage: ConsumeStage,
}

impl From<Exploded> for ExplodedLine {
    fn from(e: Exploded) -> Self {
        ExplodedLine {
            level: e.level,
            bom_id: e.bom_id,
            line_id: e.line.id,
            component_id: e.line.component_id,
            quantity_per: e.line.quantity,
            unit: e.line.unit,
            extended_quantity: Decimal(e.extended_quantity),
            unit_cost: Decimal(e.unit_cost),
            extended_cost: Decimal(e.extended_cost),
            has_bom: e.has_bom,
            is_cost_only: e.line.is_cost_only,
            consume_stage: e.line.consume_stage,
        }
    }
}

#[ComplexObject]
impl ExplodedLine {
    /// The component's SKU.
    async fn component_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.sku)
    }

    /// The component's name.
    async fn component_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.name)
    }

    /// The component's stocking unit.
    async fn component_unit(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.component_id).await?.unit)
    }

    /// The component's available stock.
    async fn inventory_available(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(Decimal(stock(ctx, self.component_id).await?.available))
    }
}

/// A BOM exploded through every level.
#[derive(Debug, Clone, SimpleObject)]
pub struct BomExplosion {
    /// The BOM.
    pub bom_id: i64,
    /// Its product.
    pub product_id: i64,
    /// The product's SKU.
    pub product_sku: String,
    /// The product's name.
    pub product_name: String,
    /// Units of the product exploded for.
    pub quantity: Decimal,
    /// Every line, depth first.
    pub lines: Vec<ExplodedLine>,
    /// The deepest level.
    pub max_level: i32,
    /// Cost of the whole quantity (components and process costs at every level).
    pub total_cost: Decimal,
}

/// A BOM's cost, line by line, with sub-assemblies rolled up.
#[derive(Debug, Clone, SimpleObject)]
pub struct BomCostRollup {
    /// The BOM.
    pub bom_id: i64,
    /// The product's SKU.
    pub product_sku: String,
    /// Components per unit.
    pub material_cost: Decimal,
    /// Labour and machine per unit.
    pub process_cost: Decimal,
    /// Per unit in all.
    pub total_cost: Decimal,
    /// Each line's part of it.
    pub lines: Vec<BomLineRow>,
}

/// What a check of a BOM found.
#[derive(Debug, Clone, SimpleObject)]
pub struct BomValidation {
    /// The BOM.
    pub bom_id: i64,
    /// True when there are no errors.
    pub is_valid: bool,
    /// What must be fixed before production uses it.
    pub errors: Vec<String>,
    /// What is worth a look.
    pub warnings: Vec<String>,
}

/// A line that uses an item, with its BOM (where-used).
#[derive(Debug, Clone)]
pub struct BomUsage {
    line: BomLineRow,
    bom: BomRow,
}

#[Object]
impl BomUsage {
    /// The BOM.
    async fn bom_id(&self) -> i64 {
        self.bom.id
    }
    /// The BOM's code.
    async fn bom_code(&self) -> &str {
        &self.bom.code
    }
    /// The BOM's name.
    async fn bom_name(&self) -> &str {
        &self.bom.name
    }
    /// The BOM's version.
    async fn version(&self) -> i32 {
        self.bom.version
    }
    /// Whether the BOM is active.
    async fn active(&self) -> bool {
        self.bom.active
    }
    /// The product the BOM makes.
    async fn product_id(&self) -> i64 {
        self.bom.product_id
    }
    /// Its SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.bom.product_id).await?.sku)
    }
    /// Its name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(part(ctx, self.bom.product_id).await?.name)
    }
    /// The line.
    async fn line_id(&self) -> i64 {
        self.line.id
    }
    /// Quantity per unit of the product.
    async fn quantity(&self) -> &Decimal {
        &self.line.quantity
    }
    /// Its unit.
    async fn unit(&self) -> &str {
        &self.line.unit
    }
    /// The whole BOM.
    async fn bom(&self) -> &BomRow {
        &self.bom
    }
    /// The whole line.
    async fn line(&self) -> &BomLineRow {
        &self.line
    }
}

/// BOM queries (any signed-in user).
#[derive(Default)]
pub struct BomQuery;

#[Object]
impl BomQuery {
    /// Bills of materials by code, with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn boms(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-100, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 100))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Only this product's BOMs.")] product_id: Option<i64>,
        #[graphql(desc = "Only active BOMs (default true).", default = true)] active_only: bool,
        #[graphql(desc = "Code, name, product SKU or product name contains this.")] search: Option<
            String,
        >,
        #[graphql(desc = "Sort column (default code); ties are broken by id.")] sort_by: Option<
            BomSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<SortOrder>,
    ) -> AppResult<BomConnection> {
        let page = Page::with_max(first, offset, MAX_BOM_PAGE)?;
        let filter = BomFilter {
            product_id,
            active_only,
            search,
            sort_by,
            sort_order,
        };
        let (nodes, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(BomConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One BOM by id.
    #[graphql(guard = "Access::User")]
    async fn bom(&self, ctx: &Context<'_>, id: i64) -> AppResult<BomRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// The active BOM of a product (404 when it has none).
    #[graphql(guard = "Access::User")]
    async fn bom_for_product(&self, ctx: &Context<'_>, product_id: i64) -> AppResult<BomRow> {
        model::active_of(&mut *context::conn(ctx).await?, &[product_id])
            .await?
            .pop()
            .ok_or_else(|| AppError::not_found("No active BOM found for this product"))
    }

    /// The BOM lines that use an item as a component, active BOMs first.
    #[graphql(guard = "Access::User")]
    async fn bom_where_used(
        &self,
        ctx: &Context<'_>,
        product_id: i64,
        #[graphql(
            desc = "Only active BOMs (default false: every version).",
            default = false
        )]
        active_only: bool,
    ) -> AppResult<Vec<BomUsage>> {
        Ok(
            model::where_used(&mut *context::conn(ctx).await?, product_id, active_only)
                .await?
                .into_iter()
                .map(|(line, bom)| BomUsage { line, bom })
                .collect(),
        )
    }

    /// A BOM exploded through every level for `quantity` units (default 1).
    #[graphql(guard = "Access::User")]
    async fn bom_explode(
        &self,
        ctx: &Context<'_>,
        id: i64,
        quantity: Option<Decimal>,
    ) -> AppResult<BomExplosion> {
        let quantity = quantity.map(|q| q.0).unwrap_or_else(|| BigDecimal::from(1));
        if !quantity.is_positive() {
            return Err(AppError::validation(vec![
                crate::platform::error::FieldError::new(
                    "quantity",
                    "Input should be greater than 0",
                ),
            ]));
        }
        let mut conn = context::conn(ctx).await?;
        let bom = model::find(&mut conn, id).await?;
        let tree = Tree::load(&mut conn, vec![bom.clone()]).await?;
        let rows = tree
            .explode(id, &quantity)
            .map_err(|c| AppError::bad_request(c.message()))?;
        let (unit_total, _) = tree
            .cost(id)
            .map_err(|c| AppError::bad_request(c.message()))?;
        let product = tree.part(bom.product_id);
        Ok(BomExplosion {
            bom_id: id,
            product_id: bom.product_id,
            product_sku: product.map(|p| p.sku.clone()).unwrap_or_default(),
            product_name: product.map(|p| p.name.clone()).unwrap_or_default(),
            max_level: rows.iter().map(|r| r.level).max().unwrap_or(0),
            total_cost: Decimal(
                (unit_total * &quantity).with_scale_round(4, bigdecimal::RoundingMode::HalfEven),
            ),
            quantity: Decimal(quantity),
            lines: rows.into_iter().map(ExplodedLine::from).collect(),
        })
    }

    /// A BOM's cost per unit, line by line, sub-assemblies rolled up through their BOMs.
    #[graphql(guard = "Access::User")]
    async fn bom_cost_rollup(&self, ctx: &Context<'_>, id: i64) -> AppResult<BomCostRollup> {
        let bom = model::find(&mut *context::conn(ctx).await?, id).await?;
        let sheet = sheet(ctx, id).await?;
        if let Some(cycle) = sheet.cycle {
            return Err(AppError::bad_request(cycle));
        }
        Ok(BomCostRollup {
            bom_id: id,
            product_sku: part(ctx, bom.product_id).await?.sku,
            material_cost: Decimal(sheet.material),
            process_cost: bom.process_cost.clone(),
            total_cost: Decimal(sheet.total),
            lines: lines_of(ctx, id).await?,
        })
    }

    /// Checks a BOM and everything below it: lines, units, inactive components, missing
    /// costs, cycles.
    #[graphql(guard = "Access::User")]
    async fn bom_validate(&self, ctx: &Context<'_>, id: i64) -> AppResult<BomValidation> {
        let mut conn = context::conn(ctx).await?;
        let bom = model::find(&mut conn, id).await?;
        let tree = Tree::load(&mut conn, vec![bom]).await?;
        let (errors, warnings) = tree.validate(id);
        Ok(BomValidation {
            bom_id: id,
            is_valid: errors.is_empty(),
            errors,
            warnings,
        })
    }
}

/// A new BOM with its lines.
#[derive(Debug, Clone, InputObject)]
pub struct BomNewInput {
    /// The header.
    #[graphql(flatten)]
    pub bom: BomCreateInput,
    /// The lines (default none).
    #[graphql(default)]
    pub lines: Vec<BomLineCreateInput>,
}

/// The result of a BOM change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct BomPayload {
    /// The BOM after the change (as it was, for a delete).
    pub bom: Option<BomRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<BomRow, Vec<UserError>>> for BomPayload {
    fn from(r: Result<BomRow, Vec<UserError>>) -> Self {
        match r {
            Ok(bom) => BomPayload {
                bom: Some(bom),
                ..Default::default()
            },
            Err(user_errors) => BomPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// The result of a BOM line change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct BomLinePayload {
    /// The line after the change (as it was, for a delete).
    pub line: Option<BomLineRow>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<BomLineRow, Vec<UserError>>> for BomLinePayload {
    fn from(r: Result<BomLineRow, Vec<UserError>>) -> Self {
        match r {
            Ok(line) => BomLinePayload {
                line: Some(line),
                ..Default::default()
            },
            Err(user_errors) => BomLinePayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// BOM mutations (any signed-in user).
#[derive(Default)]
pub struct BomMutation;

#[Object]
impl BomMutation {
    /// Creates a BOM with its lines (the product's next version unless one is given; active
    /// unless `active: false`, which deactivates the product's other versions).
    #[graphql(guard = "Access::User")]
    async fn bom_create(&self, ctx: &Context<'_>, input: BomNewInput) -> AppResult<BomPayload> {
        let form = BomForm::from(input.bom);
        let lines: Vec<BomLineForm> = input.lines.into_iter().map(BomLineForm::from).collect();
        Ok(crate::in_transaction!(ctx, |conn| rules::create(conn, form, lines)).into())
    }

    /// Changes a BOM's header (activating it deactivates the product's other versions).
    #[graphql(guard = "Access::User")]
    async fn bom_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: BomUpdateInput,
    ) -> AppResult<BomPayload> {
        let form = BomForm::from(input);
        Ok(crate::in_transaction!(ctx, |conn| rules::update(conn, id, form)).into())
    }

    /// Deletes a BOM and its lines.
    #[graphql(guard = "Access::User")]
    async fn bom_delete(&self, ctx: &Context<'_>, id: i64) -> AppResult<BomPayload> {
        let mut payload =
            BomPayload::from(crate::in_transaction!(ctx, |conn| rules::delete(conn, id)));
        payload.message = payload
            .bom
            .as_ref()
            .map(|b| format!("BOM {} deleted", b.code));
        Ok(payload)
    }

    /// Adds a line (its unit defaults to the component's; a component whose structure
    /// holds this product is refused).
    #[graphql(guard = "Access::User")]
    async fn bom_line_add(
        &self,
        ctx: &Context<'_>,
        bom_id: i64,
        input: BomLineCreateInput,
    ) -> AppResult<BomLinePayload> {
        let form = BomLineForm::from(input);
        Ok(crate::in_transaction!(ctx, |conn| rules::add_line(conn, bom_id, form)).into())
    }

    /// Changes a line.
    #[graphql(guard = "Access::User")]
    async fn bom_line_update(
        &self,
        ctx: &Context<'_>,
        bom_id: i64,
        line_id: i64,
        input: BomLineUpdateInput,
    ) -> AppResult<BomLinePayload> {
        let form = BomLineForm::from(input);
        Ok(
            crate::in_transaction!(ctx, |conn| rules::update_line(conn, bom_id, line_id, form))
                .into(),
        )
    }

    /// Removes a line.
    #[graphql(guard = "Access::User")]
    async fn bom_line_delete(
        &self,
        ctx: &Context<'_>,
        bom_id: i64,
        line_id: i64,
    ) -> AppResult<BomLinePayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::delete_line(conn, bom_id, line_id)).into())
    }

    /// Copies a BOM as the next version of its product or of `targetProductId`.
    #[graphql(guard = "Access::User")]
    async fn bom_copy(
        &self,
        ctx: &Context<'_>,
        id: i64,
        #[graphql(desc = "The product of the copy (default the same product).")]
        target_product_id: Option<i64>,
        #[graphql(desc = "Copy the lines too (default true).", default = true)] include_lines: bool,
    ) -> AppResult<BomPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::copy(
            conn,
            id,
            target_product_id,
            include_lines
        ))
        .into())
    }

    /// Recomputes and stores a BOM's component cost.
    #[graphql(guard = "Access::User")]
    async fn bom_recalculate(&self, ctx: &Context<'_>, id: i64) -> AppResult<BomPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::recalculate(conn, id)).into())
    }
}
