//! Locations in the schema (admins only, spec 4.5): a tree of warehouses, shelves and bins.

use async_graphql::{Context, Object, SimpleObject};

use crate::master_data::locations::model::{
    self, LocationCreateInput, LocationFilter, LocationRow, LocationUpdateInput,
};
use crate::master_data::locations::rules;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::Page;
use crate::platform::graphql::scalars::Timestamp;
use crate::platform::graphql::user_error::UserError;

/// The largest page of locations: clients draw the tree from the whole list, so a page
/// may hold far more than the usual 250.
pub const MAX_LOCATION_PAGE: i64 = 1_000;

/// A place where stock is kept: a warehouse, a shelf in it, a bin on the shelf...
#[derive(Debug, Clone, SimpleObject)]
pub struct Location {
    /// Id.
    pub id: i64,
    /// Code (upper case, unique ignoring case), e.g. `MAIN`, `A-01`.
    pub code: String,
    /// Name.
    pub name: String,
    /// The kind of place: warehouse (default), shelf, bin, ... (lower case, an open set).
    #[graphql(name = "type")]
    pub kind: String,
    /// The location this one is inside of.
    pub parent_id: Option<i64>,
    /// Active (deleting a location that is in use deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: Timestamp,
    /// Changed.
    pub updated_at: Timestamp,
}

impl From<LocationRow> for Location {
    fn from(r: LocationRow) -> Self {
        Location {
            id: r.id,
            code: r.code,
            name: r.name,
            kind: r.kind,
            parent_id: r.parent_id,
            active: r.active,
            created_at: Timestamp(r.created_at),
            updated_at: Timestamp(r.updated_at),
        }
    }
}

crate::connection!(
    /// A page of locations.
    LocationConnection,
    Location
);

/// Location queries (admins).
#[derive(Default)]
pub struct LocationsQuery;

#[Object]
impl LocationsQuery {
    /// Locations by code, with search and filters.
    #[allow(clippy::too_many_arguments)]
    #[graphql(guard = "Access::Admin")]
    async fn locations(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-1000, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 1000))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
        #[graphql(desc = "Code or name contains this (case-insensitive).")] search: Option<String>,
        #[graphql(
            name = "type",
            desc = "Only this kind of place (warehouse, shelf, bin...)."
        )]
        kind: Option<String>,
        #[graphql(desc = "Only the direct sub-locations of this location.")] parent_id: Option<i64>,
        #[graphql(desc = "Include inactive locations.", default = false)] include_inactive: bool,
        #[graphql(desc = "Sort column (default code); ties are broken by id.")] sort_by: Option<
            model::LocationSort,
        >,
        #[graphql(desc = "Sort direction (default asc).")] sort_order: Option<
            crate::platform::db::paging::SortOrder,
        >,
    ) -> AppResult<LocationConnection> {
        let page = Page::with_max(first, offset, MAX_LOCATION_PAGE)?;
        let filter = LocationFilter {
            search,
            kind: kind.map(|k| rules::normalize_kind(&k)),
            parent_id,
            include_inactive,
            sort_by,
            sort_order,
        };
        let (rows, total) = model::list(
            &mut *context::conn(ctx).await?,
            &filter,
            page.limit,
            page.offset,
        )
        .await?;
        Ok(LocationConnection {
            total_count: total,
            nodes: rows.into_iter().map(Location::from).collect(),
            page_info: page.info(total),
        })
    }

    /// One location by id.
    #[graphql(guard = "Access::Admin")]
    async fn location(&self, ctx: &Context<'_>, id: i64) -> AppResult<Location> {
        model::find(&mut *context::conn(ctx).await?, id)
            .await?
            .map(Location::from)
            .ok_or_else(|| AppError::not_found("Location not found"))
    }
}

/// The result of creating or changing a location.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct LocationPayload {
    /// The location after the change.
    pub location: Option<Location>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

/// The result of deleting a location.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct LocationDeletePayload {
    /// The location as it was (deleted) or is now (deactivated).
    pub location: Option<Location>,
    /// True when the row is gone; false when it was deactivated because it is in use.
    pub deleted: bool,
    /// What happened.
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn payload(r: Result<LocationRow, Vec<UserError>>) -> LocationPayload {
    match r {
        Ok(row) => LocationPayload {
            location: Some(row.into()),
            user_errors: vec![],
        },
        Err(user_errors) => LocationPayload {
            location: None,
            user_errors,
        },
    }
}

/// Location mutations (admins).
#[derive(Default)]
pub struct LocationsMutation;

#[Object]
impl LocationsMutation {
    /// Creates a location.
    #[graphql(guard = "Access::Admin")]
    async fn location_create(
        &self,
        ctx: &Context<'_>,
        input: LocationCreateInput,
    ) -> AppResult<LocationPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(payload(rules::save(&mut conn, None, input.into()).await?))
    }

    /// Changes a location; a parent that would close a cycle is refused.
    #[graphql(guard = "Access::Admin")]
    async fn location_update(
        &self,
        ctx: &Context<'_>,
        id: i64,
        input: LocationUpdateInput,
    ) -> AppResult<LocationPayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(payload(
            rules::save(&mut conn, Some(id), input.into()).await?,
        ))
    }

    /// Deletes a location: refused while it holds stock; the main warehouse and locations
    /// in use are deactivated instead of removed.
    #[graphql(guard = "Access::Admin")]
    async fn location_delete(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<LocationDeletePayload> {
        let mut conn = context::conn(ctx).await?;
        Ok(match rules::delete(&mut conn, id).await? {
            Ok(d) => LocationDeletePayload {
                location: Some(d.row.into()),
                deleted: d.removed,
                message: Some(d.message),
                user_errors: vec![],
            },
            Err(e) => LocationDeletePayload {
                user_errors: vec![e],
                ..Default::default()
            },
        })
    }
}
