//! Maintenance window rules: exactly one machine, which exists; an end after the start; a
//! reason of up to 255 characters; no overlap with another window still blocking the same
//! machine (the machine's row is locked first, so two plans cannot both pass); operations
//! already booked over the window are allowed and reported. Only a scheduled or in-progress
//! window is cancelled or completed (the window's row is locked, so of two completes one
//! wins); completing a printer's window writes its maintenance log through the printers'
//! rules, in the same transaction.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::printers::maintenance::{MaintenanceForm, MaintenanceType};
use crate::operations::scheduling::model;
use crate::operations::scheduling::rules::REASON_MAX;
use crate::operations::scheduling::windows::{
    self, BLOCKING, Machine, MaintenanceWindowCompleteInput, MaintenanceWindowCreateInput,
    MaintenanceWindowRow, MaintenanceWindowStatus, NewWindow,
};
use crate::platform::auth::viewer::CurrentUser;
use crate::platform::db::schema::printers;
use crate::platform::db::text;
use crate::platform::error::AppError;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// The description of the maintenance log of a window planned without a reason.
pub const DEFAULT_DESCRIPTION: &str = "Planned maintenance";

/// The machine a new window names: exactly one of printer and resource.
pub fn machine_of(input: &MaintenanceWindowCreateInput) -> Result<Machine, UserError> {
    match (input.printer_id, input.resource_id) {
        (Some(p), None) => Ok(Machine::Printer(p)),
        (None, Some(r)) => Ok(Machine::Resource(r)),
        _ => Err(UserError::new(
            "printerId",
            UserErrorCode::NotAllowed,
            "Exactly one of printer_id or resource_id is required",
        )),
    }
}

/// Checks and normalises a new window's time range and reason.
pub fn check_window(input: &mut MaintenanceWindowCreateInput) -> Vec<UserError> {
    let mut errors = Vec::new();
    let mut reason = Some(input.reason.take());
    text::clearable(&mut errors, "reason", &mut reason, REASON_MAX);
    input.reason = reason.flatten();
    if input.ends_at.0 <= input.starts_at.0 {
        errors.push(invalid("endsAt", "Must be after startsAt"));
    }
    errors
}

/// Locks the machine's row (so two plans for one machine run one after the other), or
/// refuses a machine that does not exist.
async fn lock_machine(conn: &mut AsyncPgConnection, machine: Machine) -> Result<(), Stop> {
    let found = match machine {
        Machine::Printer(id) => printers::table
            .find(id)
            .select(printers::id)
            .for_update()
            .first::<i64>(conn)
            .await
            .optional()?
            .is_some(),
        Machine::Resource(id) => model::lock(conn, id).await?.is_some(),
    };
    if found {
        return Ok(());
    }
    Err(match machine {
        Machine::Printer(_) => {
            Stop::refuse("printerId", UserErrorCode::NotFound, "Printer not found")
        }
        Machine::Resource(_) => {
            Stop::refuse("resourceId", UserErrorCode::NotFound, "Resource not found")
        }
    })
}

fn minute_text(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// Plans a window on one machine for `created_by` (an e-mail). Answers the window and the
/// operations booked on the machine over it that are not done (allowed: the planner sees
/// what must move).
pub async fn create_window(
    conn: &mut AsyncPgConnection,
    mut input: MaintenanceWindowCreateInput,
    created_by: &str,
) -> Result<(MaintenanceWindowRow, Vec<i64>), Stop> {
    let machine = machine_of(&input).map_err(|e| Stop::Refused(vec![e]))?;
    let errors = check_window(&mut input);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    lock_machine(conn, machine).await?;
    let (starts, ends) = (input.starts_at.0, input.ends_at.0);
    if let Some(other) = windows::first_overlap(conn, machine, starts, ends).await? {
        return Err(Stop::refuse(
            "startsAt",
            UserErrorCode::NotAllowed,
            format!(
                "Overlaps maintenance window #{} ({} to {})",
                other.id,
                minute_text(other.starts_at.0),
                minute_text(other.ends_at.0)
            ),
        ));
    }
    let window = windows::insert(
        conn,
        &NewWindow {
            printer_id: input.printer_id,
            resource_id: input.resource_id,
            starts_at: starts,
            ends_at: ends,
            reason: input.reason,
            created_by: Some(created_by.to_string()),
        },
    )
    .await?;
    let booked = windows::booked_operations(conn, machine, starts, ends).await?;
    Ok((window, booked))
}

/// Locks a window that still blocks its machine: `Maintenance window not found` is a 404,
/// a completed or cancelled one is refused (400) for `action` ("cancelled", "completed").
async fn lock_open(
    conn: &mut AsyncPgConnection,
    id: i64,
    action: &str,
) -> Result<MaintenanceWindowRow, Stop> {
    let window = windows::lock(conn, id)
        .await?
        .ok_or_else(|| AppError::not_found("Maintenance window not found"))?;
    if !BLOCKING.contains(&window.status) {
        return Err(Stop::Refused(vec![UserError::general(
            UserErrorCode::NotAllowed,
            format!(
                "Maintenance window {id} is {} and cannot be {action}",
                window.status
            ),
        )]));
    }
    Ok(window)
}

/// Cancels a scheduled or in-progress window.
pub async fn cancel_window(
    conn: &mut AsyncPgConnection,
    id: i64,
) -> Result<MaintenanceWindowRow, Stop> {
    lock_open(conn, id, "cancelled").await?;
    Ok(windows::close(conn, id, MaintenanceWindowStatus::Cancelled, None).await?)
}

/// The maintenance log a printer's window writes when completed at `now`: performed when
/// the window ended (or now, when that is earlier), down for the window's span up to then,
/// described by the window's reason.
pub fn log_form(
    window: &MaintenanceWindowRow,
    input: MaintenanceWindowCompleteInput,
    now: DateTime<Utc>,
) -> MaintenanceForm {
    let performed = now.min(window.ends_at.0);
    let downtime = (performed - window.starts_at.0).num_minutes().max(0);
    MaintenanceForm {
        maintenance_type: Some(input.maintenance_type.unwrap_or(MaintenanceType::Routine)),
        description: Some(
            window
                .reason
                .clone()
                .unwrap_or_else(|| DEFAULT_DESCRIPTION.into()),
        ),
        performed_by: Some(input.performed_by),
        performed_at: Some(Timestamp(performed)),
        next_due_at: Some(input.next_due_at),
        cost: Some(input.cost),
        downtime_minutes: Some(Some(i32::try_from(downtime).unwrap_or(i32::MAX))),
        parts_used: None,
        notes: Some(input.notes),
    }
}

/// Completes a scheduled or in-progress window as `user`: a printer's window writes its
/// maintenance log (checked by the printers' rules; who did it defaults to the user's
/// e-mail) and links it; a resource's window just closes.
pub async fn complete_window(
    conn: &mut AsyncPgConnection,
    id: i64,
    input: MaintenanceWindowCompleteInput,
    user: &CurrentUser,
) -> Result<MaintenanceWindowRow, Stop> {
    let window = lock_open(conn, id, "completed").await?;
    let log_id = match window.printer_id {
        Some(printer_id) => {
            let form = log_form(&window, input, Utc::now());
            let log = crate::operations::printers::rules::create_maintenance(
                conn, printer_id, form, user,
            )
            .await?
            .map_err(Stop::Refused)?;
            Some(log.id)
        }
        None => None,
    };
    Ok(windows::close(conn, id, MaintenanceWindowStatus::Completed, log_id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 1, h, 0, 0)
            .single()
            .expect("valid time")
    }

    fn input(printer: Option<i64>, resource: Option<i64>) -> MaintenanceWindowCreateInput {
        MaintenanceWindowCreateInput {
            printer_id: printer,
            resource_id: resource,
            starts_at: Timestamp(at(8)),
            ends_at: Timestamp(at(10)),
            reason: Some("  Replace belts ".into()),
        }
    }

    #[test]
    fn one_machine_a_range_and_a_reason() {
        assert_eq!(
            machine_of(&input(Some(1), None)).ok(),
            Some(Machine::Printer(1))
        );
        assert_eq!(
            machine_of(&input(None, Some(2))).ok(),
            Some(Machine::Resource(2))
        );
        for bad in [input(None, None), input(Some(1), Some(2))] {
            let e = machine_of(&bad).expect_err("exactly one");
            assert_eq!(e.code, UserErrorCode::NotAllowed);
            assert_eq!(
                e.message,
                "Exactly one of printer_id or resource_id is required"
            );
        }
        let mut ok = input(Some(1), None);
        assert!(check_window(&mut ok).is_empty());
        assert_eq!(ok.reason.as_deref(), Some("Replace belts"));
        let mut blank = input(Some(1), None);
        blank.reason = Some("   ".into());
        assert!(check_window(&mut blank).is_empty());
        assert_eq!(blank.reason, None);
        let mut bad = input(Some(1), None);
        bad.ends_at = bad.starts_at;
        bad.reason = Some("r".repeat(256));
        let fields: Vec<Option<String>> = check_window(&mut bad)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(fields, [Some("reason".into()), Some("endsAt".into())]);
    }

    #[test]
    fn the_log_of_a_completed_window() {
        let window = MaintenanceWindowRow {
            id: 1,
            printer_id: Some(3),
            resource_id: None,
            starts_at: Timestamp(at(8)),
            ends_at: Timestamp(at(10)),
            reason: None,
            status: MaintenanceWindowStatus::InProgress,
            maintenance_log_id: None,
            created_by: None,
            created_at: Timestamp(at(7)),
            updated_at: Timestamp(at(7)),
        };
        // Completed after the end: performed at the end, down for the whole window.
        let late = log_form(&window, Default::default(), at(12));
        assert_eq!(late.performed_at, Some(Timestamp(at(10))));
        assert_eq!(late.downtime_minutes, Some(Some(120)));
        assert_eq!(late.maintenance_type, Some(MaintenanceType::Routine));
        assert_eq!(late.description.as_deref(), Some(DEFAULT_DESCRIPTION));
        // Completed early: performed now, down until now.
        let early = log_form(
            &window,
            MaintenanceWindowCompleteInput {
                maintenance_type: Some(MaintenanceType::Repair),
                ..Default::default()
            },
            at(9) - Duration::minutes(15),
        );
        assert_eq!(early.downtime_minutes, Some(Some(45)));
        assert_eq!(early.maintenance_type, Some(MaintenanceType::Repair));
        // Completed before it began: no downtime.
        let before = log_form(&window, Default::default(), at(6));
        assert_eq!(before.downtime_minutes, Some(Some(0)));
        assert_eq!(before.performed_at, Some(Timestamp(at(6))));
    }
}
