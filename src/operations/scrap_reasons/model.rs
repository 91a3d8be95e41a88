//! Scrap reason rows and the queries on them.

use chrono::{DateTime, Utc};
use diesel::prelude::*;

use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::scrap_reasons::rules::{CODE_MAX, DESCRIPTION_MAX, NAME_MAX};
use crate::platform::db::like_pattern;
use crate::platform::db::paging::{self, SortOrder};
use crate::platform::db::schema::scrap_reasons;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::limits::length;

/// A stored scrap reason.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = scrap_reasons)]
pub struct ScrapReasonRow {
    /// Id.
    pub id: i64,
    /// Code (lower case, unique ignoring case), e.g. `layer_shift`.
    pub code: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Display order.
    pub sequence: i32,
    /// Active (deleting a reason deactivates it).
    pub active: bool,
    /// Created.
    pub created_at: DateTime<Utc>,
    /// Changed.
    pub updated_at: DateTime<Utc>,
}

crate::input_forms! {
    table = scrap_reasons;
    /// A new scrap reason.
    create ScrapReasonCreateInput;
    /// Changes to a scrap reason (the code never changes: scrap records keep it).
    update ScrapReasonUpdateInput;
    /// A scrap reason's writable columns, checked and normalised by `rules::save`.
    form ScrapReasonForm;
    {
        /// Code (1-50 characters, unique ignoring case; stored lower case).
        [directive = length::apply(CODE_MAX)] @update[skip]
        code: required String,
        /// Name (1-100 characters).
        [directive = length::apply(NAME_MAX)]
        name: required String,
        /// Description (null clears it).
        [directive = length::apply(DESCRIPTION_MAX)]
        description: clearable String,
        /// Display order (default 0).
        sequence: optional i32,
        /// Active (a new reason always is; deleting one deactivates it).
        @create[skip]
        active: optional bool,
    }
}

crate::text_enum! {
    /// The columns scrap reasons can be sorted by (default `sequence`, the display order).
    pub enum ScrapReasonSort {
        /// Display order (then code).
        Sequence,
        /// Code.
        Code,
        /// Name.
        Name,
        /// Created.
        CreatedAt,
        /// Changed.
        UpdatedAt,
    }
}

/// Scrap reasons in display order (sequence, then code) unless sorted otherwise, one page,
/// and the total, in one statement.
pub async fn list(
    conn: &mut AsyncPgConnection,
    include_inactive: bool,
    search: Option<&str>,
    sort: (Option<ScrapReasonSort>, Option<SortOrder>),
    limit: i64,
    offset: i64,
) -> AppResult<(Vec<ScrapReasonRow>, i64)> {
    let build = || {
        let mut q = scrap_reasons::table
            .select((ScrapReasonRow::as_select(), paging::total_count()))
            .into_boxed();
        if !include_inactive {
            q = q.filter(scrap_reasons::active.eq(true));
        }
        if let Some(s) = search.map(str::trim).filter(|s| !s.is_empty()) {
            let p = like_pattern(s);
            q = q.filter(
                scrap_reasons::code
                    .ilike(p.clone())
                    .or(scrap_reasons::name.ilike(p.clone()))
                    .or(scrap_reasons::description.ilike(p)),
            );
        }
        let order = sort.1.unwrap_or(SortOrder::Asc);
        let id = scrap_reasons::id;
        match sort.0.unwrap_or(ScrapReasonSort::Sequence) {
            // Codes are unique, so they break sequence ties stably.
            ScrapReasonSort::Sequence => {
                paging::sorted(q, scrap_reasons::sequence, scrap_reasons::code, order)
            }
            ScrapReasonSort::Code => paging::sorted(q, scrap_reasons::code, id, order),
            ScrapReasonSort::Name => paging::sorted(q, scrap_reasons::name, id, order),
            ScrapReasonSort::CreatedAt => paging::sorted(q, scrap_reasons::created_at, id, order),
            ScrapReasonSort::UpdatedAt => paging::sorted(q, scrap_reasons::updated_at, id, order),
        }
    };
    crate::load_page!(conn, build, limit, offset)
}

/// The scrap reason with this id.
pub async fn find(conn: &mut AsyncPgConnection, id: i64) -> AppResult<Option<ScrapReasonRow>> {
    Ok(scrap_reasons::table
        .find(id)
        .select(ScrapReasonRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The scrap reason with this code (any case).
pub async fn find_by_code(
    conn: &mut AsyncPgConnection,
    code: &str,
) -> AppResult<Option<ScrapReasonRow>> {
    Ok(scrap_reasons::table
        .filter(crate::platform::db::text::code_matches(
            scrap_reasons::code,
            code,
        ))
        .select(ScrapReasonRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// Inserts a scrap reason (omitted columns take their database defaults).
pub async fn insert(
    conn: &mut AsyncPgConnection,
    form: &ScrapReasonForm,
) -> AppResult<ScrapReasonRow> {
    Ok(diesel::insert_into(scrap_reasons::table)
        .values(form)
        .returning(ScrapReasonRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Updates a scrap reason (an empty change answers the row as it is).
pub async fn update(
    conn: &mut AsyncPgConnection,
    id: i64,
    form: &ScrapReasonForm,
) -> AppResult<ScrapReasonRow> {
    let result = diesel::update(scrap_reasons::table.find(id))
        .set(form)
        .returning(ScrapReasonRow::as_returning())
        .get_result(conn)
        .await;
    match result {
        Err(diesel::result::Error::NotFound) => Err(AppError::not_found("Scrap reason not found")),
        Err(e) if crate::platform::db::is_empty_update(&e) => find(conn, id)
            .await?
            .ok_or_else(|| AppError::not_found("Scrap reason not found")),
        other => Ok(other?),
    }
}
