//! Working hours of a work center (Strata's own; FilaOps has none): open periods per weekday
//! and days whose hours differ, in minutes from midnight UTC. A work center without weekly
//! periods is open around the clock. The rows, the GraphQL shapes, the queries and
//! [`calendars`], which builds the scheduling engine's [`Calendar`] of each work center.
//! Rules are in `rules/hours.rs`.

use std::collections::HashMap;

use async_graphql::{InputObject, SimpleObject};
use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::scheduling::engine::Calendar;
use crate::operations::scheduling::rules::REASON_MAX;
use crate::platform::db::schema::{work_center_exceptions, work_center_hours};
use crate::platform::error::AppResult;
use crate::platform::graphql::limits::{length, range};

/// One open period of a weekday.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = work_center_hours, check_for_backend(diesel::pg::Pg))]
pub struct OpenPeriod {
    /// The work center (the enclosing `WorkCenterHours` says which).
    #[graphql(skip)]
    pub work_center_id: i64,
    /// The weekday: 0 = Monday .. 6 = Sunday.
    pub weekday: i16,
    /// Opens, in minutes from midnight UTC (0-1439).
    pub opens_minute: i16,
    /// Closes, in minutes from midnight UTC (after `opensMinute`, at most 1440).
    pub closes_minute: i16,
}

/// One open period of a weekday, as set.
#[derive(Debug, Clone, Copy, InputObject)]
pub struct OpenPeriodInput {
    /// The weekday: 0 = Monday .. 6 = Sunday.
    #[graphql(directive = range::apply(0, 6))]
    pub weekday: i32,
    /// Opens, in minutes from midnight UTC (0-1439).
    #[graphql(directive = range::apply(0, 1439))]
    pub opens_minute: i32,
    /// Closes, in minutes from midnight UTC (after `opensMinute`, at most 1440).
    #[graphql(directive = range::apply(1, 1440))]
    pub closes_minute: i32,
}

/// A day whose hours differ from the week: closed (no period) or open for one period. A day
/// may hold several open periods (a split shift), one exception each.
#[derive(Debug, Clone, Queryable, Selectable, SimpleObject)]
#[diesel(table_name = work_center_exceptions, check_for_backend(diesel::pg::Pg))]
#[graphql(name = "HoursException")]
pub struct HoursExceptionRow {
    /// Id.
    pub id: i64,
    /// The work center.
    pub work_center_id: i64,
    /// The day (UTC).
    pub day: NaiveDate,
    /// Opens, in minutes from midnight UTC (null: closed all day).
    pub opens_minute: Option<i16>,
    /// Closes, in minutes from midnight UTC (null: closed all day).
    pub closes_minute: Option<i16>,
    /// Why (a holiday, a Saturday shift).
    pub reason: Option<String>,
}

/// A day whose hours differ from the week: give both minutes for an open period, neither
/// for a closed day.
#[derive(Debug, Clone, InputObject)]
pub struct HoursExceptionInput {
    /// The day (UTC).
    pub day: NaiveDate,
    /// Opens, in minutes from midnight UTC (0-1439; with `closesMinute`).
    #[graphql(directive = range::apply(0, 1439))]
    pub opens_minute: Option<i32>,
    /// Closes, in minutes from midnight UTC (1-1440, after `opensMinute`).
    #[graphql(directive = range::apply(1, 1440))]
    pub closes_minute: Option<i32>,
    /// Why (up to 255 characters).
    #[graphql(directive = length::apply(REASON_MAX))]
    pub reason: Option<String>,
}

/// The working hours of a work center.
#[derive(Debug, Clone, SimpleObject)]
pub struct WorkCenterHours {
    /// The work center.
    pub work_center_id: i64,
    /// The open periods of the week, by weekday then opening; empty = open around the clock.
    pub weekly: Vec<OpenPeriod>,
    /// The days whose hours differ, by day then opening.
    pub exceptions: Vec<HoursExceptionRow>,
    /// True when no weekly periods are set: open around the clock (exceptions still apply).
    pub always_open: bool,
}

/// The weekly periods of work centers, by work center, weekday, opening.
pub async fn weekly(conn: &mut AsyncPgConnection, ids: &[i64]) -> AppResult<Vec<OpenPeriod>> {
    Ok(work_center_hours::table
        .filter(work_center_hours::work_center_id.eq_any(ids))
        .order((
            work_center_hours::work_center_id,
            work_center_hours::weekday,
            work_center_hours::opens_minute,
        ))
        .select(OpenPeriod::as_select())
        .load(conn)
        .await?)
}

/// The exceptions of work centers, by work center, day, opening (closed days first).
pub async fn exceptions(
    conn: &mut AsyncPgConnection,
    ids: &[i64],
) -> AppResult<Vec<HoursExceptionRow>> {
    Ok(work_center_exceptions::table
        .filter(work_center_exceptions::work_center_id.eq_any(ids))
        .order((
            work_center_exceptions::work_center_id,
            work_center_exceptions::day,
            work_center_exceptions::opens_minute.asc().nulls_first(),
            work_center_exceptions::id,
        ))
        .select(HoursExceptionRow::as_select())
        .load(conn)
        .await?)
}

/// The exceptions of one work center on one day.
pub async fn exceptions_on(
    conn: &mut AsyncPgConnection,
    work_center_id: i64,
    day: NaiveDate,
) -> AppResult<Vec<HoursExceptionRow>> {
    Ok(work_center_exceptions::table
        .filter(work_center_exceptions::work_center_id.eq(work_center_id))
        .filter(work_center_exceptions::day.eq(day))
        .select(HoursExceptionRow::as_select())
        .load(conn)
        .await?)
}

/// The working hours of one work center (two statements).
pub async fn of(conn: &mut AsyncPgConnection, work_center_id: i64) -> AppResult<WorkCenterHours> {
    let weekly = weekly(conn, &[work_center_id]).await?;
    let exceptions = exceptions(conn, &[work_center_id]).await?;
    Ok(WorkCenterHours {
        work_center_id,
        always_open: weekly.is_empty(),
        weekly,
        exceptions,
    })
}

/// Replaces the weekly periods of a work center.
pub async fn replace_weekly(
    conn: &mut AsyncPgConnection,
    work_center_id: i64,
    periods: &[OpenPeriod],
) -> AppResult<()> {
    diesel::delete(
        work_center_hours::table.filter(work_center_hours::work_center_id.eq(work_center_id)),
    )
    .execute(conn)
    .await?;
    if !periods.is_empty() {
        let rows: Vec<_> = periods
            .iter()
            .map(|p| {
                (
                    work_center_hours::work_center_id.eq(work_center_id),
                    work_center_hours::weekday.eq(p.weekday),
                    work_center_hours::opens_minute.eq(p.opens_minute),
                    work_center_hours::closes_minute.eq(p.closes_minute),
                )
            })
            .collect();
        diesel::insert_into(work_center_hours::table)
            .values(rows)
            .execute(conn)
            .await?;
    }
    Ok(())
}

/// A checked exception, ready to insert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewException {
    /// The work center.
    pub work_center_id: i64,
    /// The day (UTC).
    pub day: NaiveDate,
    /// The open period (opens, closes), or `None` for a closed day.
    pub period: Option<(i16, i16)>,
    /// Why.
    pub reason: Option<String>,
}

/// Inserts a checked exception.
pub async fn insert_exception(
    conn: &mut AsyncPgConnection,
    new: &NewException,
) -> AppResult<HoursExceptionRow> {
    Ok(diesel::insert_into(work_center_exceptions::table)
        .values((
            work_center_exceptions::work_center_id.eq(new.work_center_id),
            work_center_exceptions::day.eq(new.day),
            work_center_exceptions::opens_minute.eq(new.period.map(|p| p.0)),
            work_center_exceptions::closes_minute.eq(new.period.map(|p| p.1)),
            work_center_exceptions::reason.eq(&new.reason),
        ))
        .returning(HoursExceptionRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Deletes an exception; false when there was none.
pub async fn delete_exception(conn: &mut AsyncPgConnection, id: i64) -> AppResult<bool> {
    let n = diesel::delete(work_center_exceptions::table.find(id))
        .execute(conn)
        .await?;
    Ok(n > 0)
}

/// A stored minute as the engine's (the table's checks keep it within 0-1440).
fn minute(m: i16) -> Option<u16> {
    u16::try_from(m).ok()
}

/// The engine's calendar of each work center asked for (two statements whatever their
/// number): `weekly` is `None` for a work center without periods (open around the clock),
/// and an exception day without a period is closed all day. A work center that does not
/// exist gets an always-open calendar too.
pub async fn calendars(
    conn: &mut AsyncPgConnection,
    work_center_ids: &[i64],
) -> AppResult<HashMap<i64, Calendar>> {
    let weekly = weekly(conn, work_center_ids).await?;
    let exceptions = exceptions(conn, work_center_ids).await?;
    Ok(build_calendars(work_center_ids, &weekly, &exceptions))
}

/// [`calendars`] from loaded rows.
pub fn build_calendars(
    work_center_ids: &[i64],
    weekly: &[OpenPeriod],
    exceptions: &[HoursExceptionRow],
) -> HashMap<i64, Calendar> {
    let mut out: HashMap<i64, Calendar> = work_center_ids
        .iter()
        .map(|id| (*id, Calendar::always_open()))
        .collect();
    for p in weekly {
        let Some(calendar) = out.get_mut(&p.work_center_id) else {
            continue;
        };
        let week = calendar.weekly.get_or_insert_with(Default::default);
        if let (Ok(day), Some(open), Some(close)) = (
            usize::try_from(p.weekday),
            minute(p.opens_minute),
            minute(p.closes_minute),
        ) && let Some(periods) = week.get_mut(day)
        {
            periods.push((open, close));
        }
    }
    for e in exceptions {
        let Some(calendar) = out.get_mut(&e.work_center_id) else {
            continue;
        };
        let periods = calendar.exceptions.entry(e.day).or_default();
        if let (Some(open), Some(close)) = (
            e.opens_minute.and_then(minute),
            e.closes_minute.and_then(minute),
        ) {
            periods.push((open, close));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn period(work_center_id: i64, weekday: i16, opens: i16, closes: i16) -> OpenPeriod {
        OpenPeriod {
            work_center_id,
            weekday,
            opens_minute: opens,
            closes_minute: closes,
        }
    }

    fn exception(
        work_center_id: i64,
        day: NaiveDate,
        period: Option<(i16, i16)>,
    ) -> HoursExceptionRow {
        HoursExceptionRow {
            id: 1,
            work_center_id,
            day,
            opens_minute: period.map(|p| p.0),
            closes_minute: period.map(|p| p.1),
            reason: None,
        }
    }

    #[test]
    fn calendars_from_rows() {
        // 2026-12-07 is a Monday.
        let monday = NaiveDate::from_ymd_opt(2026, 12, 7).expect("date");
        let christmas = NaiveDate::from_ymd_opt(2026, 12, 25).expect("date");
        let saturday = NaiveDate::from_ymd_opt(2026, 12, 12).expect("date");
        let calendars = build_calendars(
            &[1, 2, 3],
            &[
                period(1, 0, 480, 720),
                period(1, 0, 780, 1020),
                period(1, 4, 480, 960),
                period(9, 0, 0, 60),
            ],
            &[
                exception(1, christmas, None),
                exception(2, saturday, Some((480, 600))),
                exception(2, saturday, Some((660, 720))),
                exception(2, christmas, None),
            ],
        );
        assert_eq!(calendars.len(), 3, "only the work centers asked for");
        let one = &calendars[&1];
        let week = one.weekly.as_ref().expect("weekly hours");
        assert_eq!(week[0], [(480, 720), (780, 1020)]);
        assert_eq!(week[4], [(480, 960)]);
        assert!(week[5].is_empty(), "a day without periods is closed");
        assert_eq!(one.periods_on(monday), [(480, 720), (780, 1020)]);
        assert!(one.periods_on(christmas).is_empty(), "closed on the day");

        let two = &calendars[&2];
        assert!(
            two.weekly.is_none(),
            "no weekly rows: open around the clock"
        );
        assert_eq!(two.periods_on(monday), [(0, 1440)]);
        assert_eq!(two.periods_on(saturday), [(480, 600), (660, 720)]);
        assert!(two.periods_on(christmas).is_empty());

        let three = &calendars[&3];
        assert!(three.weekly.is_none() && three.exceptions.is_empty());
    }
}
