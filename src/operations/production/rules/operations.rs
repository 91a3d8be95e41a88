//! An order's operations (its routing steps): blocking issues, start, complete, skip and
//! schedule.

use super::*;

pub(super) async fn locked_operation(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
) -> Result<OperationRow, Stop> {
    production_order_operations::table
        .find(op_id)
        .filter(production_order_operations::production_order_id.eq(order_id))
        .select(OperationRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| {
            Stop::refuse(
                "operationId",
                UserErrorCode::NotFound,
                "Operation not found",
            )
        })
}

pub(super) fn check_op_transition(from: OperationStatus, to: OperationStatus) -> Result<(), Stop> {
    match operation_transition_error(from, to) {
        Some(m) => Err(not_allowed(m)),
        None => Ok(()),
    }
}

const EARLIER_UNFINISHED: &str = "Earlier operations are not finished";

/// Materials still to consume that are neither reserved nor available: for one operation
/// (its own lines and those tied to no operation) or, with `None`, for the whole order.
pub(super) async fn missing_materials(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    operation: Option<i64>,
) -> Result<Vec<String>, Stop> {
    let mut issues = Vec::new();
    for m in model::materials_of(conn, &[order.id]).await? {
        if let (Some(only), Some(of)) = (operation, m.operation_id)
            && only != of
        {
            continue;
        }
        let open = &m.quantity_required.0 - &m.quantity_consumed.0;
        if open <= BigDecimal::zero() {
            continue;
        }
        let available = ledger::balance(conn, m.component_id, m.location_id)
            .await?
            .map(|b| b.available_quantity.0)
            .unwrap_or_default();
        if &m.quantity_allocated.0 + available.max(BigDecimal::zero()) < open {
            let sku: String = items::table
                .find(m.component_id)
                .select(items::sku)
                .first(conn)
                .await?;
            issues.push(format!(
                "Missing material: {sku} needs {} {}, {} reserved",
                open.normalized(),
                m.unit,
                m.quantity_allocated.0.normalized()
            ));
        }
    }
    Ok(issues)
}

/// Why an order cannot go on now (empty: it can): its status, then what blocks its next
/// queued operation (earlier steps, material, printer), or, without operations, its material.
pub async fn order_blocking_issues(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
) -> Result<Vec<String>, Stop> {
    let next = model::operations_of(conn, &[order.id])
        .await?
        .into_iter()
        .filter(|o| o.status == OperationStatus::Queued)
        .min_by_key(|o| o.sequence);
    let mut issues = match &next {
        Some(op) => blocking_issues(conn, order, op, None).await?,
        None => {
            let mut issues = Vec::new();
            if !matches!(
                order.status,
                OrderStatus::InProgress | OrderStatus::Released
            ) {
                issues.push(format!("Production order is {}", order.status));
            }
            issues.extend(missing_materials(conn, order, None).await?);
            issues
        }
    };
    // An earlier step still running is progress, not a block, for the order as a whole.
    issues.retain(|i| i != EARLIER_UNFINISHED);
    issues.dedup();
    Ok(issues)
}

/// Why an operation cannot start now (empty: it can).
pub async fn blocking_issues(
    conn: &mut AsyncPgConnection,
    order: &OrderRow,
    op: &OperationRow,
    printer_id: Option<i64>,
) -> Result<Vec<String>, Stop> {
    let mut issues = Vec::new();
    if !matches!(
        order.status,
        OrderStatus::InProgress | OrderStatus::Released
    ) {
        issues.push(format!("Production order is {}", order.status));
    }
    if op.status != OperationStatus::Queued {
        issues.push(format!("Operation is {}, not queued", op.status));
    }
    let earlier: i64 = production_order_operations::table
        .filter(production_order_operations::production_order_id.eq(order.id))
        .filter(production_order_operations::sequence.lt(op.sequence))
        .filter(
            production_order_operations::status
                .ne_all([OperationStatus::Complete, OperationStatus::Skipped]),
        )
        .count()
        .get_result(conn)
        .await?;
    if earlier > 0 {
        issues.push(EARLIER_UNFINISHED.into());
    }
    issues.extend(missing_materials(conn, order, Some(op.id)).await?);
    if let Some(p) = printer_id.or(op.printer_id) {
        let printer: Option<(String, PrinterStatus, bool)> = printers::table
            .find(p)
            .select((printers::code, printers::status, printers::active))
            .first(conn)
            .await
            .optional()?;
        match printer {
            None => issues.push("Printer not found".into()),
            Some((code, status, active)) => {
                if !active {
                    issues.push(format!("Printer {code} is inactive"));
                }
                if matches!(
                    status,
                    PrinterStatus::Maintenance | PrinterStatus::Error | PrinterStatus::Offline
                ) {
                    issues.push(format!("Printer {code} is in {status}"));
                }
                let busy: i64 = production_order_operations::table
                    .filter(production_order_operations::printer_id.eq(p))
                    .filter(production_order_operations::status.eq(OperationStatus::Running))
                    .filter(production_order_operations::id.ne(op.id))
                    .count()
                    .get_result(conn)
                    .await?;
                if busy > 0 || status == PrinterStatus::Printing {
                    issues.push(format!("Printer {code} is busy"));
                }
            }
        }
    }
    Ok(issues)
}

/// Starting an operation.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationStartInput {
    /// The printer to run it on.
    pub printer_id: Option<i64>,
    /// The operator.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub operator_name: Option<String>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
    /// The Bambu Lab printer's task id of the print job sent for it.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::operations::production::rules::ASSIGNEE_MAX))]
    pub bambu_task_id: Option<String>,
    /// The plate of a multi-plate Bambu Lab project (1-64).
    pub bambu_plate_index: Option<i32>,
}

/// Starts a queued operation: the order starts too when it is only released; the printer, if
/// any, goes to `printing`. Refused with the blocking issues when it cannot start.
pub async fn operation_start(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut input: OperationStartInput,
    user: Option<i64>,
) -> Result<(OperationRow, Option<i64>), Stop> {
    let mut order = locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Running)?;
    let mut errors = Vec::new();
    optional_text(
        &mut errors,
        "operatorName",
        &mut input.operator_name,
        ASSIGNEE_MAX,
    );
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    optional_text(
        &mut errors,
        "bambuTaskId",
        &mut input.bambu_task_id,
        ASSIGNEE_MAX,
    );
    if let Some(plate) = input.bambu_plate_index
        && !(1..=64).contains(&plate)
    {
        errors.push(invalid(
            "bambuPlateIndex",
            "Plate index must be between 1 and 64",
        ));
    }
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    if let Some(printer) = input.printer_id.or(op.printer_id)
        && let Some(reason) = crate::operations::production::detail::compat::refusals_on_printer(
            conn, order_id, op_id, printer,
        )
        .await?
    {
        return Err(not_allowed(format!("Cannot start operation: {reason}")));
    }
    let issues = blocking_issues(conn, &order, &op, input.printer_id).await?;
    if let Some(first) = <[_]>::first(&issues) {
        return Err(not_allowed(format!("Cannot start operation: {first}")));
    }
    if order.status == OrderStatus::Released {
        order = start(conn, order_id, user).await?;
    }
    // What this step consumes leaves stock when it starts.
    issue_materials(conn, &order, |m| m.operation_id == Some(op_id), user).await?;
    let printer = input.printer_id.or(op.printer_id);
    if let Some(p) = printer {
        diesel::update(printers::table.find(p))
            .set((
                printers::status.eq(PrinterStatus::Printing),
                printers::last_seen.eq(Some(now())),
            ))
            .execute(conn)
            .await?;
    }
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Running),
            production_order_operations::printer_id.eq(printer),
            production_order_operations::actual_start.eq(Some(now())),
            input
                .operator_name
                .map(|o| production_order_operations::operator_name.eq(Some(o))),
            input
                .notes
                .map(|n| production_order_operations::notes.eq(Some(n))),
            input
                .bambu_task_id
                .map(|t| production_order_operations::bambu_task_id.eq(Some(t))),
            input
                .bambu_plate_index
                .map(|p| production_order_operations::bambu_plate_index.eq(Some(p))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    Ok((row, printer))
}

/// Completing an operation.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationCompleteInput {
    /// Good units.
    pub quantity_completed: Option<Decimal>,
    /// Scrapped units.
    pub quantity_scrapped: Option<Decimal>,
    /// Actual setup minutes.
    pub actual_setup_minutes: Option<Decimal>,
    /// Actual run minutes (default: the time since it started).
    pub actual_run_minutes: Option<Decimal>,
    /// Notes.
    #[graphql(directive = crate::platform::graphql::limits::length::apply(crate::ledgers::inventory::rules::NOTES_MAX))]
    pub notes: Option<String>,
}

/// Completes a running operation: actual minutes, quantities, the printer back to `idle`, and
/// the next pending operation queued.
pub async fn operation_complete(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut input: OperationCompleteInput,
) -> Result<(OperationRow, Option<i64>), Stop> {
    let order = locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Complete)?;
    let mut errors = Vec::new();
    for (field, v) in [
        ("quantityCompleted", &input.quantity_completed),
        ("quantityScrapped", &input.quantity_scrapped),
        ("actualSetupMinutes", &input.actual_setup_minutes),
        ("actualRunMinutes", &input.actual_run_minutes),
    ] {
        if let Some(v) = v
            && v.0 < BigDecimal::zero()
        {
            errors.push(invalid(field, "Input should be greater than or equal to 0"));
        }
    }
    optional_text(&mut errors, "notes", &mut input.notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let run = input.actual_run_minutes.map(|d| d.0).or_else(|| {
        op.actual_start.as_ref().map(|s| {
            let secs = (Utc::now() - s.0).num_seconds().max(0);
            (BigDecimal::from(secs) / BigDecimal::from(60))
                .with_scale_round(2, RoundingMode::HalfUp)
        })
    });
    let good = input
        .quantity_completed
        .map(|d| d.0)
        .unwrap_or_else(|| order.quantity_ordered.0.clone());
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Complete),
            production_order_operations::actual_end.eq(Some(now())),
            production_order_operations::actual_run_minutes.eq(run),
            input
                .actual_setup_minutes
                .map(|s| production_order_operations::actual_setup_minutes.eq(Some(s.0))),
            production_order_operations::quantity_completed.eq(good),
            production_order_operations::quantity_scrapped
                .eq(input.quantity_scrapped.map(|d| d.0).unwrap_or_default()),
            input
                .notes
                .map(|n| production_order_operations::notes.eq(Some(n))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    if let Some(p) = row.printer_id {
        diesel::update(printers::table.find(p))
            .set((
                printers::status.eq(PrinterStatus::Idle),
                printers::last_seen.eq(Some(now())),
            ))
            .execute(conn)
            .await?;
    }
    queue_next(conn, order_id).await?;
    let printer = row_printer(&op, &row);
    Ok((row, printer))
}

pub(super) fn row_printer(before: &OperationRow, after: &OperationRow) -> Option<i64> {
    after.printer_id.or(before.printer_id)
}

pub(super) async fn queue_next(conn: &mut AsyncPgConnection, order_id: i64) -> Result<(), Stop> {
    let ops = model::operations_of(conn, &[order_id]).await?;
    let active = ops
        .iter()
        .any(|o| matches!(o.status, OperationStatus::Queued | OperationStatus::Running));
    if active {
        return Ok(());
    }
    if let Some(next) = ops.iter().find(|o| o.status == OperationStatus::Pending) {
        diesel::update(production_order_operations::table.find(next.id))
            .set(production_order_operations::status.eq(OperationStatus::Queued))
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// Skips a pending or queued operation and queues the next one.
pub async fn operation_skip(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    mut notes: Option<String>,
) -> Result<OperationRow, Stop> {
    locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    check_op_transition(op.status, OperationStatus::Skipped)?;
    let mut errors = Vec::new();
    optional_text(&mut errors, "notes", &mut notes, NOTES_MAX);
    if !errors.is_empty() {
        return Err(Stop::Refused(errors));
    }
    let row = diesel::update(production_order_operations::table.find(op_id))
        .set((
            production_order_operations::status.eq(OperationStatus::Skipped),
            notes.map(|n| production_order_operations::notes.eq(Some(n))),
        ))
        .returning(OperationRow::as_returning())
        .get_result(conn)
        .await?;
    queue_next(conn, order_id).await?;
    Ok(row)
}

/// Scheduling an operation or assigning its printer.
#[derive(Debug, Clone, Default, InputObject)]
pub struct OperationScheduleInput {
    /// Planned start.
    pub scheduled_start: Option<Timestamp>,
    /// Planned end.
    pub scheduled_end: Option<Timestamp>,
    /// The printer (resource).
    pub printer_id: Option<i64>,
}

/// Plans an operation (times and printer); a finished operation refuses.
pub async fn operation_schedule(
    conn: &mut AsyncPgConnection,
    order_id: i64,
    op_id: i64,
    input: OperationScheduleInput,
) -> Result<OperationRow, Stop> {
    locked(conn, order_id).await?;
    let op = locked_operation(conn, order_id, op_id).await?;
    if matches!(
        op.status,
        OperationStatus::Complete | OperationStatus::Skipped
    ) {
        return Err(not_allowed(format!(
            "Cannot schedule a {} operation",
            op.status
        )));
    }
    if let (Some(s), Some(e)) = (&input.scheduled_start, &input.scheduled_end)
        && e.0 < s.0
    {
        return Err(Stop::refuse(
            "scheduledEnd",
            UserErrorCode::Invalid,
            "The end cannot be before the start",
        ));
    }
    if let Some(p) = input.printer_id {
        let exists: Option<i64> = printers::table
            .find(p)
            .select(printers::id)
            .first(conn)
            .await
            .optional()?;
        if exists.is_none() {
            return Err(Stop::refuse(
                "printerId",
                UserErrorCode::NotFound,
                "Printer not found",
            ));
        }
    }
    Ok(
        diesel::update(production_order_operations::table.find(op_id))
            .set((
                input
                    .scheduled_start
                    .map(|s| production_order_operations::scheduled_start.eq(Some(s.0))),
                input
                    .scheduled_end
                    .map(|s| production_order_operations::scheduled_end.eq(Some(s.0))),
                input
                    .printer_id
                    .map(|p| production_order_operations::printer_id.eq(Some(p))),
                production_order_operations::updated_at.eq(now()),
            ))
            .returning(OperationRow::as_returning())
            .get_result(conn)
            .await?,
    )
}

/// A decimal from text, for tests and defaults.
pub fn dec(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap_or_default()
}
