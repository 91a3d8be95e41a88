//! Resources: the machines of a work center that are not printers (a wash station, a UV
//! cure), FilaOps's resources. The row (which is also the GraphQL `Resource`), its closed
//! set of statuses, the one field list of its writable columns and the queries. Rules are
//! in `rules/resources.rs`.

use async_graphql::SimpleObject;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::production::model::{OperationStatus, OrderStatus};
use crate::operations::scheduling::rules::{
    CODE_MAX, DEVICE_MAX, IP_ADDRESS_MAX, MACHINE_TYPE_MAX, NAME_MAX, SERIAL_MAX,
};
use crate::platform::db::paging;
use crate::platform::db::schema::{production_order_operations, production_orders, resources};
use crate::platform::db::text::code_matches;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;
use crate::platform::graphql::scalars::{Decimal, Timestamp};

crate::text_enum! {
    /// Whether a resource can take work.
    pub enum ResourceStatus {
        /// Free for work (the default).
        Available,
        /// Running something.
        Busy,
        /// Being serviced.
        Maintenance,
        /// Switched off or unreachable.
        Offline,
    }
}

/// A machine of a work center that is not a printer: the stored row, served as is (the work
/// center's code and name are computed fields in `graphql.rs`).
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = resources, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "Resource", complex)]
pub struct ResourceRow {
    /// Id.
    pub id: i64,
    /// The work center it belongs to.
    pub work_center_id: i64,
    /// Code (upper case, unique ignoring case), e.g. `WASH-01`.
    pub code: String,
    /// Name.
    pub name: String,
    /// What kind of machine, free text (e.g. `Wash station`).
    pub machine_type: Option<String>,
    /// Serial number.
    pub serial_number: Option<String>,
    /// Bambu Lab device id, when the machine is one.
    pub bambu_device_id: Option<String>,
    /// Bambu Lab IP address, when the machine is one.
    pub bambu_ip_address: Option<String>,
    /// Hours a day it can work (0 to 24).
    pub capacity_hours_per_day: Option<Decimal>,
    /// Whether it can take work.
    pub status: ResourceStatus,
    /// Active (inactive resources are left out of the default list).
    pub is_active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

crate::input_forms! {
    table = resources;
    /// A new resource (its work center comes from the mutation's argument).
    create ResourceCreateInput;
    /// Changes to a resource: omitted fields keep their value, `null` clears a clearable one.
    update ResourceUpdateInput;
    /// A resource's writable columns, checked by `rules::check_resource`.
    form ResourceForm;
    {
        /// Moves the resource to this work center (which must exist).
        @create[skip]
        work_center_id: optional i64,
        /// Code (1-50 characters, unique ignoring case; stored upper case).
        [directive = length::apply(CODE_MAX)]
        code: required String,
        /// Name (1-200 characters).
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// What kind of machine (up to 100 characters).
        [directive = length::apply(MACHINE_TYPE_MAX)]
        machine_type: clearable String,
        /// Serial number (up to 100 characters).
        [directive = length::apply(SERIAL_MAX)]
        serial_number: clearable String,
        /// Bambu Lab device id (up to 100 characters).
        [directive = length::apply(DEVICE_MAX)]
        bambu_device_id: clearable String,
        /// Bambu Lab IP address (up to 50 characters).
        [directive = length::apply(IP_ADDRESS_MAX)]
        bambu_ip_address: clearable String,
        /// Hours a day it can work (0 to 24).
        capacity_hours_per_day: clearable Decimal,
        /// Whether it can take work (default available).
        status: optional ResourceStatus,
        /// Active (default true).
        is_active: optional bool,
    }
}

/// Resources by code (then id): of one work center when given, only active ones when asked.
pub async fn list(
    conn: &mut AsyncPgConnection,
    work_center_id: Option<i64>,
    active_only: bool,
) -> AppResult<Vec<ResourceRow>> {
    let mut q = resources::table
        .select(ResourceRow::as_select())
        .order((resources::code, resources::id))
        .into_boxed();
    if let Some(w) = work_center_id {
        q = q.filter(resources::work_center_id.eq(w));
    }
    if active_only {
        q = q.filter(resources::is_active.eq(true));
    }
    Ok(q.load(conn).await?)
}

/// The resource with this id, or a 404.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<ResourceRow> {
    paging::find_or_404(
        conn,
        resources::table.find(id).select(ResourceRow::as_select()),
        "Resource not found",
    )
    .await
}

/// The resource with this id, locked for the rest of the transaction (`None` when there is
/// none).
pub async fn lock(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<ResourceRow>> {
    Ok(resources::table
        .find(id)
        .select(ResourceRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?)
}

/// The id of the resource with this code (any case), other than `except`.
pub async fn code_taken(
    conn: &mut AsyncPgConnection,
    code: &str,
    except: Option<i64>,
) -> AppResult<bool> {
    let mut q = resources::table
        .filter(code_matches(resources::code, code))
        .select(resources::id)
        .into_boxed();
    if let Some(id) = except {
        q = q.filter(resources::id.ne(id));
    }
    Ok(q.first::<i64>(conn).await.optional()?.is_some())
}

/// Inserts a checked resource.
pub async fn insert(conn: &mut AsyncPgConnection, form: &ResourceForm) -> AppResult<ResourceRow> {
    Ok(diesel::insert_into(resources::table)
        .values(form)
        .returning(ResourceRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a resource with a checked form (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &ResourceForm,
) -> AppResult<ResourceRow> {
    let result = diesel::update(resources::table.find(id))
        .set(form)
        .returning(ResourceRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("Resource not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id).await,
        other => Ok(other?),
    }
}

/// Deletes a resource (its maintenance windows go with it; finished operations keep their
/// history without it).
pub async fn delete(conn: &mut AsyncPgConnection, id: i64) -> AppResult<bool> {
    let n = diesel::delete(resources::table.find(id))
        .execute(conn)
        .await?;
    Ok(n > 0)
}

/// The operation statuses that still need their machine.
pub const OPEN_OPERATION: [OperationStatus; 3] = [
    OperationStatus::Pending,
    OperationStatus::Queued,
    OperationStatus::Running,
];

/// The order statuses whose operations no longer need a machine.
pub const CLOSED_ORDER: [OrderStatus; 4] = [
    OrderStatus::Complete,
    OrderStatus::Cancelled,
    OrderStatus::Split,
    OrderStatus::Scrapped,
];

/// The ids of the operations booked on a resource that are not done (pending, queued or
/// running, of an order still open).
pub async fn open_operations(
    conn: &mut AsyncPgConnection,
    resource_id: i64,
) -> AppResult<Vec<i64>> {
    Ok(production_order_operations::table
        .inner_join(production_orders::table)
        .filter(production_order_operations::resource_id.eq(resource_id))
        .filter(production_order_operations::status.eq_any(OPEN_OPERATION))
        .filter(production_orders::status.ne_all(CLOSED_ORDER))
        .select(production_order_operations::id)
        .order(production_order_operations::id)
        .load(conn)
        .await?)
}
