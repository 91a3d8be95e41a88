//! The shop's machines in the schema (any signed-in user, like printers and work centers):
//! resources, maintenance windows and working hours. The objects are the rows
//! ([`ResourceRow`], [`MaintenanceWindowRow`], [`HoursExceptionRow`]); this file adds the
//! resource's computed fields, the payloads and the resolvers, which only call the rules.

use async_graphql::{ComplexObject, Context, Object, SimpleObject};

use crate::operations::production::loaders::WorkCenters;
use crate::operations::scheduling::hours::{
    self, HoursExceptionInput, HoursExceptionRow, OpenPeriodInput, WorkCenterHours,
};
use crate::operations::scheduling::model::{
    self, ResourceCreateInput, ResourceForm, ResourceRow, ResourceStatus, ResourceUpdateInput,
};
use crate::operations::scheduling::rules;
use crate::operations::scheduling::windows::{
    self, MaintenanceWindowCompleteInput, MaintenanceWindowCreateInput, MaintenanceWindowRow,
    WindowFilter,
};
use crate::platform::auth::Access;
use crate::platform::auth::viewer::current_user;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context::{self, data};
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::UserError;

/// The default page of maintenance windows (FilaOps's client reads them all at once).
pub const DEFAULT_WINDOW_PAGE: i64 = 500;
/// The largest page of maintenance windows.
pub const MAX_WINDOW_PAGE: i64 = 1000;

#[ComplexObject]
impl ResourceRow {
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
}

crate::connection!(
    /// A page of maintenance windows, by start.
    MaintenanceWindowConnection,
    MaintenanceWindowRow
);

/// Queries of the shop's machines (any signed-in user).
#[derive(Default)]
pub struct SchedulingQuery;

#[Object]
impl SchedulingQuery {
    /// Resources (machines that are not printers) by code: of one work center (`Work center
    /// not found` when there is none) or of all.
    #[graphql(guard = "Access::User")]
    async fn resources(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this work center's resources.")] work_center_id: Option<i64>,
        #[graphql(desc = "Only active resources (default true).", default = true)]
        active_only: bool,
    ) -> AppResult<Vec<ResourceRow>> {
        let mut conn = context::conn(ctx).await?;
        if let Some(w) = work_center_id
            && crate::operations::production::model::work_centers_by_ids(&mut conn, &[w])
                .await?
                .is_empty()
        {
            return Err(AppError::not_found("Work center not found"));
        }
        model::list(&mut conn, work_center_id, active_only).await
    }

    /// One resource by id.
    #[graphql(guard = "Access::User")]
    async fn resource(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource's id.")] id: i64,
    ) -> AppResult<ResourceRow> {
        model::find(&mut *context::conn(ctx).await?, id).await
    }

    /// Maintenance windows by start: those still blocking their machine (scheduled or in
    /// progress) unless `includeFinished`, overlapping `[start, end)` when given.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::User")]
    async fn maintenance_windows(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only this printer's windows.")] printer_id: Option<i64>,
        #[graphql(desc = "Only this resource's windows.")] resource_id: Option<i64>,
        #[graphql(desc = "Only windows ending after this time.")] start: Option<Timestamp>,
        #[graphql(desc = "Only windows starting before this time.")] end: Option<Timestamp>,
        #[graphql(
            desc = "Completed and cancelled windows too (default false: only the blocking ones).",
            default = false
        )]
        include_finished: bool,
        #[graphql(desc = "Page size (1-1000, default 500).", directive = crate::platform::graphql::limits::range::apply(1, 1000))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
    ) -> AppResult<MaintenanceWindowConnection> {
        let page = Page::with_max(
            Some(first.unwrap_or(DEFAULT_WINDOW_PAGE)),
            offset,
            MAX_WINDOW_PAGE,
        )?;
        let filter = WindowFilter {
            printer_id,
            resource_id,
            start: start.map(|t| t.0),
            end: end.map(|t| t.0),
            include_finished,
        };
        let (nodes, total) = windows::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(MaintenanceWindowConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// The working hours of a work center (`Work center not found` when there is none).
    #[graphql(guard = "Access::User")]
    async fn work_center_hours(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The work center's id.")] work_center_id: i64,
    ) -> AppResult<WorkCenterHours> {
        let mut conn = context::conn(ctx).await?;
        if crate::operations::production::model::work_centers_by_ids(&mut conn, &[work_center_id])
            .await?
            .is_empty()
        {
            return Err(AppError::not_found("Work center not found"));
        }
        hours::of(&mut conn, work_center_id).await
    }
}

/// The result of a resource change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct ResourcePayload {
    /// The resource after the change.
    pub resource: Option<ResourceRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<ResourceRow, Vec<UserError>>> for ResourcePayload {
    fn from(result: Result<ResourceRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => ResourcePayload {
                resource: Some(row),
                ..Default::default()
            },
            Err(user_errors) => ResourcePayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// The result of a maintenance window change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct MaintenanceWindowPayload {
    /// The window after the change.
    pub maintenance_window: Option<MaintenanceWindowRow>,
    /// On create: the ids of the operations booked on the machine over the window that are
    /// not done (the window is planned anyway; these need moving).
    pub conflicting_operations: Option<Vec<i64>>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

impl From<Result<MaintenanceWindowRow, Vec<UserError>>> for MaintenanceWindowPayload {
    fn from(result: Result<MaintenanceWindowRow, Vec<UserError>>) -> Self {
        match result {
            Ok(row) => MaintenanceWindowPayload {
                maintenance_window: Some(row),
                ..Default::default()
            },
            Err(user_errors) => MaintenanceWindowPayload {
                user_errors,
                ..Default::default()
            },
        }
    }
}

/// The result of setting a work center's week.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct WorkCenterHoursPayload {
    /// The work center's hours after the change.
    pub hours: Option<WorkCenterHours>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// The result of an hours exception change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct HoursExceptionPayload {
    /// The exception added.
    pub exception: Option<HoursExceptionRow>,
    /// What happened (delete).
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// Changes to the shop's machines (any signed-in user).
#[derive(Default)]
pub struct SchedulingMutation;

#[Object]
impl SchedulingMutation {
    /// Adds a resource (a machine that is not a printer) to a work center.
    #[graphql(guard = "Access::User")]
    async fn resource_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The work center it belongs to.")] work_center_id: i64,
        #[graphql(desc = "The resource.")] input: ResourceCreateInput,
    ) -> AppResult<ResourcePayload> {
        let form: ResourceForm = input.into();
        Ok(crate::in_transaction!(ctx, |conn| rules::save_resource(
            conn,
            None,
            Some(work_center_id),
            form
        ))
        .into())
    }

    /// Changes a resource (`workCenterId` moves it to another work center).
    #[graphql(guard = "Access::User")]
    async fn resource_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource's id.")] id: i64,
        #[graphql(desc = "What changes.")] input: ResourceUpdateInput,
    ) -> AppResult<ResourcePayload> {
        let form: ResourceForm = input.into();
        Ok(
            crate::in_transaction!(ctx, |conn| rules::save_resource(conn, Some(id), None, form))
                .into(),
        )
    }

    /// Sets whether a resource can take work.
    #[graphql(guard = "Access::User")]
    async fn resource_update_status(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource's id.")] id: i64,
        #[graphql(desc = "The new status.")] status: ResourceStatus,
    ) -> AppResult<ResourcePayload> {
        let form = ResourceForm {
            status: Some(status),
            ..Default::default()
        };
        Ok(
            crate::in_transaction!(ctx, |conn| rules::save_resource(conn, Some(id), None, form))
                .into(),
        )
    }

    /// Deletes a resource: refused while operations that are not done are booked on it; its
    /// maintenance windows go with it.
    #[graphql(guard = "Access::User")]
    async fn resource_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The resource's id.")] id: i64,
    ) -> AppResult<ResourcePayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::delete_resource(conn, id)) {
                Ok(message) => ResourcePayload {
                    message: Some(message),
                    ..Default::default()
                },
                Err(user_errors) => ResourcePayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Plans a maintenance window on one printer or one resource. Operations already booked
    /// on the machine over the window do not stop it: they are listed in
    /// `conflictingOperations`.
    #[graphql(guard = "Access::User")]
    async fn maintenance_window_create(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The machine, the time range and the reason.")]
        input: MaintenanceWindowCreateInput,
    ) -> AppResult<MaintenanceWindowPayload> {
        let user = current_user(ctx).await?;
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::create_window(conn, input, &user.email))
            {
                Ok((window, booked)) => MaintenanceWindowPayload {
                    maintenance_window: Some(window),
                    conflicting_operations: Some(booked),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => MaintenanceWindowPayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Cancels a scheduled or in-progress maintenance window.
    #[graphql(guard = "Access::User")]
    async fn maintenance_window_cancel(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The window's id.")] id: i64,
    ) -> AppResult<MaintenanceWindowPayload> {
        Ok(crate::in_transaction!(ctx, |conn| rules::cancel_window(conn, id)).into())
    }

    /// Completes a scheduled or in-progress maintenance window. A printer's window writes its
    /// maintenance log (performed when the window ended, or now when earlier; down for the
    /// window's span up to then) and links it; a resource's window just closes.
    #[graphql(guard = "Access::User")]
    async fn maintenance_window_complete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The window's id.")] id: i64,
        #[graphql(desc = "What the maintenance log records (every field optional).")] input: Option<
            MaintenanceWindowCompleteInput,
        >,
    ) -> AppResult<MaintenanceWindowPayload> {
        let user = current_user(ctx).await?;
        let input = input.unwrap_or_default();
        Ok(
            crate::in_transaction!(ctx, |conn| rules::complete_window(conn, id, input, &user))
                .into(),
        )
    }

    /// Replaces the weekly working hours of a work center (an empty list: open around the
    /// clock). Minutes are from midnight UTC.
    #[graphql(guard = "Access::User")]
    async fn work_center_hours_set(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The work center's id.")] work_center_id: i64,
        #[graphql(desc = "The open periods of the week, in any order.")] periods: Vec<
            OpenPeriodInput,
        >,
    ) -> AppResult<WorkCenterHoursPayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::set_weekly(
                conn,
                work_center_id,
                periods
            )) {
                Ok(hours) => WorkCenterHoursPayload {
                    hours: Some(hours),
                    user_errors: Vec::new(),
                },
                Err(user_errors) => WorkCenterHoursPayload {
                    hours: None,
                    user_errors,
                },
            },
        )
    }

    /// Adds a day whose hours differ from the week: closed, or open for one period.
    #[graphql(guard = "Access::User")]
    async fn work_center_exception_add(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The work center's id.")] work_center_id: i64,
        #[graphql(desc = "The day and its hours.")] input: HoursExceptionInput,
    ) -> AppResult<HoursExceptionPayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::add_exception(
                conn,
                work_center_id,
                input
            )) {
                Ok(exception) => HoursExceptionPayload {
                    exception: Some(exception),
                    ..Default::default()
                },
                Err(user_errors) => HoursExceptionPayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }

    /// Deletes an hours exception.
    #[graphql(guard = "Access::User")]
    async fn work_center_exception_delete(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The exception's id.")] id: i64,
    ) -> AppResult<HoursExceptionPayload> {
        Ok(
            match crate::in_transaction!(ctx, |conn| rules::delete_exception(conn, id)) {
                Ok(()) => HoursExceptionPayload {
                    message: Some("Hours exception deleted".into()),
                    ..Default::default()
                },
                Err(user_errors) => HoursExceptionPayload {
                    user_errors,
                    ..Default::default()
                },
            },
        )
    }
}

/// The schedule's own field groups (board, capacity, bookings), registered with the area.
pub use crate::operations::scheduling::planner::{ScheduleMutation, ScheduleQuery};
