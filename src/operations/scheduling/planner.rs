//! The schedule in the schema: the board (`schedule(from, to)`, one request for a Gantt
//! view), capacity questions, and the booking mutations (move, unschedule, auto-schedule,
//! dispatch). Any signed-in user (FilaOps's scheduler is for staff); every write runs in one
//! transaction under the booking lock.

use async_graphql::{Context, Object};
use diesel_async::AsyncConnection;

use crate::operations::scheduling::auto::{
    self, AutoScheduleInput, AutoScheduleResult, DispatchAssignment,
};
use crate::operations::scheduling::board::{
    self, Board, CapacityCheck, CapacityConflict, FreeSlot, NextSlot,
};
use crate::operations::scheduling::booking::{
    self, RescheduleInput, RescheduleResult, UnscheduleResult,
};
use crate::operations::scheduling::lanes;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::scalars::Timestamp;

/// Runs a booking write in one transaction.
macro_rules! in_tx {
    ($ctx:expr, |$conn:ident| $body:expr) => {{
        let mut connection = context::conn($ctx).await?;
        connection
            .transaction::<_, AppError, _>(async move |$conn| $body.await)
            .await
    }};
}

/// What is in the way on a machine.
#[derive(Debug, Clone, async_graphql::SimpleObject)]
pub struct ConflictList {
    /// Anything is in the way.
    pub has_conflicts: bool,
    /// Operations and maintenance windows in the way, by start.
    pub conflicts: Vec<CapacityConflict>,
}

/// Schedule queries.
#[derive(Default)]
pub struct ScheduleQuery;

#[Object]
impl ScheduleQuery {
    /// The board between two instants (at most 92 days): every active printer and resource
    /// as a lane with its bookings, maintenance windows and utilisation, and the orders still
    /// waiting for a booking.
    #[graphql(guard = "Access::User")]
    async fn schedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Window start.")] from: Timestamp,
        #[graphql(desc = "Window end (after the start).")] to: Timestamp,
    ) -> AppResult<Board> {
        board::board(&mut *context::conn(ctx).await?, from.0, to.0).await
    }

    /// Whether a machine is free (no booking, no maintenance, inside working hours) for a span.
    #[graphql(guard = "Access::User")]
    async fn capacity_check(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The printer or resource.")] resource_id: i64,
        #[graphql(desc = "`resourceId` is a printer.", default = false)] is_printer: bool,
        #[graphql(desc = "Start.")] start_time: Timestamp,
        #[graphql(desc = "End.")] end_time: Timestamp,
    ) -> AppResult<CapacityCheck> {
        let machine = lanes::key(resource_id, is_printer);
        Ok(board::conflicts(
            &mut *context::conn(ctx).await?,
            machine,
            start_time.0,
            end_time.0,
            None,
        )
        .await?
        .0)
    }

    /// What is in the way on a machine between two instants (operations and maintenance).
    #[graphql(guard = "Access::User")]
    async fn resource_conflicts(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The printer or resource.")] resource_id: i64,
        #[graphql(desc = "`resourceId` is a printer.", default = false)] is_printer: bool,
        #[graphql(desc = "Start.")] start: Timestamp,
        #[graphql(desc = "End.")] end: Timestamp,
        #[graphql(desc = "An operation to leave out (the one being moved).")] exclude_operation_id: Option<i64>,
    ) -> AppResult<ConflictList> {
        let machine = lanes::key(resource_id, is_printer);
        let conn = &mut *context::conn(ctx).await?;
        let conflicts = board::conflicts(conn, machine, start.0, end.0, exclude_operation_id)
            .await?
            .0
            .conflicts;
        Ok(ConflictList {
            has_conflicts: !conflicts.is_empty(),
            conflicts,
        })
    }

    /// Free gaps of at least `durationHours` on a machine between two instants.
    #[graphql(guard = "Access::User")]
    async fn available_slots(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The printer or resource.")] resource_id: i64,
        #[graphql(desc = "`resourceId` is a printer.", default = false)] is_printer: bool,
        #[graphql(desc = "Window start.")] start_date: Timestamp,
        #[graphql(desc = "Window end.")] end_date: Timestamp,
        #[graphql(desc = "Shortest gap wanted, in hours (default 2).", default = 2.0)]
        duration_hours: f64,
    ) -> AppResult<Vec<FreeSlot>> {
        let machine = lanes::key(resource_id, is_printer);
        board::free_slots(
            &mut *context::conn(ctx).await?,
            machine,
            start_date.0,
            end_date.0,
            duration_hours,
        )
        .await
    }

    /// A resource's bookings in a window (FilaOps's `/resources/{id}/schedule`).
    #[graphql(guard = "Access::User")]
    async fn resource_schedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource.")] resource_id: i64,
        #[graphql(desc = "Bookings ending after this.")] start_date: Option<Timestamp>,
        #[graphql(desc = "Bookings starting before this.")] end_date: Option<Timestamp>,
    ) -> AppResult<board::ResourceSchedule> {
        let conn = &mut *context::conn(ctx).await?;
        board::resource_schedule(
            conn,
            resource_id,
            start_date.map(|t| t.0),
            end_date.map(|t| t.0),
        )
        .await
    }

    /// Operations and maintenance windows in the way on a resource (FilaOps's
    /// `/resources/{id}/conflicts`).
    #[graphql(guard = "Access::User")]
    async fn resource_conflict_check(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource.")] resource_id: i64,
        #[graphql(desc = "Start.")] start: Timestamp,
        #[graphql(desc = "End.")] end: Timestamp,
        #[graphql(desc = "An operation to leave out (the one being moved).")] exclude_operation_id: Option<i64>,
    ) -> AppResult<board::ResourceConflictCheck> {
        let conn = &mut *context::conn(ctx).await?;
        board::resource_conflicts(conn, resource_id, start.0, end.0, exclude_operation_id).await
    }

    /// Every active resource's booked and free hours over a window.
    #[graphql(guard = "Access::User")]
    async fn machine_availability(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Window start.")] start_date: Timestamp,
        #[graphql(desc = "Window end.")] end_date: Timestamp,
        #[graphql(desc = "Only this work center's resources.")] work_center_id: Option<i64>,
    ) -> AppResult<Vec<board::MachineAvailability>> {
        let conn = &mut *context::conn(ctx).await?;
        board::machine_availability(conn, start_date.0, end_date.0, work_center_id).await
    }

    /// The first free slot of a duration on a machine.
    #[graphql(guard = "Access::User")]
    async fn next_available_slot(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The printer or resource.")] resource_id: i64,
        #[graphql(desc = "`resourceId` is a printer.", default = false)] is_printer: bool,
        #[graphql(desc = "Minutes needed.")] duration_minutes: i64,
        #[graphql(desc = "Not before (default now).")] after: Option<Timestamp>,
    ) -> AppResult<NextSlot> {
        let machine = lanes::key(resource_id, is_printer);
        board::next_slot(
            &mut *context::conn(ctx).await?,
            machine,
            duration_minutes,
            after.map(|a| a.0),
        )
        .await
    }
}

/// Schedule mutations.
#[derive(Default)]
pub struct ScheduleMutation;

#[Object]
impl ScheduleMutation {
    /// Moves an operation to another time and/or machine. A refusal (overlap, maintenance,
    /// hours, routing order, material) is answered with `success: false`, its reason and the
    /// next free slot; nothing changes then.
    #[graphql(guard = "Access::User")]
    async fn operation_reschedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] order_id: i64,
        #[graphql(desc = "Its operation.")] op_id: i64,
        #[graphql(desc = "Where and when.")] input: RescheduleInput,
    ) -> AppResult<RescheduleResult> {
        in_tx!(ctx, |conn| booking::reschedule(
            conn, order_id, op_id, input
        ))
    }

    /// Takes a pending or queued operation off the schedule.
    #[graphql(guard = "Access::User")]
    async fn operation_unschedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The production order.")] order_id: i64,
        #[graphql(desc = "Its operation.")] op_id: i64,
    ) -> AppResult<UnscheduleResult> {
        in_tx!(ctx, |conn| booking::unschedule(conn, order_id, op_id))
    }

    /// Auto-schedules one order or the whole shop: by priority then due date, each operation
    /// at the earliest free time on a compatible machine of its work center, within working
    /// hours and never over a booking or maintenance; reports each order's planned finish
    /// against its due date.
    #[graphql(guard = "Access::User")]
    async fn auto_schedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which order (default all) and from when.", default)]
        input: AutoScheduleInput,
    ) -> AppResult<AutoScheduleResult> {
        in_tx!(ctx, |conn| auto::auto_schedule(conn, input))
    }

    /// Books a pending operation on a printer from now (a dispatch suggestion), with every
    /// booking rule.
    #[graphql(guard = "Access::User")]
    async fn dispatch_assign(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The operation.")] operation_id: i64,
        #[graphql(desc = "The printer.")] printer_id: i64,
    ) -> AppResult<DispatchAssignment> {
        in_tx!(ctx, |conn| auto::assign(conn, operation_id, printer_id))
    }
}
