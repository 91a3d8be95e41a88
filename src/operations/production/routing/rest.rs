//! REST routes of routings (FilaOps's `/routings/*` and `/operation-types`; staff, i.e. any
//! signed-in user; changing operation types is for admins): declarations only.

use crate::platform::auth::Access::Admin;
use crate::platform::rest::{Body, Route};

use crate::stored_op;

/// The routes.
pub const ROUTES: &[Route] = &[
    Route::get("/routings/", stored_op!("routings_list.graphql", "routing", "routing_step"), "routings")
        .summary("Routings and templates, a bare array (`product_id`, `templates_only`, `active_only` default true, `search`, `skip`, `limit`), each with its active steps, step count and totals"),
    Route::post("/routings/", stored_op!("routing_create.graphql", "routing", "routing_step"), "routingCreate.routing")
        .body(Body::Input("input"))
        .status(201)
        .idempotent()
        .summary("Create a routing with its ordered `operations` (the product's next version, active unless `is_active: false`), or a template (`is_template`, `code` and `name`, no product)"),
    Route::post("/routings/seed-templates", stored_op!("templates_seed.graphql"), "routingTemplatesSeed.seeded")
        .summary("Create the standard templates TPL-STANDARD and TPL-ASSEMBLY if missing: `{message, created, skipped}` (400 when work centers FDM-POOL, QC, ASSEMBLY or SHIPPING are missing)"),
    Route::post("/routings/apply-template", stored_op!("template_apply.graphql", "routing_step"), "routingTemplateApply.applied")
        .body(Body::Input("input"))
        .summary("Apply a template to a product (`template_id`, `product_id`, `overrides: [{operation_code, run_time_minutes, setup_time_minutes}]`): the product's active routing gets the template's steps, or a new routing is made"),
    Route::get("/routings/manufacturing-bom/{product_id}", stored_op!("manufacturing_bom.graphql", "routing_step", "step_material"), "manufacturingBom")
        .flatten(&["routing"])
        .summary("A product's active routing with each step's materials, material cost and total, and the labour, material and total cost"),
    Route::get("/routings/product/{product_id}", stored_op!("routing_for_product.graphql", "routing", "routing_step"), "routingForProduct")
        .summary("A product's active routing (404 when it has none)"),
    Route::put("/routings/operations/{id}", stored_op!("routing_step_update.graphql", "routing_step"), "routingStepUpdate.operation")
        .body(Body::Input("input"))
        .summary("Change a step (absent fields kept; `operation_type: null` clears the type)"),
    Route::delete("/routings/operations/{id}", stored_op!("routing_step_delete.graphql"), "routingStepDelete.operation")
        .status(204)
        .summary("Delete (deactivate) a step"),
    Route::get("/routings/operations/{step_id}/materials", stored_op!("step_materials.graphql", "step_material"), "routingStepMaterials")
        .summary("What a step consumes, with unit and extended cost"),
    Route::post("/routings/operations/{step_id}/materials", stored_op!("step_material_add.graphql", "step_material"), "routingStepMaterialAdd.material")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a material to a step (`component_id`, `quantity` > 0, `quantity_per` unit|batch|order, `unit`, `scrap_factor` 0-100, `is_cost_only`, `is_optional`, `is_variable`, `notes`); a component already on the step is 409"),
    Route::put("/routings/materials/{id}", stored_op!("step_material_update.graphql", "step_material"), "routingStepMaterialUpdate.material")
        .body(Body::Input("input"))
        .summary("Change a step's material line"),
    Route::delete("/routings/materials/{id}", stored_op!("step_material_delete.graphql"), "routingStepMaterialDelete.material")
        .status(204)
        .summary("Remove a step's material line"),
    Route::get("/routings/{id}", stored_op!("routing_get.graphql", "routing", "routing_step"), "routing")
        .summary("One routing or template with its active steps"),
    Route::put("/routings/{id}", stored_op!("routing_update.graphql", "routing", "routing_step"), "routingUpdate.routing")
        .body(Body::Input("input"))
        .summary("Change a routing; `operations`, when given, replaces its steps"),
    Route::delete("/routings/{id}", stored_op!("routing_delete.graphql"), "routingDelete.routing")
        .status(204)
        .summary("Delete (deactivate) a routing; its steps stay"),
    Route::get("/routings/{routing_id}/operations", stored_op!("routing_steps.graphql", "routing_step"), "routingSteps")
        .summary("A routing's steps in sequence (`active_only`, default true)"),
    Route::post("/routings/{routing_id}/operations", stored_op!("routing_step_add.graphql", "routing_step"), "routingStepAdd.operation")
        .body(Body::Input("input"))
        .status(201)
        .summary("Add a step (last unless `sequence`); the type defaults from `operation_code` (PRINT is FDM_PRINT), the code, name and work center from the type"),
    Route::get("/admin/operation-types/audit", stored_op!("operation_types_audit.graphql"), "operationTypeAudit")
        .summary("Every distinct step code and name in routings and orders: stored type, stages now, the type the name implies and whether it changes when materials leave stock, open orders carrying them"),
    Route::post("/admin/operation-types/classify", stored_op!("operation_types_classify.graphql"), "operationTypesClassify")
        .body(Body::Fields)
        .summary("Propose a type for every untyped step from its name (`dry_run`, default true); applied only where the step still has none; steps with materials never get a no-consume type"),
    Route::get("/operation-types", stored_op!("operation_types.graphql", "operation_type"), "operationTypes")
        .summary("Active operation types in display order: `{code, label, category, consume_stages, is_qc, is_system, sort_order, ...}`"),
    Route::post("/admin/operation-types", stored_op!("operation_type_create.graphql", "operation_type"), "operationTypeCreate.operationType")
        .body(Body::Input("input"))
        .status(201)
        .access(Admin)
        .summary("Add a custom operation type (`code`, `label`, `consume_stages` at least one of production|assembly|finishing|shipping|any, `category`, `is_qc`, `sort_order`); a taken code is 400"),
    Route::put("/admin/operation-types/{code}", stored_op!("operation_type_update.graphql", "operation_type"), "operationTypeUpdate.operationType")
        .body(Body::Input("input"))
        .access(Admin)
        .summary("Change an operation type: system types keep their stages and QC flag (400); changing the stages of a type an open order uses is 409"),
    Route::post("/admin/operation-types/{code}/deactivate", stored_op!("operation_type_deactivate.graphql", "operation_type"), "operationTypeDeactivate.operationType")
        .access(Admin)
        .summary("Deactivate an operation type (steps that name it keep it)"),
];
