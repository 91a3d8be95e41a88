//! Steps without an operation type (made before types existed, or imported): an audit of
//! every distinct step code and name in routings and orders (what stages their materials
//! leave stock at now, what a type would change, how many open orders carry them), and a
//! classifier that proposes a type from the step's name and, when asked, sets it where the
//! step still has none. Steps that carry materials are never given a type that consumes
//! nothing: a person decides those.

use std::collections::HashMap;

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel::sql_types::{Array, BigInt, Bool, Nullable, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::routing::types::{self, type_for_code};
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::Stop;

/// The types that consume nothing: a step with materials is not given one by name.
const NO_CONSUME: [&str; 3] = ["QUALITY_CONTROL", "SANDING", "SUPPORT_REMOVAL"];

/// The name rules, in priority order: a word in the name, and the type it implies.
const RULES: [(&[&str], &str); 7] = [
    (
        &["pack", "ship", "label", "packag", "box", "mail"],
        "PACK_SHIP",
    ),
    (&[" qc ", "quality", "inspect"], "QUALITY_CONTROL"),
    (&["assembl"], "ASSEMBLY"),
    (&["print"], "FDM_PRINT"),
    (&["sand"], "SANDING"),
    (&["paint"], "PAINTING"),
    (
        &[
            "support",
            "clean",
            "postprocess",
            "post process",
            "post-process",
        ],
        "SUPPORT_REMOVAL",
    ),
];

/// The type a step's name implies, and why.
pub fn propose(name: Option<&str>, material_bearing: bool) -> (Option<&'static str>, String) {
    let padded = format!(
        " {} ",
        name.unwrap_or_default()
            .to_lowercase()
            .replace(['_', '/'], " ")
    );
    let hits: Vec<&'static str> = RULES
        .iter()
        .filter(|(words, _)| words.iter().any(|w| padded.contains(w)))
        .map(|(_, t)| *t)
        .collect();
    let Some(first) = <[&str]>::first(&hits).copied() else {
        return (None, "no rule matched — blank or unrecognized name".into());
    };
    if material_bearing && NO_CONSUME.contains(&first) {
        return (
            None,
            "needs manual decision — op carries material rows but matched a no-consume type".into(),
        );
    }
    let reason = if hits.len() > 1 {
        "mixed-name — priority applied".to_string()
    } else {
        format!("name matches {first}")
    };
    (Some(first), reason)
}

/// One distinct step code and name, as the audit sees it.
#[derive(Debug, Clone, SimpleObject)]
pub struct AuditRow {
    /// Step code.
    pub operation_code: Option<String>,
    /// Step name.
    pub operation_name: Option<String>,
    /// Routing steps with it.
    pub routing_op_count: i64,
    /// Order operations with it.
    pub po_op_count: i64,
    /// The type stored on them (the first, alphabetically).
    pub stored_operation_type: Option<String>,
    /// `stored-type`, `legacy-dict` (the code implies one) or `default`.
    pub match_source: String,
    /// Stages their materials leave stock at now.
    pub current_consume_stages: Vec<String>,
    /// The type the name implies (none when one is stored).
    pub proposed_type: Option<String>,
    /// Stages under the proposed type.
    pub proposed_consume_stages: Option<Vec<String>>,
    /// Whether the proposal changes when materials leave stock.
    pub behavior_changed: bool,
    /// Whether any of them carries materials.
    pub material_bearing: bool,
    /// Why the proposal is what it is.
    pub classification_reason: Option<String>,
    /// Open production orders carrying them.
    pub in_flight_non_terminal_po_count: i64,
    /// Other types stored on them.
    pub conflicting_stored_types: Option<Vec<String>>,
}

/// The audit.
#[derive(Debug, Clone, SimpleObject)]
pub struct OperationTypeAudit {
    /// One row per distinct code and name.
    pub rows: Vec<AuditRow>,
    /// How many rows.
    pub total_pairs: i64,
    /// Open orders carrying any of them.
    pub total_in_flight_exposure: i64,
}

/// One step the classifier looked at.
#[derive(Debug, Clone, SimpleObject)]
pub struct ProposalRow {
    /// `routing_operations` or `production_order_operations`.
    pub table: String,
    /// The step.
    pub row_id: i64,
    /// Its code.
    pub operation_code: Option<String>,
    /// Its name.
    pub operation_name: Option<String>,
    /// The type proposed.
    pub proposed_type: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// Whether it carries materials.
    pub material_bearing: bool,
    /// Stages now.
    pub before_stages: Vec<String>,
    /// Stages under the proposal.
    pub after_stages: Option<Vec<String>>,
    /// Its order (order operations).
    pub production_order_id: Option<i64>,
    /// That order's status.
    pub production_order_status: Option<String>,
}

/// What the classifier did.
#[derive(Debug, Clone, SimpleObject)]
pub struct ClassifyResult {
    /// Only proposed.
    pub dry_run: bool,
    /// Every untyped step.
    pub proposals: Vec<ProposalRow>,
    /// Steps given a type.
    pub applied_count: i64,
    /// Steps left for a person (materials, no-consume type).
    pub skipped_manual_decision_count: i64,
    /// Steps no rule matched.
    pub skipped_no_match_count: i64,
    /// Proposals on open orders.
    pub non_terminal_exposure_count: i64,
    /// Who applied (the user's id).
    pub applied_by: Option<i64>,
    /// When.
    pub applied_at: Option<Timestamp>,
}

#[derive(QueryableByName)]
struct Pair {
    #[diesel(sql_type = Nullable<Text>)]
    code: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    name: Option<String>,
    #[diesel(sql_type = BigInt)]
    routing_ops: i64,
    #[diesel(sql_type = BigInt)]
    po_ops: i64,
    #[diesel(sql_type = Array<Text>)]
    types: Vec<String>,
    #[diesel(sql_type = Bool)]
    material_bearing: bool,
    #[diesel(sql_type = BigInt)]
    in_flight: i64,
}

#[derive(QueryableByName)]
struct Untyped {
    #[diesel(sql_type = Text)]
    table: String,
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Nullable<Text>)]
    code: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    name: Option<String>,
    #[diesel(sql_type = Bool)]
    material_bearing: bool,
    #[diesel(sql_type = Nullable<BigInt>)]
    order_id: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    order_status: Option<String>,
}

/// The order statuses that are over.
const TERMINAL: &str = "('complete', 'closed', 'cancelled', 'scrapped', 'split')";

/// Every type's stages by code (inactive types too).
async fn stages(conn: &mut AsyncPgConnection) -> Result<HashMap<String, Vec<String>>, Stop> {
    Ok(types::list(conn, true)
        .await?
        .into_iter()
        .map(|t| (t.code, t.consume_stages))
        .collect())
}

/// The stages a step consumes at: its type's, else the one its code implies, else any.
fn resolve(
    all: &HashMap<String, Vec<String>>,
    stored: Option<&str>,
    code: Option<&str>,
) -> (Vec<String>, &'static str) {
    if let Some(s) = stored.and_then(|t| all.get(t)) {
        return (s.clone(), "stored-type");
    }
    if let Some(s) = code.and_then(type_for_code).and_then(|t| all.get(t)) {
        return (s.clone(), "legacy-dict");
    }
    (vec!["any".into()], "default")
}

/// The audit of every distinct step code and name.
pub async fn audit(conn: &mut AsyncPgConnection) -> Result<OperationTypeAudit, Stop> {
    let all = stages(conn).await?;
    let pairs: Vec<Pair> = diesel::sql_query(format!(
        "WITH ops AS ( \
             SELECT ro.operation_code AS code, ro.operation_name AS name, ro.operation_type AS t, TRUE AS routing, \
                    NULL::bigint AS po, EXISTS (SELECT 1 FROM routing_operation_materials m WHERE m.routing_operation_id = ro.id) AS mat \
             FROM routing_operations ro \
             UNION ALL \
             SELECT o.operation_code, o.operation_name, o.operation_type, FALSE, o.production_order_id, \
                    EXISTS (SELECT 1 FROM production_order_materials m WHERE m.operation_id = o.id) \
             FROM production_order_operations o) \
         SELECT ops.code, ops.name, count(*) FILTER (WHERE routing) AS routing_ops, \
                count(*) FILTER (WHERE NOT routing) AS po_ops, \
                COALESCE(array_agg(DISTINCT t ORDER BY t) FILTER (WHERE t IS NOT NULL), '{{}}') AS types, \
                bool_or(mat) AS material_bearing, \
                count(DISTINCT po) FILTER (WHERE p.status NOT IN {TERMINAL}) AS in_flight \
         FROM ops LEFT JOIN production_orders p ON p.id = ops.po \
         GROUP BY ops.code, ops.name ORDER BY COALESCE(ops.code, ''), COALESCE(ops.name, '')"
    ))
    .load(conn)
    .await?;
    let rows: Vec<AuditRow> = pairs
        .into_iter()
        .map(|p| {
            let stored = <[String]>::first(&p.types).cloned();
            let (current, source) = resolve(&all, stored.as_deref(), p.code.as_deref());
            let (proposed, reason) = if stored.is_some() {
                (None, None)
            } else {
                let (t, r) = propose(p.name.as_deref(), p.material_bearing);
                (t.map(str::to_string), Some(r))
            };
            let after = proposed.as_ref().and_then(|t| all.get(t).cloned());
            AuditRow {
                behavior_changed: after.as_ref().is_some_and(|a| *a != current),
                operation_code: p.code,
                operation_name: p.name,
                routing_op_count: p.routing_ops,
                po_op_count: p.po_ops,
                conflicting_stored_types: (p.types.len() > 1).then(|| p.types[1..].to_vec()),
                stored_operation_type: stored,
                match_source: source.into(),
                current_consume_stages: current,
                proposed_type: proposed,
                proposed_consume_stages: after,
                material_bearing: p.material_bearing,
                classification_reason: reason,
                in_flight_non_terminal_po_count: p.in_flight,
            }
        })
        .collect();
    Ok(OperationTypeAudit {
        total_pairs: rows.len() as i64,
        total_in_flight_exposure: rows.iter().map(|r| r.in_flight_non_terminal_po_count).sum(),
        rows,
    })
}

/// Proposes a type for every step without one and, unless `dry_run`, sets it where the
/// step still has none (in the caller's transaction).
pub async fn classify(
    conn: &mut AsyncPgConnection,
    dry_run: bool,
    user: i64,
) -> Result<ClassifyResult, Stop> {
    let all = stages(conn).await?;
    let untyped: Vec<Untyped> = diesel::sql_query(
        "SELECT 'routing_operations' AS table, ro.id, ro.operation_code AS code, ro.operation_name AS name, \
                EXISTS (SELECT 1 FROM routing_operation_materials m WHERE m.routing_operation_id = ro.id) AS material_bearing, \
                NULL::bigint AS order_id, NULL::text AS order_status \
         FROM routing_operations ro WHERE ro.operation_type IS NULL \
         UNION ALL \
         SELECT 'production_order_operations', o.id, o.operation_code, o.operation_name, \
                EXISTS (SELECT 1 FROM production_order_materials m WHERE m.operation_id = o.id), \
                p.id, p.status \
         FROM production_order_operations o JOIN production_orders p ON p.id = o.production_order_id \
         WHERE o.operation_type IS NULL \
         ORDER BY 1 DESC, 2",
    )
    .load(conn)
    .await?;
    let mut result = ClassifyResult {
        dry_run,
        proposals: Vec::new(),
        applied_count: 0,
        skipped_manual_decision_count: 0,
        skipped_no_match_count: 0,
        non_terminal_exposure_count: 0,
        applied_by: None,
        applied_at: None,
    };
    for u in untyped {
        let (proposed, reason) = propose(u.name.as_deref(), u.material_bearing);
        let (before, _) = resolve(&all, None, u.code.as_deref());
        match proposed {
            None if reason.starts_with("needs manual") => result.skipped_manual_decision_count += 1,
            None => result.skipped_no_match_count += 1,
            Some(_) => {}
        }
        let open = u
            .order_status
            .as_deref()
            .is_some_and(|s| !TERMINAL.contains(&format!("'{s}'")));
        if proposed.is_some() && open {
            result.non_terminal_exposure_count += 1;
        }
        if let (Some(t), false) = (proposed, dry_run) {
            let sql = format!(
                "UPDATE {} SET operation_type = $1 WHERE id = $2 AND operation_type IS NULL",
                if u.table == "routing_operations" {
                    "routing_operations"
                } else {
                    "production_order_operations"
                }
            );
            result.applied_count += diesel::sql_query(sql)
                .bind::<Text, _>(t)
                .bind::<BigInt, _>(u.id)
                .execute(conn)
                .await? as i64;
        }
        result.proposals.push(ProposalRow {
            table: u.table,
            row_id: u.id,
            operation_code: u.code,
            operation_name: u.name,
            after_stages: proposed.and_then(|t| all.get(t).cloned()),
            proposed_type: proposed.map(str::to_string),
            reason: Some(reason),
            material_bearing: u.material_bearing,
            before_stages: before,
            production_order_id: u.order_id,
            production_order_status: u.order_status,
        });
    }
    if result.applied_count > 0 {
        result.applied_by = Some(user);
        result.applied_at = Some(Timestamp(chrono::Utc::now()));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::propose;

    #[test]
    fn names_imply_types_by_priority_and_material_steps_wait_for_a_person() {
        assert_eq!(propose(Some("Print plate"), false).0, Some("FDM_PRINT"));
        assert_eq!(propose(Some("QC"), false).0, Some("QUALITY_CONTROL"));
        assert_eq!(
            propose(Some("Pack & print label"), false).0,
            Some("PACK_SHIP")
        );
        assert_eq!(
            propose(Some("Pack & print label"), false).1,
            "mixed-name — priority applied"
        );
        assert_eq!(propose(Some("Sanding"), true).0, None);
        assert!(
            propose(Some("Sanding"), true)
                .1
                .starts_with("needs manual decision")
        );
        assert_eq!(propose(Some("Paint"), true).0, Some("PAINTING"));
        assert_eq!(propose(None, false).0, None);
        assert_eq!(propose(Some("Anneal"), false).0, None);
    }
}
