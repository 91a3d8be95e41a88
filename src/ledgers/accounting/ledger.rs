//! Posting to the general ledger: the one way any area books money. [`post`] runs inside the
//! caller's database transaction, so a business event and its journal entry commit together
//! or not at all (DOMAIN invariant 4). Debits equal credits by construction here, and the
//! database checks it again at commit (the deferred `gl_entry_balances` trigger).

use bigdecimal::{BigDecimal, RoundingMode, Zero};
use chrono::{Datelike, NaiveDate};
use diesel::prelude::*;
use diesel::sql_types::Text;

use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::ledgers::accounting::model::{
    EntryRow, EntryStatus, PeriodRow, PeriodStatus, SourceType,
};
use crate::platform::db::schema::{
    gl_accounts, gl_fiscal_periods, gl_journal_entries, gl_journal_entry_lines,
};
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::user_error::{Stop, UserErrorCode};

diesel::define_sql_function! {
    /// PostgreSQL's `nextval`.
    fn nextval(sequence: Text) -> diesel::sql_types::BigInt;
}

/// The accounts that automatic postings use (codes of the seeded chart, CONTRACT 6.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::VariantArray)]
pub enum SystemAccount {
    /// 1000 Cash.
    Cash,
    /// 1100 Accounts Receivable.
    AccountsReceivable,
    /// 1200 Raw Materials Inventory (materials, components, supplies).
    RawMaterials,
    /// 1210 WIP Inventory.
    WorkInProgress,
    /// 1220 Finished Goods Inventory.
    FinishedGoods,
    /// 1230 Packaging Inventory.
    Packaging,
    /// 2000 Accounts Payable.
    AccountsPayable,
    /// 2100 Sales Tax Payable.
    SalesTaxPayable,
    /// 2300 Customer Deposits (payments no invoice has taken yet).
    CustomerDeposits,
    /// 3000 Owner's Equity (opening balances).
    OwnersEquity,
    /// 4000 Sales Revenue.
    SalesRevenue,
    /// 4200 Shipping Revenue.
    ShippingRevenue,
    /// 5000 COGS - Materials.
    CostOfGoodsSold,
    /// 5010 Shipping Supplies Expense.
    ShippingSupplies,
    /// 5020 Scrap Expense.
    ScrapExpense,
    /// 5030 Inventory Adjustment.
    InventoryAdjustment,
}

impl SystemAccount {
    /// The account's code in the chart.
    pub fn code(self) -> &'static str {
        match self {
            SystemAccount::Cash => "1000",
            SystemAccount::AccountsReceivable => "1100",
            SystemAccount::RawMaterials => "1200",
            SystemAccount::WorkInProgress => "1210",
            SystemAccount::FinishedGoods => "1220",
            SystemAccount::Packaging => "1230",
            SystemAccount::AccountsPayable => "2000",
            SystemAccount::SalesTaxPayable => "2100",
            SystemAccount::CustomerDeposits => "2300",
            SystemAccount::OwnersEquity => "3000",
            SystemAccount::SalesRevenue => "4000",
            SystemAccount::ShippingRevenue => "4200",
            SystemAccount::CostOfGoodsSold => "5000",
            SystemAccount::ShippingSupplies => "5010",
            SystemAccount::ScrapExpense => "5020",
            SystemAccount::InventoryAdjustment => "5030",
        }
    }
}

/// Money at the edges: cents, half away from zero (DOMAIN invariant 5).
pub fn cents(value: &BigDecimal) -> BigDecimal {
    value.with_scale_round(2, RoundingMode::HalfUp)
}

/// One line of an entry being written.
#[derive(Debug, Clone, PartialEq)]
pub struct LineDraft {
    /// The account.
    pub account: SystemAccount,
    /// Debit (cents, zero on a credit line).
    pub debit: BigDecimal,
    /// Credit (cents, zero on a debit line).
    pub credit: BigDecimal,
    /// Memo.
    pub memo: Option<String>,
}

/// A journal entry to post: built with [`EntryDraft::transfer`], so it balances by
/// construction.
#[derive(Debug, Clone)]
pub struct EntryDraft {
    /// The booking date (its fiscal period must be open).
    pub date: NaiveDate,
    /// What happened.
    pub description: String,
    /// The business event behind it.
    pub source_type: Option<SourceType>,
    /// The record behind it.
    pub source_id: Option<i64>,
    /// Who caused it.
    pub created_by: Option<i64>,
    /// The lines.
    pub lines: Vec<LineDraft>,
}

impl EntryDraft {
    /// An empty entry.
    pub fn new(date: NaiveDate, description: impl Into<String>) -> EntryDraft {
        EntryDraft {
            date,
            description: description.into(),
            source_type: None,
            source_id: None,
            created_by: None,
            lines: Vec::new(),
        }
    }

    /// Sets the business event behind the entry.
    pub fn source(mut self, source_type: SourceType, source_id: Option<i64>) -> EntryDraft {
        self.source_type = Some(source_type);
        self.source_id = source_id;
        self
    }

    /// Sets who caused it.
    pub fn by(mut self, user: Option<i64>) -> EntryDraft {
        self.created_by = user;
        self
    }

    /// Moves `amount` (rounded to cents) from `credit` to `debit`: a debit line and a credit
    /// line of the same amount. A negative amount books the other way round; zero adds
    /// nothing.
    pub fn transfer(
        mut self,
        debit: SystemAccount,
        credit: SystemAccount,
        amount: &BigDecimal,
        memo: Option<String>,
    ) -> EntryDraft {
        let amount = cents(amount);
        if amount.is_zero() {
            return self;
        }
        let (debit, credit, amount) = if amount < BigDecimal::zero() {
            (credit, debit, -amount)
        } else {
            (debit, credit, amount)
        };
        self.lines.push(LineDraft {
            account: debit,
            debit: amount.clone(),
            credit: BigDecimal::zero(),
            memo: memo.clone(),
        });
        self.lines.push(LineDraft {
            account: credit,
            debit: BigDecimal::zero(),
            credit: amount,
            memo,
        });
        self
    }

    /// Total debits and total credits.
    pub fn totals(&self) -> (BigDecimal, BigDecimal) {
        self.lines
            .iter()
            .fold((BigDecimal::zero(), BigDecimal::zero()), |(d, c), l| {
                (d + &l.debit, c + &l.credit)
            })
    }
}

/// The first and last day of the month holding `date`.
pub fn month_of(date: NaiveDate) -> (NaiveDate, NaiveDate) {
    let start = date.with_day(1).unwrap_or(date);
    let next = if start.month() == 12 {
        NaiveDate::from_ymd_opt(start.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(start.year(), start.month() + 1, 1)
    };
    let end = next.and_then(|n| n.pred_opt()).unwrap_or(start);
    (start, end)
}

/// The fiscal period (a calendar month) that holds `date`, created open when it does not
/// exist yet, and share-locked: closing it waits for this transaction.
pub async fn period_for(conn: &mut AsyncPgConnection, date: NaiveDate) -> AppResult<PeriodRow> {
    let (year, month) = (date.year(), date.month() as i32);
    let find = || {
        gl_fiscal_periods::table
            .filter(gl_fiscal_periods::year.eq(year))
            .filter(gl_fiscal_periods::period.eq(month))
            .select(PeriodRow::as_select())
            .for_share()
    };
    if let Some(found) = find().first(conn).await.optional()? {
        return Ok(found);
    }
    let (start, end) = month_of(date);
    diesel::insert_into(gl_fiscal_periods::table)
        .values((
            gl_fiscal_periods::year.eq(year),
            gl_fiscal_periods::period.eq(month),
            gl_fiscal_periods::start_date.eq(start),
            gl_fiscal_periods::end_date.eq(end),
        ))
        .on_conflict((gl_fiscal_periods::year, gl_fiscal_periods::period))
        .do_nothing()
        .execute(conn)
        .await?;
    Ok(find().first(conn).await?)
}

/// Posts an entry inside the caller's transaction and answers it; an entry without lines
/// (nothing of value moved) posts nothing and answers `None`. Refused (`NOT_ALLOWED`, REST
/// 400) when the date's fiscal period is closed.
pub async fn post(
    conn: &mut AsyncPgConnection,
    draft: EntryDraft,
) -> Result<Option<EntryRow>, Stop> {
    if draft.lines.is_empty() {
        return Ok(None);
    }
    check_balanced(&draft)?;
    let entry = open(conn, &draft).await?;
    add_lines(conn, &entry, &draft).await?;
    Ok(Some(entry))
}

fn check_balanced(draft: &EntryDraft) -> Result<(), Stop> {
    let (debits, credits) = draft.totals();
    if debits != credits {
        return Err(AppError::internal(format!(
            "unbalanced journal entry: debits {debits}, credits {credits}"
        ))
        .into());
    }
    Ok(())
}

/// Writes the header of `draft` (its lines are ignored) and answers it, so that rows posted
/// next can carry its id; [`add_lines`] must follow in the same transaction, because the
/// database refuses at commit an entry that does not balance on at least two lines. Refused
/// like [`post`] when the date's fiscal period is closed.
pub async fn open(conn: &mut AsyncPgConnection, draft: &EntryDraft) -> Result<EntryRow, Stop> {
    let period = period_for(conn, draft.date).await?;
    if period.status == PeriodStatus::Closed {
        return Err(Stop::refuse(
            "entryDate",
            UserErrorCode::NotAllowed,
            format!(
                "Fiscal period {}-{:02} is closed; nothing can be posted on {}",
                period.year, period.period, draft.date
            ),
        ));
    }
    let number: i64 = diesel::select(nextval("gl_journal_entry_seq"))
        .get_result(conn)
        .await?;
    Ok(diesel::insert_into(gl_journal_entries::table)
        .values((
            gl_journal_entries::entry_number.eq(format!("JE-{}-{number:06}", draft.date.year())),
            gl_journal_entries::entry_date.eq(draft.date),
            gl_journal_entries::description.eq(&draft.description),
            gl_journal_entries::source_type.eq(draft.source_type),
            gl_journal_entries::source_id.eq(draft.source_id),
            gl_journal_entries::status.eq(EntryStatus::Posted),
            gl_journal_entries::fiscal_period_id.eq(period.id),
            gl_journal_entries::created_by.eq(draft.created_by),
            gl_journal_entries::posted_by.eq(draft.created_by),
            gl_journal_entries::posted_at.eq(diesel::dsl::now),
        ))
        .returning(EntryRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Writes the lines of `draft` under an entry written by [`open`]; they must balance.
pub async fn add_lines(
    conn: &mut AsyncPgConnection,
    entry: &EntryRow,
    draft: &EntryDraft,
) -> Result<(), Stop> {
    check_balanced(draft)?;
    let codes: Vec<&str> = draft.lines.iter().map(|l| l.account.code()).collect();
    let ids: Vec<(i64, String)> = gl_accounts::table
        .filter(gl_accounts::account_code.eq_any(&codes))
        .select((gl_accounts::id, gl_accounts::account_code))
        .load(conn)
        .await?;
    let mut rows = Vec::with_capacity(draft.lines.len());
    for (order, line) in draft.lines.iter().enumerate() {
        let account = ids
            .iter()
            .find(|(_, code)| code == line.account.code())
            .map(|(id, _)| *id)
            .ok_or_else(|| {
                AppError::internal(format!("account {} is missing", line.account.code()))
            })?;
        rows.push((
            gl_journal_entry_lines::journal_entry_id.eq(entry.id),
            gl_journal_entry_lines::account_id.eq(account),
            gl_journal_entry_lines::debit_amount.eq(line.debit.clone()),
            gl_journal_entry_lines::credit_amount.eq(line.credit.clone()),
            gl_journal_entry_lines::memo.eq(line.memo.clone()),
            gl_journal_entry_lines::line_order.eq(order as i32),
        ));
    }
    diesel::insert_into(gl_journal_entry_lines::table)
        .values(rows)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> BigDecimal {
        BigDecimal::from_str(s).unwrap()
    }

    #[test]
    fn a_transfer_balances_and_a_negative_amount_books_the_other_way() {
        let date = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let e = EntryDraft::new(date, "x")
            .transfer(
                SystemAccount::RawMaterials,
                SystemAccount::InventoryAdjustment,
                &d("10.005"),
                None,
            )
            .transfer(
                SystemAccount::RawMaterials,
                SystemAccount::InventoryAdjustment,
                &d("-3"),
                None,
            )
            .transfer(
                SystemAccount::Cash,
                SystemAccount::AccountsReceivable,
                &d("0.004"),
                None,
            );
        assert_eq!(e.lines.len(), 4, "a zero amount adds no lines");
        assert_eq!(e.lines[0].debit, d("10.01"));
        assert_eq!(e.lines[2].account, SystemAccount::InventoryAdjustment);
        assert_eq!(e.lines[2].debit, d("3.00"));
        let (dr, cr) = e.totals();
        assert_eq!(dr, cr);
    }

    #[test]
    fn months_end_on_their_last_day() {
        let (s, e) = month_of(NaiveDate::from_ymd_opt(2028, 2, 10).unwrap());
        assert_eq!(
            (s.to_string(), e.to_string()),
            ("2028-02-01".into(), "2028-02-29".into())
        );
        let (_, e) = month_of(NaiveDate::from_ymd_opt(2026, 12, 31).unwrap());
        assert_eq!(e.to_string(), "2026-12-31");
    }
}
