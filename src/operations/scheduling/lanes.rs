//! The shop as the engine sees it, read in a handful of statements: every active printer
//! and resource as a lane (the work centers it serves, its work center's hours, its
//! capabilities) with what already takes its time in a window (booked operations and
//! blocking maintenance windows), and what each production order's material asks of a
//! printer.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use serde_json::Value;

use crate::master_data::catalog::model::ItemType;
use crate::operations::production::model::{OperationStatus, WorkCenterType};
use crate::operations::scheduling::engine::{
    Busy, BusyKind, Calendar, Lane, LaneKey, MachineCaps, MaterialNeeds, Span,
};
use crate::platform::db::schema::{
    items, material_colors, material_types, printers, production_order_materials,
    production_order_operations, resources, work_centers,
};
use crate::platform::error::AppResult;

/// Operations that no longer take machine time.
pub const FINISHED: [OperationStatus; 2] = [OperationStatus::Complete, OperationStatus::Skipped];

/// What a board shows of a lane beside the engine's facts.
#[derive(Debug, Clone)]
pub struct LaneInfo {
    /// The machine's code.
    pub code: String,
    /// Its name.
    pub name: String,
    /// Its status (printer or resource status, as text).
    pub status: String,
    /// Its work center's code.
    pub work_center_code: Option<String>,
    /// Its work center.
    pub work_center_id: Option<i64>,
}

/// Lanes with what the board needs to describe them.
#[derive(Debug, Default)]
pub struct Shop {
    /// The lanes, printers then resources, by code.
    pub lanes: Vec<Lane>,
    /// Per lane.
    pub info: HashMap<LaneKey, LaneInfo>,
    /// Every work center's kind.
    pub center_types: HashMap<i64, WorkCenterType>,
}

impl Shop {
    /// A lane by key.
    pub fn lane(&self, key: LaneKey) -> Option<&Lane> {
        self.lanes.iter().find(|l| l.key == key)
    }
}

/// The lane key of a printer or a resource id.
pub fn key(id: i64, is_printer: bool) -> LaneKey {
    if is_printer {
        LaneKey::Printer(id)
    } else {
        LaneKey::Resource(id)
    }
}

/// Loads every active machine with what takes its time inside `window`.
pub async fn load(conn: &mut AsyncPgConnection, window: Span) -> AppResult<Shop> {
    let centers: Vec<(i64, String, WorkCenterType)> = work_centers::table
        .select((
            work_centers::id,
            work_centers::code,
            work_centers::center_type,
        ))
        .load(conn)
        .await?;
    let center_ids: Vec<i64> = centers.iter().map(|c| c.0).collect();
    let calendars = crate::operations::scheduling::hours::calendars(conn, &center_ids).await?;
    let code_of =
        |id: Option<i64>| id.and_then(|id| centers.iter().find(|c| c.0 == id).map(|c| c.1.clone()));
    let calendar_of = |id: Option<i64>| {
        id.and_then(|id| calendars.get(&id).cloned())
            .unwrap_or_else(Calendar::always_open)
    };
    let mut shop = Shop {
        center_types: centers.iter().map(|c| (c.0, c.2)).collect(),
        ..Shop::default()
    };
    add_machines(conn, &mut shop, &code_of, &calendar_of).await?;
    let booked = booked_in(conn, window).await?;
    let orders: Vec<i64> = booked.iter().map(|b| b.order_id).collect();
    let keys = setup_keys(conn, &orders).await?;
    for b in booked {
        if let Some(lane) = shop.lanes.iter_mut().find(|l| l.key == b.lane) {
            lane.busy.push(Busy {
                span: b.span,
                kind: BusyKind::Operation {
                    op_id: b.op_id,
                    order_id: b.order_id,
                    setup_key: keys.get(&b.order_id).cloned(),
                },
            });
        }
    }
    for w in blocking_windows(conn, window).await? {
        let (id, printer, resource, start, end) = (
            w.id,
            w.printer_id,
            w.resource_id,
            w.starts_at.0,
            w.ends_at.0,
        );
        let lane = printer
            .map(LaneKey::Printer)
            .or(resource.map(LaneKey::Resource));
        if let (Some(lane), Some(span)) = (lane, Span::new(start, end))
            && let Some(l) = shop.lanes.iter_mut().find(|l| l.key == lane)
        {
            l.busy.push(Busy {
                span,
                kind: BusyKind::Maintenance { window_id: id },
            });
        }
    }
    Ok(shop)
}

/// One booked operation.
#[derive(Debug, Clone)]
pub struct Booked {
    /// The operation.
    pub op_id: i64,
    /// Its order.
    pub order_id: i64,
    /// Where.
    pub lane: LaneKey,
    /// When.
    pub span: Span,
}

/// Operations not finished, booked on a machine, overlapping the window.
pub async fn booked_in(conn: &mut AsyncPgConnection, window: Span) -> AppResult<Vec<Booked>> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        i64,
        Option<i64>,
        Option<i64>,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
    )> = production_order_operations::table
        .filter(production_order_operations::status.ne_all(FINISHED))
        .filter(production_order_operations::scheduled_start.lt(window.end))
        .filter(production_order_operations::scheduled_end.gt(window.start))
        .filter(
            production_order_operations::printer_id
                .is_not_null()
                .or(production_order_operations::resource_id.is_not_null()),
        )
        .select((
            production_order_operations::id,
            production_order_operations::production_order_id,
            production_order_operations::printer_id,
            production_order_operations::resource_id,
            production_order_operations::scheduled_start,
            production_order_operations::scheduled_end,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(op_id, order_id, printer, resource, start, end)| {
            let lane = printer
                .map(LaneKey::Printer)
                .or(resource.map(LaneKey::Resource))?;
            Some(Booked {
                op_id,
                order_id,
                lane,
                span: Span::new(start?, end?)?,
            })
        })
        .collect())
}

/// Scheduled and in-progress maintenance windows overlapping the window (every one: the
/// schedule must see them all).
pub async fn blocking_windows(
    conn: &mut AsyncPgConnection,
    window: Span,
) -> AppResult<Vec<crate::operations::scheduling::windows::MaintenanceWindowRow>> {
    let filter = crate::operations::scheduling::windows::WindowFilter {
        start: Some(window.start),
        end: Some(window.end),
        ..Default::default()
    };
    Ok(
        crate::operations::scheduling::windows::list(conn, &filter, i64::from(i32::MAX), 0)
            .await?
            .0,
    )
}

/// The material items each order uses (its material lines), with their material types.
async fn materials_of(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<Vec<(i64, i64, Option<(String, bool, Option<i32>, Option<i32>)>)>> {
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        i64,
        i64,
        Option<String>,
        Option<bool>,
        Option<i32>,
        Option<i32>,
    )> = production_order_materials::table
        .inner_join(items::table.on(items::id.eq(production_order_materials::component_id)))
        .left_join(material_colors::table.on(material_colors::item_id.eq(items::id.nullable())))
        .left_join(
            material_types::table.on(material_types::id.eq(material_colors::material_type_id)),
        )
        .filter(production_order_materials::production_order_id.eq_any(orders))
        .filter(
            items::item_type
                .eq(ItemType::Material)
                .or(material_colors::id.is_not_null()),
        )
        .order((
            production_order_materials::production_order_id,
            production_order_materials::id,
        ))
        .select((
            production_order_materials::production_order_id,
            items::id,
            material_types::name.nullable(),
            material_types::requires_enclosure.nullable(),
            material_types::nozzle_temp_c.nullable(),
            material_types::bed_temp_c.nullable(),
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(order, item, name, enclosure, nozzle, bed)| {
            (
                order,
                item,
                name.map(|n| (n, enclosure.unwrap_or(false), nozzle, bed)),
            )
        })
        .collect())
}

/// What each order's material asks of a printer, and its set-up key (the first material
/// item: consecutive jobs on one printer with the same material and colour skip set-up).
pub async fn order_needs(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<HashMap<i64, (MaterialNeeds, Option<String>)>> {
    let mut out: HashMap<i64, (MaterialNeeds, Option<String>)> = HashMap::new();
    for (order, item, material) in materials_of(conn, orders).await? {
        let slot = out
            .entry(order)
            .or_insert_with(|| (MaterialNeeds::default(), Some(format!("item:{item}"))));
        if let Some((name, enclosure, nozzle, bed)) = material {
            let needs = &mut slot.0;
            needs.material.get_or_insert(name);
            needs.requires_enclosure |= enclosure;
            needs.nozzle_temp_c = needs.nozzle_temp_c.max(nozzle);
            needs.bed_temp_c = needs.bed_temp_c.max(bed);
        }
    }
    Ok(out)
}

async fn setup_keys(
    conn: &mut AsyncPgConnection,
    orders: &[i64],
) -> AppResult<HashMap<i64, String>> {
    Ok(order_needs(conn, orders)
        .await?
        .into_iter()
        .filter_map(|(order, (_, key))| key.map(|k| (order, k)))
        .collect())
}

/// What an operation on this work center asks of its machine: the order's material needs
/// on a printer pool, nothing elsewhere.
pub fn needs_on(
    shop: &Shop,
    work_center_id: i64,
    order: &(MaterialNeeds, Option<String>),
) -> MaterialNeeds {
    match shop.center_types.get(&work_center_id) {
        Some(WorkCenterType::PrinterPool) => order.0.clone(),
        _ => MaterialNeeds::default(),
    }
}

/// Adds every active printer and resource as a lane (busy time comes later).
async fn add_machines(
    conn: &mut AsyncPgConnection,
    shop: &mut Shop,
    code_of: &impl Fn(Option<i64>) -> Option<String>,
    calendar_of: &impl Fn(Option<i64>) -> Calendar,
) -> AppResult<()> {
    #[allow(clippy::type_complexity)]
    let machines: Vec<(i64, String, String, String, String, Value, Option<i64>)> = printers::table
        .filter(printers::active.eq(true))
        .order(printers::code)
        .select((
            printers::id,
            printers::code,
            printers::name,
            printers::model,
            printers::status,
            printers::capabilities,
            printers::work_center_id,
        ))
        .load(conn)
        .await?;
    for (id, code, name, model, status, capabilities, center) in machines {
        let key = LaneKey::Printer(id);
        // A printer serves its own work center only: one outside any work center is shown
        // but takes no booking until it is put in one (so a test printer or a spare on a
        // shelf never receives work by accident).
        let serves: Vec<i64> = center.into_iter().collect();
        shop.lanes.push(Lane {
            key,
            code: code.clone(),
            work_center_ids: serves,
            calendar: calendar_of(center),
            caps: crate::operations::printers::compat::machine_caps(&capabilities, &model),
            busy: Vec::new(),
        });
        shop.info.insert(
            key,
            LaneInfo {
                code,
                name,
                status,
                work_center_code: code_of(center),
                work_center_id: center,
            },
        );
    }
    let others: Vec<(i64, String, String, String, i64)> = resources::table
        .filter(resources::is_active.eq(true))
        .order(resources::code)
        .select((
            resources::id,
            resources::code,
            resources::name,
            resources::status,
            resources::work_center_id,
        ))
        .load(conn)
        .await?;
    for (id, code, name, status, center) in others {
        let key = LaneKey::Resource(id);
        shop.lanes.push(Lane {
            key,
            code: code.clone(),
            work_center_ids: vec![center],
            calendar: calendar_of(Some(center)),
            // Wash and cure stations take any material: their operations ask nothing of them.
            caps: MachineCaps {
                enclosed: true,
                max_nozzle_temp_c: None,
                max_bed_temp_c: None,
                ..Default::default()
            },
            busy: Vec::new(),
        });
        shop.info.insert(
            key,
            LaneInfo {
                code,
                name,
                status,
                work_center_code: code_of(Some(center)),
                work_center_id: Some(center),
            },
        );
    }
    Ok(())
}
