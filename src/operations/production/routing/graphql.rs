//! Routings in the schema: routings and templates with their steps, each step's materials
//! and costs, the manufacturing BOM (a product's routing with what every step consumes),
//! operation types, and the mutations on each (staff; operation types are for admins).
//! Every relation goes through a per-request loader, so a page of routings costs a fixed
//! number of statements.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, Zero};

use crate::ledgers::inventory::loaders::ItemFactsOf;
use crate::master_data::catalog::loaders::{AllUnits, Units};
use crate::operations::bom::loaders::Parts;
use crate::operations::bom::tree::item_unit_cost;
use crate::operations::production::loaders::{RoutingSteps, StepMaterials, WorkCenters};
use crate::operations::production::model::{self, RoutingOperationRow, RoutingRow};
use crate::operations::production::routing::materials::{
    self, QuantityPer, StepMaterialInput, StepMaterialRow, money,
};
use crate::operations::production::routing::steps::{self, RoutingInput, RoutingStepInput};
use crate::operations::production::routing::templates::{
    self, TemplateApplyInput, TemplateSeedResult,
};
use crate::operations::production::routing::types::{self, OperationTypeInput, OperationTypeRow};
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context::{self, data};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;

/// Cost of a material line: per unit of the line's unit, and for the line's quantity with
/// scrap. The component's cost is per stocking unit; the line's unit is converted.
async fn line_cost(ctx: &Context<'_>, m: &StepMaterialRow) -> AppResult<(BigDecimal, BigDecimal)> {
    let Some(part) = data::<Parts>(ctx)?.load_one(m.component_id).await? else {
        return Ok((BigDecimal::zero(), BigDecimal::zero()));
    };
    let stock_cost = item_unit_cost(&part);
    let units = data::<Units>(ctx)?
        .load_one(AllUnits)
        .await?
        .unwrap_or_default();
    let per_line_unit = crate::master_data::catalog::uom::convert_codes(
        &units,
        &BigDecimal::from(1),
        &m.unit,
        &part.unit,
    )
    .map(|q| q * &stock_cost)
    .unwrap_or(stock_cost);
    let extended = m.gross() * &per_line_unit;
    Ok((per_line_unit, extended))
}

/// The step's materials, from the loader.
async fn step_materials(ctx: &Context<'_>, step: i64) -> AppResult<Vec<StepMaterialRow>> {
    Ok(data::<StepMaterials>(ctx)?
        .load_one(step)
        .await?
        .unwrap_or_default())
}

/// Labour and machine cost of one run of a step: (setup + run) minutes at the work center's
/// hourly rate (wait and move are not costed).
async fn step_labor(ctx: &Context<'_>, step: &RoutingOperationRow) -> AppResult<BigDecimal> {
    let rate = data::<WorkCenters>(ctx)?
        .load_one(step.work_center_id)
        .await?
        .map(|w| w.hourly_rate.0)
        .unwrap_or_default();
    Ok((&step.setup_minutes.0 + &step.run_minutes.0) * rate / BigDecimal::from(60))
}

/// Cost of a step's materials: (all lines, per-unit lines only).
async fn step_material_cost(ctx: &Context<'_>, step: i64) -> AppResult<(BigDecimal, BigDecimal)> {
    let mut all = BigDecimal::zero();
    let mut per_unit = BigDecimal::zero();
    for m in step_materials(ctx, step).await? {
        let (_, extended) = line_cost(ctx, &m).await?;
        if m.per() == QuantityPer::Unit {
            per_unit += &extended;
        }
        all += extended;
    }
    Ok((all, per_unit))
}

async fn steps_of(ctx: &Context<'_>, routing: i64) -> AppResult<Vec<RoutingOperationRow>> {
    Ok(data::<RoutingSteps>(ctx)?
        .load_one(routing)
        .await?
        .unwrap_or_default())
}

/// A product's SKU and name.
async fn product_facts(
    ctx: &Context<'_>,
    product: Option<i64>,
) -> AppResult<(Option<String>, Option<String>)> {
    let Some(p) = product else {
        return Ok((None, None));
    };
    Ok(match data::<ItemFactsOf>(ctx)?.load_one(p).await? {
        Some(f) => (Some(f.sku), Some(f.name)),
        None => (None, None),
    })
}

/// Run, wait and move minutes of a routing's steps.
async fn routing_run_minutes(ctx: &Context<'_>, routing: i64) -> AppResult<Decimal> {
    let steps = steps_of(ctx, routing).await?;
    Ok(Decimal(
        steps
            .iter()
            .map(|s| &s.run_minutes.0 + &s.wait_minutes.0 + &s.move_minutes.0)
            .sum(),
    ))
}

/// One run of every step of a routing plus its per-unit materials.
async fn routing_cost(ctx: &Context<'_>, routing: i64) -> AppResult<Decimal> {
    let mut total = BigDecimal::zero();
    for s in steps_of(ctx, routing).await? {
        total += step_labor(ctx, &s).await?;
        total += step_material_cost(ctx, s.id).await?.1;
    }
    Ok(money(total))
}

#[ComplexObject]
impl RoutingRow {
    /// The active steps, in sequence.
    async fn operations(&self, ctx: &Context<'_>) -> AppResult<Vec<RoutingOperationRow>> {
        steps_of(ctx, self.id).await
    }

    /// How many active steps.
    async fn operation_count(&self, ctx: &Context<'_>) -> AppResult<i64> {
        Ok(steps_of(ctx, self.id).await?.len() as i64)
    }

    /// The product's SKU (none for a template).
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(product_facts(ctx, self.product_id).await?.0)
    }

    /// The product's name (none for a template).
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(product_facts(ctx, self.product_id).await?.1)
    }

    /// Setup minutes of all steps.
    async fn total_setup_minutes(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let steps = steps_of(ctx, self.id).await?;
        Ok(Decimal(
            steps.iter().map(|s| s.setup_minutes.0.clone()).sum(),
        ))
    }

    /// Run, wait and move minutes of all steps (per unit for run).
    async fn total_run_minutes(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        routing_run_minutes(ctx, self.id).await
    }

    /// Cost of one run of every step plus the per-unit materials.
    async fn total_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        routing_cost(ctx, self.id).await
    }
}

#[ComplexObject]
impl RoutingOperationRow {
    /// The work center's code.
    async fn work_center_code(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<WorkCenters>(ctx)?
            .load_one(self.work_center_id)
            .await?
            .map(|w| w.code))
    }

    /// The work center's name.
    async fn work_center_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<WorkCenters>(ctx)?
            .load_one(self.work_center_id)
            .await?
            .map(|w| w.name))
    }

    /// Setup, run, wait and move minutes.
    async fn total_time_minutes(&self) -> Decimal {
        Decimal(
            &self.setup_minutes.0
                + &self.run_minutes.0
                + &self.wait_minutes.0
                + &self.move_minutes.0,
        )
    }

    /// Cost of (setup + run) minutes at the work center's hourly rate.
    async fn calculated_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(money(step_labor(ctx, self).await?))
    }

    /// What the step consumes.
    async fn materials(&self, ctx: &Context<'_>) -> AppResult<Vec<StepMaterialRow>> {
        step_materials(ctx, self.id).await
    }

    /// Cost of all its materials (per unit, per run and per order lines).
    async fn material_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(money(step_material_cost(ctx, self.id).await?.0))
    }

    /// Calculated cost plus material cost.
    async fn total_cost_with_materials(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let labor = step_labor(ctx, self).await?;
        Ok(money(labor + step_material_cost(ctx, self.id).await?.0))
    }
}

#[ComplexObject]
impl StepMaterialRow {
    /// What the quantity is counted per.
    async fn quantity_per(&self) -> QuantityPer {
        self.per()
    }

    /// The component's SKU.
    async fn component_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.component_id)
            .await?
            .map(|f| f.sku))
    }

    /// The component's name.
    async fn component_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(data::<ItemFactsOf>(ctx)?
            .load_one(self.component_id)
            .await?
            .map(|f| f.name))
    }

    /// Cost of one `unit` of the component.
    async fn unit_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(money(line_cost(ctx, self).await?.0))
    }

    /// Quantity with scrap times the unit cost.
    async fn extended_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        Ok(money(line_cost(ctx, self).await?.1))
    }
}

/// A product's routing with what every step consumes, and the totals.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct ManufacturingBom {
    /// The routing.
    pub routing: RoutingRow,
}

#[ComplexObject]
impl ManufacturingBom {
    /// Cost of one run of every step.
    async fn total_labor_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let mut total = BigDecimal::zero();
        for s in steps_of(ctx, self.routing.id).await? {
            total += step_labor(ctx, &s).await?;
        }
        Ok(money(total))
    }

    /// Cost of every step's materials.
    async fn total_material_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let mut total = BigDecimal::zero();
        for s in steps_of(ctx, self.routing.id).await? {
            total += step_material_cost(ctx, s.id).await?.0;
        }
        Ok(money(total))
    }

    /// Labour plus materials.
    async fn total_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let mut total = BigDecimal::zero();
        for s in steps_of(ctx, self.routing.id).await? {
            total += step_labor(ctx, &s).await?;
            total += step_material_cost(ctx, s.id).await?.0;
        }
        Ok(money(total))
    }
}

/// What applying a template made.
#[derive(Debug, Clone, SimpleObject)]
#[graphql(complex)]
pub struct TemplateApplied {
    /// The product's routing (new, or its active one with the template's steps).
    pub routing: RoutingRow,
    /// The steps the template added.
    pub operations: Vec<RoutingOperationRow>,
    /// What happened.
    pub message: String,
}

#[ComplexObject]
impl TemplateApplied {
    /// The routing's id.
    async fn routing_id(&self) -> i64 {
        self.routing.id
    }

    /// The routing's code.
    async fn routing_code(&self) -> &str {
        &self.routing.code
    }

    /// The product's SKU.
    async fn product_sku(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(product_facts(ctx, self.routing.product_id).await?.0)
    }

    /// The product's name.
    async fn product_name(&self, ctx: &Context<'_>) -> AppResult<Option<String>> {
        Ok(product_facts(ctx, self.routing.product_id).await?.1)
    }

    /// Run, wait and move minutes of the routing's steps.
    async fn total_run_minutes(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        routing_run_minutes(ctx, self.routing.id).await
    }

    /// The routing's cost.
    async fn total_cost(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        routing_cost(ctx, self.routing.id).await
    }
}

/// Routing queries (staff).
#[derive(Default)]
pub struct RoutingQuery;

#[Object]
impl RoutingQuery {
    /// One routing or template.
    #[graphql(guard = "Access::User")]
    async fn routing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Routing id.")] id: i64,
    ) -> AppResult<RoutingRow> {
        model::routings_by_ids(&mut *context::conn(ctx).await?, &[id])
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| AppError::not_found("Routing not found"))
    }

    /// Routings and templates: by product, newest version first, then templates by code.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn routings(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this product's.")] product_id: Option<i64>,
        #[graphql(desc = "Only active ones.", default = false)] active_only: bool,
        #[graphql(desc = "Only templates.", default = false)] templates_only: bool,
        #[graphql(desc = "Code, name, or the product's SKU or name contains this.")] search: Option<
            String,
        >,
        #[graphql(desc = "Rows to skip.", default = 0, directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: i64,
        #[graphql(desc = "Most rows (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        limit: i64,
    ) -> AppResult<Vec<RoutingRow>> {
        let filter = model::RoutingListFilter {
            product_id: product_id.filter(|p| *p != 0),
            templates_only,
            active_only,
            search,
        };
        model::routing_list(
            &mut *context::conn(ctx).await?,
            &filter,
            offset.max(0),
            limit.clamp(1, 500),
        )
        .await
    }

    /// A product's active routing (newest version).
    #[graphql(guard = "Access::User")]
    async fn routing_for_product(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The product.")] product_id: i64,
    ) -> AppResult<RoutingRow> {
        model::active_routing(&mut *context::conn(ctx).await?, product_id)
            .await?
            .ok_or_else(|| AppError::not_found("No active routing found for product"))
    }

    /// A routing's steps in sequence (active ones unless told).
    #[graphql(guard = "Access::User")]
    async fn routing_steps(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The routing.")] routing_id: i64,
        #[graphql(desc = "Only active steps.", default = true)] active_only: bool,
    ) -> AppResult<Vec<RoutingOperationRow>> {
        let mut conn = context::conn(ctx).await?;
        if model::routings_by_ids(&mut conn, &[routing_id])
            .await?
            .is_empty()
        {
            return Err(AppError::not_found("Routing not found"));
        }
        model::routing_steps(&mut conn, routing_id, active_only).await
    }

    /// The materials of a routing step.
    #[graphql(guard = "Access::User")]
    async fn routing_step_materials(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The step.")] step_id: i64,
    ) -> AppResult<Vec<StepMaterialRow>> {
        let mut conn = context::conn(ctx).await?;
        if model::routing_step(&mut conn, step_id).await?.is_none() {
            return Err(AppError::not_found("Operation not found"));
        }
        materials::of_steps(&mut conn, &[step_id]).await
    }

    /// A product's active routing with what each step consumes and the totals.
    #[graphql(guard = "Access::User")]
    async fn manufacturing_bom(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The product.")] product_id: i64,
    ) -> AppResult<ManufacturingBom> {
        let mut conn = context::conn(ctx).await?;
        if !crate::master_data::catalog::model::exists(&mut conn, product_id).await? {
            return Err(AppError::not_found("Product not found"));
        }
        let routing = model::active_routing(&mut conn, product_id)
            .await?
            .ok_or_else(|| AppError::not_found("No active routing found for product"))?;
        Ok(ManufacturingBom { routing })
    }

    /// Operation types in display order (active ones unless told).
    #[graphql(guard = "Access::User")]
    async fn operation_types(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Include deactivated types.", default = false)] include_inactive: bool,
    ) -> AppResult<Vec<OperationTypeRow>> {
        types::list(&mut *context::conn(ctx).await?, include_inactive).await
    }

    /// Every distinct step code and name in routings and orders: the stages their
    /// materials leave stock at, the type their name implies and what it would change.
    #[graphql(guard = "Access::User")]
    async fn operation_type_audit(
        &self,
        ctx: &Context<'_>,
    ) -> AppResult<crate::operations::production::routing::classify::OperationTypeAudit> {
        crate::platform::graphql::user_error::Stop::into_app(
            crate::operations::production::routing::classify::audit(
                &mut *context::conn(ctx).await?,
            )
            .await,
        )
    }
}

/// The result of saving a routing.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct RoutingPayload {
    /// The routing.
    pub routing: Option<RoutingRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(RoutingPayload {
    routing: RoutingRow
});

/// The result of changing a routing step.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct RoutingStepPayload {
    /// The step.
    pub operation: Option<RoutingOperationRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(RoutingStepPayload {
    operation: RoutingOperationRow
});

/// The result of changing a step's material line.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct StepMaterialPayload {
    /// The line.
    pub material: Option<StepMaterialRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(StepMaterialPayload {
    material: StepMaterialRow
});

/// The result of applying a template.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct TemplateApplyPayload {
    /// What was made.
    pub applied: Option<TemplateApplied>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(TemplateApplyPayload {
    applied: TemplateApplied
});

/// The result of seeding the templates.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct TemplateSeedPayload {
    /// What was made.
    pub seeded: Option<TemplateSeedResult>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(TemplateSeedPayload {
    seeded: TemplateSeedResult
});

/// The result of changing an operation type.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct OperationTypePayload {
    /// The type.
    pub operation_type: Option<OperationTypeRow>,
    /// Rule violations.
    pub user_errors: Vec<UserError>,
}
crate::payload_from_result!(OperationTypePayload {
    operation_type: OperationTypeRow
});

/// Routing mutations (staff; operation types: admins).
#[derive(Default)]
pub struct RoutingMutation;

#[Object]
impl RoutingMutation {
    /// Creates a routing with its steps (the product's next version, active unless told),
    /// or a template (`isTemplate`, no product).
    #[graphql(guard = "Access::User")]
    async fn routing_create(
        &self,
        ctx: &Context<'_>,
        input: RoutingInput,
    ) -> AppResult<RoutingPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::save_routing(conn, None, input)).into())
    }

    /// Changes a routing; `operations`, when given, replaces its steps.
    #[graphql(guard = "Access::User")]
    async fn routing_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Routing id.")] id: i64,
        input: RoutingInput,
    ) -> AppResult<RoutingPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::save_routing(conn, Some(id), input)).into())
    }

    /// Deletes (deactivates) a routing; production orders keep what they copied.
    #[graphql(guard = "Access::User")]
    async fn routing_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Routing id.")] id: i64,
    ) -> AppResult<RoutingPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::delete_routing(conn, id)).into())
    }

    /// Adds a step to a routing (last unless sequenced).
    #[graphql(guard = "Access::User")]
    async fn routing_step_add(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The routing.")] routing_id: i64,
        input: RoutingStepInput,
    ) -> AppResult<RoutingStepPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::add_step(conn, routing_id, input)).into())
    }

    /// Changes a step (absent fields kept; `operationType: null` clears the type).
    #[graphql(guard = "Access::User")]
    async fn routing_step_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Step id.")] id: i64,
        input: RoutingStepInput,
    ) -> AppResult<RoutingStepPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::update_step(conn, id, input)).into())
    }

    /// Deletes (deactivates) a step.
    #[graphql(guard = "Access::User")]
    async fn routing_step_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Step id.")] id: i64,
    ) -> AppResult<RoutingStepPayload> {
        Ok(crate::in_transaction!(ctx, |conn| steps::delete_step(conn, id)).into())
    }

    /// Adds a material line to a step (a component once per step: a second is a conflict).
    #[graphql(guard = "Access::User")]
    async fn routing_step_material_add(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The step.")] step_id: i64,
        #[graphql(directive = crate::platform::graphql::limits::requires::apply(vec!["componentId".into(), "quantity".into()]))]
        input: StepMaterialInput,
    ) -> AppResult<StepMaterialPayload> {
        Ok(crate::in_transaction!(ctx, |conn| materials::add(conn, step_id, input)).into())
    }

    /// Changes a step's material line.
    #[graphql(guard = "Access::User")]
    async fn routing_step_material_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Line id.")] id: i64,
        input: StepMaterialInput,
    ) -> AppResult<StepMaterialPayload> {
        Ok(crate::in_transaction!(ctx, |conn| materials::update(conn, id, input)).into())
    }

    /// Removes a step's material line.
    #[graphql(guard = "Access::User")]
    async fn routing_step_material_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Line id.")] id: i64,
    ) -> AppResult<StepMaterialPayload> {
        Ok(crate::in_transaction!(ctx, |conn| materials::delete(conn, id)).into())
    }

    /// Creates the standard templates (print, QC, pack, ship; and with assembly) that do not
    /// exist yet. Their work centers (FDM-POOL, QC, ASSEMBLY, SHIPPING) must exist.
    #[graphql(guard = "Access::User")]
    async fn routing_templates_seed(&self, ctx: &Context<'_>) -> AppResult<TemplateSeedPayload> {
        Ok(crate::in_transaction!(ctx, |conn| templates::seed(conn)).into())
    }

    /// Applies a template to a product: its active routing gets the template's steps (its
    /// old steps deactivated), or a new routing is made; `overrides` replace times by
    /// operation code (a run time from a sliced file marks the step `slicer`).
    #[graphql(guard = "Access::User")]
    async fn routing_template_apply(
        &self,
        ctx: &Context<'_>,
        input: TemplateApplyInput,
    ) -> AppResult<TemplateApplyPayload> {
        Ok(crate::in_transaction!(ctx, |conn| templates::apply(conn, input)).into())
    }

    /// Adds a custom operation type.
    #[graphql(guard = "Access::Admin")]
    async fn operation_type_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(directive = crate::platform::graphql::limits::requires::apply(vec!["code".into(), "label".into(), "consumeStages".into()]))]
        input: OperationTypeInput,
    ) -> AppResult<OperationTypePayload> {
        Ok(crate::in_transaction!(ctx, |conn| types::save(conn, None, input)).into())
    }

    /// Changes an operation type (system types keep their stages and QC flag; a type an open
    /// order uses keeps its stages).
    #[graphql(guard = "Access::Admin")]
    async fn operation_type_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The type's code.")] code: String,
        input: OperationTypeInput,
    ) -> AppResult<OperationTypePayload> {
        Ok(crate::in_transaction!(ctx, |conn| types::save(conn, Some(&code), input)).into())
    }

    /// Deactivates an operation type (steps that name it keep it).
    #[graphql(guard = "Access::Admin")]
    async fn operation_type_deactivate(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The type's code.")] code: String,
    ) -> AppResult<OperationTypePayload> {
        Ok(crate::in_transaction!(ctx, |conn| types::deactivate(conn, &code)).into())
    }

    /// Proposes an operation type for every step without one (from its name) and, unless
    /// `dryRun`, sets it where the step still has none.
    #[graphql(guard = "Access::User")]
    async fn operation_types_classify(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only propose (default true).", default = true)] dry_run: bool,
    ) -> AppResult<crate::operations::production::routing::classify::ClassifyResult> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        let outcome = {
            use diesel_async::AsyncConnection as _;
            let mut conn = context::conn(ctx).await?;
            conn.transaction::<_, crate::platform::graphql::user_error::Stop, _>(async move |c| {
                crate::operations::production::routing::classify::classify(c, dry_run, user).await
            })
            .await
        };
        crate::platform::graphql::user_error::Stop::into_app(outcome)
    }
}
