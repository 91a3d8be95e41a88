//! Routing templates: standard flows ("print, QC, pack, ship") kept as routings without a
//! product, seeded on request and applied to products. Applying copies the template's active
//! steps (and their materials) onto the product's active routing, whose old steps are
//! deactivated, or onto a new routing; times can be overridden per operation code, e.g. the
//! print time a slicer estimated for this product.

use async_graphql::{InputObject, SimpleObject};
use bigdecimal::BigDecimal;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{self, RoutingOperationRow, RoutingRow};
use crate::operations::production::routing::graphql::TemplateApplied;
use crate::operations::production::routing::materials;
use crate::operations::production::routing::steps::{
    self, RoutingInput, RuntimeSource, StepValues,
};
use crate::platform::db::schema::{items, routing_operations, routings, work_centers};
use crate::platform::graphql::limits::rest_alias;
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// A seeded template's step: sequence, code, type, name, work center code, setup and run
/// minutes, and whether the run time comes from the slicer.
type SeedStep = (
    i32,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    u32,
    u32,
    bool,
);

/// The templates [`seed`] creates: code, name, notes, steps.
const SEEDED: &[(&str, &str, &str, &[SeedStep])] = &[
    (
        "TPL-STANDARD",
        "Standard Flow",
        "Print, inspect, pack and ship",
        &[
            (
                10,
                "PRINT",
                "FDM_PRINT",
                "3D Print",
                "FDM-POOL",
                7,
                60,
                true,
            ),
            (
                20,
                "QC",
                "QUALITY_CONTROL",
                "Quality Check",
                "QC",
                0,
                2,
                false,
            ),
            (30, "PACK", "PACK_SHIP", "Pack", "SHIPPING", 1, 2, false),
            (40, "SHIP", "PACK_SHIP", "Ship", "SHIPPING", 0, 3, false),
        ],
    ),
    (
        "TPL-ASSEMBLY",
        "Assembly Flow",
        "Print, inspect, assemble, pack and ship",
        &[
            (
                10,
                "PRINT",
                "FDM_PRINT",
                "3D Print",
                "FDM-POOL",
                7,
                60,
                true,
            ),
            (
                20,
                "QC",
                "QUALITY_CONTROL",
                "Quality Check",
                "QC",
                0,
                2,
                false,
            ),
            (
                30, "ASSEMBLE", "ASSEMBLY", "Assembly", "ASSEMBLY", 0, 5, false,
            ),
            (40, "PACK", "PACK_SHIP", "Pack", "SHIPPING", 1, 2, false),
            (50, "SHIP", "PACK_SHIP", "Ship", "SHIPPING", 0, 3, false),
        ],
    ),
];

/// What seeding did.
#[derive(Debug, Clone, SimpleObject)]
pub struct TemplateSeedResult {
    /// What happened.
    pub message: String,
    /// Codes of the templates created.
    pub created: Vec<String>,
    /// Codes of the templates that already existed.
    pub skipped: Vec<String>,
}

/// Creates the standard templates that do not exist yet (idempotent). Every work center
/// they use must exist and be active.
pub async fn seed(conn: &mut AsyncPgConnection) -> Result<TemplateSeedResult, Stop> {
    let needed = ["FDM-POOL", "QC", "ASSEMBLY", "SHIPPING"];
    let centers: Vec<(i64, String)> = work_centers::table
        .filter(work_centers::active)
        .filter(work_centers::code.eq_any(needed))
        .select((work_centers::id, work_centers::code))
        .load(conn)
        .await?;
    let missing: Vec<&str> = needed
        .iter()
        .copied()
        .filter(|c| !centers.iter().any(|(_, code)| code == c))
        .collect();
    if !missing.is_empty() {
        return Err(Stop::refuse(
            "workCenters",
            UserErrorCode::NotAllowed,
            format!(
                "Missing required work centers: {}. Please create them first.",
                missing.join(", ")
            ),
        ));
    }
    let center = |code: &str| centers.iter().find(|(_, c)| c == code).map(|(id, _)| *id);
    let (mut created, mut skipped) = (Vec::new(), Vec::new());
    for (code, name, notes, seed_steps) in SEEDED {
        let exists: bool = diesel::select(diesel::dsl::exists(
            routings::table
                .filter(routings::is_template)
                .filter(routings::code.eq(code)),
        ))
        .get_result(conn)
        .await?;
        if exists {
            skipped.push(code.to_string());
            continue;
        }
        let routing = steps::save_routing(
            conn,
            None,
            RoutingInput {
                is_template: Some(true),
                code: Some(code.to_string()),
                name: Some(name.to_string()),
                notes: Some(notes.to_string()),
                operations: Some(Vec::new()),
                ..Default::default()
            },
        )
        .await?;
        for &(sequence, op_code, op_type, op_name, wc, setup, run, slicer) in *seed_steps {
            steps::insert_step(
                conn,
                routing.id,
                StepValues {
                    sequence,
                    operation_code: op_code.into(),
                    operation_name: op_name.into(),
                    operation_type: Some(op_type.into()),
                    work_center_id: center(wc).unwrap_or_default(),
                    description: None,
                    setup_minutes: BigDecimal::from(setup),
                    run_minutes: BigDecimal::from(run),
                    wait_minutes: BigDecimal::from(0),
                    move_minutes: BigDecimal::from(0),
                    runtime_source: if slicer {
                        RuntimeSource::Slicer
                    } else {
                        RuntimeSource::Manual
                    },
                    slicer_file_path: None,
                    units_per_cycle: 1,
                    scrap_rate_percent: BigDecimal::from(0),
                    notes: None,
                },
            )
            .await?;
        }
        created.push(code.to_string());
    }
    Ok(TemplateSeedResult {
        message: "Routing templates seeded".into(),
        created,
        skipped,
    })
}

/// Times replacing a template step's, by operation code.
#[derive(Debug, Clone, InputObject)]
pub struct TemplateOverride {
    /// The operation code whose steps take these times.
    pub operation_code: String,
    /// Run minutes per unit (a non-zero value marks the run time `slicer`).
    #[graphql(directive = rest_alias::apply("run_time_minutes".into()))]
    pub run_minutes: Option<Decimal>,
    /// Setup minutes.
    #[graphql(directive = rest_alias::apply("setup_time_minutes".into()))]
    pub setup_minutes: Option<Decimal>,
}

/// A template applied to a product.
#[derive(Debug, Clone, InputObject)]
pub struct TemplateApplyInput {
    /// The template.
    pub template_id: i64,
    /// The product.
    pub product_id: i64,
    /// Times to use instead of the template's.
    #[graphql(default)]
    pub overrides: Vec<TemplateOverride>,
}

/// Applies a template to a product (see the module's documentation).
pub async fn apply(
    conn: &mut AsyncPgConnection,
    input: TemplateApplyInput,
) -> Result<TemplateApplied, Stop> {
    let template: Option<RoutingRow> = routings::table
        .find(input.template_id)
        .filter(routings::is_template)
        .filter(routings::active)
        .select(RoutingRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let Some(template) = template else {
        return Err(Stop::refuse(
            "templateId",
            UserErrorCode::NotFound,
            "Template not found",
        ));
    };
    let product: Option<String> = items::table
        .find(input.product_id)
        .select(items::sku)
        .first(conn)
        .await
        .optional()?;
    let Some(sku) = product else {
        return Err(Stop::refuse(
            "productId",
            UserErrorCode::NotFound,
            "Product not found",
        ));
    };
    let name = format!("{} - {sku}", template.name);
    let notes = format!("Applied from template {}", template.code);
    let (routing, message) = match model::active_routing(conn, input.product_id).await? {
        Some(existing) => {
            diesel::update(
                routing_operations::table.filter(routing_operations::routing_id.eq(existing.id)),
            )
            .set(routing_operations::is_active.eq(false))
            .execute(conn)
            .await?;
            let routing = steps::save_routing(
                conn,
                Some(existing.id),
                RoutingInput {
                    name: Some(name),
                    notes: Some(notes),
                    ..Default::default()
                },
            )
            .await?;
            (routing, format!("Updated routing for {sku}"))
        }
        None => {
            let routing = steps::save_routing(
                conn,
                None,
                RoutingInput {
                    product_id: Some(input.product_id),
                    name: Some(name),
                    notes: Some(notes),
                    operations: Some(Vec::new()),
                    ..Default::default()
                },
            )
            .await?;
            (routing, format!("Created routing for {sku}"))
        }
    };
    let mut operations: Vec<RoutingOperationRow> = Vec::new();
    for step in model::routing_steps(conn, template.id, true).await? {
        let mut values = StepValues::of(&step);
        values.slicer_file_path = None;
        if let Some(o) = input.overrides.iter().find(|o| {
            o.operation_code
                .trim()
                .eq_ignore_ascii_case(&step.operation_code)
        }) {
            if let Some(run) = &o.run_minutes {
                if run.0 != 0 {
                    values.runtime_source = RuntimeSource::Slicer;
                }
                values.run_minutes = run.0.clone();
            }
            if let Some(setup) = &o.setup_minutes {
                values.setup_minutes = setup.0.clone();
            }
        }
        let new_step = steps::insert_step(conn, routing.id, values).await?;
        materials::copy(conn, step.id, new_step.id, None).await?;
        operations.push(new_step);
    }
    Ok(TemplateApplied {
        routing,
        operations,
        message,
    })
}
