//! The company's quality policy, from the company settings (`quality_mode`,
//! `quality_gate_action`, changed with `PUT /system/settings/{key}`), and what it implies.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::master_data::settings::model::{QualityGateAction, QualityMode, SETTINGS_ID};
use crate::platform::db::schema::company_settings;
use crate::platform::error::AppResult;

/// The quality policy and what it implies.
#[derive(Debug, Clone, Copy, SimpleObject)]
pub struct QualityPolicy {
    /// How much quality management the company runs.
    pub mode: QualityMode,
    /// What the inspection gate does in `full` mode.
    pub gate_action: QualityGateAction,
    /// The gate blocks (whatever the mode; FilaOps's older flag).
    pub gate_close: bool,
    /// Quality pages are on (the mode is not `off`).
    pub surfaces_enabled: bool,
    /// Inspections follow the product's quality plan (`full`).
    pub plan_driven: bool,
    /// The gate blocks and applies (`full` and `block`).
    pub gates_close: bool,
    /// The gate applies at all (`full`, and the action is not `off`).
    pub gate_enforced: bool,
}

impl QualityPolicy {
    /// The policy of a mode and gate action.
    pub fn of(mode: QualityMode, gate_action: QualityGateAction) -> QualityPolicy {
        let full = mode == QualityMode::Full;
        QualityPolicy {
            mode,
            gate_action,
            gate_close: gate_action == QualityGateAction::Block,
            surfaces_enabled: mode != QualityMode::Off,
            plan_driven: full,
            gates_close: full && gate_action == QualityGateAction::Block,
            gate_enforced: full && gate_action != QualityGateAction::Off,
        }
    }
}

/// The company's policy now (the defaults, `basic` and `warn`, when the settings row is
/// missing).
pub async fn current(conn: &mut AsyncPgConnection) -> AppResult<QualityPolicy> {
    let row: Option<(QualityMode, QualityGateAction)> = company_settings::table
        .find(SETTINGS_ID)
        .select((
            company_settings::quality_mode,
            company_settings::quality_gate_action,
        ))
        .first(conn)
        .await
        .optional()?;
    let (mode, gate) = row.unwrap_or((QualityMode::Basic, QualityGateAction::Warn));
    Ok(QualityPolicy::of(mode, gate))
}
