//! The books in the schema (admins only, spec 4.5): the chart of accounts, journal entries
//! and their lines, the trial balance, an account's ledger, inventory valuation, fiscal
//! periods and their close. Relations (entry -> lines -> account, account -> entries) go
//! through the loaders of [`loaders`].

use async_graphql::{ComplexObject, Context, Object, SimpleObject};
use bigdecimal::{BigDecimal, Zero};
use chrono::NaiveDate;

use crate::ledgers::accounting::model::{
    self, AccountRow, EntryRow, GlAccountType, LineRow, PeriodRow,
};
use crate::ledgers::accounting::rules;
use crate::platform::auth::Access;
use crate::platform::error::{AppError, AppResult};
use crate::platform::graphql::context;
use crate::platform::graphql::pagination::{Page, PageInfo};
use crate::platform::graphql::scalars::Decimal;
use crate::platform::graphql::user_error::UserError;

pub mod loaders {
    //! Loaders of the books: one query per page of parents, never one per row.

    use std::collections::HashMap;

    use async_graphql::dataloader::{DataLoader, HashMapCache, Loader};

    use crate::ledgers::accounting::model::{self, AccountRow, EntryRow, LineRow};
    use crate::platform::db::DbPool;
    use crate::platform::error::AppError;

    /// Accounts by id.
    pub struct AccountLoader {
        /// The pool.
        pub pool: DbPool,
    }

    impl Loader<i64> for AccountLoader {
        type Value = AccountRow;
        type Error = AppError;
        async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, AccountRow>, AppError> {
            let mut conn = self.pool.get().await?;
            Ok(model::accounts_by_id(&mut conn, keys)
                .await?
                .into_iter()
                .map(|a| (a.id, a))
                .collect())
        }
    }

    /// Journal entries by id.
    pub struct EntryLoader {
        /// The pool.
        pub pool: DbPool,
    }

    impl Loader<i64> for EntryLoader {
        type Value = EntryRow;
        type Error = AppError;
        async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, EntryRow>, AppError> {
            let mut conn = self.pool.get().await?;
            Ok(model::entries_by_id(&mut conn, keys)
                .await?
                .into_iter()
                .map(|e| (e.id, e))
                .collect())
        }
    }

    /// The lines of journal entries, by entry id.
    pub struct EntryLinesLoader {
        /// The pool.
        pub pool: DbPool,
    }

    impl Loader<i64> for EntryLinesLoader {
        type Value = Vec<LineRow>;
        type Error = AppError;
        async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Vec<LineRow>>, AppError> {
            let mut conn = self.pool.get().await?;
            let mut out: HashMap<i64, Vec<LineRow>> =
                keys.iter().map(|k| (*k, Vec::new())).collect();
            for line in model::lines_of(&mut conn, keys).await? {
                out.entry(line.journal_entry_id).or_default().push(line);
            }
            Ok(out)
        }
    }

    /// The most recent entries touching an account, keyed by (account id, how many).
    pub struct AccountEntriesLoader {
        /// The pool.
        pub pool: DbPool,
    }

    impl Loader<(i64, i64)> for AccountEntriesLoader {
        type Value = Vec<EntryRow>;
        type Error = AppError;
        async fn load(
            &self,
            keys: &[(i64, i64)],
        ) -> Result<HashMap<(i64, i64), Vec<EntryRow>>, AppError> {
            let mut conn = self.pool.get().await?;
            let mut out = HashMap::new();
            let mut limits: Vec<i64> = keys.iter().map(|k| k.1).collect();
            limits.sort_unstable();
            limits.dedup();
            for limit in limits {
                let accounts: Vec<i64> =
                    keys.iter().filter(|k| k.1 == limit).map(|k| k.0).collect();
                let pairs =
                    model::recent_entry_ids_of_accounts(&mut conn, &accounts, limit).await?;
                let ids: Vec<i64> = pairs.iter().map(|p| p.1).collect();
                let entries: HashMap<i64, EntryRow> = model::entries_by_id(&mut conn, &ids)
                    .await?
                    .into_iter()
                    .map(|e| (e.id, e))
                    .collect();
                for account in accounts {
                    let list = pairs
                        .iter()
                        .filter(|p| p.0 == account)
                        .filter_map(|p| entries.get(&p.1).cloned())
                        .collect();
                    out.insert((account, limit), list);
                }
            }
            Ok(out)
        }
    }

    /// Per-request accounts.
    pub type Accounts = DataLoader<AccountLoader, HashMapCache>;
    /// Per-request entries.
    pub type Entries = DataLoader<EntryLoader, HashMapCache>;
    /// Per-request entry lines.
    pub type EntryLines = DataLoader<EntryLinesLoader, HashMapCache>;
    /// Per-request recent entries of accounts.
    pub type AccountEntries = DataLoader<AccountEntriesLoader, HashMapCache>;

    /// Attaches the books' loaders to one request.
    pub fn attach(request: async_graphql::Request, pool: &DbPool) -> async_graphql::Request {
        let spawn = crate::platform::graphql::context::spawn_in_current_span;
        request
            .data(DataLoader::with_cache(
                AccountLoader { pool: pool.clone() },
                spawn,
                HashMapCache::default(),
            ))
            .data(DataLoader::with_cache(
                EntryLoader { pool: pool.clone() },
                spawn,
                HashMapCache::default(),
            ))
            .data(DataLoader::with_cache(
                EntryLinesLoader { pool: pool.clone() },
                spawn,
                HashMapCache::default(),
            ))
            .data(DataLoader::with_cache(
                AccountEntriesLoader { pool: pool.clone() },
                spawn,
                HashMapCache::default(),
            ))
    }
}

fn loader<'a, T: Send + Sync + 'static>(ctx: &'a Context<'_>) -> AppResult<&'a T> {
    ctx.data::<T>().map_err(|e| AppError::internal(e.message))
}

#[ComplexObject]
impl AccountRow {
    /// The most recent journal entries that touch this account (newest first).
    async fn entries(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "How many (1-100, default 20).", default = 20, directive = crate::platform::graphql::limits::range::apply(1, 100))]
        first: i64,
    ) -> AppResult<Vec<EntryRow>> {
        let first = first.clamp(1, 100);
        Ok(loader::<loaders::AccountEntries>(ctx)?
            .load_one((self.id, first))
            .await?
            .unwrap_or_default())
    }
}

async fn lines_of(ctx: &Context<'_>, entry: i64) -> AppResult<Vec<LineRow>> {
    Ok(loader::<loaders::EntryLines>(ctx)?
        .load_one(entry)
        .await?
        .unwrap_or_default())
}

async fn account_of(ctx: &Context<'_>, id: i64) -> AppResult<AccountRow> {
    loader::<loaders::Accounts>(ctx)?
        .load_one(id)
        .await?
        .ok_or_else(|| AppError::internal("journal line without its account"))
}

#[ComplexObject]
impl EntryRow {
    /// The debit and credit lines.
    async fn lines(&self, ctx: &Context<'_>) -> AppResult<Vec<LineRow>> {
        lines_of(ctx, self.id).await
    }

    /// Sum of the debits (equal to the credits: the database refuses anything else).
    async fn total_debit(&self, ctx: &Context<'_>) -> AppResult<Decimal> {
        let lines = lines_of(ctx, self.id).await?;
        Ok(Decimal(
            lines.iter().map(|l| l.debit_amount.0.clone()).sum(),
        ))
    }
}

#[ComplexObject]
impl LineRow {
    /// The account.
    async fn account(&self, ctx: &Context<'_>) -> AppResult<AccountRow> {
        account_of(ctx, self.account_id).await
    }

    /// The account's code.
    async fn account_code(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(account_of(ctx, self.account_id).await?.account_code)
    }

    /// The account's name.
    async fn account_name(&self, ctx: &Context<'_>) -> AppResult<String> {
        Ok(account_of(ctx, self.account_id).await?.name)
    }
}

/// One account on the trial balance.
#[derive(Debug, Clone, SimpleObject)]
pub struct TrialBalanceAccount {
    /// Code.
    pub account_code: String,
    /// Name.
    pub account_name: String,
    /// Kind.
    pub account_type: GlAccountType,
    /// Debit column (the balance when it sits on the debit side).
    pub debit_balance: Decimal,
    /// Credit column.
    pub credit_balance: Decimal,
    /// The balance on the account's normal side (negative when it sits on the other).
    pub net_balance: Decimal,
}

/// The trial balance as of a date (CONTRACT 5.18).
#[derive(Debug, Clone, SimpleObject)]
pub struct TrialBalance {
    /// The date: every posted entry dated on or before it counts.
    pub as_of_date: NaiveDate,
    /// The accounts, by code.
    pub accounts: Vec<TrialBalanceAccount>,
    /// Sum of the debit column.
    pub total_debits: Decimal,
    /// Sum of the credit column.
    pub total_credits: Decimal,
    /// Debits and credits agree (variance under one cent).
    pub is_balanced: bool,
    /// Total debits minus total credits.
    pub variance: Decimal,
}

/// A line of an account's ledger.
#[derive(Debug, Clone, SimpleObject)]
pub struct LedgerLine {
    /// The entry.
    pub journal_entry_id: i64,
    /// Its number.
    pub entry_number: String,
    /// Its date.
    pub entry_date: NaiveDate,
    /// What happened.
    pub description: String,
    /// The business event behind it.
    pub source_type: Option<String>,
    /// The record behind it.
    pub source_id: Option<i64>,
    /// Debit.
    pub debit: Decimal,
    /// Credit.
    pub credit: Decimal,
    /// Memo.
    pub memo: Option<String>,
    /// The account's balance after this line, on its normal side.
    pub running_balance: Decimal,
}

/// An account's ledger: its lines in date order with running balances.
#[derive(Debug, Clone, SimpleObject)]
pub struct AccountLedger {
    /// The account.
    pub account: AccountRow,
    /// Lines in the range, over all pages.
    pub total_count: i64,
    /// This page of lines, oldest first.
    pub lines: Vec<LedgerLine>,
    /// Where this page sits.
    pub page_info: PageInfo,
}

/// The value of stock by inventory account, next to the account's ledger balance.
#[derive(Debug, Clone, SimpleObject)]
pub struct ValuationRow {
    /// The inventory account's code.
    pub account_code: String,
    /// Its name.
    pub account_name: String,
    /// Items with stock on hand booked in it.
    pub item_count: i64,
    /// Total quantity on hand (mixed units).
    pub total_quantity: Decimal,
    /// The stock's value: the cost of every movement still on hand (the inventory ledger).
    pub inventory_value: Decimal,
    /// The account's balance in the general ledger.
    pub gl_balance: Decimal,
    /// Inventory value minus ledger balance (rounding of cents only, when the books agree).
    pub variance: Decimal,
}

/// Inventory valuation (`/accounting/inventory-valuation`).
#[derive(Debug, Clone, SimpleObject)]
pub struct InventoryValuation {
    /// As of now.
    pub as_of_date: NaiveDate,
    /// One row per inventory account.
    pub categories: Vec<ValuationRow>,
    /// Sum of the stock values.
    pub total_inventory_value: Decimal,
    /// Sum of the ledger balances.
    pub total_gl_balance: Decimal,
    /// The difference.
    pub total_variance: Decimal,
    /// Stock and books agree to within a cent per account.
    pub is_reconciled: bool,
}

/// The headline figures of the books (`/accounting/summary`).
#[derive(Debug, Clone, SimpleObject)]
pub struct AccountingSummary {
    /// As of this date.
    pub as_of_date: NaiveDate,
    /// Assets.
    pub total_assets: Decimal,
    /// Liabilities.
    pub total_liabilities: Decimal,
    /// Equity (before this year's result).
    pub total_equity: Decimal,
    /// Revenue.
    pub total_revenue: Decimal,
    /// Expenses.
    pub total_expenses: Decimal,
    /// Revenue minus expenses.
    pub net_income: Decimal,
    /// The value of stock on hand (1200 + 1210 + 1220 + 1230).
    pub inventory_value: Decimal,
    /// Journal entries posted, all time.
    pub entry_count: i64,
    /// The trial balance balances.
    pub is_balanced: bool,
}

crate::connection!(
    /// A page of journal entries.
    JournalEntryConnection,
    EntryRow
);

fn today() -> NaiveDate {
    chrono::Utc::now().date_naive()
}

async fn trial_balance(
    ctx: &Context<'_>,
    as_of: NaiveDate,
    include_zero: bool,
) -> AppResult<TrialBalance> {
    let totals = model::totals_as_of(&mut *context::conn(ctx).await?, as_of).await?;
    let (rows, total_debits, total_credits) = rules::trial_balance(totals, include_zero)?;
    let variance = &total_debits - &total_credits;
    Ok(TrialBalance {
        as_of_date: as_of,
        is_balanced: variance.abs() < rules::balance_tolerance(),
        accounts: rows
            .into_iter()
            .map(|r| TrialBalanceAccount {
                account_code: r.totals.account_code,
                account_name: r.totals.name,
                account_type: r.kind,
                debit_balance: Decimal(r.debit_balance),
                credit_balance: Decimal(r.credit_balance),
                net_balance: Decimal(r.net_balance),
            })
            .collect(),
        total_debits: Decimal(total_debits),
        total_credits: Decimal(total_credits),
        variance: Decimal(variance),
    })
}

/// Queries of the books (admins).
#[derive(Default)]
pub struct AccountingQuery;

#[Object]
impl AccountingQuery {
    /// The chart of accounts, by code.
    #[graphql(guard = "Access::Admin")]
    async fn gl_accounts(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only active accounts (default).", default = true)] active_only: bool,
    ) -> AppResult<Vec<AccountRow>> {
        model::accounts(&mut *context::conn(ctx).await?, active_only).await
    }

    /// The trial balance as of a date (default today): every account's balance on its
    /// normal side, the column totals and whether they agree.
    #[graphql(guard = "Access::Admin")]
    async fn trial_balance(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Entries dated on or before this day count (default today).")] as_of_date: Option<NaiveDate>,
        #[graphql(desc = "List accounts without postings too.", default = false)]
        include_zero_balances: bool,
    ) -> AppResult<TrialBalance> {
        trial_balance(ctx, as_of_date.unwrap_or_else(today), include_zero_balances).await
    }

    /// One account's ledger: its lines between two dates, oldest first, with running
    /// balances.
    #[graphql(guard = "Access::Admin")]
    async fn account_ledger(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The account's code, e.g. 1200.")] account_code: String,
        #[graphql(desc = "First day (default: the beginning).")] start_date: Option<NaiveDate>,
        #[graphql(desc = "Last day (default: no end).")] end_date: Option<NaiveDate>,
        #[graphql(desc = "Page size (1-500, default 100).", default = 100, directive = crate::platform::graphql::limits::range::apply(1, 500))]
        first: i64,
        #[graphql(desc = "Lines to skip.", default = 0)] offset: i64,
    ) -> AppResult<AccountLedger> {
        let page = Page::with_max(Some(first), Some(offset), 500)?;
        let mut conn = context::conn(ctx).await?;
        let account = model::account_by_code(&mut conn, &account_code).await?;
        let rows = model::ledger(
            &mut conn,
            account.id,
            start_date,
            end_date,
            page.limit,
            page.offset,
        )
        .await?;
        let total = rows.first().map_or(0, |r| r.total);
        let debit_normal = account.account_type.debit_normal();
        Ok(AccountLedger {
            total_count: total,
            page_info: page.info(total),
            lines: rows
                .into_iter()
                .map(|r| LedgerLine {
                    journal_entry_id: r.journal_entry_id,
                    entry_number: r.entry_number,
                    entry_date: r.entry_date,
                    description: r.description,
                    source_type: r.source_type,
                    source_id: r.source_id,
                    debit: Decimal(r.debit_amount),
                    credit: Decimal(r.credit_amount),
                    memo: r.memo,
                    running_balance: Decimal(if debit_normal {
                        r.running_debit_minus_credit
                    } else {
                        -r.running_debit_minus_credit
                    }),
                })
                .collect(),
            account,
        })
    }

    /// Journal entries, newest first.
    #[graphql(guard = "Access::Admin")]
    async fn journal_entries(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Page size (1-250, default 50).", directive = crate::platform::graphql::limits::range::apply(1, 250))]
        first: Option<i64>,
        #[graphql(desc = "Rows to skip.", directive = crate::platform::graphql::limits::range::apply(0, i64::from(i32::MAX)))]
        offset: Option<i64>,
    ) -> AppResult<JournalEntryConnection> {
        let page = Page::new(first, offset)?;
        let (nodes, total) =
            model::recent_entries(&mut *context::conn(ctx).await?, page.limit, page.offset).await?;
        Ok(JournalEntryConnection {
            total_count: total,
            nodes: nodes.into(),
            page_info: page.info(total),
        })
    }

    /// One journal entry.
    #[graphql(guard = "Access::Admin")]
    async fn journal_entry(&self, ctx: &Context<'_>, id: i64) -> AppResult<EntryRow> {
        model::entry(&mut *context::conn(ctx).await?, id).await
    }

    /// Fiscal periods, newest first (a period exists once something is posted in it).
    #[graphql(guard = "Access::Admin")]
    async fn fiscal_periods(&self, ctx: &Context<'_>) -> AppResult<Vec<PeriodRow>> {
        model::periods(&mut *context::conn(ctx).await?).await
    }

    /// The value of stock on hand by inventory account, reconciled with the ledger.
    #[graphql(guard = "Access::Admin")]
    async fn inventory_valuation(&self, ctx: &Context<'_>) -> AppResult<InventoryValuation> {
        use crate::ledgers::accounting::ledger::{SystemAccount, cents};
        let mut conn = context::conn(ctx).await?;
        let stock = model::stock_by_type(&mut conn).await?;
        let totals = model::totals_as_of(&mut conn, today()).await?;
        let accounts = [
            SystemAccount::RawMaterials,
            SystemAccount::FinishedGoods,
            SystemAccount::Packaging,
        ];
        let (mut value, mut gl) = (BigDecimal::zero(), BigDecimal::zero());
        let mut reconciled = true;
        let mut categories = Vec::new();
        for account in accounts {
            let mine = stock
                .iter()
                .filter(|s| rules::inventory_account(s.item_type) == Some(account));
            let (mut count, mut qty, mut val) = (0, BigDecimal::zero(), BigDecimal::zero());
            for s in mine {
                count += s.item_count;
                qty += &s.total_quantity;
                val += &s.inventory_value;
            }
            let Some(t) = totals.iter().find(|t| t.account_code == account.code()) else {
                continue;
            };
            let balance = &t.debits - &t.credits;
            let variance = &val - &balance;
            reconciled &= variance.abs() < rules::balance_tolerance();
            value += &val;
            gl += &balance;
            categories.push(ValuationRow {
                account_code: t.account_code.clone(),
                account_name: t.name.clone(),
                item_count: count,
                total_quantity: Decimal(qty),
                inventory_value: Decimal(cents(&val)),
                gl_balance: Decimal(balance),
                variance: Decimal(cents(&variance)),
            });
        }
        Ok(InventoryValuation {
            as_of_date: today(),
            categories,
            total_variance: Decimal(cents(&(&value - &gl))),
            total_inventory_value: Decimal(cents(&value)),
            total_gl_balance: Decimal(gl),
            is_reconciled: reconciled,
        })
    }

    /// The headline figures of the books as of a date (default today).
    #[graphql(guard = "Access::Admin")]
    async fn accounting_summary(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "As of this day (default today).")] as_of_date: Option<NaiveDate>,
    ) -> AppResult<AccountingSummary> {
        let as_of = as_of_date.unwrap_or_else(today);
        let tb = trial_balance(ctx, as_of, true).await?;
        let sum = |kind: GlAccountType| -> BigDecimal {
            tb.accounts
                .iter()
                .filter(|a| a.account_type == kind)
                .map(|a| a.net_balance.0.clone())
                .sum()
        };
        let inventory: BigDecimal = tb
            .accounts
            .iter()
            .filter(|a| ["1200", "1210", "1220", "1230"].contains(&a.account_code.as_str()))
            .map(|a| a.net_balance.0.clone())
            .sum();
        let (revenue, expenses) = (sum(GlAccountType::Revenue), sum(GlAccountType::Expense));
        let entry_count = model::entry_count(&mut *context::conn(ctx).await?).await?;
        Ok(AccountingSummary {
            as_of_date: as_of,
            total_assets: Decimal(sum(GlAccountType::Asset)),
            total_liabilities: Decimal(sum(GlAccountType::Liability)),
            total_equity: Decimal(sum(GlAccountType::Equity)),
            net_income: Decimal(&revenue - &expenses),
            total_revenue: Decimal(revenue),
            total_expenses: Decimal(expenses),
            inventory_value: Decimal(inventory),
            entry_count,
            is_balanced: tb.is_balanced,
        })
    }
}

/// The result of a period change.
#[derive(Debug, Clone, Default, SimpleObject)]
pub struct FiscalPeriodPayload {
    /// The period after the change.
    pub period: Option<PeriodRow>,
    /// What happened.
    pub message: Option<String>,
    /// Rule violations (nothing was changed when present).
    pub user_errors: Vec<UserError>,
}

fn period_payload(result: Result<PeriodRow, Vec<UserError>>, verb: &str) -> FiscalPeriodPayload {
    match result {
        Ok(p) => FiscalPeriodPayload {
            message: Some(format!("Period {}-{:02} {verb}", p.year, p.period)),
            period: Some(p),
            user_errors: Vec::new(),
        },
        Err(user_errors) => FiscalPeriodPayload {
            user_errors,
            ..Default::default()
        },
    }
}

/// Mutations of the books (admins).
#[derive(Default)]
pub struct AccountingMutation;

#[Object]
impl AccountingMutation {
    /// Closes a fiscal period: postings dated in it are refused from then on.
    #[graphql(guard = "Access::Admin")]
    async fn fiscal_period_close(
        &self,
        ctx: &Context<'_>,
        id: i64,
        #[graphql(
            desc = "Must be true: closing stops every posting in the period.",
            default = false
        )]
        confirm: bool,
    ) -> AppResult<FiscalPeriodPayload> {
        let user = crate::platform::auth::viewer::current_user(ctx).await?.id;
        Ok(period_payload(
            crate::in_transaction!(ctx, |conn| rules::close_period(conn, id, confirm, user)),
            "closed",
        ))
    }

    /// Reopens a closed fiscal period.
    #[graphql(guard = "Access::Admin")]
    async fn fiscal_period_reopen(
        &self,
        ctx: &Context<'_>,
        id: i64,
    ) -> AppResult<FiscalPeriodPayload> {
        Ok(period_payload(
            crate::in_transaction!(ctx, |conn| rules::reopen_period(conn, id)),
            "reopened",
        ))
    }
}

pub use super::journals::JournalsQuery;
