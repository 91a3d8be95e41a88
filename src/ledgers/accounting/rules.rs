//! Rules of the books: normal balances in the trial balance (CONTRACT 5.18), closing and
//! reopening fiscal periods, and which inventory account an item's stock is booked in.

use bigdecimal::{BigDecimal, Zero};
use chrono::{DateTime, Days, NaiveDate, NaiveTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::ledger::SystemAccount;
use crate::ledgers::accounting::model::{AccountTotals, GlAccountType, PeriodRow, PeriodStatus};
use crate::master_data::catalog::graphql::ItemType;
use crate::platform::db::schema::gl_fiscal_periods;
use crate::platform::error::{AppError, AppResult, FieldError};
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

/// How many days a journal or report window covers when no start is given (the last 30
/// days, today included).
pub const DEFAULT_WINDOW_DAYS: i64 = 30;

/// The longest window a journal or report reads (about ten years), so a typo in a year
/// cannot ask for millions of monthly buckets.
pub const MAX_WINDOW_DAYS: i64 = 3660;

/// The dates a journal or report covers, both inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// First day.
    pub start: NaiveDate,
    /// Last day.
    pub end: NaiveDate,
}

/// The window of `start_date`..`end_date`: the end defaults to `today`, the start to
/// [`DEFAULT_WINDOW_DAYS`] days up to the end. A start after the end, or a window longer
/// than [`MAX_WINDOW_DAYS`], is a 422 naming the argument (the REST facade reports it as
/// `query.start_date` / `query.end_date`).
pub fn window(
    start: Option<NaiveDate>,
    end: Option<NaiveDate>,
    today: NaiveDate,
) -> AppResult<Window> {
    let end = end.unwrap_or(today);
    let start = match start {
        Some(s) => s,
        None => end
            .checked_sub_days(Days::new((DEFAULT_WINDOW_DAYS - 1) as u64))
            .unwrap_or(end),
    };
    if start > end {
        return Err(AppError::validation(vec![FieldError::new(
            "startDate",
            format!("start_date ({start}) must be on or before end_date ({end})"),
        )]));
    }
    if (end - start).num_days() >= MAX_WINDOW_DAYS {
        return Err(AppError::validation(vec![FieldError::new(
            "endDate",
            format!("The window may cover at most {MAX_WINDOW_DAYS} days"),
        )]));
    }
    Ok(Window { start, end })
}

/// From this moment (inclusive), before that one; open where `None`.
pub type DayBounds = (Option<DateTime<Utc>>, Option<DateTime<Utc>>);

/// The moments that bound the days `start`..=`end` (UTC): from the start's midnight, before
/// the midnight after the end; open where a day is not given. A start after the end is a
/// 422 naming `startDate`.
pub fn day_bounds(start: Option<NaiveDate>, end: Option<NaiveDate>) -> AppResult<DayBounds> {
    if let (Some(s), Some(e)) = (start, end)
        && s > e
    {
        return Err(AppError::validation(vec![FieldError::new(
            "startDate",
            format!("start_date ({s}) must be on or before end_date ({e})"),
        )]));
    }
    let midnight = |d: NaiveDate| d.and_time(NaiveTime::MIN).and_utc();
    Ok((
        start.map(midnight),
        end.map(|e| e.succ_opt().map_or(DateTime::<Utc>::MAX_UTC, midnight)),
    ))
}

/// The tolerance of `is_balanced` (CONTRACT 5.18: a variance under one cent).
pub fn balance_tolerance() -> BigDecimal {
    BigDecimal::new(1.into(), 2)
}

/// An account's balance shown on its normal side: assets and expenses as `debits -
/// credits` in the debit column when not negative (else in credit); liabilities, equity and
/// revenue as `credits - debits` in the credit column when not negative (else in debit).
/// Answers `(debit_balance, credit_balance, net_balance)`.
pub fn normal_balance(
    kind: GlAccountType,
    debits: &BigDecimal,
    credits: &BigDecimal,
) -> (BigDecimal, BigDecimal, BigDecimal) {
    let zero = BigDecimal::zero();
    if kind.debit_normal() {
        let net = debits - credits;
        if net >= zero {
            (net.clone(), zero, net)
        } else {
            (zero, -net.clone(), net)
        }
    } else {
        let net = credits - debits;
        if net >= zero {
            (zero, net.clone(), net)
        } else {
            (-net.clone(), zero, net)
        }
    }
}

/// One row of the trial balance.
#[derive(Debug, Clone)]
pub struct TrialBalanceRow {
    /// The account's totals.
    pub totals: AccountTotals,
    /// Its kind.
    pub kind: GlAccountType,
    /// Debit column.
    pub debit_balance: BigDecimal,
    /// Credit column.
    pub credit_balance: BigDecimal,
    /// Balance on the normal side.
    pub net_balance: BigDecimal,
}

/// The trial balance of these totals: rows (zero rows left out unless asked for), total
/// debits and credits of the columns.
pub fn trial_balance(
    totals: Vec<AccountTotals>,
    include_zero_balances: bool,
) -> AppResult<(Vec<TrialBalanceRow>, BigDecimal, BigDecimal)> {
    let mut rows = Vec::new();
    let (mut total_debits, mut total_credits) = (BigDecimal::zero(), BigDecimal::zero());
    for t in totals {
        let kind: GlAccountType = t
            .account_type
            .parse()
            .map_err(|_| AppError::internal(format!("account type {:?}", t.account_type)))?;
        let (debit_balance, credit_balance, net_balance) =
            normal_balance(kind, &t.debits, &t.credits);
        total_debits += &debit_balance;
        total_credits += &credit_balance;
        let untouched = t.debits.is_zero() && t.credits.is_zero();
        if untouched && !include_zero_balances {
            continue;
        }
        rows.push(TrialBalanceRow {
            totals: t,
            kind,
            debit_balance,
            credit_balance,
            net_balance,
        });
    }
    Ok((rows, total_debits, total_credits))
}

/// The inventory account an item's stock is booked in (DOMAIN "Costing"): finished goods
/// 1220, packaging 1230, everything else that is stocked 1200. Services carry no stock.
pub fn inventory_account(item_type: ItemType) -> Option<SystemAccount> {
    match item_type {
        ItemType::FinishedGood => Some(SystemAccount::FinishedGoods),
        ItemType::Packaging => Some(SystemAccount::Packaging),
        ItemType::Service => None,
        ItemType::Component | ItemType::Material | ItemType::Consumable | ItemType::Supply => {
            Some(SystemAccount::RawMaterials)
        }
    }
}

async fn lock_period(conn: &mut AsyncPgConnection, id: i64) -> Result<PeriodRow, Stop> {
    gl_fiscal_periods::table
        .find(id)
        .select(PeriodRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| Stop::Failed(AppError::not_found("Fiscal period not found")))
}

/// Closes a period (asked to confirm): postings dated in it are refused from then on. Waits
/// for postings in flight (they hold the period's share lock).
pub async fn close_period(
    conn: &mut AsyncPgConnection,
    id: i64,
    confirm: bool,
    user: i64,
) -> Result<PeriodRow, Stop> {
    if !confirm {
        return Err(Stop::refuse(
            "confirm",
            UserErrorCode::Invalid,
            "Closing a period must be confirmed (confirm: true)",
        ));
    }
    let period = lock_period(conn, id).await?;
    if period.status == PeriodStatus::Closed {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            "Period is already closed",
        ));
    }
    Ok(diesel::update(gl_fiscal_periods::table.find(id))
        .set((
            gl_fiscal_periods::status.eq(PeriodStatus::Closed),
            gl_fiscal_periods::closed_by.eq(Some(user)),
            gl_fiscal_periods::closed_at.eq(Some(chrono::Utc::now())),
        ))
        .returning(PeriodRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Reopens a closed period.
pub async fn reopen_period(conn: &mut AsyncPgConnection, id: i64) -> Result<PeriodRow, Stop> {
    let period = lock_period(conn, id).await?;
    if period.status == PeriodStatus::Open {
        return Err(Stop::refuse(
            "id",
            UserErrorCode::NotAllowed,
            "Period is not closed",
        ));
    }
    Ok(diesel::update(gl_fiscal_periods::table.find(id))
        .set((
            gl_fiscal_periods::status.eq(PeriodStatus::Open),
            gl_fiscal_periods::closed_by.eq(None::<i64>),
            gl_fiscal_periods::closed_at.eq(None::<chrono::DateTime<chrono::Utc>>),
        ))
        .returning(PeriodRow::as_returning())
        .get_result(conn)
        .await?)
}

/// The days a FilaOps trend `period` covers up to today: week, month, quarter or year to
/// date; any other value the last 365 days (FilaOps accepts anything).
pub fn period_days(period: &str, today: chrono::NaiveDate) -> i64 {
    use chrono::Datelike;
    let start = match period.trim().to_ascii_uppercase().as_str() {
        "WTD" => today - chrono::Days::new(u64::from(today.weekday().num_days_from_monday())),
        "MTD" => today.with_day(1).unwrap_or(today),
        "QTD" => chrono::NaiveDate::from_ymd_opt(today.year(), (today.month0() / 3) * 3 + 1, 1)
            .unwrap_or(today),
        "YTD" => chrono::NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap_or(today),
        _ => today - chrono::Days::new(364),
    };
    (today - start).num_days() + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::from_str(s).unwrap()
    }

    #[test]
    fn a_window_defaults_to_the_last_30_days_and_refuses_a_start_after_its_end() {
        let today = day("2026-03-15");
        let w = window(None, None, today).unwrap();
        assert_eq!((w.start, w.end), (day("2026-02-14"), today));
        let w = window(None, Some(day("2026-01-30")), today).unwrap();
        assert_eq!((w.start, w.end), (day("2026-01-01"), day("2026-01-30")));
        let w = window(Some(day("2026-03-15")), None, today).unwrap();
        assert_eq!((w.start, w.end), (today, today));
        let e = window(Some(day("2026-03-16")), None, today).unwrap_err();
        assert_eq!(e.fields[0].field, "startDate");
        let e = window(Some(day("2000-01-01")), None, today).unwrap_err();
        assert_eq!(e.fields[0].field, "endDate");
    }

    #[test]
    fn day_bounds_cover_whole_utc_days() {
        let (from, before) = day_bounds(Some(day("2026-01-31")), Some(day("2026-01-31"))).unwrap();
        assert_eq!(from.unwrap().to_rfc3339(), "2026-01-31T00:00:00+00:00");
        assert_eq!(before.unwrap().to_rfc3339(), "2026-02-01T00:00:00+00:00");
        assert_eq!(day_bounds(None, None).unwrap(), (None, None));
        let e = day_bounds(Some(day("2026-02-01")), Some(day("2026-01-31"))).unwrap_err();
        assert_eq!(e.fields[0].field, "startDate");
    }

    #[test]
    fn balances_sit_on_their_normal_side() {
        assert_eq!(
            normal_balance(GlAccountType::Asset, &d("10"), &d("4")),
            (d("6"), d("0"), d("6"))
        );
        assert_eq!(
            normal_balance(GlAccountType::Asset, &d("4"), &d("10")),
            (d("0"), d("6"), d("-6"))
        );
        assert_eq!(
            normal_balance(GlAccountType::Revenue, &d("1"), &d("9")),
            (d("0"), d("8"), d("8"))
        );
        assert_eq!(
            normal_balance(GlAccountType::Liability, &d("9"), &d("1")),
            (d("8"), d("0"), d("-8"))
        );
    }
}
