//! Rules of the books: normal balances in the trial balance (CONTRACT 5.18), closing and
//! reopening fiscal periods, and which inventory account an item's stock is booked in.

use bigdecimal::{BigDecimal, Zero};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::accounting::ledger::SystemAccount;
use crate::accounting::model::{AccountTotals, GlAccountType, PeriodRow, PeriodStatus};
use crate::catalog::graphql::ItemType;
use crate::db::schema::gl_fiscal_periods;
use crate::error::{AppError, AppResult};
use crate::graphql::user_error::{Stop, UserErrorCode};

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
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
