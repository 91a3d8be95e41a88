//! Working hours rules: a period opens at minute 0-1439 and closes after it, at 1440 at the
//! latest; the periods of one day do not overlap (touching is fine: 8:00-12:00 and
//! 12:00-17:00); an exception is a closed day or one open period, and a day is either closed
//! or open for periods that do not overlap. Saves lock the work center's row, so two saves
//! of one work center run one after the other.

use chrono::NaiveDate;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::operations::scheduling::hours::{
    self, HoursExceptionInput, HoursExceptionRow, NewException, OpenPeriod, OpenPeriodInput,
    WorkCenterHours,
};
use crate::operations::scheduling::rules::{DAY_MINUTES, REASON_MAX};
use crate::platform::db::schema::work_centers;
use crate::platform::db::text;
use crate::platform::error::AppError;
use crate::platform::graphql::user_error::{Stop, UserError, UserErrorCode, invalid};

/// Checks one period (`field` prefixes the field names): the minutes within the day, the
/// close after the open. Answers the period as stored when it is right.
fn check_period(
    errors: &mut Vec<UserError>,
    field: &str,
    opens: i32,
    closes: i32,
) -> Option<(i16, i16)> {
    let before = errors.len();
    if !(0..DAY_MINUTES).contains(&opens) {
        errors.push(invalid(
            &format!("{field}opensMinute"),
            format!("Input should be between 0 and {}", DAY_MINUTES - 1),
        ));
    }
    if !(1..=DAY_MINUTES).contains(&closes) {
        errors.push(invalid(
            &format!("{field}closesMinute"),
            format!("Input should be between 1 and {DAY_MINUTES}"),
        ));
    }
    if errors.len() == before && closes <= opens {
        errors.push(invalid(
            &format!("{field}closesMinute"),
            "Must be after opensMinute",
        ));
    }
    let period = (i16::try_from(opens).ok()?, i16::try_from(closes).ok()?);
    (errors.len() == before).then_some(period)
}

/// Checks a whole week of periods (any order): weekdays 0-6, each period right, none
/// overlapping another of its day. Answers the periods as stored (for `work_center_id`).
pub fn check_week(
    work_center_id: i64,
    periods: &[OpenPeriodInput],
) -> Result<Vec<OpenPeriod>, Vec<UserError>> {
    let mut errors = Vec::new();
    let mut out: Vec<(usize, OpenPeriod)> = Vec::new();
    for (i, p) in periods.iter().enumerate() {
        let field = format!("periods.{i}.");
        let weekday = i16::try_from(p.weekday)
            .ok()
            .filter(|d| (0..=6).contains(d));
        if weekday.is_none() {
            errors.push(invalid(
                &format!("{field}weekday"),
                "Input should be between 0 (Monday) and 6 (Sunday)",
            ));
        }
        let period = check_period(&mut errors, &field, p.opens_minute, p.closes_minute);
        if let (Some(weekday), Some((opens_minute, closes_minute))) = (weekday, period) {
            out.push((
                i,
                OpenPeriod {
                    work_center_id,
                    weekday,
                    opens_minute,
                    closes_minute,
                },
            ));
        }
    }
    out.sort_by_key(|(_, p)| (p.weekday, p.opens_minute, p.closes_minute));
    for pair in out.windows(2) {
        if let [(_, a), (j, b)] = pair
            && a.weekday == b.weekday
            && b.opens_minute < a.closes_minute
        {
            errors.push(invalid(
                &format!("periods.{j}.opensMinute"),
                "Overlaps another period of the same day",
            ));
        }
    }
    if errors.is_empty() {
        Ok(out.into_iter().map(|(_, p)| p).collect())
    } else {
        Err(errors)
    }
}

/// Locks a work center's row, or refuses one that does not exist (a 404 over REST).
async fn lock_work_center(conn: &mut AsyncPgConnection, id: i64) -> Result<(), Stop> {
    let found = work_centers::table
        .find(id)
        .select(work_centers::id)
        .for_update()
        .first::<i64>(conn)
        .await
        .optional()?;
    match found {
        Some(_) => Ok(()),
        None => Err(Stop::refuse(
            "workCenterId",
            UserErrorCode::NotFound,
            "Work center not found",
        )),
    }
}

/// Replaces a work center's week with `periods` (an empty list: open around the clock).
pub async fn set_weekly(
    conn: &mut AsyncPgConnection,
    work_center_id: i64,
    periods: Vec<OpenPeriodInput>,
) -> Result<WorkCenterHours, Stop> {
    let week = check_week(work_center_id, &periods).map_err(Stop::Refused)?;
    lock_work_center(conn, work_center_id).await?;
    hours::replace_weekly(conn, work_center_id, &week).await?;
    Ok(hours::of(conn, work_center_id).await?)
}

/// Checks a new exception of a work center: both minutes (an open period) or neither
/// (closed all day), and the reason. Answers it as it will be stored.
pub fn check_exception(
    work_center_id: i64,
    input: &HoursExceptionInput,
) -> Result<NewException, Vec<UserError>> {
    let mut errors = Vec::new();
    let period = match (input.opens_minute, input.closes_minute) {
        (Some(opens), Some(closes)) => check_period(&mut errors, "", opens, closes),
        (None, None) => None,
        (opens, _) => {
            errors.push(invalid(
                if opens.is_none() {
                    "opensMinute"
                } else {
                    "closesMinute"
                },
                "Give both opensMinute and closesMinute for an open period, or neither for a closed day",
            ));
            None
        }
    };
    let mut reason = Some(input.reason.clone());
    text::clearable(&mut errors, "reason", &mut reason, REASON_MAX);
    if errors.is_empty() {
        Ok(NewException {
            work_center_id,
            day: input.day,
            period,
            reason: reason.flatten(),
        })
    } else {
        Err(errors)
    }
}

/// Why a day's existing exceptions refuse a new one, if they do: a closed day takes no
/// periods, a day with hours cannot also be closed, periods of a day do not overlap.
pub fn day_conflict(
    day: NaiveDate,
    period: Option<(i16, i16)>,
    existing: &[HoursExceptionRow],
) -> Option<UserError> {
    let refuse = |field: &str, message: String| {
        Some(UserError::new(field, UserErrorCode::NotAllowed, message))
    };
    let closed = existing.iter().any(|e| e.opens_minute.is_none());
    match period {
        None if !existing.is_empty() => refuse(
            "day",
            format!("{day} already has its own hours; delete them first to close the day"),
        ),
        Some(_) if closed => refuse(
            "day",
            format!("{day} is closed all day; delete that exception first"),
        ),
        Some((opens, closes))
            if existing.iter().any(|e| {
                matches!((e.opens_minute, e.closes_minute), (Some(o), Some(c)) if o < closes && opens < c)
            }) =>
        {
            refuse(
                "opensMinute",
                format!("Overlaps the hours already set for {day}"),
            )
        }
        _ => None,
    }
}

/// Adds a day whose hours differ from the week to a work center.
pub async fn add_exception(
    conn: &mut AsyncPgConnection,
    work_center_id: i64,
    input: HoursExceptionInput,
) -> Result<HoursExceptionRow, Stop> {
    let new = check_exception(work_center_id, &input).map_err(Stop::Refused)?;
    lock_work_center(conn, work_center_id).await?;
    let existing = hours::exceptions_on(conn, work_center_id, new.day).await?;
    if let Some(error) = day_conflict(new.day, new.period, &existing) {
        return Err(Stop::Refused(vec![error]));
    }
    Ok(hours::insert_exception(conn, &new).await?)
}

/// Deletes an exception (`Hours exception not found` is a 404).
pub async fn delete_exception(conn: &mut AsyncPgConnection, id: i64) -> Result<(), Stop> {
    if hours::delete_exception(conn, id).await? {
        Ok(())
    } else {
        Err(Stop::Failed(AppError::not_found(
            "Hours exception not found",
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(weekday: i32, opens: i32, closes: i32) -> OpenPeriodInput {
        OpenPeriodInput {
            weekday,
            opens_minute: opens,
            closes_minute: closes,
        }
    }

    fn fields(errors: &[UserError]) -> Vec<&str> {
        errors.iter().filter_map(|e| e.field.as_deref()).collect()
    }

    #[test]
    fn a_week_of_periods() {
        let week = check_week(7, &[p(0, 780, 1020), p(0, 480, 720), p(6, 0, 1440)]).expect("valid");
        let got: Vec<(i16, i16, i16)> = week
            .iter()
            .map(|p| (p.weekday, p.opens_minute, p.closes_minute))
            .collect();
        assert_eq!(got, [(0, 480, 720), (0, 780, 1020), (6, 0, 1440)]);
        assert!(week.iter().all(|p| p.work_center_id == 7));
        // Touching periods are fine; an empty week is open around the clock.
        assert!(check_week(7, &[p(1, 480, 720), p(1, 720, 1020)]).is_ok());
        assert_eq!(check_week(7, &[]).ok().map(|w| w.len()), Some(0));

        let errors = check_week(
            7,
            &[
                p(7, 0, 60),
                p(0, -1, 60),
                p(0, 600, 1441),
                p(0, 600, 600),
                p(2, 1440, 1440),
            ],
        )
        .expect_err("invalid");
        assert_eq!(
            fields(&errors),
            [
                "periods.0.weekday",
                "periods.1.opensMinute",
                "periods.2.closesMinute",
                "periods.3.closesMinute",
                "periods.4.opensMinute"
            ]
        );
        let errors =
            check_week(7, &[p(3, 480, 720), p(4, 0, 60), p(3, 700, 800)]).expect_err("overlap");
        assert_eq!(fields(&errors), ["periods.2.opensMinute"]);
        assert_eq!(errors[0].message, "Overlaps another period of the same day");
    }

    fn exception(opens: Option<i16>, closes: Option<i16>) -> HoursExceptionRow {
        HoursExceptionRow {
            id: 1,
            work_center_id: 7,
            day: NaiveDate::from_ymd_opt(2026, 12, 24).expect("date"),
            opens_minute: opens,
            closes_minute: closes,
            reason: None,
        }
    }

    #[test]
    fn exceptions_of_a_day() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 24).expect("date");
        let input = |o: Option<i32>, c: Option<i32>| HoursExceptionInput {
            day,
            opens_minute: o,
            closes_minute: c,
            reason: Some(" Christmas Eve ".into()),
        };
        assert_eq!(
            check_exception(7, &input(None, None)).ok(),
            Some(NewException {
                work_center_id: 7,
                day,
                period: None,
                reason: Some("Christmas Eve".into())
            })
        );
        assert_eq!(
            check_exception(7, &input(Some(480), Some(720)))
                .ok()
                .and_then(|n| n.period),
            Some((480, 720))
        );
        let only_open = check_exception(7, &input(Some(480), None)).expect_err("half");
        assert_eq!(fields(&only_open), ["closesMinute"]);
        let only_close = check_exception(7, &input(None, Some(480))).expect_err("half");
        assert_eq!(fields(&only_close), ["opensMinute"]);
        assert_eq!(
            fields(&check_exception(7, &input(Some(720), Some(480))).expect_err("order")),
            ["closesMinute"]
        );

        assert!(day_conflict(day, None, &[]).is_none());
        assert!(day_conflict(day, Some((480, 720)), &[exception(Some(720), Some(900))]).is_none());
        let closed = day_conflict(day, Some((480, 720)), &[exception(None, None)]).expect("closed");
        assert!(
            closed.message.contains("closed all day"),
            "{}",
            closed.message
        );
        let has_hours = day_conflict(day, None, &[exception(Some(0), Some(60))]).expect("hours");
        assert_eq!(has_hours.field.as_deref(), Some("day"));
        let overlap = day_conflict(day, Some((480, 720)), &[exception(Some(700), Some(900))])
            .expect("overlap");
        assert_eq!(overlap.field.as_deref(), Some("opensMinute"));
    }
}
