//! Whether an order's materials can print on a machine: each operation's materials (their
//! material types) against the printer it is on, with every finding and its severity, and
//! the check of a machine the scheduler offers. The rules are
//! [`crate::operations::printers::compat`]'s, the same the scheduler books by.

use std::collections::HashMap;

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::materials::model::MaterialTypeRow;
use crate::operations::printers::compat::{
    self, CompatCheck, MachineCaps, MaterialNeeds, Severity, combined_needs, machine_caps,
    material_types_of,
};
use crate::operations::production::detail::facts::OrderFacts;
use crate::operations::production::model::OperationRow;
use crate::platform::db::schema::{printers, production_order_operations, resources};
use crate::platform::error::{AppError, AppResult};

/// One finding.
#[derive(Debug, Clone, SimpleObject)]
pub struct CompatibilityIssue {
    /// Error (cannot run) or warning.
    pub severity: Severity,
    /// The rule.
    pub check: CompatCheck,
    /// What is wrong.
    pub message: String,
    /// The material type.
    pub material_name: String,
    /// The machine.
    pub printer_name: String,
}

/// One operation's findings.
#[derive(Debug, Clone, SimpleObject)]
pub struct OperationCompatibility {
    /// The operation.
    pub operation_id: i64,
    /// Its name.
    pub operation_name: String,
    /// The machine it is on, if any.
    pub printer_name: Option<String>,
    /// No errors.
    pub compatible: bool,
    /// The findings.
    pub issues: Vec<CompatibilityIssue>,
}

/// An order's findings.
#[derive(Debug, Clone, SimpleObject)]
pub struct OrderCompatibility {
    /// The order.
    pub production_order_id: i64,
    /// Its code.
    pub production_order_code: String,
    /// No operation has an error.
    pub compatible: bool,
    /// Findings of every operation.
    pub total_issues: i64,
    /// Each operation.
    pub operations: Vec<OperationCompatibility>,
}

/// A machine offered for an order.
#[derive(Debug, Clone, SimpleObject)]
pub struct ResourceCompatibility {
    /// No errors.
    pub compatible: bool,
    /// `Compatible`, or what is wrong.
    pub reason: String,
}

/// A machine's name and what it can do.
async fn machine(
    conn: &mut AsyncPgConnection,
    printer: Option<i64>,
    resource: Option<i64>,
) -> AppResult<Option<(String, MachineCaps)>> {
    if let Some(p) = printer {
        let row: Option<(String, String, serde_json::Value)> = printers::table
            .find(p)
            .select((printers::name, printers::model, printers::capabilities))
            .first(conn)
            .await
            .optional()?;
        return Ok(row.map(|(name, model, caps)| (name, machine_caps(&caps, &model))));
    }
    if let Some(r) = resource {
        let row: Option<(String, Option<String>)> = resources::table
            .find(r)
            .select((resources::name, resources::machine_type))
            .first(conn)
            .await
            .optional()?;
        return Ok(row.map(|(name, model)| {
            let caps = machine_caps(&serde_json::json!({}), model.as_deref().unwrap_or_default());
            (name, caps)
        }));
    }
    Ok(None)
}

fn issues_of(
    printer_name: &str,
    caps: &MachineCaps,
    types: &[&MaterialTypeRow],
) -> Vec<CompatibilityIssue> {
    let mut out = Vec::new();
    for t in types {
        for i in compat::check(caps, &compat::material_needs(t)) {
            out.push(CompatibilityIssue {
                severity: i.severity,
                check: i.check,
                message: i.message,
                material_name: t.name.clone(),
                printer_name: printer_name.to_string(),
            });
        }
    }
    out
}

/// The material types an operation prints (each once).
fn types_of_op<'a>(
    f: &OrderFacts,
    op: &OperationRow,
    types: &'a HashMap<i64, MaterialTypeRow>,
) -> Vec<&'a MaterialTypeRow> {
    let mut out: Vec<&MaterialTypeRow> = Vec::new();
    for m in f.materials.iter().filter(|m| m.operation_id == Some(op.id)) {
        if let Some(t) = types.get(&m.component_id)
            && !out.iter().any(|x| x.id == t.id)
        {
            out.push(t);
        }
    }
    out
}

async fn operation_findings(
    conn: &mut AsyncPgConnection,
    f: &OrderFacts,
    op: &OperationRow,
    types: &HashMap<i64, MaterialTypeRow>,
) -> AppResult<OperationCompatibility> {
    let resource: Option<i64> = production_order_operations::table
        .find(op.id)
        .select(production_order_operations::resource_id)
        .first(conn)
        .await?;
    let machine = machine(conn, op.printer_id, resource).await?;
    let issues = match &machine {
        Some((name, caps)) => issues_of(name, caps, &types_of_op(f, op, types)),
        None => Vec::new(),
    };
    Ok(OperationCompatibility {
        operation_id: op.id,
        operation_name: op.operation_name.clone(),
        printer_name: machine.map(|(n, _)| n),
        compatible: !issues.iter().any(|i| i.severity == Severity::Error),
        issues,
    })
}

/// Every operation's findings on the machine it is on.
pub async fn of_order(conn: &mut AsyncPgConnection, id: i64) -> AppResult<OrderCompatibility> {
    let f = OrderFacts::load(conn, id).await?;
    let items: Vec<i64> = f.materials.iter().map(|m| m.component_id).collect();
    let types = material_types_of(conn, &items).await?;
    let mut operations = Vec::new();
    for op in &f.operations {
        operations.push(operation_findings(conn, &f, op, &types).await?);
    }
    Ok(OrderCompatibility {
        production_order_id: f.order.id,
        production_order_code: f.order.code.clone(),
        compatible: operations.iter().all(|o| o.compatible),
        total_issues: operations.iter().map(|o| o.issues.len() as i64).sum(),
        operations,
    })
}

/// One operation's findings (404 unless it belongs to the order).
pub async fn of_operation(
    conn: &mut AsyncPgConnection,
    order: i64,
    op: i64,
) -> AppResult<OperationCompatibility> {
    let f = OrderFacts::load(conn, order)
        .await
        .map_err(|_| AppError::not_found("Operation not found"))?;
    let Some(row) = f.operations.iter().find(|o| o.id == op).cloned() else {
        return Err(AppError::not_found("Operation not found"));
    };
    let items: Vec<i64> = f.materials.iter().map(|m| m.component_id).collect();
    let types = material_types_of(conn, &items).await?;
    operation_findings(conn, &f, &row, &types).await
}

/// What the order's materials (all of them) need, and their types.
async fn order_needs(conn: &mut AsyncPgConnection, f: &OrderFacts) -> AppResult<MaterialNeeds> {
    let items: Vec<i64> = f.materials.iter().map(|m| m.component_id).collect();
    let types = material_types_of(conn, &items).await?;
    Ok(combined_needs(types.values()))
}

/// Whether the order can print on a machine (a printer, or a work center resource).
pub async fn on_machine(
    conn: &mut AsyncPgConnection,
    order: i64,
    resource_id: i64,
    is_printer: bool,
) -> AppResult<ResourceCompatibility> {
    let f = OrderFacts::load(conn, order).await?;
    let machine = if is_printer {
        machine(conn, Some(resource_id), None).await?
    } else {
        machine(conn, None, Some(resource_id)).await?
    };
    let Some((_, caps)) = machine else {
        return Err(AppError::not_found(if is_printer {
            "Printer not found"
        } else {
            "Resource not found"
        }));
    };
    let needs = order_needs(conn, &f).await?;
    Ok(match compat::compatible(&caps, &needs) {
        Ok(()) => ResourceCompatibility {
            compatible: true,
            reason: "Compatible".into(),
        },
        Err(reason) => ResourceCompatibility {
            compatible: false,
            reason,
        },
    })
}

/// Why an operation's materials cannot print on this printer (errors only; none when it
/// can): the check an operation start makes.
pub async fn refusals_on_printer(
    conn: &mut AsyncPgConnection,
    order: i64,
    op: i64,
    printer: i64,
) -> AppResult<Option<String>> {
    let f = OrderFacts::load(conn, order).await?;
    let Some(row) = f.operations.iter().find(|o| o.id == op) else {
        return Ok(None);
    };
    let items: Vec<i64> = f.materials.iter().map(|m| m.component_id).collect();
    let types = material_types_of(conn, &items).await?;
    let Some((_, caps)) = machine(conn, Some(printer), None).await? else {
        return Ok(None);
    };
    let needs = combined_needs(types_of_op(&f, row, &types));
    Ok(compat::compatible(&caps, &needs).err())
}
